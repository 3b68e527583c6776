//! `--format gitlab`: a GitLab Code Quality report, the JSON array of
//! issues a job names in `artifacts:reports:codequality`, so each finding
//! shows in the merge request's widget and diff. It streams an issue at a
//! time, as `json` does.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io;

use serde::Serialize;

use super::{Reporter, message_with_note, repository_path};
use crate::diagnostic::Severity;
use crate::results::{FileResult, Summary, copy_fingerprint, fingerprint, repeat_fingerprint};

#[derive(Debug, Default)]
pub struct GitlabReporter {
    issues: usize,
    /// How many times each path with issues was reported, by a hash of the
    /// path: a file named twice is reported twice, and each issue of a
    /// report must have its own fingerprint. Eight bytes and a count per
    /// file, not per finding; two paths of one hash would only give the
    /// second path's issues fingerprints of a repeat, still each its own.
    reported: HashMap<u64, usize>,
}

/// The key of a path in [`GitlabReporter::reported`].
fn path_key(path: &str) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    path.hash(&mut hasher);
    hasher.finish()
}

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'static str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
}

impl Reporter for GitlabReporter {
    fn begin(&mut self, out: &mut dyn io::Write, _revision: &str) -> io::Result<()> {
        out.write_all(b"[")
    }

    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        let path = repository_path(&result.path);
        if result.checked.diagnostics.is_empty() {
            return Ok(());
        }
        let copy = self.reported.entry(path_key(path)).or_default();
        *copy += 1;
        let copy = *copy;
        // The same finding twice in one file keeps two fingerprints; the
        // file reported again, two more.
        let mut seen: HashMap<String, usize> = HashMap::new();
        for diagnostic in &result.checked.diagnostics {
            let finding = fingerprint(path, diagnostic);
            let occurrence = seen.entry(finding.clone()).or_default();
            *occurrence += 1;
            let mut unique = repeat_fingerprint(&finding, *occurrence);
            if copy > 1 {
                unique = copy_fingerprint(&unique, copy);
            }
            let issue = Issue {
                fingerprint: unique,
                description: message_with_note(diagnostic),
                check_name: diagnostic.rule.id,
                severity: match diagnostic.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                },
                location: Location {
                    path,
                    lines: Lines {
                        begin: diagnostic.position.map_or(1, |position| position.line),
                    },
                },
            };
            let separator: &[u8] = if self.issues == 0 { b"\n" } else { b",\n" };
            out.write_all(separator)?;
            serde_json::to_writer(&mut *out, &issue).map_err(io::Error::other)?;
            self.issues += 1;
        }
        Ok(())
    }

    fn end(&mut self, out: &mut dyn io::Write, _summary: &Summary) -> io::Result<()> {
        if self.issues > 0 {
            out.write_all(b"\n")?;
        }
        out.write_all(b"]\n")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::diagnostic::stages::yaml::{DUPLICATE_KEY, SYNTAX};
    use crate::diagnostic::{Diagnostic, Position};
    use crate::results::Origin;
    use crate::validate::Checked;

    fn result(path: &str, diagnostics: Vec<Diagnostic>) -> FileResult {
        FileResult {
            origin: Origin::Repo,
            display_name: path.to_owned(),
            path: path.to_owned(),
            read_from: None,
            checked: Checked {
                diagnostics,
                ..Checked::default()
            },
            source: None,
        }
    }

    fn report(results: &[FileResult]) -> serde_json::Value {
        let mut reporter = GitlabReporter::default();
        let mut out = Vec::new();
        reporter.begin(&mut out, "worktree").unwrap();
        for result in results {
            reporter.result(&mut out, result).unwrap();
        }
        reporter.end(&mut out, &Summary::default()).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn no_finding_is_an_empty_array() {
        assert_eq!(
            report(&[result("a.yaml", Vec::new())]),
            serde_json::json!([])
        );
    }

    #[test]
    fn each_finding_is_an_issue_with_a_fingerprint_that_survives_a_move() {
        let at = |line| Position { line, column: 3 };
        let syntax = |line| Diagnostic::new(&SYNTAX, "bad").at_position(at(line));
        let issues = report(&[
            result(
                "./.numinance/a.yaml",
                vec![
                    syntax(4),
                    syntax(9),
                    Diagnostic::new(&DUPLICATE_KEY, "twice").as_warning(),
                ],
            ),
            result(".numinance/b.yaml", vec![syntax(4)]),
        ]);
        let issues = issues.as_array().unwrap();
        assert_eq!(issues.len(), 4);
        assert_eq!(
            issues[0],
            serde_json::json!({
                "description": "bad",
                "check_name": "yaml/syntax",
                "fingerprint": issues[0]["fingerprint"],
                "severity": "major",
                "location": {"path": ".numinance/a.yaml", "lines": {"begin": 4}},
            })
        );
        assert_eq!(issues[2]["severity"], "minor");
        assert_eq!(issues[2]["location"]["lines"]["begin"], 1);
        let fingerprints: std::collections::HashSet<&str> = issues
            .iter()
            .map(|issue| issue["fingerprint"].as_str().unwrap())
            .collect();
        assert_eq!(fingerprints.len(), 4, "every issue its own");
        // The same finding on another line keeps its fingerprint.
        let moved = report(&[result(".numinance/a.yaml", vec![syntax(40)])]);
        assert_eq!(moved[0]["fingerprint"], issues[0]["fingerprint"]);
    }

    #[test]
    fn a_message_naming_its_line_keeps_its_fingerprint_when_the_line_moves() {
        let duplicate = |line| {
            Diagnostic::new(
                &DUPLICATE_KEY,
                format!("duplicate key \"a\" at line {line} column 3"),
            )
            .at_position(Position { line, column: 3 })
        };
        let before = report(&[result("a.yaml", vec![duplicate(4)])]);
        let after = report(&[result("a.yaml", vec![duplicate(5)])]);
        assert_eq!(before[0]["fingerprint"], after[0]["fingerprint"]);
        // The message shown keeps the position.
        assert_eq!(
            after[0]["description"],
            "duplicate key \"a\" at line 5 column 3"
        );
        // Another key is another finding.
        let other = Diagnostic::new(&DUPLICATE_KEY, "duplicate key \"b\" at line 4 column 3");
        let other = report(&[result("a.yaml", vec![other])]);
        assert_ne!(before[0]["fingerprint"], other[0]["fingerprint"]);
    }

    #[test]
    fn a_file_reported_twice_gives_each_issue_its_own_fingerprint() {
        let syntax = || Diagnostic::new(&SYNTAX, "bad");
        let once = report(&[result("a.yaml", vec![syntax(), syntax()])]);
        let twice = report(&[
            result("a.yaml", vec![syntax(), syntax()]),
            result("b.yaml", Vec::new()),
            result("./a.yaml", vec![syntax(), syntax()]),
        ]);
        let fingerprints: Vec<&str> = twice
            .as_array()
            .unwrap()
            .iter()
            .map(|issue| issue["fingerprint"].as_str().unwrap())
            .collect();
        assert_eq!(fingerprints.len(), 4);
        let distinct: std::collections::HashSet<&&str> = fingerprints.iter().collect();
        assert_eq!(distinct.len(), 4, "{fingerprints:?}");
        // The first report of the file keeps the fingerprints it has alone.
        assert_eq!(once[0]["fingerprint"], twice[0]["fingerprint"]);
        assert_eq!(once[1]["fingerprint"], twice[1]["fingerprint"]);
    }
}
