//! Which files a run reads, under which display names, in which order.
//! Nothing here reads a file's content.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::VecDeque;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use std::sync::{Arc, Mutex};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{DirEntry, WalkBuilder};

use crate::location::{Claim, NOT_A_REGULAR_FILE, io_reason};

/// The folder that holds a repository's configuration tree.
pub(crate) const CONFIGURATION_TREE: &str = ".numinance";

/// Where a document comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Path(PathBuf),
    Stdin,
}

/// One entry of a run, in report order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub display_name: String,
    /// The path as given, `/` separated: with `--files`, the argument (joined
    /// with the path inside a folder argument); in a repository, the path
    /// relative to DIR. Machine formats locate files by it.
    pub path: String,
    /// The file to read, or why there is none to read.
    pub source: Result<Source, Unreadable>,
}

/// Why an input has no file to read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// A second `-`: standard input holds one document and is read once.
    #[error("standard input is read once (- is given more than once)")]
    StdinTaken,
    /// A link in the configuration tree that leads out of its repository.
    #[error("the link leads outside the repository")]
    OutsideTheRepository,
    /// A link in a folder named with `--files` that leads out of it.
    #[error("the link leads outside the folder given")]
    OutsideTheFolder,
    /// The configuration tree is something other than a folder.
    #[error("not a directory")]
    NotAFolder,
    /// Neither a folder nor a regular file (a FIFO, a socket, a device).
    #[error("{NOT_A_REGULAR_FILE}")]
    NotARegularFile,
    /// Links that lead back into a folder the walk is in.
    #[error("too many levels of symbolic links (a folder loop)")]
    FolderLoop,
    /// What the system (or the walk) said, as people read it.
    #[error("{0}")]
    Io(String),
}

impl Input {
    /// The input shown under its path as given rather than its name
    /// relative to its argument (`validate --files --full-paths`).
    pub fn named_by_path(self) -> Input {
        Input {
            display_name: self.path.clone(),
            ..self
        }
    }
}

/// What a folder walk reads besides `*.yaml` and `*.yml` files, and what it
/// passes over besides the ignore files: the `--exclude` patterns,
/// gitignore-style, relative to the folder argument (`--files`) or to the
/// repository (DIR).
#[derive(Debug, Clone)]
pub(crate) struct Selection {
    excluded: Arc<PathPatterns>,
    /// Whether a file of another name is read, by its path.
    claimed: fn(&Path) -> Claim,
}

impl Default for Selection {
    /// YAML files only, nothing excluded.
    fn default() -> Self {
        Selection {
            excluded: Arc::default(),
            claimed: |_| Claim::No,
        }
    }
}

impl Selection {
    /// Checks every pattern once, so a bad one is a usage error before any
    /// walk.
    pub(crate) fn new(globs: &[String], claimed: fn(&Path) -> Claim) -> Result<Self, BadExclude> {
        let excluded = PathPatterns::new(globs).map_err(|reason| BadExclude {
            pattern: globs.get(reason.index).cloned().unwrap_or_default(),
            reason,
        })?;
        Ok(Selection {
            excluded: Arc::new(excluded),
            claimed,
        })
    }
}

/// An `--exclude` pattern that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--exclude {pattern:?}: {reason}")]
pub(crate) struct BadExclude {
    pub pattern: String,
    pub reason: BadPattern,
}

/// A path pattern that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct BadPattern {
    /// Its place in the list it was read from.
    pub index: usize,
    /// Why, in the glob matcher's words (without its prefix).
    pub reason: String,
}

/// The one dialect of path patterns: gitignore-style, matched against
/// paths relative to one folder. `--exclude` (relative to the walk's base),
/// and `numi.toml`'s `exclude` and `[[overrides]] paths` (relative to the
/// file's folder) all use it, so a pattern means the same wherever it is
/// written: `*` stays within one folder, `**` crosses folders, a pattern
/// with a `/` is anchored to the folder, one without matches a name at any
/// depth, and a pattern that names a folder matches what it holds.
#[derive(Debug, Clone)]
pub(crate) struct PathPatterns(Gitignore);

impl Default for PathPatterns {
    fn default() -> Self {
        PathPatterns(Gitignore::empty())
    }
}

impl PathPatterns {
    /// Checks every pattern; the error names the first that cannot be
    /// read.
    pub(crate) fn new(patterns: &[String]) -> Result<Self, BadPattern> {
        let mut builder = builder();
        for (index, pattern) in patterns.iter().enumerate() {
            builder
                .add_line(None, pattern)
                .map_err(|error| bad_pattern(index, &error))?;
        }
        builder
            .build()
            .map(PathPatterns)
            .map_err(|error| bad_pattern(0, &error))
    }

    /// Why one pattern cannot be read, if it cannot (as the first of a
    /// list of one).
    pub(crate) fn check(pattern: &str) -> Result<(), BadPattern> {
        builder()
            .add_line(None, pattern)
            .map(|_| ())
            .map_err(|error| bad_pattern(0, &error))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the file at `relative` (`/` separated, relative to the
    /// patterns' folder) or a folder it is in matches a pattern.
    pub(crate) fn matches(&self, relative: &str) -> bool {
        self.excludes_path(Path::new(relative), false)
    }

    /// [`PathPatterns::matches`] for a path relative to the patterns'
    /// folder, a folder when `is_dir`.
    fn excludes_path(&self, relative: &Path, is_dir: bool) -> bool {
        !self.is_empty()
            && !relative.has_root()
            && !relative.as_os_str().is_empty()
            && self
                .0
                .matched_path_or_any_parents(relative, is_dir)
                .is_ignore()
    }
}

/// The matcher of exclude patterns. Unlike git, which reads `a[` as the
/// two characters, an unclosed `[` is refused: in a pattern typed for numi
/// it is a mistake more often than a name.
fn builder() -> GitignoreBuilder {
    let mut builder = GitignoreBuilder::new(".");
    builder.allow_unclosed_class(false);
    builder
}

/// The inputs of `numi validate --files PATH...`: arguments in the order
/// given; within a folder, by display name in byte order. A file argument is
/// always read; the ignore rules and `selection` apply inside folders. An
/// argument is any path the system takes, UTF-8 or not: it is read as
/// given and named lossily, as a walk names what it finds.
pub(crate) fn from_arguments<P: AsRef<Path> + Sync>(
    arguments: &[P],
    selection: &Selection,
) -> Vec<Input> {
    stream_arguments(arguments, selection).collect()
}

/// [`from_arguments`] one input at a time, as the walk finds them: a run
/// starts on the first file while the walk goes on, and holds no list of
/// every path.
pub(crate) fn stream_arguments<'a, P: AsRef<Path> + Sync>(
    arguments: &'a [P],
    selection: &'a Selection,
) -> impl Iterator<Item = Input> + Send + 'a {
    let mut stdin_taken = false;
    arguments.iter().flat_map(move |argument| {
        let path = argument.as_ref();
        if path.as_os_str() == "-" {
            // Standard input holds one document and can be read only once.
            let source = if stdin_taken {
                Err(Unreadable::StdinTaken)
            } else {
                Ok(Source::Stdin)
            };
            stdin_taken = true;
            return FolderWalk::single(Input {
                display_name: "-".to_owned(),
                path: "-".to_owned(),
                source,
            });
        }
        match fs::metadata(path) {
            // A folder named on the command line is walked as named (a link
            // to a folder included); what is inside is read only while it
            // stays inside.
            Ok(metadata) if metadata.is_dir() => FolderWalk::new(
                path,
                Scope {
                    base: path.to_path_buf(),
                    argument: Some(given_name(path)),
                    confine: fs::canonicalize(path).ok(),
                    outside: Unreadable::OutsideTheFolder,
                },
                selection,
            ),
            Ok(metadata) => FolderWalk::single(file_input(
                file_display_name(path),
                given_name(path),
                path,
                &metadata,
            )),
            Err(error) => FolderWalk::single(Input {
                display_name: file_display_name(path),
                path: given_name(path),
                source: Err(Unreadable::Io(io_reason(&error))),
            }),
        }
    })
}

/// The inputs of `numi validate [DIR]`: the configuration tree
/// `DIR/.numinance/`, with display names relative to DIR. Links are followed
/// only while they stay inside DIR: a pull request must not make numi read
/// files elsewhere on the machine that runs it.
pub(crate) fn from_repository(root: &Path, selection: &Selection) -> Vec<Input> {
    stream_repository(root, selection).collect()
}

/// [`from_repository`] one input at a time, as the walk finds them.
pub(crate) fn stream_repository(
    root: &Path,
    selection: &Selection,
) -> impl Iterator<Item = Input> + Send {
    let tree = root.join(CONFIGURATION_TREE);
    let confine = fs::canonicalize(root).ok();
    let refused = |reason: Unreadable| {
        FolderWalk::single(Input {
            display_name: CONFIGURATION_TREE.to_owned(),
            path: CONFIGURATION_TREE.to_owned(),
            source: Err(reason),
        })
    };
    match fs::metadata(&tree) {
        Ok(metadata) if metadata.is_dir() => {
            if let Some(confine) = &confine {
                if leads_outside(&tree, confine) {
                    return refused(Unreadable::OutsideTheRepository);
                }
            }
            FolderWalk::new(
                &tree,
                Scope {
                    base: root.to_path_buf(),
                    argument: None,
                    confine,
                    outside: Unreadable::OutsideTheRepository,
                },
                selection,
            )
        }
        Ok(_) => refused(Unreadable::NotAFolder),
        Err(error) => refused(Unreadable::Io(io_reason(&error))),
    }
}

/// The inputs of `numi validate --only PATH...`: the named files of the
/// repository at `root` (the current folder, as pre-commit runs hooks) that
/// belong to its configuration tree, read as `numi validate` reads that tree.
/// Display names are relative to the repository, so a hook and CI print the
/// same lines; a named folder of the tree is walked. Paths outside the tree
/// are not the tree's documents and are passed over, as `numi validate`
/// never reads them. One report order: display names in byte order.
pub(crate) fn from_named_in_repository<P: AsRef<Path>>(
    root: &Path,
    names: &[P],
    selection: &Selection,
) -> Vec<Input> {
    let confine = fs::canonicalize(root).ok();
    let absolute_root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let mut inputs = Vec::new();
    for name in names {
        let Some((relative, display_name)) = name_in_repository(&absolute_root, name.as_ref())
        else {
            continue;
        };
        if !in_configuration_tree(&display_name) {
            continue;
        }
        let path = root.join(relative);
        if let Some(confine) = &confine {
            if leads_outside(&path, confine) {
                inputs.push(Input {
                    path: display_name.clone(),
                    display_name,
                    source: Err(Unreadable::OutsideTheRepository),
                });
                continue;
            }
        }
        match fs::metadata(&path) {
            Ok(metadata) if metadata.is_dir() => inputs.extend(FolderWalk::new(
                &path,
                Scope {
                    base: root.to_path_buf(),
                    argument: None,
                    confine: confine.clone(),
                    outside: Unreadable::OutsideTheRepository,
                },
                selection,
            )),
            Ok(metadata) => inputs.push(file_input(
                display_name.clone(),
                display_name,
                &path,
                &metadata,
            )),
            Err(error) => inputs.push(Input {
                path: display_name.clone(),
                display_name,
                source: Err(Unreadable::Io(io_reason(&error))),
            }),
        }
    }
    // Two names may show alike (`�` for different bytes): a file named twice
    // is the one path, read once.
    let key = |input: &Input| -> (Vec<u8>, Option<Vec<u8>>) {
        let read = match &input.source {
            Ok(Source::Path(path)) => Some(path.as_os_str().as_encoded_bytes().to_vec()),
            _ => None,
        };
        (input.display_name.as_bytes().to_vec(), read)
    };
    inputs.sort_by_cached_key(key);
    inputs.dedup_by(|a, b| key(a) == key(b));
    inputs
}

/// `name` (relative to the current folder, or absolute) as a path relative
/// to `root` (absolute), by its components alone: `./` and `..` steps are
/// resolved in the text, links are not; and that path as it is named, `/`
/// separated and lossily UTF-8. None when it lies outside `root`.
fn name_in_repository(root: &Path, name: &Path) -> Option<(PathBuf, String)> {
    let absolute = std::path::absolute(name).ok()?;
    let mut parts: Vec<std::ffi::OsString> = Vec::new();
    for component in absolute.strip_prefix(root).ok()?.components() {
        match component {
            std::path::Component::Normal(part) => parts.push(part.to_os_string()),
            std::path::Component::ParentDir => {
                parts.pop()?;
            }
            _ => {}
        }
    }
    let shown: Vec<String> = parts
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    Some((parts.iter().collect(), shown.join("/")))
}

fn in_configuration_tree(display_name: &str) -> bool {
    display_name
        .strip_prefix(CONFIGURATION_TREE)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Where a walk's files are named from and what it may read.
struct Scope {
    /// Display names are relative to this folder.
    base: PathBuf,
    /// Paths as given start with the folder argument, when there is one.
    argument: Option<String>,
    /// A link that resolves outside this (canonical) folder is reported,
    /// not followed: a pull request must not make numi read, and print,
    /// files elsewhere on the machine that runs it.
    confine: Option<PathBuf>,
    /// The reason such a link is reported with.
    outside: Unreadable,
}

impl Scope {
    fn given(&self, display_name: &str) -> String {
        match &self.argument {
            Some(argument) => join_given(argument, display_name),
            None => display_name.to_owned(),
        }
    }

    fn refused(&self, path: &Path, reason: Unreadable) -> Input {
        let display_name = relative_name(path, &self.base);
        Input {
            path: self.given(&display_name),
            display_name,
            source: Err(reason),
        }
    }
}

/// Every `*.yaml` and `*.yml` under a folder, as ripgrep walks: `.gitignore`
/// (inside a git repository), `.git/info/exclude` and `.ignore` files are
/// honoured, hidden files and folders but `.numinance/` are passed over, and
/// so is whatever the selection name. Links to folders are followed, with
/// loops reported. Inputs come one at a time in display-name order: each
/// folder is read and sorted as the walk enters it, so the walk holds one
/// folder's names at most, never the whole list.
struct FolderWalk {
    /// None once the walk is over, or when there is nothing to walk.
    walker: Option<ignore::Walk>,
    scope: Option<Scope>,
    /// Links to folders outside the repository, as the walker's filter
    /// finds them (the walker cannot skip a folder once it is yielded).
    outside: Arc<Mutex<Vec<PathBuf>>>,
    /// Inputs found and not yet handed on, in order.
    ready: VecDeque<Input>,
    /// Which files of other names than YAML's the walk reads.
    claims: Claims,
}

/// Which files of other names than YAML's a walk reads. A walk goes folder
/// by folder, so the files of one store follow one another and ask of the
/// same folder: the last answer is reused while they do.
struct Claims {
    claimed: fn(&Path) -> Claim,
    last: Option<(PathBuf, bool)>,
}

impl Claims {
    fn new(claimed: fn(&Path) -> Claim) -> Self {
        Claims {
            claimed,
            last: None,
        }
    }

    /// Whether the walk reads the file at `path`.
    fn reads(&mut self, path: &Path) -> bool {
        let Claim::IfFolder(folder) = (self.claimed)(path) else {
            return false;
        };
        if let Some((asked, found)) = &self.last {
            if *asked == folder {
                return *found;
            }
        }
        let found = folder.is_dir();
        self.last = Some((folder, found));
        found
    }
}

impl FolderWalk {
    /// A walk of no folder: just `input`.
    fn single(input: Input) -> Self {
        FolderWalk {
            walker: None,
            scope: None,
            outside: Arc::default(),
            ready: VecDeque::from([input]),
            claims: Claims::new(|_| Claim::No),
        }
    }

    fn new(folder: &Path, scope: Scope, selection: &Selection) -> Self {
        let outside = Arc::new(Mutex::new(Vec::new()));
        let mut builder = WalkBuilder::new(folder);
        builder
            .follow_links(true)
            .hidden(false)
            .ignore(true)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(false)
            .parents(true)
            .require_git(true)
            .sort_by_file_path(display_order);
        let confine = scope.confine.clone();
        let base = scope.base.clone();
        let excluded = Arc::clone(&selection.excluded);
        let found_outside = Arc::clone(&outside);
        builder.filter_entry(move |entry| {
            // Hidden files and folders are passed over, as ripgrep passes them,
            // but for the configuration tree itself, whose name is hidden.
            let hidden = entry.depth() > 0 && {
                let name = last_component(entry.path());
                name.starts_with(b".") && name != CONFIGURATION_TREE.as_bytes()
            };
            if hidden {
                return false;
            }
            if entry.depth() > 0 && !excluded.is_empty() {
                let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
                let relative = entry.path().strip_prefix(&base).unwrap_or(entry.path());
                if excluded.excludes_path(relative, is_dir) {
                    return false;
                }
            }
            let Some(root) = &confine else {
                return true;
            };
            let leaves = entry.path_is_symlink()
                && entry.file_type().is_some_and(|kind| kind.is_dir())
                && leads_outside(entry.path(), root);
            if leaves {
                if let Ok(mut outside) = found_outside.lock() {
                    outside.push(entry.path().to_path_buf());
                }
            }
            !leaves
        });
        FolderWalk {
            walker: Some(builder.build()),
            scope: Some(scope),
            outside,
            ready: VecDeque::new(),
            claims: Claims::new(selection.claimed),
        }
    }

    /// The input an entry of the walk stands for, if any.
    fn input(
        scope: &Scope,
        claims: &mut Claims,
        entry: Result<DirEntry, ignore::Error>,
    ) -> Option<Input> {
        match entry {
            Ok(entry) => {
                let kind = entry.file_type();
                if kind.is_some_and(|kind| kind.is_dir())
                    || (!is_yaml_name(entry.path()) && !claims.reads(entry.path()))
                {
                    return None;
                }
                if let Some(root) = &scope.confine {
                    if entry.path_is_symlink() && leads_outside(entry.path(), root) {
                        return Some(scope.refused(entry.path(), scope.outside.clone()));
                    }
                }
                let display_name = relative_name(entry.path(), &scope.base);
                let path = scope.given(&display_name);
                // The walker knows the type already (of a link's target, as
                // links are followed): no second look at the file.
                let source = match kind {
                    Some(kind) if kind.is_file() => Ok(Source::Path(entry.into_path())),
                    Some(_) => Err(Unreadable::NotARegularFile),
                    None => match fs::metadata(entry.path()) {
                        Ok(metadata) if metadata.is_file() => Ok(Source::Path(entry.into_path())),
                        Ok(_) => Err(Unreadable::NotARegularFile),
                        Err(error) => Err(Unreadable::Io(io_reason(&error))),
                    },
                };
                Some(Input {
                    display_name,
                    path,
                    source,
                })
            }
            Err(error) => {
                let path = error_path(&error)?;
                if is_dangling_other(&error, &path) {
                    return None;
                }
                Some(scope.refused(&path, walk_reason(&error)))
            }
        }
    }
}

impl Iterator for FolderWalk {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        loop {
            if let Some(input) = self.ready.pop_front() {
                return Some(input);
            }
            let (walker, scope) = (self.walker.as_mut()?, self.scope.as_ref()?);
            let entry = walker.next();
            // A link the filter refused while the walker looked for this
            // entry stands before it in the walk's order.
            if let Ok(mut outside) = self.outside.lock() {
                for path in outside.drain(..) {
                    self.ready
                        .push_back(scope.refused(&path, scope.outside.clone()));
                }
            }
            match entry {
                Some(entry) => self
                    .ready
                    .extend(FolderWalk::input(scope, &mut self.claims, entry)),
                None => self.walker = None,
            }
        }
    }
}

/// The order of two entries of one folder, such that walking each folder
/// in this order yields display names in byte order: a folder's files are
/// named `folder/...`, so a folder sorts as its name followed by `/`, after
/// a sibling `folder.yaml` or `folder-old/` (`.` and `-` come before `/`).
///
/// The walker sorts each folder with this comparison, some `n log n` calls
/// for a folder of `n` entries, each handed two whole paths: it must cost a
/// few word-sized steps, not a pass over the bytes one at a time. Two ASCII
/// paths (nearly every pair) are told apart by one comparison of their
/// bytes; otherwise a name is found by a vectorised search for its
/// separator, and only a name that is not UTF-8 is copied.
fn display_order(a: &Path, b: &Path) -> Ordering {
    // Entries of one folder share its path up to their names: where two
    // ASCII paths first differ is where their names do, and so is their
    // order, unless one name ends there (the folder case below).
    let (a_bytes, b_bytes) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    if a_bytes.is_ascii() && b_bytes.is_ascii() {
        let shared = a_bytes.len().min(b_bytes.len());
        if let (Some(a_head), Some(b_head)) = (a_bytes.get(..shared), b_bytes.get(..shared)) {
            match a_head.cmp(b_head) {
                Ordering::Equal => {}
                different => return different,
            }
        }
    }
    let (a_name, b_name) = (last_component(a), last_component(b));
    let displayed_as_is = |name: &[u8]| name.is_ascii() || std::str::from_utf8(name).is_ok();
    if displayed_as_is(a_name) && displayed_as_is(b_name) {
        names_in_display_order(a, a_name, b, b_name)
    } else {
        let a_lossy = String::from_utf8_lossy(a_name);
        let b_lossy = String::from_utf8_lossy(b_name);
        names_in_display_order(a, a_lossy.as_bytes(), b, b_lossy.as_bytes())
    }
}

fn names_in_display_order(a: &Path, a_name: &[u8], b: &Path, b_name: &[u8]) -> Ordering {
    // One comparison of the bytes both names have. Only a name that the
    // other extends with a byte below `/` sorts apart from plain byte order,
    // and only if it is a folder: one look at the disk then, none otherwise.
    let shared = a_name.len().min(b_name.len());
    let (a_head, a_rest) = a_name.split_at_checked(shared).unwrap_or((a_name, &[]));
    let (b_head, b_rest) = b_name.split_at_checked(shared).unwrap_or((b_name, &[]));
    match a_head.cmp(b_head) {
        Ordering::Equal => {}
        different => return different,
    }
    let before_slash = |rest: &[u8]| rest.first().is_some_and(|&byte| byte < b'/');
    if before_slash(b_rest) && a.is_dir() {
        return Ordering::Greater;
    }
    if before_slash(a_rest) && b.is_dir() {
        return Ordering::Less;
    }
    a_name.len().cmp(&b_name.len())
}

/// The bytes of a walked path's last component: what follows its last
/// separator (the walker joins names to their folder, so there is always
/// a name there).
fn last_component(path: &Path) -> &[u8] {
    let bytes = path.as_os_str().as_encoded_bytes();
    match last_separator(bytes) {
        Some(separator) => bytes.get(separator.saturating_add(1)..).unwrap_or_default(),
        None => bytes,
    }
}

/// Where the last path separator of `bytes` stands.
#[cfg(windows)]
fn last_separator(bytes: &[u8]) -> Option<usize> {
    memchr::memrchr2(b'/', b'\\', bytes)
}

/// Where the last path separator of `bytes` stands.
#[cfg(not(windows))]
fn last_separator(bytes: &[u8]) -> Option<usize> {
    memchr::memrchr(b'/', bytes)
}

/// Whether `path`, links resolved, lies outside `root` (already canonical).
fn leads_outside(path: &Path, root: &Path) -> bool {
    fs::canonicalize(path).is_ok_and(|resolved| !resolved.starts_with(root))
}

/// The path a walk error is about: the loop's child, or the innermost path.
fn error_path(error: &ignore::Error) -> Option<PathBuf> {
    match error {
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        ignore::Error::WithPath { path, err } => error_path(err).or_else(|| Some(path.clone())),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        _ => None,
    }
}

fn is_loop(error: &ignore::Error) -> bool {
    match error {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        _ => false,
    }
}

/// A link to nothing whose name is not a YAML name: were it there, it would
/// be skipped like any other file, so its absence does not fail the run.
fn is_dangling_other(error: &ignore::Error, path: &Path) -> bool {
    !is_loop(error)
        && !is_yaml_name(path)
        && error
            .io_error()
            .is_some_and(|io_error| io_error.kind() == io::ErrorKind::NotFound)
        && fs::symlink_metadata(path).is_ok_and(|metadata| metadata.file_type().is_symlink())
}

fn file_input(display_name: String, given: String, path: &Path, metadata: &fs::Metadata) -> Input {
    let source = if metadata.is_file() {
        Ok(Source::Path(path.to_path_buf()))
    } else {
        Err(Unreadable::NotARegularFile)
    };
    Input {
        display_name,
        path: given,
        source,
    }
}

fn is_yaml_name(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}

/// A file argument shows its own file name.
fn file_display_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string_lossy().into_owned())
}

/// A path named on the command line as an input's path as given: `/`
/// separated, and lossily UTF-8 (a byte no character holds shows as `�`),
/// as a walk names the files it finds. The file itself is read by its
/// path, whatever bytes it holds.
pub(crate) fn given_name(path: &Path) -> String {
    slashed(&path.to_string_lossy()).into_owned()
}

/// A folder argument joined with a `/` separated path inside it.
fn join_given(argument: &str, inside: &str) -> String {
    // Every file of a folder argument is named here: one allocation.
    let mut joined = String::with_capacity(argument.len() + 1 + inside.len());
    joined.push_str(&slashed(argument));
    if !(joined.is_empty() || joined.ends_with('/')) {
        joined.push('/');
    }
    joined.push_str(inside);
    joined
}

/// A path as typed, with the platform's separators written as `/`.
fn slashed(path: &str) -> Cow<'_, str> {
    if std::path::MAIN_SEPARATOR == '/' {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(path.replace(std::path::MAIN_SEPARATOR, "/"))
    }
}

/// `path` relative to `base`, with `/` separators.
fn relative_name(path: &Path, base: &Path) -> String {
    if let Some(name) = joined_below(path, base) {
        return name.to_owned();
    }
    let relative = path.strip_prefix(base).unwrap_or(path);
    // Every file of a walk is named here: one string, no copy per part.
    let mut name = String::with_capacity(relative.as_os_str().len());
    for (index, part) in relative.components().enumerate() {
        if index > 0 {
            name.push('/');
        }
        name.push_str(&part.as_os_str().to_string_lossy());
    }
    name
}

/// What a walk of `base` joined to it to make `path`, when that is already
/// the name [`relative_name`] would build: `/` separated, UTF-8, each part
/// a name (not empty, not `.`). The walker joins the names it reads to
/// their folder, so this is every walked path but those under a base
/// written with a `.` or doubled separator past its start; a file is
/// named once, without taking the path apart.
fn joined_below<'p>(path: &'p Path, base: &Path) -> Option<&'p str> {
    if std::path::MAIN_SEPARATOR != '/' {
        return None;
    }
    let base = base.as_os_str().as_encoded_bytes();
    let rest = path.as_os_str().as_encoded_bytes().strip_prefix(base)?;
    let rest = match rest.strip_prefix(b"/") {
        Some(rest) => rest,
        None if base.is_empty() || base.ends_with(b"/") => rest,
        None => return None,
    };
    let rest = std::str::from_utf8(rest).ok()?;
    rest.split('/')
        .all(|part| !part.is_empty() && part != ".")
        .then_some(rest)
}

fn walk_reason(error: &ignore::Error) -> Unreadable {
    if is_loop(error) {
        return Unreadable::FolderLoop;
    }
    Unreadable::Io(match error.io_error() {
        Some(io_error) => io_reason(innermost(io_error)),
        None => error.to_string(),
    })
}

/// The system's error inside one the walker wrapped with its own words.
fn innermost(error: &io::Error) -> &io::Error {
    error
        .get_ref()
        .and_then(|wrapped| wrapped.source())
        .and_then(|source| source.downcast_ref::<io::Error>())
        .unwrap_or(error)
}

/// A glob error without the crate's own prefix.
fn bad_pattern(index: usize, error: &ignore::Error) -> BadPattern {
    let reason = match error {
        ignore::Error::Glob { err, .. } => err.clone(),
        other => other.to_string(),
    };
    BadPattern { index, reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(inputs: &[Input]) -> Vec<(&str, &str)> {
        inputs
            .iter()
            .map(|input| (input.display_name.as_str(), input.path.as_str()))
            .collect()
    }

    /// The name built from the path's components, as a path the walker
    /// did not make is named.
    fn by_components(path: &str, base: &str) -> String {
        let relative = Path::new(path)
            .strip_prefix(base)
            .unwrap_or(Path::new(path));
        let parts: Vec<String> = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect();
        parts.join("/")
    }

    #[test]
    fn a_walked_path_is_named_as_its_components_name_it() {
        let cases = [
            ("conf/a.yaml", "conf", "a.yaml"),
            ("conf/sub/a.yaml", "conf", "sub/a.yaml"),
            ("conf/a.yaml", "conf/", "a.yaml"),
            ("./a.yaml", ".", "a.yaml"),
            ("./.numinance/p/a.yaml", ".", ".numinance/p/a.yaml"),
            ("a/./b/c.yaml", "a/./b", "c.yaml"),
            ("a/./b/c.yaml", "a", "b/c.yaml"),
            ("a//b/c.yaml", "a", "b/c.yaml"),
            ("a/b//c.yaml", "a", "b/c.yaml"),
            ("a/b/c.yaml/", "a", "b/c.yaml"),
            ("a/../b.yaml", "a", "../b.yaml"),
            ("ab/c.yaml", "a", "ab/c.yaml"),
            ("conf", "conf", ""),
            ("conf/", "conf/", ""),
            ("other/a.yaml", "conf", "other/a.yaml"),
        ];
        for (path, base, name) in cases {
            assert_eq!(
                relative_name(Path::new(path), Path::new(base)),
                name,
                "{path} in {base}"
            );
            assert_eq!(by_components(path, base), name, "{path} in {base}");
        }
        // Taken as the walker joined it, without the components.
        assert_eq!(
            joined_below(Path::new("conf/sub/a.yaml"), Path::new("conf")),
            Some("sub/a.yaml")
        );
        assert_eq!(joined_below(Path::new("a//b/c.yaml"), Path::new("a")), None);
        assert_eq!(joined_below(Path::new("ab/c.yaml"), Path::new("a")), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_walked_name_that_is_not_utf8_is_named_lossily() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(std::ffi::OsStr::from_bytes(b"conf/caf\xe9.yaml"));
        assert_eq!(relative_name(path, Path::new("conf")), "caf\u{fffd}.yaml");
    }

    #[test]
    fn paths_as_given_keep_the_argument_and_join_the_path_inside_a_folder() {
        let temp = tempfile::tempdir().expect("tempdir");
        let folder = temp.path().join("conf");
        fs::create_dir_all(folder.join("sub")).expect("mkdir");
        fs::write(folder.join("sub/a.yaml"), "").expect("write");
        fs::write(folder.join("b.yml"), "").expect("write");
        let folder_argument = folder.to_string_lossy().into_owned();
        let file_argument = folder.join("b.yml").to_string_lossy().into_owned();
        let inputs = from_arguments(
            &[
                folder_argument.clone(),
                format!("{folder_argument}/"),
                file_argument.clone(),
                "missing.yaml".to_owned(),
                "-".to_owned(),
            ],
            &Selection::default(),
        );
        let in_folder = |name: &str| format!("{folder_argument}/{name}");
        assert_eq!(
            paths(&inputs),
            vec![
                ("b.yml", in_folder("b.yml").as_str()),
                ("sub/a.yaml", in_folder("sub/a.yaml").as_str()),
                ("b.yml", in_folder("b.yml").as_str()),
                ("sub/a.yaml", in_folder("sub/a.yaml").as_str()),
                ("b.yml", file_argument.as_str()),
                ("missing.yaml", "missing.yaml"),
                ("-", "-"),
            ]
        );
    }

    #[test]
    fn paths_in_a_repository_are_relative_to_it() {
        let temp = tempfile::tempdir().expect("tempdir");
        let tree = temp.path().join(CONFIGURATION_TREE).join("policy");
        fs::create_dir_all(&tree).expect("mkdir");
        fs::write(tree.join("p.yaml"), "").expect("write");
        let inputs = from_repository(temp.path(), &Selection::default());
        assert_eq!(
            paths(&inputs),
            vec![(".numinance/policy/p.yaml", ".numinance/policy/p.yaml")]
        );
        let missing = from_repository(&temp.path().join("nowhere"), &Selection::default());
        assert_eq!(paths(&missing), vec![(".numinance", ".numinance")]);
    }

    #[test]
    fn a_folder_argument_joins_with_one_slash() {
        assert_eq!(join_given("conf", "a.yaml"), "conf/a.yaml");
        assert_eq!(join_given("conf/", "a.yaml"), "conf/a.yaml");
        assert_eq!(join_given(".", "a.yaml"), "./a.yaml");
    }

    #[test]
    fn a_named_path_is_named_relative_to_the_repository_by_its_text() {
        let root = Path::new("/repo");
        let named = |name: &str| name_in_repository(root, Path::new(name)).map(|(_, shown)| shown);
        assert_eq!(
            named("/repo/.numinance/a.yaml").as_deref(),
            Some(".numinance/a.yaml")
        );
        assert_eq!(
            named("/repo/./.numinance/x/../a.yaml").as_deref(),
            Some(".numinance/a.yaml")
        );
        assert_eq!(named("/repo").as_deref(), Some(""));
        assert_eq!(named("/elsewhere/.numinance/a.yaml"), None);
        assert_eq!(named("/repo/../.numinance/a.yaml"), None);
    }

    #[test]
    fn the_configuration_tree_is_the_folder_and_what_is_under_it() {
        assert!(in_configuration_tree(".numinance"));
        assert!(in_configuration_tree(".numinance/policy/a.yaml"));
        assert!(!in_configuration_tree(".numinance-old/a.yaml"));
        assert!(!in_configuration_tree("notes.yaml"));
        assert!(!in_configuration_tree(""));
    }

    #[test]
    fn exclusions_check_their_globs_once() {
        assert!(Selection::new(&["drafts/".to_owned(), "*.yml".to_owned()], |_| Claim::No).is_ok());
        let error = Selection::new(&["a[".to_owned()], |_| Claim::No)
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("--exclude \"a[\": "), "{error}");
    }

    #[test]
    fn a_folder_sorts_as_its_name_with_a_slash_a_file_as_its_name() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        fs::create_dir_all(root.join("evals")).expect("mkdir");
        fs::write(root.join("evals.yaml"), "").expect("write");
        fs::write(root.join("evals-old"), "").expect("write");
        fs::write(root.join("evalsx"), "").expect("write");
        let at = |name: &str| root.join(name);
        // `.` and `-` come before `/`: the folder's files follow these.
        assert_eq!(
            display_order(&at("evals"), &at("evals.yaml")),
            Ordering::Greater
        );
        assert_eq!(
            display_order(&at("evals-old"), &at("evals")),
            Ordering::Less
        );
        // `x` comes after `/`, and a file is its name alone.
        assert_eq!(display_order(&at("evals"), &at("evalsx")), Ordering::Less);
        assert_eq!(
            display_order(&at("evals-old"), &at("evals.yaml")),
            Ordering::Less
        );
        assert_eq!(
            display_order(&at("evals.yaml"), &at("evals.yaml")),
            Ordering::Equal
        );
    }

    #[test]
    fn ascii_siblings_sort_by_their_paths_as_by_their_names() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        let names = [
            "a",
            "a.yaml",
            "a-b",
            "ab",
            "a0",
            "A",
            "b",
            "playbook-0016.yaml",
            "playbook-0145.yaml",
            "playbook-01.yaml",
            "z~",
            "evals",
        ];
        fs::create_dir_all(root.join("evals")).expect("mkdir");
        fs::create_dir_all(root.join("a")).expect("mkdir");
        for left in names {
            for right in names {
                let (a, b) = (root.join(left), root.join(right));
                let by_name = names_in_display_order(&a, left.as_bytes(), &b, right.as_bytes());
                assert_eq!(display_order(&a, &b), by_name, "{left} {right}");
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_sorts_as_its_display_name_is_written() {
        use std::os::unix::ffi::OsStrExt;
        // `\xc0` is shown as U+FFFD, which sorts after `ð`, though the raw
        // byte sorts before that character's first byte.
        let raw = Path::new(std::ffi::OsStr::from_bytes(b"conf/x\xc0.yaml"));
        let valid = Path::new("conf/x\u{f0}.yaml");
        assert_eq!(display_order(raw, valid), Ordering::Greater);
        assert_eq!(display_order(valid, raw), Ordering::Less);
        assert_eq!(last_component(raw), b"x\xc0.yaml");
        assert_eq!(last_component(Path::new("a.yaml")), b"a.yaml");
    }

    #[test]
    fn a_walk_streams_its_files_in_byte_order_of_display_name() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        let names = [
            "a.yaml",
            "a/b.yaml",
            "a/a-b/c.yaml",
            "a/a.b.yaml",
            "a/a/z.yaml",
            "a-b.yaml",
            "a.b/c.yaml",
            "ab/c.yml",
            "b.yml",
        ];
        for name in names {
            let path = root.join(name);
            fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            fs::write(path, "").expect("write");
        }
        let argument = root.to_string_lossy().into_owned();
        let selection = Selection::default();
        let streamed: Vec<String> = stream_arguments(std::slice::from_ref(&argument), &selection)
            .map(|input| input.display_name)
            .collect();
        let mut sorted: Vec<String> = names.iter().map(|name| (*name).to_owned()).collect();
        sorted.sort();
        assert_eq!(streamed, sorted);
        assert_eq!(streamed.first().map(String::as_str), Some("a-b.yaml"));
    }

    #[test]
    fn a_walk_passes_over_hidden_ignored_and_excluded_files() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        for name in [
            "a.yaml",
            "b/c.yml",
            ".d/e.yaml",
            ".f.yaml",
            "g/h.yaml",
            "i/j.yaml",
            ".numinance/k.yaml",
            ".numinance/.l.yaml",
        ] {
            let path = root.join(name);
            fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            fs::write(path, "").expect("write");
        }
        fs::write(root.join(".ignore"), "g/\n").expect("write");
        let argument = root.to_string_lossy().into_owned();
        let names = |selection: &Selection| -> Vec<String> {
            from_arguments(std::slice::from_ref(&argument), selection)
                .into_iter()
                .map(|input| input.display_name)
                .collect()
        };
        // A folder of documents keeps its configuration tree: `.numinance/`
        // is hidden by name only.
        assert_eq!(
            names(&Selection::default()),
            [".numinance/k.yaml", "a.yaml", "b/c.yml", "i/j.yaml"]
        );
        let selection = Selection::new(&["i".to_owned()], |_| Claim::No).expect("glob");
        assert_eq!(
            names(&selection),
            [".numinance/k.yaml", "a.yaml", "b/c.yml"]
        );
    }

    #[test]
    fn a_walk_reads_a_claimed_file_when_its_folder_stands_and_asks_once_for_files_that_follow() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = dir.path().join("store");
        fs::create_dir_all(store.join("bundles")).expect("mkdir");
        fn claimed(path: &Path) -> Claim {
            match path.parent() {
                Some(folder) if path.extension().is_some_and(|ext| ext == "json") => {
                    Claim::IfFolder(folder.join("bundles"))
                }
                _ => Claim::No,
            }
        }
        let mut claims = Claims::new(claimed);
        assert!(claims.reads(&store.join("a.json")));
        assert!(!claims.reads(&store.join("a.txt")));
        assert!(
            !claims.reads(&dir.path().join("a.json")),
            "no bundles/ there"
        );
        // The last answer serves the files that follow while they ask of
        // the same folder, and no longer.
        assert!(claims.reads(&store.join("a.json")));
        fs::remove_dir(store.join("bundles")).expect("rmdir");
        assert!(claims.reads(&store.join("b.json")));
        assert!(!claims.reads(&dir.path().join("b.json")));
        assert!(!claims.reads(&store.join("c.json")));
    }
}
