//! `numi validate`: turns the arguments into a run and the run into an exit
//! status.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use clap::{ArgMatches, Args, ValueEnum};

use super::paths;
use crate::config::RuleSelection;
use crate::inputs;
use crate::inputs::{CONFIGURATION_TREE, Input};
use crate::kinds;
use crate::location::{DEFAULT_MAX_FILE_SIZE, io_reason};
use crate::project::{ConfigFile, Flags, Settings};
use crate::report::concise::ConciseReporter;
use crate::report::github::GithubReporter;
use crate::report::gitlab::GitlabReporter;
use crate::report::json::JsonReporter;
use crate::report::junit::JunitReporter;
use crate::report::pretty::PrettyReporter;
use crate::report::sarif::SarifReporter;
use crate::report::statistics::StatisticsReporter;
use crate::report::text::TextReporter;
use crate::report::{self, Output, Reporter, summary};
use crate::results::baseline::{Baseline, Ledger};
use crate::results::{Exit, Origin};
use crate::run::{self, Options};
use crate::validate::Mode;
use crate::whole_file::{self, Staged};
use crate::yaml::Limits;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The repository whose `.numinance/` configuration tree is validated
    /// (one DIR, default `.`); with `--files` or `--only`, the paths to read.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Validate these files and folders instead (`-` reads standard input).
    /// Alpha kinds are on and produced kinds are checked against their
    /// schema. Paths may also follow the other options, as pre-commit
    /// passes them.
    #[arg(long, value_name = "PATH", num_args = 0.., conflicts_with = "only")]
    pub files: Option<Vec<PathBuf>>,

    /// With `--files`, name each file by its path as given (a folder
    /// argument joined with the path inside it) instead of by its name
    /// relative to its argument, so two files of one name in different
    /// folders are told apart.
    #[arg(long, requires = "files")]
    pub full_paths: bool,

    /// Validate only the named paths of the repository in the current
    /// folder, with the gates of `numi validate .`: paths outside
    /// `.numinance/` are passed over, names are relative to the repository.
    #[arg(long)]
    pub only: bool,

    /// Pass over what this gitignore-style glob matches when walking a
    /// folder (relative to the folder argument, or to the repository); a
    /// file named on the command line is always read.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// Read alpha kinds (EvalSet) in the configuration tree.
    #[arg(long)]
    pub enable_alpha: bool,

    /// Producer-side findings make a document invalid instead of warnings.
    #[arg(long)]
    pub strict: bool,

    /// Refuse files larger than this many bytes without reading them.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_SIZE)]
    pub max_file_size: u64,

    /// How to report the results on standard output.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Read this configuration file instead of the `numi.toml` found from
    /// the repository (or the current folder) upward.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Read no configuration file.
    #[arg(long)]
    pub no_config: bool,

    /// When the pretty format uses colour; `auto` means on a terminal, unless
    /// NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = Colour::Auto, value_name = "WHEN")]
    pub color: Colour,

    /// Leave out documents with nothing to report: only what failed or
    /// warned is shown (text, concise, pretty).
    #[arg(long, short)]
    pub quiet: bool,

    /// Whether to end with the summary line (counts and time): by default
    /// every text, concise and pretty run ends with it (text writes it on
    /// standard error, so standard output stays the reference's). Machine
    /// formats carry their own counts.
    #[arg(long, value_enum, default_value_t = SummaryWhen::Always, value_name = "WHEN")]
    pub summary: SummaryWhen,

    /// Count the findings of each rule, most frequent first, instead of
    /// reporting them one by one.
    #[arg(long, conflicts_with = "format")]
    pub statistics: bool,

    /// Write the report to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output_file: Option<PathBuf>,

    /// Exit 0 even when documents are invalid (a run that could not check
    /// everything still exits 1).
    #[arg(long)]
    pub exit_zero: bool,

    #[command(flatten)]
    pub rules: RuleSelectionArgs,

    /// Leave out the findings this baseline file holds (written by
    /// --write-baseline); instead of numi.toml's `baseline`.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,

    /// Write every finding of the rule stage to this baseline file, and
    /// report what a run with it will.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
}

// `--select` and `--ignore`, of `numi validate` and `numi fix`. A comment,
// not a doc comment: clap makes a flattened struct's doc comment the about
// of the subcommand it is added to, and a deferred subcommand adds it
// after its own.
#[derive(Debug, Args)]
pub struct RuleSelectionArgs {
    /// Run only these rules: rule ids or families (`playbook`), comma
    /// separated or repeated. Replaces numi.toml's `select` and `ignore`.
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    pub select: Option<Vec<String>>,

    /// Do not run these rules (rule ids or families), comma separated or
    /// repeated: over numi.toml's selection, or `--select`'s.
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    pub ignore: Vec<String>,
}

impl RuleSelectionArgs {
    /// The command line's layer of rule selection.
    pub fn layer(&self) -> RuleSelection {
        RuleSelection {
            select: self.select.clone(),
            ignore: self.ignore.clone(),
        }
    }
}

/// The report formats of `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One line per document, byte-compatible with the reference (the default).
    Text,
    /// Every problem with its source snippet, for people at a terminal.
    Pretty,
    /// One line per diagnostic: `path:line:column: severity[rule] message`.
    Concise,
    /// One JSON document per run (schema: schemas/report.schema.json).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands, one per diagnostic.
    Github,
    /// A GitLab Code Quality report (JSON), for `artifacts:reports:codequality`.
    Gitlab,
    /// JUnit XML, one testcase per document.
    Junit,
}

/// When a run ends with its summary line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SummaryWhen {
    /// At the end of every text, concise and pretty run.
    #[value(alias = "auto")]
    Always,
    /// Never.
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    Auto,
    Always,
    Never,
}

fn reporter(format: Format, colour: Colour) -> Box<dyn Reporter> {
    match format {
        Format::Text => Box::new(TextReporter),
        Format::Concise => Box::new(ConciseReporter),
        Format::Pretty => {
            let no_color = std::env::var_os("NO_COLOR");
            let terminal = io::stdout().is_terminal();
            Box::new(PrettyReporter::new(
                use_colour(colour, terminal, no_color.as_deref()),
                pretty_width(terminal),
            ))
        }
        Format::Json => Box::<JsonReporter>::default(),
        Format::Sarif => Box::<SarifReporter>::default(),
        Format::Github => Box::new(GithubReporter),
        Format::Gitlab => Box::<GitlabReporter>::default(),
        Format::Junit => Box::<JunitReporter>::default(),
    }
}

/// The columns `pretty` wraps to: the terminal's, or
/// [`crate::report::pretty::WIDTH`] when standard output is no terminal
/// (a pipe, a file, CI's log) or one that does not say its width (a
/// serial console reports 0).
fn pretty_width(terminal: bool) -> usize {
    let columns = terminal
        .then(|| terminal_size::terminal_size_of(io::stdout()))
        .flatten()
        .map(|(width, _)| usize::from(width.0));
    width_or_default(columns)
}

fn width_or_default(columns: Option<usize>) -> usize {
    columns
        .filter(|&columns| columns > 0)
        .unwrap_or(crate::report::pretty::WIDTH)
}

/// Whether to colour: `--color` decides, and `auto` colours a terminal
/// unless NO_COLOR is set to anything but the empty string (no-color.org).
fn use_colour(choice: Colour, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    match choice {
        Colour::Always => true,
        Colour::Never => false,
        Colour::Auto => terminal && no_color.is_none_or(|value| value.is_empty()),
    }
}

/// The paths of `--files`, those given as its values and those given on
/// their own, in the order they stand on the command line.
pub(super) fn paths_in_order(args: &mut ValidateArgs, matches: &ArgMatches) {
    let Some(values) = args.files.take() else {
        return;
    };
    let indices = |id: &str| -> Vec<usize> {
        matches
            .indices_of(id)
            .map(|indices| indices.collect())
            .unwrap_or_default()
    };
    let mut placed: Vec<(usize, PathBuf)> = indices("files")
        .into_iter()
        .zip(values)
        .chain(indices("paths").into_iter().zip(args.paths.drain(..)))
        .collect();
    placed.sort_by_key(|(index, _)| *index);
    args.files = Some(placed.into_iter().map(|(_, path)| path).collect());
}

pub(super) fn execute(args: &ValidateArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let threads = match run::requested_threads(std::env::var_os("NUMI_THREADS").as_deref()) {
        Ok(threads) => threads,
        Err(problem) => {
            let _ = writeln!(stderr, "numi: {problem}");
            return Exit::Usage;
        }
    };
    let started = Instant::now();
    let repository = match (&args.files, args.only, args.paths.as_slice()) {
        (None, false, []) => paths::repository_root(None),
        (None, false, [dir]) => paths::repository_root(Some(dir)),
        (None, false, [_, _, ..]) => {
            return usage(
                stderr,
                "numi validate reads one DIR; name files with --files or --only",
            );
        }
        _ => PathBuf::from("."),
    };
    let flags = Flags {
        enable_alpha: args.enable_alpha,
        strict: args.strict,
    };
    let file = ConfigFile::from_options(args.no_config, args.config.as_deref());
    let settings = match Settings::resolve(flags, file, &repository) {
        Ok(settings) => settings,
        Err(message) => {
            let _ = writeln!(stderr, "numi: {message}");
            return Exit::Usage;
        }
    };
    let Settings {
        enable_alpha,
        strict,
        policy,
        baseline: configured_baseline,
    } = match settings.with_selection(args.rules.layer()) {
        Ok(settings) => settings,
        Err(reason) => return usage(stderr, &reason),
    };
    // The command line's file over numi.toml's.
    let baseline_path = args
        .write_baseline
        .clone()
        .or_else(|| args.baseline.clone())
        .or(configured_baseline);
    let ledger = match &baseline_path {
        None => None,
        // A baseline written again keeps what this run does not check of
        // the one it replaces; a file that is no baseline has nothing to keep.
        Some(path) if args.write_baseline.is_some() => Some(Ledger::record(
            Baseline::load(path).unwrap_or_default(),
            policy.clone(),
        )),
        Some(path) => match Baseline::load(path) {
            Ok(baseline) => Some(Ledger::compare(baseline, policy.clone())),
            Err(reason) => {
                let _ = writeln!(
                    stderr,
                    "numi: {}: {reason}",
                    crate::text::quote(&path.display().to_string())
                );
                return Exit::Usage;
            }
        },
    }
    .map(|ledger| Arc::new(Mutex::new(ledger)));
    let selection = match inputs::Selection::new(&args.exclude, kinds::claims_file) {
        Ok(selection) => selection,
        Err(reason) => return usage(stderr, &reason),
    };
    let repository_mode = Mode::Repository { enable_alpha };
    // A path the configuration excludes is left out of a folder's walk; a
    // file named on the command line is always read.
    let named: Vec<String> = match &args.files {
        Some(paths) => paths,
        None if args.only => &args.paths,
        None => &[][..],
    }
    .iter()
    .map(|path| inputs::given_name(path))
    .collect();
    // The files this run writes are never among those it reads: named,
    // the command line is wrong; found by a walk, they are passed over.
    let written = WrittenFiles::new([args.output_file.as_deref(), args.write_baseline.as_deref()]);
    let read_as_named = match &args.files {
        Some(paths) => paths.as_slice(),
        None if args.only => args.paths.as_slice(),
        None => &[],
    };
    if let Some(path) = read_as_named.iter().find(|path| written.holds(path)) {
        return usage(
            stderr,
            format!(
                "{} is both read and written by this run; write the report or the baseline to another file",
                crate::text::quote(&inputs::given_name(path))
            ),
        );
    }
    let excluding = policy.clone();
    let wanted = |input: &Input| {
        (named.contains(&input.path) || !excluding.excludes(Path::new(&input.path)))
            && !written.holds_input(input)
    };
    // Named paths that all lie outside the configuration tree leave nothing
    // to check, which is no failure: the tree has nothing to say about them.
    let mut nothing_asked = false;
    // Folder walks stream into the run; the named paths of `--only` are
    // few, and sorted as a whole.
    let (inputs, origin, mode): (Box<dyn Iterator<Item = Input> + Send + '_>, _, _) =
        match &args.files {
            Some(paths) if paths.is_empty() => {
                return usage(stderr, "--files needs at least one PATH");
            }
            Some(paths) => {
                let full_paths = args.full_paths;
                let shown = inputs::stream_arguments(paths, &selection)
                    .filter(wanted)
                    .map(move |input| {
                        if full_paths {
                            input.named_by_path()
                        } else {
                            input
                        }
                    });
                (Box::new(shown), Origin::File, Mode::Files)
            }
            None if args.only => {
                let mut named =
                    inputs::from_named_in_repository(Path::new("."), &args.paths, &selection);
                named.retain(wanted);
                nothing_asked = named.is_empty();
                (Box::new(named.into_iter()), Origin::Repo, repository_mode)
            }
            None => (
                Box::new(inputs::stream_repository(&repository, &selection).filter(wanted)),
                Origin::Repo,
                repository_mode,
            ),
        };
    let root = repository.clone();
    let hint = match (&args.files, args.only) {
        (None, false) => paths::repository_hint(&root),
        _ => None,
    };
    let options = Options {
        mode,
        limits: Limits::default(),
        max_file_size: args.max_file_size,
        strict,
        keep_source: args.format == Format::Pretty,
        policy,
        threads,
        baseline: ledger.clone(),
    };
    // The report file is made only as the report is complete: until then
    // it is as it was (an input named the same is read first).
    let report_name = |path: &Path| crate::text::quote(&path.display().to_string());
    let mut report_file = match &args.output_file {
        None => None,
        Some(path) => match ReportFile::open(path) {
            Ok(file) => Some(file),
            Err(error) => {
                let _ = writeln!(
                    stderr,
                    "numi: cannot write the report to {}: {}",
                    report_name(path),
                    io_reason(&error)
                );
                return Exit::Incomplete;
            }
        },
    };
    let destination: &mut dyn Write = match report_file.as_mut() {
        Some(file) => file,
        None => stdout,
    };
    let mut out = io::BufWriter::new(destination);
    let mut reporter: Box<dyn Reporter> = if args.statistics {
        Box::<StatisticsReporter>::default()
    } else {
        reporter(args.format, args.color)
    };
    let is_text = args.format == Format::Text && !args.statistics;
    // The text format has no place for warnings on its lines, so they go to
    // standard error; every other format carries them itself.
    let warnings: Option<&mut dyn Write> = if is_text { Some(&mut *stderr) } else { None };
    let people_format =
        args.statistics || matches!(args.format, Format::Text | Format::Concise | Format::Pretty);
    let mut output = Output {
        reporter: reporter.as_mut(),
        out: &mut out,
        warnings,
        quiet: args.quiet && people_format,
        read_note: hint
            .clone()
            .map(|hint| (CONFIGURATION_TREE.to_owned(), hint)),
    };
    let rendered = report::render(inputs, origin, &options, &mut output);
    // Standard output closed by its reader (`| head`) ends the run quietly,
    // as for any filter; every other failure to write the report is said.
    let cannot_write = |error: io::Error, stderr: &mut dyn Write| {
        if args.output_file.is_some() || error.kind() != io::ErrorKind::BrokenPipe {
            let _ = match &args.output_file {
                Some(path) => writeln!(
                    stderr,
                    "numi: cannot write the report to {}: {}; nothing written",
                    report_name(path),
                    io_reason(&error)
                ),
                None => writeln!(
                    stderr,
                    "numi: cannot write the report: {}",
                    io_reason(&error)
                ),
            };
        }
        Exit::Incomplete
    };
    let summary = match rendered {
        Ok(summary) => summary,
        Err(error) => return cannot_write(error, stderr),
    };
    let summary_line = summary::line(&summary, started.elapsed());
    let shows_summary = args.summary == SummaryWhen::Always && people_format && summary.total() > 0;
    let finished = if shows_summary && !is_text {
        writeln!(out, "{summary_line}")
    } else {
        Ok(())
    }
    .and_then(|()| out.flush());
    drop(out);
    let finished = finished.and_then(|()| report_file.take().map_or(Ok(()), ReportFile::finish));
    if let Err(error) = finished {
        return cannot_write(error, stderr);
    }
    if let (Some(ledger), Some(path)) = (&ledger, &baseline_path) {
        let ledger = ledger.lock().unwrap_or_else(PoisonError::into_inner);
        let writing = args.write_baseline.is_some();
        // A walk of the configuration tree reads every file it holds; named
        // paths are a few of them.
        let whole_tree = args.files.is_none() && !args.only;
        if let Err(exit) = report_baseline(&ledger, path, writing, whole_tree, stderr) {
            return exit;
        }
    }
    if nothing_asked {
        return Exit::Valid;
    }
    if let Some(hint) = hint.filter(|_| is_text) {
        let _ = writeln!(stderr, "numi: hint: {hint}");
    }
    if summary.total() == 0 {
        let skipped = nothing_found_detail(args, &root);
        let _ = writeln!(stderr, "numi: nothing found to validate{skipped}");
    }
    if is_text && (summary.invalid > 0 || summary.warnings > 0) {
        let _ = writeln!(
            stderr,
            "numi: hint: --format concise shows where each finding stands, --format pretty its source and fix"
        );
    }
    if shows_summary && is_text {
        let _ = writeln!(stderr, "{summary_line}");
    }
    match summary.exit() {
        Exit::Invalid if args.exit_zero => Exit::Valid,
        exit => exit,
    }
}

/// Where `--output-file` sends the report. A regular file (or a new one)
/// is replaced whole once the report is complete, and left as it was when
/// the run cannot finish it; a device or a pipe (`/dev/stdout`, a FIFO) is
/// written as the report goes.
enum ReportFile {
    Whole(Staged),
    Stream(std::fs::File),
}

impl ReportFile {
    fn open(path: &Path) -> io::Result<ReportFile> {
        let target = whole_file::resolved(path);
        match std::fs::metadata(&target) {
            Ok(metadata) if !metadata.is_file() => std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .map(ReportFile::Stream),
            _ => Staged::beside(&target).map(ReportFile::Whole),
        }
    }

    fn finish(self) -> io::Result<()> {
        match self {
            ReportFile::Whole(staged) => staged.commit(),
            ReportFile::Stream(mut file) => file.flush(),
        }
    }
}

impl Write for ReportFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            ReportFile::Whole(staged) => staged.write(buf),
            ReportFile::Stream(file) => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            ReportFile::Whole(staged) => staged.flush(),
            ReportFile::Stream(file) => file.flush(),
        }
    }
}

/// The files a run writes (its report, the baseline it records), known by
/// where they lie once links are followed, to tell them from its inputs.
struct WrittenFiles {
    places: Vec<PathBuf>,
}

impl WrittenFiles {
    fn new<'a>(paths: impl IntoIterator<Item = Option<&'a Path>>) -> WrittenFiles {
        WrittenFiles {
            places: paths.into_iter().flatten().filter_map(place_of).collect(),
        }
    }

    /// Whether `path` is one of the files written.
    fn holds(&self, path: &Path) -> bool {
        if self.places.is_empty() {
            return false;
        }
        // Only a path of the same last name can be one: the rest cost no
        // system call.
        let same_name = self
            .places
            .iter()
            .any(|place| place.file_name() == path.file_name());
        same_name && place_of(path).is_some_and(|place| self.places.contains(&place))
    }

    fn holds_input(&self, input: &Input) -> bool {
        match &input.source {
            Ok(inputs::Source::Path(path)) => self.holds(path),
            _ => false,
        }
    }
}

/// Where a file lies, links followed: its folder resolved and its name,
/// whether or not the file exists yet.
fn place_of(path: &Path) -> Option<PathBuf> {
    if let Ok(place) = std::fs::canonicalize(path) {
        return Some(place);
    }
    let name = path.file_name()?;
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    std::fs::canonicalize(folder)
        .ok()
        .map(|folder| folder.join(name))
}

/// A usage error found after clap parsed the command line, written as
/// clap writes its own.
pub(super) fn usage(stderr: &mut dyn Write, message: impl std::fmt::Display) -> Exit {
    let _ = writeln!(
        stderr,
        "error: {message}\n\nFor more information, try '--help'."
    );
    Exit::Usage
}

/// Writes the baseline recorded, or says what the baseline read left out
/// and how many of its findings are gone; a baseline that cannot be
/// written fails the run.
fn report_baseline(
    ledger: &Ledger,
    path: &Path,
    writing: bool,
    whole_tree: bool,
    stderr: &mut dyn Write,
) -> Result<(), Exit> {
    let name = crate::text::quote(&path.display().to_string());
    let findings = |count: usize| match count {
        1 => "1 finding".to_owned(),
        count => format!("{count} findings"),
    };
    if writing {
        let target = whole_file::resolved(path);
        let recorded = ledger.recorded(whole_tree);
        if let Err(error) = whole_file::replace(&target, recorded.to_json().as_bytes()) {
            let _ = writeln!(
                stderr,
                "numi: cannot write the baseline {name}: {}; the baseline is as it was",
                io_reason(&error)
            );
            return Err(Exit::Incomplete);
        }
        let kept = recorded.findings().saturating_sub(ledger.baselined());
        let kept = match kept {
            0 => String::new(),
            kept => format!(", and kept {} this run did not check", findings(kept)),
        };
        let _ = writeln!(
            stderr,
            "numi: wrote {} to the baseline {name}{kept}",
            findings(ledger.baselined())
        );
        return Ok(());
    }
    let stale = match ledger.stale(whole_tree) {
        0 => String::new(),
        stale => format!(", {stale} stale (no longer found: --write-baseline {name} rewrites it)"),
    };
    let _ = writeln!(
        stderr,
        "numi: baseline {name}: {} left out{stale}",
        findings(ledger.baselined())
    );
    Ok(())
}

/// What a run that found nothing skipped, as ` (skipped ...)`, or nothing.
fn nothing_found_detail(args: &ValidateArgs, root: &Path) -> String {
    let folders: Vec<PathBuf> = match &args.files {
        Some(paths) => paths.iter().filter(|path| path.is_dir()).cloned().collect(),
        None => vec![root.join(CONFIGURATION_TREE)],
    };
    let folders: Vec<&Path> = folders.iter().map(PathBuf::as_path).collect();
    paths::skipped_files(&folders)
        .map(|skipped| format!(" ({skipped})"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::{Colour, pretty_width, use_colour, width_or_default};

    #[test]
    fn pretty_wraps_to_the_terminal_or_to_80_columns() {
        assert_eq!(width_or_default(Some(132)), 132);
        assert_eq!(width_or_default(None), 80);
        assert_eq!(width_or_default(Some(0)), 80);
        // Standard output is no terminal under the test runner.
        assert_eq!(pretty_width(false), 80);
    }

    #[test]
    fn colour_follows_the_flag_then_the_terminal_and_no_color() {
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        assert!(use_colour(Colour::Always, false, set));
        assert!(!use_colour(Colour::Never, true, None));
        assert!(use_colour(Colour::Auto, true, None));
        assert!(use_colour(Colour::Auto, true, empty));
        assert!(!use_colour(Colour::Auto, true, set));
        assert!(!use_colour(Colour::Auto, false, None));
    }
}
