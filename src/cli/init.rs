//! `numi init`: writes the starter configuration tree and says what it did.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::init::{self, Ci, InitError, Outcome};
use crate::location::io_reason;
use crate::results::Exit;

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The repository to write into.
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Also write a CI workflow that runs `numi validate .`.
    #[arg(long, value_name = "SYSTEM")]
    pub ci: Option<CiSystem>,

    /// Overwrite files that exist (never the pre-commit configuration).
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CiSystem {
    GithubActions,
}

pub fn execute(args: &InitArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let ci = args.ci.map(|system| match system {
        CiSystem::GithubActions => Ci::GithubActions,
    });
    let templates = init::templates(ci);
    match init::write(&args.dir, &templates, args.force) {
        Ok(outcomes) => report(&outcomes, stdout),
        Err(InitError::Exists(path)) => {
            let _ = writeln!(
                stderr,
                "numi: {path} exists; nothing written (--force overwrites)"
            );
            Exit::Incomplete
        }
        Err(InitError::Io { path, error }) => {
            let _ = writeln!(stderr, "numi: {path}: {}", io_reason(&error));
            Exit::Incomplete
        }
    }
}

fn report(outcomes: &[Outcome], stdout: &mut dyn Write) -> Exit {
    let mut text = String::new();
    for outcome in outcomes {
        match outcome {
            Outcome::Created(path) => text.push_str(&format!("created      {path}\n")),
            Outcome::Overwritten(path) => text.push_str(&format!("overwritten  {path}\n")),
            Outcome::Kept(path) => {
                text.push_str(&format!(
                    "kept         {path} (exists; add this hook to it)\n"
                ));
                text.push_str(init::PRE_COMMIT_CONFIG);
            }
        }
    }
    match stdout.write_all(text.as_bytes()) {
        Ok(()) => Exit::Valid,
        Err(_) => Exit::Incomplete,
    }
}
