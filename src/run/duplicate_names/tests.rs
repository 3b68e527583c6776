//! Duplicate names across a configuration tree: the later document gets the
//! finding and names the first; other kinds, other names and documents
//! refused at the kind stage do not count.

use super::*;
use crate::results::Origin;
use crate::validate::{Mode, validate_bytes};
use crate::yaml::Limits;

fn document(display_name: &str, text: &str) -> FileResult {
    FileResult {
        origin: Origin::Repo,
        display_name: display_name.to_owned(),
        path: display_name.to_owned(),
        source: None,
        checked: validate_bytes(
            text.as_bytes(),
            Mode::Repository {
                enable_alpha: false,
            },
            &Limits::default(),
        ),
    }
}

fn playbook(name: &str) -> String {
    format!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {{name: {name}}}\nspec: {{change_type: bugfix}}\n"
    )
}

fn policy(name: &str) -> String {
    format!(
        "apiVersion: numinance.dev/v1\nkind: AutonomyPolicy\nmetadata: {{name: {name}}}\nspec: {{defaults: {{level: AUTONOMY_LEVEL_PR}}}}\n"
    )
}

fn findings(results: &[FileResult]) -> Vec<Option<String>> {
    let mut names = DuplicateNames::default();
    results
        .iter()
        .map(|result| {
            names.check(result).map(|d| {
                assert_eq!(d.rule.id, "repo/duplicate-name");
                assert_eq!(d.stage, Stage::Rule);
                assert_eq!(d.pointer.as_deref(), Some("/metadata/name"));
                d.message
            })
        })
        .collect()
}

#[test]
fn distinct_names_and_one_name_across_kinds_pass() {
    let results = [
        document(".numinance/a.yaml", &playbook("bugfix-bounded")),
        document(".numinance/b.yaml", &playbook("hotfix-bounded")),
        document(".numinance/c.yaml", &policy("bugfix-bounded")),
    ];
    assert_eq!(findings(&results), vec![None, None, None]);
}

#[test]
fn the_later_documents_of_one_kind_and_name_name_the_first() {
    let results = [
        document(".numinance/a.yaml", &playbook("bugfix-bounded")),
        document(".numinance/b.yaml", &policy("org-default")),
        document(".numinance/c.yaml", &playbook("bugfix-bounded")),
        document(".numinance/d.yaml", &playbook("bugfix-bounded")),
    ];
    let message = "documents of one kind have distinct names: Playbook \"bugfix-bounded\" is already defined in \".numinance/a.yaml\"";
    assert_eq!(
        findings(&results),
        vec![
            None,
            None,
            Some(message.to_owned()),
            Some(message.to_owned())
        ]
    );
}

#[test]
fn a_document_failing_its_schema_still_counts() {
    let invalid = playbook("bugfix-bounded").replace("spec: {change_type: bugfix}", "spec: {}");
    let results = [
        document(".numinance/a.yaml", &invalid),
        document(".numinance/b.yaml", &playbook("bugfix-bounded")),
    ];
    assert!(results[0].checked.errors().next().is_some());
    assert_eq!(
        findings(&results),
        vec![
            None,
            Some("documents of one kind have distinct names: Playbook \"bugfix-bounded\" is already defined in \".numinance/a.yaml\"".to_owned())
        ]
    );
}

#[test]
fn documents_refused_at_the_kind_stage_do_not_count() {
    let evalset = "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {name: bugfix-bounded}\nspec: {}\n";
    let wrong_api = playbook("bugfix-bounded").replace("numinance.dev/v1", "numinance.dev/v2");
    let results = [
        document(".numinance/a.yaml", evalset),
        document(".numinance/b.yaml", evalset),
        document(".numinance/c.yaml", &wrong_api),
        document(".numinance/d.yaml", &playbook("bugfix-bounded")),
        document(".numinance/e.yaml", &wrong_api),
    ];
    assert_eq!(findings(&results), vec![None, None, None, None, None]);
}

#[test]
fn a_name_in_a_message_is_quoted_and_shortened() {
    let name = format!("\"{}\\u202E\"", "n".repeat(70));
    let results = [
        document(".numinance/a\u{202E}.yaml", &playbook(&name)),
        document(".numinance/b.yaml", &playbook(&name)),
    ];
    let found = findings(&results);
    let message = found[1].as_deref().expect("a finding");
    assert_eq!(
        message,
        format!(
            "documents of one kind have distinct names: Playbook \"{}…\" is already defined in \".numinance/a\\u{{202e}}.yaml\"",
            "n".repeat(64)
        )
    );
}

#[test]
fn the_duplicate_name_examples_fail_and_pass() {
    let found = |text: &str| {
        let mut names = DuplicateNames::default();
        text.split("---\n")
            .map(|part| {
                let (name, body) = part.split_once('\n').expect("a file name line");
                let result = FileResult {
                    origin: Origin::Repo,
                    display_name: name.trim_start_matches("# ").to_owned(),
                    path: name.trim_start_matches("# ").to_owned(),
                    source: None,
                    checked: validate_bytes(
                        body.as_bytes(),
                        Mode::Repository {
                            enable_alpha: false,
                        },
                        &Limits::default(),
                    ),
                };
                assert_eq!(result.checked.diagnostics, vec![], "{part}");
                names.check(&result).map(|d| d.rule.id)
            })
            .collect::<Vec<_>>()
    };
    let Some(rule) = crate::diagnostic::stages::project::PROJECT.first() else {
        panic!("the catalogue documents repo/duplicate-name");
    };
    assert_eq!(found(rule.failing), vec![None, Some(rule.id)]);
    assert_eq!(found(rule.passing), vec![None, None]);
}
