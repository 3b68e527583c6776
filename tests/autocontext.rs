//! numi as the third autocontext runtime: the parity fixtures autocontext's
//! Python and TypeScript runtimes pin, and stores written by the real
//! producer (`autocontext` from PyPI, installed by `.ci/run`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stderr
)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use numi::canonical;
use numi::kinds::autocontext::manifest;
use numi::yaml::{self, Limits};
use numi::{Mode, validate_bytes};
use serde_json::Value;

use common::numi;

/// `../shared/autocontext/fixtures/` beside the repository, or the folder
/// `NUMI_SHARED_DIR/autocontext/fixtures/` names; missing fixtures fail.
fn fixtures() -> PathBuf {
    let shared = std::env::var_os("NUMI_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let folder = shared.join("autocontext/fixtures");
    assert!(
        folder.is_dir(),
        "the autocontext parity fixtures are missing: {} (set NUMI_SHARED_DIR)",
        folder.display()
    );
    folder
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
    checked.errors().map(|d| d.rule).collect()
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

/// The Python that has autocontext: `NUMI_AUTOCONTEXT_PYTHON`, else the
/// venv `.ci/run` makes under `target/`.
fn producer_python() -> Option<PathBuf> {
    let python = std::env::var_os("NUMI_AUTOCONTEXT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/autocontext-venv/bin/python")
        });
    let works = Command::new(&python)
        .args(["-c", "import autocontext.context_bundles"])
        .output()
        .is_ok_and(|output| output.status.success());
    if works {
        return Some(python);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "autocontext is not installed for {} (see .ci/run)",
        python.display()
    );
    eprintln!(
        "skipped: autocontext is not installed for {}",
        python.display()
    );
    None
}

/// Writes a store with the real producer; the knowledge folder.
fn written_store(python: &Path, into: &Path) -> PathBuf {
    written_store_with(python, into, &[])
}

fn written_store_with(python: &Path, into: &Path, options: &[&str]) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_store.py");
    let knowledge = into.join("knowledge");
    let output = Command::new(python)
        .arg(&script)
        .arg(&knowledge)
        .args(options)
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    knowledge
}

/// Each reported file's status and display name.
fn statuses(stdout: &str) -> Vec<(String, String)> {
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

fn store_path(knowledge: &Path, relative: &str) -> PathBuf {
    knowledge.join("demo/context_bundles").join(relative)
}

fn json_at(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn write_json(path: &Path, value: &Value) {
    fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

#[test]
fn a_store_written_by_autocontext_verifies_and_each_tampering_fails_exactly_its_file() {
    let Some(python) = producer_python() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(&python, temp.path());
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let found = statuses(&run.stdout);
    // Four bundles, the pointer, four records, three diffs, two evaluator
    // plans and two matched trials, a causal attribution, a negative result
    // and a promotion record.
    assert_eq!(found.len(), 19, "{}", run.stdout);
    for kind in [
        "/matched_trials.json",
        "/causal_attribution.json",
        "/negative_result.json",
        "/evaluator_plan.json",
        "/promotions/",
    ] {
        assert!(
            found.iter().any(|(_, name)| name.contains(kind)),
            "{kind}: {}",
            run.stdout
        );
    }
    assert!(
        found.iter().all(|(status, _)| status == "ok"),
        "{}",
        run.stdout
    );

    // The rejected leaf: no pointer or child depends on its digests.
    let pointer = json_at(&store_path(&knowledge, "active.json"));
    let leaf = found
        .iter()
        .map(|(_, name)| name.clone())
        .filter(|name| name.contains("/bundles/"))
        .find(|name| {
            let bundle = json_at(&knowledge.join(name));
            let digest = bundle["digest"].as_str().unwrap().to_owned();
            let record = json_at(&store_path(
                &knowledge,
                &format!("candidates/{digest}/record.json"),
            ));
            // Never evaluated: no evidence file depends on it either.
            record["lifecycle"] == "rejected"
                && record["comparison"].is_null()
                && record["parent_digest"] != pointer["bundle_digest"]
        })
        .expect("a rejected leaf");
    let leaf_digest = leaf
        .rsplit('/')
        .next()
        .unwrap()
        .strip_suffix(".json")
        .unwrap()
        .to_owned();

    // The promoted candidate holds the causal attribution, the one that
    // failed its screen the negative result.
    let folder_of = |file: &str| {
        found
            .iter()
            .map(|(_, name)| name.clone())
            .find(|name| name.ends_with(file))
            .and_then(|name| name.strip_suffix(file).map(str::to_owned))
            .expect(file)
    };
    let promoted = folder_of("/causal_attribution.json");
    let failed = folder_of("/negative_result.json");
    let promotion = found
        .iter()
        .map(|(_, name)| name.clone())
        .find(|name| name.contains("/promotions/"))
        .unwrap();

    type Tamper = Box<dyn Fn(&Path)>;
    let record = format!("demo/context_bundles/candidates/{leaf_digest}/record.json");
    let diff = format!("demo/context_bundles/candidates/{leaf_digest}/manifest_diff.json");
    let edit = |change: fn(&mut Value)| -> Tamper {
        Box::new(move |path: &Path| {
            let mut value = json_at(path);
            change(&mut value);
            write_json(path, &value);
        })
    };
    let cases: Vec<(&str, String, Tamper)> = vec![
        (
            "a byte of content",
            leaf.clone(),
            Box::new(|path| {
                let text = fs::read_to_string(path).unwrap();
                fs::write(path, text.replacen("Answer twice.", "Answer twice!", 1)).unwrap();
            }),
        ),
        (
            "a digest",
            diff.clone(),
            Box::new(|path| {
                let mut value = json_at(path);
                value["digest"] = Value::String("0".repeat(64));
                write_json(path, &value);
            }),
        ),
        (
            "a pointer",
            "demo/context_bundles/active.json".to_owned(),
            Box::new(|path| {
                let mut value = json_at(path);
                value["evaluator_epoch"] = Value::String("epoch-2".to_owned());
                write_json(path, &value);
            }),
        ),
        (
            "a lifecycle",
            record.clone(),
            Box::new(|path| {
                let mut value = json_at(path);
                value["lifecycle"] = Value::String("archived".to_owned());
                write_json(path, &value);
            }),
        ),
        (
            "a reordered component",
            leaf.clone(),
            Box::new(|path| {
                let mut value = json_at(path);
                value["components"].as_array_mut().unwrap().reverse();
                write_json(path, &value);
            }),
        ),
        (
            "a pair key",
            format!("{promoted}/matched_trials.json"),
            edit(|value| value["trials"][0]["pair_key"] = Value::String("0".repeat(64))),
        ),
        (
            "a trial's binding",
            format!("{promoted}/matched_trials.json"),
            edit(|value| value["trials"][1]["incumbent_digest"] = Value::String("1".repeat(64))),
        ),
        (
            "a trial repeated under another lane",
            format!("{promoted}/matched_trials.json"),
            edit(|value| {
                let trials = value["trials"].as_array_mut().unwrap();
                let mut twin = trials[0].clone();
                twin["lane"] = Value::String("heldout".to_owned());
                twin["pair_key"] = Value::Null;
                trials.push(twin);
            }),
        ),
        (
            "the evidence's policy digest",
            format!("{promoted}/matched_trials.json"),
            edit(|value| value["confirmation_policy"]["min_effect"] = Value::from(0.5)),
        ),
        (
            "an attribution's id",
            format!("{promoted}/causal_attribution.json"),
            edit(|value| {
                value["attributions"][0]["attribution"]["effect"] = Value::from(0.9);
                value["attributions"][0]["attribution"]["trial_cohort"] =
                    Value::String("cohort-b".to_owned());
            }),
        ),
        (
            "a causal attribution beside a diff that is not one pure addition",
            format!("demo/context_bundles/candidates/{leaf_digest}/causal_attribution.json"),
            {
                let from = knowledge.join(format!("{promoted}/causal_attribution.json"));
                Box::new(move |path: &Path| {
                    fs::copy(&from, path).unwrap();
                })
            },
        ),
        (
            "a negative result's binding",
            format!("{failed}/negative_result.json"),
            edit(|value| value["entries"][0]["context"]["evaluator_epoch"] = "epoch-2".into()),
        ),
        (
            "a negative result's evidence digest",
            format!("{failed}/negative_result.json"),
            edit(|value| {
                let uri = value["entries"][0]["evidence_refs"][0]["uri"]
                    .as_str()
                    .unwrap()
                    .to_owned();
                let (path, _) = uri.split_once("#sha256=").unwrap();
                value["entries"][0]["evidence_refs"][0]["uri"] =
                    Value::String(format!("{path}#sha256={}", "0".repeat(64)));
            }),
        ),
        (
            "a lifecycle that forbids a negative result",
            format!("{failed}/negative_result.json"),
            {
                Box::new(move |path: &Path| {
                    // The record beside it: the ledger itself is untouched.
                    let record = path.with_file_name("record.json");
                    let mut value = json_at(&record);
                    value["lifecycle"] = Value::String("confirmed".to_owned());
                    value["comparison"]["decision"] = Value::String("confirmed".to_owned());
                    write_json(&record, &value);
                })
            },
        ),
        (
            "a plan digest",
            format!("{promoted}/evaluator_plan.json"),
            edit(|value| value["plan"]["cohort"] = Value::String("cohort-b".to_owned())),
        ),
        (
            "a plan's binding",
            format!("{promoted}/evaluator_plan.json"),
            edit(|value| {
                value["plan"]["evaluator_epoch"] = Value::String("epoch-2".to_owned());
                value["plan_digest"] =
                    Value::String(canonical::sha256_hex(&value["plan"]).unwrap());
            }),
        ),
        (
            "a promotion's policy digest",
            promotion.clone(),
            edit(|value| value["confirmation_policy_digest"] = Value::String("0".repeat(64))),
        ),
        (
            "a promotion's manifest diff digest",
            promotion.clone(),
            edit(|value| value["manifest_diff_digest"] = Value::String("0".repeat(64))),
        ),
        (
            "a promotion's rollback target",
            promotion.clone(),
            edit(|value| value["rollback_target_digest"] = Value::String("2".repeat(64))),
        ),
    ];

    for (what, target, tamper) in cases {
        let copy = tempfile::tempdir().unwrap();
        let knowledge = written_copy(&knowledge, copy.path());
        tamper(&knowledge.join(&target));
        let run = numi(copy.path(), &["validate", "--files", "knowledge"]);
        assert_ne!(run.code, 0, "{what}: {}", run.transcript());
        let failing: Vec<String> = statuses(&run.stdout)
            .into_iter()
            .filter(|(status, _)| status != "ok")
            .map(|(_, name)| name)
            .collect();
        assert_eq!(failing, vec![target.clone()], "{what}: {}", run.stdout);
    }
}

#[test]
fn a_store_with_non_ascii_content_written_by_autocontext_verifies() {
    let Some(python) = producer_python() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    written_store_with(&python, temp.path(), &["--non-ascii"]);
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let found = statuses(&run.stdout);
    assert_eq!(found.len(), 19, "{}", run.stdout);
    assert!(
        found.iter().all(|(status, _)| status == "ok"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_store_with_legacy_matched_trials_verifies_and_a_forged_legacy_key_fails() {
    let Some(python) = producer_python() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store_with(&python, temp.path(), &["--legacy-trials"]);
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let found = statuses(&run.stdout);
    assert_eq!(found.len(), 20, "{}", run.stdout);
    let legacy = found
        .iter()
        .map(|(_, name)| knowledge.join(name))
        .find(|path| path.ends_with("matched_trials.json") && json_at(path).is_array())
        .expect("a legacy matched_trials.json");
    let mut trials = json_at(&legacy);
    trials[0]["seed"] = Value::from(99);
    write_json(&legacy, &trials);
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_ne!(run.code, 0, "{}", run.transcript());
    let failing: Vec<String> = statuses(&run.stdout)
        .into_iter()
        .filter(|(status, _)| status != "ok")
        .map(|(_, name)| name)
        .collect();
    assert_eq!(failing.len(), 1, "{}", run.stdout);
    assert!(legacy.ends_with(&failing[0]), "{}", run.stdout);
    assert!(
        run.stdout.contains("trial 0 has pair_key"),
        "{}",
        run.stdout
    );
}

/// The false-promotion parity case: the policy reserved for the campaign's
/// first candidate (the base policy at its allocated confidence z) has the
/// digest both runtimes pin, and a matched-trials envelope binding it
/// verifies; the base policy's digest does not stand for it.
#[test]
fn false_promotion_parity_policy_digest_binds_matched_trials() {
    let parity = fixture("false-promotion-parity.json");
    let mut reserved = parity["base_confirmation_policy"].clone();
    reserved["confidence_z"] = parity["candidate_allocations"][0]["required_confidence_z"].clone();
    let expected = parity["persisted_state_case"]["expected_confirmation_policy_digest"]
        .as_str()
        .unwrap();
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
    let envelope = serde_json::json!({
        "schema_version": 2,
        "trials": [],
        "confirmation_policy": reserved,
        "confirmation_policy_digest": expected,
    });
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

#[test]
fn a_lagging_lifecycle_mirror_is_a_warning_and_an_error_under_strict() {
    let Some(python) = producer_python() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(&python, temp.path());
    let pointer = json_at(&store_path(&knowledge, "active.json"));
    let active = pointer["bundle_digest"].as_str().unwrap();
    let record_path = store_path(&knowledge, &format!("candidates/{active}/record.json"));
    let mut record = json_at(&record_path);
    record["lifecycle"] = Value::String("confirmed".to_owned());
    write_json(&record_path, &record);
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr.contains("autocontext/lifecycle-mirror"),
        "{}",
        run.transcript()
    );
    let strict = numi(
        temp.path(),
        &["validate", "--strict", "--files", "knowledge"],
    );
    assert_ne!(strict.code, 0, "{}", strict.transcript());
}

#[test]
fn a_promotion_id_that_would_leave_the_store_is_refused_not_read() {
    let Some(python) = producer_python() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(&python, temp.path());
    let path = store_path(&knowledge, "active.json");
    let mut pointer = json_at(&path);
    pointer["promotion_id"] = Value::String("../../../../etc/passwd".to_owned());
    write_json(&path, &pointer);
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stdout.contains("is refused, not read"),
        "{}",
        run.stdout
    );
}

fn written_copy(knowledge: &Path, into: &Path) -> PathBuf {
    let target = into.join("knowledge");
    copy_tree(knowledge, &target);
    target
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let destination = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &destination);
        } else {
            fs::copy(entry.path(), &destination).unwrap();
        }
    }
}

#[test]
fn a_store_verifies_the_same_files_whatever_the_current_folder() {
    let Some(python) = producer_python() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(&python, temp.path());
    let store = knowledge.join("demo/context_bundles");
    let absolute = numi(
        temp.path(),
        &["validate", "--files", store.to_str().unwrap()],
    );
    assert_eq!(absolute.code, 0, "{}", absolute.transcript());
    let expected = statuses(&absolute.stdout);
    assert_eq!(expected.len(), 19, "{}", absolute.stdout);
    for (cwd, argument) in [
        (knowledge.join("demo"), "context_bundles"),
        (store.clone(), "."),
        (store.join("bundles"), ".."),
    ] {
        let run = numi(&cwd, &["validate", "--files", argument]);
        assert_eq!(run.code, 0, "{argument}: {}", run.transcript());
        assert_eq!(statuses(&run.stdout), expected, "{argument}");
    }
}
