//! `numi init`: writes what is missing of the starter configuration tree
//! and says what it wrote and what it kept.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use crate::init::{self, Ci, InitError, Outcome, Template};
use crate::results::Exit;
use crate::text::quote;

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The repository to write into.
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Also write a CI workflow that runs `numi validate .`: GitHub
    /// Actions (annotations) or GitLab CI (a Code Quality report).
    #[arg(long, value_name = "SYSTEM")]
    pub ci: Option<CiSystem>,

    /// Overwrite files that exist (never the pre-commit configuration);
    /// without it, files that exist are kept and only missing ones written.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CiSystem {
    GithubActions,
    Gitlab,
}

pub(super) fn execute(args: &InitArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let ci = args.ci.map(|system| match system {
        CiSystem::GithubActions => Ci::GithubActions,
        CiSystem::Gitlab => Ci::Gitlab,
    });
    let templates = init::templates(ci, init::origin_of_this_build());
    match init::write(&args.dir, &templates, args.force) {
        Ok(outcomes) => {
            if let Some(top) = git_top_above(&args.dir) {
                let _ = writeln!(
                    stderr,
                    "numi: note: {} is inside the git repository {}: pre-commit reads {}, GitHub .github/workflows/ and GitLab {} at its top only, so move what was written here for them there",
                    quote(&args.dir.to_string_lossy()),
                    quote(&top.to_string_lossy()),
                    init::PRE_COMMIT_CONFIG_PATH,
                    init::GITLAB_CI_PATH
                );
            }
            report(&args.dir, &templates, &outcomes, stdout)
        }
        Err(InitError { done, path, reason }) => {
            let _ = report(&args.dir, &templates, &done, stdout);
            let _ = writeln!(stderr, "numi: {}: {}", shown(&args.dir, path), reason);
            Exit::Incomplete
        }
    }
}

/// The top of the git repository `dir` lies in, when that is a folder
/// above `dir`: where pre-commit and GitHub look for their files.
fn git_top_above(dir: &Path) -> Option<PathBuf> {
    let dir = std::fs::canonicalize(dir).ok()?;
    if dir.join(".git").exists() {
        return None;
    }
    dir.ancestors()
        .skip(1)
        .find(|ancestor| ancestor.join(".git").exists())
        .map(Path::to_path_buf)
}

/// A written path as the user would type it: under the folder given, or
/// bare when that folder is the current one.
fn shown(dir: &Path, relative: &str) -> String {
    if dir == Path::new(".") {
        return relative.to_owned();
    }
    let dir = dir.to_string_lossy();
    let dir = dir.trim_end_matches(std::path::MAIN_SEPARATOR);
    format!("{dir}{}{relative}", std::path::MAIN_SEPARATOR)
}

/// The part numi adds to the shared file at `path`, and its text.
fn shared<'a>(templates: &'a [Template], path: &str) -> Option<(&'static str, &'a str)> {
    templates
        .iter()
        .find(|template| template.path == path)
        .and_then(|template| Some((template.shared_part?, template.contents.as_str())))
}

/// What the user needs to know of the file at `path` once it is written.
fn note(templates: &[Template], path: &str) -> Option<&'static str> {
    templates
        .iter()
        .find(|template| template.path == path)
        .and_then(|template| template.note)
}

fn report(
    dir: &Path,
    templates: &[Template],
    outcomes: &[Outcome],
    stdout: &mut dyn Write,
) -> Exit {
    let mut text = String::new();
    let written = |action: &str, path: &str, text: &mut String| {
        text.push_str(&format!("{action} {}", shown(dir, path)));
        if let Some(note) = note(templates, path) {
            text.push_str(&format!(" ({note})"));
        }
        text.push('\n');
    };
    for outcome in outcomes {
        match outcome {
            Outcome::Created(path) => written("created     ", path, &mut text),
            Outcome::Overwritten(path) => written("overwritten ", path, &mut text),
            Outcome::Kept(path) => match shared(templates, path) {
                Some((part, contents)) => {
                    text.push_str(&format!(
                        "kept         {} (exists; add this {part} to it)\n",
                        shown(dir, path)
                    ));
                    text.push_str(contents);
                }
                None => {
                    text.push_str(&format!(
                        "kept         {} (exists; --force overwrites)\n",
                        shown(dir, path)
                    ));
                }
            },
        }
    }
    match stdout.write_all(text.as_bytes()) {
        Ok(()) => Exit::Valid,
        Err(_) => Exit::Incomplete,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::shown;

    #[test]
    fn paths_are_shown_under_the_folder_given() {
        let separator = std::path::MAIN_SEPARATOR;
        assert_eq!(
            shown(Path::new("."), ".numinance/a.yaml"),
            ".numinance/a.yaml"
        );
        assert_eq!(
            shown(Path::new("repo"), ".numinance/a.yaml"),
            format!("repo{separator}.numinance/a.yaml")
        );
        assert_eq!(
            shown(Path::new("repo/"), "x"),
            shown(Path::new("repo"), "x")
        );
    }
}
