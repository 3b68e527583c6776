//! Writing a fixed file: all or nothing, with the file's permissions, and
//! never through a link that leads out of the tree being fixed.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
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

/// Replaces the file at `path` with `text`: written to a new file beside
/// the one it replaces, with its permissions, then renamed over it, so a
/// reader sees the old file or the new one and never half of either. A
/// link is not replaced: the file it leads to is, and only when that file
/// lies within `root`.
pub fn write_atomically(root: &Path, path: &Path, text: &str) -> Result<(), WriteRefused> {
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
    let (temporary, mut file) = create_beside(folder, &name)?;
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .and_then(|()| fs::set_permissions(&temporary, metadata.permissions()))
        .and_then(|()| fs::rename(&temporary, &target));
    if let Err(error) = written {
        let _ = fs::remove_file(&temporary);
        return Err(refused(format!("{}; nothing written", io_reason(&error))));
    }
    Ok(())
}

/// A new file beside `name` in `folder`, under a name no other file has.
fn create_beside(folder: &Path, name: &str) -> Result<(PathBuf, File), WriteRefused> {
    let mut last_error = None;
    for attempt in 0..16u32 {
        let candidate = folder.join(format!(".{name}.numi-fix.{}.{attempt}", std::process::id()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => return Ok((candidate, file)),
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
