//! `numi fix`: the safe fixes of `crate::fix`, applied to the documents
//! `numi validate` would read, with a line per fix and per finding left.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::fix::{self, Fixed, write_atomically};
use crate::inputs::{self, Input, Source};
use crate::location::{DEFAULT_MAX_FILE_SIZE, Location, read_regular, read_stdin};
use crate::project::{ConfigFile, Flags, Settings};
use crate::results::{Exit, Origin};
use crate::text::quote;
use crate::validate::Mode;
use crate::verdict::Verdict;

#[derive(Debug, Args)]
pub struct FixArgs {
    /// Repository whose `.numinance/` configuration tree is fixed.
    #[arg(value_name = "DIR", conflicts_with = "files")]
    pub dir: Option<PathBuf>,

    /// Fix these files and folders instead (`-` reads standard input and
    /// writes the fixed document to standard output).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub files: Option<Vec<PathBuf>>,

    /// Read alpha kinds (EvalSet) in the configuration tree.
    #[arg(long)]
    pub enable_alpha: bool,

    /// Producer-side findings count as findings left.
    #[arg(long)]
    pub strict: bool,

    /// Read this configuration file instead of the `numi.toml` found from
    /// DIR (or the current folder) upward.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Read no configuration file.
    #[arg(long)]
    pub no_config: bool,

    /// Refuse files larger than this many bytes without reading them.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_SIZE)]
    pub max_file_size: u64,

    /// Print a unified diff of the fixes instead of writing them.
    #[arg(long)]
    pub diff: bool,

    /// Write nothing; exit 3 when a fix would change a document.
    #[arg(long)]
    pub check: bool,

    /// Only the rules selected are fixed, and only they count as findings
    /// left.
    #[command(flatten)]
    pub rules: super::validate::RuleSelectionArgs,
}

/// How one document fared.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    documents: usize,
    fixed: usize,
    left: usize,
    failed: usize,
}

pub(super) fn execute(args: &FixArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    // The configuration holds for fixes as for validation: its alpha gate,
    // strictness, excluded paths and rule levels (a rule turned off is not
    // fixed); a broken one is refused the same way.
    let start = match &args.files {
        Some(_) => PathBuf::from("."),
        None => super::paths::repository_root(args.dir.as_deref()),
    };
    let flags = Flags {
        enable_alpha: args.enable_alpha,
        strict: args.strict,
    };
    let file = ConfigFile::from_options(args.no_config, args.config.as_deref());
    let settings = match Settings::resolve(flags, file, &start) {
        Ok(settings) => settings,
        Err(message) => {
            let _ = writeln!(stderr, "numi: {message}");
            return Exit::Usage;
        }
    };
    let settings = match settings.with_selection(args.rules.layer()) {
        Ok(settings) => settings,
        Err(reason) => return super::validate::usage(stderr, &reason),
    };
    let policy = &settings.policy;
    let verdict = settings.verdict();
    let selection = inputs::Selection::default();
    let (mut inputs, origin, mode, root) = match &args.files {
        Some(paths) => (
            inputs::from_arguments(paths, &selection),
            Origin::File,
            Mode::Files,
            None,
        ),
        None => {
            let root = start.clone();
            let mode = Mode::Repository {
                enable_alpha: settings.enable_alpha,
            };
            (
                inputs::from_repository(&root, &selection),
                Origin::Repo,
                mode,
                Some(root),
            )
        }
    };
    let named: Vec<String> = args
        .files
        .iter()
        .flatten()
        .map(|path| inputs::given_name(path))
        .collect();
    inputs.retain(|input| {
        named.contains(&input.path) || !policy.excludes(std::path::Path::new(&input.path))
    });
    let dry_run = args.diff || args.check;
    let stdin_written = !dry_run && inputs.iter().any(|input| input.source == Ok(Source::Stdin));
    // Standard output holds the diff, or the fixed document of standard
    // input; the report then goes to standard error.
    let report_to_stderr = args.diff || stdin_written;
    let mut counts = Counts::default();
    let mut report = Vec::new();
    let mut output = Vec::new();
    for input in &inputs {
        counts.documents += 1;
        let document = Document {
            input,
            origin,
            mode,
            args,
            root: root.as_deref(),
            verdict,
        };
        document.fix(&mut counts, &mut report, &mut output);
    }
    let verb = if dry_run { "fixable" } else { "fixed" };
    let noun = if counts.documents == 1 {
        "document"
    } else {
        "documents"
    };
    report.push(format!(
        "{} {noun}: {} {verb}, {} with findings left, {} not fixed",
        counts.documents, counts.fixed, counts.left, counts.failed
    ));
    if inputs.is_empty() {
        report.push("numi: nothing found to fix".to_owned());
    }
    let text: String = report.iter().map(|line| format!("{line}\n")).collect();
    let written = stdout.write_all(&output).and_then(|()| {
        if report_to_stderr {
            stderr.write_all(text.as_bytes())
        } else {
            stdout.write_all(text.as_bytes())
        }
    });
    if written.and_then(|()| stdout.flush()).is_err() {
        return Exit::Incomplete;
    }
    if counts.failed > 0 || inputs.is_empty() {
        Exit::Incomplete
    } else if counts.left > 0 || (dry_run && counts.fixed > 0) {
        Exit::Invalid
    } else {
        Exit::Valid
    }
}

/// One input of the run, and what the run was asked to do with it.
struct Document<'a> {
    input: &'a Input,
    origin: Origin,
    mode: Mode,
    args: &'a FixArgs,
    root: Option<&'a Path>,
    verdict: Verdict<'a>,
}

impl Document<'_> {
    fn line(&self, status: &str, rest: &str) -> String {
        format!(
            "{status:<9}{} {}: {rest}",
            self.origin.name(),
            quote(&self.input.display_name)
        )
    }

    fn fix(&self, counts: &mut Counts, report: &mut Vec<String>, output: &mut Vec<u8>) {
        let limit = self.args.max_file_size;
        let (bytes, location) = match &self.input.source {
            Err(reason) => return self.failed(counts, report, &format!("read: {reason}")),
            Ok(Source::Stdin) => match read_stdin(limit) {
                Ok(bytes) => (bytes, Location::detached(limit)),
                Err(reason) => return self.failed(counts, report, &format!("read: {reason}")),
            },
            Ok(Source::Path(path)) => match read_regular(path, limit) {
                Ok(bytes) => (bytes, Location::file(path, limit)),
                Err(reason) => return self.failed(counts, report, &format!("read: {reason}")),
            },
        };
        let dry_run = self.args.diff || self.args.check;
        // Standard output stands for the document: whatever happens, it gets
        // the document back, fixed or as it came.
        let echo = self.input.source == Ok(Source::Stdin) && !dry_run;
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => {
                if echo {
                    output.extend(error.as_bytes());
                }
                counts.left += 1;
                report.push(self.line(
                    "left",
                    "yaml/encoding: the file is not UTF-8; nothing to fix",
                ));
                return;
            }
        };
        let fixed = match fix::fix_document(&text, self.mode, location, self.verdict) {
            Ok(fixed) => fixed,
            Err(refused) => {
                if echo {
                    output.extend(text.as_bytes());
                }
                return self.failed(counts, report, &refused.reason);
            }
        };
        let changed = fixed.text != text;
        if self.args.diff && changed {
            output.extend(diff(&self.input.path, &text, &fixed.text).into_bytes());
        }
        if !dry_run {
            match &self.input.source {
                Ok(Source::Stdin) => output.extend(fixed.text.as_bytes()),
                Ok(Source::Path(path)) if changed => {
                    let root = self.root_of(path);
                    if let Err(refused) =
                        write_atomically(&root, path, text.as_bytes(), &fixed.text)
                    {
                        return self.failed(counts, report, &refused.to_string());
                    }
                }
                _ => {}
            }
        }
        // Reported once they are made: a fix that was not written is not
        // `fixed`.
        if changed {
            counts.fixed += 1;
            let verb = if dry_run { "fixable" } else { "fixed" };
            for (rule, title) in &fixed.applied {
                report.push(self.line(verb, &format!("{rule}: {title}")));
            }
        }
        let left = self.left(&fixed);
        if !left.is_empty() {
            counts.left += 1;
            report.extend(left);
        }
    }

    /// The tree a file may be written in: the repository, or with `--files`
    /// the folder the path names.
    fn root_of(&self, path: &Path) -> PathBuf {
        match self.root {
            Some(root) => root.to_path_buf(),
            None => match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                _ => PathBuf::from("."),
            },
        }
    }

    /// A line for every error the fixed document still has: the findings
    /// numi will not fix say why.
    fn left(&self, fixed: &Fixed) -> Vec<String> {
        fixed
            .checked
            .errors()
            .map(|error| {
                let unfixable = fixed.unfixable.iter().find(|u| {
                    u.rule.id == error.rule.id && error.address.as_ref() == Some(&u.address)
                });
                let rest = match unfixable {
                    Some(unfixable) => {
                        format!("{}: not fixable: {}", error.rule.id, unfixable.reason)
                    }
                    None => format!(
                        "{}: {}",
                        error.rule.id,
                        crate::report::masked(&error.message, error)
                    ),
                };
                self.line("left", &rest)
            })
            .collect()
    }

    fn failed(&self, counts: &mut Counts, report: &mut Vec<String>, reason: &str) {
        counts.failed += 1;
        report.push(self.line("error", reason));
    }
}

/// A unified diff of one file, as `git diff` and `patch` read it: lines
/// end at a line feed, as those tools count them (a line ending in a lone
/// carriage return runs on to the next line feed), and a last line without
/// one is marked so.
fn diff(path: &str, before: &str, after: &str) -> String {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let operations = similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new);
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    for hunk in similar::group_diff_ops(operations, 3) {
        let (Some(first), Some(last)) = (hunk.first(), hunk.last()) else {
            continue;
        };
        let old_lines = first.old_range().start..last.old_range().end;
        let new_lines = first.new_range().start..last.new_range().end;
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            hunk_range(&old_lines),
            hunk_range(&new_lines)
        ));
        for operation in &hunk {
            for change in operation.iter_changes(&old, &new) {
                let sign = match change.tag() {
                    similar::ChangeTag::Equal => ' ',
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                };
                let line = change.value();
                out.push(sign);
                out.push_str(line);
                if !line.ends_with('\n') {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

/// A hunk's lines as a unified diff writes them: the first line (from 1)
/// and the count, the count left out when it is 1; an empty range names
/// the line before it.
fn hunk_range(lines: &std::ops::Range<usize>) -> String {
    match lines.len() {
        1 => format!("{}", lines.start + 1),
        0 => format!("{},0", lines.start),
        count => format!("{},{count}", lines.start + 1),
    }
}
