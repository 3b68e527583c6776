//! Duplicate names across a configuration tree: the later document gets the
//! finding and names the first; other kinds, other names and documents
//! refused at the kind stage do not count.

use super::*;
use crate::diagnostic::Position;
use crate::location::Location;
use crate::results::Origin;
use crate::validate::{Mode, Parsed, name_place, validate_bytes, validate_parsed};
use crate::yaml::Limits;

/// The result of `text` checked as a run of a tree checks it.
fn document(display_name: &str, text: &str) -> FileResult {
    let parsed = Parsed::detached(text.as_bytes());
    let mode = Mode::Repository {
        enable_alpha: false,
    };
    let mut checked = validate_parsed(
        &parsed,
        mode,
        Location::detached(crate::location::DEFAULT_MAX_FILE_SIZE),
    );
    checked.name_place = name_place(&checked, &parsed);
    FileResult {
        origin: Origin::Repo,
        display_name: display_name.to_owned(),
        path: display_name.to_owned(),
        read_from: None,
        source: None,
        checked,
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
                assert_eq!(d.stage(), Stage::Rule);
                assert_eq!(d.address, Some(address!["metadata", "name"]));
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
                    read_from: None,
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

/// The notes of the findings of `names` (Playbooks, in this order).
fn notes(names: &[&str]) -> Vec<Option<String>> {
    let mut seen = DuplicateNames::default();
    names
        .iter()
        .enumerate()
        .map(|(index, name)| {
            let result = document(&format!("{index}.yaml"), &playbook(name));
            seen.check(&result).and_then(|d| d.note)
        })
        .collect()
}

#[test]
fn the_fix_names_a_name_no_document_before_has() {
    let note = |first: &str, free: &str| {
        Some(format!(
            "rename this one or \"{first}\", or merge them: no Playbook is named `{free}` yet"
        ))
    };
    assert_eq!(notes(&["same", "same"]), [None, note("0.yaml", "same-2")]);
    assert_eq!(
        notes(&["same-2", "same", "same-3", "same"]),
        [None, None, None, note("1.yaml", "same-4")]
    );
    // A number the name ends in is counted on from its stem.
    assert_eq!(
        notes(&["team-7", "team-7"]),
        [None, note("0.yaml", "team-2")]
    );
    assert_eq!(notes(&["'-7'", "'-7'"]), [None, note("0.yaml", "-7-2")]);
}

#[test]
fn both_names_are_placed_where_their_checks_found_them_and_no_file_is_read_again() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("a.yaml");
    let first = FileResult {
        // The file named is gone: nothing is read again to place the name.
        read_from: Some(path),
        ..document(".numinance/a.yaml", &playbook("same"))
    };
    let second = document(".numinance/b.yaml", &format!("# b\n{}", playbook("same")));
    let mut names = DuplicateNames::default();
    assert_eq!(names.check(&first), None);
    let finding = names.check(&second).unwrap();
    let at = |line, column| Some(Position { line, column });
    assert_eq!((finding.position, finding.end), (at(4, 18), at(4, 22)));
    assert_eq!(finding.related.len(), 1);
    let related = &finding.related[0];
    assert_eq!(related.path, ".numinance/a.yaml");
    assert_eq!((related.position, related.end), (at(3, 18), at(3, 22)));
    assert_eq!(related.message, "the first Playbook named \"same\"");
}

#[test]
fn a_name_is_placed_in_a_document_of_any_line_ends_and_characters() {
    let text = "# é\r\n# \u{1F600}\r\napiVersion: numinance.dev/v1\r\nkind: Playbook\r\nmetadata: {name: \"dé\"}\r\nspec: {change_type: bugfix}\r\n";
    let checked = document(".numinance/a.yaml", text).checked;
    let place = checked.name_place.unwrap();
    assert_eq!(
        place.start,
        Position {
            line: 5,
            column: 18
        }
    );
    assert_eq!(
        place.end,
        Position {
            line: 5,
            column: 22
        }
    );
    assert_eq!(&text[place.span.range()], "\"dé\"");
    // A name that is not `metadata.name` has no place there.
    let unnamed = document(".numinance/b.yaml", "kind: Playbook\n").checked;
    assert_eq!(unnamed.name_place, None);
}
