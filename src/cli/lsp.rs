//! `numi lsp`: the language server on standard input and output.

use std::io::Write;
use std::sync::Arc;

use clap::Args;

use crate::lsp::{self, FixEngine, Flags};
use crate::results::Exit;

#[derive(Debug, Args)]
pub struct LspArgs {
    /// Check alpha kinds (EvalSet) in a configuration tree, as
    /// `numi validate --enable-alpha` does.
    #[arg(long)]
    pub enable_alpha: bool,

    /// Producer-side findings are errors, as `numi validate --strict` makes them.
    #[arg(long)]
    pub strict: bool,

    /// Accepted for clients that pass it; standard input and output are the
    /// only transport.
    #[arg(long, hide = true)]
    pub stdio: bool,
}

pub(super) fn execute(args: &LspArgs, _stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let flags = Flags {
        enable_alpha: args.enable_alpha,
        strict: args.strict,
    };
    let input = std::io::BufReader::new(std::io::stdin());
    match lsp::serve_stream(input, std::io::stdout(), flags, Arc::new(FixEngine)) {
        Ok(()) => Exit::Valid,
        Err(error) => {
            let _ = writeln!(stderr, "numi lsp: {error}");
            Exit::Incomplete
        }
    }
}
