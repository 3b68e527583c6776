//! Neighbours read once per run, not once per file that reads them. The
//! files of an autocontext candidate all read the same bundle, its parent
//! and each other; a worker checks them one after another, so it keeps the
//! few documents it loaded last (as neighbours, or as the documents it
//! checked) and hands them out again while a [`Hold`] of the run lasts.
//! Outside one (the language server, a single check) every read goes to
//! the disk: a file may have changed since.
//!
//! Two more things a run would otherwise ask again for each file: what it
//! learned of a store's folders (that one is a folder and no link), and
//! what a family learned across its files, in the family's own form (what a
//! store's files read of each stored bundle, and what its candidates'
//! files computed for the others: a few fields each, kept for far more
//! files than whole documents). What a family learns is shared by the
//! workers of a run ([`Learning`]).

use std::any::Any;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::yaml::Document;

/// How many loaded documents a worker keeps: a candidate's files, its
/// bundle and its parent, whatever the store's size.
const KEPT: usize = 16;

/// A document a worker keeps, loaded without positions: shared, not
/// copied, by every check that reads it, and read as its value.
#[derive(Debug, Clone)]
pub struct Kept(Rc<Document>);

impl Kept {
    pub fn new(document: Document) -> Self {
        Kept(Rc::new(document))
    }

    pub fn document(&self) -> &Document {
        &self.0
    }

    /// Whether both are the one document kept, not two equal ones.
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

/// The documents a worker keeps, newest first, each with the path it was
/// read from.
type KeptDocuments = VecDeque<(PathBuf, Kept)>;

/// The largest file whose bytes a worker keeps: a store's files are a few
/// KiB; a large document is read once and not kept.
const KEPT_BYTES_LIMIT: usize = 64 * 1024;

/// The bytes a worker keeps, newest first, each with the path read and
/// what its last step was when it was opened.
type KeptBytes = VecDeque<(PathBuf, Vec<u8>, LastStep)>;

/// What the last step of a path was when the file was opened: asked of
/// the open itself, so a store's file needs no `lstat` beside it to be
/// known for no link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastStep {
    /// Opened without following a link.
    NoLink,
    /// A link, followed.
    Link,
    /// Not told by the system (where an open cannot refuse a link).
    Unknown,
}

/// How many folders a worker remembers: a candidate's folder, the store's
/// `bundles/` and `candidates/`, a few stores at once.
const KEPT_FOLDERS: usize = 16;

/// What a run learned of a folder, by the question asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// `lstat` says a folder, not a link to one.
    Plain,
    /// `stat` (links followed) says a folder.
    Folder,
}

thread_local! {
    static KEPT_VALUES: RefCell<Option<KeptDocuments>> = const { RefCell::new(None) };
    static KEPT_FOLDERS_SEEN: RefCell<Option<VecDeque<(PathBuf, Look)>>> =
        const { RefCell::new(None) };
    static KEPT_BYTES: RefCell<Option<KeptBytes>> = const { RefCell::new(None) };
    static LEARNED: RefCell<Option<Learning>> = const { RefCell::new(None) };
}

/// What the workers of one run learn together (see [`learned`]): one
/// value of each type a family asks for, shared by every [`Hold`] made
/// with it.
#[derive(Clone, Default)]
pub struct Learning(Arc<Mutex<Vec<Arc<dyn Any + Send + Sync>>>>);

/// While it lives, the neighbours this thread loads are kept and reused:
/// for one run, during which the files checked are taken not to change.
pub struct Hold {
    _not_send: std::marker::PhantomData<Rc<()>>,
}

impl Hold {
    /// A hold of its own, learning alone.
    pub fn new() -> Self {
        Self::sharing(&Learning::default())
    }

    /// A hold that learns with the others made with `learning`: the
    /// workers of one run.
    pub fn sharing(learning: &Learning) -> Self {
        KEPT_VALUES.with(|kept| *kept.borrow_mut() = Some(VecDeque::with_capacity(KEPT)));
        KEPT_FOLDERS_SEEN
            .with(|kept| *kept.borrow_mut() = Some(VecDeque::with_capacity(KEPT_FOLDERS)));
        KEPT_BYTES.with(|kept| *kept.borrow_mut() = Some(VecDeque::with_capacity(KEPT)));
        LEARNED.with(|learned| *learned.borrow_mut() = Some(learning.clone()));
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
        KEPT_FOLDERS_SEEN.with(|kept| *kept.borrow_mut() = None);
        KEPT_BYTES.with(|kept| *kept.borrow_mut() = None);
        LEARNED.with(|learned| *learned.borrow_mut() = None);
    }
}

/// The document of the file at `path`, kept from an earlier load while a
/// [`Hold`] lasts, else `load`ed (and kept, when it loads). As with bytes,
/// only JSON files (a store's) are kept.
pub fn document_at<E>(path: &Path, load: impl FnOnce() -> Result<Document, E>) -> Result<Kept, E> {
    if !is_kept_kind(path) {
        return load().map(Kept::new);
    }
    if let Some(kept) = kept_document(path) {
        return Ok(kept);
    }
    Ok(keep_document(path, load()?))
}

/// The document of the file at `path`, if one is kept.
fn kept_document(path: &Path) -> Option<Kept> {
    KEPT_VALUES.with(|kept| {
        kept.borrow().as_ref().and_then(|documents| {
            documents
                .iter()
                .find(|(at, _)| same_spelling(at, path))
                .map(|(_, document)| document.clone())
        })
    })
}

/// The document kept for `path` if `value` is its value (not an equal
/// one): what a check holds as its subject, shared with the run, or none
/// when the subject was loaded otherwise (an editor's unsaved text).
/// Nothing is read.
pub fn kept_as(path: &Path, value: &Value) -> Option<Kept> {
    kept_document(path).filter(|kept| std::ptr::eq(&**kept, value))
}

/// `document`, loaded from `path`, kept while a [`Hold`] lasts.
fn keep_document(path: &Path, document: Document) -> Kept {
    let document = Kept::new(document);
    KEPT_VALUES.with(|kept| {
        if let Some(documents) = kept.borrow_mut().as_mut() {
            if documents.len() >= KEPT {
                documents.pop_back();
            }
            documents.push_front((path.to_path_buf(), document.clone()));
        }
    });
    document
}

/// The bytes of the file at `path`, kept from an earlier read while a
/// [`Hold`] lasts, else `read` (and kept, when read and small): a store's
/// record is read by its matched trials and then checked itself, its
/// matched trials checked and then read by the record.
pub fn bytes_at<E>(
    path: &Path,
    read: impl FnOnce() -> Result<(Vec<u8>, LastStep), E>,
) -> Result<(Vec<u8>, LastStep), E> {
    // Only a store's files are read twice, and all of them are JSON: any
    // other file (every document of a policy tree) is read without a copy
    // kept or a look among the kept ones.
    if !is_kept_kind(path) {
        return read();
    }
    let kept = KEPT_BYTES.with(|kept| {
        kept.borrow().as_ref().and_then(|files| {
            files
                .iter()
                .find(|(at, _, _)| same_spelling(at, path))
                .map(|(_, bytes, step)| (bytes.clone(), *step))
        })
    });
    if let Some(read) = kept {
        return Ok(read);
    }
    let (bytes, step) = read()?;
    if bytes.len() <= KEPT_BYTES_LIMIT {
        KEPT_BYTES.with(|kept| {
            if let Some(files) = kept.borrow_mut().as_mut() {
                if files.len() >= KEPT {
                    files.pop_back();
                }
                files.push_front((path.to_path_buf(), bytes.clone(), step));
            }
        });
    }
    Ok((bytes, step))
}

/// Whether the file at `path` was read while a [`Hold`] lasts, its bytes
/// are kept, and its last step was no link when it was opened.
pub fn read_without_link(path: &Path) -> bool {
    is_kept_kind(path)
        && KEPT_BYTES.with(|kept| {
            kept.borrow().as_ref().is_some_and(|files| {
                files
                    .iter()
                    .any(|(at, _, step)| *step == LastStep::NoLink && same_spelling(at, path))
            })
        })
}

/// Whether a file at `path` is of the kind a run keeps (a store's JSON):
/// its document is loaded as its neighbours load it, without positions.
pub fn is_kept_kind(path: &Path) -> bool {
    path.as_os_str().as_encoded_bytes().ends_with(b".json")
}

/// Whether two paths are spelt alike. `Path`'s own `==` parses both into
/// components, which was a tenth of a store's run when asked for every
/// kept path; a path spelt otherwise is only read again.
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

/// What the run learned of type `T` (a family's own record of what its
/// files share), made empty when first asked; `None` outside a [`Hold`],
/// where nothing is kept. The family bounds its size. Lock it for a look
/// or an addition, not across another call that may ask for it.
pub fn learned<T: Default + Send + 'static>() -> Option<Arc<Mutex<T>>> {
    let learning = LEARNED.with(|learned| learned.borrow().clone())?;
    let mut kinds = learning.0.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = kinds
        .iter()
        .find_map(|kind| kind.clone().downcast::<Mutex<T>>().ok())
    {
        return Some(known);
    }
    let made = Arc::new(Mutex::new(T::default()));
    kinds.push(made.clone());
    Some(made)
}

/// Whether the folder at `path` answers `look`, remembered from an earlier
/// `ask` while a [`Hold`] lasts, else `ask`ed. Only a folder found is
/// remembered: a path that is not one is asked again.
pub fn is_folder(path: &Path, look: Look, ask: impl FnOnce() -> bool) -> bool {
    let known = KEPT_FOLDERS_SEEN.with(|kept| {
        kept.borrow().as_ref().is_some_and(|folders| {
            folders
                .iter()
                .any(|(at, seen)| *seen == look && same_spelling(at, path))
        })
    });
    if known {
        return true;
    }
    let found = ask();
    if found {
        KEPT_FOLDERS_SEEN.with(|kept| {
            if let Some(folders) = kept.borrow_mut().as_mut() {
                if folders.len() >= KEPT_FOLDERS {
                    folders.pop_back();
                }
                folders.push_front((path.to_path_buf(), look));
            }
        });
    }
    found
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::cell::Cell;
    use std::convert::Infallible;

    use serde_json::json;

    use super::*;

    fn kept(value: Value) -> Kept {
        Kept::new(Document {
            value,
            positions: Default::default(),
            placed: false,
            text: Default::default(),
        })
    }

    #[test]
    fn a_document_is_loaded_once_while_held_and_every_time_otherwise() {
        let loads = Cell::new(0);
        let load = || {
            loads.set(loads.get() + 1);
            Ok::<_, String>(kept(json!({"a": 1})).document().clone())
        };
        let path = Path::new("store/bundles/a.json");
        document_at(path, load).unwrap();
        document_at(path, load).unwrap();
        assert_eq!(loads.get(), 2);
        {
            let _hold = Hold::new();
            let first = document_at(path, load).unwrap();
            assert_eq!(*first, json!({"a": 1}));
            assert!(document_at(path, load).unwrap().is(&first));
            assert_eq!(loads.get(), 3);
            // Beyond what is kept, the oldest goes.
            for index in 0..KEPT {
                document_at(&PathBuf::from(format!("store/{index}.json")), load).unwrap();
            }
            document_at(path, load).unwrap();
            assert_eq!(loads.get(), 3 + KEPT + 1);
            // A failed load is not kept.
            let missing = Path::new("store/missing.json");
            assert!(document_at(missing, || Err("no such file".to_owned())).is_err());
            document_at(missing, load).unwrap();
            assert_eq!(loads.get(), 3 + KEPT + 2);
            // A document kept as it was checked is the one handed out, and
            // is told from an equal value that is not it.
            let checked = Path::new("store/checked.json");
            let own = keep_document(checked, kept(json!({"b": 2})).document().clone());
            assert!(document_at(checked, load).unwrap().is(&own));
            assert!(kept_as(checked, &own).is_some_and(|found| found.is(&own)));
            assert!(kept_as(checked, &json!({"b": 2})).is_none());
            assert!(kept_as(Path::new("store/unread.json"), &own).is_none());
            assert_eq!(loads.get(), 3 + KEPT + 2);
            // A document that is not JSON is never a store's: loaded each time.
            let playbook = Path::new(".numinance/policy/playbook.yaml");
            document_at(playbook, load).unwrap();
            document_at(playbook, load).unwrap();
            assert_eq!(loads.get(), 3 + KEPT + 4);
        }
        assert!(kept_document(path).is_none());
        document_at(path, load).unwrap();
        assert_eq!(loads.get(), 3 + KEPT + 5);
    }

    #[test]
    fn a_folder_found_is_asked_once_while_held_and_one_not_found_every_time() {
        let asks = &Cell::new(0);
        let ask = |answer: bool| {
            move || {
                asks.set(asks.get() + 1);
                answer
            }
        };
        let folder = Path::new("store/candidates");
        assert!(is_folder(folder, Look::Plain, ask(true)));
        assert!(is_folder(folder, Look::Plain, ask(true)));
        assert_eq!(asks.get(), 2);
        {
            let _hold = Hold::new();
            assert!(is_folder(folder, Look::Plain, ask(true)));
            assert!(is_folder(folder, Look::Plain, ask(false)));
            assert_eq!(asks.get(), 3);
            // Another question about the same folder is asked.
            assert!(!is_folder(folder, Look::Folder, ask(false)));
            assert!(!is_folder(folder, Look::Folder, ask(false)));
            assert_eq!(asks.get(), 5);
            // Beyond what is kept, the oldest goes.
            for index in 0..KEPT_FOLDERS {
                is_folder(
                    &PathBuf::from(format!("store/{index}")),
                    Look::Plain,
                    ask(true),
                );
            }
            assert!(!is_folder(folder, Look::Plain, ask(false)));
            assert_eq!(asks.get(), 5 + KEPT_FOLDERS + 1);
        }
        assert!(!is_folder(folder, Look::Plain, ask(false)));
    }

    #[test]
    fn small_files_are_read_once_while_held_and_large_ones_every_time() {
        let reads = &Cell::new(0);
        let read = |size: usize| {
            move || -> Result<(Vec<u8>, LastStep), Infallible> {
                reads.set(reads.get() + 1);
                Ok((vec![b'x'; size], LastStep::NoLink))
            }
        };
        let bytes = |read: Result<(Vec<u8>, LastStep), Infallible>| read.unwrap().0;
        let small = Path::new("store/candidates/d/record.json");
        let large = Path::new("store/large.json");
        bytes_at(small, read(3)).unwrap();
        bytes_at(small, read(3)).unwrap();
        assert_eq!(reads.get(), 2);
        {
            let _hold = Hold::new();
            assert_eq!(bytes(bytes_at(small, read(3))), b"xxx");
            assert_eq!(bytes(bytes_at(small, read(5))), b"xxx");
            assert_eq!(reads.get(), 3);
            bytes_at(large, read(KEPT_BYTES_LIMIT + 1)).unwrap();
            bytes_at(large, read(KEPT_BYTES_LIMIT + 1)).unwrap();
            assert_eq!(reads.get(), 5);
            // A failed read is not kept.
            let missing = Path::new("store/missing.json");
            assert!(bytes_at(missing, || Err("no such file")).is_err());
            let once = || Ok::<_, &str>((vec![1], LastStep::Link));
            assert_eq!(bytes_at(missing, once).unwrap().0, [1]);
            // A document that is not JSON is never a store's: read each time.
            let playbook = Path::new(".numinance/policy/playbook.yaml");
            bytes_at(playbook, read(3)).unwrap();
            bytes_at(playbook, read(3)).unwrap();
            assert_eq!(reads.get(), 7);
        }
        bytes_at(small, read(3)).unwrap();
        assert_eq!(reads.get(), 8);
    }

    #[test]
    fn a_file_is_known_for_no_link_only_when_kept_from_an_open_that_said_so() {
        let read = |step: LastStep| move || Ok::<_, String>((b"{}".to_vec(), step));
        let plain = Path::new("store/bundles/a.json");
        let linked = Path::new("store/bundles/b.json");
        let unknown = Path::new("store/bundles/c.json");
        bytes_at(plain, read(LastStep::NoLink)).unwrap();
        assert!(!read_without_link(plain), "nothing is kept outside a hold");
        let _hold = Hold::new();
        assert!(!read_without_link(plain), "not read yet");
        bytes_at(plain, read(LastStep::NoLink)).unwrap();
        bytes_at(linked, read(LastStep::Link)).unwrap();
        bytes_at(unknown, read(LastStep::Unknown)).unwrap();
        assert!(read_without_link(plain));
        assert!(!read_without_link(linked));
        assert!(!read_without_link(unknown));
        assert!(!read_without_link(Path::new("store/bundles/./a.json")));
    }

    #[test]
    fn what_a_run_learned_is_kept_while_held_one_value_of_each_type() {
        let numbers = || learned::<Vec<u32>>().unwrap();
        assert!(learned::<Vec<u32>>().is_none());
        {
            let _hold = Hold::new();
            numbers().lock().unwrap().push(1);
            assert_eq!(*numbers().lock().unwrap(), [1]);
            assert!(learned::<Vec<String>>().unwrap().lock().unwrap().is_empty());
            assert!(Arc::ptr_eq(&numbers(), &numbers()));
        }
        assert!(learned::<Vec<u32>>().is_none());
        let _hold = Hold::new();
        assert!(numbers().lock().unwrap().is_empty());
    }

    #[test]
    fn the_holds_of_one_run_learn_together() {
        let learning = Learning::default();
        let learn = |value: u32| {
            let learning = learning.clone();
            std::thread::spawn(move || {
                let _hold = Hold::sharing(&learning);
                learned::<Vec<u32>>().unwrap().lock().unwrap().push(value);
            })
        };
        for worker in [learn(1), learn(2)] {
            worker.join().unwrap();
        }
        let hold = Hold::sharing(&learning);
        let mut together = learned::<Vec<u32>>().unwrap().lock().unwrap().clone();
        together.sort_unstable();
        assert_eq!(together, [1, 2]);
        drop(hold);
        let _alone = Hold::new();
        assert!(learned::<Vec<u32>>().unwrap().lock().unwrap().is_empty());
    }
}
