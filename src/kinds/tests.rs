//! The kinds' schemas as the schema stage runs them.

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::kinds;
use crate::schema::*;
use serde_json::json;

fn playbook_with(extra: &[&str]) -> Value {
    let mut document = json!({
        "apiVersion": "numinance.dev/v1",
        "kind": "Playbook",
    });
    if let Some(map) = document.as_object_mut() {
        for key in extra {
            map.insert((*key).to_owned(), json!(0));
        }
    }
    document
}

fn pointers(violations: &Violations) -> Vec<String> {
    violations
        .listed
        .iter()
        .filter_map(|d| d.address.as_ref().map(ToString::to_string))
        .collect()
}

/// What a validator reports on a document: each error's keyword and
/// instance path, in the order reported.
fn report(errors: jsonschema::ErrorIterator<'_>) -> Vec<(String, String)> {
    errors
        .map(|error| {
            (
                error.kind().keyword().to_owned(),
                error.instance_path().to_string(),
            )
        })
        .collect()
}

/// The schemas compiled into numi enforce what the shipped schema text
/// (`numi schema KIND`) says: on every example document of the rule
/// catalogue, they report what a validator built from the text reports.
#[test]
fn compiled_schemas_agree_with_the_shipped_schema_text() {
    let from_text: Vec<jsonschema::Validator> = kinds::all()
        .map(|kind| {
            let schema: Value = match serde_json::from_str(kind.schema) {
                Ok(schema) => schema,
                Err(error) => panic!("the {} schema is not JSON: {error}", kind.name),
            };
            match jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(false)
                .build(&schema)
            {
                Ok(validator) => validator,
                Err(error) => panic!("the {} schema does not compile: {error}", kind.name),
            }
        })
        .collect();
    let mut compared = 0;
    for doc in crate::rules::all() {
        for example in [doc.failing, doc.passing] {
            let Ok(document) = crate::yaml::load(example, &crate::yaml::Limits::default()) else {
                continue;
            };
            let name = document.value.get("kind").and_then(Value::as_str);
            let Some((kind, from_text)) = kinds::all()
                .zip(&from_text)
                .find(|(kind, _)| Some(kind.name) == name)
            else {
                continue;
            };
            let value = &document.value;
            assert_eq!(
                (kind.compiled.is_valid)(value),
                from_text.is_valid(value),
                "{}: {example}",
                doc.id
            );
            assert_eq!(
                report((kind.compiled.iter_errors)(value)),
                report(from_text.iter_errors(value)),
                "{}: {example}",
                doc.id
            );
            compared += 1;
        }
    }
    assert!(compared > 50, "only {compared} examples compared");
}

/// The configuration kinds people write explain every key and every enum
/// value to an editor: a `description` on each property, and a line
/// `VALUE: meaning` for each value (the walk is tested on both sides in
/// `schema::described`).
#[test]
fn the_configuration_schemas_explain_every_key_and_value() {
    for name in ["Playbook", "AutonomyPolicy", "EvalSet"] {
        let Some(kind) = kinds::find(name) else {
            panic!("{name} is a kind");
        };
        let schema: Value = match serde_json::from_str(kind.schema) {
            Ok(schema) => schema,
            Err(error) => panic!("the {name} schema is not JSON: {error}"),
        };
        assert_eq!(
            described::undescribed(&schema),
            Vec::<String>::new(),
            "{name}: properties without a description, enum values without a meaning"
        );
    }
}

#[test]
fn the_listing_keeps_the_first_violations_in_document_order_and_counts_the_rest() {
    let Some(playbook) = kinds::find("Playbook") else {
        panic!("Playbook is a kind");
    };
    let document = playbook_with(&["z3", "z1", "z2", "a9", "a8"]);
    let all = check_listing(&playbook.compiled, &document, usize::MAX);
    let capped = check_listing(&playbook.compiled, &document, 3);
    assert_eq!(
        capped.listed.as_slice(),
        all.listed.get(..3).unwrap_or_default()
    );
    assert_eq!(pointers(&capped), ["/z3", "/z1", "/z2"]);
    assert_eq!(capped.count(), all.count());
    assert_eq!(capped.unlisted, all.listed.len() - 3);
    assert_eq!(all.unlisted, 0);
}

#[test]
fn a_listing_under_the_cap_is_whole() {
    let Some(playbook) = kinds::find("Playbook") else {
        panic!("Playbook is a kind");
    };
    let document = playbook_with(&["extra"]);
    let checked = check(&playbook.compiled, &document);
    assert_eq!(checked.unlisted, 0);
    assert!(pointers(&checked).iter().any(|pointer| pointer == "/extra"));
    assert!(checked.listed.len() <= MAX_LISTED_VIOLATIONS);
}

#[test]
fn many_violations_keep_at_most_the_cap() {
    let Some(playbook) = kinds::find("Playbook") else {
        panic!("Playbook is a kind");
    };
    let names: Vec<String> = (0..1000).map(|i| format!("x{i}")).collect();
    let keys: Vec<&str> = names.iter().map(String::as_str).collect();
    let document = playbook_with(&keys);
    let checked = check(&playbook.compiled, &document);
    assert_eq!(checked.listed.len(), MAX_LISTED_VIOLATIONS);
    assert_eq!(
        pointers(&checked).first().map(String::as_str),
        Some("/x0"),
        "document order, not jsonschema's"
    );
    assert_eq!(
        checked.count(),
        check_listing(&playbook.compiled, &document, usize::MAX).count()
    );
    assert!(checked.count() > 1000);
}

#[test]
fn a_misspelt_kind_carries_the_nearest_known_one_and_a_far_one_none() {
    let Err(near) =
        crate::kinds::numinance::by_kind_field(&serde_json::json!({"kind": "PlayBook"}))
    else {
        panic!("PlayBook is refused");
    };
    assert_eq!(near.rule, "kind/unknown");
    assert_eq!(near.note.as_deref(), Some("did you mean `Playbook`?"));
    let Err(far) =
        crate::kinds::numinance::by_kind_field(&serde_json::json!({"kind": "Spreadsheet"}))
    else {
        panic!("Spreadsheet is refused");
    };
    assert_eq!(far.rule, "kind/unknown");
    assert_eq!(far.note, None);
}

/// The notes of the violations of an EvalSet whose first case's `expect`
/// is `expect`, by pointer.
fn evalset_notes(expect: Value) -> Vec<(String, Option<String>)> {
    let Some(evalset) = kinds::find("EvalSet") else {
        panic!("EvalSet is a kind");
    };
    let document = json!({
        "apiVersion": "numinance.dev/v1alpha1",
        "kind": "EvalSet",
        "metadata": {"name": "core-replay", "scope": "SCOPE_REPO"},
        "spec": {"version": "1.0.0", "cases": [{
            "name": "bugfix-clean",
            "outcome": {"value": format!("sha256:{}", "0".repeat(64))},
            "expect": expect,
        }]},
    });
    check(&evalset.compiled, &document)
        .listed
        .into_iter()
        .map(|d| (d.address.map(|a| a.to_string()).unwrap_or_default(), d.note))
        .collect()
}

#[test]
fn a_near_miss_carries_the_nearest_allowed_value_or_property() {
    let notes = evalset_notes(json!({
        "acceptance": "EVAL_ACCEPTANCE_ACCEPTD", "merged": true, "severity": false,
        "verification_failures": [],
    }));
    let acceptance = "/spec/cases/0/expect/acceptance";
    let note = |pointer: &str| {
        notes
            .iter()
            .find(|(at, _)| at == pointer)
            .and_then(|(_, note)| note.clone())
    };
    assert_eq!(
        note(acceptance).as_deref(),
        Some("did you mean `EVAL_ACCEPTANCE_ACCEPTED`?")
    );
    assert_eq!(
        note("/spec/cases/0/expect/severity").as_deref(),
        Some("did you mean `severe`?")
    );
    assert_eq!(
        note("/spec/cases/0/expect/severe").as_deref(),
        Some("add `severe`")
    );
}

#[test]
fn a_far_miss_gets_no_guess_and_an_unknown_key_what_the_mapping_takes() {
    let notes = evalset_notes(json!({
        "acceptance": "nothing-like-it", "merged": true, "severe": false,
        "verification_failures": [], "colour": 1,
    }));
    assert_eq!(
        notes,
        [
            ("/spec/cases/0/expect/acceptance".to_owned(), None),
            (
                "/spec/cases/0/expect/colour".to_owned(),
                Some(
                    "remove it; this mapping takes `acceptance`, `merged`, `severe`, \
                     `verification_failures`"
                        .to_owned()
                )
            ),
        ]
    );
}

/// The diagnostics with their starts only: these tests are about the rule
/// and where its finding starts; ranges are the loader's tests.
pub(crate) fn starts_only(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .map(|mut diagnostic| {
            diagnostic.end = None;
            diagnostic.span = None;
            diagnostic
        })
        .collect()
}

/// The declared rule of `id`.
pub(crate) fn documented(id: &str) -> &'static crate::diagnostic::RuleDoc {
    crate::rules::find(id).expect("a declared rule")
}
