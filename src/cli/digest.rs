//! `numi digest`: one `<digest>  <path>` line per file, in the kinds'
//! Digest format, of the file's bytes or of its canonical JSON.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use crate::digest::{self, CanonicalError};
use crate::location::{DEFAULT_MAX_FILE_SIZE, ReadError, read_regular, read_stdin};
use crate::results::Exit;
use crate::text::quote;
use crate::yaml::Limits;

#[derive(Debug, Args)]
pub struct DigestArgs {
    /// Files to digest (`-` reads standard input).
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,

    /// Digest the RFC 8785 canonical JSON of the YAML or JSON document the
    /// file holds instead of its bytes, so reformatting does not change it.
    #[arg(long)]
    pub canonical: bool,

    /// Refuse files larger than this many bytes without reading them.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_SIZE)]
    pub max_file_size: u64,
}

pub(super) fn execute(args: &DigestArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let mut out = io::BufWriter::new(stdout);
    let mut exit = Exit::Valid;
    for path in &args.files {
        let shown = display(&path.to_string_lossy());
        let digest = read(path, args.max_file_size).and_then(|bytes| {
            if args.canonical {
                Ok(digest::canonical_sha256(&bytes, &Limits::default())?)
            } else {
                Ok(digest::sha256(&bytes))
            }
        });
        match digest {
            Ok(digest) => {
                if writeln!(out, "{digest}  {shown}").is_err() {
                    return Exit::Incomplete;
                }
            }
            Err(message) => {
                // Keep the order of lines on the terminal when both streams
                // go there.
                let _ = out.flush();
                let _ = writeln!(stderr, "numi: {shown}: {message}");
                exit = Exit::Incomplete;
            }
        }
    }
    if out.flush().is_err() {
        return Exit::Incomplete;
    }
    exit
}

/// Why a file has no digest.
#[derive(Debug, thiserror::Error)]
enum Undigested {
    /// It cannot be read.
    #[error("read: {0}")]
    Read(ReadError),
    #[error(transparent)]
    Canonical(#[from] CanonicalError),
}

/// The bytes to digest, as every command reads a file: a regular file
/// only, within the size limit.
fn read(path: &Path, limit: u64) -> Result<Vec<u8>, Undigested> {
    if path.as_os_str() == "-" {
        read_stdin(limit)
    } else {
        read_regular(path, limit)
    }
    .map_err(Undigested::Read)
}

/// The path as given (lossily: a byte no character holds shows as `�`),
/// quoted only when it could break the one-line format.
fn display(path: &str) -> String {
    let plain = !path.is_empty()
        && path.chars().all(|c| {
            !c.is_control() && c != '"' && c != '\\' && !crate::text::is_invisible_format(c)
        });
    if plain { path.to_owned() } else { quote(path) }
}
