//! `numi man`: the roff man page of numi, or of one subcommand, generated
//! from the clap definitions.

use std::io::Write;

use clap::Args;

use crate::results::Exit;

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Print the page of this subcommand (`numi-validate(1)`, ...) instead.
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
}

pub(super) fn execute(args: &ManArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let mut root = super::command().disable_help_subcommand(true);
    root.build();
    let page = match &args.subcommand {
        None => root,
        Some(name) => match root.find_subcommand(name) {
            Some(subcommand) => subcommand.clone().version(env!("CARGO_PKG_VERSION")),
            None => {
                let known: Vec<&str> = root
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .collect();
                let _ = writeln!(
                    stderr,
                    "numi: no subcommand {name:?} (numi has {})",
                    known.join(", ")
                );
                return Exit::Usage;
            }
        },
    };
    let mut roff = Vec::new();
    if clap_mangen::Man::new(page).render(&mut roff).is_err() {
        return Exit::Incomplete;
    }
    match stdout.write_all(&roff) {
        Ok(()) => Exit::Valid,
        Err(_) => Exit::Incomplete,
    }
}
