//! Each rule of the evidence files beside a candidate (matched trials,
//! causal attribution, negative result, evaluator plan) and of promotion
//! records, on both sides, in a store built here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::causal_attribution::pure_addition_problem;
use super::comparison::pair_key;
use super::false_promotion::state_digest;
use super::manifest;
use super::negative_result::allows_negative_result;
use super::negative_result::recomputed::failure_mode_summary;
use super::tests::assert_own_rules;
use crate::canonical::sha256_hex;
use crate::location::{DEFAULT_MAX_FILE_SIZE, Location};
use crate::validate::{Mode, validate_at};
use crate::yaml::Limits;

fn component(kind: &str, key: &str, content: &str) -> Value {
    let mut value =
        json!({"kind": kind, "key": key, "content": content, "media_type": "text/plain"});
    value["digest"] = Value::String(manifest::component_digest(&value).unwrap());
    value
}

fn bundle(parent: Option<&str>, components: Vec<Value>) -> Value {
    let mut value = json!({
        "schema_version": 1,
        "scenario": "demo",
        "evaluator_epoch": "epoch-1",
        "parent_digest": parent,
        "components": components,
    });
    value["digest"] = Value::String(manifest::manifest_digest(&value).unwrap());
    value
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

/// Rewrites the file with `change` applied, and says which rules fail.
fn rules_after(path: &Path, value: &Value, change: impl FnOnce(&mut Value)) -> Vec<&'static str> {
    let mut changed = value.clone();
    change(&mut changed);
    write(path, &changed);
    let found = rules_at(path);
    write(path, value);
    found
}

/// Rewrites the file with `change` applied, and gives each rule that fails
/// with its message.
fn diagnostics_after(
    path: &Path,
    value: &Value,
    change: impl FnOnce(&mut Value),
) -> Vec<(String, String)> {
    let mut changed = value.clone();
    change(&mut changed);
    write(path, &changed);
    let bytes = fs::read(path).unwrap();
    let location = Location::file(path, DEFAULT_MAX_FILE_SIZE);
    let checked = validate_at(&bytes, Mode::Files, &Limits::default(), location);
    assert_own_rules(&checked);
    write(path, value);
    checked
        .diagnostics
        .iter()
        .map(|d| (d.rule.id.to_owned(), d.message.clone()))
        .collect()
}

fn policy() -> Value {
    json!({"min_screen_pairs": 1, "min_confirmation_pairs": 2, "max_confirmation_pairs": 2,
           "min_heldout_pairs": 1, "min_effect": 0.0, "confidence_z": 1.96})
}

/// A store with a baseline, a candidate that adds one component, and a
/// second candidate that changes one.
struct Store {
    _temp: tempfile::TempDir,
    root: PathBuf,
    base: String,
    added: String,
    changed: String,
}

impl Store {
    fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("demo/context_bundles");
        let base = bundle(None, vec![component("playbook", "playbook", "a")]);
        let base_digest = base["digest"].as_str().unwrap().to_owned();
        let added = bundle(
            Some(&base_digest),
            vec![
                component("hints", "hints", "h"),
                component("playbook", "playbook", "a"),
            ],
        );
        let changed = bundle(
            Some(&base_digest),
            vec![component("playbook", "playbook", "b")],
        );
        for value in [&base, &added, &changed] {
            let digest = value["digest"].as_str().unwrap();
            write(&root.join(format!("bundles/{digest}.json")), value);
        }
        Store {
            _temp: temp,
            root,
            base: base_digest,
            added: added["digest"].as_str().unwrap().to_owned(),
            changed: changed["digest"].as_str().unwrap().to_owned(),
        }
    }

    fn candidate_file(&self, digest: &str, name: &str) -> PathBuf {
        self.root.join(format!("candidates/{digest}/{name}"))
    }

    fn bundle(&self, digest: &str) -> Value {
        let text = fs::read_to_string(self.root.join(format!("bundles/{digest}.json"))).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    fn trial(&self, seed: u64, lane: &str) -> Value {
        let mut trial = json!({
            "candidate_digest": self.added, "incumbent_digest": self.base,
            "evaluator_epoch": "epoch-1", "cohort": "c", "fixture": format!("f{seed}"),
            "fixture_digest": format!("sha256:f{seed}"), "seed": seed, "lane": lane,
            "candidate_score": 0.7, "incumbent_score": 0.5,
            "candidate_valid": true, "incumbent_valid": true,
        });
        trial["pair_key"] = Value::String(pair_key(&trial).unwrap());
        trial
    }

    fn trials(&self) -> Value {
        json!({
            "schema_version": 2,
            "trials": [self.trial(0, "screen"), self.trial(1, "heldout")],
            "confirmation_policy": policy(),
            "confirmation_policy_digest": sha256_hex(&policy()).unwrap(),
        })
    }

    fn record(&self, digest: &str, lifecycle: &str, decision: Option<&str>) -> Value {
        json!({
            "schema_version": 2, "bundle_digest": digest, "parent_digest": self.base,
            "evaluator_epoch": "epoch-1", "lifecycle": lifecycle,
            "created_at": "now", "updated_at": "now",
            "comparison": decision.map(|decision| json!({"decision": decision})),
            "confirmation_policy": policy(),
            "confirmation_policy_digest": sha256_hex(&policy()).unwrap(),
        })
    }
}

#[test]
fn matched_trials_verify_their_policy_pair_keys_and_binding() {
    let store = Store::new();
    let path = store.candidate_file(&store.added, "matched_trials.json");
    let trials = store.trials();
    write(&path, &trials);
    assert_eq!(rules_at(&path), Vec::<&str>::new());

    assert_eq!(
        rules_after(
            &path,
            &trials,
            |value| value["confirmation_policy"]["min_effect"] = json!(0.5)
        ),
        ["autocontext/trials-policy-digest"]
    );
    assert_eq!(
        rules_after(&path, &trials, |value| value["trials"][0]["pair_key"] =
            Value::String("0".repeat(64))),
        ["autocontext/trial-pair-key"]
    );
    assert_eq!(
        rules_after(&path, &trials, |value| {
            let mut twin = value["trials"][0].clone();
            twin["lane"] = json!("confirmation");
            twin["fixture"] = json!("renamed");
            twin["pair_key"] = Value::Null;
            value["trials"].as_array_mut().unwrap().push(twin);
        }),
        ["autocontext/trial-pair-key"]
    );
    assert_eq!(
        rules_after(
            &path,
            &trials,
            |value| value["trials"][1]["candidate_digest"] = Value::String(store.changed.clone())
        ),
        ["autocontext/trial-binding"]
    );
    assert_eq!(
        rules_after(
            &path,
            &trials,
            |value| value["trials"][1]["incumbent_digest"] = Value::Null
        ),
        ["autocontext/trial-binding"]
    );
    assert_eq!(
        rules_after(&path, &trials, |value| value
            .as_object_mut()
            .unwrap()
            .remove("confirmation_policy")
            .map(drop)
            .unwrap_or_default()),
        ["schema/required"]
    );

    // The record binds the same policy, or the two disagree.
    let record = store.candidate_file(&store.added, "record.json");
    write(&record, &store.record(&store.added, "screened", None));
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    let other = json!({"min_effect": 0.1});
    let mut disagreeing = store.record(&store.added, "screened", None);
    disagreeing["confirmation_policy"] = other.clone();
    disagreeing["confirmation_policy_digest"] = Value::String(sha256_hex(&other).unwrap());
    write(&record, &disagreeing);
    assert_eq!(rules_at(&path), ["autocontext/trials-policy-digest"]);
}

/// Each trial is a unit of the evaluator plan bound beside it, as
/// autocontext's coordinator checks on every resume.
#[test]
fn matched_trials_are_units_of_the_bound_evaluator_plan() {
    let store = Store::new();
    let path = store.candidate_file(&store.added, "matched_trials.json");
    let trials = store.trials();
    write(&path, &trials);
    let mut bound = plan(&store, &store.added);
    bound["plan"]["units"] = json!([
        {"fixture": "f0", "fixture_digest": "sha256:f0", "seed": 0, "lane": "screen"},
        {"fixture": "f1", "fixture_digest": "sha256:f1", "seed": 1, "lane": "heldout"},
    ]);
    with_plan_digest(&mut bound);
    let plan_path = store.candidate_file(&store.added, "evaluator_plan.json");
    write(&plan_path, &bound);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    assert_eq!(rules_at(&plan_path), Vec::<&str>::new());

    let resealed = |change: fn(&mut Value)| {
        move |value: &mut Value| {
            change(&mut value["trials"][1]);
            value["trials"][1]["pair_key"] = json!(pair_key(&value["trials"][1]).unwrap());
        }
    };
    let rule = "autocontext/trials-plan";
    // A seed moved, or a pair on a fixture the plan never named, the pair
    // key recomputed.
    let found = diagnostics_after(&path, &trials, resealed(|trial| trial["seed"] = json!(2)));
    assert_eq!(
        found,
        [(
            rule.to_owned(),
            "trial 1 (fixture_digest \"sha256:f1\", seed 2) is no unit of the evaluator plan \
             bound in evaluator_plan.json: autocontext evaluates only the units its plan names"
                .to_owned()
        )]
    );
    assert_eq!(
        rules_after(
            &path,
            &trials,
            resealed(|trial| trial["fixture_digest"] = json!("sha256:f9"))
        ),
        [rule]
    );
    // The planned unit in another lane, under another name or cohort.
    let found = diagnostics_after(
        &path,
        &trials,
        resealed(|trial| trial["lane"] = json!("confirmation")),
    );
    assert_eq!(
        found,
        [(
            rule.to_owned(),
            "trial 1 has lane \"confirmation\", but the evaluator plan's unit of its \
             fixture_digest and seed has \"heldout\""
                .to_owned()
        )]
    );
    assert_eq!(
        rules_after(
            &path,
            &trials,
            resealed(|trial| trial["fixture"] = json!("f9"))
        ),
        [rule]
    );
    assert_eq!(
        rules_after(
            &path,
            &trials,
            resealed(|trial| trial["cohort"] = json!("d"))
        ),
        [rule]
    );
    // A seed written 1.0 is the planned 1, as Python's dict finds it.
    assert_eq!(
        rules_after(&path, &trials, resealed(|trial| trial["seed"] = json!(1.0))),
        Vec::<&str>::new()
    );
    // The plan is the one bound: its own units, not what another candidate
    // planned; without a plan there is nothing to compare.
    let mut moved = bound.clone();
    moved["plan"]["units"][1]["seed"] = json!(2);
    with_plan_digest(&mut moved);
    write(&plan_path, &moved);
    assert_eq!(rules_at(&path), [rule]);
    // A plan whose digest does not verify is not read, as autocontext
    // reads none: its own line says why.
    moved["plan_digest"] = json!("0".repeat(64));
    write(&plan_path, &moved);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    fs::remove_file(&plan_path).unwrap();
    assert_eq!(
        rules_after(&path, &trials, resealed(|trial| trial["seed"] = json!(2))),
        Vec::<&str>::new()
    );
}

#[test]
fn a_legacy_array_of_trials_takes_the_legacy_pair_key_too() {
    let store = Store::new();
    let mut legacy = store.trial(0, "screen");
    let legacy_key = sha256_hex(&json!({
        "evaluator_epoch": "epoch-1", "cohort": "c", "fixture": "f0",
        "fixture_digest": "sha256:f0", "seed": 0, "lane": "screen",
    }))
    .unwrap();
    legacy["pair_key"] = Value::String(legacy_key);
    let path = store.candidate_file(&store.added, "matched_trials.json");
    write(&path, &json!([legacy, store.trial(1, "heldout")]));
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    write(
        &path,
        &json!([store.trial(0, "screen"), store.trial(0, "heldout")]),
    );
    assert_eq!(rules_at(&path), ["autocontext/trial-pair-key"]);

    // Only a store's matched_trials.json may be an array.
    let record = store.candidate_file(&store.added, "record.json");
    write(&record, &json!([store.trial(0, "screen")]));
    assert_eq!(rules_at(&record), ["yaml/root-not-mapping"]);
}

#[test]
fn the_pair_key_names_the_evaluation_unit_not_its_labels() {
    let store = Store::new();
    let mut relabelled = store.trial(0, "screen");
    relabelled["lane"] = json!("heldout");
    relabelled["fixture"] = json!("other name");
    assert_eq!(
        pair_key(&relabelled).unwrap(),
        pair_key(&store.trial(0, "screen")).unwrap()
    );
    assert_ne!(
        pair_key(&store.trial(1, "screen")).unwrap(),
        pair_key(&store.trial(0, "screen")).unwrap()
    );
}

fn plan(store: &Store, candidate: &str) -> Value {
    let plan = json!({
        "schema_version": 1, "scenario": "demo", "evaluator_epoch": "epoch-1",
        "candidate_digest": candidate, "incumbent_digest": store.base, "cohort": "c",
        "confirmation_policy": policy(),
        "confirmation_policy_digest": sha256_hex(&policy()).unwrap(),
        "units": [{"fixture": "f0", "fixture_digest": "sha256:f0", "seed": 0, "lane": "screen"}],
        "candidate_evaluator": {"bundle_digest": candidate},
        "incumbent_evaluator": {"bundle_digest": store.base},
    });
    json!({"plan_digest": sha256_hex(&plan).unwrap(), "plan": plan})
}

fn with_plan_digest(value: &mut Value) {
    value["plan_digest"] = Value::String(sha256_hex(&value["plan"]).unwrap());
}

#[test]
fn an_evaluator_plan_verifies_its_digest_and_binding() {
    let store = Store::new();
    let path = store.candidate_file(&store.added, "evaluator_plan.json");
    let artifact = plan(&store, &store.added);
    write(&path, &artifact);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    assert_eq!(
        rules_after(&path, &artifact, |value| value["plan"]["cohort"] =
            json!("d")),
        ["autocontext/plan-digest"]
    );
    assert_eq!(
        rules_after(&path, &artifact, |value| {
            value["plan"]["incumbent_digest"] = Value::String(store.changed.clone());
            with_plan_digest(value);
        }),
        ["autocontext/plan-binding"]
    );
    assert_eq!(
        rules_after(&path, &artifact, |value| {
            value["plan"]["confirmation_policy"]["min_effect"] = json!(0.5);
            with_plan_digest(value);
        }),
        ["autocontext/plan-binding"]
    );
    let elsewhere = store.candidate_file(&store.changed, "evaluator_plan.json");
    write(&elsewhere, &artifact);
    assert_eq!(rules_at(&elsewhere), ["autocontext/plan-binding"]);
}

/// A file in a candidate folder whose name is no digest, or whose digest
/// names no stored bundle, is bound to no candidate, and says why.
#[test]
fn a_file_of_a_folder_that_is_no_candidate_says_why() {
    let store = Store::new();
    let artifact = plan(&store, &store.added);
    let unnamed = store.candidate_file("not-a-digest", "evaluator_plan.json");
    write(&unnamed, &artifact);
    assert_eq!(
        diagnostics_after(&unnamed, &artifact, |_| {}),
        [(
            "autocontext/plan-binding".to_owned(),
            "the candidate folder \"not-a-digest\" is not named by a digest (64 lowercase hex)"
                .to_owned()
        )]
    );
    let digest = "0".repeat(64);
    let unbundled = store.candidate_file(&digest, "evaluator_plan.json");
    write(&unbundled, &artifact);
    assert_eq!(
        diagnostics_after(&unbundled, &artifact, |_| {}),
        [(
            "autocontext/plan-binding".to_owned(),
            format!(
                "the candidate has no stored bundle: bundles/{digest}.json: no such file or \
                 directory"
            )
        )]
    );
}

fn attribution(store: &Store) -> Value {
    scored_attribution(store, json!(0.7), json!(0.5), json!(0.2))
}

/// The attribution of the added component on the held-out trial scored
/// `with` and `without` it, whose effect is `effect`.
fn scored_attribution(store: &Store, with: Value, without: Value, effect: Value) -> Value {
    let tested = store.bundle(&store.added);
    let comparison = store.bundle(&store.base);
    let diff = manifest::manifest_diff(&tested, &comparison).unwrap();
    let hints = &tested["components"][0];
    let held_out = pair_key(&store.trial(1, "heldout")).unwrap();
    let trial = json!({
        "trial_id": held_out, "component_kind": "hints", "component_key": "hints",
        "component_digest": hints["digest"], "tested_bundle_digest": store.added,
        "comparison_bundle_digest": store.base, "evaluator_epoch": "epoch-1",
        "trial_cohort": "c", "fixture_digest": "sha256:f1", "seed": 1,
        "evidence_level": "causal_ablation", "with_component_score": with,
        "without_component_score": without, "token_cost": 1, "tested_at": "evaluator:epoch-1",
        "interaction_component_digests": [],
    });
    let pair = sha256_hex(&json!({
        "component_kind": "hints", "component_key": "hints",
        "component_digest": hints["digest"], "tested_bundle_digest": store.added,
        "comparison_bundle_digest": store.base, "evaluator_epoch": "epoch-1",
        "trial_cohort": "c", "fixture_digest": "sha256:f1", "seed": 1,
    }))
    .unwrap();
    let source = sha256_hex(&trial).unwrap();
    let id = sha256_hex(&json!({
        "component_kind": "hints", "component_key": "hints",
        "component_digest": hints["digest"], "tested_bundle_digest": store.added,
        "comparison_bundle_digest": store.base, "evaluator_epoch": "epoch-1",
        "trial_cohort": "c", "evidence_level": "causal_ablation",
        "classification_neutral_effect": 0.0, "classification_high_token_cost": 256,
        "trial_ids": [held_out], "matched_pair_keys": [pair], "source_trial_digests": [source],
    }))
    .unwrap();
    json!({
        "schema_version": 1,
        "candidate_digest": store.added,
        "comparison_digest": store.base,
        "manifest_diff": diff,
        "source_trials": [trial],
        "attributions": [{
            "attribution": {
                "attribution_id": id, "component_kind": "hints", "component_key": "hints",
                "component_digest": hints["digest"], "evidence_level": "causal_ablation",
                "effect": effect, "confidence": 0.25, "evaluator_epoch": "epoch-1",
                "trial_cohort": "c", "token_cost": 1,
                "last_tested_bundle_digest": store.added, "comparison_bundle_digest": store.base,
                "tested_at": "evaluator:epoch-1", "disposition": "retained",
                "classification_neutral_effect": 0.0, "classification_high_token_cost": 256,
                "trial_ids": [held_out], "matched_pair_keys": [pair], "source_trial_digests": [source],
                "interaction_component_digests": [], "supersedes_attribution_id": null,
                "legacy_unverified": false,
            },
            "manifest_diff_digest": diff["digest"],
            "trial_ids": [held_out],
        }],
    })
}

#[test]
fn a_causal_attribution_verifies_its_digests_beside_one_pure_addition_only() {
    let store = Store::new();
    let path = store.candidate_file(&store.added, "causal_attribution.json");
    let artifact = attribution(&store);
    write(&path, &artifact);
    let trials = store.candidate_file(&store.added, "matched_trials.json");
    write(&trials, &store.trials());
    assert_eq!(rules_at(&path), Vec::<&str>::new());

    // Each source trial is a held-out matched trial, with its scores.
    let mut screened = store.trials();
    screened["trials"][1]["lane"] = json!("screen");
    write(&trials, &screened);
    assert_eq!(rules_at(&path), ["autocontext/attribution-digest"]);
    write(&trials, &store.trials());
    assert_eq!(
        rules_after(
            &path,
            &artifact,
            |value| value["source_trials"][0]["with_component_score"] = json!(0.9)
        ),
        // The source trial's own digest changes with it, and the effect
        // it gives.
        [
            "autocontext/attribution-digest",
            "autocontext/attribution-recomputed",
            "autocontext/attribution-digest"
        ]
    );

    assert_eq!(
        rules_after(
            &path,
            &artifact,
            |value| value["attributions"][0]["attribution"]["trial_cohort"] = json!("d")
        ),
        // The id binds it, and its source trials are of another cohort.
        [
            "autocontext/attribution-digest",
            "autocontext/attribution-recomputed"
        ]
    );
    assert_eq!(
        rules_after(
            &path,
            &artifact,
            |value| value["source_trials"][0]["seed"] = json!(2)
        ),
        [
            "autocontext/attribution-digest",
            "autocontext/attribution-digest",
            "autocontext/attribution-digest"
        ]
    );
    assert_eq!(
        rules_after(
            &path,
            &artifact,
            |value| value["attributions"][0]["manifest_diff_digest"] =
                Value::String("0".repeat(64))
        ),
        ["autocontext/attribution-digest"]
    );
    assert_eq!(
        rules_after(&path, &artifact, |value| value["comparison_digest"] =
            Value::String(store.changed.clone())),
        ["autocontext/attribution-digest"]
    );
    assert_eq!(
        rules_after(&path, &artifact, |value| value["manifest_diff"]["digest"] =
            Value::String("0".repeat(64))),
        [
            "autocontext/attribution-digest",
            "autocontext/attribution-digest",
            "autocontext/attribution-diff"
        ]
    );

    // Its figures are recomputed from its source trials.
    for (field, edited) in [
        ("effect", json!(0.3)),
        ("confidence", json!(1.0)),
        ("disposition", json!("harmful")),
        ("token_cost", json!(2)),
        ("tested_at", json!("evaluator:epoch-2")),
        ("interaction_component_digests", json!(["sha256:other"])),
    ] {
        let found = diagnostics_after(&path, &artifact, |value| {
            value["attributions"][0]["attribution"][field] = edited.clone();
        });
        assert_eq!(
            found
                .iter()
                .map(|(rule, _)| rule.as_str())
                .collect::<Vec<_>>(),
            ["autocontext/attribution-recomputed"],
            "{field}"
        );
        assert!(
            found[0].1.starts_with(&format!("{field} is ")),
            "{field}: {}",
            found[0].1
        );
    }
    let found = diagnostics_after(&path, &artifact, |value| {
        value["attributions"][0]["attribution"]["effect"] = json!(0.25);
    });
    assert_eq!(
        found[0].1,
        "effect is 0.25, recomputed 0.2 from its source trials"
    );
    // A stricter classification policy that changes the disposition is
    // bound by the id; the disposition it gives is recomputed.
    assert_eq!(
        rules_after(&path, &artifact, |value| {
            value["attributions"][0]["attribution"]["classification_neutral_effect"] = json!(0.5);
        }),
        [
            "autocontext/attribution-digest",
            "autocontext/attribution-recomputed"
        ]
    );

    // Beside a candidate whose diff changes a component, it is refused.
    let elsewhere = store.candidate_file(&store.changed, "causal_attribution.json");
    write(&elsewhere, &artifact);
    let found = rules_at(&elsewhere);
    assert!(found.contains(&"autocontext/attribution-diff"), "{found:?}");
}

/// An evaluator that scores with the integers 1 and 0: autocontext keeps
/// `1` in the matched trials and writes `1.0` in the attribution (a
/// pydantic float). Python's `==` takes them for one number and their
/// canonical texts, so every digest, agree; numi compares them so too.
#[test]
fn integer_scores_are_the_attributions_floats() {
    let store = Store::new();
    assert_eq!(
        sha256_hex(&json!({"score": 1.0})).unwrap(),
        sha256_hex(&json!({"score": 1})).unwrap()
    );
    let trials_path = store.candidate_file(&store.added, "matched_trials.json");
    let mut trials = store.trials();
    for trial in trials["trials"].as_array_mut().unwrap() {
        trial["candidate_score"] = json!(1);
        trial["incumbent_score"] = json!(0);
    }
    write(&trials_path, &trials);
    let path = store.candidate_file(&store.added, "causal_attribution.json");
    let floats = scored_attribution(&store, json!(1.0), json!(0.0), json!(1.0));
    assert!(floats["source_trials"][0]["with_component_score"].is_f64());
    write(&path, &floats);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    // Written as integers, it is the same attribution.
    write(
        &path,
        &scored_attribution(&store, json!(1), json!(0), json!(1)),
    );
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    // Another value is refused, as written or as a float.
    for score in [json!(0), json!(0.0)] {
        trials["trials"][1]["candidate_score"] = score;
        write(&trials_path, &trials);
        let found = diagnostics_after(&path, &floats, |_| {});
        assert_eq!(
            found,
            [(
                "autocontext/attribution-digest".to_owned(),
                "source trial 0: with_component_score is not the matched trial's \
                 candidate_score"
                    .to_owned()
            )]
        );
    }
}

#[test]
fn a_pure_addition_is_one_change_the_comparison_lacks() {
    let store = Store::new();
    let added =
        manifest::manifest_diff(&store.bundle(&store.added), &store.bundle(&store.base)).unwrap();
    assert_eq!(pure_addition_problem(&added), None);
    let changed =
        manifest::manifest_diff(&store.bundle(&store.changed), &store.bundle(&store.base)).unwrap();
    assert!(pure_addition_problem(&changed).is_some());
    let removed =
        manifest::manifest_diff(&store.bundle(&store.base), &store.bundle(&store.added)).unwrap();
    assert!(pure_addition_problem(&removed).is_some());
    let none =
        manifest::manifest_diff(&store.bundle(&store.base), &store.bundle(&store.base)).unwrap();
    assert!(pure_addition_problem(&none).is_some());
}

/// autocontext's causal-attribution parity fixture holds one pure addition.
#[test]
fn the_causal_attribution_parity_fixture_is_one_pure_addition() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/autocontext/fixtures/causal-attribution-manifest-parity.json");
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("the parity fixture is missing: {}", path.display()));
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let diff = &fixture["manifest_diff"];
    assert_eq!(pure_addition_problem(diff), None);
    assert_eq!(
        manifest::diff_digest(diff).unwrap(),
        diff["digest"].as_str().unwrap()
    );
}

/// The reason of the comparison the negative-result tests end with.
const SCREEN_FAILED: &str = "candidate failed the cheap matched screen";

/// A record's comparison, as `ComparisonResult.to_dict()` writes it.
fn ended_comparison(decision: &str, reason: &str, mean_effect: Value) -> Value {
    json!({"decision": decision, "reason": reason, "screen_pairs": 1, "confirmation_pairs": 0,
           "heldout_pairs": 0, "mean_effect": mean_effect, "confidence_low": null,
           "confidence_high": null})
}

/// The candidate's record, `lifecycle`, holding `comparison`.
fn ended_record(store: &Store, candidate: &str, lifecycle: &str, comparison: Value) -> Value {
    let mut record = store.record(candidate, lifecycle, None);
    record["comparison"] = comparison;
    record
}

/// The ledger `_persist_negative_result` writes for a candidate of the test
/// store (trials with seeds 0 and 1, cohort "c", created "now") whose
/// evaluation ended as `identity` says, with `failure_kind` and `reason`.
fn ledger_ending(
    store: &Store,
    candidate: &str,
    identity: &str,
    failure_kind: &str,
    reason: &str,
) -> Value {
    let trials = fs::read_to_string(store.candidate_file(candidate, "matched_trials.json"))
        .map(|text| serde_json::from_str::<Value>(&text).unwrap())
        .unwrap();
    let plan_digest = plan(store, candidate)["plan_digest"].clone();
    let folder = format!("demo/context_bundles/candidates/{candidate}");
    let result_id = format!("context-bundle-{candidate}-{identity}");
    json!({
        "schema_version": 2,
        "run_id": format!("context-bundle:{candidate}"),
        "generated_at": "now",
        "entries": [{
            "result_id": result_id,
            "branch_id": candidate,
            "hypothesis_node_id": null,
            "occurred_at": "now",
            "failure_kind": failure_kind,
            "disposition": "caution",
            "reason": reason,
            "score_delta": -0.4,
            "evaluated_seeds": ["0", "1"],
            "evaluated_probes": ["f0", "f1"],
            "branch_lineage": [],
            "generation_index": null,
            "applicability_scope": "exact_bundle",
            "evidence_expires_at": null,
            "safety_policy_authority": null,
            "retest_of_result_id": null,
            "retest_outcome": null,
            "superseded_by_result_id": null,
            "context": {"scenario_name": "demo", "context_bundle_digest": candidate,
                        "context_bundle_family": null, "evaluator_epoch": "epoch-1",
                        "verifier_digest": null, "trial_cohort": "c",
                        "component_dependencies": [], "environment_fingerprint": null},
            "evidence_refs": [
                {"uri": format!("{folder}/matched_trials.json#sha256={}",
                                sha256_hex(&trials).unwrap()),
                 "summary": format!("Persisted matched candidate/incumbent evaluation pairs; \
                                     confirmation_policy_sha256={}.",
                                    trials["confirmation_policy_digest"].as_str().unwrap())},
                {"uri": format!("{folder}/evaluator_plan.json#sha256={}",
                                plan_digest.as_str().unwrap()),
                 "summary": "Immutable score, validity, routing, executor, and fixture plan."},
            ],
        }],
        "failure_mode_summary": [{"failure_kind": failure_kind, "disposition": "caution",
                                  "count": 1, "result_ids": [result_id]}],
    })
}

/// The ledger of a candidate whose screen failed.
fn ledger(store: &Store, candidate: &str) -> Value {
    ledger_ending(
        store,
        candidate,
        "rejected",
        "score_regression",
        SCREEN_FAILED,
    )
}

/// The test store with the added candidate's trials and plan, and its
/// record rejected on `SCREEN_FAILED` with a mean effect of -0.4.
fn screened_out(store: &Store) -> PathBuf {
    let candidate = &store.added;
    write(
        &store.candidate_file(candidate, "matched_trials.json"),
        &store.trials(),
    );
    write(
        &store.candidate_file(candidate, "evaluator_plan.json"),
        &plan(store, candidate),
    );
    write(
        &store.candidate_file(candidate, "record.json"),
        &ended_record(
            store,
            candidate,
            "rejected",
            ended_comparison("rejected", SCREEN_FAILED, json!(-0.4)),
        ),
    );
    store.candidate_file(candidate, "negative_result.json")
}

/// The ledger is read whole as autocontext's strict model reads it: every
/// field's type and literal values (the schema), unique result ids and
/// integers without a fraction (a rule).
#[test]
fn a_negative_result_is_read_as_autocontexts_model_reads_it() {
    let store = Store::new();
    let path = screened_out(&store);
    let artifact = ledger(&store, &store.added);
    write(&path, &artifact);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    // The model takes what its optional fields may hold; the ledger
    // autocontext writes for a candidate holds none of it, which the
    // recomputation says. An omitted generation_index is the model's None.
    let recomputed = ["autocontext/negative-result-recomputed"];
    for change in [
        (|value: &mut Value| value["entries"][0]["generation_index"] = json!(3)) as fn(&mut Value),
        |value| value["entries"][0]["retest_outcome"] = json!("not_reproduced"),
        |value| {
            value["entries"][0]["branch_lineage"] = json!([
                {"parent_branch_id": "a", "child_branch_id": "b", "event_id": null}
            ])
        },
    ] {
        assert_eq!(rules_after(&path, &artifact, change), recomputed);
    }
    assert_eq!(
        rules_after(&path, &artifact, |value| {
            value["entries"][0]
                .as_object_mut()
                .unwrap()
                .remove("generation_index");
        }),
        Vec::<&str>::new()
    );

    let schema_refuses = |change: fn(&mut Value)| {
        let found = rules_after(&path, &artifact, change);
        assert!(
            !found.is_empty() && found.iter().all(|rule| rule.starts_with("schema/")),
            "{found:?}"
        );
    };
    schema_refuses(|value| value["entries"][0]["failure_kind"] = json!("regressed"));
    schema_refuses(|value| value["entries"][0]["disposition"] = json!("ban"));
    schema_refuses(|value| value["entries"][0]["applicability_scope"] = json!("global"));
    schema_refuses(|value| value["entries"][0]["retest_outcome"] = json!("passed"));
    schema_refuses(|value| value["failure_mode_summary"][0]["failure_kind"] = json!("x"));
    schema_refuses(|value| value["entries"][0]["reason"] = json!(""));
    schema_refuses(|value| value["entries"][0]["score_delta"] = json!("-0.4"));
    schema_refuses(|value| value["entries"][0]["generation_index"] = json!(-1));
    schema_refuses(|value| value["entries"][0]["evaluated_seeds"] = json!([0]));
    schema_refuses(|value| value["entries"][0]["evidence_refs"][0]["summary"] = json!(""));
    schema_refuses(|value| value["entries"][0]["context"]["extra"] = json!(1));
    schema_refuses(|value| {
        value["entries"][0]
            .as_object_mut()
            .unwrap()
            .remove("occurred_at");
    });
    schema_refuses(|value| value["generated_at"] = Value::Null);

    // An entry listed twice is refused by the model; autocontext writes one
    // entry for a candidate, so a second one of its own id, which the model
    // takes, is refused by the recomputation (with the summary that no
    // longer counts the entries).
    let entries = "autocontext/negative-result-entries";
    let recomputed = "autocontext/negative-result-recomputed";
    assert_eq!(
        rules_after(&path, &artifact, |value| {
            let entry = value["entries"][0].clone();
            value["entries"].as_array_mut().unwrap().push(entry);
        }),
        [entries, recomputed, recomputed]
    );
    assert_eq!(
        rules_after(&path, &artifact, |value| {
            let mut entry = value["entries"][0].clone();
            entry["result_id"] = json!("r2");
            value["entries"].as_array_mut().unwrap().push(entry);
        }),
        [recomputed, recomputed]
    );
    // A count written 1.0 is the model's refusal alone: Python's == takes
    // it for the 1 the entries give.
    assert_eq!(
        rules_after(&path, &artifact, |value| value["failure_mode_summary"][0]
            ["count"] = json!(1.0)),
        [entries]
    );
    assert_eq!(
        rules_after(
            &path,
            &artifact,
            |value| value["entries"][0]["generation_index"] = json!(1.0)
        ),
        [entries, recomputed]
    );
}

#[test]
fn a_negative_result_stands_beside_a_rejected_or_inconclusive_candidate_only() {
    let store = Store::new();
    let candidate = &store.added;
    let path = screened_out(&store);
    let record = store.candidate_file(candidate, "record.json");
    let artifact = ledger(&store, candidate);
    for (lifecycle, decision, kind) in [
        ("rejected", "rejected", "score_regression"),
        ("screened", "inconclusive", "verification_failed"),
    ] {
        let comparison = ended_comparison(decision, SCREEN_FAILED, json!(-0.4));
        write(
            &record,
            &ended_record(&store, candidate, lifecycle, comparison),
        );
        write(
            &path,
            &ledger_ending(&store, candidate, decision, kind, SCREEN_FAILED),
        );
        assert_eq!(rules_at(&path), Vec::<&str>::new(), "{lifecycle}");
    }
    write(&path, &artifact);
    for (lifecycle, decision) in [("confirmed", Some("confirmed")), ("proposed", None)] {
        write(&record, &store.record(candidate, lifecycle, decision));
        assert_eq!(
            rules_at(&path),
            ["autocontext/negative-result-lifecycle"],
            "{lifecycle}"
        );
    }
    assert!(allows_negative_result(&json!({"lifecycle": "rejected"})));
    assert!(!allows_negative_result(
        &json!({"lifecycle": "screened", "comparison": {"decision": "needs_heldout"}})
    ));

    screened_out(&store);
    assert_eq!(
        rules_after(&path, &artifact, |value| value["run_id"] =
            json!("context-bundle:x")),
        ["autocontext/negative-result-binding"]
    );
    assert_eq!(
        rules_after(
            &path,
            &artifact,
            |value| value["entries"][0]["context"]["evaluator_epoch"] = json!("epoch-2")
        ),
        ["autocontext/negative-result-binding"]
    );
    assert_eq!(
        rules_after(&path, &artifact, |value| {
            let uri = value["entries"][0]["evidence_refs"][1]["uri"]
                .as_str()
                .unwrap()
                .to_owned();
            let (path, _) = uri.split_once("#sha256=").unwrap();
            value["entries"][0]["evidence_refs"][1]["uri"] =
                Value::String(format!("{path}#sha256={}", "0".repeat(64)));
        }),
        ["autocontext/negative-result-binding"]
    );
    // A reference to another candidate's evidence is named, never opened.
    assert_eq!(
        rules_after(
            &path,
            &artifact,
            |value| value["entries"][0]["evidence_refs"][0]["uri"] = json!(format!(
                "demo/context_bundles/candidates/{}/matched_trials.json#sha256=00",
                store.changed
            ))
        ),
        ["autocontext/negative-result-binding"]
    );
    // Changed evidence no longer has the digest the ledger names, nor the
    // seeds and probes it lists.
    let mut trials = store.trials();
    trials["trials"].as_array_mut().unwrap().pop();
    write(
        &store.candidate_file(candidate, "matched_trials.json"),
        &trials,
    );
    assert_eq!(
        rules_at(&path),
        [
            "autocontext/negative-result-binding",
            "autocontext/negative-result-recomputed",
            "autocontext/negative-result-recomputed"
        ]
    );
}

/// The messages of the recomputation's findings on `path` after `change`.
fn recomputed_after(path: &Path, value: &Value, change: impl FnOnce(&mut Value)) -> Vec<String> {
    diagnostics_after(path, value, change)
        .into_iter()
        .map(|(rule, message)| {
            assert_eq!(rule, "autocontext/negative-result-recomputed", "{message}");
            message
        })
        .collect()
}

/// Every field autocontext derives is recomputed from the store, and a
/// disagreement names the field, the value written and the recomputed one.
#[test]
fn a_negative_result_is_the_ledger_autocontext_writes_from_the_store() {
    let store = Store::new();
    let candidate = &store.added;
    let path = screened_out(&store);
    let record = store.candidate_file(candidate, "record.json");
    let artifact = ledger(&store, candidate);
    write(&path, &artifact);
    assert_eq!(rules_at(&path), Vec::<&str>::new());

    for (change, message) in [
        (
            (|value: &mut Value| value["entries"][0]["score_delta"] = json!(-0.3))
                as fn(&mut Value),
            "entries[0].score_delta is -0.3, but -0.4 is given by the record's comparison \
             (mean_effect to six decimals)",
        ),
        (
            |value| value["entries"][0]["evaluated_seeds"] = json!(["1", "0"]),
            "entries[0].evaluated_seeds[0] is \"1\", but \"0\" is given by matched_trials.json's \
             trials, in their order",
        ),
        (
            |value| value["entries"][0]["evaluated_probes"] = json!(["f0"]),
            "entries[0].evaluated_probes holds 1 items, but 2 are given by matched_trials.json's \
             trials, in their order",
        ),
        (
            |value| value["entries"][0]["reason"] = json!("worse"),
            "entries[0].reason is \"worse\", but \"candidate failed the cheap matched screen\" is \
             given by the record's comparison",
        ),
        (
            |value| value["entries"][0]["context"]["trial_cohort"] = json!("d"),
            "entries[0].context.trial_cohort is \"d\", but \"c\" is given by evaluator_plan.json's \
             cohort",
        ),
        (
            |value| value["generated_at"] = json!("later"),
            "generated_at is \"later\", but \"now\" is given by the record's created_at",
        ),
        (
            |value| value["entries"][0]["occurred_at"] = json!("later"),
            "entries[0].occurred_at is \"later\", but \"now\" is given by the record's created_at",
        ),
        (
            |value| {
                value["entries"][0]["disposition"] = json!("hard_ban");
                value["failure_mode_summary"][0]["disposition"] = json!("hard_ban");
            },
            "entries[0].disposition is \"hard_ban\", but \"caution\" is given by \
             _persist_negative_result",
        ),
        (
            |value| value["failure_mode_summary"][0]["count"] = json!(2),
            "failure_mode_summary[0].count is 2, but 1 is given by the entries, as \
             _failure_mode_summary groups them",
        ),
        (
            |value| value["entries"][0]["evidence_refs"][1]["summary"] = json!("The plan."),
            "entries[0].evidence_refs[1].summary is \"The plan.\", but \"Immutable score, \
             validity, routing, executor, and fixture plan.… is given by _persist_negative_result",
        ),
        (
            |value| {
                let summary = value["entries"][0]["evidence_refs"][0]["summary"]
                    .as_str()
                    .unwrap()
                    .replace(&sha256_hex(&policy()).unwrap(), &"0".repeat(64));
                value["entries"][0]["evidence_refs"][0]["summary"] = json!(summary);
            },
            "entries[0].evidence_refs[0].summary is \"…n_policy_sha256=000000000000….\", but \
             \"…n_policy_sha256=ef91931d655b….\" is given by the policy digest of \
             matched_trials.json",
        ),
        (
            |value| {
                let reference = json!({"uri": "/a.json#sha256=1", "summary": "s"});
                value["entries"][0]["evidence_refs"]
                    .as_array_mut()
                    .unwrap()
                    .insert(1, reference);
            },
            "entries[0].evidence_refs holds 3 references, but autocontext references the matched \
             trials and the evaluator plan",
        ),
    ] {
        assert_eq!(recomputed_after(&path, &artifact, change), [message]);
    }
    // The result id and failure kind follow the decision.
    let found = recomputed_after(&path, &artifact, |value| {
        value["entries"][0]["failure_kind"] = json!("verification_failed");
        value["failure_mode_summary"][0]["failure_kind"] = json!("verification_failed");
        value["entries"][0]["result_id"] = json!("r1");
        value["failure_mode_summary"][0]["result_ids"] = json!(["r1"]);
    });
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        found[0],
        format!(
            "entries[0].result_id is \"r1\", but \"context-bundle-{}…-rejected\" is given by the \
             record's rejected comparison",
            &candidate[..12]
        )
    );
    assert!(found[1].starts_with("entries[0].failure_kind is \"verification_failed\", but"));

    // The score delta is the mean effect to six decimals (ties away from
    // zero), compared as Python compares numbers; a null mean stays null.
    let rejected_with = |reason: &str, mean_effect: Value| {
        let comparison = ended_comparison("rejected", reason, mean_effect);
        write(
            &record,
            &ended_record(&store, candidate, "rejected", comparison),
        );
    };
    for (mean, written) in [
        (json!(-0.40000049999), json!(-0.4)),
        (json!(-0.0000005), json!(-0.000001)),
        (json!(-1.0), json!(-1)),
        (Value::Null, Value::Null),
    ] {
        rejected_with(SCREEN_FAILED, mean.clone());
        let mut changed = artifact.clone();
        changed["entries"][0]["score_delta"] = written;
        write(&path, &changed);
        assert_eq!(rules_at(&path), Vec::<&str>::new(), "{mean}");
    }
    rejected_with(SCREEN_FAILED, json!(-0.4000005));
    write(&path, &artifact);
    assert_eq!(
        recomputed_after(&path, &artifact, |_| {}),
        [
            "entries[0].score_delta is -0.4, but -0.400001 is given by the record's comparison \
          (mean_effect to six decimals)"
        ]
    );

    // A rejection that names validity is a verification failure.
    let invalid = "candidate validity failed";
    rejected_with(invalid, json!(-0.4));
    let verification = ledger_ending(
        &store,
        candidate,
        "rejected",
        "verification_failed",
        invalid,
    );
    write(&path, &verification);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    let score = ledger_ending(&store, candidate, "rejected", "score_regression", invalid);
    write(&path, &score);
    assert_eq!(rules_at(&path), ["autocontext/negative-result-recomputed",]);

    // A rejected record without a comparison was never evaluated:
    // autocontext writes no ledger for it.
    write(&record, &store.record(candidate, "rejected", None));
    write(&path, &artifact);
    assert_eq!(
        recomputed_after(&path, &artifact, |_| {}),
        [
            "the candidate's record.json holds no comparison, and autocontext writes a negative \
          result only from the comparison that ended an evaluation"
        ]
    );
}

/// A confirmed candidate's ledger: stale, with its marker's reason;
/// otherwise blocked by its false-promotion gate, with the reason of its
/// reservation in the store's campaign, else the record's rationale.
#[test]
fn a_confirmed_candidates_negative_result_is_stale_or_blocked() {
    let store = Store::new();
    let candidate = &store.added;
    let path = screened_out(&store);
    let passed = "matched confirmation and held-out lanes passed";
    let mut record = ended_record(
        &store,
        candidate,
        "rejected",
        ended_comparison("confirmed", passed, json!(-0.4)),
    );
    let record_path = store.candidate_file(candidate, "record.json");
    write(&record_path, &record);

    let stale = format!(
        "confirmed candidate incumbent {} is stale; active bundle is {}",
        store.base, store.changed
    );
    let marker = store.candidate_file(candidate, "stale_terminalization.json");
    write(
        &marker,
        &json!({"schema_version": 1, "observed_active_digest": store.changed, "reason": stale}),
    );
    let artifact = ledger_ending(
        &store,
        candidate,
        "stale-incumbent",
        "verification_failed",
        &stale,
    );
    write(&path, &artifact);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    let found = recomputed_after(&path, &artifact, |value| {
        value["entries"][0]["reason"] = json!(passed);
    });
    assert_eq!(
        found,
        [format!(
            "entries[0].reason is \"{passed}\", but \"confirmed candidate incumbent {}… is \
             stale; active bu… is given by the candidate's stale marker",
            &store.base[..12]
        )]
    );
    // A marker whose reason is not the one its parent and observed bundle
    // give is the marker's own finding: the ledger is taken with either,
    // so that one edit of the marker is refused on the marker alone.
    write(
        &marker,
        &json!({"schema_version": 1, "observed_active_digest": store.changed, "reason": "said"}),
    );
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    assert_eq!(
        recomputed_after(&path, &artifact, |value| value["entries"][0]["reason"] =
            json!("said")),
        Vec::<String>::new()
    );
    assert_eq!(
        recomputed_after(&path, &artifact, |value| value["entries"][0]["reason"] =
            json!(passed))
        .len(),
        1
    );
    // A stale candidate's campaign, if it had one, is not in the store: its
    // reservation may be referenced or not.
    let mut referenced = artifact.clone();
    with_reservation(
        &mut referenced,
        json!({"uri": "/a.json#sha256=1", "summary": "s"}),
    );
    write(&path, &referenced);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    // A campaign of the store holds the stale candidate: it rejected its
    // reservation, which the ledger must reference.
    let campaign = store.root.join("promotion-risk/run-1/false-promotion.json");
    write(
        &campaign,
        &json!({"reservations": [{"candidate_digest": candidate, "status": "rejected",
                                  "reason": stale, "allocated_alpha": 0.5,
                                  "evidence_digest": "e1"}]}),
    );
    write(&path, &artifact);
    assert_eq!(
        recomputed_after(&path, &artifact, |_| {}),
        [
            "entries[0].evidence_refs holds 2 references, but autocontext references the matched \
          trials, the campaign's reservation and the evaluator plan"
        ]
    );
    fs::remove_file(&campaign).unwrap();
    // Without its marker, a confirmed candidate was blocked, and its ledger
    // references its campaign's reservation.
    fs::remove_file(&marker).unwrap();
    let found = recomputed_after(&path, &artifact, |_| {});
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        found[0],
        "entries[0].evidence_refs holds 2 references, but autocontext references the matched \
         trials, the campaign's reservation and the evaluator plan"
    );
    assert!(
        found[1].contains("-false-promotion-blocked\" is given by"),
        "{found:?}"
    );

    // Blocked: the reason is the reservation's, in the campaign that holds
    // the candidate, and the reference names its sealed artifact and
    // summarises the reservation.
    let gate = "campaign-adjusted block confidence interval does not clear the minimum effect";
    let state = store.root.join("promotion-risk/run-1/false-promotion.json");
    let other = store
        .root
        .join("promotion-risk/another/false-promotion.json");
    write(
        &other,
        &json!({"reservations": [{"candidate_digest": store.changed, "reason": "other"}]}),
    );
    let reservation = json!({"candidate_digest": candidate, "status": "blocked", "reason": gate,
                             "allocated_alpha": 0.000_012_5, "evidence_digest": "e1"});
    write(&state, &json!({"reservations": [reservation]}));
    let place = format!("promotion-risk/run-1/reservation-artifacts/{candidate}.json");
    write(&store.root.join(&place), &json!({"artifact_digest": "a1"}));
    let reference = |reservation: &Value| {
        json!({
            "uri": format!("/elsewhere/knowledge/demo/context_bundles/{place}#sha256=a1"),
            "summary": format!(
                "Campaign reservation status={}; reservation_sha256={}; \
                 allocated_alpha=1.25e-05; trial_evidence_sha256=e1.",
                reservation["status"].as_str().unwrap_or("None"),
                sha256_hex(reservation).unwrap()
            ),
        })
    };
    let mut artifact = ledger_ending(
        &store,
        candidate,
        "false-promotion-blocked",
        "verification_failed",
        gate,
    );
    with_reservation(&mut artifact, reference(&reservation));
    write(&path, &artifact);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    let found = recomputed_after(&path, &artifact, |value| {
        value["entries"][0]["reason"] = json!("gate closed");
        value["entries"][0]["evidence_refs"][1]["uri"] = json!(format!(
            "/elsewhere/promotion-risk/run-2/{candidate}.json#sha256=a1"
        ));
        let summary = value["entries"][0]["evidence_refs"][1]["summary"]
            .as_str()
            .unwrap()
            .replace("1.25e-05", "0.0000125");
        value["entries"][0]["evidence_refs"][1]["summary"] = json!(summary);
    });
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(
        found[0].starts_with("entries[0].evidence_refs[1].uri is ")
            && found[0].ends_with(
                "is given by the reservation artifact of the campaign in promotion-risk/run-1"
            ),
        "{found:?}"
    );
    assert!(
        found[1]
            .starts_with("entries[0].evidence_refs[1].summary is \"…allocated_alpha=0.0000125;"),
        "{found:?}"
    );
    assert!(
        found[2].ends_with(
            "is given by the candidate's reservation in promotion-risk/run-1/false-promotion.json"
        ),
        "{found:?}"
    );
    // A decided reservation without a reason is handed on as a persisted
    // decision.
    let mut reasonless = reservation.clone();
    reasonless["reason"] = Value::Null;
    write(&state, &json!({"reservations": [reasonless]}));
    let mut persisted = ledger_ending(
        &store,
        candidate,
        "false-promotion-blocked",
        "verification_failed",
        "persisted false-promotion decision",
    );
    with_reservation(&mut persisted, reference(&reasonless));
    write(&path, &persisted);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    // A campaign kept outside the store: the record's rationale, written
    // from the same gate result, gives the reason; the reference is not
    // compared.
    fs::remove_file(&state).unwrap();
    let mut artifact = ledger_ending(
        &store,
        candidate,
        "false-promotion-blocked",
        "verification_failed",
        gate,
    );
    with_reservation(
        &mut artifact,
        json!({"uri": "/a.json#sha256=1", "summary": "s"}),
    );
    write(&path, &artifact);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    record["rationale"] = json!(format!(
        "false-promotion gate blocked: {gate}; reservation_sha256=ab; evidence_sha256=cd"
    ));
    write(&record_path, &record);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    record["rationale"] =
        json!("false-promotion gate blocked: too few blocks; reservation_sha256=ab");
    write(&record_path, &record);
    assert_eq!(rules_at(&path), ["autocontext/negative-result-recomputed"]);
}

/// `reference` put between the matched trials' and the plan's, where
/// autocontext lists a campaign's reservation.
fn with_reservation(ledger: &mut Value, reference: Value) {
    ledger["entries"][0]["evidence_refs"]
        .as_array_mut()
        .unwrap()
        .insert(1, reference);
}

/// `_failure_mode_summary`: groups sorted by kind then disposition, ids in
/// entry order.
#[test]
fn the_failure_mode_summary_groups_the_entries_in_autocontexts_order() {
    let entry = |kind: &str, disposition: &str, id: &str| json!({"failure_kind": kind, "disposition": disposition, "result_id": id});
    let entries = [
        entry("verification_failed", "caution", "a"),
        entry("score_regression", "noise", "b"),
        entry("score_regression", "caution", "c"),
        entry("verification_failed", "caution", "d"),
    ];
    assert_eq!(
        failure_mode_summary(&entries),
        Some(json!([
            {"failure_kind": "score_regression", "disposition": "caution", "count": 1,
             "result_ids": ["c"]},
            {"failure_kind": "score_regression", "disposition": "noise", "count": 1,
             "result_ids": ["b"]},
            {"failure_kind": "verification_failed", "disposition": "caution", "count": 2,
             "result_ids": ["a", "d"]},
        ]))
    );
    assert_eq!(failure_mode_summary(&[]), Some(json!([])));
    assert_eq!(failure_mode_summary(&[json!({"failure_kind": "x"})]), None);
}

fn promotion_record(store: &Store) -> Value {
    let diff =
        manifest::manifest_diff(&store.bundle(&store.added), &store.bundle(&store.base)).unwrap();
    json!({
        "schema_version": 1, "promotion_id": "p1", "candidate_digest": store.added,
        "incumbent_digest": store.base, "rollback_target_digest": store.base,
        "evaluator_epoch": "epoch-1", "cohort": "c", "rationale": "confirmed",
        "comparison": {"decision": "confirmed", "reason": "passed", "screen_pairs": 1,
                       "confirmation_pairs": 2, "heldout_pairs": 1, "mean_effect": 0.2,
                       "confidence_low": 0.1, "confidence_high": 0.3},
        "confirmation_policy": policy(),
        "confirmation_policy_digest": sha256_hex(&policy()).unwrap(),
        "manifest_diff_digest": diff["digest"],
        "promoted_at": "now",
    })
}

#[test]
fn a_promotion_record_verifies_its_digests_and_the_bundles_it_names() {
    let store = Store::new();
    let path = store.root.join("promotions/p1.json");
    let promotion = promotion_record(&store);
    write(&path, &promotion);
    assert_eq!(rules_at(&path), Vec::<&str>::new());

    assert_eq!(
        rules_after(
            &path,
            &promotion,
            |value| value["confirmation_policy"]["min_effect"] = json!(0.5)
        ),
        ["autocontext/promotion-policy-digest"]
    );
    assert_eq!(
        rules_after(&path, &promotion, |value| value["rollback_target_digest"] =
            Value::String("2".repeat(64))),
        ["autocontext/promotion-bundles"]
    );
    assert_eq!(
        rules_after(&path, &promotion, |value| value["evaluator_epoch"] =
            json!("epoch-2")),
        ["autocontext/promotion-bundles"]
    );
    assert_eq!(
        rules_after(&path, &promotion, |value| value["incumbent_digest"] =
            Value::String(store.changed.clone())),
        ["autocontext/promotion-bundles"]
    );
    assert_eq!(
        rules_after(&path, &promotion, |value| value["promotion_id"] =
            json!("p2")),
        ["autocontext/promotion-bundles"]
    );
    assert_eq!(
        rules_after(&path, &promotion, |value| value["manifest_diff_digest"] =
            Value::String("0".repeat(64))),
        ["autocontext/promotion-diff"]
    );
}

/// The campaign state autocontext 0.18.0 wrote for the false-promotion
/// parity fixture's first reservation
/// (`CampaignFalsePromotionController.reserve_confirmation_policy`).
fn campaign_state() -> Value {
    json!({
      "campaign_id": "parity-campaign",
      "fixture_history_complete": true,
      "fixture_reservations": [],
      "policy": {
        "allocation_decay": 0.5, "effect_lower_bound": -1.0, "effect_upper_bound": 1.0,
        "familywise_alpha": 0.08, "min_independent_confirmation_blocks": 2,
        "require_disjoint_lane_blocks": true, "robust_method": "cluster_t"
      },
      "reservations": [{
        "allocated_alpha": 0.04, "campaign_id": "parity-campaign",
        "candidate_digest": "75a28f4545645422e2ab8d893ed58d10f7366109674f5486bb3b12948f498ff0",
        "candidate_index": 0,
        "confirmation_policy_digest": "c1249fd5370550ecaefaaa9ef38aebcb81b8ebea288dcd6adccdc15dbf64c808",
        "evaluator_epoch": "epoch-1", "evidence_digest": null,
        "incumbent_digest": "fec99f571c2b82be5e6056da3e4e9ee4492187348a63474eb33d4f13c4f10f63",
        "independent_confirmation_blocks": 0, "independent_heldout_blocks": 0,
        "reason": null, "required_confidence_z": 2.053748910632, "status": "reserved"
      }],
      "schema_version": 2,
      "state_digest": "f6ed3d2ce3e0c825171b5fb8af77c4de9d80e5649073a01aafbb9cce674ce8d5"
    })
}

#[test]
fn a_campaign_state_in_the_store_verifies_its_digest_and_every_allocation() {
    let store = Store::new();
    let path = store
        .root
        .join("promotion-risk/parity-campaign/false-promotion.json");
    let state = campaign_state();
    write(&path, &state);
    assert_eq!(rules_at(&path), Vec::<&str>::new());

    assert_eq!(
        rules_after(&path, &state, |value| value["reservations"][0]["status"] =
            json!("authorized")),
        // And an authorization the gate never gave: the store holds no
        // matched trials for it to be replayed from.
        [
            "autocontext/campaign-state-digest",
            "autocontext/campaign-gate"
        ]
    );
    // An edited alpha or threshold, with the digest recomputed to match:
    // the allocation itself is recomputed.
    let resealed = |change: fn(&mut Value)| {
        move |value: &mut Value| {
            change(value);
            value["state_digest"] = json!(state_digest(value).unwrap());
        }
    };
    let found = diagnostics_after(
        &path,
        &state,
        resealed(|value| value["reservations"][0]["allocated_alpha"] = json!(0.05)),
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "autocontext/campaign-allocation");
    assert_eq!(
        found[0].1,
        "reservation 0: allocated_alpha is 0.05, the policy allots 0.04"
    );
    assert_eq!(
        rules_after(
            &path,
            &state,
            resealed(|value| value["reservations"][0]["required_confidence_z"] = json!(1.96))
        ),
        ["autocontext/campaign-allocation"]
    );
    assert_eq!(
        rules_after(
            &path,
            &state,
            resealed(|value| value["reservations"][0]["candidate_index"] = json!(1))
        ),
        ["autocontext/campaign-allocation"]
    );
    assert_eq!(
        rules_after(
            &path,
            &state,
            resealed(|value| value["policy"]["allocation_decay"] = json!(1.5))
        ),
        ["autocontext/campaign-allocation"]
    );

    // In another campaign's folder it is refused.
    let elsewhere = store
        .root
        .join("promotion-risk/other-campaign/false-promotion.json");
    write(&elsewhere, &state);
    assert_eq!(rules_at(&elsewhere), ["autocontext/campaign-state-digest"]);
}

/// A reservation the candidate's own comparison ended
/// (`record_terminal_decision`) holds that comparison's decision and reason,
/// and no evidence digest or block: what autocontext writes, and what its
/// resume checks (`_update_reservation`).
#[test]
fn a_reservation_its_comparison_ended_holds_that_decision_and_reason() {
    let store = Store::new();
    let path = store
        .root
        .join("promotion-risk/parity-campaign/false-promotion.json");
    let record_path = store.candidate_file(&store.changed, "record.json");
    let reason = "confirmation confidence interval is below the minimum effect";
    let ended = |decision: &str| {
        let mut record = store.record(&store.changed, "rejected", None);
        record["comparison"] = json!({"decision": decision, "reason": reason});
        write(&record_path, &record);
        let mut state = campaign_state();
        let reservation = &mut state["reservations"][0];
        reservation["candidate_digest"] = json!(store.changed);
        reservation["incumbent_digest"] = json!(store.base);
        reservation["status"] = json!(decision);
        reservation["reason"] = json!(reason);
        state["state_digest"] = json!(state_digest(&state).unwrap());
        write(&path, &state);
        state
    };
    let resealed = |change: fn(&mut Value)| {
        move |value: &mut Value| {
            change(&mut value["reservations"][0]);
            value["state_digest"] = json!(state_digest(value).unwrap());
        }
    };
    let gate = "autocontext/campaign-gate";
    for decision in ["rejected", "inconclusive"] {
        let state = ended(decision);
        // No trials are read: the comparison decided it, not the gate.
        assert_eq!(rules_at(&path), Vec::<&str>::new(), "{decision}");
        let found = diagnostics_after(
            &path,
            &state,
            resealed(|reservation| reservation["reason"] = json!("edited")),
        );
        assert_eq!(
            found,
            [(
                gate.to_owned(),
                format!(
                    "reservation 0: status {decision} (\"edited\"), but the candidate's \
                     comparison in record.json is {decision} (\"{reason}\"): a reservation its \
                     comparison ended holds that decision and reason"
                )
            )],
            "{decision}"
        );
        assert_eq!(
            rules_after(
                &path,
                &state,
                resealed(|reservation| reservation["reason"] = Value::Null)
            ),
            [gate]
        );
        let found = diagnostics_after(
            &path,
            &state,
            resealed(|reservation| reservation["evidence_digest"] = json!("0".repeat(64))),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].1.ends_with(
                "but a reservation its comparison ended binds no evidence (autocontext's \
                 record_terminal_decision leaves it null)"
            ),
            "{found:?}"
        );
        let found = diagnostics_after(
            &path,
            &state,
            resealed(|reservation| reservation["independent_heldout_blocks"] = json!(1)),
        );
        assert_eq!(
            found,
            [(
                gate.to_owned(),
                "reservation 0: independent_heldout_blocks is 1, but a reservation its \
                 comparison ended counts no blocks (autocontext's record_terminal_decision \
                 leaves it 0)"
                    .to_owned()
            )]
        );
    }
    // The other decision than the comparison's.
    let state = ended("inconclusive");
    assert_eq!(
        rules_after(
            &path,
            &state,
            resealed(|reservation| reservation["status"] = json!("rejected"))
        ),
        [gate]
    );
    // A decided reservation whose candidate's comparison has not ended, or
    // that has no record to tell what decided it.
    let mut record = store.record(&store.changed, "screened", Some("needs_confirmation"));
    write(&record_path, &record);
    let found = diagnostics_after(&path, &state, |_| {});
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].1.starts_with(&format!(
            "reservation 0: status inconclusive, but candidates/{}/record.json holds a \
             comparison that is \"needs_confirmation\"",
            store.changed
        )),
        "{found:?}"
    );
    record["comparison"] = Value::Null;
    write(&record_path, &record);
    assert_eq!(rules_at(&path), [gate]);
    fs::remove_file(&record_path).unwrap();
    let found = diagnostics_after(&path, &state, |_| {});
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].1.starts_with(&format!(
            "reservation 0: the comparison that ended the candidate's evaluation, \
             candidates/{}/record.json: ",
            store.changed
        )),
        "{found:?}"
    );
}

/// A stale marker binds its candidate as autocontext checks on every
/// resume: candidate, parent, plan digest, evidence digest and reason, and
/// the record beside it.
#[test]
fn a_stale_marker_binds_its_candidate_plan_evidence_and_reason() {
    let store = Store::new();
    let candidate = &store.added;
    let (trials, comparison) = confirmed_evidence(&store);
    write(
        &store.candidate_file(candidate, "matched_trials.json"),
        &trials,
    );
    let bound = plan(&store, candidate);
    write(
        &store.candidate_file(candidate, "evaluator_plan.json"),
        &bound,
    );
    let reason = format!(
        "confirmed candidate incumbent {} is stale; active bundle is {}",
        store.base, store.changed
    );
    let record_path = store.candidate_file(candidate, "record.json");
    let mut record = store.record(candidate, "rejected", None);
    record["comparison"] = comparison;
    record["rationale"] = json!(reason);
    write(&record_path, &record);
    let path = store.candidate_file(candidate, "stale_terminalization.json");
    let marker = json!({
        "schema_version": 1, "candidate_digest": candidate, "parent_digest": store.base,
        "observed_active_digest": store.changed,
        "evaluator_plan_digest": bound["plan_digest"],
        "matched_evidence_digest": sha256_hex(&trials).unwrap(),
        "reason": reason,
    });
    write(&path, &marker);
    assert_eq!(rules_at(&path), Vec::<&str>::new());

    let rule = "autocontext/stale-marker";
    for (field, edited) in [
        ("candidate_digest", json!(store.changed)),
        ("parent_digest", json!(store.changed)),
        ("evaluator_plan_digest", json!("0".repeat(64))),
        ("matched_evidence_digest", json!("0".repeat(64))),
        ("reason", json!("stale")),
        ("observed_active_digest", json!("1".repeat(64))),
    ] {
        let found = diagnostics_after(&path, &marker, |value| value[field] = edited.clone());
        assert_eq!(found.len(), 1, "{field}: {found:?}");
        assert_eq!(found[0].0, rule, "{field}");
    }
    let found = diagnostics_after(&path, &marker, |value| value["reason"] = json!("stale"));
    assert_eq!(
        found[0].1,
        format!(
            "reason is \"stale\", but the bundle's parent and the active bundle the marker saw \
             give \"confirmed candidate incumbent {}… is stale; active bu…, as autocontext \
             writes it",
            &store.base[..12]
        )
    );
    // The incumbent itself active: not stale, whatever the reason says.
    let found = diagnostics_after(&path, &marker, |value| {
        value["observed_active_digest"] = json!(store.base);
        value["reason"] = json!(format!(
            "confirmed candidate incumbent {0} is stale; active bundle is {0}",
            store.base
        ));
    });
    // (And the record's rationale is no longer the marker's reason.)
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0]
            .1
            .contains("a candidate whose incumbent or itself is active is not stale")
    );
    // The evidence and the plan it binds are the candidate's files as they
    // stand: edited trials no longer have the digest it holds.
    let mut edited = trials.clone();
    edited["trials"][0]["candidate_score"] = json!(0.9);
    write(
        &store.candidate_file(candidate, "matched_trials.json"),
        &edited,
    );
    assert_eq!(rules_at(&path), [rule]);
    write(
        &store.candidate_file(candidate, "matched_trials.json"),
        &trials,
    );
    // The record beside it: confirmed (the ending begun), or rejected with
    // the marker's reason; never on another comparison.
    for (change, findings) in [
        (
            (|record: &mut Value| record["lifecycle"] = json!("confirmed")) as fn(&mut Value),
            0,
        ),
        (|record| record["rationale"] = json!("not wanted"), 1),
        (|record| record["lifecycle"] = json!("active"), 1),
        (
            |record| record["comparison"]["decision"] = json!("rejected"),
            1,
        ),
    ] {
        let mut changed = record.clone();
        change(&mut changed);
        write(&record_path, &changed);
        assert_eq!(rules_at(&path).len(), findings, "{changed}");
    }
    write(&record_path, &record);
    // What it holds is what autocontext writes, and nothing else.
    assert_eq!(
        rules_after(&path, &marker, |value| value["note"] = json!("x")),
        ["schema/additionalProperties"]
    );
    assert_eq!(rules_at(&path), Vec::<&str>::new());
}

/// Matched trials whose comparison under `policy()` is confirmed with an
/// interval, and that comparison as autocontext 0.18.0's
/// `evaluate_matched_trials` returned it (printed with `json.dumps`).
fn confirmed_evidence(store: &Store) -> (Value, Value) {
    let scored = |seed: u64, lane: &str, candidate_score: f64| {
        let mut trial = store.trial(seed, lane);
        trial["candidate_score"] = json!(candidate_score);
        trial
    };
    let trials = json!({
        "schema_version": 2,
        "trials": [scored(0, "screen", 0.7), scored(1, "confirmation", 0.7),
                   scored(2, "confirmation", 0.71), scored(3, "heldout", 0.7)],
        "confirmation_policy": policy(),
        "confirmation_policy_digest": sha256_hex(&policy()).unwrap(),
    });
    let comparison = json!({
        "decision": "confirmed", "reason": "matched confirmation and held-out lanes passed",
        "screen_pairs": 1, "confirmation_pairs": 2, "heldout_pairs": 1,
        "mean_effect": 0.20499999999999996, "confidence_low": 0.14146360487218146,
        "confidence_high": 0.26853639512781846,
    });
    (trials, comparison)
}

#[test]
fn a_recorded_comparison_is_what_the_trials_replay_to() {
    let store = Store::new();
    let (trials, comparison) = confirmed_evidence(&store);
    let trials_path = store.candidate_file(&store.added, "matched_trials.json");
    let record_path = store.candidate_file(&store.added, "record.json");
    let mut record = store.record(&store.added, "confirmed", None);
    record["comparison"] = comparison.clone();
    write(&trials_path, &trials);
    write(&record_path, &record);
    assert_eq!(rules_at(&trials_path), Vec::<&str>::new());
    assert_eq!(rules_at(&record_path), Vec::<&str>::new());

    // Two scores of one trial swapped, its pair key unchanged: the trials
    // now replay to an inconclusive comparison, on both files.
    let swapped = |value: &mut Value| {
        let trial = &mut value["trials"][1];
        let candidate = trial["candidate_score"].clone();
        trial["candidate_score"] = trial["incumbent_score"].clone();
        trial["incumbent_score"] = candidate;
    };
    let replay = ["autocontext/comparison-replay"];
    assert_eq!(
        rules_after(&trials_path, &trials, swapped).first(),
        Some(&replay[0])
    );
    let mut swapped_trials = trials.clone();
    swapped(&mut swapped_trials);
    write(&trials_path, &swapped_trials);
    assert!(rules_at(&record_path).iter().all(|rule| *rule == replay[0]));
    assert_eq!(
        rules_at(&record_path).len(),
        5,
        "decision, reason and three statistics"
    );
    write(&trials_path, &trials);

    // Each recorded field edited alone is refused on the record, and the
    // trials say they replay to something else.
    for (field, edited) in [
        ("mean_effect", json!(0.205)),
        ("confidence_low", json!(0.141463605)),
        ("screen_pairs", json!(2)),
        ("decision", json!("rejected")),
        ("reason", json!("passed")),
    ] {
        let found = rules_after(&record_path, &record, |value| {
            value["comparison"][field] = edited.clone();
        });
        assert_eq!(found, replay, "{field}");
        let mut edited_record = record.clone();
        edited_record["comparison"][field] = edited.clone();
        write(&record_path, &edited_record);
        assert_eq!(rules_at(&trials_path), replay, "{field}");
        write(&record_path, &record);
    }
    // A bound one ulp away: refused where numi's C library is glibc, as
    // autocontext's replay there refuses it; elsewhere within what another
    // library's last bits can make. The mean effect is not let off by an
    // ulp anywhere.
    let one_ulp = |value: f64| json!(f64::from_bits(value.to_bits() + 1));
    assert_eq!(
        rules_after(
            &record_path,
            &record,
            |value| value["comparison"]["confidence_low"] = one_ulp(0.14146360487218146)
        ),
        if super::comparison::SAME_C_LIBRARY {
            replay.to_vec()
        } else {
            Vec::new()
        }
    );
    assert_eq!(
        rules_after(
            &record_path,
            &record,
            |value| value["comparison"]["mean_effect"] = one_ulp(0.20499999999999996)
        ),
        replay
    );
    // A count written as a float is the same number to Python's `==`.
    assert_eq!(
        rules_after(
            &record_path,
            &record,
            |value| value["comparison"]["heldout_pairs"] = json!(1.0)
        ),
        Vec::<&str>::new()
    );
}

#[test]
fn a_legacy_array_of_trials_is_replayed_under_the_records_policy() {
    let store = Store::new();
    let (trials, comparison) = confirmed_evidence(&store);
    let legacy = trials["trials"].clone();
    let trials_path = store.candidate_file(&store.added, "matched_trials.json");
    let record_path = store.candidate_file(&store.added, "record.json");
    let mut record = store.record(&store.added, "confirmed", None);
    record["comparison"] = comparison;
    write(&trials_path, &legacy);
    write(&record_path, &record);
    assert_eq!(rules_at(&trials_path), Vec::<&str>::new());
    assert_eq!(rules_at(&record_path), Vec::<&str>::new());
    assert_eq!(
        rules_after(&trials_path, &legacy, |value| value[2]["candidate_score"] =
            json!(0.72)),
        // The mean and both bounds move.
        ["autocontext/comparison-replay"; 3]
    );
    // Over the policy's maximum of confirmation pairs autocontext refuses
    // to evaluate at all.
    let found = rules_after(&trials_path, &legacy, |value| {
        value
            .as_array_mut()
            .unwrap()
            .push(store.trial(9, "confirmation"));
    });
    assert_eq!(found, ["autocontext/comparison-replay"]);
}

#[test]
fn a_promotions_comparison_is_what_the_candidates_trials_replay_to() {
    let store = Store::new();
    let (trials, comparison) = confirmed_evidence(&store);
    write(
        &store.candidate_file(&store.added, "matched_trials.json"),
        &trials,
    );
    let path = store.root.join("promotions/p1.json");
    let mut promotion = promotion_record(&store);
    promotion["comparison"] = comparison;
    write(&path, &promotion);
    assert_eq!(rules_at(&path), Vec::<&str>::new());
    assert_eq!(
        rules_after(
            &path,
            &promotion,
            |value| value["comparison"]["confidence_high"] = json!(0.3)
        ),
        ["autocontext/comparison-replay"]
    );
    assert_eq!(
        rules_after(
            &path,
            &promotion,
            |value| value["comparison"]["confirmation_pairs"] = json!(3)
        ),
        ["autocontext/comparison-replay"]
    );
}

/// A campaign (the parity fixture's policy) whose reservation for the
/// added candidate the gate authorized on `confirmed_evidence`, and the
/// artifact autocontext writes of it; the artifact's path and value.
struct Campaign {
    state_path: PathBuf,
    state: Value,
    artifact_path: PathBuf,
    artifact: Value,
}

impl Campaign {
    fn new(store: &Store) -> Self {
        let (trials, comparison) = confirmed_evidence(store);
        write(
            &store.candidate_file(&store.added, "matched_trials.json"),
            &trials,
        );
        let mut record = store.record(&store.added, "active", None);
        record["comparison"] = comparison;
        write(&store.candidate_file(&store.added, "record.json"), &record);
        let mut sorted = trials["trials"].as_array().unwrap().clone();
        sorted.sort_by(|left, right| left["pair_key"].as_str().cmp(&right["pair_key"].as_str()));
        let reservation = json!({
            "campaign_id": "parity-campaign", "candidate_digest": store.added,
            "incumbent_digest": store.base, "evaluator_epoch": "epoch-1",
            "candidate_index": 0, "allocated_alpha": 0.04,
            "required_confidence_z": 2.053748910632,
            "confirmation_policy_digest": sha256_hex(&policy()).unwrap(),
            "status": "authorized",
            "reason": "campaign alpha reservation and dependence-aware evidence authorized promotion",
            "evidence_digest": sha256_hex(&Value::from(sorted)).unwrap(),
            "independent_confirmation_blocks": 2, "independent_heldout_blocks": 1,
        });
        let units: Vec<Value> = [(0, "screen"), (1, "confirmation"), (2, "confirmation"), (3, "heldout")]
            .iter()
            .map(|(seed, lane)| json!({"lane": lane, "fixture_digest": format!("sha256:f{seed}"), "seed": seed}))
            .collect();
        let mut fixture = json!({
            "campaign_id": "parity-campaign", "candidate_digest": store.added,
            "evaluator_epoch": "epoch-1", "cohort": "c", "units": units,
        });
        reseal_plan(&mut fixture);
        let mut state = campaign_state();
        state["reservations"] = json!([reservation]);
        state["fixture_reservations"] = json!([fixture]);
        state["state_digest"] = json!(state_digest(&state).unwrap());
        let mut artifact = json!({
            "schema_version": 1, "campaign_id": "parity-campaign",
            "risk_reservation": reservation, "fixture_reservation": fixture,
        });
        reseal_artifact(&mut artifact);
        let state_path = store
            .root
            .join("promotion-risk/parity-campaign/false-promotion.json");
        let artifact_path = store.root.join(format!(
            "promotion-risk/parity-campaign/reservation-artifacts/{}.json",
            store.added
        ));
        write(&state_path, &state);
        write(&artifact_path, &artifact);
        Campaign {
            state_path,
            state,
            artifact_path,
            artifact,
        }
    }

    /// The state and the artifact with the same change to the candidate's
    /// risk reservation, both resealed; the artifact's rules.
    fn rules_after_both(&self, change: impl Fn(&mut Value)) -> Vec<&'static str> {
        let mut state = self.state.clone();
        change(&mut state["reservations"][0]);
        state["state_digest"] = json!(state_digest(&state).unwrap());
        write(&self.state_path, &state);
        let found = rules_after(&self.artifact_path, &self.artifact, |artifact| {
            change(&mut artifact["risk_reservation"]);
            reseal_artifact(artifact);
        });
        write(&self.state_path, &self.state);
        found
    }
}

/// `plan_digest` recomputed as `CandidateFixtureReservation.plan_digest`.
fn reseal_plan(fixture: &mut Value) {
    let mut plan = fixture.clone();
    plan.as_object_mut().unwrap().remove("plan_digest");
    fixture["plan_digest"] = json!(sha256_hex(&plan).unwrap());
}

/// The plan digest, then `artifact_digest`, recomputed.
fn reseal_artifact(artifact: &mut Value) {
    reseal_plan(&mut artifact["fixture_reservation"]);
    let mut payload = artifact.clone();
    payload.as_object_mut().unwrap().remove("artifact_digest");
    artifact["artifact_digest"] = json!(sha256_hex(&payload).unwrap());
}

#[test]
fn a_reservation_artifact_verifies_its_digests_and_plan() {
    let store = Store::new();
    let campaign = Campaign::new(&store);
    let path = &campaign.artifact_path;
    let artifact = &campaign.artifact;
    assert_eq!(rules_at(&campaign.state_path), Vec::<&str>::new());
    assert_eq!(rules_at(path), Vec::<&str>::new());

    let digest = "autocontext/reservation-artifact-digest";
    let plan = "autocontext/reservation-fixture-plan";
    let binding = "autocontext/reservation-artifact-binding";
    assert_eq!(
        rules_after(path, artifact, |value| value["artifact_digest"] =
            json!("0".repeat(64))),
        [digest]
    );
    // A unit's seed edited: every digest fails, the plan is no longer the
    // one the campaign holds, and the trials were not gathered under it.
    let found = diagnostics_after(path, artifact, |value| {
        value["fixture_reservation"]["units"][1]["seed"] = json!(7);
    });
    let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, [digest, plan, binding, plan]);
    assert_eq!(
        found[3].1,
        format!(
            "candidates/{}/matched_trials.json was not gathered under this fixture plan: trial 1 \
             (fixture \"sha256:f1\", seed 1, lane \"confirmation\") is not a unit the plan reserved",
            store.added
        )
    );
    assert!(found[1].1.starts_with("plan_digest is "), "{found:?}");
    assert_eq!(
        found[2].1,
        "the fixture reservation is not the one promotion-risk/parity-campaign/false-promotion.json \
         holds for its candidate: it differs in units"
    );
    // Resealed, the comparison with the campaign state and with the trials
    // find it.
    assert_eq!(
        rules_after(path, artifact, |value| {
            value["fixture_reservation"]["units"][1]["seed"] = json!(7);
            reseal_artifact(value);
        }),
        [binding, plan]
    );
    // A unit planned in another lane than its trial was gathered in.
    let found = diagnostics_after(path, artifact, |value| {
        value["fixture_reservation"]["units"][3]["lane"] = json!("confirmation");
        reseal_artifact(value);
    });
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[1].1.ends_with(
            "(fixture \"sha256:f3\", seed 3, lane \"heldout\") is not a unit the plan reserved \
             (it planned lane \"confirmation\")"
        ),
        "{found:?}"
    );
    // What the plan itself refuses, resealed: a seed written as a float
    // (the same digest), a unit planned twice, an empty plan or identity.
    assert_eq!(
        rules_after(path, artifact, |value| {
            value["fixture_reservation"]["units"][1]["seed"] = json!(1.0);
            reseal_artifact(value);
        }),
        [plan]
    );
    let found = diagnostics_after(path, artifact, |value| {
        value["fixture_reservation"]["units"][2]["seed"] = json!(1);
        value["fixture_reservation"]["units"][2]["fixture_digest"] = json!("sha256:f1");
        reseal_artifact(value);
    });
    assert_eq!(found[0].0, plan);
    assert_eq!(
        found[0].1,
        "unit 2 plans fixture \"sha256:f1\" with seed 1 again: each (fixture_digest, seed) is \
         planned once"
    );
    // The same fixture under another seed is another unit (which no trial
    // was gathered for).
    assert_eq!(
        rules_after(path, artifact, |value| {
            value["fixture_reservation"]["units"][2]["fixture_digest"] = json!("sha256:f1");
            reseal_artifact(value);
        }),
        [binding, plan]
    );
    for change in [
        (|value: &mut Value| value["fixture_reservation"]["units"] = json!([])) as fn(&mut Value),
        |value| value["fixture_reservation"]["cohort"] = json!(""),
        |value| value["fixture_reservation"]["units"][0]["fixture_digest"] = json!(""),
    ] {
        assert_eq!(
            rules_after(path, artifact, |value| {
                change(value);
                reseal_artifact(value);
            }),
            [plan, binding, plan]
        );
    }
}

#[test]
fn a_reservation_artifact_is_the_terminal_reservation_its_campaign_holds() {
    let store = Store::new();
    let campaign = Campaign::new(&store);
    let path = &campaign.artifact_path;
    let artifact = &campaign.artifact;
    let binding = "autocontext/reservation-artifact-binding";

    // Named by another candidate, or standing in another campaign's folder.
    let renamed = store.root.join(format!(
        "promotion-risk/parity-campaign/reservation-artifacts/{}.json",
        store.changed
    ));
    write(&renamed, artifact);
    assert_eq!(rules_at(&renamed), [binding]);
    fs::remove_file(&renamed).unwrap();
    let elsewhere = store.root.join(format!(
        "promotion-risk/other-campaign/reservation-artifacts/{}.json",
        store.added
    ));
    write(&elsewhere, artifact);
    assert_eq!(rules_at(&elsewhere), [binding]);
    // A fixture reservation of another candidate or campaign, resealed.
    assert_eq!(
        rules_after(path, artifact, |value| {
            value["fixture_reservation"]["candidate_digest"] = json!(store.changed);
            reseal_artifact(value);
        }),
        [binding, binding]
    );
    assert_eq!(
        rules_after(path, artifact, |value| {
            value["fixture_reservation"]["campaign_id"] = json!("other-campaign");
            reseal_artifact(value);
        }),
        [binding, binding]
    );
    // A decision the state does not hold, resealed: the gate does not give
    // it either.
    let found = diagnostics_after(path, artifact, |value| {
        value["risk_reservation"]["status"] = json!("blocked");
        reseal_artifact(value);
    });
    assert_eq!(
        found,
        [
            (
                binding.to_owned(),
                "the risk reservation is not the one promotion-risk/parity-campaign/\
                 false-promotion.json holds for its candidate: it differs in status"
                    .to_owned()
            ),
            (
                "autocontext/campaign-gate".to_owned(),
                "the risk reservation: status blocked (\"campaign alpha reservation and \
                 dependence-aware evidence authorized promotion\"), the gate gives authorized \
                 (\"campaign alpha reservation and dependence-aware evidence authorized \
                 promotion\") on the matched trials"
                    .to_owned()
            )
        ]
    );
    // The state and the artifact edited alike: a reservation not yet
    // terminal, an alpha the policy does not allot, a block count the gate
    // does not give.
    let found = campaign.rules_after_both(|reservation| {
        reservation["status"] = json!("reserved");
        reservation["reason"] = Value::Null;
        reservation["evidence_digest"] = Value::Null;
        reservation["independent_confirmation_blocks"] = json!(0);
        reservation["independent_heldout_blocks"] = json!(0);
    });
    assert_eq!(found, [binding]);
    assert_eq!(
        campaign.rules_after_both(|reservation| reservation["allocated_alpha"] = json!(0.05)),
        ["autocontext/campaign-allocation"]
    );
    assert_eq!(
        campaign.rules_after_both(
            |reservation| reservation["independent_confirmation_blocks"] = json!(3)
        ),
        ["autocontext/campaign-gate"]
    );
    // A stale candidate's rejection, which the gate did not decide: its
    // reason is its stale marker's, and its evidence digest and its blocks
    // (the fixtures of each lane) still come from the trials.
    let reason = format!(
        "confirmed candidate incumbent {} is stale; active bundle is {}",
        store.base, store.changed
    );
    let stale = |reservation: &mut Value| {
        reservation["status"] = json!("rejected");
        reservation["reason"] = json!(reason);
    };
    // Without the marker autocontext writes before it rejects, refused.
    let found = campaign.rules_after_both(stale);
    assert_eq!(found, ["autocontext/campaign-gate"]);
    let marker_path = store.candidate_file(&store.added, "stale_terminalization.json");
    write(
        &marker_path,
        &json!({"schema_version": 1, "candidate_digest": store.added,
                "parent_digest": store.base, "observed_active_digest": store.changed,
                "evaluator_plan_digest": "0".repeat(64),
                "matched_evidence_digest": "0".repeat(64), "reason": reason}),
    );
    assert_eq!(campaign.rules_after_both(stale), Vec::<&str>::new());
    let found = campaign.rules_after_both(|reservation| {
        stale(reservation);
        reservation["independent_heldout_blocks"] = json!(2);
    });
    assert_eq!(found, ["autocontext/campaign-gate"]);
    // The state's own line replays it the same way.
    let mut state = campaign.state.clone();
    stale(&mut state["reservations"][0]);
    assert_eq!(
        rules_after(&campaign.state_path, &campaign.state, |value| {
            *value = state.clone();
            value["state_digest"] = json!(state_digest(value).unwrap());
        }),
        Vec::<&str>::new()
    );
    let mut blocks = state.clone();
    blocks["reservations"][0]["independent_confirmation_blocks"] = json!(1);
    let found = diagnostics_after(&campaign.state_path, &campaign.state, |value| {
        *value = blocks.clone();
        value["state_digest"] = json!(state_digest(value).unwrap());
    });
    assert_eq!(
        found,
        [(
            "autocontext/campaign-gate".to_owned(),
            "reservation 0: rejected as stale with independent_confirmation_blocks 1: the \
             candidate's matched trials hold 2 such fixtures"
                .to_owned()
        )]
    );
    // A reason that is not the marker's, which autocontext's resume
    // refuses (`reject_stale_risk_reservation`).
    let mut edited = state.clone();
    edited["reservations"][0]["reason"] = json!("candidate parent is no longer the active bundle");
    let found = diagnostics_after(&campaign.state_path, &campaign.state, |value| {
        *value = edited.clone();
        value["state_digest"] = json!(state_digest(value).unwrap());
    });
    assert_eq!(
        found,
        [(
            "autocontext/campaign-gate".to_owned(),
            format!(
                "reservation 0: rejected as stale with reason \"candidate parent is no longer \
                 the active bundle\", but candidates/{}/stale_terminalization.json gives \
                 \"{reason}\"",
                store.added
            )
        )]
    );
    assert_eq!(
        campaign.rules_after_both(|reservation| {
            stale(reservation);
            reservation["evidence_digest"] = json!("0".repeat(64));
        }),
        ["autocontext/campaign-gate"]
    );
    // Inconclusive is no ending of a confirmed comparison (and no status
    // autocontext seals an artifact for).
    assert_eq!(
        campaign.rules_after_both(|reservation| {
            stale(reservation);
            reservation["status"] = json!("inconclusive");
        }),
        [binding, "autocontext/campaign-gate"]
    );
    fs::remove_file(&marker_path).unwrap();
    assert_eq!(rules_at(path), Vec::<&str>::new());

    // Without the state, said once; with one that holds no such candidate,
    // once for each reservation.
    fs::remove_file(&campaign.state_path).unwrap();
    let found = diagnostics_after(path, artifact, |_| {});
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, binding);
    assert!(
        found[0].1.starts_with(
            "the campaign's state, promotion-risk/parity-campaign/false-promotion.json: "
        ),
        "{found:?}"
    );
    write(&campaign.state_path, &campaign_state());
    assert_eq!(rules_at(path), [binding, binding]);
}
