//! `numi validate`: turns the arguments into a run and the run into an exit
//! status.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};

use super::paths;
use crate::inputs;
use crate::inputs::CONFIGURATION_TREE;
use crate::location::DEFAULT_MAX_FILE_SIZE;
use crate::report::concise::ConciseReporter;
use crate::report::github::GithubReporter;
use crate::report::json::JsonReporter;
use crate::report::junit::JunitReporter;
use crate::report::pretty::PrettyReporter;
use crate::report::sarif::SarifReporter;
use crate::report::text::TextReporter;
use crate::report::{self, Output, Reporter, summary};
use crate::results::{Exit, Origin};
use crate::run::Options;
use crate::validate::Mode;
use crate::yaml::Limits;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Repository whose `.numinance/` configuration tree is validated.
    #[arg(value_name = "DIR", conflicts_with = "files")]
    pub dir: Option<PathBuf>,

    /// Validate these files and folders instead (`-` reads standard input).
    /// Alpha kinds are on and produced kinds are checked against their schema.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub files: Option<Vec<String>>,

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

    /// When the pretty format uses colour; `auto` means on a terminal, unless
    /// NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = Colour::Auto, value_name = "WHEN")]
    pub color: Colour,

    /// Leave out documents with nothing to report: only what failed or
    /// warned is shown (text, concise, pretty).
    #[arg(long, short)]
    pub quiet: bool,

    /// When to end with the summary line (counts and time): `auto` means
    /// always for concise and pretty, and for text when standard error is a
    /// terminal (text writes it there, so standard output stays the
    /// reference's). Machine formats carry their own counts.
    #[arg(long, value_enum, default_value_t = Colour::Auto, value_name = "WHEN")]
    pub summary: Colour,
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
    /// JUnit XML, one testcase per document.
    Junit,
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
            Box::new(PrettyReporter::new(use_colour(
                colour,
                terminal,
                no_color.as_deref(),
            )))
        }
        Format::Json => Box::<JsonReporter>::default(),
        Format::Sarif => Box::<SarifReporter>::default(),
        Format::Github => Box::new(GithubReporter),
        Format::Junit => Box::<JunitReporter>::default(),
    }
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

pub fn execute(args: &ValidateArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    if let Some(problem) = paths::threads_problem(std::env::var_os("NUMI_THREADS").as_deref()) {
        let _ = writeln!(stderr, "numi: {problem}");
        return Exit::Usage;
    }
    let started = Instant::now();
    let root = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let (inputs, origin, mode) = match &args.files {
        Some(paths) => (inputs::from_arguments(paths), Origin::File, Mode::Files),
        None => {
            let mode = Mode::Repository {
                enable_alpha: args.enable_alpha,
            };
            (inputs::from_repository(&root), Origin::Repo, mode)
        }
    };
    let hint = match args.files {
        Some(_) => None,
        None => paths::repository_hint(&root),
    };
    let options = Options {
        mode,
        limits: Limits::default(),
        max_file_size: args.max_file_size,
        strict: args.strict,
        keep_source: args.format == Format::Pretty,
    };
    let mut out = io::BufWriter::new(stdout);
    let mut reporter = reporter(args.format, args.color);
    let is_text = args.format == Format::Text;
    // The text format has no place for warnings on its lines, so they go to
    // standard error; every other format carries them itself.
    let warnings: Option<&mut dyn Write> = if is_text { Some(&mut *stderr) } else { None };
    let people_format = matches!(args.format, Format::Text | Format::Concise | Format::Pretty);
    let mut output = Output {
        reporter: reporter.as_mut(),
        out: &mut out,
        warnings,
        quiet: args.quiet && people_format,
        read_note: hint
            .clone()
            .map(|hint| (CONFIGURATION_TREE.to_owned(), hint)),
    };
    let rendered = report::render(&inputs, origin, &options, &mut output);
    let summary = match rendered {
        Ok(summary) => summary,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => return Exit::Incomplete,
        Err(error) => {
            let _ = writeln!(stderr, "numi: cannot write the report: {error}");
            return Exit::Incomplete;
        }
    };
    let summary_line = summary::line(&summary, started.elapsed());
    let shows_summary = match args.summary {
        Colour::Always => people_format,
        Colour::Never => false,
        Colour::Auto => !is_text || io::stderr().is_terminal(),
    } && people_format;
    if shows_summary && !is_text && writeln!(out, "{summary_line}").is_err() {
        return Exit::Incomplete;
    }
    if out.flush().is_err() {
        return Exit::Incomplete;
    }
    if let Some(hint) = hint.filter(|_| is_text) {
        let _ = writeln!(stderr, "numi: hint: {hint}");
    }
    if summary.total() == 0 {
        let skipped = nothing_found_detail(args, &root);
        let _ = writeln!(stderr, "numi: nothing found to validate{skipped}");
    }
    if shows_summary && is_text {
        let _ = writeln!(stderr, "{summary_line}");
    }
    summary.exit()
}

/// What a run that found nothing skipped, as ` (skipped ...)`, or nothing.
fn nothing_found_detail(args: &ValidateArgs, root: &Path) -> String {
    let folders: Vec<PathBuf> = match &args.files {
        Some(paths) => paths
            .iter()
            .map(PathBuf::from)
            .filter(|path| path.is_dir())
            .collect(),
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

    use super::{Colour, use_colour};

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
