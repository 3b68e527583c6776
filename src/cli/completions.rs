//! `numi completions`: a shell completion script generated from the clap
//! definitions.

use std::io::Write;

use clap::Args;
use clap_complete::Shell;

use crate::results::Exit;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

pub(super) fn execute(
    args: &CompletionsArgs,
    stdout: &mut dyn Write,
    _stderr: &mut dyn Write,
) -> Exit {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "numi", &mut script);
    match stdout.write_all(&script) {
        Ok(()) => Exit::Valid,
        Err(_) => Exit::Incomplete,
    }
}
