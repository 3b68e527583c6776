//! `numi explain`: the rule catalogue on the command line.

#![allow(clippy::expect_used)]

mod common;

use common::{fixtures, numi};

fn explain(args: &[&str]) -> common::Run {
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    numi(&fixtures(), &all)
}

#[test]
fn a_rule_with_examples() {
    insta::assert_snapshot!(explain(&["evalset/seeded-category"]).transcript());
}

#[test]
fn a_schema_rule() {
    insta::assert_snapshot!(explain(&["schema/additionalProperties"]).transcript());
}

#[test]
fn a_rule_no_document_can_show() {
    insta::assert_snapshot!(explain(&["read/io"]).transcript());
}

#[test]
fn the_list_names_every_rule_once() {
    let run = explain(&["--list"]);
    assert_eq!(run.code, 0);
    let ids: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let documented: Vec<&str> = numi::rules::all().map(|doc| doc.id).collect();
    assert_eq!(ids, documented);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn every_documented_rule_explains_itself() {
    for doc in numi::rules::all() {
        let mut stdout = Vec::new();
        let mut stderr = Vec::new();
        let code = numi::cli::main(
            ["numi", "explain", doc.id].map(std::ffi::OsString::from),
            &mut stdout,
            &mut stderr,
        );
        let text = String::from_utf8(stdout).expect("UTF-8");
        assert_eq!(code, 0, "{}", doc.id);
        assert!(stderr.is_empty(), "{}", doc.id);
        assert!(text.starts_with(&format!("{}  (stage: ", doc.id)), "{text}");
        assert_eq!(
            text.contains("\nFails:\n"),
            !doc.failing.is_empty(),
            "{}",
            doc.id
        );
        assert_eq!(
            text.contains("\nPasses:\n"),
            !doc.passing.is_empty(),
            "{}",
            doc.id
        );
    }
}

#[test]
fn an_unknown_rule_is_a_usage_error_with_a_suggestion() {
    let run = explain(&["evalset/case-sorted"]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn an_unknown_rule_far_from_any_gets_no_suggestion() {
    let run = explain(&["no-such-rule"]);
    assert_eq!(run.code, 2);
    assert!(!run.stderr.contains("did you mean"), "{}", run.stderr);
    assert!(run.stderr.contains("unknown rule id \"no-such-rule\""));
}

#[test]
fn a_rule_or_the_list_is_required_but_not_both() {
    assert_eq!(explain(&[]).code, 2);
    assert_eq!(explain(&["--list", "read/io"]).code, 2);
}

/// Every file under `dir`, in a stable order.
fn files_under(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|entry| entry.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, found);
        } else {
            found.push(path);
        }
    }
}

#[test]
fn every_rule_the_corpus_triggers_is_documented() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/hostile", "tests/fixtures", "examples"] {
        files_under(&root.join(dir), &mut files);
    }
    let modes = [
        numi::Mode::Files,
        numi::Mode::Repository {
            enable_alpha: false,
        },
    ];
    let mut emitted = std::collections::BTreeSet::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("read");
        for mode in modes {
            let checked = numi::validate_bytes(&bytes, mode, &numi::yaml::Limits::default());
            emitted.extend(checked.diagnostics.iter().map(|d| d.rule.id));
        }
    }
    // The corpus reaches every stage a document can fail.
    for expected in [
        "yaml/encoding",
        "yaml/syntax",
        "kind/unknown",
        "kind/produced",
        "schema/enum",
        "evalset/cases-sorted",
        "bundle/source-trust",
    ] {
        assert!(emitted.contains(expected), "{expected} not reached");
    }
    let undocumented: Vec<&&str> = emitted
        .iter()
        .filter(|id| numi::rules::find(id).is_none())
        .collect();
    assert!(undocumented.is_empty(), "{undocumented:?}");
}

/// The GitHub anchor of a heading that is one rule id in backticks.
fn anchor(id: &str) -> String {
    id.to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect()
}

/// docs/rules.md as the catalogue writes it: the README links each id there.
fn rules_markdown() -> String {
    let mut text = String::from(
        "# Rules\n\n\
         Every rule id numi reports: what it checks, why, how to fix it, and a\n\
         failing and a passing example. `numi explain <id>` prints the same.\n\
         Generated from the rule declarations by `tests/explain.rs`; after changing a rule,\n\
         run `UPDATE_DOCS=1 cargo test --test explain` to rewrite this file.\n",
    );
    let mut section = "";
    for doc in numi::rules::all() {
        let prefix = doc.id.split('/').next().unwrap_or_default();
        if prefix != section {
            section = prefix;
            text.push_str(&format!("\n## {prefix}\n"));
        }
        text.push_str(&format!(
            "\n### `{}`\n\n`numi explain {}` · stage `{}`\n\n{}\n\n{}\n",
            doc.id,
            doc.id,
            doc.stage.name(),
            doc.summary,
            doc.explanation.trim_end()
        ));
        if let Some(repair) = numi::rules::fix_of(doc.id) {
            text.push_str(&format!("\n{}\n", repair.describe()));
        }
        for (title, example) in [("Fails:", doc.failing), ("Passes:", doc.passing)] {
            if !example.is_empty() {
                text.push_str(&format!("\n{title}\n\n```yaml\n{}```\n", example));
            }
        }
    }
    text
}

#[test]
fn the_rules_document_is_generated_from_the_catalogue() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let generated = rules_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &generated).expect("docs/rules.md is writable");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/rules.md is stale: run UPDATE_DOCS=1 cargo test --test explain"
    );
}

#[test]
fn the_readme_links_every_rule_to_its_entry() {
    let readme = include_str!("../README.md");
    for doc in numi::rules::all() {
        let link = format!("[`{}`](docs/rules.md#{})", doc.id, anchor(doc.id));
        assert!(readme.contains(&link), "README lacks {link}");
    }
}
