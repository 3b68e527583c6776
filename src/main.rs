//! The `numi` executable: a thin shell over [`numi::cli::main`].
//!
//! On glibc Linux it starts without the standard library's runtime set-up
//! (`no_main`), which reads `/proc/self/maps` to place a guard for the main
//! thread's stack: a tenth of the page faults of a one-file run. What that
//! set-up does that numi needs, it does here: ignore `SIGPIPE` (a closed
//! pipe is an error numi reports, not a signal that kills it) and make sure
//! the three standard streams are open, so that no file numi opens takes
//! one's place. A stack overflow then ends the process with `SIGSEGV` and
//! no message; numi bounds nesting so that none happens.
//!
//! Its allocator (`start_arena`) serves a short run from a region of the
//! executable's own data, mimalloc the rest.

#![cfg_attr(all(target_os = "linux", target_env = "gnu"), no_main)]

use std::io::{self, Write as _};

mod start_arena;

// Loading a document allocates many small strings, maps and vectors, and
// frees them all at once; mimalloc does both markedly faster than the system
// allocator (docs/performance.md). A short run is
// served from the start region alone (`start_arena`).
#[global_allocator]
static ALLOCATOR: start_arena::StartArena<{ 256 * 1024 }, mimalloc::MiMalloc> =
    start_arena::StartArena::new(mimalloc::MiMalloc);

/// Runs numi on the process's arguments and streams; its exit status.
fn run() -> u8 {
    // Standard output is locked per write, never for the whole run: the
    // language server's writer thread writes to it from a thread of its own.
    let code = numi::cli::main(std::env::args_os(), &mut io::stdout(), &mut io::stderr());
    // Without the runtime's clean-up nothing else flushes it; a failure here
    // was already a failed write, reported by the run.
    let _ = io::stdout().flush();
    u8::try_from(code).unwrap_or(1)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(run())
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: `signal` with `SIG_IGN` installs no handler code; it is called
    // before any thread is started. glibc hands the standard library the
    // arguments itself (from `.init_array`), so `args_os` needs no argv here.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    open_closed_standard_streams();
    libc::c_int::from(run())
}

/// Opens `/dev/null` in place of each of standard input, output and error
/// that is closed: the kernel hands out the lowest free descriptor.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn open_closed_standard_streams() {
    use std::os::fd::{AsRawFd as _, IntoRawFd as _};
    while let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        if null.as_raw_fd() > 2 {
            break;
        }
        // It now stands as a standard stream, for the life of the process.
        let _ = null.into_raw_fd();
    }
}
