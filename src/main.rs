use std::io;
use std::process::ExitCode;

// Loading a document allocates many small strings, maps and vectors, and
// frees them all at once; mimalloc does both markedly faster than the system
// allocator (see the Performance section of README.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Standard output is locked per write, never for the whole run: the
    // language server's writer thread writes to it from a thread of its own.
    let code = numi::cli::main(std::env::args_os(), &mut io::stdout(), &mut io::stderr());
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
