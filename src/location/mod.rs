//! Where a document was read from, and the one way a check may look at the
//! files around it. Some families need their neighbours: a context-report
//! manifest names paths relative to itself, an autocontext store checks the
//! pointers between its files. They read through [`Location`], under the
//! same size limit as any input, and never open what is not a regular file
//! (a FIFO would block the run, a device would never end).

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use crate::text::human_size;

pub mod unit;

use unit::Unit;

/// The default for `--max-file-size`: 16 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// The file a document came from, and the limits for reading beside it.
#[derive(Debug, Clone, Copy)]
pub struct Location<'a> {
    path: Option<&'a Path>,
    max_file_size: u64,
    /// The files checked together with this one, when it is one of them.
    unit: Option<&'a Unit>,
}

/// What stands at a path, told without opening it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A regular file (a link to one counts), of this many bytes.
    File(u64),
    Folder,
    Missing,
    /// Something that is neither (a FIFO, a socket, a device), or a path
    /// that cannot be looked at; the reason as people read it.
    Other(String),
}

impl<'a> Location<'a> {
    /// A document read from the file at `path`.
    pub fn file(path: &'a Path, max_file_size: u64) -> Self {
        Location {
            path: Some(path),
            max_file_size,
            unit: None,
        }
    }

    /// The same document, checked with the files of `unit`: what it reads
    /// of them, and they of it, is read and loaded once.
    pub fn in_unit(self, unit: &'a Unit) -> Self {
        Location {
            unit: Some(unit),
            ..self
        }
    }

    /// The files checked together with this one, when it is one of them.
    pub fn unit(&self) -> Option<&'a Unit> {
        self.unit
    }

    /// What the run learned of type `T` (see [`Unit::learned`]); `None`
    /// outside a run's unit (the language server, a single check), where
    /// nothing is kept.
    pub fn learned<T: Default + Send + 'static>(
        &self,
    ) -> Option<std::sync::Arc<std::sync::Mutex<T>>> {
        self.unit.map(Unit::learned)
    }

    /// Whether `value` is the document its unit loaded for this file: the
    /// file as the run read it, not an editor's unsaved text, so what is
    /// learned of it holds for every check of the run.
    pub fn is_loaded(&self, value: &serde_json::Value) -> bool {
        match (self.unit, self.path) {
            (Some(unit), Some(path)) => unit.loaded_as(path, value),
            _ => false,
        }
    }

    /// A document with no file: standard input, or text handed over in
    /// memory. Nothing beside it can be read.
    pub fn detached(max_file_size: u64) -> Self {
        Location {
            path: None,
            max_file_size,
            unit: None,
        }
    }

    /// The document's own path, when it has one.
    pub fn path(&self) -> Option<&'a Path> {
        self.path
    }

    /// The folder holding the document; `.` for a bare file name.
    pub fn folder(&self) -> Option<&'a Path> {
        self.path.map(|path| match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        })
    }

    /// `relative` joined to the document's folder (an absolute path stays
    /// as it is); `None` for a document without a file.
    pub fn resolve(&self, relative: &str) -> Option<PathBuf> {
        self.folder().map(|folder| folder.join(relative))
    }

    /// The largest file a check may read beside the document.
    pub fn max_file_size(&self) -> u64 {
        self.max_file_size
    }

    /// What stands at `path`, links followed, nothing opened.
    pub fn entry(&self, path: &Path) -> Entry {
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_file() => Entry::File(metadata.len()),
            Ok(metadata) if metadata.is_dir() => Entry::Folder,
            Ok(_) => Entry::Other(NOT_A_REGULAR_FILE.to_owned()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Entry::Missing,
            Err(error) => Entry::Other(io_reason(&error)),
        }
    }

    /// The bytes of the regular file at `path`, within the size limit.
    pub fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        read_regular(path, self.max_file_size)
    }

    /// [`Location::read`] for a path that must stay inside `root` once its
    /// links are resolved: a path that leaves it is refused. A file of the
    /// unit is read once, as it is for its own check (links followed), and
    /// refused when its links lead out; any other is not opened when they
    /// do (see [`read_file_within`]).
    pub fn read_within(&self, root: &Path, path: &Path) -> Result<Rc<Vec<u8>>, ReadError> {
        let Some(read) = self
            .unit
            .and_then(|unit| unit.read(path, self.max_file_size))
        else {
            return read_file_within(root, path, self.max_file_size, self.unit).map(Rc::new);
        };
        let (bytes, step) = read?;
        let plain = step == LastStep::NoLink && folders_stay_within(root, path, self.unit);
        if plain || resolved_within(root, path) {
            Ok(bytes)
        } else {
            Err(ReadError::Unreadable(OUTSIDE_THE_STORE.to_owned()))
        }
    }

    /// Whether `path`, with its links resolved, stays inside `root` (see
    /// [`stays_within`]); a file of the unit read without a link, in
    /// folders the unit found plain, is known to without a look.
    pub fn stays_within(&self, root: &Path, path: &Path) -> bool {
        if self.unit.is_some_and(|unit| unit.read_without_link(path))
            && folders_stay_within(root, path, self.unit)
        {
            return true;
        }
        stays_within_asking(root, path, self.unit)
    }

    /// The names in the folder at `path`, sorted bytewise; hidden names
    /// included. An error is worded for people by [`io_reason`].
    pub fn list(&self, path: &Path) -> Result<Vec<String>, io::Error> {
        let entries = fs::read_dir(path)?;
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        names.sort_unstable();
        Ok(names)
    }

    /// `path` made absolute with its links resolved as far as it exists,
    /// the rest taken by its words: where a tool that writes there will
    /// write, whether or not it exists yet. Nothing is opened.
    pub fn real_path(&self, path: &Path) -> PathBuf {
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir().map_or_else(|_| path.to_path_buf(), |cwd| cwd.join(path))
        };
        let components: Vec<Component<'_>> = absolute.components().collect();
        for existing in (0..=components.len()).rev() {
            let (head, tail) = components.split_at(existing);
            let Ok(mut real) = fs::canonicalize(head.iter().collect::<PathBuf>()) else {
                continue;
            };
            for component in tail {
                match component {
                    Component::ParentDir => {
                        real.pop();
                    }
                    Component::Normal(name) => real.push(name),
                    _ => {}
                }
            }
            return real;
        }
        absolute
    }
}

/// Whether a folder walk reads a file of another name than YAML's, as a
/// family's document: told by where it stands, the file itself unopened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// No family reads it.
    No,
    /// A family reads it when a folder stands at this path: a store's
    /// file, in a store marked by its `bundles/` folder. The files of one
    /// store ask of the same folder, which a walk looks at once for them.
    IfFolder(PathBuf),
}

/// Why a neighbour whose links lead out of its store is not read.
pub const OUTSIDE_THE_STORE: &str = "leads outside its store";

/// Whether `path`, with its links resolved, stays inside `root`. A path
/// that does not exist yet is judged by its words: no `..` step.
pub fn stays_within(root: &Path, path: &Path) -> bool {
    stays_within_asking(root, path, None)
}

/// [`stays_within`], with the folders `unit` found plain taken as found.
fn stays_within_asking(root: &Path, path: &Path, unit: Option<&Unit>) -> bool {
    // The common case, asked for every neighbour a store's file reads: a
    // path spelt as `root` and plain names, none of them a link. It stays
    // where `root` leads, whatever `root` is, and a few `lstat`s tell so
    // without resolving both paths whole.
    if folders_stay_within(root, path, unit)
        && fs::symlink_metadata(path).is_ok_and(|meta| !meta.file_type().is_symlink())
    {
        return true;
    }
    resolved_within(root, path)
}

/// Whether `path` is spelt as `root` and plain names below it, with at
/// least one, and every step but the last a folder that is no link. The
/// files of a unit share their folders: each is looked at once a unit.
fn folders_stay_within(root: &Path, path: &Path, unit: Option<&Unit>) -> bool {
    match plain_folders_below(root, path) {
        Some(mut folders) => folders.all(|folder| is_plain_folder(folder, unit)),
        None => folders_stay_within_by_steps(root, path, unit),
    }
}

/// Whether `folder` is a folder and no link, found once in `unit`.
fn is_plain_folder(folder: &Path, unit: Option<&Unit>) -> bool {
    let ask = || matches!(fs::symlink_metadata(folder), Ok(meta) if meta.is_dir() && !meta.file_type().is_symlink());
    match unit {
        Some(unit) => unit.is_plain_folder(folder, ask),
        None => ask(),
    }
}

/// [`folders_stay_within`], told from the steps of both paths.
fn folders_stay_within_by_steps(root: &Path, path: &Path, unit: Option<&Unit>) -> bool {
    let Ok(rest) = path.strip_prefix(root) else {
        return false;
    };
    let mut steps = rest.components();
    if steps
        .next_back()
        .is_none_or(|last| !matches!(last, Component::Normal(_)))
    {
        return false;
    }
    let mut below = root.to_path_buf();
    steps.all(|step| match step {
        Component::Normal(name) => {
            below.push(name);
            is_plain_folder(&below, unit)
        }
        _ => false,
    })
}

/// The folders between `root` and the last step of `path`, each spelt as
/// `root` and the names below it, when `path` is spelt so with plain names
/// (none empty, `.` or `..`): as a store's files and the neighbours they
/// name are, told from the bytes alone. `None` for any other spelling,
/// which the steps themselves tell.
#[cfg(unix)]
fn plain_folders_below<'p>(
    root: &Path,
    path: &'p Path,
) -> Option<impl Iterator<Item = &'p Path> + use<'p>> {
    use std::os::unix::ffi::OsStrExt;
    let root = root.as_os_str().as_bytes();
    let whole = path.as_os_str().as_bytes();
    let rest = whole.strip_prefix(root)?.strip_prefix(b"/")?;
    if root.is_empty()
        || root.ends_with(b"/")
        || rest
            .split(|&byte| byte == b'/')
            .any(|step| matches!(step, b"" | b"." | b".."))
    {
        return None;
    }
    let start = root.len() + 1;
    Some(
        rest.iter()
            .enumerate()
            .filter(|&(_, &byte)| byte == b'/')
            .filter_map(move |(at, _)| whole.get(..start + at))
            .map(|folder| Path::new(std::ffi::OsStr::from_bytes(folder))),
    )
}

/// Elsewhere `/` is not the only separator: the steps tell.
#[cfg(not(unix))]
fn plain_folders_below<'p>(_root: &Path, _path: &'p Path) -> Option<std::iter::Empty<&'p Path>> {
    None
}

/// Whether `path`, its links resolved, stands inside `root` resolved; a
/// path that cannot be resolved is judged by its words.
fn resolved_within(root: &Path, path: &Path) -> bool {
    match (fs::canonicalize(root), fs::canonicalize(path)) {
        (Ok(root), Ok(path)) => path.starts_with(root),
        _ => path
            .strip_prefix(root)
            .is_ok_and(|rest| rest.components().all(|c| matches!(c, Component::Normal(_)))),
    }
}

/// The bytes of the file at `path`, which must stay inside `root` once
/// its links are resolved: a path that leaves it is refused, not read.
/// The last step is opened without following a link, so a file that is no
/// link needs no look beside the open; a link is followed only once it is
/// found to stay inside. The folders `unit` found plain are taken as found.
fn read_file_within(
    root: &Path,
    path: &Path,
    limit: u64,
    unit: Option<&Unit>,
) -> Result<Vec<u8>, ReadError> {
    if !folders_stay_within(root, path, unit) {
        if !resolved_within(root, path) {
            return Err(ReadError::Unreadable(OUTSIDE_THE_STORE.to_owned()));
        }
        return read_regular(path, limit);
    }
    read_regular_noting(path, limit, || resolved_within(root, path)).map(|(bytes, _)| bytes)
}

/// Why [`read_regular`] returned no bytes. Its message is worded for a
/// document or a file beside one, whose limit is `--max-file-size`;
/// a command that reads a file of another kind (`numi.toml`, a baseline)
/// words the limit its own way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The file holds more than this many bytes.
    #[error("the file is larger than {} (--max-file-size)", human_size(*.0))]
    TooLarge(u64),
    /// It cannot be opened or read, or is not a regular file; the reason
    /// as people read it.
    #[error("{0}")]
    Unreadable(String),
}

/// The one way numi reads a file, whatever the command: the bytes of the
/// regular file at `path` (links followed), at most `limit` of them.
///
/// The path is opened without waiting (a FIFO with no writer would block
/// the open), and the descriptor so opened, not the path, is asked what it
/// is: a FIFO or a device swapped in after an earlier look is refused, not
/// read. The metadata length is not trusted (files under `/proc` say 0,
/// a file may grow while read): at most `limit + 1` bytes are read, and
/// the extra byte says the file is too large.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_regular_noting(path, limit, || true).map(|(bytes, _)| bytes)
}

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

/// [`read_regular`], telling whether the last step of `path` was a link.
/// The path is opened without following one first; a link is followed
/// only when `follow` says so, and is otherwise refused as leading outside
/// its store.
fn read_regular_noting(
    path: &Path,
    limit: u64,
    follow: impl FnOnce() -> bool,
) -> Result<(Vec<u8>, LastStep), ReadError> {
    let unreadable = |error: io::Error| ReadError::Unreadable(io_reason(&error));
    let (file, step) = match open_without_waiting(path, Links::Refuse) {
        Ok(opened) => opened,
        Err(error) if is_refused_link(&error) => {
            if !follow() {
                return Err(ReadError::Unreadable(OUTSIDE_THE_STORE.to_owned()));
            }
            open_without_waiting(path, Links::Follow).map_err(unreadable)?
        }
        Err(error) => return Err(unreadable(error)),
    };
    let metadata = file.metadata().map_err(unreadable)?;
    if metadata.is_dir() {
        return Err(ReadError::Unreadable("is a directory".to_owned()));
    }
    if !metadata.is_file() {
        return Err(ReadError::Unreadable(NOT_A_REGULAR_FILE.to_owned()));
    }
    if metadata.len() > limit {
        return Err(ReadError::TooLarge(limit));
    }
    let length = metadata.len();
    let mut bytes = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
    // A regular file is read to the size it had when opened: once that
    // many bytes are in, no further read asks the system for an end it
    // already told. A file the system sizes as empty (under `/proc`) is
    // read to its end, within the limit.
    let to_read = if length > 0 {
        length
    } else {
        limit.saturating_add(1)
    };
    file.take(to_read)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok((bytes, step))
}

/// Why a path that is neither a folder nor a regular file is not read.
pub const NOT_A_REGULAR_FILE: &str = "not a regular file";

/// Whether an open may follow a link in the path's last step.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Links {
    Follow,
    Refuse,
}

/// Opens `path` for reading with `O_NONBLOCK`, so that opening a FIFO
/// returns at once instead of waiting for a writer (a regular file reads
/// the same with the flag as without it), and with `O_NOFOLLOW` when a
/// link in the last step is refused.
#[cfg(unix)]
fn open_without_waiting(path: &Path, links: Links) -> io::Result<(File, LastStep)> {
    use std::os::unix::fs::OpenOptionsExt;
    let (flags, step) = match links {
        Links::Follow => (libc::O_NONBLOCK, LastStep::Link),
        Links::Refuse => (libc::O_NONBLOCK | libc::O_NOFOLLOW, LastStep::NoLink),
    };
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)?;
    Ok((file, step))
}

/// Whether an open refused `O_NOFOLLOW`'s link (POSIX says `ELOOP`;
/// FreeBSD says `EMLINK`).
#[cfg(unix)]
fn is_refused_link(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(code) if code == libc::ELOOP || code == libc::EMLINK)
}

/// Elsewhere opening a named pipe does not wait for its other end, and an
/// open does not tell a link.
#[cfg(not(unix))]
fn open_without_waiting(path: &Path, _links: Links) -> io::Result<(File, LastStep)> {
    File::open(path).map(|file| (file, LastStep::Unknown))
}

#[cfg(not(unix))]
fn is_refused_link(_error: &io::Error) -> bool {
    false
}

/// Standard input, refusing more than `limit` bytes.
pub fn read_stdin(limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    io::stdin()
        .lock()
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| ReadError::Unreadable(io_reason(&error)))?;
    within_limit(bytes.len(), limit)?;
    Ok(bytes)
}

/// Refuses `length` bytes when they are more than `limit`.
fn within_limit(length: usize, limit: u64) -> Result<(), ReadError> {
    if u64::try_from(length).unwrap_or(u64::MAX) > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(())
}

/// An I/O error worded as the reference words it: the system's text in
/// lower case, without Rust's `(os error N)` suffix.
pub fn io_reason(error: &io::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" (os error ") {
        Some(cut) => text.get(..cut).unwrap_or(&text),
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "unknown error".to_owned(),
    }
}

#[cfg(test)]
mod tests;
