//! Links the `numi` executable without position independence on glibc
//! Linux. A position-independent executable has its 10,000 relative
//! relocations written at every start, which copies some 50 pages of data,
//! a fifth of the page faults of a one-file run; linked at a fixed address,
//! the data pages are the file's own. The executable's image is then not
//! randomised (libraries, heap and stack still are); docs/performance.md
//! weighs this. Other targets, static builds and the musl release builds
//! link as their defaults.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let libc = env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // A static build (`+crt-static`) is linked as its own kind by rustc;
    // `-no-pie` beside it would make a binary that cannot start.
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let static_build = features.split(',').any(|feature| feature == "crt-static");
    if os == "linux" && libc == "gnu" && !static_build {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
