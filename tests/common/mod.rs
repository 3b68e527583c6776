//! Runs the built `numi` binary the way a user does.

#![allow(dead_code, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What one run of numi printed and how it exited.
#[derive(Debug)]
pub(crate) struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// How the hint after a text run with findings starts.
pub(crate) const FORMATS_HINT: &str = "numi: hint: --format concise shows";

impl Run {
    /// Standard error without the summary line that ends a run and the
    /// hint that points to the formats with positions: what a test of
    /// warnings and messages compares.
    pub(crate) fn stderr_without_summary(&self) -> String {
        let mut lines: Vec<&str> = self.stderr.lines().collect();
        if lines.last().is_some_and(|line| is_summary_line(line)) {
            lines.pop();
        }
        lines
            .iter()
            .filter(|line| !line.starts_with(FORMATS_HINT))
            .map(|line| format!("{line}\n"))
            .collect()
    }

    /// stdout, stderr and exit status in one text, for snapshots; the time
    /// of the summary line is replaced, so snapshots do not depend on it.
    pub(crate) fn transcript(&self) -> String {
        let mut text = format!("exit: {}\n--- stdout\n{}", self.code, self.stdout);
        if !self.stderr.is_empty() {
            text.push_str("--- stderr\n");
            text.push_str(&self.stderr);
        }
        without_times(&text)
    }
}

/// Whether `line` is a run's summary line, its time as it is or redacted:
/// `N documents: N ok, N invalid, N error; N warnings, N suppressed (in T)`.
pub(crate) fn is_summary_line(line: &str) -> bool {
    let line = without_times(line);
    let Some(counts) = line.strip_suffix(" (in [time])") else {
        return false;
    };
    let words: Vec<&str> = counts.split(' ').collect();
    let number = |word: &str| !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit());
    let shape = [
        "#",
        "documents:",
        "#",
        "ok,",
        "#",
        "invalid,",
        "#",
        "error;",
        "#",
        "warnings,",
        "#",
        "suppressed",
    ];
    words.len() == shape.len()
        && words
            .iter()
            .zip(shape)
            .all(|(word, expected)| match expected {
                "#" => number(word),
                "documents:" => matches!(*word, "document:" | "documents:"),
                "warnings," => matches!(*word, "warning," | "warnings,"),
                _ => *word == expected,
            })
}

/// `text` with each summary time `(in 0.01s)` written `(in [time])`.
pub(crate) fn without_times(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("(in ") {
        let (before, from) = rest.split_at(at);
        shown.push_str(before);
        let after = &from[4..];
        let digits = after
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(after.len());
        if digits > 0 && after[digits..].starts_with("s)") {
            shown.push_str("(in [time])");
            rest = &after[digits + 2..];
        } else {
            shown.push_str("(in ");
            rest = after;
        }
    }
    shown.push_str(rest);
    shown
}

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Runs `numi ARGS` in `cwd`.
pub(crate) fn numi(cwd: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .output()
        .expect("numi runs");
    Run {
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        code: output
            .status
            .code()
            .expect("numi exits with a status, not a signal"),
    }
}

/// Each file numi reported on, as `(status, display name)`, from the
/// `STATUS file "NAME"` lines of its text output.
pub(crate) fn statuses(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter_map(|line| {
            let (status, rest) = line.split_once(' ')?;
            let name = rest.trim_start().strip_prefix("file \"")?;
            let name = name.split('"').next()?;
            Some((status.to_owned(), name.to_owned()))
        })
        .collect()
}

/// The names of the files a text run did not say `ok` for, in its order.
pub(crate) fn failing_files(stdout: &str) -> Vec<String> {
    statuses(stdout)
        .into_iter()
        .filter(|(status, _)| status != "ok")
        .map(|(_, name)| name)
        .collect()
}

/// The JSON value of the file at `path`.
pub(crate) fn json_at(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("the JSON file reads");
    serde_json::from_str(&text).expect("the file is JSON")
}

pub(crate) fn write_json(path: &Path, value: &serde_json::Value) {
    let text = serde_json::to_string_pretty(value).expect("a value prints");
    std::fs::write(path, text).expect("the JSON file is written");
}

/// An autocontext reservation artifact's fixture plan digest, then its
/// own digest, recomputed as autocontext computes them.
pub(crate) fn reseal_artifact(artifact: &mut serde_json::Value) {
    use numi::canonical::sha256_hex;
    let mut plan = artifact["fixture_reservation"].clone();
    plan.as_object_mut()
        .expect("the plan is an object")
        .remove("plan_digest");
    artifact["fixture_reservation"]["plan_digest"] =
        serde_json::Value::String(sha256_hex(&plan).expect("the plan has a digest"));
    let mut payload = artifact.clone();
    payload
        .as_object_mut()
        .expect("the artifact is an object")
        .remove("artifact_digest");
    artifact["artifact_digest"] =
        serde_json::Value::String(sha256_hex(&payload).expect("the artifact has a digest"));
}

/// Copies the folder `from` and everything under it to `to`.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("the folder is made");
    for entry in std::fs::read_dir(from).expect("the folder reads") {
        let entry = entry.expect("a folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("its type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("the file is copied");
        }
    }
}
