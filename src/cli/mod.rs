//! The command line: clap definitions and dispatch. Each subcommand lives in
//! a module of its own and returns its exit status.

mod completions;
mod digest;
mod explain;
mod fix;
mod init;
mod lsp;
mod man;
mod paths;
mod schema;
mod slug;
mod validate;

use std::ffi::OsString;
use std::io::Write;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::results::Exit;
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

// A run parses one subcommand: each one's arguments are built only when it
// is the one invoked (or help, completions or a man page ask for them all),
// not on every start.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Validate the configuration tree of a repository, or named files.
    Validate(ValidateArgs),
    /// Apply the safe fixes (sorting, digest case) in place, keeping every comment.
    Fix(fix::FixArgs),
    /// Explain a rule id: what it checks, why, and a failing and a passing example.
    Explain(ExplainArgs),
    /// Write what is missing of a starter configuration tree (overwrites only with --force).
    Init(init::InitArgs),
    /// Print the JSON Schema of a kind, or list the kinds.
    Schema(schema::SchemaArgs),
    /// Print the sha256 digest of files, as the kinds' Digest format writes it.
    Digest(digest::DigestArgs),
    /// Print the context-report rule id of each text, one a line.
    Slug(slug::SlugArgs),
    /// Print a shell completion script.
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff) of numi or of one subcommand.
    Man(man::ManArgs),
    /// Serve the Language Server Protocol on standard input and output.
    Lsp(lsp::LspArgs),
}

/// The clap command: what numi parses, and what completions and man pages
/// are built from.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Runs numi with `arguments` (the program name first) and returns the exit status.
pub fn main(
    arguments: impl IntoIterator<Item = OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let parsed = command()
        .try_get_matches_from(arguments)
        .and_then(|matches| {
            let cli = Cli::from_arg_matches(&matches)?;
            Ok((cli, matches))
        });
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
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
    let exit = match cli.command {
        Command::Validate(mut args) => {
            if let Some(("validate", validate_matches)) = matches.subcommand() {
                validate::paths_in_order(&mut args, validate_matches);
            }
            validate::execute(&args, stdout, stderr)
        }
        Command::Fix(args) => fix::execute(&args, stdout, stderr),
        Command::Explain(args) => explain::execute(&args, stdout, stderr),
        Command::Init(args) => init::execute(&args, stdout, stderr),
        Command::Schema(args) => schema::execute(&args, stdout, stderr),
        Command::Digest(args) => digest::execute(&args, stdout, stderr),
        Command::Slug(args) => slug::execute(&args, stdout, stderr),
        Command::Completions(args) => completions::execute(&args, stdout, stderr),
        Command::Man(args) => man::execute(&args, stdout, stderr),
        Command::Lsp(args) => lsp::execute(&args, stdout, stderr),
    };
    exit as i32
}
