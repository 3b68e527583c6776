//! AutocontextCausalAttribution (produced):
//! `candidates/<digest>/causal_attribution.json`, the credit a promoted
//! candidate's one added component earns from its held-out trials. autocontext
//! writes it only when the candidate's manifest diff against its parent is
//! exactly one pure addition; every digest in it is recomputed here.

mod catalogue;
pub(super) mod recomputed;

use serde_json::Value;

use super::evidence::{candidate_of, disagreement};
use super::manifest::{self, utf16_order};
use super::{fails, python, text};
use crate::canonical;
use crate::diagnostic::{Address, Diagnostic, address};
use crate::kinds::{Kind, Role, Subject};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextCausalAttribution",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextCausalAttribution.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextCausalAttribution.schema.json"),
    display_name: crate::kinds::no_name,
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// The fields of a source trial that name its evaluation unit.
const TRIAL_PAIR_FIELDS: [&str; 9] = [
    "component_kind",
    "component_key",
    "component_digest",
    "tested_bundle_digest",
    "comparison_bundle_digest",
    "evaluator_epoch",
    "trial_cohort",
    "fixture_digest",
    "seed",
];

/// The fields of an attribution its id is the digest of (the tested bundle
/// is written as `last_tested_bundle_digest`).
const ATTRIBUTION_ID_FIELDS: [&str; 13] = [
    "component_kind",
    "component_key",
    "component_digest",
    "tested_bundle_digest",
    "comparison_bundle_digest",
    "evaluator_epoch",
    "trial_cohort",
    "evidence_level",
    "classification_neutral_effect",
    "classification_high_token_cost",
    "trial_ids",
    "matched_pair_keys",
    "source_trial_digests",
];

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let diff = value.get("manifest_diff").unwrap_or(&Value::Null);
    let mut found = Vec::new();
    if let Some(problem) = pure_addition_problem(diff) {
        found.push(fails(
            &catalogue::ATTRIBUTION_DIFF,
            problem,
            address!["manifest_diff", "changes"],
        ));
    }
    found.extend(digest_checks(value, diff));
    match candidate_of(&subject.location) {
        None => {}
        Some(Err(problem)) => found.push(fails(
            &catalogue::ATTRIBUTION_DIFF,
            problem.to_string(),
            address!["candidate_digest"],
        )),
        Some(Ok(candidate)) => {
            let digest = Value::String(candidate.digest.clone());
            for (field, expected, whose) in [
                ("candidate_digest", &digest, "the candidate folder's digest"),
                (
                    "comparison_digest",
                    candidate.parent(),
                    "the bundle's parent_digest",
                ),
            ] {
                if let Some(problem) = disagreement(value, field, expected, whose) {
                    found.push(fails(
                        &catalogue::ATTRIBUTION_DIGEST,
                        problem,
                        address![field],
                    ));
                }
            }
            found.extend(recomputed_diff_check(subject, diff, &candidate));
            found.extend(held_out_checks(subject, &candidate));
        }
    }
    found
}

/// Why `diff` is not exactly one pure addition (one change, present in the
/// tested bundle, absent from the comparison), if it is not.
pub(super) fn pure_addition_problem(diff: &Value) -> Option<String> {
    let changes = diff
        .get("changes")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let [change] = changes else {
        return Some(format!(
            "the manifest diff has {} changes: a causal attribution needs exactly one pure addition",
            changes.len()
        ));
    };
    let added = change
        .get("tested_component_digest")
        .is_some_and(Value::is_string)
        && change
            .get("comparison_component_digest")
            .is_some_and(Value::is_null);
    (!added).then(|| {
        "the manifest diff's one change is not a pure addition (a component the comparison \
         bundle lacks): a causal attribution needs one"
            .to_owned()
    })
}

/// The digest of the listed fields of `object`; `rename` maps a field to
/// the one it is read from.
fn digest_of(
    object: &Value,
    fields: &[&str],
    rename: &[(&str, &str)],
) -> Result<String, canonical::Refusal> {
    const ABSENT: Value = Value::Null;
    let members: Vec<(&str, &Value)> = fields
        .iter()
        .map(|field| {
            let source = rename
                .iter()
                .find(|(to, _)| to == field)
                .map_or(*field, |(_, from)| *from);
            (*field, object.get(source).unwrap_or(&ABSENT))
        })
        .collect();
    canonical::sha256_hex_of_members(&members)
}

/// How one digest of a source trial is computed.
type TrialDigest = fn(&Value) -> Result<String, canonical::Refusal>;

/// The digest that names a source trial's evaluation unit.
fn trial_pair_key(trial: &Value) -> Result<String, canonical::Refusal> {
    digest_of(trial, &TRIAL_PAIR_FIELDS, &[])
}

/// Sorted by UTF-16 code units, as autocontext sorts these lists.
fn sorted(mut items: Vec<String>) -> Vec<String> {
    items.sort_by(|left, right| utf16_order(left, right));
    items
}

fn strings(value: &Value, field: &str) -> Vec<String> {
    value
        .get(field)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The diff's digest, each attribution's binding to it, to its trials and
/// its own id.
fn digest_checks(value: &Value, diff: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let diff_digest = text(diff, "digest").unwrap_or_default();
    match manifest::diff_digest(diff) {
        Ok(computed) if computed == diff_digest => {}
        Ok(computed) => found.push(fails(
            &catalogue::ATTRIBUTION_DIGEST,
            format!("manifest_diff.digest is {diff_digest}, computed {computed}"),
            address!["manifest_diff", "digest"],
        )),
        Err(refusal) => found.push(fails(
            &catalogue::ATTRIBUTION_DIGEST,
            format!("the manifest diff has no digest: {refusal}"),
            address!["manifest_diff", "digest"],
        )),
    }
    let trials = value
        .get("source_trials")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let attributions = value
        .get("attributions")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (index, entry) in attributions.iter().enumerate() {
        let at = address!["attributions", index];
        if text(entry, "manifest_diff_digest") != Some(diff_digest) {
            found.push(fails(
                &catalogue::ATTRIBUTION_DIGEST,
                format!("attribution {index} names another manifest diff than the one it holds"),
                at.clone().key("manifest_diff_digest"),
            ));
        }
        let attribution = entry.get("attribution").unwrap_or(&Value::Null);
        let trial_ids = strings(entry, "trial_ids");
        if strings(attribution, "trial_ids") != trial_ids {
            found.push(fails(
                &catalogue::ATTRIBUTION_DIGEST,
                format!("attribution {index} lists other trial_ids than its record"),
                at.clone().key("attribution").key("trial_ids"),
            ));
        }
        let referenced: Vec<&Value> = trials
            .iter()
            .filter(|trial| {
                text(trial, "trial_id").is_some_and(|id| trial_ids.iter().any(|want| want == id))
            })
            .collect();
        if referenced.len() != trial_ids.len() {
            found.push(fails(
                &catalogue::ATTRIBUTION_DIGEST,
                format!("attribution {index} names trials that are not among source_trials"),
                at.clone().key("trial_ids"),
            ));
            continue;
        }
        found.extend(attribution_checks(attribution, &referenced, &at));
        found.extend(recomputed::figure_checks(attribution, &referenced, &at));
    }
    found
}

/// The pair keys, source trial digests and id of one attribution.
fn attribution_checks(attribution: &Value, trials: &[&Value], at: &Address) -> Vec<Diagnostic> {
    let computed = |digest: TrialDigest| {
        trials
            .iter()
            .map(|trial| digest(trial))
            .collect::<Result<Vec<String>, _>>()
            .map(sorted)
    };
    let mut found = Vec::new();
    let lists: [(&str, TrialDigest); 2] = [
        ("matched_pair_keys", trial_pair_key),
        ("source_trial_digests", canonical::sha256_hex),
    ];
    for (field, digest) in lists {
        match computed(digest) {
            Ok(expected) if expected == strings(attribution, field) => {}
            Ok(expected) => found.push(fails(
                &catalogue::ATTRIBUTION_DIGEST,
                format!(
                    "{field} are not the digests of the attribution's source trials (computed {})",
                    expected.join(", ")
                ),
                at.clone().key("attribution").key(field),
            )),
            Err(refusal) => found.push(fails(
                &catalogue::ATTRIBUTION_DIGEST,
                format!("a source trial has no digest: {refusal}"),
                at.clone().key("attribution").key(field),
            )),
        }
    }
    let written = text(attribution, "attribution_id").unwrap_or_default();
    match digest_of(
        attribution,
        &ATTRIBUTION_ID_FIELDS,
        &[("tested_bundle_digest", "last_tested_bundle_digest")],
    ) {
        Ok(id) if id == written => {}
        Ok(id) => found.push(fails(
            &catalogue::ATTRIBUTION_DIGEST,
            format!("attribution_id is {written}, computed {id}"),
            at.clone().key("attribution").key("attribution_id"),
        )),
        Err(refusal) => found.push(fails(
            &catalogue::ATTRIBUTION_DIGEST,
            format!("the attribution has no id: {refusal}"),
            at.clone().key("attribution").key("attribution_id"),
        )),
    }
    found
}

/// In a store: the diff it holds is the one recomputed from the candidate's
/// manifest and its parent's, and that diff is one pure addition.
fn recomputed_diff_check(
    subject: &Subject<'_>,
    diff: &Value,
    candidate: &super::evidence::Candidate,
) -> Vec<Diagnostic> {
    let Some(parent) = candidate
        .parent()
        .as_str()
        .filter(|parent| manifest::is_hex_digest(parent))
    else {
        return vec![fails(
            &catalogue::ATTRIBUTION_DIFF,
            format!(
                "bundles/{}.json has no parent: a causal attribution needs a diff against one",
                candidate.digest
            ),
            address!["comparison_digest"],
        )];
    };
    let comparison = match super::stored_bundle(&subject.location, &candidate.store.root, parent) {
        Ok(comparison) => comparison,
        Err(reason) => {
            return vec![fails(
                &catalogue::ATTRIBUTION_DIFF,
                format!("no stored bundle for the parent: bundles/{parent}.json: {reason}"),
                address!["comparison_digest"],
            )];
        }
    };
    match super::stored_diff(
        &subject.location,
        &candidate.store.root,
        (&candidate.digest, &candidate.bundle),
        (parent, &comparison),
    ) {
        Ok(expected) => {
            let mut found = Vec::new();
            if let Some(problem) = pure_addition_problem(&expected) {
                found.push(fails(
                    &catalogue::ATTRIBUTION_DIFF,
                    format!("the candidate's recomputed diff: {problem}"),
                    address!["manifest_diff", "changes"],
                ));
            } else if &expected != diff {
                found.push(fails(
                    &catalogue::ATTRIBUTION_DIFF,
                    format!(
                        "manifest_diff differs from the one recomputed from bundles/{}.json and \
                         bundles/{parent}.json (digest {})",
                        candidate.digest,
                        text(&expected, "digest").unwrap_or_default()
                    ),
                    address!["manifest_diff"],
                ));
            }
            found
        }
        Err(refusal) => vec![fails(
            &catalogue::ATTRIBUTION_DIFF,
            format!("the manifests have no diff: {refusal}"),
            address!["manifest_diff"],
        )],
    }
}

/// What a source trial repeats of the matched trial it is: its id is the
/// trial's pair key, and these fields are the trial's, by another name,
/// compared as Python's `==` compares them: autocontext builds the source
/// trial as a pydantic model of floats, so a score the evaluator gave as
/// the integer `1` is `1` in the matched trials and `1.0` here, one number
/// (and one canonical text, so every digest over either agrees).
const HELD_OUT_FIELDS: [(&str, &str); 5] = [
    ("trial_cohort", "cohort"),
    ("fixture_digest", "fixture_digest"),
    ("seed", "seed"),
    ("with_component_score", "candidate_score"),
    ("without_component_score", "incumbent_score"),
];

/// In a store: each source trial is a held-out trial of the candidate's
/// matched trials, with its scores.
fn held_out_checks(
    subject: &Subject<'_>,
    candidate: &super::evidence::Candidate,
) -> Vec<Diagnostic> {
    let evidence = match candidate.file(&subject.location, "matched_trials.json") {
        Ok(evidence) => evidence,
        Err(reason) => {
            return vec![fails(
                &catalogue::ATTRIBUTION_DIGEST,
                format!(
                    "the candidate's matched_trials.json, which its source trials come from: {reason}"
                ),
                address!["source_trials"],
            )];
        }
    };
    let trials = evidence
        .get("trials")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let sources = subject
        .value
        .get("source_trials")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut found = Vec::new();
    for (index, source) in sources.iter().enumerate() {
        let id = text(source, "trial_id");
        let matched = trials
            .iter()
            .find(|trial| text(trial, "pair_key") == id && text(trial, "lane") == Some("heldout"));
        let problem = match matched {
            None => Some(format!(
                "source trial {index} is no held-out trial of the candidate's matched_trials.json"
            )),
            Some(trial) => HELD_OUT_FIELDS
                .iter()
                .find(
                    |(ours, theirs)| match (source.get(*ours), trial.get(*theirs)) {
                        (Some(ours), Some(theirs)) => !python::equal(ours, theirs),
                        (ours, theirs) => ours != theirs,
                    },
                )
                .map(|(ours, theirs)| {
                    format!("source trial {index}: {ours} is not the matched trial's {theirs}")
                }),
        };
        if let Some(problem) = problem {
            found.push(fails(
                &catalogue::ATTRIBUTION_DIGEST,
                problem,
                address!["source_trials", index],
            ));
        }
    }
    found
}
