//! Every file numi writes is written whole or not at all, never over an
//! input it reports on, and never through a link out of the repository:
//! the report (`--output-file`), the baseline (`--write-baseline`) and the
//! starter files of `numi init` (`numi fix` in tests/integration/fix.rs).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{Run, numi};

const EVALSET: &str = include_str!("../../examples/core-replay.yaml");

const UNBOUNDED_RATE: &str = "\
apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: NAME, scope: SCOPE_REPO}
spec:
  change_type: bugfix
  max_repair_attempts: 2
  qualification: {min_runs: 20, max_rework_rate: 20000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}
";

fn files_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_report_never_replaces_a_file_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let evalset = dir.path().join("a.yaml");
    fs::write(&evalset, EVALSET).unwrap();
    let run = numi(
        dir.path(),
        &[
            "validate", "--format", "json", "--files", "a.yaml", "-o", "a.yaml",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("\"a.yaml\" is both read and written by this run"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(&evalset).unwrap(), EVALSET);

    // Named another way (through `./`), it is the same file.
    let run = numi(
        dir.path(),
        &["validate", "--files", "./a.yaml", "--output-file", "a.yaml"],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(fs::read_to_string(&evalset).unwrap(), EVALSET);
}

#[test]
fn a_report_inside_the_folder_walked_is_not_read_as_an_input() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.yaml"), EVALSET).unwrap();
    let args = [
        "validate",
        "--format",
        "concise",
        "--files",
        ".",
        "-o",
        "report.yaml",
    ];
    for _ in 0..2 {
        // The second run finds the first run's report in the folder and
        // passes over it, as over the report it is writing.
        let run = numi(dir.path(), &args);
        assert_eq!(run.code, 0, "{}", run.transcript());
        let report = fs::read_to_string(dir.path().join("report.yaml")).unwrap();
        assert!(
            report.contains("1 document: 1 ok, 0 invalid, 0 error"),
            "{report}"
        );
        assert!(!report.contains("report.yaml"), "{report}");
    }
    assert_eq!(files_in(dir.path()), ["a.yaml", "report.yaml"]);
}

#[test]
fn a_report_that_cannot_be_written_says_why_and_leaves_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.yaml"), EVALSET).unwrap();
    // No such folder: nothing is made, and the reason is said.
    let run = numi(
        dir.path(),
        &["validate", "--files", "a.yaml", "-o", "missing/report.txt"],
    );
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr
            .starts_with("numi: cannot write the report to \"missing/report.txt\": "),
        "{}",
        run.stderr
    );
    assert_eq!(files_in(dir.path()), ["a.yaml"]);

    // A device that takes no byte: the reason is said, not only the status.
    if Path::new("/dev/full").exists() {
        let run = numi(
            dir.path(),
            &["validate", "--files", "a.yaml", "-o", "/dev/full"],
        );
        assert_eq!(run.code, 1, "{}", run.transcript());
        assert!(
            run.stderr.contains(
                "numi: cannot write the report to \"/dev/full\": no space left on device"
            ),
            "{}",
            run.stderr
        );
    }
}

/// Runs numi with a file-size limit of one 512-byte block, and the signal
/// that limit sends ignored, so a write past it fails as a full disk does.
#[cfg(unix)]
fn numi_with_small_files(cwd: &Path, args: &[&str]) -> Run {
    let output = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_numi"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    Run {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        code: output.status.code().expect("numi exits with a status"),
    }
}

/// A folder holding `docs/` with eight Playbooks of a rate out of bounds:
/// enough findings that a report or a baseline outgrows one block.
fn eight_rates_out_of_bounds() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    fs::create_dir(&docs).unwrap();
    for index in 0..8 {
        fs::write(
            docs.join(format!("rate-{index}.yaml")),
            UNBOUNDED_RATE.replace("NAME", &format!("rate-{index}")),
        )
        .unwrap();
    }
    dir
}

#[cfg(unix)]
#[test]
fn a_baseline_that_cannot_be_written_whole_is_left_as_it_was() {
    let dir = eight_rates_out_of_bounds();
    let args = [
        "validate",
        "--strict",
        "--write-baseline",
        "baseline.json",
        "--files",
        "docs",
    ];
    let committed = "{\"version\": 1, \"findings\": []}\n";
    fs::write(dir.path().join("baseline.json"), committed).unwrap();
    let run = numi_with_small_files(dir.path(), &args);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "numi: cannot write the baseline \"baseline.json\": file too large; the baseline is as it was"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("baseline.json")).unwrap(),
        committed
    );
    assert_eq!(files_in(dir.path()), ["baseline.json", "docs"]);

    // Without the limit, the same run writes it whole, and it reads back.
    let run = numi(dir.path(), &args);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let written = fs::read_to_string(dir.path().join("baseline.json")).unwrap();
    assert!(written.len() > 512, "{written}");
    let run = numi(
        dir.path(),
        &[
            "validate",
            "--strict",
            "--baseline",
            "baseline.json",
            "--files",
            "docs",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[cfg(unix)]
#[test]
fn a_report_that_cannot_be_written_whole_leaves_the_old_one() {
    let dir = eight_rates_out_of_bounds();
    fs::write(dir.path().join("report.json"), "last run's report\n").unwrap();
    let run = numi_with_small_files(
        dir.path(),
        &[
            "validate",
            "--strict",
            "--format",
            "json",
            "--files",
            "docs",
            "-o",
            "report.json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "numi: cannot write the report to \"report.json\": file too large; nothing written"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("report.json")).unwrap(),
        "last run's report\n"
    );
    assert_eq!(files_in(dir.path()), ["docs", "report.json"]);
}

#[cfg(unix)]
#[test]
fn init_never_writes_through_a_link_out_of_the_repository() {
    use std::os::unix::fs::symlink;

    let outside = tempfile::tempdir().unwrap();
    for (linked, args) in [
        (".numinance", &["init"][..]),
        (".github", &["init", "--ci", "github-actions"][..]),
    ] {
        let repository = tempfile::tempdir().unwrap();
        let target = outside.path().join(linked.trim_start_matches('.'));
        fs::create_dir_all(&target).unwrap();
        symlink(&target, repository.path().join(linked)).unwrap();
        let run = numi(repository.path(), args);
        assert_eq!(run.code, 1, "{linked}: {}", run.transcript());
        assert!(
            run.stderr.contains("leads out of the repository"),
            "{linked}: {}",
            run.stderr
        );
        assert!(
            files_in(&target).is_empty(),
            "{linked}: {:?}",
            files_in(&target)
        );
    }

    // With --force, a file link that leads out is not written through.
    let repository = tempfile::tempdir().unwrap();
    let run = numi(repository.path(), &["init"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let secret = outside.path().join("secret.txt");
    fs::write(&secret, "not numi's\n").unwrap();
    let playbook = repository
        .path()
        .join(".numinance/policy/playbook-bugfix-bounded.yaml");
    fs::remove_file(&playbook).unwrap();
    symlink(&secret, &playbook).unwrap();
    let run = numi(repository.path(), &["init", "--force"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr.contains("leads out of the repository"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(&secret).unwrap(), "not numi's\n");
}

#[cfg(unix)]
#[test]
fn init_follows_a_link_that_stays_in_the_repository() {
    use std::os::unix::fs::symlink;

    let repository = tempfile::tempdir().unwrap();
    fs::create_dir(repository.path().join("policy")).unwrap();
    symlink("policy", repository.path().join(".numinance")).unwrap();
    let run = numi(repository.path(), &["init"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        repository
            .path()
            .join("policy/policy/playbook-bugfix-bounded.yaml")
            .is_file()
    );
}
