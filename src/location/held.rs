//! Neighbours read once per run, not once per file that reads them. The
//! files of an autocontext candidate all read the same bundle, its parent
//! and each other; a worker checks them one after another, so it keeps the
//! few values it parsed last and hands them out again while a [`Hold`] of
//! the run lasts. Outside one (the language server, a single check) every
//! read goes to the disk: a file may have changed since.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::Value;

/// How many parsed neighbours a worker keeps: a candidate's files, its
/// bundle and its parent, whatever the store's size.
const KEPT: usize = 12;

/// The values a worker keeps, newest first, each with the path it was read from.
type Kept = VecDeque<(PathBuf, Rc<Value>)>;

thread_local! {
    static KEPT_VALUES: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// While it lives, the neighbours this thread loads are kept and reused:
/// for one run, during which the files checked are taken not to change.
pub struct Hold {
    _not_send: std::marker::PhantomData<Rc<()>>,
}

impl Hold {
    pub fn new() -> Self {
        KEPT_VALUES.with(|kept| *kept.borrow_mut() = Some(VecDeque::with_capacity(KEPT)));
        Hold {
            _not_send: std::marker::PhantomData,
        }
    }
}

impl Default for Hold {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        KEPT_VALUES.with(|kept| *kept.borrow_mut() = None);
    }
}

/// The value of the file at `path`, kept from an earlier load while a
/// [`Hold`] lasts, else `load`ed (and kept, when it loads).
pub fn value_at(
    path: &Path,
    load: impl FnOnce() -> Result<Value, String>,
) -> Result<Rc<Value>, String> {
    let kept = KEPT_VALUES.with(|kept| {
        kept.borrow().as_ref().and_then(|values| {
            values
                .iter()
                .find(|(at, _)| at == path)
                .map(|(_, value)| Rc::clone(value))
        })
    });
    if let Some(value) = kept {
        return Ok(value);
    }
    let value = Rc::new(load()?);
    KEPT_VALUES.with(|kept| {
        if let Some(values) = kept.borrow_mut().as_mut() {
            if values.len() >= KEPT {
                values.pop_back();
            }
            values.push_front((path.to_path_buf(), Rc::clone(&value)));
        }
    });
    Ok(value)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::cell::Cell;

    use serde_json::json;

    use super::*;

    #[test]
    fn a_neighbour_is_loaded_once_while_held_and_every_time_otherwise() {
        let loads = Cell::new(0);
        let load = || {
            loads.set(loads.get() + 1);
            Ok(json!({"a": 1}))
        };
        let path = Path::new("store/bundles/a.json");
        value_at(path, load).unwrap();
        value_at(path, load).unwrap();
        assert_eq!(loads.get(), 2);
        {
            let _hold = Hold::new();
            assert_eq!(*value_at(path, load).unwrap(), json!({"a": 1}));
            value_at(path, load).unwrap();
            assert_eq!(loads.get(), 3);
            // Beyond what is kept, the oldest goes.
            for index in 0..KEPT {
                value_at(&PathBuf::from(format!("store/{index}.json")), load).unwrap();
            }
            value_at(path, load).unwrap();
            assert_eq!(loads.get(), 3 + KEPT + 1);
            // A failed load is not kept.
            let missing = Path::new("store/missing.json");
            assert!(value_at(missing, || Err("no such file".to_owned())).is_err());
            value_at(missing, load).unwrap();
            assert_eq!(loads.get(), 3 + KEPT + 2);
        }
        value_at(path, load).unwrap();
        assert_eq!(loads.get(), 3 + KEPT + 3);
    }
}
