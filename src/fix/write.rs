//! Writing a fixed file: all or nothing, with the file's permissions from
//! the first byte, never over an edit made since the file was read, and
//! never through a link that leads out of the tree being fixed.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::location::{io_reason, stays_within};
use crate::whole_file::{Refusal, Staged};

/// Why a fixed file was not written; the file is as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteRefused {
    pub reason: String,
}

fn refused(reason: impl Into<String>) -> WriteRefused {
    WriteRefused {
        reason: reason.into(),
    }
}

fn nothing_written(error: &std::io::Error) -> WriteRefused {
    refused(format!("{}; nothing written", io_reason(error)))
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
    let target = fs::canonicalize(path).map_err(|error| refused(io_reason(&error)))?;
    if !stays_within(root, &target) {
        return Err(refused(
            "the file lies outside the tree being fixed (a link leads out); nothing written",
        ));
    }
    let metadata = fs::metadata(&target).map_err(|error| refused(io_reason(&error)))?;
    if !metadata.is_file() {
        return Err(refused("not a regular file; nothing written"));
    }
    let mut staged = Staged::with_permissions(&target, Some(&metadata.permissions()))
        .map_err(|error| nothing_written(&error))?;
    staged
        .write_all(text.as_bytes())
        .map_err(|error| nothing_written(&error))?;
    staged
        .commit_if_unchanged(read)
        .map_err(|refusal| match refusal {
            Refusal::Changed => refused("the file changed since numi read it; nothing written"),
            Refusal::Io(error) => nothing_written(&error),
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
        assert_eq!(
            refusal,
            Err(refused(
                "the file changed since numi read it; nothing written"
            ))
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "kind: edited\n");
        // Longer or shorter than what was read counts as changed too.
        for read in [&b"kind: edited\nmore"[..], b"kind: edit"] {
            assert!(write_atomically(&root, &path, read, "kind: again\n").is_err());
        }
        assert_eq!(fs::read_to_string(&path).unwrap(), "kind: edited\n");
        assert_eq!(files_in(&root), ["x.yaml"], "no temporary file is left");
    }
}
