//! Writing a fixed file: all or nothing, with the file's permissions from
//! the first byte, never over an edit made since the file was read, and
//! never through a link that leads out of the tree being fixed.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use crate::location::{io_reason, stays_within};
use crate::whole_file::{Refusal, Staged};

/// Why a fixed file was not written; the file is as it was.
#[derive(Debug, thiserror::Error)]
pub enum WriteRefused {
    /// The file could not be looked at (resolved, or its metadata read).
    #[error("{}", io_reason(.0))]
    Unseen(io::Error),
    #[error("the file lies outside the tree being fixed (a link leads out); nothing written")]
    OutsideTheTree,
    #[error("not a regular file; nothing written")]
    NotARegularFile,
    #[error("the file changed since numi read it; nothing written")]
    Changed,
    /// The fixed text could not be written beside it or put in its place.
    #[error("{}; nothing written", io_reason(.0))]
    NotWritten(io::Error),
}

/// Replaces the file at `path`, whose content was `read`, with `text`,
/// whole or not at all, with its permissions from the first byte
/// (`whole_file`). When the file no longer holds `read` (it was edited
/// since), nothing is written. A link is not replaced: the file it leads
/// to is, and only when that file lies within `root`.
pub fn write_atomically(
    root: &Path,
    path: &Path,
    read: &[u8],
    text: &str,
) -> Result<(), WriteRefused> {
    let target = fs::canonicalize(path).map_err(WriteRefused::Unseen)?;
    if !stays_within(root, &target) {
        return Err(WriteRefused::OutsideTheTree);
    }
    let metadata = fs::metadata(&target).map_err(WriteRefused::Unseen)?;
    if !metadata.is_file() {
        return Err(WriteRefused::NotARegularFile);
    }
    let mut staged = Staged::with_permissions(&target, Some(&metadata.permissions()))
        .map_err(WriteRefused::NotWritten)?;
    staged
        .write_all(text.as_bytes())
        .map_err(WriteRefused::NotWritten)?;
    staged
        .commit_if_unchanged(read)
        .map_err(|refusal| match refusal {
            Refusal::Changed => WriteRefused::Changed,
            Refusal::Io(error) => WriteRefused::NotWritten(error),
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    use crate::whole_file::tests::files_in;

    #[test]
    fn a_file_is_replaced_only_while_it_holds_what_was_read() {
        let folder = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(folder.path()).unwrap();
        let path = root.join("x.yaml");
        fs::write(&path, "kind: b\n").unwrap();
        write_atomically(&root, &path, b"kind: b\n", "kind: fixed\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "kind: fixed\n");

        // Edited after it was read: the edit stays, the fix is not written.
        fs::write(&path, "kind: edited\n").unwrap();
        let refusal = write_atomically(&root, &path, b"kind: fixed\n", "kind: again\n");
        assert!(matches!(refusal, Err(WriteRefused::Changed)), "{refusal:?}");
        assert_eq!(
            refusal.unwrap_err().to_string(),
            "the file changed since numi read it; nothing written"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "kind: edited\n");
        // Longer or shorter than what was read counts as changed too.
        for read in [&b"kind: edited\nmore"[..], b"kind: edit"] {
            assert!(write_atomically(&root, &path, read, "kind: again\n").is_err());
        }
        assert_eq!(fs::read_to_string(&path).unwrap(), "kind: edited\n");
        assert_eq!(files_in(&root), ["x.yaml"], "no temporary file is left");
    }

    #[test]
    fn why_a_fix_is_not_written_reads_as_before() {
        let folder = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(folder.path()).unwrap();
        let refused = |path: &Path| {
            write_atomically(&root, path, b"a", "b")
                .unwrap_err()
                .to_string()
        };
        fs::create_dir(root.join("d.yaml")).unwrap();
        assert_eq!(
            refused(&root.join("d.yaml")),
            "not a regular file; nothing written"
        );
        let elsewhere = tempfile::tempdir().unwrap();
        let outside = elsewhere.path().join("x.yaml");
        fs::write(&outside, "a").unwrap();
        assert_eq!(
            refused(&outside),
            "the file lies outside the tree being fixed (a link leads out); nothing written"
        );
        let missing = root.join("missing.yaml");
        let error = fs::canonicalize(&missing).unwrap_err();
        assert_eq!(refused(&missing), io_reason(&error));
        assert_eq!(
            WriteRefused::NotWritten(io::Error::other("No space left on device")).to_string(),
            "no space left on device; nothing written"
        );
    }
}
