//! The files of one folder that a worker checks together, as one unit.
//! The files of an autocontext candidate read each other, and a store's
//! bundles read their parents: checked one by one, each file would be read
//! and loaded once for its own check and again for every neighbour that
//! reads it. A run hands a folder's files out together ([`Unit`]): each is
//! read from the disk once and loaded once, and its own check and every
//! neighbour's read share that one document. What stands outside the unit
//! is read where it is asked.
//!
//! What a family learns across its files and units (what a store's files
//! read of each stored bundle, what a candidate's files computed for the
//! others, a few fields each) is shared by the units of a run, whichever
//! worker checks them ([`Learning`]), in the family's own form.

use std::any::Any;
use std::cell::{OnceCell, RefCell};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use super::{LastStep, ReadError, read_regular_noting, within_limit};
use crate::yaml::{Document, YamlError};

/// A document loaded once and shared, not copied, by every check of its
/// unit that reads it; read as its value.
#[derive(Debug, Clone)]
pub struct Kept(Rc<Document>);

impl Kept {
    pub fn new(document: Document) -> Self {
        Kept(Rc::new(document))
    }

    pub fn document(&self) -> &Document {
        &self.0
    }

    /// Whether both are the one document loaded, not two equal ones.
    pub fn is(&self, other: &Kept) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Kept {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.0.value
    }
}

/// The largest file a unit shares: a store's files are a few KiB; a large
/// document is read for its own check alone, and again by a neighbour
/// that reads it, so a unit's memory stays a few of its files.
const SHARED_LIMIT: usize = 64 * 1024;

/// The JSON files of one folder, checked one after another by one worker.
/// Each is read and loaded at most once while the unit lasts, whichever
/// check asks first: its own, or a neighbour's. The files are taken not to
/// change while it lasts (one run).
#[derive(Debug, Default)]
pub struct Unit {
    members: Vec<Member>,
    /// What the run learns across its units.
    learning: Learning,
    /// The folders found to be folders and no links while the unit lasts:
    /// its files share the steps between their store and them.
    plain_folders: RefCell<Vec<PathBuf>>,
}

/// A file's bytes as a unit read them, and how the last step of its path
/// was opened; or why it was not read.
pub type Read = Result<(Rc<Vec<u8>>, LastStep), ReadError>;

/// One file of a unit.
#[derive(Debug)]
struct Member {
    path: PathBuf,
    read: OnceCell<Read>,
    loaded: OnceCell<Result<Kept, YamlError>>,
}

impl Unit {
    /// The unit of the files at `paths`, learning with the run's other
    /// units through `learning`.
    pub fn new(paths: impl IntoIterator<Item = PathBuf>, learning: &Learning) -> Self {
        Unit {
            learning: learning.clone(),
            members: paths
                .into_iter()
                .map(|path| Member {
                    path,
                    read: OnceCell::new(),
                    loaded: OnceCell::new(),
                })
                .collect(),
            plain_folders: RefCell::default(),
        }
    }

    /// Whether a file at `path` can be one of a unit: a store's files are
    /// JSON, and a tree's YAML documents are checked alone.
    pub fn takes(path: &Path) -> bool {
        path.as_os_str().as_encoded_bytes().ends_with(b".json")
    }

    fn member(&self, path: &Path) -> Option<&Member> {
        self.members
            .iter()
            .find(|member| same_spelling(&member.path, path))
    }

    /// Whether `path` is one of the unit's files.
    pub fn holds(&self, path: &Path) -> bool {
        self.member(path).is_some()
    }

    /// The bytes of the unit's file at `path` (links followed), at most
    /// `limit` of them, and whether its last step was a link; `None` for a
    /// file not in the unit.
    pub fn read(&self, path: &Path, limit: u64) -> Option<Read> {
        let member = self.member(path)?;
        let read = match member.read.get() {
            Some(read) => read.clone(),
            None => {
                let read = read_regular_noting(path, limit, || true)
                    .map(|(bytes, step)| (Rc::new(bytes), step));
                if read
                    .as_ref()
                    .is_ok_and(|(bytes, _)| bytes.len() > SHARED_LIMIT)
                {
                    return Some(read);
                }
                member.read.get_or_init(|| read).clone()
            }
        };
        // A file read under a larger limit is still refused.
        Some(read.and_then(|(bytes, step)| {
            within_limit(bytes.len(), limit)?;
            Ok((bytes, step))
        }))
    }

    /// Whether the unit's file at `path` was read, and its last step was
    /// no link when it was opened.
    pub(super) fn read_without_link(&self, path: &Path) -> bool {
        self.member(path)
            .is_some_and(|member| matches!(member.read.get(), Some(Ok((_, LastStep::NoLink)))))
    }

    /// The document of the unit's file at `path`, loaded from `bytes` (its
    /// bytes) by `load` the first time it is asked for; `None` for a file
    /// not in the unit.
    pub fn document(
        &self,
        path: &Path,
        bytes: &[u8],
        load: impl FnOnce(&[u8]) -> Result<Document, YamlError>,
    ) -> Option<Result<Kept, YamlError>> {
        let member = self.member(path)?;
        if let Some(loaded) = member.loaded.get() {
            return Some(loaded.clone());
        }
        let loaded = load(bytes).map(Kept::new);
        if bytes.len() > SHARED_LIMIT {
            return Some(loaded);
        }
        Some(member.loaded.get_or_init(|| loaded).clone())
    }

    /// The document the unit loaded for its file at `path`, if it is
    /// `value` itself (not an equal one): a check's subject as the run read
    /// it, not an editor's unsaved text.
    pub fn loaded_as(&self, path: &Path, value: &Value) -> bool {
        self.member(path).is_some_and(
            |member| matches!(member.loaded.get(), Some(Ok(kept)) if std::ptr::eq(&**kept, value)),
        )
    }

    /// What the run learned of type `T` (a family's own record of what its
    /// files share), made empty when first asked. The family bounds its
    /// size. Lock it for a look or an addition, not across another call
    /// that may ask for it.
    pub fn learned<T: Default + Send + 'static>(&self) -> Arc<Mutex<T>> {
        self.learning.of::<T>()
    }

    /// Whether the folder at `path` is a folder and no link: found once
    /// while the unit lasts, else `ask`ed. A path that is not one is asked
    /// again.
    pub(super) fn is_plain_folder(&self, path: &Path, ask: impl FnOnce() -> bool) -> bool {
        if self
            .plain_folders
            .borrow()
            .iter()
            .any(|folder| same_spelling(folder, path))
        {
            return true;
        }
        let plain = ask();
        if plain {
            self.plain_folders.borrow_mut().push(path.to_path_buf());
        }
        plain
    }
}

/// Whether two paths are spelt alike. `Path`'s own `==` parses both into
/// components, which was a tenth of a store's run when asked for every
/// file; a path spelt otherwise is only read again.
fn same_spelling(kept: &Path, asked: &Path) -> bool {
    // A store's paths share a long folder and differ in their last bytes
    // (a digest, a file name): those are compared first.
    let (kept, asked) = (
        kept.as_os_str().as_encoded_bytes(),
        asked.as_os_str().as_encoded_bytes(),
    );
    let tail = kept.len().saturating_sub(16);
    kept.len() == asked.len() && kept.get(tail..) == asked.get(tail..) && kept == asked
}

/// What the workers of one run learn together (see [`Unit::learned`]):
/// one value of each type a family asks for, shared by every unit made
/// with it.
#[derive(Clone, Default)]
pub struct Learning(Arc<Mutex<Vec<Arc<dyn Any + Send + Sync>>>>);

impl std::fmt::Debug for Learning {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Learning")
    }
}

impl Learning {
    /// What was learned of type `T`, made empty when first asked.
    fn of<T: Default + Send + 'static>(&self) -> Arc<Mutex<T>> {
        let mut kinds = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = kinds
            .iter()
            .find_map(|kind| kind.clone().downcast::<Mutex<T>>().ok())
        {
            return known;
        }
        let made = Arc::new(Mutex::new(T::default()));
        kinds.push(made.clone());
        made
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::cell::Cell;

    use serde_json::json;

    use super::*;

    fn document(value: Value) -> Document {
        Document {
            value,
            positions: Default::default(),
            placed: false,
            text: Default::default(),
        }
    }

    #[test]
    fn a_file_of_the_unit_is_read_once_and_loaded_once() {
        let folder = tempfile::tempdir().unwrap();
        let (a, b) = (folder.path().join("a.json"), folder.path().join("b.json"));
        std::fs::write(&a, "{\"a\": 1}").unwrap();
        std::fs::write(&b, "{}").unwrap();
        let outside = folder.path().join("c.json");
        let unit = Unit::new([a.clone(), b.clone()], &Learning::default());
        assert!(unit.holds(&a) && !unit.holds(&outside));
        assert!(!unit.read_without_link(&a), "not read yet");

        let (bytes, step) = unit.read(&a, 1024).unwrap().unwrap();
        assert_eq!(bytes.as_slice(), b"{\"a\": 1}");
        assert_eq!(step, LastStep::NoLink);
        assert!(unit.read_without_link(&a));
        // Changed on the disk after the read: the unit keeps what it read.
        std::fs::write(&a, "{\"a\": 2}").unwrap();
        let (again, _) = unit.read(&a, 1024).unwrap().unwrap();
        assert!(Rc::ptr_eq(&bytes, &again));
        // Under a smaller limit, refused all the same.
        assert_eq!(unit.read(&a, 3).unwrap(), Err(ReadError::TooLarge(3)));
        assert!(unit.read(&outside, 1024).is_none());

        let loads = Cell::new(0);
        let load = |_: &[u8]| {
            loads.set(loads.get() + 1);
            Ok(document(json!({"a": 1})))
        };
        let first = unit.document(&a, &bytes, load).unwrap().unwrap();
        let second = unit.document(&a, &bytes, load).unwrap().unwrap();
        assert!(first.is(&second));
        assert_eq!(loads.get(), 1);
        assert!(unit.loaded_as(&a, &first));
        assert!(
            !unit.loaded_as(&a, &json!({"a": 1})),
            "an equal value is not it"
        );
        assert!(!unit.loaded_as(&b, &first));
        assert!(unit.document(&outside, &bytes, load).is_none());
        assert_eq!(loads.get(), 1);
    }

    #[test]
    fn a_large_file_is_not_shared_and_a_failure_is() {
        let folder = tempfile::tempdir().unwrap();
        let (large, missing) = (folder.path().join("l.json"), folder.path().join("m.json"));
        std::fs::write(&large, vec![b' '; SHARED_LIMIT + 1]).unwrap();
        let unit = Unit::new([large.clone(), missing.clone()], &Learning::default());
        let (first, _) = unit.read(&large, u64::MAX).unwrap().unwrap();
        let (second, _) = unit.read(&large, u64::MAX).unwrap().unwrap();
        assert!(!Rc::ptr_eq(&first, &second));
        let loads = Cell::new(0);
        let load = |_: &[u8]| {
            loads.set(loads.get() + 1);
            Ok(document(json!({})))
        };
        let one = unit.document(&large, &first, load).unwrap().unwrap();
        let two = unit.document(&large, &first, load).unwrap().unwrap();
        assert!(!one.is(&two));
        assert_eq!(loads.get(), 2);
        // What cannot be read is told alike to every check that asks.
        assert!(unit.read(&missing, 1024).unwrap().is_err());
        std::fs::write(&missing, "{}").unwrap();
        assert!(unit.read(&missing, 1024).unwrap().is_err());
    }

    #[test]
    fn a_folder_found_plain_is_asked_once_in_a_unit_and_one_not_found_every_time() {
        let asks = &Cell::new(0);
        let ask = |answer: bool| {
            move || {
                asks.set(asks.get() + 1);
                answer
            }
        };
        let unit = Unit::default();
        let folder = Path::new("store/candidates");
        assert!(unit.is_plain_folder(folder, ask(true)));
        assert!(unit.is_plain_folder(folder, ask(false)));
        assert_eq!(asks.get(), 1);
        let other = Path::new("store/bundles");
        assert!(!unit.is_plain_folder(other, ask(false)));
        assert!(!unit.is_plain_folder(other, ask(false)));
        assert_eq!(asks.get(), 3);
        assert!(Unit::default().is_plain_folder(folder, ask(true)));
        assert_eq!(asks.get(), 4, "another unit asks again");
    }

    #[test]
    fn only_json_files_make_units() {
        assert!(Unit::takes(Path::new("store/bundles/a.json")));
        assert!(!Unit::takes(Path::new(".numinance/policy/playbook.yaml")));
    }

    #[test]
    fn the_units_of_one_run_learn_together_one_value_of_each_type() {
        let learning = Learning::default();
        let learn = |value: u32| {
            let learning = learning.clone();
            std::thread::spawn(move || {
                let unit = Unit::new([], &learning);
                unit.learned::<Vec<u32>>().lock().unwrap().push(value);
            })
        };
        for worker in [learn(1), learn(2)] {
            worker.join().unwrap();
        }
        let unit = Unit::new([], &learning);
        let mut together = unit.learned::<Vec<u32>>().lock().unwrap().clone();
        together.sort_unstable();
        assert_eq!(together, [1, 2]);
        assert!(Arc::ptr_eq(
            &unit.learned::<Vec<u32>>(),
            &unit.learned::<Vec<u32>>()
        ));
        assert!(unit.learned::<Vec<String>>().lock().unwrap().is_empty());
        let alone = Unit::default();
        assert!(alone.learned::<Vec<u32>>().lock().unwrap().is_empty());
    }
}
