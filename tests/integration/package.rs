//! The package published to crates.io holds what a build from it needs:
//! every source file, the schemas the validators are compiled from, and the
//! lock file; the executable is built and linked as rustc does by default,
//! with no build script; and not the tests.

#![allow(clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

/// The files of `package`'s crates.io package.
fn listed_of(package: &str) -> BTreeSet<String> {
    let output = Command::new(env!("CARGO"))
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "-p",
            package,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo package --list failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("the listing is UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn listed() -> BTreeSet<String> {
    listed_of("numinance-numi")
}

fn files_under(folder: &str) -> Vec<String> {
    fn walk(root: &Path, folder: &Path, files: &mut Vec<String>) {
        for entry in fs::read_dir(folder).expect("a source folder is readable") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                walk(root, &path, files);
            } else {
                let relative = path.strip_prefix(root).expect("under the root");
                files.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(root, &root.join(folder), &mut files);
    files
}

#[test]
fn the_package_holds_the_sources_schemas_and_lock_file() {
    let listed = listed();
    for needed in ["Cargo.lock", "Cargo.toml", "src/main.rs", "src/lib.rs"] {
        assert!(listed.contains(needed), "the package leaves out {needed}");
    }
    // The executable is linked as rustc links it; a build script would be
    // packaged (and run on every user's build) without being listed above.
    assert!(
        !listed.contains("build.rs"),
        "the package holds a build script"
    );
    for folder in ["src", "schemas"] {
        let missing: Vec<String> = files_under(folder)
            .into_iter()
            // insta's pending snapshots, which git ignores.
            .filter(|file| !file.ends_with(".snap.new") && !file.ends_with(".pending-snap"))
            .filter(|file| !listed.contains(file))
            .collect();
        assert!(missing.is_empty(), "the package leaves out {missing:?}");
    }
}

/// The tests and the data copied for them (tests/data/) stay in the
/// repository: the package builds numi, it does not test it.
#[test]
fn the_package_leaves_out_the_tests_and_their_data() {
    let listed = listed();
    assert!(!files_under("tests/data").is_empty());
    let tests: Vec<&String> = listed
        .iter()
        .filter(|file| file.starts_with("tests/"))
        .collect();
    assert!(tests.is_empty(), "the package holds {tests:?}");
}

/// The YAML crate's package holds its sources, and not the YAML test suite
/// its tests read.
#[test]
fn the_yaml_crate_package_holds_its_sources_and_not_the_suite() {
    let listed = listed_of("numinance-numi-yaml");
    let sources: Vec<String> = files_under("crates/numi-yaml/src")
        .into_iter()
        .map(|file| file.trim_start_matches("crates/numi-yaml/").to_owned())
        .collect();
    assert!(sources.len() > 10);
    for source in &sources {
        assert!(listed.contains(source), "the package leaves out {source}");
    }
    let tests: Vec<&String> = listed
        .iter()
        .filter(|file| file.starts_with("tests/"))
        .collect();
    assert!(tests.is_empty(), "the package holds {tests:?}");
}
