//! Every file numi writes (a report, a baseline, a fixed document, a
//! starter file of `numi init`) is written whole or not at all: into a new
//! file beside the one it replaces, flushed to disk, then renamed over it,
//! so a reader (or the next run) sees the old file or the new one and never
//! half of either. A failed write (a full disk, a file-size limit, a
//! signal) leaves the old file as it was and no new file behind.

use std::fs::{self, File, OpenOptions, Permissions};
use std::hash::{BuildHasher, RandomState};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// A file being written beside the file it will replace. Dropped before
/// [`Staged::commit`], it is removed and the target is left as it was.
#[derive(Debug)]
pub(crate) struct Staged {
    file: File,
    temporary: PathBuf,
    target: PathBuf,
    /// Whether the temporary file is still there to remove.
    pending: bool,
}

/// Why a replacement was not made; the file is as it was.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The file no longer holds what was read from it.
    Changed,
    Io(io::Error),
}

impl From<io::Error> for Refusal {
    fn from(error: io::Error) -> Refusal {
        Refusal::Io(error)
    }
}

impl Staged {
    /// Starts writing `target`. The new file has the permissions of the
    /// file it replaces from its first byte, or a new file's for a target
    /// that does not exist yet. `target` is the path the rename replaces:
    /// a caller that means to write through a link resolves it first.
    pub(crate) fn beside(target: &Path) -> io::Result<Staged> {
        let permissions = match fs::metadata(target) {
            Ok(metadata) => Some(metadata.permissions()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(error),
        };
        Staged::with_permissions(target, permissions.as_ref())
    }

    /// As [`Staged::beside`], with the permissions given (`None`: those of
    /// a new file, as the umask leaves them).
    pub(crate) fn with_permissions(
        target: &Path,
        permissions: Option<&Permissions>,
    ) -> io::Result<Staged> {
        let folder = match target.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let (temporary, file) = create_beside(folder, &name, permissions)?;
        Ok(Staged {
            file,
            temporary,
            target: target.to_path_buf(),
            pending: true,
        })
    }

    /// The path of the new file until it is committed: never one a folder
    /// walk reads (hidden, and no `.yaml`, `.yml` or `.json` at its end).
    #[cfg(test)]
    pub(crate) fn temporary_path(&self) -> &Path {
        &self.temporary
    }

    /// Flushes the new file to disk and renames it over the target.
    pub(crate) fn commit(mut self) -> io::Result<()> {
        self.file.sync_all()?;
        fs::rename(&self.temporary, &self.target)?;
        self.pending = false;
        Ok(())
    }

    /// Flushes the new file to disk and puts it at the target only when
    /// nothing is there: a file made meanwhile is kept, and the answer is
    /// `AlreadyExists`.
    pub(crate) fn commit_new(mut self) -> io::Result<()> {
        self.file.sync_all()?;
        // A hard link is made only where no file is: the check and the
        // write are one step.
        match fs::hard_link(&self.temporary, &self.target) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => return Err(error),
            // A file system without hard links: checked, then renamed.
            Err(_) => {
                if fs::symlink_metadata(&self.target).is_ok() {
                    return Err(io::Error::from(io::ErrorKind::AlreadyExists));
                }
                fs::rename(&self.temporary, &self.target)?;
                self.pending = false;
                return Ok(());
            }
        }
        let _ = fs::remove_file(&self.temporary);
        self.pending = false;
        Ok(())
    }

    /// Flushes the new file to disk and puts it at the target only while
    /// the target holds `read`, the bytes the new content was made from:
    /// an edit made since is kept and the answer is [`Refusal::Changed`].
    ///
    /// On Linux the two files are exchanged in one step
    /// (`renameat2(RENAME_EXCHANGE)`), the file taken out is compared with
    /// `read`, and an edited one is exchanged back, so an edit that lands
    /// while numi compares is never lost. Elsewhere (and on a Linux file
    /// system that cannot exchange), the target is compared, then replaced:
    /// an edit landing between the two steps is lost.
    pub(crate) fn commit_if_unchanged(self, read: &[u8]) -> Result<(), Refusal> {
        self.commit_if_unchanged_after(read, || {})
    }

    /// [`Staged::commit_if_unchanged`], with `meanwhile` run where an edit
    /// would be lost if the replacement were not one step: after the new
    /// file is in place (or, without an exchange, after the comparison).
    fn commit_if_unchanged_after(
        mut self,
        read: &[u8],
        meanwhile: impl FnOnce(),
    ) -> Result<(), Refusal> {
        self.file.sync_all()?;
        #[cfg(target_os = "linux")]
        {
            match exchange(&self.temporary, &self.target) {
                Ok(()) => {
                    meanwhile();
                    // The old file now stands at the temporary path.
                    if holds(&self.temporary, read)? {
                        let _ = fs::remove_file(&self.temporary);
                        self.pending = false;
                        return Ok(());
                    }
                    exchange(&self.temporary, &self.target)?;
                    return Err(Refusal::Changed);
                }
                Err(error) if !exchange_unsupported(&error) => return Err(Refusal::Io(error)),
                Err(_) => {}
            }
        }
        if !holds(&self.target, read)? {
            return Err(Refusal::Changed);
        }
        meanwhile();
        fs::rename(&self.temporary, &self.target)?;
        self.pending = false;
        Ok(())
    }
}

impl Write for Staged {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.pending {
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

/// Replaces `target` with `bytes`, whole or not at all.
pub(crate) fn replace(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut staged = Staged::beside(target)?;
    staged.write_all(bytes)?;
    staged.commit()
}

/// The path a write to `path` lands on: the file a link leads to, for a
/// link (a report or a baseline named through a link replaces the file,
/// not the link), or `path` itself.
pub(crate) fn resolved(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Whether the file at `path` holds exactly `read`: read no further than
/// one byte past it, so a large file written meanwhile costs nothing more.
fn holds(path: &Path, read: &[u8]) -> io::Result<bool> {
    let file = File::open(path)?;
    let mut now = Vec::with_capacity(read.len().saturating_add(1));
    let limit = u64::try_from(read.len())
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    file.take(limit).read_to_end(&mut now)?;
    Ok(now == read)
}

#[cfg(target_os = "linux")]
fn exchange(first: &Path, second: &Path) -> io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, first, CWD, second, RenameFlags::EXCHANGE).map_err(io::Error::from)
}

/// Whether the kernel or the file system cannot exchange two files (an old
/// kernel, some network and FUSE file systems).
#[cfg(target_os = "linux")]
fn exchange_unsupported(error: &io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(code) if code == rustix::io::Errno::INVAL.raw_os_error()
            || code == rustix::io::Errno::NOSYS.raw_os_error()
            || code == rustix::io::Errno::NOTSUP.raw_os_error()
    )
}

/// A new, empty file beside `name` in `folder`, under a name no other file
/// has and no other user can guess, with `permissions` before its first
/// byte: created with them (less what the umask takes away, so never
/// more), then given exactly them.
fn create_beside(
    folder: &Path,
    name: &str,
    permissions: Option<&Permissions>,
) -> io::Result<(PathBuf, File)> {
    let mut last_error = None;
    for attempt in 0..16u32 {
        let random = RandomState::new().hash_one((std::process::id(), attempt));
        let candidate = folder.join(format!(".{name}.numi-new.{random:016x}"));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if let Some(permissions) = permissions {
            use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
            options.mode(permissions.mode() & 0o777);
        }
        match options.open(&candidate) {
            Ok(file) => {
                if let Some(permissions) = permissions {
                    if let Err(error) = file.set_permissions(permissions.clone()) {
                        let _ = fs::remove_file(&candidate);
                        return Err(error);
                    }
                }
                return Ok((candidate, file));
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                last_error = Some(error);
            }
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists)))
}

#[cfg(test)]
pub(crate) mod tests;
