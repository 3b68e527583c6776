//! Writing a fixed file: all or nothing, with the file's permissions from
//! the first byte, never over an edit made since the file was read, and
//! never through a link that leads out of the tree being fixed.

use std::fs::{self, File, OpenOptions, Permissions};
use std::hash::{BuildHasher, RandomState};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::location::{io_reason, stays_within};

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

/// Replaces the file at `path`, whose content was `read`, with `text`:
/// written to a new file beside the one it replaces, created with its
/// permissions, flushed to disk, then renamed over it, so a reader sees
/// the old file or the new one and never half of either. When the file no
/// longer holds `read` (it was edited since), nothing is written. A link
/// is not replaced: the file it leads to is, and only when that file lies
/// within `root`.
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
    let folder = target
        .parent()
        .ok_or_else(|| refused("the file has no folder"))?;
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (temporary, mut file) = create_beside(folder, &name, &metadata.permissions())?;
    let replaced = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|error| refused(format!("{}; nothing written", io_reason(&error))))
        .and_then(|()| unchanged_since_read(&target, read))
        .and_then(|()| {
            fs::rename(&temporary, &target)
                .map_err(|error| refused(format!("{}; nothing written", io_reason(&error))))
        });
    if replaced.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    replaced
}

/// Whether the file still holds the bytes the fix was made from. Read
/// once more just before the rename, and no further than one byte past
/// them, so a large file written meanwhile costs nothing more.
fn unchanged_since_read(target: &Path, read: &[u8]) -> Result<(), WriteRefused> {
    let reason = |error: std::io::Error| refused(format!("{}; nothing written", io_reason(&error)));
    let file = File::open(target).map_err(reason)?;
    let mut now = Vec::with_capacity(read.len().saturating_add(1));
    let limit = u64::try_from(read.len())
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    file.take(limit).read_to_end(&mut now).map_err(reason)?;
    if now != read {
        return Err(refused(
            "the file changed since numi read it; nothing written",
        ));
    }
    Ok(())
}

/// A new, empty file beside `name` in `folder`, under a name no other
/// file has and no other user can guess, with `permissions` before its
/// first byte: created with them (less what the umask takes away, so
/// never more), then given exactly them.
fn create_beside(
    folder: &Path,
    name: &str,
    permissions: &Permissions,
) -> Result<(PathBuf, File), WriteRefused> {
    let mut last_error = None;
    for attempt in 0..16u32 {
        let random = RandomState::new().hash_one((std::process::id(), attempt));
        let candidate = folder.join(format!(".{name}.numi-fix.{random:016x}"));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
            options.mode(permissions.mode() & 0o777);
        }
        match options.open(&candidate) {
            Ok(file) => {
                if let Err(error) = file.set_permissions(permissions.clone()) {
                    let _ = fs::remove_file(&candidate);
                    return Err(refused(format!("{}; nothing written", io_reason(&error))));
                }
                return Ok((candidate, file));
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                last_error = Some(error);
            }
            Err(error) => return Err(refused(format!("{}; nothing written", io_reason(&error)))),
        }
    }
    Err(refused(format!(
        "cannot create a file beside it ({}); nothing written",
        last_error.map_or_else(|| "unknown error".to_owned(), |error| io_reason(&error))
    )))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn files_in(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn the_new_file_has_the_permissions_of_the_old_before_its_first_byte() {
        use std::os::unix::fs::PermissionsExt;
        let folder = tempfile::tempdir().unwrap();
        for mode in [0o600, 0o640, 0o664, 0o400] {
            let permissions = Permissions::from_mode(mode);
            let (path, file) = create_beside(folder.path(), "x.yaml", &permissions).unwrap();
            let metadata = file.metadata().unwrap();
            assert_eq!(metadata.len(), 0);
            assert_eq!(metadata.permissions().mode() & 0o777, mode, "{mode:o}");
            assert!(
                path.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(".x.yaml.numi-fix.")
            );
            fs::remove_file(path).unwrap();
        }
        // Two files made at once never share a name.
        let permissions = Permissions::from_mode(0o600);
        let (first, _) = create_beside(folder.path(), "x.yaml", &permissions).unwrap();
        let (second, _) = create_beside(folder.path(), "x.yaml", &permissions).unwrap();
        assert_ne!(first, second);
    }

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
