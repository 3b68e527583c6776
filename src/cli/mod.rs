//! The command line: clap definitions and dispatch. Each subcommand lives in
//! a module of its own and returns its exit status.

mod explain;
mod validate;

use std::ffi::OsString;
use std::io::Write;

use clap::{Parser, Subcommand};

use crate::run::Exit;
pub use explain::ExplainArgs;
pub use validate::ValidateArgs;

#[derive(Debug, Parser)]
#[command(
    name = "numi",
    version,
    about = "Validates Numinance configuration: YAML, kind gates, strict JSON Schemas and semantic rules."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate the configuration tree of a repository, or named files.
    Validate(ValidateArgs),
    /// Explain a rule id: what it checks, why, and a failing and a passing example.
    Explain(ExplainArgs),
}

/// Runs numi with `arguments` (the program name first) and returns the exit status.
pub fn main(
    arguments: impl IntoIterator<Item = OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let cli = match Cli::try_parse_from(arguments) {
        Ok(cli) => cli,
        Err(error) => {
            let rendered = error.render().to_string();
            let written = if error.use_stderr() {
                stderr.write_all(rendered.as_bytes())
            } else {
                stdout.write_all(rendered.as_bytes())
            };
            return match (written, error.exit_code()) {
                (Err(_), _) => Exit::Incomplete as i32,
                (Ok(()), 0) => Exit::Valid as i32,
                (Ok(()), _) => Exit::Usage as i32,
            };
        }
    };
    match cli.command {
        Command::Validate(args) => validate::execute(&args, stdout, stderr) as i32,
        Command::Explain(args) => explain::execute(&args, stdout, stderr) as i32,
    }
}
