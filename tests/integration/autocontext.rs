//! numi as the third autocontext runtime: the parity fixtures autocontext's
//! Python and TypeScript runtimes pin (copied into tests/data/autocontext/).
//! The stores written by the real producer are tested in tests/tools/.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stderr
)]

use std::fs;
use std::path::{Path, PathBuf};

use numi::canonical;
use numi::kinds::autocontext::manifest;
use numi::yaml::{self, Limits};
use numi::{Mode, validate_bytes};
use serde_json::Value;

use crate::common::{copy_tree, json_at, numi, reseal_artifact, statuses, write_json};

/// autocontext's parity fixtures, copied into the repository.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/autocontext/fixtures")
}

fn fixture(name: &str) -> Value {
    let text = fs::read_to_string(fixtures().join(name)).expect("fixture reads");
    serde_json::from_str(&text).expect("fixture is JSON")
}

#[test]
fn canonical_parity_text_and_digest() {
    let parity = fixture("canonical-parity.json");
    let cases = parity["canonical_cases"].as_array().unwrap();
    assert!(!cases.is_empty());
    for case in cases {
        let text = canonical::to_string(&case["value"]).unwrap();
        assert_eq!(
            text,
            case["canonical"].as_str().unwrap(),
            "{}",
            case["name"]
        );
        assert_eq!(
            canonical::hex_sha256(text.as_bytes()),
            case["digest"].as_str().unwrap(),
            "{}",
            case["name"]
        );
    }
}

#[test]
fn canonical_parity_refuses_every_unsafe_integer() {
    let parity = fixture("canonical-parity.json");
    let cases = parity["unsafe_integer_cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let json = case["json"].as_str().unwrap();
        // numi's loader reads documents whose root is a mapping.
        let document = format!("{{\"value\": {json}}}");
        let loaded = yaml::load_bytes(document.as_bytes(), &Limits::default()).unwrap();
        let refusal = canonical::to_string(&loaded.value).unwrap_err();
        assert_eq!(
            refusal.reason,
            canonical::Reason::UnsafeNumber,
            "{}",
            case["name"]
        );
        let parsed: Value = serde_json::from_str(json).unwrap();
        assert!(canonical::to_string(&parsed).is_err(), "{}", case["name"]);
    }
}

#[test]
fn canonical_parity_refuses_every_lone_surrogate() {
    let parity = fixture("canonical-parity.json");
    let cases = parity["invalid_unicode_cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let json = case["json"].as_str().unwrap();
        // A Rust string cannot hold a lone surrogate: the text is refused
        // when it is read, so no canonical form is ever computed for it.
        assert!(
            yaml::load_bytes(json.as_bytes(), &Limits::default()).is_err(),
            "{}",
            case["name"]
        );
        assert!(
            serde_json::from_str::<Value>(json).is_err(),
            "{}",
            case["name"]
        );
    }
}

#[test]
fn canonical_parity_bundle_manifest() {
    let parity = fixture("canonical-parity.json");
    let bundle = &parity["bundle_manifest"];
    assert!(manifest::verifies(bundle));
    // Its components are sorted by UTF-16 code units: U+1F600 before U+FB33.
    let keys: Vec<&str> = manifest::components(bundle)
        .iter()
        .map(|component| manifest::identity(component).1)
        .collect();
    assert_eq!(keys, ["\u{1f600}", "\u{fb33}"]);
    for (component, input) in manifest::components(bundle).iter().zip(
        parity["bundle_input"]["components"]
            .as_array()
            .unwrap()
            .iter()
            .rev(),
    ) {
        let content = canonical::to_string(&input["value"]).unwrap();
        assert_eq!(component["content"].as_str().unwrap(), content);
    }
}

fn validated(value: &Value) -> Vec<&'static str> {
    let text = serde_json::to_string_pretty(value).unwrap();
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    assert_eq!(checked.kind, Some("AutocontextBundle"));
    checked.errors().map(|d| d.rule.id).collect()
}

#[test]
fn manifest_parity_every_manifest_verifies() {
    let parity = fixture("manifest-parity.json");
    for name in ["baseline", "candidate"] {
        assert!(manifest::verifies(&parity[name]), "{name}");
        assert_eq!(validated(&parity[name]), Vec::<&str>::new(), "{name}");
    }
    let causal = fixture("causal-attribution-manifest-parity.json");
    for name in ["tested", "comparison"] {
        assert!(manifest::verifies(&causal[name]), "{name}");
        assert_eq!(validated(&causal[name]), Vec::<&str>::new(), "{name}");
    }
}

#[test]
fn manifest_diff_parity_every_diff_recomputed() {
    let parity = fixture("manifest-parity.json");
    let expected = fixture("manifest-diff-parity.json");
    let diff = manifest::manifest_diff(&parity["candidate"], &parity["baseline"]).unwrap();
    assert_eq!(diff, expected);
    assert_eq!(
        manifest::diff_digest(&expected).unwrap(),
        expected["digest"].as_str().unwrap()
    );

    let causal = fixture("causal-attribution-manifest-parity.json");
    let diff = manifest::manifest_diff(&causal["tested"], &causal["comparison"]).unwrap();
    assert_eq!(diff, causal["manifest_diff"]);
}

#[test]
fn tampered_manifests_fail_as_the_runtimes_test() {
    let parity = fixture("manifest-parity.json");
    let mut forged = parity["candidate"].clone();
    forged["components"][0]["digest"] = Value::String("0".repeat(64));
    assert!(!manifest::verifies(&forged));
    let rules = validated(&forged);
    assert!(rules.contains(&"autocontext/component-digest"), "{rules:?}");

    let mut unknown = parity["candidate"].clone();
    unknown["components"][0]["kind"] = Value::String("system_prompt".to_owned());
    let rules = validated(&unknown);
    assert_eq!(rules, ["schema/enum"], "{rules:?}");
}

#[test]
fn digest_canonical_refuses_a_number_that_would_collide() {
    let temp = tempfile::tempdir().unwrap();
    fs::write(temp.path().join("a.json"), "{\"a\": 9007199254740993}").unwrap();
    fs::write(temp.path().join("b.json"), "{\"a\": 9007199254740992}").unwrap();
    fs::write(temp.path().join("c.json"), "{\"a\": 9007199254740991}").unwrap();
    let run = numi(
        temp.path(),
        &["digest", "--canonical", "a.json", "b.json", "c.json"],
    );
    assert_ne!(run.code, 0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stdout);
    assert!(lines[0].ends_with("  c.json"), "{}", run.stdout);
    for name in ["a.json", "b.json"] {
        assert!(
            run.stderr.contains(&format!(
                "numi: {name}: canonical json: the number 900719925474099"
            )),
            "{}",
            run.stderr
        );
    }
}

/// The confirmation policy the false-promotion parity fixture reserves for
/// the campaign's first candidate (the base policy at its allocated
/// confidence z), and the digest both runtimes pin for it.
fn reserved_policy(parity: &Value) -> (Value, String) {
    let mut reserved = parity["base_confirmation_policy"].clone();
    reserved["confidence_z"] = parity["candidate_allocations"][0]["required_confidence_z"].clone();
    let digest = parity["persisted_state_case"]["expected_confirmation_policy_digest"]
        .as_str()
        .unwrap()
        .to_owned();
    (reserved, digest)
}

/// A matched-trials envelope of no trials under `policy`, bound to it by
/// `digest`.
fn matched_trials(policy: &Value, digest: &str) -> Value {
    serde_json::json!({
        "schema_version": 2,
        "trials": [],
        "confirmation_policy": policy,
        "confirmation_policy_digest": digest,
    })
}

/// The false-promotion parity case: the policy reserved for the campaign's
/// first candidate (the base policy at its allocated confidence z) has the
/// digest both runtimes pin, and a matched-trials envelope binding it
/// verifies; the base policy's digest does not stand for it.
#[test]
fn false_promotion_parity_policy_digest_binds_matched_trials() {
    let parity = fixture("false-promotion-parity.json");
    let (reserved, expected) = reserved_policy(&parity);
    let expected = expected.as_str();
    assert_eq!(canonical::sha256_hex(&reserved).unwrap(), expected);

    let causal = fixture("causal-attribution-manifest-parity.json");
    let tested = &causal["tested"];
    let digest = tested["digest"].as_str().unwrap();
    let temp = tempfile::tempdir().unwrap();
    let store = temp.path().join("knowledge/demo/context_bundles");
    fs::create_dir_all(store.join("bundles")).unwrap();
    write_json(&store.join(format!("bundles/{digest}.json")), tested);
    let folder = store.join(format!("candidates/{digest}"));
    fs::create_dir_all(&folder).unwrap();
    let trials = folder.join("matched_trials.json");
    let envelope = matched_trials(&reserved, expected);
    write_json(&trials, &envelope);
    // The fixture's tested bundle has a parent the fixture does not hold,
    // so only the matched trials' own line is read here.
    let status = |stdout: &str| {
        statuses(stdout)
            .into_iter()
            .find(|(_, name)| name.ends_with("matched_trials.json"))
            .map(|(status, _)| status)
    };
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(status(&run.stdout).as_deref(), Some("ok"), "{}", run.stdout);

    let mut base = envelope.clone();
    base["confirmation_policy_digest"] =
        Value::String(canonical::sha256_hex(&parity["base_confirmation_policy"]).unwrap());
    write_json(&trials, &base);
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(
        status(&run.stdout).as_deref(),
        Some("invalid"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("computed {expected}")),
        "{}",
        run.stdout
    );
}

/// autocontext reads its store with `json.loads` and `JSON.parse`: a store
/// file that YAML reads but JSON refuses fails where JSON stops, and the
/// same value written as strict JSON passes.
#[test]
fn a_store_file_is_strict_json() {
    let (reserved, digest) = reserved_policy(&fixture("false-promotion-parity.json"));
    let temp = tempfile::tempdir().unwrap();
    let store = temp.path().join("knowledge/demo/context_bundles");
    fs::create_dir_all(store.join("bundles")).unwrap();
    let folder = store.join("candidates/abc");
    fs::create_dir_all(&folder).unwrap();
    let trials = folder.join("matched_trials.json");
    let envelope = matched_trials(&reserved, &digest);
    let strict = serde_json::to_string(&envelope).unwrap();
    let line = |stdout: &str| {
        stdout
            .lines()
            .find(|line| line.contains("matched_trials.json"))
            .unwrap_or_default()
            .to_owned()
    };
    fs::write(&trials, &strict).unwrap();
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert!(
        !line(&run.stdout).contains("yaml/json-syntax"),
        "{}",
        run.stdout
    );
    for loose in [
        format!("{},}}", strict.trim_end_matches('}')),
        format!("# written by hand\n{strict}"),
    ] {
        fs::write(&trials, &loose).unwrap();
        let run = numi(
            temp.path(),
            &["validate", "--files", "knowledge", "--format", "concise"],
        );
        assert!(
            line(&run.stdout).contains("error[yaml/json-syntax] autocontext (Python's json.loads, JavaScript's JSON.parse) reads a .json file as strict JSON, and this one is not"),
            "{}",
            run.stdout
        );
    }
}

/// A baseline bundle and its record, written into `store`; the digest.
fn baseline_with_record(store: &Path) -> String {
    let mut component = serde_json::json!({
        "kind": "playbook", "key": "playbook", "content": "Answer in one line.",
        "media_type": "text/markdown",
    });
    component["digest"] = Value::String(manifest::component_digest(&component).unwrap());
    let mut bundle = serde_json::json!({
        "schema_version": 1, "scenario": "demo", "evaluator_epoch": "epoch-1",
        "parent_digest": null, "components": [component],
    });
    let digest = manifest::manifest_digest(&bundle).unwrap();
    bundle["digest"] = Value::String(digest.clone());
    fs::create_dir_all(store.join("bundles")).unwrap();
    write_json(&store.join(format!("bundles/{digest}.json")), &bundle);
    let folder = store.join(format!("candidates/{digest}"));
    fs::create_dir_all(&folder).unwrap();
    write_json(
        &folder.join("record.json"),
        &serde_json::json!({
            "schema_version": 2, "bundle_digest": digest, "parent_digest": null,
            "evaluator_epoch": "epoch-1", "lifecycle": "active", "source_run_id": "run-1",
            "source_generation": 0, "created_at": "2026-01-01T00:00:00+00:00",
            "updated_at": "2026-01-01T00:00:00+00:00", "rationale": "",
            "comparison": null, "confirmation_policy": null,
            "confirmation_policy_digest": null,
        }),
    );
    digest
}

/// Each file of the store and its status, with the rule ids of concise
/// output on its lines.
fn verdicts(cwd: &Path) -> Vec<(String, String)> {
    let run = numi(
        cwd,
        &["validate", "--files", "knowledge", "--format", "concise"],
    );
    let listed = numi(cwd, &["validate", "--files", "knowledge"]);
    statuses(&listed.stdout)
        .into_iter()
        .map(|(status, name)| {
            let rules: Vec<&str> = run
                .stdout
                .lines()
                .filter(|line| line.contains(&format!("{name}:")))
                .filter_map(|line| line.split("error[").nth(1)?.split(']').next())
                .collect();
            (
                name,
                format!("{status} {}", rules.join(" ")).trim().to_owned(),
            )
        })
        .collect()
}

/// A bundle file or candidate folder that is a link out of its store is
/// refused on its own line as by every file that reads it; a link that
/// stays in the store is read, on every line.
#[cfg(unix)]
#[test]
fn a_link_out_of_the_store_is_refused_on_its_own_line_too() {
    use std::os::unix::fs::symlink;

    let temp = tempfile::tempdir().unwrap();
    let store = temp.path().join("knowledge/demo/context_bundles");
    let digest = baseline_with_record(&store);
    let bundle = format!("demo/context_bundles/bundles/{digest}.json");
    let record = format!("demo/context_bundles/candidates/{digest}/record.json");
    let all_ok = vec![
        (bundle.clone(), "ok".to_owned()),
        (record.clone(), "ok".to_owned()),
    ];
    assert_eq!(verdicts(temp.path()), all_ok);

    // The bundle linked from a folder beside the store, inside the folder
    // given: the walk reads it, the store does not take it.
    let beside = temp.path().join("knowledge/elsewhere");
    fs::create_dir_all(&beside).unwrap();
    let stored = store.join(format!("bundles/{digest}.json"));
    fs::rename(&stored, beside.join("bundle.json")).unwrap();
    symlink(beside.join("bundle.json"), &stored).unwrap();
    assert_eq!(
        verdicts(temp.path()),
        vec![
            (bundle.clone(), "invalid autocontext/store-link".to_owned()),
            (
                record.clone(),
                "invalid autocontext/candidate-bundle".to_owned()
            ),
        ]
    );
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(
        run.stdout.matches("leads outside its store").count(),
        2,
        "{}",
        run.stdout
    );

    // The same link to a file inside the store is the store's.
    let kept = store.join("kept");
    fs::create_dir_all(&kept).unwrap();
    fs::rename(beside.join("bundle.json"), kept.join("bundle.json")).unwrap();
    fs::remove_file(&stored).unwrap();
    symlink(kept.join("bundle.json"), &stored).unwrap();
    assert_eq!(verdicts(temp.path()), all_ok);

    // A candidate folder linked from outside the store.
    let folder = store.join(format!("candidates/{digest}"));
    fs::rename(&folder, beside.join("candidate")).unwrap();
    symlink(beside.join("candidate"), &folder).unwrap();
    assert_eq!(
        verdicts(temp.path()),
        vec![
            (bundle, "ok".to_owned()),
            (record, "invalid autocontext/store-link".to_owned()),
        ]
    );
}

/// A campaign's store as autocontext 0.18.0 wrote it
/// (tests/fixtures/autocontext-campaign/) verifies whole, its reservation
/// artifact included; each edit of the artifact, or of the state it was
/// sealed from, is refused on the artifact's line, a missing state once.
#[test]
fn a_reservation_artifact_autocontext_wrote_verifies_and_each_edit_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    copy_tree(
        &crate::common::fixtures().join("autocontext-campaign"),
        temp.path(),
    );
    let campaign = temp
        .path()
        .join("knowledge/demo/context_bundles/promotion-risk/run-1");
    let state_path = campaign.join("false-promotion.json");
    let artifact_path = campaign.join(
        "reservation-artifacts/9c5df1a69dc8f1134b688781d23d08f123dabff19e83eca23330d04bba58ab0a.json",
    );
    let state = json_at(&state_path);
    let artifact = json_at(&artifact_path);
    let mut transcript = String::new();
    let mut record = |case: &str, format: &str, folder: &str| {
        let run = numi(
            temp.path(),
            &["validate", "--files", folder, "--format", format],
        );
        transcript.push_str(&format!("## {case}\n{}\n", run.transcript()));
    };
    record("as written", "text", "knowledge");

    let promotion_risk = "knowledge/demo/context_bundles/promotion-risk";
    let mut edited = artifact.clone();
    edited["fixture_reservation"]["units"][1]["seed"] = Value::from(7);
    write_json(&artifact_path, &edited);
    record("a unit's seed edited", "concise", promotion_risk);
    reseal_artifact(&mut edited);
    write_json(&artifact_path, &edited);
    record("a unit's seed edited, resealed", "concise", promotion_risk);

    let mut edited = artifact.clone();
    edited["risk_reservation"]["status"] = Value::from("blocked");
    reseal_artifact(&mut edited);
    write_json(&artifact_path, &edited);
    record(
        "a decision the gate did not give, resealed",
        "concise",
        promotion_risk,
    );
    write_json(&artifact_path, &artifact);

    let mut edited = state.clone();
    edited["reservations"][0]["status"] = Value::from("reserved");
    edited["state_digest"] =
        Value::String(numi::kinds::autocontext::false_promotion::state_digest(&edited).unwrap());
    write_json(&state_path, &edited);
    record(
        "the state's reservation not terminal",
        "concise",
        promotion_risk,
    );

    fs::remove_file(&state_path).unwrap();
    record("the state removed", "concise", promotion_risk);
    insta::assert_snapshot!(transcript);
}

/// The store autocontext wrote with a stale and a blocked candidate
/// (tests/fixtures/autocontext-endings/) verifies whole, each negative
/// result recomputed from the store and the stale marker bound to it; each
/// edit of a ledger is named on the ledger's line, and of the stale marker
/// on the marker's, with the value written and the value recomputed.
#[test]
fn negative_results_autocontext_wrote_for_a_stale_and_a_blocked_candidate_are_recomputed() {
    let temp = tempfile::tempdir().unwrap();
    copy_tree(
        &crate::common::fixtures().join("autocontext-endings"),
        temp.path(),
    );
    let candidates = "knowledge/demo/context_bundles/candidates";
    let stale = "604ee1854e75f1c4e0e654ccaf94d73cd44a6602359d3fabae77c4dde0d4376d";
    let blocked = "f92feead18de72738fcf2a783669bc98cf13d978ee1626bedc66cb2d21afdb7e";
    let file = |digest: &str, name: &str| temp.path().join(format!("{candidates}/{digest}/{name}"));
    let mut transcript = String::new();
    let mut record = |case: &str, format: &str, folder: &str| {
        let run = numi(
            temp.path(),
            &["validate", "--files", folder, "--format", format],
        );
        transcript.push_str(&format!("## {case}\n{}\n", run.transcript()));
    };
    record("as written", "text", "knowledge");

    type Edit = (&'static str, &'static str, &'static str, fn(&mut Value));
    let edits: [Edit; 6] = [
        (
            "the stale ledger's reason",
            "stale",
            "negative_result.json",
            |value| value["entries"][0]["reason"] = Value::from("candidate failed its screen"),
        ),
        (
            "the active bundle the stale marker saw",
            "stale",
            "stale_terminalization.json",
            |value| value["observed_active_digest"] = Value::from("0".repeat(64)),
        ),
        (
            "the blocked ledger's score delta and a seed",
            "blocked",
            "negative_result.json",
            |value| {
                value["entries"][0]["score_delta"] = Value::from(0.31);
                value["entries"][0]["evaluated_seeds"][2] = Value::from("12");
            },
        ),
        (
            "the blocked ledger's result id, kind and summary",
            "blocked",
            "negative_result.json",
            |value| {
                let id = Value::from("context-bundle-blocked");
                value["entries"][0]["result_id"] = id.clone();
                value["entries"][0]["failure_kind"] = Value::from("score_regression");
                value["failure_mode_summary"][0]["result_ids"][0] = id;
            },
        ),
        (
            "the blocked ledger's reservation reference",
            "blocked",
            "negative_result.json",
            |value| {
                let reference = &mut value["entries"][0]["evidence_refs"][1];
                let summary = reference["summary"]
                    .as_str()
                    .unwrap()
                    .replace("=0.025;", "=0.05;");
                reference["summary"] = Value::from(summary);
            },
        ),
        (
            "the blocked ledger without its reservation reference",
            "blocked",
            "negative_result.json",
            |value| {
                value["entries"][0]["evidence_refs"]
                    .as_array_mut()
                    .unwrap()
                    .remove(1);
            },
        ),
    ];
    for (case, which, name, edit) in edits {
        let digest = if which == "stale" { stale } else { blocked };
        let path = file(digest, name);
        let written = json_at(&path);
        let mut edited = written.clone();
        edit(&mut edited);
        write_json(&path, &edited);
        record(case, "concise", &format!("{candidates}/{digest}"));
        write_json(&path, &written);
    }
    record("restored", "concise", "knowledge");
    insta::assert_snapshot!(transcript);
}
