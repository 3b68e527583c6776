//! `numi explain`: the rule catalogue on the command line.

#![allow(clippy::expect_used)]

use crate::common;

use crate::common::{fixtures, numi};

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
fn a_bare_rule_name_suggests_its_full_id() {
    let run = explain(&["cases-sorted"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("tip: did you mean 'evalset/cases-sorted'?"),
        "{}",
        run.stderr
    );
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

/// The lines numi prints for the failing example of `doc`, checked as
/// `numi validate` checks it: the document's line (with, for a
/// producer-side rule, the warning line and the line under `--strict`),
/// then each of the rule's findings as `--format concise` prints it.
/// None when the rule has no single-document example.
fn printed_by_failing_example(doc: &numi::rules::RuleDoc) -> Option<Vec<String>> {
    use numi::location::{DEFAULT_MAX_FILE_SIZE, Location};
    use numi::results::{FileResult, Origin};
    use numi::validate::Mode;

    // A finding across documents has no single-document example.
    if doc.failing.is_empty() || doc.id == "repo/duplicate-name" {
        return None;
    }
    // The configuration tree's gates need repository mode.
    let (mode, origin) = match doc.id {
        "kind/produced" => (Mode::Repository { enable_alpha: true }, Origin::Repo),
        "kind/alpha-disabled" => (
            Mode::Repository {
                enable_alpha: false,
            },
            Origin::Repo,
        ),
        _ => (Mode::Files, Origin::File),
    };
    // A run manifest's paths are relative to it: its examples stand beside
    // the tree they name.
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/kinds/context_report/run/examples/failing.yaml");
    let location = if doc.id.starts_with("contextreport/") {
        Location::file(&manifest, DEFAULT_MAX_FILE_SIZE)
    } else {
        Location::detached(DEFAULT_MAX_FILE_SIZE)
    };
    let parsed = numi::validate::Parsed::load(
        doc.failing.as_bytes(),
        &numi::yaml::Limits::default(),
        &location,
    );
    let mut checked = numi::validate::validate_parsed(&parsed, mode, location);
    // The document's suppression comments have their say, as in a run.
    numi::verdict::Verdict::unconfigured().apply(
        &mut checked,
        &parsed,
        std::path::Path::new("failing.yaml"),
    );
    let mut result = FileResult {
        origin,
        display_name: "failing.yaml".to_owned(),
        path: "failing.yaml".to_owned(),
        read_from: None,
        checked,
        source: None,
    };
    let mut lines = vec![numi::report::text::line(&result)];
    let warnings: Vec<String> = result
        .checked
        .warnings()
        .filter(|warning| warning.rule == doc.id)
        .map(|warning| numi::report::text::warning_line(&result, warning))
        .collect();
    if !warnings.is_empty() {
        lines.extend(warnings);
        result.checked.promote_warnings();
        lines.push(format!(
            "{}    # with --strict",
            numi::report::text::line(&result)
        ));
    }
    // The rule's own message, as the other formats carry it.
    lines.extend(
        result
            .checked
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.rule == doc.id)
            .map(|diagnostic| {
                format!(
                    "{}    # --format concise",
                    numi::report::concise::line(&result.path, diagnostic)
                )
            }),
    );
    Some(lines)
}

/// docs/rules.md as the catalogue writes it: the rule reference every page
/// links to.
fn rules_markdown() -> String {
    let mut text = String::from(
        "# Rules\n\n\
         Every rule id numi reports: the message it prints, what it checks, why,\n\
         how to fix it, and a failing and a passing example. `numi explain <id>`\n\
         prints the same. A *producer-side* rule checks what the runtime checks\n\
         before it uses a document: a warning, an error under `--strict`.\n\
         Generated from the rule declarations by `tests/integration/explain.rs`; after changing a rule,\n\
         run `UPDATE_DOCS=1 cargo test --test integration explain::` to rewrite this file.\n",
    );
    let mut section = "";
    for doc in numi::rules::all() {
        let prefix = doc.id.split('/').next().unwrap_or_default();
        if prefix != section {
            section = prefix;
            text.push_str(&format!("\n## {prefix}\n"));
        }
        let producer_side = if doc.severity == numi::Severity::Warning {
            " · producer-side"
        } else {
            ""
        };
        text.push_str(&format!(
            "\n### `{}`\n\n`numi explain {}` · stage `{}`{producer_side}\n\n{}\n\n{}\n",
            doc.id,
            doc.id,
            doc.stage.name(),
            doc.summary,
            doc.explanation.trim_end()
        ));
        if let Some(lines) = printed_by_failing_example(doc) {
            text.push_str(&format!(
                "\nMessage, as numi prints it for the failing example below:\n\n```text\n{}\n```\n",
                lines.join("\n")
            ));
        }
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
        "docs/rules.md is stale: run UPDATE_DOCS=1 cargo test --test integration explain::"
    );
}
