//! One run: read each input, validate it, hand results to a reporter in
//! report order, and decide the exit status. Files are checked in parallel,
//! one worker per core, and each result is written as soon as those before
//! it are, so output streams and memory stays flat. Checks across documents
//! run here, on the results in report order.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError, mpsc};

use crate::diagnostic::{Diagnostic, Stage};
use crate::inputs::{Input, Source, io_reason};
use crate::report::{Reporter, text};
use crate::strict::duplicate_names::DuplicateNames;
use crate::validate::{Checked, Mode, validate_bytes};
use crate::yaml::Limits;

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
    /// The path as given; see [`Input::path`].
    pub path: String,
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
    /// `--strict`: producer-side findings make a document invalid instead of
    /// being reported as warnings.
    pub strict: bool,
    /// Keep each file's bytes in its result, for a renderer that shows them.
    pub keep_source: bool,
}

/// Checks every input and reports each result, in input order; the warnings
/// of a document go to `warnings` right after its result.
pub fn run(
    inputs: &[Input],
    origin: Origin,
    options: &Options,
    reporter: &mut dyn Reporter,
    out: &mut dyn io::Write,
    warnings: &mut dyn io::Write,
) -> io::Result<Summary> {
    reporter.begin(out, origin.revision())?;
    let mut sink = Sink {
        reporter,
        out,
        warnings,
        summary: Summary::default(),
        names: DuplicateNames::default(),
        origin,
        strict: options.strict,
    };
    let workers = worker_count(inputs.len());
    if workers <= 1 {
        for input in inputs {
            sink.write(check(input, origin, options))?;
        }
    } else {
        in_parallel(inputs, workers, origin, options, &mut sink)?;
    }
    let Sink {
        reporter,
        out,
        summary,
        ..
    } = sink;
    reporter.end(out, &summary)?;
    Ok(summary)
}

/// Where results go, in input order.
struct Sink<'a> {
    reporter: &'a mut dyn Reporter,
    out: &'a mut dyn io::Write,
    warnings: &'a mut dyn io::Write,
    summary: Summary,
    names: DuplicateNames,
    origin: Origin,
    strict: bool,
}

impl Sink<'_> {
    fn write(&mut self, mut result: FileResult) -> io::Result<()> {
        if self.origin == Origin::Repo {
            if let Some(finding) = self.names.check(&result) {
                result.checked.diagnostics.push(finding.as_warning());
            }
        }
        if self.strict {
            result.checked.promote_warnings();
        }
        self.summary.add(result.status());
        self.reporter.result(self.out, &result)?;
        if result.checked.warnings().next().is_some() {
            // Flushed first, so that on a terminal the warnings follow
            // their document's line.
            self.out.flush()?;
            // A closed standard error loses the warnings, not the report.
            let _ = text::write_warnings(self.warnings, &result);
        }
        Ok(())
    }
}

/// Files a worker claims at once: few enough that the cores finish together,
/// enough that handing results over costs little.
const BATCH: usize = 8;

/// Most results waiting for an earlier, slower one before workers pause, so
/// memory stays flat however the work is ordered.
const WINDOW: usize = 1024;

/// One worker per core (or `NUMI_THREADS`), none idle: a run of a few files
/// starts no threads.
fn worker_count(inputs: usize) -> usize {
    let cores = std::env::var("NUMI_THREADS")
        .ok()
        .and_then(|threads| threads.parse::<usize>().ok())
        .filter(|&threads| threads > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    cores.min(inputs.div_ceil(BATCH))
}

/// The state workers share: the next batch to claim, and how far the
/// results have been written (which bounds how far ahead they may run).
struct Progress {
    next: AtomicUsize,
    written: Mutex<usize>,
    advanced: Condvar,
    stop: AtomicBool,
}

impl Progress {
    /// Claims the next batch, once it is within the window; `None` when
    /// there is nothing left or the run stopped.
    fn claim(&self, total: usize) -> Option<usize> {
        let start = self.next.fetch_add(BATCH, Ordering::Relaxed);
        if start >= total {
            return None;
        }
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        while start >= written.saturating_add(WINDOW) && !self.stop.load(Ordering::Relaxed) {
            written = self
                .advanced
                .wait(written)
                .unwrap_or_else(PoisonError::into_inner);
        }
        (!self.stop.load(Ordering::Relaxed)).then_some(start)
    }

    fn written_up_to(&self, index: usize) {
        *self.written.lock().unwrap_or_else(PoisonError::into_inner) = index;
        self.advanced.notify_all();
    }

    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _guard = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        self.advanced.notify_all();
    }
}

/// Workers claim batches in input order and hand back results; this thread
/// writes them in input order as soon as each is next, and flushes whenever
/// it has to wait, so output streams without a write per line.
fn in_parallel(
    inputs: &[Input],
    workers: usize,
    origin: Origin,
    options: &Options,
    sink: &mut Sink<'_>,
) -> io::Result<()> {
    let progress = Progress {
        next: AtomicUsize::new(0),
        written: Mutex::new(0),
        advanced: Condvar::new(),
        stop: AtomicBool::new(false),
    };
    let (sender, receiver) = mpsc::channel::<(usize, Vec<FileResult>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let progress = &progress;
            scope.spawn(move || {
                while let Some(start) = progress.claim(inputs.len()) {
                    let batch = inputs.iter().skip(start).take(BATCH);
                    let results = batch.map(|input| check(input, origin, options)).collect();
                    if sender.send((start, results)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let written = write_in_order(&receiver, &progress, sink);
        if written.is_err() {
            progress.halt();
        }
        written
    })
}

fn write_in_order(
    receiver: &mpsc::Receiver<(usize, Vec<FileResult>)>,
    progress: &Progress,
    sink: &mut Sink<'_>,
) -> io::Result<()> {
    let mut waiting: BTreeMap<usize, Vec<FileResult>> = BTreeMap::new();
    let mut next = 0;
    loop {
        let (start, results) = match receiver.try_recv() {
            Ok(batch) => batch,
            Err(mpsc::TryRecvError::Empty) => {
                sink.out.flush()?;
                match receiver.recv() {
                    Ok(batch) => batch,
                    Err(mpsc::RecvError) => break,
                }
            }
            Err(mpsc::TryRecvError::Disconnected) => break,
        };
        waiting.insert(start, results);
        let before = next;
        while let Some(results) = waiting.remove(&next) {
            for result in results {
                sink.write(result)?;
            }
            next += BATCH;
        }
        if next != before {
            progress.written_up_to(next);
        }
    }
    Ok(())
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
        path: input.path.clone(),
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::report::text::TextReporter;

    /// More inputs than the window holds, valid files and unreadable ones
    /// interleaved, so workers run ahead and results arrive out of order.
    fn inputs(count: usize) -> Vec<Input> {
        let valid = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join("playbook-bugfix-bounded.yaml");
        (0..count)
            .map(|i| Input {
                display_name: format!("{i:05}.yaml"),
                path: format!("{i:05}.yaml"),
                source: if i % 3 == 0 {
                    Err("no such file or directory".to_owned())
                } else {
                    Ok(Source::Path(valid.clone()))
                },
            })
            .collect()
    }

    fn options() -> Options {
        Options {
            mode: Mode::Files,
            limits: Limits::default(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            strict: false,
            keep_source: false,
        }
    }

    #[test]
    fn results_are_written_in_input_order_and_counted() {
        let inputs = inputs(3 * WINDOW + 5);
        let mut out = Vec::new();
        let summary = run(
            &inputs,
            Origin::File,
            &options(),
            &mut TextReporter,
            &mut out,
            &mut io::sink(),
        )
        .expect("writes to memory");
        let text = String::from_utf8(out).expect("UTF-8");
        let names: Vec<&str> = text
            .lines()
            .skip(1)
            .map(|line| line.split('"').nth(1).expect("a quoted name"))
            .collect();
        let expected: Vec<&str> = inputs.iter().map(|i| i.display_name.as_str()).collect();
        assert_eq!(names, expected);
        let errors = inputs.len().div_ceil(3);
        assert_eq!(
            summary,
            Summary {
                ok: inputs.len() - errors,
                invalid: 0,
                error: errors
            }
        );
    }

    /// Fails every write after the first few lines.
    struct FailingWriter(usize);

    impl io::Write for FailingWriter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
            }
            self.0 -= 1;
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_stops_the_run_with_its_error() {
        let inputs = inputs(3 * WINDOW);
        let error = run(
            &inputs,
            Origin::File,
            &options(),
            &mut TextReporter,
            &mut FailingWriter(10),
            &mut io::sink(),
        )
        .expect_err("the writer fails");
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
