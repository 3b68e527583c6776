//! Stores written by the real autocontext producer (`autocontext` 0.18.0
//! from PyPI, greyhaven-ai's reference runtime) verify, and each tampering
//! fails exactly the file tampered with.

use std::fs;
use std::path::{Path, PathBuf};

use numi::canonical;
use serde_json::Value;

use crate::common::{
    copy_tree, failing_files, json_at, numi, reseal_artifact, statuses, write_json,
};
use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "autocontext",
    install: ".ci/run installs autocontext==0.18.0 with pip into target/autocontext-venv",
    locate,
    tests: &[
        (
            "autocontext::a_store_written_by_autocontext_verifies_and_each_tampering_fails_exactly_its_file",
            a_store_written_by_autocontext_verifies_and_each_tampering_fails_exactly_its_file,
        ),
        (
            "autocontext::a_store_with_non_ascii_content_written_by_autocontext_verifies",
            a_store_with_non_ascii_content_written_by_autocontext_verifies,
        ),
        (
            "autocontext::a_store_with_legacy_matched_trials_verifies_and_a_forged_legacy_key_fails",
            a_store_with_legacy_matched_trials_verifies_and_a_forged_legacy_key_fails,
        ),
        (
            "autocontext::comparisons_autocontext_confirms_rejects_and_leaves_inconclusive_replay_and_each_edit_is_refused_by_both",
            comparisons_autocontext_confirms_rejects_and_leaves_inconclusive_replay_and_each_edit_is_refused_by_both,
        ),
        (
            "autocontext::reservations_the_candidates_comparisons_ended_verify_and_an_edited_reason_is_refused_by_both",
            reservations_the_candidates_comparisons_ended_verify_and_an_edited_reason_is_refused_by_both,
        ),
        (
            "autocontext::an_attribution_is_recomputed_from_its_trials_as_autocontext_replays_it",
            an_attribution_is_recomputed_from_its_trials_as_autocontext_replays_it,
        ),
        (
            "autocontext::trials_that_are_no_unit_of_the_bound_plan_are_refused_by_both",
            trials_that_are_no_unit_of_the_bound_plan_are_refused_by_both,
        ),
        (
            "autocontext::a_store_an_integer_scoring_evaluator_wrote_verifies",
            a_store_an_integer_scoring_evaluator_wrote_verifies,
        ),
        (
            "autocontext::held_and_pending_candidates_autocontext_wrote_verify",
            held_and_pending_candidates_autocontext_wrote_verify,
        ),
        (
            "autocontext::a_campaign_state_written_by_autocontext_verifies_and_a_resealed_alpha_fails",
            a_campaign_state_written_by_autocontext_verifies_and_a_resealed_alpha_fails,
        ),
        (
            "autocontext::a_reservation_artifact_written_by_autocontext_verifies_and_an_edited_seed_is_refused_by_both",
            a_reservation_artifact_written_by_autocontext_verifies_and_an_edited_seed_is_refused_by_both,
        ),
        (
            "autocontext::a_lagging_lifecycle_mirror_is_a_warning_and_an_error_under_strict",
            a_lagging_lifecycle_mirror_is_a_warning_and_an_error_under_strict,
        ),
        (
            "autocontext::a_promotion_id_that_would_leave_the_store_is_refused_not_read",
            a_promotion_id_that_would_leave_the_store_is_refused_not_read,
        ),
        (
            "autocontext::a_store_verifies_the_same_files_whatever_the_current_folder",
            a_store_verifies_the_same_files_whatever_the_current_folder,
        ),
        (
            "autocontext::a_negative_result_autocontexts_reader_or_its_store_refuses_is_refused",
            a_negative_result_autocontexts_reader_or_its_store_refuses_is_refused,
        ),
        (
            "autocontext::negative_results_of_a_stale_and_a_blocked_candidate_verify_and_an_edited_reason_fails",
            negative_results_of_a_stale_and_a_blocked_candidate_verify_and_an_edited_reason_fails,
        ),
        (
            "autocontext::a_stale_markers_bindings_and_a_stale_rejections_reason_edited_are_refused_by_both",
            a_stale_markers_bindings_and_a_stale_rejections_reason_edited_are_refused_by_both,
        ),
    ],
};

/// The Python that has autocontext: `NUMI_AUTOCONTEXT_PYTHON`, else the
/// venv `.ci/run` makes under `target/`.
fn locate() -> Option<Program> {
    let python = Program::new(
        std::env::var_os("NUMI_AUTOCONTEXT_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("target/autocontext-venv/bin/python")
            }),
    );
    python
        .answers(&["-c", "import autocontext.context_bundles"])
        .then_some(python)
}

/// Writes a store with the real producer; the knowledge folder.
fn written_store(python: &Program, into: &Path) -> PathBuf {
    written_store_with(python, into, &[])
}

fn written_store_with(python: &Program, into: &Path, options: &[&str]) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_store.py");
    let knowledge = into.join("knowledge");
    let output = python
        .command()
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

fn store_path(knowledge: &Path, relative: &str) -> PathBuf {
    knowledge.join("demo/context_bundles").join(relative)
}

fn a_store_written_by_autocontext_verifies_and_each_tampering_fails_exactly_its_file(
    python: &Program,
) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(python, temp.path());
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
        let failing = failing_files(&run.stdout);
        assert_eq!(failing, vec![target.clone()], "{what}: {}", run.stdout);
    }
}

fn a_store_with_non_ascii_content_written_by_autocontext_verifies(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    written_store_with(python, temp.path(), &["--non-ascii"]);
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

fn a_store_with_legacy_matched_trials_verifies_and_a_forged_legacy_key_fails(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store_with(python, temp.path(), &["--legacy-trials"]);
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
    let failing = failing_files(&run.stdout);
    assert_eq!(failing.len(), 1, "{}", run.stdout);
    assert!(legacy.ends_with(&failing[0]), "{}", run.stdout);
    assert!(
        run.stdout.contains("trial 0 has pair_key"),
        "{}",
        run.stdout
    );
}

/// autocontext's own reader (`reconstruct_manifest_verified_causal_credit`)
/// on the attribution of candidate `digest`: its refusal, if it refuses.
fn autocontext_refuses_attribution(
    python: &Program,
    knowledge: &Path,
    digest: &str,
) -> Option<String> {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/read_attribution.py");
    let output = python
        .command()
        .arg(&script)
        .arg(knowledge)
        .arg(digest)
        .output()
        .expect("python runs");
    (!output.status.success()).then(|| String::from_utf8_lossy(&output.stderr).into_owned())
}

fn an_attribution_is_recomputed_from_its_trials_as_autocontext_replays_it(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(python, temp.path());
    let attributions: Vec<PathBuf> = fs::read_dir(store_path(&knowledge, "candidates"))
        .unwrap()
        .map(|entry| entry.unwrap().path().join("causal_attribution.json"))
        .filter(|path| path.is_file())
        .collect();
    let [path] = attributions.as_slice() else {
        panic!("one causal attribution: {attributions:?}");
    };
    let digest = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|name| name.to_str())
        .unwrap()
        .to_owned();
    assert_eq!(
        autocontext_refuses_attribution(python, &knowledge, &digest),
        None
    );
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());

    let written = json_at(path);
    let effect = written["attributions"][0]["attribution"]["effect"].clone();
    let cases: [(&str, Value); 4] = [
        ("effect", Value::from(effect.as_f64().unwrap() + 0.01)),
        ("confidence", Value::from(1.0)),
        ("disposition", Value::String("harmful".to_owned())),
        ("token_cost", Value::from(1)),
    ];
    for (field, edited) in cases {
        let mut value = written.clone();
        value["attributions"][0]["attribution"][field] = edited;
        write_json(path, &value);
        let refusal = autocontext_refuses_attribution(python, &knowledge, &digest);
        assert!(refusal.is_some(), "autocontext accepts an edited {field}");
        let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
        assert_ne!(run.code, 0, "{field}: {}", run.transcript());
        let failing = failing_files(&run.stdout);
        assert_eq!(failing.len(), 1, "{field}: {}", run.stdout);
        assert!(path.ends_with(&failing[0]), "{field}: {}", run.stdout);
        let transcript = run.transcript();
        assert!(
            transcript.contains(&format!("{field} is "))
                && transcript.contains("from its source trials"),
            "{field}: {transcript}"
        );
    }
    write_json(path, &written);
    verifies_whole(temp.path());
}

/// What autocontext's coordinator refuses when it evaluates the candidate
/// `digest` of the store `script` wrote again, as a retried run does
/// (`SCRIPT --resume`), if anything.
fn autocontext_resume_refusal(
    python: &Program,
    script: &str,
    knowledge: &Path,
    digest: &str,
) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/autocontext")
        .join(script);
    let output = python
        .command()
        .arg(&script)
        .arg(knowledge)
        .args(["--resume", digest])
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// numi's concise run over `knowledge/` in `folder`, and its error lines.
fn concise_errors(folder: &Path) -> (crate::common::Run, Vec<String>) {
    let run = numi(
        folder,
        &["validate", "--format", "concise", "--files", "knowledge"],
    );
    let failing = run
        .stdout
        .lines()
        .filter(|line| line.contains("error["))
        .map(str::to_owned)
        .collect();
    (run, failing)
}

/// A trial that is no unit of the evaluator plan bound beside it (its seed
/// moved, or its pair on a fixture the plan never named), its pair key
/// recomputed: autocontext's resume refuses it, and numi refuses
/// matched_trials.json alone.
fn trials_that_are_no_unit_of_the_bound_plan_are_refused_by_both(python: &Program) {
    const NO_UNIT: &str =
        "persisted matched evidence does not match the configured evaluation plan";
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(python, temp.path());
    // The promoted candidate: its trials are digested by their pair keys
    // alone (its attribution copies only the held-out trial).
    let path = fs::read_dir(store_path(&knowledge, "candidates"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|folder| folder.join("causal_attribution.json").is_file())
        .expect("the promoted candidate")
        .join("matched_trials.json");
    let digest = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|name| name.to_str())
        .unwrap()
        .to_owned();
    assert!(
        !autocontext_resume_refusal(python, "write_store.py", &knowledge, &digest)
            .contains(NO_UNIT),
        "autocontext refuses the trials it wrote"
    );
    let written = json_at(&path);
    let confirmation = written["trials"]
        .as_array()
        .unwrap()
        .iter()
        .position(|trial| trial["lane"] == "confirmation")
        .unwrap();
    type Edit = fn(&mut Value);
    let edits: [(&str, Edit); 2] = [
        ("a seed moved", |trial| trial["seed"] = Value::from(7)),
        ("a fixture the plan never named", |trial| {
            trial["fixture_digest"] = Value::from("sha256:fixture-9");
        }),
    ];
    for (what, edit) in edits {
        let mut value = written.clone();
        let trial = &mut value["trials"][confirmation];
        edit(trial);
        let identity: serde_json::Map<String, Value> =
            ["evaluator_epoch", "cohort", "fixture_digest", "seed"]
                .iter()
                .map(|field| ((*field).to_owned(), trial[*field].clone()))
                .collect();
        trial["pair_key"] = Value::String(canonical::sha256_hex(&Value::Object(identity)).unwrap());
        write_json(&path, &value);
        assert!(
            autocontext_resume_refusal(python, "write_store.py", &knowledge, &digest)
                .contains(NO_UNIT),
            "{what}: autocontext resumes"
        );
        let (run, failing) = concise_errors(temp.path());
        assert!(
            failing.len() == 1
                && failing[0].contains("/matched_trials.json:")
                && failing[0].contains("error[autocontext/trials-plan]"),
            "{what}: {}",
            run.stdout
        );
    }
    write_json(&path, &written);
    verifies_whole(temp.path());
}

/// An evaluator that scores with the integers 1 and 0: autocontext keeps
/// `1` in the matched trials and writes `1.0` in the causal attribution (a
/// pydantic float), one number to Python's `==` and to every canonical
/// digest. The store verifies whole, with and without a campaign, and
/// autocontext's own readers accept it; a source trial's score edited to
/// another number is refused by both.
fn a_store_an_integer_scoring_evaluator_wrote_verifies(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store_with(python, temp.path(), &["--integer-scores"]);
    let path = fs::read_dir(store_path(&knowledge, "candidates"))
        .unwrap()
        .map(|entry| entry.unwrap().path().join("causal_attribution.json"))
        .find(|path| path.is_file())
        .expect("a causal attribution");
    let digest = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|name| name.to_str())
        .unwrap()
        .to_owned();
    let written = json_at(&path);
    let source = &written["source_trials"][0];
    let trials = json_at(&path.with_file_name("matched_trials.json"));
    let held_out = trials["trials"]
        .as_array()
        .unwrap()
        .iter()
        .find(|trial| trial["pair_key"] == source["trial_id"])
        .unwrap();
    assert!(
        held_out["candidate_score"].is_u64() && source["with_component_score"].is_f64(),
        "{held_out} {source}"
    );
    assert_eq!(
        autocontext_refuses_attribution(python, &knowledge, &digest),
        None
    );
    verifies_whole(temp.path());

    let mut edited = written.clone();
    edited["source_trials"][0]["with_component_score"] = Value::from(0.0);
    write_json(&path, &edited);
    assert!(autocontext_refuses_attribution(python, &knowledge, &digest).is_some());
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    let failing = failing_files(&run.stdout);
    assert_eq!(failing.len(), 1, "{}", run.stdout);
    assert!(path.ends_with(&failing[0]), "{}", run.stdout);
    write_json(&path, &written);
    verifies_whole(temp.path());

    // Under a campaign: the gate replays the integers, and the artifact it
    // seals holds them.
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store_with(python, temp.path(), &["--integer-scores", "--campaign"]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_store.py");
    for check in ["--check-campaign", "--check-artifacts"] {
        let output = python
            .command()
            .arg(&script)
            .arg(&knowledge)
            .arg(check)
            .output()
            .expect("python runs");
        assert!(
            output.status.success(),
            "{check}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("AutocontextReservationArtifact \"authorized\""),
        "{}",
        run.stdout
    );
}

/// Under a campaign, a candidate a pre-promotion audit holds (confirmed,
/// its reservation still reserved, nothing promoted) and one whose
/// evaluator failed on a unit (pending, with part of its trials): every
/// file autocontext wrote verifies.
fn held_and_pending_candidates_autocontext_wrote_verify(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = temp.path().join("knowledge");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_store.py");
    let output = python
        .command()
        .arg(&script)
        .arg(&knowledge)
        .arg("--held")
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let digests: Value = serde_json::from_slice(&output.stdout).unwrap();
    let record = |ending: &str| {
        json_at(&store_path(
            &knowledge,
            &format!(
                "candidates/{}/record.json",
                digests[ending].as_str().unwrap()
            ),
        ))
    };
    assert_eq!(record("held")["lifecycle"], "confirmed");
    assert_eq!(record("held")["comparison"]["decision"], "confirmed");
    assert_ne!(record("pending")["comparison"]["decision"], "confirmed");
    let state = json_at(&store_path(
        &knowledge,
        "promotion-risk/run-1/false-promotion.json",
    ));
    assert_eq!(state["reservations"][0]["status"], "reserved");
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("AutocontextCampaignState")
            && run.stdout.matches("AutocontextMatchedTrials").count() == 2,
        "{}",
        run.stdout
    );
}

fn a_campaign_state_written_by_autocontext_verifies_and_a_resealed_alpha_fails(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store_with(python, temp.path(), &["--campaign"]);
    let state = store_path(&knowledge, "promotion-risk/run-1/false-promotion.json");
    let autocontext_accepts = || {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_store.py");
        python
            .command()
            .arg(&script)
            .arg(&knowledge)
            .arg("--check-campaign")
            .status()
            .expect("python runs")
            .success()
    };
    assert!(autocontext_accepts());
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("AutocontextCampaignState"),
        "{}",
        run.stdout
    );

    // A larger alpha for the authorized candidate, the digest resealed so
    // that only the allocation is wrong.
    let written = json_at(&state);
    assert_eq!(written["reservations"][0]["status"], "authorized");
    let mut value = written.clone();
    value["reservations"][0]["allocated_alpha"] = Value::from(0.05);
    value["state_digest"] =
        Value::String(numi::kinds::autocontext::false_promotion::state_digest(&value).unwrap());
    write_json(&state, &value);
    assert!(!autocontext_accepts());
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_ne!(run.code, 0, "{}", run.transcript());
    let failing = failing_files(&run.stdout);
    // The state, and the reservation artifact sealed from what it held.
    assert_eq!(failing.len(), 2, "{}", run.stdout);
    assert!(state.ends_with(&failing[0]), "{}", run.stdout);
    assert!(
        failing[1].contains("/reservation-artifacts/"),
        "{}",
        run.stdout
    );
    assert!(
        run.transcript().contains("allocated_alpha is 0.05"),
        "{}",
        run.transcript()
    );

    // What the gate decided is replayed from the candidate's matched
    // trials: a block count it does not give is refused, resealed or not.
    let mut value = written.clone();
    value["reservations"][0]["independent_confirmation_blocks"] = Value::from(3);
    value["state_digest"] =
        Value::String(numi::kinds::autocontext::false_promotion::state_digest(&value).unwrap());
    write_json(&state, &value);
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_ne!(run.code, 0, "{}", run.transcript());
    assert!(
        run.transcript()
            .contains("independent_confirmation_blocks is 3, the gate counts 2"),
        "{}",
        run.transcript()
    );
    write_json(&state, &written);
    verifies_whole(temp.path());
}

fn a_reservation_artifact_written_by_autocontext_verifies_and_an_edited_seed_is_refused_by_both(
    python: &Program,
) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store_with(python, temp.path(), &["--campaign"]);
    let folder = store_path(&knowledge, "promotion-risk/run-1/reservation-artifacts");
    let artifacts: Vec<PathBuf> = fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    // The promoted candidate's authorization, sealed by the controller.
    assert_eq!(artifacts.len(), 1, "{artifacts:?}");
    let path = &artifacts[0];
    // What autocontext's readers say of the artifacts: nothing, or why
    // they refuse one.
    let autocontext_refusal = || {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_store.py");
        let output = python
            .command()
            .arg(&script)
            .arg(&knowledge)
            .arg("--check-artifacts")
            .output()
            .expect("python runs");
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.success(), said.is_empty(), "{said}");
        said
    };
    assert_eq!(autocontext_refusal(), "");
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("reservation-artifacts/")
            && run
                .stdout
                .contains("AutocontextReservationArtifact \"authorized\""),
        "{}",
        run.stdout
    );

    let written = json_at(path);
    assert_eq!(written["risk_reservation"]["status"], "authorized");
    let refused_on_the_artifact_alone = |expected: &[&str]| {
        let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
        assert_ne!(run.code, 0, "{}", run.transcript());
        let failing = failing_files(&run.stdout);
        assert_eq!(failing.len(), 1, "{}", run.stdout);
        assert!(path.ends_with(&failing[0]), "{}", run.stdout);
        let concise = numi(
            temp.path(),
            &["validate", "--files", "knowledge", "--format", "concise"],
        );
        // In the order of the fields they stand at.
        let mut rules: Vec<&str> = concise
            .stdout
            .lines()
            .filter_map(|line| line.split("error[").nth(1)?.split(']').next())
            .collect();
        rules.sort_unstable();
        let mut expected = expected.to_vec();
        expected.sort_unstable();
        assert_eq!(rules, expected, "{}", concise.stdout);
    };
    // A unit's seed edited: autocontext's fixture reader refuses its plan
    // digest, and numi every digest, the comparison with the state and the
    // trials gathered under the plan.
    let mut value = written.clone();
    value["fixture_reservation"]["units"][1]["seed"] = Value::from(7);
    write_json(path, &value);
    assert!(autocontext_refusal().contains("campaign fixture plan digest mismatch"));
    refused_on_the_artifact_alone(&[
        "autocontext/reservation-artifact-digest",
        "autocontext/reservation-fixture-plan",
        "autocontext/reservation-artifact-binding",
        "autocontext/reservation-fixture-plan",
    ]);
    // Resealed, the artifact is no longer the one the controller rebuilds
    // from the campaign state, for autocontext as for numi, and its trials
    // are still not the plan's.
    reseal_artifact(&mut value);
    write_json(path, &value);
    assert!(autocontext_refusal().contains("reservation artifact is immutable"));
    refused_on_the_artifact_alone(&[
        "autocontext/reservation-artifact-binding",
        "autocontext/reservation-fixture-plan",
    ]);
    // A decision the gate did not give, resealed: the same.
    let mut value = written.clone();
    value["risk_reservation"]["status"] = Value::from("blocked");
    reseal_artifact(&mut value);
    write_json(path, &value);
    assert!(autocontext_refusal().contains("reservation artifact is immutable"));
    refused_on_the_artifact_alone(&[
        "autocontext/reservation-artifact-binding",
        "autocontext/campaign-gate",
    ]);

    write_json(path, &written);
    assert_eq!(autocontext_refusal(), "");
    verifies_whole(temp.path());
}

fn a_lagging_lifecycle_mirror_is_a_warning_and_an_error_under_strict(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(python, temp.path());
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

fn a_promotion_id_that_would_leave_the_store_is_refused_not_read(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(python, temp.path());
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

fn a_store_verifies_the_same_files_whatever_the_current_folder(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(python, temp.path());
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

/// `tests/autocontext/write_comparisons.py` with `args`; its output.
fn comparisons_script(python: &Program, args: &[&std::ffi::OsStr]) -> std::process::Output {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_comparisons.py");
    python
        .command()
        .arg(&script)
        .args(args)
        .output()
        .expect("python runs")
}

/// Whether numi refuses an interval bound one ulp off: where it calls the C
/// library autocontext's CPython calls (glibc, Linux on x86-64 and
/// AArch64), as autocontext's replay refuses it.
const ONE_ULP_REFUSED: bool = cfg!(all(
    target_os = "linux",
    target_env = "gnu",
    any(target_arch = "x86_64", target_arch = "aarch64")
));

/// Whether autocontext's own `replay_matched_trials` accepts the candidate.
fn autocontext_replays(python: &Program, knowledge: &Path, digest: &str) -> bool {
    comparisons_script(
        python,
        &["replay".as_ref(), knowledge.as_os_str(), digest.as_ref()],
    )
    .status
    .success()
}

fn comparisons_autocontext_confirms_rejects_and_leaves_inconclusive_replay_and_each_edit_is_refused_by_both(
    python: &Program,
) {
    type Edit = (&'static str, &'static str, fn(&mut Value));
    let edits: [Edit; 8] = [
        (
            "two scores of one trial swapped",
            "matched_trials.json",
            |value| {
                let trial = &mut value["trials"][1];
                let candidate = trial["candidate_score"].clone();
                trial["candidate_score"] = trial["incumbent_score"].clone();
                trial["incumbent_score"] = candidate;
            },
        ),
        (
            "a confirmation score nudged",
            "matched_trials.json",
            |value| {
                let trial = &mut value["trials"][2];
                let score = trial["candidate_score"].as_f64().unwrap();
                trial["candidate_score"] = Value::from(score + 0.001);
            },
        ),
        ("comparison.mean_effect", "record.json", |value| {
            let mean = value["comparison"]["mean_effect"].as_f64().unwrap();
            value["comparison"]["mean_effect"] = Value::from(f64::from_bits(mean.to_bits() + 1));
        }),
        ("comparison.confidence_high", "record.json", |value| {
            value["comparison"]["confidence_high"] = Value::from(0.5);
        }),
        // One ulp: numi replays autocontext's arithmetic on the same C
        // library (glibc on Linux), so it compares the bounds as autocontext's
        // replay does, exactly; elsewhere it allows what another library's
        // last bits make (see `ONE_ULP_REFUSED`).
        (
            "comparison.confidence_low, one ulp",
            "record.json",
            |value| {
                let low = value["comparison"]["confidence_low"].as_f64().unwrap();
                value["comparison"]["confidence_low"] =
                    Value::from(f64::from_bits(low.to_bits() + 1));
            },
        ),
        (
            "comparison.confidence_high, one ulp",
            "record.json",
            |value| {
                let high = value["comparison"]["confidence_high"].as_f64().unwrap();
                value["comparison"]["confidence_high"] =
                    Value::from(f64::from_bits(high.to_bits() + 1));
            },
        ),
        ("comparison.heldout_pairs", "record.json", |value| {
            value["comparison"]["heldout_pairs"] = Value::from(2);
        }),
        ("comparison.decision", "record.json", |value| {
            value["comparison"]["decision"] = Value::String("needs_heldout".to_owned());
        }),
    ];
    for method in ["cluster_t", "bounded_hoeffding"] {
        let temp = tempfile::tempdir().unwrap();
        let knowledge = temp.path().join("knowledge");
        let output = comparisons_script(
            python,
            &["write".as_ref(), knowledge.as_os_str(), method.as_ref()],
        );
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let digests: Value = serde_json::from_slice(&output.stdout).unwrap();
        let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
        assert_eq!(run.code, 0, "{method}: {}", run.transcript());

        for (outcome, digest) in digests.as_object().unwrap() {
            let digest = digest.as_str().unwrap();
            let folder = format!("demo/context_bundles/candidates/{digest}");
            let record = json_at(&knowledge.join(format!("{folder}/record.json")));
            assert_eq!(
                record["comparison"]["decision"],
                outcome.as_str(),
                "{method}"
            );
            assert!(
                record["comparison"]["confidence_low"].is_f64(),
                "{method} {outcome}: an interval was computed"
            );
            assert!(
                autocontext_replays(python, &knowledge, digest),
                "{method} {outcome}"
            );

            for (what, file, edit) in edits {
                let target = knowledge.join(format!("{folder}/{file}"));
                let original = json_at(&target);
                let mut edited = original.clone();
                edit(&mut edited);
                write_json(&target, &edited);
                let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
                let refused = failing_files(&run.stdout);
                assert_eq!(
                    refused.contains(&format!("{folder}/{file}")),
                    ONE_ULP_REFUSED || !what.ends_with("one ulp"),
                    "{method} {outcome}, {what}: {}",
                    run.stdout
                );
                assert!(
                    !autocontext_replays(python, &knowledge, digest),
                    "{method} {outcome}, {what}: autocontext accepts it"
                );
                write_json(&target, &original);
            }
        }
        let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
        assert_eq!(run.code, 0, "{method}, restored: {}", run.transcript());
    }
}
/// Whether autocontext's coordinator, evaluating the candidate again as a
/// retried run does, accepts the store (`write_comparisons.py resume`);
/// what it says when it refuses.
fn autocontext_resumes(
    python: &Program,
    knowledge: &Path,
    method: &str,
    digest: &str,
) -> Result<(), String> {
    let output = comparisons_script(
        python,
        &[
            "resume".as_ref(),
            knowledge.as_os_str(),
            method.as_ref(),
            digest.as_ref(),
        ],
    );
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// A campaign rooted in the store, as the live runtime roots it, whose
/// candidates' own comparisons rejected one and left one inconclusive:
/// `record_terminal_decision` wrote their reservations with the
/// comparison's decision and reason and no evidence digest. numi verifies
/// the store whole; a reason or a status edited, the state's digest
/// resealed, is refused by numi on the state alone and by autocontext's
/// resume.
fn reservations_the_candidates_comparisons_ended_verify_and_an_edited_reason_is_refused_by_both(
    python: &Program,
) {
    let method = "cluster_t";
    let temp = tempfile::tempdir().unwrap();
    let knowledge = temp.path().join("knowledge");
    let output = comparisons_script(
        python,
        &["write".as_ref(), knowledge.as_os_str(), method.as_ref()],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let digests: Value = serde_json::from_slice(&output.stdout).unwrap();
    let state_path = knowledge.join(format!(
        "demo/context_bundles/promotion-risk/campaign-{method}/false-promotion.json"
    ));
    let state = json_at(&state_path);
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains(&format!("AutocontextCampaignState \"campaign-{method}\"")),
        "{}",
        run.stdout
    );
    for (index, outcome) in ["rejected", "inconclusive"].into_iter().enumerate() {
        let digest = digests[outcome].as_str().unwrap();
        let reservation = &state["reservations"][index];
        assert_eq!(reservation["candidate_digest"], digest);
        assert_eq!(reservation["status"], outcome);
        assert!(reservation["evidence_digest"].is_null(), "{reservation}");
        let record = json_at(&knowledge.join(format!(
            "demo/context_bundles/candidates/{digest}/record.json"
        )));
        assert_eq!(reservation["reason"], record["comparison"]["reason"]);
        assert_eq!(
            autocontext_resumes(python, &knowledge, method, digest),
            Ok(())
        );

        type Edit = fn(&mut Value);
        let edits: [(&str, Edit); 2] = [
            ("an edited reason", |reservation| {
                reservation["reason"] = Value::from("candidate failed its screen");
            }),
            ("the other terminal status", |reservation| {
                let other = if reservation["status"] == "rejected" {
                    "inconclusive"
                } else {
                    "rejected"
                };
                reservation["status"] = Value::from(other);
            }),
        ];
        for (what, edit) in edits {
            let mut edited = state.clone();
            edit(&mut edited["reservations"][index]);
            edited["state_digest"] = Value::String(
                numi::kinds::autocontext::false_promotion::state_digest(&edited).unwrap(),
            );
            write_json(&state_path, &edited);
            let refusal = autocontext_resumes(python, &knowledge, method, digest).unwrap_err();
            assert!(
                refusal.contains("terminal false-promotion reservation cannot change status"),
                "{outcome}, {what}: {refusal}"
            );
            let (run, failing) = concise_errors(temp.path());
            assert!(
                failing.len() == 1
                    && failing[0].contains("/false-promotion.json:")
                    && failing[0].contains("error[autocontext/campaign-gate]")
                    && failing[0].contains(&format!("reservation {index}: ")),
                "{outcome}, {what}: {}",
                run.stdout
            );
            write_json(&state_path, &state);
        }
    }
    verifies_whole(temp.path());
}

/// Whether autocontext's own ledger reader (`read_negative_result_ledger_path`,
/// its strict `NegativeResultLedger` model) accepts the file at `path`.
fn autocontext_reads_ledger(python: &Program, path: &Path) -> bool {
    let output = python
        .command()
        .args([
            "-c",
            "import sys; from pathlib import Path; \
             from autocontext.storage.negative_result_ledger_store import \
             read_negative_result_ledger_path as read; \
             sys.exit(0 if read(Path(sys.argv[1])) is not None else 3)",
        ])
        .arg(path)
        .output()
        .expect("python runs");
    match output.status.code() {
        Some(0) => true,
        Some(3) => false,
        _ => panic!("{}", String::from_utf8_lossy(&output.stderr)),
    }
}

fn a_negative_result_autocontexts_reader_or_its_store_refuses_is_refused(python: &Program) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = written_store(python, temp.path());
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    let ledger = statuses(&run.stdout)
        .into_iter()
        .map(|(_, name)| name)
        .find(|name| name.ends_with("/negative_result.json"))
        .expect("a negative result");
    let path = knowledge.join(&ledger);
    assert!(autocontext_reads_ledger(python, &path));
    assert_eq!(run.code, 0, "{}", run.transcript());

    let written = json_at(&path);
    type Change = fn(&mut Value);
    // Each edit: whether autocontext's reader takes it, and the rule numi
    // names on that file (with negative-result-recomputed beside it where
    // the edit also leaves the ledger autocontext writes from the store).
    let cases: [(&str, Change, bool, &str); 7] = [
        (
            "a failure_kind autocontext does not write",
            |value| value["entries"][0]["failure_kind"] = Value::String("regressed".to_owned()),
            false,
            "schema",
        ),
        (
            "an entry duplicated",
            |value| {
                let entry = value["entries"][0].clone();
                value["entries"].as_array_mut().unwrap().push(entry);
            },
            false,
            "autocontext/negative-result-entries",
        ),
        (
            "a generation index written as a float",
            |value| value["entries"][0]["generation_index"] = Value::from(1.0),
            false,
            "autocontext/negative-result-entries",
        ),
        // The model takes what follows; numi recomputes the ledger
        // autocontext writes from the store, and refuses it.
        (
            "a score delta that is not the comparison's mean effect",
            |value| value["entries"][0]["score_delta"] = Value::from(-0.3),
            true,
            "autocontext/negative-result-recomputed",
        ),
        (
            "an evaluated seed the matched trials do not hold",
            |value| value["entries"][0]["evaluated_seeds"][0] = Value::from("7"),
            true,
            "autocontext/negative-result-recomputed",
        ),
        (
            "a failure-mode summary that does not count the entries",
            |value| value["failure_mode_summary"][0]["count"] = Value::from(2),
            true,
            "autocontext/negative-result-recomputed",
        ),
        (
            "a second entry of its own id",
            |value| {
                let mut entry = value["entries"][0].clone();
                entry["result_id"] = Value::String("context-bundle-retest".to_owned());
                value["entries"].as_array_mut().unwrap().push(entry);
            },
            true,
            "autocontext/negative-result-recomputed",
        ),
    ];
    for (what, change, autocontext_takes, rule) in cases {
        let mut value = written.clone();
        change(&mut value);
        write_json(&path, &value);
        assert_eq!(
            autocontext_reads_ledger(python, &path),
            autocontext_takes,
            "{what}"
        );
        let (run, failing) = concise_errors(temp.path());
        assert_ne!(run.code, 0, "{what}: {}", run.transcript());
        assert!(
            failing.iter().any(|line| line.contains(rule))
                && failing.iter().all(|line| {
                    line.contains(&format!("{ledger}:"))
                        && (line.contains(rule)
                            || line.contains("autocontext/negative-result-recomputed"))
                }),
            "{what}: {}",
            run.stdout
        );
    }
    write_json(&path, &written);
    verifies_whole(temp.path());
}

/// autocontext ends two confirmed candidates without a promotion
/// (`tests/autocontext/write_endings.py`): one stale, one blocked by its
/// campaign's false-promotion gate. Their ledgers verify, each reason
/// recomputed from the stale marker and from the campaign's reservation;
/// a reason edited in either is refused by numi on that ledger alone, and
/// taken by autocontext's reader, which does not recompute it.
fn negative_results_of_a_stale_and_a_blocked_candidate_verify_and_an_edited_reason_fails(
    python: &Program,
) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = temp.path().join("knowledge");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_endings.py");
    let output = python
        .command()
        .arg(&script)
        .arg(&knowledge)
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let digests: Value = serde_json::from_slice(&output.stdout).unwrap();
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());

    for (ending, identity) in [
        ("stale", "stale-incumbent"),
        ("blocked", "false-promotion-blocked"),
    ] {
        let digest = digests[ending].as_str().unwrap();
        let ledger = format!("demo/context_bundles/candidates/{digest}/negative_result.json");
        let path = knowledge.join(&ledger);
        let written = json_at(&path);
        assert_eq!(
            written["entries"][0]["result_id"],
            format!("context-bundle-{digest}-{identity}").as_str()
        );
        let mut edited = written.clone();
        edited["entries"][0]["reason"] = Value::String("candidate failed its screen".to_owned());
        write_json(&path, &edited);
        assert!(autocontext_reads_ledger(python, &path), "{ending}");
        let (run, failing) = concise_errors(temp.path());
        assert!(
            failing.len() == 1
                && failing[0].contains(&format!("{ledger}:"))
                && failing[0].contains("autocontext/negative-result-recomputed")
                && failing[0].contains("entries[0].reason"),
            "{ending}: {}",
            run.stdout
        );
        write_json(&path, &written);
    }
}

/// autocontext ends two confirmed candidates as stale, one outside any
/// campaign and one under a campaign rooted in the store, whose
/// reservation `reject_stale_risk_reservation` rejects with the marker's
/// reason and the trials' digest (`write_endings.py --stale-campaign`).
/// numi verifies the store whole and autocontext resumes both without a
/// complaint. Each binding of a stale marker that autocontext checks on
/// every resume (candidate, parent, plan digest, evidence digest, reason),
/// edited, is refused by autocontext's resume and by numi on the marker
/// alone; the stale rejection's reason edited in the campaign state, its
/// digest resealed, is refused by both, by numi on the state (and on the
/// artifact sealed from what it held and the ledger that quotes its
/// digest).
fn a_stale_markers_bindings_and_a_stale_rejections_reason_edited_are_refused_by_both(
    python: &Program,
) {
    let temp = tempfile::tempdir().unwrap();
    let knowledge = temp.path().join("knowledge");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/autocontext/write_endings.py");
    let output = python
        .command()
        .arg(&script)
        .arg(&knowledge)
        .arg("--stale-campaign")
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let digests: Value = serde_json::from_slice(&output.stdout).unwrap();
    let run = numi(temp.path(), &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(
        run.stdout.matches("AutocontextStaleMarker").count(),
        2,
        "{}",
        run.stdout
    );
    let state_path = store_path(&knowledge, "promotion-risk/run-3/false-promotion.json");
    let state = json_at(&state_path);
    let in_campaign = digests["stale_in_campaign"].as_str().unwrap();
    let rejected = &state["reservations"][1];
    assert_eq!(rejected["candidate_digest"], in_campaign);
    assert_eq!(rejected["status"], "rejected");
    assert!(rejected["evidence_digest"].is_string(), "{rejected}");

    for ending in ["stale", "stale_in_campaign"] {
        let digest = digests[ending].as_str().unwrap();
        assert_eq!(
            autocontext_resume_refusal(python, "write_endings.py", &knowledge, digest),
            ""
        );
        let path = store_path(
            &knowledge,
            &format!("candidates/{digest}/stale_terminalization.json"),
        );
        let written = json_at(&path);
        for (field, edited) in [
            ("candidate_digest", digests["blocked"].clone()),
            ("parent_digest", digests["blocked"].clone()),
            ("evaluator_plan_digest", Value::from("0".repeat(64))),
            ("matched_evidence_digest", Value::from("0".repeat(64))),
            ("reason", Value::from("the incumbent moved")),
        ] {
            let mut value = written.clone();
            value[field] = edited;
            write_json(&path, &value);
            let refusal =
                autocontext_resume_refusal(python, "write_endings.py", &knowledge, digest);
            assert!(
                refusal.starts_with("stale candidate terminalization marker"),
                "{ending}, {field}: autocontext says {refusal:?}"
            );
            let (run, failing) = concise_errors(temp.path());
            assert!(
                failing.len() == 1
                    && failing[0].contains(&format!("{digest}/stale_terminalization.json:"))
                    && failing[0].contains("error[autocontext/stale-marker]"),
                "{ending}, {field}: {}",
                run.stdout
            );
        }
        write_json(&path, &written);
    }

    let mut edited = state.clone();
    edited["reservations"][1]["reason"] = Value::from("the incumbent moved");
    edited["state_digest"] =
        Value::String(numi::kinds::autocontext::false_promotion::state_digest(&edited).unwrap());
    write_json(&state_path, &edited);
    let refusal = autocontext_resume_refusal(python, "write_endings.py", &knowledge, in_campaign);
    assert!(
        refusal.contains("terminal false-promotion reservation cannot change stale disposition"),
        "autocontext says {refusal:?}"
    );
    let (run, failing) = concise_errors(temp.path());
    assert!(
        failing
            .iter()
            .any(|line| line.contains("/false-promotion.json:")
                && line.contains("error[autocontext/campaign-gate]")
                && line.contains("reservation 1: rejected as stale with reason"))
            && failing
                .iter()
                .all(|line| line.contains("/false-promotion.json:")
                    || line.contains(&format!("reservation-artifacts/{in_campaign}.json:"))
                    || line.contains(&format!("{in_campaign}/negative_result.json:"))),
        "{}",
        run.stdout
    );
    write_json(&state_path, &state);
    verifies_whole(temp.path());
}

/// Every file under `knowledge/` in `folder` is `ok`.
fn verifies_whole(folder: &Path) {
    let run = numi(folder, &["validate", "--files", "knowledge"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}
