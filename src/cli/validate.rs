//! `numi validate`: turns the arguments into a run and the run into an exit
//! status.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{ArgMatches, Args, ValueEnum};

use crate::inputs;
use crate::report::Reporter;
use crate::report::github::GithubReporter;
use crate::report::json::JsonReporter;
use crate::report::junit::JunitReporter;
use crate::report::pretty::PrettyReporter;
use crate::report::sarif::SarifReporter;
use crate::report::text::TextReporter;
use crate::run::{self, DEFAULT_MAX_FILE_SIZE, Exit, Options, Origin};
use crate::validate::Mode;
use crate::yaml::Limits;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The repository whose `.numinance/` configuration tree is validated
    /// (one DIR, default `.`); with `--files` or `--only`, the paths to read.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,

    /// Validate these files and folders instead (`-` reads standard input).
    /// Alpha kinds are on and produced kinds are checked against their
    /// schema. Paths may also follow the other options, as pre-commit
    /// passes them.
    #[arg(long, value_name = "PATH", num_args = 0.., conflicts_with = "only")]
    pub files: Option<Vec<String>>,

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

    /// When the pretty format uses colour; `auto` means on a terminal, unless
    /// NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = Colour::Auto, value_name = "WHEN")]
    pub color: Colour,
}

/// The report formats of `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One line per document, byte-compatible with the reference (the default).
    Text,
    /// Every problem with its source snippet, for people at a terminal.
    Pretty,
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

/// The paths of `--files`, those given as its values and those given on
/// their own, in the order they stand on the command line.
pub fn paths_in_order(args: &mut ValidateArgs, matches: &ArgMatches) {
    let Some(values) = args.files.take() else {
        return;
    };
    let indices = |id: &str| -> Vec<usize> {
        matches
            .indices_of(id)
            .map(|indices| indices.collect())
            .unwrap_or_default()
    };
    let mut placed: Vec<(usize, String)> = indices("files")
        .into_iter()
        .zip(values)
        .chain(indices("paths").into_iter().zip(args.paths.drain(..)))
        .collect();
    placed.sort_by_key(|(index, _)| *index);
    args.files = Some(placed.into_iter().map(|(_, path)| path).collect());
}

pub fn execute(args: &ValidateArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let usage = |stderr: &mut dyn Write, message: &str| {
        let _ = writeln!(
            stderr,
            "error: {message}\n\nFor more information, try '--help'."
        );
        Exit::Usage
    };
    let exclusions = match inputs::Exclusions::new(&args.exclude) {
        Ok(exclusions) => exclusions,
        Err(reason) => return usage(stderr, &reason),
    };
    let repository_mode = Mode::Repository {
        enable_alpha: args.enable_alpha,
    };
    let (inputs, origin, mode) = match &args.files {
        Some(paths) if paths.is_empty() => {
            return usage(stderr, "--files needs at least one PATH");
        }
        Some(paths) => (
            inputs::from_arguments(paths, &exclusions),
            Origin::File,
            Mode::Files,
        ),
        None if args.only => (
            inputs::from_named_in_repository(Path::new("."), &args.paths, &exclusions),
            Origin::Repo,
            repository_mode,
        ),
        None => {
            let root = match args.paths.as_slice() {
                [] => PathBuf::from("."),
                [dir] => PathBuf::from(dir),
                _ => {
                    return usage(
                        stderr,
                        "numi validate reads one DIR; name files with --files or --only",
                    );
                }
            };
            (
                inputs::from_repository(&root, &exclusions),
                Origin::Repo,
                repository_mode,
            )
        }
    };
    // Named paths that all lie outside the configuration tree leave nothing
    // to check, which is no failure: the tree has nothing to say about them.
    let nothing_asked = args.only && inputs.is_empty();
    let options = Options {
        mode,
        limits: Limits::default(),
        max_file_size: args.max_file_size,
        strict: args.strict,
        keep_source: args.format == Format::Pretty,
    };
    let mut out = io::BufWriter::new(stdout);
    let mut reporter = reporter(args.format, args.color);
    // The text format has no place for warnings on its lines, so they go to
    // standard error; every other format carries them itself.
    let mut no_warnings = io::sink();
    let warnings: &mut dyn Write = if args.format == Format::Text {
        &mut *stderr
    } else {
        &mut no_warnings
    };
    let summary = match run::run(
        &inputs,
        origin,
        &options,
        reporter.as_mut(),
        &mut out,
        warnings,
    ) {
        Ok(summary) => summary,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => return Exit::Incomplete,
        Err(error) => {
            let _ = writeln!(stderr, "numi: cannot write the report: {error}");
            return Exit::Incomplete;
        }
    };
    if out.flush().is_err() {
        return Exit::Incomplete;
    }
    if nothing_asked {
        return Exit::Valid;
    }
    if summary.total() == 0 {
        let _ = writeln!(stderr, "numi: nothing found to validate");
    }
    summary.exit()
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
