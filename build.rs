//! How the `numi` executable is linked on glibc Linux, for the start-up of a
//! short run (docs/performance.md, "Start-up", weighs both):
//!
//! - without position independence: a position-independent executable has
//!   its 10,000 relative relocations written at every start, which copies
//!   some 50 pages of data; linked at a fixed address, the data pages are
//!   the file's own. The executable's image is then not randomised
//!   (libraries, heap and stack still are).
//! - with GCC's unwinder linked in (`libgcc_eh.a`, what `-static-libgcc`
//!   links) instead of loading `libgcc_s.so.1`: one shared library fewer
//!   for the dynamic loader to find, map and bind at every start. rustc
//!   asks for `-lgcc_s` by name, so a folder of the build's own holds a
//!   `libgcc_s.a` that is a copy of `libgcc_eh.a`, searched before the
//!   system's folders.
//!
//! Other targets, static builds and the musl release builds link as their
//! defaults; so do the test executables.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let libc = env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // A static build (`+crt-static`) is linked as its own kind by rustc,
    // with the unwinder already in; `-no-pie` beside it would make a binary
    // that cannot start.
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let static_build = features.split(',').any(|feature| feature == "crt-static");
    if os != "linux" || libc != "gnu" || static_build {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    if let Some(folder) = unwinder_folder() {
        println!("cargo:rustc-link-arg-bins=-L{}", folder.display());
    }
}

/// A folder holding `libgcc_eh.a` under the name `libgcc_s.a`, or `None`
/// (the executable then loads `libgcc_s.so.1`, as by default) when the C
/// compiler that links the executable has no `libgcc_eh.a`.
fn unwinder_folder() -> Option<PathBuf> {
    // The linker rustc runs: one configured for the target, or `cc`, which
    // only builds for this machine.
    let linker = match env::var("RUSTC_LINKER") {
        Ok(linker) => linker,
        Err(_) if env::var("HOST").ok() == env::var("TARGET").ok() => "cc".to_owned(),
        Err(_) => return None,
    };
    let printed = Command::new(linker)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()?;
    let archive = PathBuf::from(String::from_utf8(printed.stdout).ok()?.trim());
    // Asked for a file it does not have, the compiler prints the bare name.
    if !printed.status.success() || !archive.is_absolute() || !archive.is_file() {
        return None;
    }
    let folder = Path::new(&env::var("OUT_DIR").ok()?).join("static-unwinder");
    fs::create_dir_all(&folder).ok()?;
    fs::copy(&archive, folder.join("libgcc_s.a")).ok()?;
    Some(folder)
}
