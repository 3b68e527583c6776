//! One run: read each input, validate it, and hand the results on in input
//! order, counting them. Files are checked in parallel,
//! one worker per core, and each result is written as soon as those before
//! it are, so output streams and memory stays flat. Checks across documents
//! run here, on the results in report order.

mod duplicate_names;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, mpsc};

use crate::config::Policy;
use crate::diagnostic::{Diagnostic, RuleDoc};
use crate::inputs::{Input, Source};
use crate::location::unit::{Learning, Unit};
use crate::location::{Location, ReadError, read_regular, read_stdin};
use crate::results::baseline::Ledger;
use crate::results::{FileResult, Origin, Summary};
use crate::text::quote;
use crate::validate::{Checked, Mode, validate_guarded};
use crate::verdict::Verdict;
use crate::yaml::Limits;
use duplicate_names::DuplicateNames;

/// Settings of a run.
#[derive(Debug, Clone)]
pub struct Options {
    pub mode: Mode,
    pub limits: Limits,
    pub max_file_size: u64,
    /// `--strict`: producer-side findings make a document invalid instead of
    /// being reported as warnings.
    pub strict: bool,
    /// Keep each file's bytes in its result, for a renderer that shows them.
    pub keep_source: bool,
    /// The configuration's rule levels.
    pub policy: Policy,
    /// Workers at most, as `NUMI_THREADS` asks (see [`requested_threads`]);
    /// `None` for one per core.
    pub threads: Option<usize>,
    /// The baseline the run compares with or records, shared with the
    /// caller, which reads its counts once the run is over.
    pub baseline: Option<Arc<Mutex<Ledger>>>,
}

/// Where the results of a run go, one at a time in input order.
pub(crate) trait Consumer {
    /// One result, after the checks across documents and `--strict`.
    fn result(&mut self, result: &FileResult) -> io::Result<()>;
    /// The run waits for a slower file: a moment to flush what was written.
    fn idle(&mut self) -> io::Result<()>;
}

/// Checks every input and hands each result to `consumer`, in input order.
/// Inputs are drawn as the workers need them, so a walk that yields them
/// runs alongside the checks and no list of every input is kept.
pub(crate) fn run<I>(
    inputs: I,
    origin: Origin,
    options: &Options,
    consumer: &mut dyn Consumer,
) -> io::Result<Summary>
where
    I: IntoIterator<Item = Input>,
    I::IntoIter: Send,
{
    let mut sink = Sink {
        consumer,
        summary: Summary::default(),
        names: DuplicateNames::default(),
        origin,
        verdict: Verdict {
            policy: &options.policy,
            strict: options.strict,
        },
        baseline: options.baseline.as_deref(),
    };
    let mut inputs = inputs.into_iter();
    // The first inputs tell whether threads are worth starting (a run of
    // one batch asks nothing of the system); they are checked first all the
    // same.
    let mut first: Vec<Input> = inputs.by_ref().take(BATCH.saturating_add(1)).collect();
    let workers = if first.len() > BATCH {
        let cores = core_count(options);
        let more = cores.saturating_mul(BATCH).saturating_sub(first.len());
        first.extend(inputs.by_ref().take(more));
        cores.min(first.len().div_ceil(BATCH))
    } else {
        1
    };
    if workers <= 1 {
        let learning = Learning::default();
        check_in_units(
            first.into_iter().chain(inputs),
            origin,
            options,
            &learning,
            |result| sink.write(result),
        )?;
    } else {
        in_parallel(
            first.into_iter().chain(inputs),
            workers,
            origin,
            options,
            &mut sink,
        )?;
    }
    Ok(sink.summary)
}

/// Where results go, in input order.
struct Sink<'a> {
    consumer: &'a mut dyn Consumer,
    summary: Summary,
    names: DuplicateNames,
    origin: Origin,
    verdict: Verdict<'a>,
    baseline: Option<&'a Mutex<Ledger>>,
}

impl Sink<'_> {
    fn write(&mut self, mut result: FileResult) -> io::Result<()> {
        if self.origin == Origin::Repo {
            if let Some(finding) = self.names.check(&result) {
                result.checked.diagnostics.push(finding);
            }
        }
        self.verdict
            .weigh(&mut result.checked, std::path::Path::new(&result.path));
        if let Some(baseline) = self.baseline {
            baseline
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .apply(&mut result);
        }
        self.summary.add(result.status());
        self.summary.suppressed += result.checked.suppressed.len();
        self.summary.warnings += result.checked.warnings().count();
        self.consumer.result(&result)
    }
}

/// Files a worker claims at once: few enough that the cores finish together,
/// enough that handing results over costs little. Each batch handed over
/// wakes the thread that writes, and on a virtual machine a wake-up costs
/// more than checking a small file: batches of eight cost a store's run a
/// tenth more CPU time than batches of 32.
const BATCH: usize = 32;

/// Most files a batch takes past [`BATCH`] to end where a folder ends: the
/// files of one folder (an autocontext candidate's) read each other, and
/// are checked as one unit.
const BATCH_FOLDER_TAIL: usize = 8;

/// Most files of a unit: a batch's, so a unit's memory stays that of a
/// few dozen small files.
const UNIT: usize = BATCH + BATCH_FOLDER_TAIL;

/// Most results waiting for an earlier, slower one before workers pause, so
/// memory stays flat however the work is ordered.
const WINDOW: usize = 1024;

/// One worker per core (or as many as `NUMI_THREADS` asks); a run of a few
/// files starts no threads (see [`run`]).
fn core_count(options: &Options) -> usize {
    options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// A `NUMI_THREADS` that asks for no number of workers numi can start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("NUMI_THREADS must be a positive whole number of threads, not {}", quote(.given))]
pub(crate) struct BadThreads {
    /// The value as given, lossily UTF-8.
    pub given: String,
}

/// The workers `NUMI_THREADS` (its value given) asks for: `None` when it
/// is unset; refused when it is anything but a positive whole number.
pub(crate) fn requested_threads(value: Option<&OsStr>) -> Result<Option<usize>, BadThreads> {
    let Some(value) = value else {
        return Ok(None);
    };
    value
        .to_str()
        .and_then(|text| text.parse::<usize>().ok())
        .filter(|&threads| threads > 0)
        .map(Some)
        .ok_or_else(|| BadThreads {
            given: value.to_string_lossy().into_owned(),
        })
}

/// The inputs not yet claimed, and the index of the next one.
struct Feed<I: Iterator> {
    inputs: std::iter::Peekable<I>,
    next: usize,
}

impl<I: Iterator<Item = Input>> Feed<I> {
    /// The next batch: [`BATCH`] inputs, and then those that stand in the
    /// folder of the last one, up to [`BATCH_FOLDER_TAIL`] more.
    fn take_batch(&mut self) -> Vec<Input> {
        let mut batch: Vec<Input> = self.inputs.by_ref().take(BATCH).collect();
        if batch.len() == BATCH {
            let folder = batch.last().and_then(folder_of).map(Path::to_path_buf);
            for _ in 0..BATCH_FOLDER_TAIL {
                match self
                    .inputs
                    .next_if(|input| folder.is_some() && folder_of(input) == folder.as_deref())
                {
                    Some(input) => batch.push(input),
                    None => break,
                }
            }
        }
        self.next = self.next.saturating_add(batch.len());
        batch
    }
}

/// The folder of an input read from a file.
fn folder_of(input: &Input) -> Option<&Path> {
    match &input.source {
        Ok(Source::Path(path)) => path.parent(),
        _ => None,
    }
}

/// The state workers share: the inputs still to claim, and how far the
/// results have been written (which bounds how far ahead they may run).
struct Progress<I: Iterator> {
    feed: Mutex<Feed<I>>,
    written: Mutex<usize>,
    advanced: Condvar,
    stop: AtomicBool,
}

impl<I: Iterator<Item = Input>> Progress<I> {
    /// Claims the next batch, with the index of its first input, once it is
    /// within the window; `None` when there is nothing left or the run
    /// stopped. Inputs are drawn from the feed only now, so the walk that
    /// yields them stays within the window too.
    fn claim(&self) -> Option<(usize, Vec<Input>)> {
        let mut feed = self.feed.lock().unwrap_or_else(PoisonError::into_inner);
        let start = feed.next;
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        while start >= written.saturating_add(WINDOW) && !self.stop.load(Ordering::Relaxed) {
            written = self
                .advanced
                .wait(written)
                .unwrap_or_else(PoisonError::into_inner);
        }
        drop(written);
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let batch = feed.take_batch();
        (!batch.is_empty()).then_some((start, batch))
    }
}

impl<I: Iterator> Progress<I> {
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
fn in_parallel<I: Iterator<Item = Input> + Send>(
    inputs: I,
    workers: usize,
    origin: Origin,
    options: &Options,
    sink: &mut Sink<'_>,
) -> io::Result<()> {
    let progress = Progress {
        feed: Mutex::new(Feed {
            inputs: inputs.peekable(),
            next: 0,
        }),
        written: Mutex::new(0),
        advanced: Condvar::new(),
        stop: AtomicBool::new(false),
    };
    let (sender, receiver) = mpsc::channel::<(usize, Vec<FileResult>)>();
    // What one worker learns of a store's files serves the others.
    let learning = Learning::default();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let progress = &progress;
            let learning = &learning;
            scope.spawn(move || {
                while let Some((start, batch)) = progress.claim() {
                    let mut results = Vec::with_capacity(batch.len());
                    let checked =
                        check_in_units(batch.into_iter(), origin, options, learning, |result| {
                            results.push(result);
                            Ok(())
                        });
                    if checked.is_err() || sender.send((start, results)).is_err() {
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

fn write_in_order<I: Iterator>(
    receiver: &mpsc::Receiver<(usize, Vec<FileResult>)>,
    progress: &Progress<I>,
    sink: &mut Sink<'_>,
) -> io::Result<()> {
    let mut waiting: BTreeMap<usize, Vec<FileResult>> = BTreeMap::new();
    let mut next = 0;
    loop {
        let (start, results) = match receiver.try_recv() {
            Ok(batch) => batch,
            Err(mpsc::TryRecvError::Empty) => {
                sink.consumer.idle()?;
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
            next += results.len();
            for result in results {
                sink.write(result)?;
            }
        }
        if next != before {
            progress.written_up_to(next);
        }
    }
    Ok(())
}

/// Checks `inputs` in order, handing each result to `write`: the JSON files
/// of one folder that follow one another (a store's candidate, a run of its
/// bundles), at most [`UNIT`] of them, as one [`Unit`], each read and
/// loaded once for its own check and every neighbour's; any other file
/// alone. What the units learn, they learn with the run's others
/// (`learning`).
fn check_in_units(
    inputs: impl Iterator<Item = Input>,
    origin: Origin,
    options: &Options,
    learning: &Learning,
    mut write: impl FnMut(FileResult) -> io::Result<()>,
) -> io::Result<()> {
    let mut inputs = inputs.peekable();
    while let Some(group) = next_group(&mut inputs) {
        let paths: Vec<PathBuf> = group
            .iter()
            .filter_map(unit_path)
            .map(Path::to_path_buf)
            .collect();
        let unit = (!paths.is_empty()).then(|| Unit::new(paths, learning));
        for input in group {
            write(check(input, origin, options, unit.as_ref()))?;
        }
    }
    Ok(())
}

/// The next inputs to check together: the JSON files of one folder that
/// follow one another, at most [`UNIT`] of them; any other input alone.
fn next_group<I: Iterator<Item = Input>>(
    inputs: &mut std::iter::Peekable<I>,
) -> Option<Vec<Input>> {
    let first = inputs.next()?;
    let Some(folder) = unit_folder(&first).map(Path::to_path_buf) else {
        return Some(vec![first]);
    };
    let mut group = vec![first];
    while group.len() < UNIT {
        match inputs.next_if(|input| unit_folder(input) == Some(folder.as_path())) {
            Some(input) => group.push(input),
            None => break,
        }
    }
    Some(group)
}

/// The path of an input a unit may take: a JSON file's.
fn unit_path(input: &Input) -> Option<&Path> {
    match &input.source {
        Ok(Source::Path(path)) if Unit::takes(path) => Some(path),
        _ => None,
    }
}

/// The folder of an input a unit may take.
fn unit_folder(input: &Input) -> Option<&Path> {
    unit_path(input).and_then(Path::parent)
}

/// Reads and validates one input, with the files of `unit` when it is one
/// of them. A panic inside numi becomes an internal error for this input
/// alone.
fn check(input: Input, origin: Origin, options: &Options, unit: Option<&Unit>) -> FileResult {
    let read_from = match &input.source {
        Ok(Source::Path(path)) => Some(path.clone()),
        _ => None,
    };
    let (checked, source) = match &input.source {
        Err(reason) => (
            failed(&crate::diagnostic::stages::errors::IO, reason.to_string()),
            None,
        ),
        Ok(source) => match read(source, options.max_file_size, unit) {
            Err(reason) => (
                failed(&crate::diagnostic::stages::errors::IO, reason.to_string()),
                None,
            ),
            Ok(bytes) => {
                let location = match (source, unit) {
                    (Source::Path(path), Some(unit)) => {
                        Location::file(path, options.max_file_size).in_unit(unit)
                    }
                    (Source::Path(path), None) => Location::file(path, options.max_file_size),
                    (Source::Stdin, _) => Location::detached(options.max_file_size),
                };
                let checked = validate_guarded(
                    &bytes,
                    options.mode,
                    &options.limits,
                    location,
                    |checked, parsed| {
                        crate::verdict::suppression::apply(checked, parsed);
                        crate::fix::attach(checked, parsed);
                        // Only a tree's documents are compared by name.
                        if matches!(options.mode, Mode::Repository { .. }) {
                            checked.name_place = crate::validate::name_place(checked, parsed);
                        }
                    },
                );
                (checked, options.keep_source.then(|| bytes.to_vec()))
            }
        },
    };
    FileResult {
        origin,
        display_name: input.display_name,
        path: input.path,
        checked,
        read_from,
        source,
    }
}

fn failed(rule: &'static RuleDoc, message: String) -> Checked {
    Checked {
        diagnostics: vec![Diagnostic::new(rule, message)],
        ..Checked::default()
    }
}

/// The bytes of a source, refusing one larger than `limit` without reading
/// it whole; a file of `unit` as the unit read it.
fn read(source: &Source, limit: u64, unit: Option<&Unit>) -> Result<Rc<Vec<u8>>, ReadError> {
    match source {
        Source::Stdin => read_stdin(limit).map(Rc::new),
        Source::Path(path) => match unit.and_then(|unit| unit.read(path, limit)) {
            Some(read) => read.map(|(bytes, _)| bytes),
            None => read_regular(path, limit).map(Rc::new),
        },
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::atomic::AtomicUsize;

    use crate::inputs::Unreadable;

    use super::*;

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
                    Err(Unreadable::Io("no such file or directory".to_owned()))
                } else {
                    Ok(Source::Path(valid.clone()))
                },
            })
            .collect()
    }

    #[test]
    fn the_json_files_of_one_folder_that_follow_one_another_are_one_unit_within_a_bound() {
        let file = |path: String| Input {
            display_name: path.clone(),
            path: path.clone(),
            source: Ok(Source::Path(PathBuf::from(path))),
        };
        let stdin = Input {
            display_name: "-".to_owned(),
            path: "-".to_owned(),
            source: Ok(Source::Stdin),
        };
        let unreadable = Input {
            display_name: "a/u.json".to_owned(),
            path: "a/u.json".to_owned(),
            source: Err(Unreadable::Io("no such file or directory".to_owned())),
        };
        let inputs = ["a/1.json", "a/2.json", "a/x.yaml", "a/3.json", "b/1.json"]
            .map(str::to_owned)
            .map(file)
            .into_iter()
            .chain([stdin, unreadable])
            .chain((0..=UNIT).map(|name| file(format!("c/{name}.json"))));
        let mut inputs = inputs.peekable();
        let mut groups = Vec::new();
        while let Some(group) = next_group(&mut inputs) {
            groups.push(
                group
                    .into_iter()
                    .map(|input| input.path)
                    .collect::<Vec<_>>(),
            );
        }
        let many: Vec<String> = (0..UNIT).map(|name| format!("c/{name}.json")).collect();
        let expected: Vec<Vec<String>> = [
            vec!["a/1.json", "a/2.json"],
            vec!["a/x.yaml"],
            vec!["a/3.json"],
            vec!["b/1.json"],
            vec!["-"],
            vec!["a/u.json"],
        ]
        .into_iter()
        .map(|group| group.into_iter().map(str::to_owned).collect())
        .chain([many, vec![format!("c/{UNIT}.json")]])
        .collect();
        assert_eq!(groups, expected);
    }

    #[test]
    fn a_batch_ends_where_the_folder_of_its_last_file_ends_within_a_bound() {
        let file = |folder: &str, name: usize| Input {
            display_name: format!("{folder}/{name}"),
            path: format!("{folder}/{name}"),
            source: Ok(Source::Path(Path::new(folder).join(name.to_string()))),
        };
        let inputs: Vec<Input> = (0..BATCH + 2)
            .map(|name| file("a", name))
            .chain((0..3).map(|name| file("b", name)))
            .chain((0..BATCH).map(|name| file("c", name)))
            .chain([Input {
                display_name: "-".to_owned(),
                path: "-".to_owned(),
                source: Ok(Source::Stdin),
            }])
            .collect();
        let mut feed = Feed {
            inputs: inputs.into_iter().peekable(),
            next: 0,
        };
        let mut sizes = Vec::new();
        loop {
            let batch = feed.take_batch();
            if batch.is_empty() {
                break;
            }
            sizes.push(batch.len());
        }
        // a's files stay together; b's three and c's first ones end in c,
        // which goes on to its end; standard input, in no folder, is alone.
        const { assert!(BATCH_FOLDER_TAIL >= 3) };
        assert_eq!(sizes, [BATCH + 2, BATCH + 3, 1]);
        assert_eq!(feed.next, 2 * BATCH + 6);
        // A folder longer than a batch and its tail is cut after both.
        let long: Vec<Input> = (0..3 * BATCH).map(|name| file("d", name)).collect();
        let mut feed = Feed {
            inputs: long.into_iter().peekable(),
            next: 0,
        };
        assert_eq!(feed.take_batch().len(), BATCH + BATCH_FOLDER_TAIL);
    }

    fn options() -> Options {
        Options {
            mode: Mode::Files,
            limits: Limits::default(),
            max_file_size: crate::location::DEFAULT_MAX_FILE_SIZE,
            strict: false,
            keep_source: false,
            policy: Policy::default(),
            baseline: None,
            // More workers than the test machine may have cores, so the
            // runs below go through the parallel path anywhere.
            threads: Some(4),
        }
    }

    /// Keeps the display names it is handed; fails after `fail_after`.
    #[derive(Default)]
    struct Names {
        names: Vec<String>,
        fail_after: Option<usize>,
    }

    impl Consumer for Names {
        fn result(&mut self, result: &FileResult) -> io::Result<()> {
            if self.fail_after == Some(self.names.len()) {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
            }
            self.names.push(result.display_name.clone());
            Ok(())
        }

        fn idle(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn results_are_handed_on_in_input_order_and_counted() {
        let inputs = inputs(3 * WINDOW + 5);
        let mut names = Names::default();
        let summary = run(inputs.clone(), Origin::File, &options(), &mut names).expect("consumed");
        let expected: Vec<&str> = inputs.iter().map(|i| i.display_name.as_str()).collect();
        assert_eq!(names.names, expected);
        let errors = inputs.len().div_ceil(3);
        assert_eq!(
            summary,
            Summary {
                ok: inputs.len() - errors,
                invalid: 0,
                error: errors,
                warnings: 0,
                suppressed: 0,
            }
        );
    }

    /// Counts the inputs drawn so far, and the most drawn ahead of the
    /// results handed on.
    struct Drawn<'a> {
        drawn: &'a AtomicUsize,
        handed: usize,
        most_ahead: usize,
    }

    impl Consumer for Drawn<'_> {
        fn result(&mut self, _: &FileResult) -> io::Result<()> {
            self.handed += 1;
            let ahead = self
                .drawn
                .load(Ordering::SeqCst)
                .saturating_sub(self.handed);
            self.most_ahead = self.most_ahead.max(ahead);
            Ok(())
        }

        fn idle(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn inputs_are_drawn_as_they_are_needed_not_all_at_once() {
        let inputs = inputs(6 * WINDOW);
        let drawn = AtomicUsize::new(0);
        let feed = inputs.into_iter().inspect(|_| {
            drawn.fetch_add(1, Ordering::SeqCst);
        });
        let mut consumer = Drawn {
            drawn: &drawn,
            handed: 0,
            most_ahead: 0,
        };
        run(feed, Origin::File, &options(), &mut consumer).expect("consumed");
        assert_eq!(consumer.handed, 6 * WINDOW);
        assert!(
            consumer.most_ahead <= WINDOW + 2 * BATCH * core_count(&options()),
            "{} inputs drawn ahead of the output",
            consumer.most_ahead
        );
    }

    #[test]
    fn numi_threads_must_be_a_positive_number() {
        assert_eq!(requested_threads(None), Ok(None));
        assert_eq!(requested_threads(Some(OsStr::new("4"))), Ok(Some(4)));
        for bad in ["", "0", "four", "-1", "2.5"] {
            let problem = requested_threads(Some(OsStr::new(bad))).expect_err(bad);
            assert_eq!(
                problem.to_string(),
                format!("NUMI_THREADS must be a positive whole number of threads, not \"{bad}\"")
            );
        }
    }

    #[test]
    fn a_failed_write_stops_the_run_with_its_error() {
        let inputs = inputs(3 * WINDOW);
        let mut names = Names {
            fail_after: Some(10),
            ..Names::default()
        };
        let error =
            run(inputs, Origin::File, &options(), &mut names).expect_err("the consumer fails");
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(names.names.len(), 10);
    }
}
