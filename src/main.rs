//! The `numi` executable: a thin shell over [`numi::cli::main`].
//!
//! It starts through the standard library's runtime, as rustc links it: a
//! closed pipe is an error numi reports (the runtime ignores `SIGPIPE`), a
//! closed standard stream is reopened on `/dev/null` before `main` (so no
//! file numi opens takes its place), and a stack overflow is reported.

use std::io::{self, Write as _};
use std::process::ExitCode;

// Loading a document allocates many small strings, maps and vectors, and
// frees them all at once; mimalloc does both markedly faster than the system
// allocator (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Standard output is locked per write, never for the whole run: the
    // language server's writer thread writes to it from a thread of its own.
    let code = numi::cli::main(std::env::args_os(), &mut io::stdout(), &mut io::stderr());
    // The runtime's own flush at exit ignores a failure; a failure here was
    // already a failed write, reported by the run.
    let _ = io::stdout().flush();
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
