#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use super::manifest::{self, identity_order, is_hex_digest, utf16_order};
use crate::kinds;
use crate::location::{DEFAULT_MAX_FILE_SIZE, Location};
use crate::validate::{Checked, Mode, validate_at, validate_bytes};
use crate::yaml::Limits;

fn component(kind: &str, key: &str, content: &str) -> Value {
    let mut value =
        json!({"kind": kind, "key": key, "content": content, "media_type": "text/plain"});
    value["digest"] = Value::String(manifest::component_digest(&value).unwrap());
    value
}

fn bundle(scenario: &str, parent: Option<&str>, components: Vec<Value>) -> Value {
    let mut value = json!({
        "schema_version": 1,
        "scenario": scenario,
        "evaluator_epoch": "epoch-1",
        "parent_digest": parent,
        "components": components,
    });
    value["digest"] = Value::String(manifest::manifest_digest(&value).unwrap());
    value
}

fn rules_of(value: &Value) -> Vec<&'static str> {
    let text = serde_json::to_string(value).unwrap();
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    assert_own_rules(&checked);
    checked.diagnostics.iter().map(|d| d.rule.id).collect()
}

/// A document of a kind is reported on by the rules of that kind's
/// catalogue, the family's and those no kind declares (the stages', the
/// project's), never by another kind's.
pub(super) fn assert_own_rules(checked: &Checked) {
    let Some(kind) = checked.kind.and_then(kinds::find) else {
        return;
    };
    for diagnostic in &checked.diagnostics {
        let id = diagnostic.rule.id;
        let declares = |rules: &[crate::diagnostic::RuleDoc]| rules.iter().any(|doc| doc.id == id);
        assert!(
            declares(kind.catalogue)
                || declares(super::catalogue::RULES)
                || !kinds::all().any(|other| declares(other.catalogue)),
            "{}: reported on by {id}, another kind's rule",
            kind.name
        );
    }
}

#[test]
fn each_rule_of_the_family_is_listed_by_one_kind() {
    for rule in super::catalogue::RULES {
        let listing: Vec<&str> = super::FAMILY
            .kinds
            .iter()
            .filter(|kind| kind.catalogue.iter().any(|doc| doc.id == rule.id))
            .map(|kind| kind.name)
            .collect();
        assert_eq!(listing.len(), 1, "{} is listed by {listing:?}", rule.id);
    }
}

#[test]
fn utf16_order_differs_from_byte_order_for_astral_characters() {
    assert_eq!(
        utf16_order("\u{1f600}", "\u{fb33}"),
        std::cmp::Ordering::Less
    );
    assert!("\u{1f600}".as_bytes() > "\u{fb33}".as_bytes());
    assert_eq!(
        identity_order(("hints", "z"), ("playbook", "a")),
        std::cmp::Ordering::Less
    );
}

#[test]
fn hex_digests_are_64_lowercase_hex_only() {
    assert!(is_hex_digest(&"a".repeat(64)));
    assert!(!is_hex_digest(&"A".repeat(64)));
    assert!(!is_hex_digest(&"a".repeat(63)));
    assert!(!is_hex_digest(&format!("../{}", "a".repeat(61))));
}

#[test]
fn a_manifest_is_recognised_by_its_six_keys_only() {
    let value = bundle("demo", None, vec![component("hints", "hints", "x")]);
    let checked = validate_bytes(
        serde_json::to_string(&value).unwrap().as_bytes(),
        Mode::Files,
        &Limits::default(),
    );
    assert_eq!(checked.kind, Some("AutocontextBundle"));
    assert_eq!(checked.name.as_deref(), Some("demo"));
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);

    let mut five = value.clone();
    five.as_object_mut().unwrap().remove("digest");
    let checked = validate_bytes(
        serde_json::to_string(&five).unwrap().as_bytes(),
        Mode::Files,
        &Limits::default(),
    );
    assert_eq!(checked.kind, None);
}

#[test]
fn component_order_holds_for_sorted_unique_components_only() {
    let sorted = bundle(
        "demo",
        None,
        vec![
            component("hints", "\u{1f600}", "a"),
            component("hints", "\u{fb33}", "b"),
        ],
    );
    assert_eq!(rules_of(&sorted), Vec::<&str>::new());
    let reversed = bundle(
        "demo",
        None,
        vec![
            component("hints", "\u{fb33}", "b"),
            component("hints", "\u{1f600}", "a"),
        ],
    );
    assert_eq!(rules_of(&reversed), ["autocontext/component-order"]);
    let twice = bundle(
        "demo",
        None,
        vec![component("hints", "a", "a"), component("hints", "a", "b")],
    );
    assert_eq!(rules_of(&twice), ["autocontext/component-order"]);
}

#[test]
fn a_changed_content_fails_its_component_and_a_changed_field_the_manifest() {
    let mut value = bundle("demo", None, vec![component("playbook", "playbook", "a")]);
    let mut content = value.clone();
    content["components"][0]["content"] = Value::String("b".to_owned());
    content["digest"] = Value::String(manifest::manifest_digest(&content).unwrap());
    assert_eq!(rules_of(&content), ["autocontext/component-digest"]);
    value["scenario"] = Value::String("other".to_owned());
    assert_eq!(rules_of(&value), ["autocontext/manifest-digest"]);
}

fn write(path: &Path, value: &Value) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, serde_json::to_string(value).unwrap()).unwrap();
}

fn rules_at(path: &Path) -> Vec<&'static str> {
    let bytes = fs::read(path).unwrap();
    let location = Location::file(path, DEFAULT_MAX_FILE_SIZE);
    let checked = validate_at(&bytes, Mode::Files, &Limits::default(), location);
    assert_own_rules(&checked);
    checked.diagnostics.iter().map(|d| d.rule.id).collect()
}

#[test]
fn in_a_store_the_address_scenario_parent_and_pointer_are_checked() {
    let temp = tempfile::tempdir().unwrap();
    let store = temp.path().join("demo/context_bundles");
    let base = bundle("demo", None, vec![component("playbook", "playbook", "a")]);
    let base_digest = base["digest"].as_str().unwrap().to_owned();
    let child = bundle(
        "demo",
        Some(&base_digest),
        vec![component("playbook", "playbook", "b")],
    );
    let child_digest = child["digest"].as_str().unwrap().to_owned();
    let base_path = store.join(format!("bundles/{base_digest}.json"));
    let child_path = store.join(format!("bundles/{child_digest}.json"));
    write(&base_path, &base);
    write(&child_path, &child);
    assert_eq!(rules_at(&base_path), Vec::<&str>::new());
    assert_eq!(rules_at(&child_path), Vec::<&str>::new());

    let misnamed = store.join(format!("bundles/{}.json", "0".repeat(64)));
    write(&misnamed, &base);
    assert_eq!(rules_at(&misnamed), ["autocontext/store-address"]);

    let other = bundle("other", None, vec![component("hints", "hints", "c")]);
    let other_path = store.join(format!(
        "bundles/{}.json",
        other["digest"].as_str().unwrap()
    ));
    write(&other_path, &other);
    assert_eq!(rules_at(&other_path), ["autocontext/store-scenario"]);

    let orphan = bundle(
        "demo",
        Some(&"1".repeat(64)),
        vec![component("hints", "hints", "d")],
    );
    let orphan_path = store.join(format!(
        "bundles/{}.json",
        orphan["digest"].as_str().unwrap()
    ));
    write(&orphan_path, &orphan);
    assert_eq!(rules_at(&orphan_path), ["autocontext/parent"]);

    let active = store.join("active.json");
    let pointer = json!({
        "schema_version": 1,
        "bundle_digest": child_digest,
        "evaluator_epoch": "epoch-1",
        "promotion_id": null,
        "rollback_target_digest": base_digest,
        "activated_at": "now",
    });
    write(&active, &pointer);
    assert_eq!(rules_at(&active), Vec::<&str>::new());
    let mut missing = pointer.clone();
    missing["rollback_target_digest"] = Value::String("2".repeat(64));
    write(&active, &missing);
    assert_eq!(rules_at(&active), ["autocontext/active-rollback"]);
    let mut epoch = pointer.clone();
    epoch["evaluator_epoch"] = Value::String("epoch-2".to_owned());
    write(&active, &epoch);
    assert_eq!(rules_at(&active), ["autocontext/active-bundle"]);
    let mut promoted = pointer.clone();
    promoted["promotion_id"] = Value::String("p1".to_owned());
    write(&active, &promoted);
    write(
        &store.join("promotions/p1.json"),
        &json!({"candidate_digest": child_digest, "rollback_target_digest": base_digest,
                "evaluator_epoch": "epoch-1", "manifest_diff_digest": null}),
    );
    assert_eq!(rules_at(&active), Vec::<&str>::new());
    write(
        &store.join("promotions/p1.json"),
        &json!({"candidate_digest": base_digest, "rollback_target_digest": base_digest,
                "evaluator_epoch": "epoch-1", "manifest_diff_digest": null}),
    );
    assert_eq!(rules_at(&active), ["autocontext/active-promotion"]);

    let diff_path = store.join(format!("candidates/{child_digest}/manifest_diff.json"));
    let diff = manifest::manifest_diff(&child, &base).unwrap();
    write(&diff_path, &diff);
    assert_eq!(rules_at(&diff_path), Vec::<&str>::new());
    let mut forged = diff.clone();
    forged["changes"] = json!([]);
    forged["digest"] = Value::String(manifest::diff_digest(&forged).unwrap());
    write(&diff_path, &forged);
    assert_eq!(rules_at(&diff_path), ["autocontext/diff-recomputed"]);
    forged["evaluator_epoch"] = Value::String("epoch-2".to_owned());
    write(&diff_path, &forged);
    assert_eq!(rules_at(&diff_path), ["autocontext/diff-digest"]);

    let record_path = store.join(format!("candidates/{child_digest}/record.json"));
    let policy = json!({"min_effect": 0.0});
    let record = json!({
        "schema_version": 2,
        "bundle_digest": child_digest,
        "parent_digest": base_digest,
        "evaluator_epoch": "epoch-1",
        "lifecycle": "active",
        "created_at": "now",
        "updated_at": "now",
        "confirmation_policy": policy,
        "confirmation_policy_digest": crate::canonical::sha256_hex(&policy).unwrap(),
    });
    write(&record_path, &record);
    assert_eq!(rules_at(&record_path), Vec::<&str>::new());
    let mut wrong_policy = record.clone();
    wrong_policy["confirmation_policy"] = json!({"min_effect": 0.5});
    write(&record_path, &wrong_policy);
    assert_eq!(
        rules_at(&record_path),
        ["autocontext/candidate-policy-digest"]
    );
    let mut wrong_parent = record.clone();
    wrong_parent["parent_digest"] = Value::Null;
    write(&record_path, &wrong_parent);
    assert_eq!(rules_at(&record_path), ["autocontext/candidate-bundle"]);
    let mut lagging = record.clone();
    lagging["lifecycle"] = Value::String("confirmed".to_owned());
    write(&record_path, &lagging);
    write(&active, &pointer);
    assert_eq!(rules_at(&active), ["autocontext/lifecycle-mirror"]);
}

#[test]
fn a_listing_holds_each_field_as_the_value_it_was() {
    let digest = "0123456789abcdef".repeat(4);
    let values = [
        json!(null),
        json!(""),
        json!("epoch-1"),
        json!(digest),
        json!(digest.to_uppercase()),
        json!(&digest[1..]),
        json!(format!("{digest}0")),
        json!(7),
        json!(7.0),
        json!(["x"]),
        json!({"a": 1}),
    ];
    let listed = |value: &Value| manifest::Listing::of(&json!({ "parent_digest": value }));
    for left in &values {
        let listing = listed(left);
        let written = listing.parent_digest();
        assert_eq!(written.value(), *left);
        assert_eq!(written.text(), left.as_str());
        for right in &values {
            assert_eq!(
                written == listed(right).parent_digest(),
                left == right,
                "{left} {right}"
            );
            if let Some(text) = right.as_str() {
                assert_eq!(
                    written.is_text(text),
                    left.as_str() == Some(text),
                    "{left} {text}"
                );
            }
        }
    }
    assert_eq!(
        manifest::Listing::of(&json!({})).parent_digest(),
        listed(&Value::Null).parent_digest()
    );
}
