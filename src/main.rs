use std::io;
use std::process::ExitCode;

fn main() -> ExitCode {
    let code = numi::cli::main(
        std::env::args_os(),
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    );
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
