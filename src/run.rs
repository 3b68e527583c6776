//! One run: read each input, validate it, hand results to a reporter in
//! report order, and decide the exit status. Files are checked in parallel,
//! a chunk at a time, so output streams and memory stays flat.

use std::fs::File;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};

use rayon::prelude::*;

use crate::diagnostic::{Diagnostic, Stage};
use crate::inputs::{Input, Source, io_reason};
use crate::report::Reporter;
use crate::validate::{Checked, Mode, validate_bytes};
use crate::yaml::Limits;

/// Files checked together before their results are written.
const CHUNK: usize = 512;

/// The default for `--max-file-size`: 16 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// How the documents of a run were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Named on the command line (`--files`).
    File,
    /// Found in a repository's configuration tree.
    Repo,
}

impl Origin {
    pub fn name(self) -> &'static str {
        match self {
            Origin::File => "file",
            Origin::Repo => "repo",
        }
    }

    /// What the revision line names.
    pub fn revision(self) -> &'static str {
        match self {
            Origin::File => "files",
            Origin::Repo => "worktree",
        }
    }
}

/// How a document fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    Invalid,
    Error,
}

/// The result for one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileResult {
    pub origin: Origin,
    pub display_name: String,
    pub checked: Checked,
    /// The bytes read, kept only when [`Options::keep_source`] asks for them
    /// (a renderer that quotes the source), so a run holds no file longer
    /// than it needs to.
    pub source: Option<Vec<u8>>,
}

impl FileResult {
    /// Decided by errors alone: warnings never change a status.
    pub fn status(&self) -> Status {
        let mut errors = self.checked.errors();
        let first = errors.next();
        if first
            .into_iter()
            .chain(errors)
            .any(|d| matches!(d.stage, Stage::Read | Stage::Internal))
        {
            Status::Error
        } else if first.is_none() {
            Status::Ok
        } else {
            Status::Invalid
        }
    }
}

/// Counts of a run, from which its exit status follows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub ok: usize,
    pub invalid: usize,
    pub error: usize,
}

/// The exit statuses of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Every document read is valid.
    Valid = 0,
    /// The run could not check everything it was asked to.
    Incomplete = 1,
    /// The command line is wrong.
    Usage = 2,
    /// At least one document is invalid.
    Invalid = 3,
}

impl Summary {
    pub fn total(&self) -> usize {
        self.ok + self.invalid + self.error
    }

    pub fn exit(&self) -> Exit {
        if self.error > 0 || self.total() == 0 {
            Exit::Incomplete
        } else if self.invalid > 0 {
            Exit::Invalid
        } else {
            Exit::Valid
        }
    }

    fn add(&mut self, status: Status) {
        match status {
            Status::Ok => self.ok += 1,
            Status::Invalid => self.invalid += 1,
            Status::Error => self.error += 1,
        }
    }
}

/// Settings of a run.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub mode: Mode,
    pub limits: Limits,
    pub max_file_size: u64,
    /// Keep each file's bytes in its result, for a renderer that shows them.
    pub keep_source: bool,
}

/// Checks every input and reports each result, in input order.
pub fn run(
    inputs: &[Input],
    origin: Origin,
    options: &Options,
    reporter: &mut dyn Reporter,
    out: &mut dyn io::Write,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    reporter.begin(out, origin.revision())?;
    for chunk in inputs.chunks(CHUNK) {
        let results: Vec<FileResult> = if chunk.len() == 1 {
            chunk
                .iter()
                .map(|input| check(input, origin, options))
                .collect()
        } else {
            chunk
                .par_iter()
                .map(|input| check(input, origin, options))
                .collect()
        };
        for result in &results {
            summary.add(result.status());
            reporter.result(out, result)?;
        }
        out.flush()?;
    }
    reporter.end(out, &summary)?;
    Ok(summary)
}

/// Reads and validates one input. A panic inside numi becomes an internal
/// error for this input alone.
pub fn check(input: &Input, origin: Origin, options: &Options) -> FileResult {
    let (checked, source) = match &input.source {
        Err(reason) => (failed(Stage::Read, "read/io", reason.clone()), None),
        Ok(source) => match read(source, options.max_file_size) {
            Err(reason) => (failed(Stage::Read, "read/io", reason), None),
            Ok(bytes) => {
                let checked = catch_unwind(AssertUnwindSafe(|| {
                    validate_bytes(&bytes, options.mode, &options.limits)
                }))
                .unwrap_or_else(|_| {
                    failed(
                        Stage::Internal,
                        "internal/panic",
                        "numi failed on this file; please report it".to_owned(),
                    )
                });
                (checked, options.keep_source.then_some(bytes))
            }
        },
    };
    FileResult {
        origin,
        display_name: input.display_name.clone(),
        checked,
        source,
    }
}

fn failed(stage: Stage, rule: &'static str, message: String) -> Checked {
    Checked {
        diagnostics: vec![Diagnostic::new(stage, rule, message)],
        ..Checked::default()
    }
}

/// The bytes of a source, refusing one larger than `limit` without reading
/// it whole.
fn read(source: &Source, limit: u64) -> Result<Vec<u8>, String> {
    let too_large = || {
        format!(
            "the file is larger than {} (--max-file-size)",
            human_size(limit)
        )
    };
    let mut bytes = Vec::new();
    match source {
        Source::Stdin => {
            io::stdin()
                .lock()
                .take(limit.saturating_add(1))
                .read_to_end(&mut bytes)
                .map_err(|error| io_reason(&error))?;
        }
        Source::Path(path) => {
            let file = File::open(path).map_err(|error| io_reason(&error))?;
            let length = file.metadata().map_err(|error| io_reason(&error))?.len();
            if length > limit {
                return Err(too_large());
            }
            bytes.reserve(usize::try_from(length).unwrap_or(0));
            file.take(limit.saturating_add(1))
                .read_to_end(&mut bytes)
                .map_err(|error| io_reason(&error))?;
        }
    }
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// `16 MiB`, `512 KiB`, `100 bytes`.
pub fn human_size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes % KIB == 0 {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}
