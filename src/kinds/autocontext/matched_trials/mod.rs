//! AutocontextMatchedTrials (produced): `candidates/<digest>/matched_trials.json`,
//! the candidate/incumbent score pairs a comparison is computed from. Schema
//! 2 wraps them with the confirmation policy they are judged by; schema 1 is
//! the bare array of trials.

mod catalogue;

use std::collections::HashMap;

use serde_json::Value;

use super::comparison::{self, pair_key};
use super::evidence::{Candidate, candidate_of, disagreement, policy_digest_problem};
use super::{fails, learned, python, text};
use crate::canonical;
use crate::diagnostic::{Address, Diagnostic, address};
use crate::kinds::{Kind, Role, Subject};
use crate::location::Location;
use crate::text::shorten;

pub(super) const KIND: Kind = Kind {
    name: "AutocontextMatchedTrials",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextMatchedTrials.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextMatchedTrials.schema.json"),
    display_name: crate::kinds::no_name,
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// The schema-1 identity, still accepted on rows written before it changed.
const LEGACY_PAIR_FIELDS: [&str; 6] = [
    "evaluator_epoch",
    "cohort",
    "fixture",
    "fixture_digest",
    "seed",
    "lane",
];

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let (trials, base) = match value {
        Value::Array(trials) => (trials.as_slice(), Address::root()),
        _ => (
            value
                .get("trials")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice),
            address!["trials"],
        ),
    };
    let mut found = Vec::new();
    if value.is_object() {
        if let Some(problem) = policy_digest_problem(
            value.get("confirmation_policy"),
            text(value, "confirmation_policy_digest"),
        ) {
            found.push(fails(
                &catalogue::TRIALS_POLICY_DIGEST,
                problem,
                address!["confirmation_policy_digest"],
            ));
        }
    }
    found.extend(pair_key_checks(trials, &base));
    match candidate_of(&subject.location) {
        None => {}
        Some(Err(problem)) => {
            found.push(fails(&catalogue::TRIAL_BINDING, problem.to_string(), base))
        }
        Some(Ok(candidate)) => {
            found.extend(binding_checks(trials, &base, &candidate));
            found.extend(plan_checks(subject, trials, &base, &candidate));
            found.extend(record_agreement(subject, &candidate));
        }
    }
    found
}

/// The pair key of a trial as schema 1 computed it.
fn legacy_pair_key(trial: &Value) -> Result<String, canonical::Refusal> {
    canonical::sha256_hex_of_fields(trial, &LEGACY_PAIR_FIELDS)
}

/// A written `pair_key` is the current or the legacy identity of its trial,
/// and no two trials are the same evaluation unit.
fn pair_key_checks(trials: &[Value], base: &Address) -> Vec<Diagnostic> {
    let rule = &catalogue::TRIAL_PAIR_KEY;
    let mut found = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (index, trial) in trials.iter().enumerate() {
        let computed = match pair_key(trial) {
            Ok(computed) => computed,
            Err(refusal) => {
                found.push(fails(
                    rule,
                    format!("trial {index} has no pair key: {refusal}"),
                    base.clone().index(index),
                ));
                continue;
            }
        };
        if let Some(written) = text(trial, "pair_key") {
            if written != computed && legacy_pair_key(trial).ok().as_deref() != Some(written) {
                found.push(fails(
                    rule,
                    format!("trial {index} has pair_key {written}, computed {computed}"),
                    base.clone().index(index).key("pair_key"),
                ));
            }
        }
        if let Some(first) = seen.get(&computed) {
            found.push(fails(
                rule,
                format!(
                    "trial {index} is the evaluation unit of trial {first} (same evaluator_epoch, \
                     cohort, fixture_digest and seed): a pair is recorded once"
                ),
                base.clone().index(index),
            ));
        } else {
            seen.insert(computed, index);
        }
    }
    found
}

/// Every trial compares this candidate with its parent, under its epoch.
fn binding_checks(trials: &[Value], base: &Address, candidate: &Candidate) -> Vec<Diagnostic> {
    let expected = candidate.binding();
    let mut found = Vec::new();
    for (index, trial) in trials.iter().enumerate() {
        for (field, value, whose) in &expected {
            if let Some(problem) = disagreement(trial, field, value, whose) {
                found.push(fails(
                    &catalogue::TRIAL_BINDING,
                    format!("trial {index}: {problem}"),
                    base.clone().index(index).key(*field),
                ));
            }
        }
    }
    found
}

/// Every trial is a unit of the evaluator plan bound beside it, as
/// autocontext's coordinator checks the persisted trials on every resume
/// (`evaluate_candidate`): the plan's unit of the trial's
/// (`fixture_digest`, `seed`) (the last one, as a Python dict keeps it)
/// has the trial's fixture and lane, and the trial's cohort is the plan's.
/// Without a plan (evidence autocontext gathered before it bound plans)
/// there is nothing to compare; an unreadable plan, or one whose digest
/// does not verify, is its own line's finding.
fn plan_checks(
    subject: &Subject<'_>,
    trials: &[Value],
    base: &Address,
    candidate: &Candidate,
) -> Vec<Diagnostic> {
    let Ok(artifact) = candidate.file(&subject.location, "evaluator_plan.json") else {
        return Vec::new();
    };
    let Some(plan) = artifact.get("plan").filter(|plan| plan.is_object()) else {
        return Vec::new();
    };
    // autocontext reads no plan whose digest does not verify (`_read_plan`),
    // and the plan's own line says so.
    let kept = (candidate.store.root.as_path(), candidate.digest.as_str());
    if super::evaluator_plan::plan_digest(&subject.location, &artifact, Some(kept))
        .ok()
        .as_deref()
        != text(&artifact, "plan_digest")
    {
        return Vec::new();
    }
    let units = plan
        .get("units")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let shown = |value: Option<&Value>| {
        value.map_or_else(|| "missing".to_owned(), |value| shorten(&value.to_string()))
    };
    let mut found = Vec::new();
    for (index, trial) in trials.iter().enumerate() {
        let at = base.clone().index(index);
        let unit = units.iter().rev().find(|unit| {
            text(unit, "fixture_digest") == text(trial, "fixture_digest")
                && match (unit.get("seed"), trial.get("seed")) {
                    (Some(ours), Some(theirs)) => python::equal(ours, theirs),
                    _ => false,
                }
        });
        let Some(unit) = unit else {
            found.push(fails(
                &catalogue::TRIALS_PLAN,
                format!(
                    "trial {index} (fixture_digest {}, seed {}) is no unit of the evaluator plan \
                     bound in evaluator_plan.json: autocontext evaluates only the units its plan \
                     names",
                    shown(trial.get("fixture_digest")),
                    shown(trial.get("seed"))
                ),
                at.clone(),
            ));
            continue;
        };
        for field in ["fixture", "lane"] {
            if unit.get(field) != trial.get(field) {
                found.push(fails(
                    &catalogue::TRIALS_PLAN,
                    format!(
                        "trial {index} has {field} {}, but the evaluator plan's unit of its \
                         fixture_digest and seed has {}",
                        shown(trial.get(field)),
                        shown(unit.get(field))
                    ),
                    at.clone().key(field),
                ));
            }
        }
        if trial.get("cohort") != plan.get("cohort") {
            found.push(fails(
                &catalogue::TRIALS_PLAN,
                format!(
                    "trial {index} has cohort {}, but the evaluator plan's cohort is {}",
                    shown(trial.get("cohort")),
                    shown(plan.get("cohort"))
                ),
                at.clone().key("cohort"),
            ));
        }
    }
    found
}

/// The evidence and the candidate record bind one confirmation policy, and
/// these trials replay to the comparison the record holds.
fn record_agreement(subject: &Subject<'_>, candidate: &Candidate) -> Vec<Diagnostic> {
    let Ok(record) = candidate.file(&subject.location, "record.json") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if let (Some(ours), Some(theirs)) = (
        text(subject.value, "confirmation_policy_digest"),
        text(&record, "confirmation_policy_digest"),
    ) {
        if theirs != ours {
            found.push(fails(
                &catalogue::TRIALS_POLICY_DIGEST,
                format!(
                    "confirmation_policy_digest is {ours}, but record.json binds {theirs}: the \
                     evidence and the record name different policies"
                ),
                address!["confirmation_policy_digest"],
            ));
        }
    }
    // Replayed once for the record and a promotion too when these are the
    // trials the run read.
    let kept = subject
        .location
        .is_loaded(subject.value)
        .then_some((candidate.store.root.as_path(), candidate.digest.as_str()));
    found.extend(replay_checks(
        &subject.location,
        subject.value,
        &record,
        kept,
    ));
    found
}

/// The comparison in record.json is what these trials replay to.
fn replay_checks(
    location: &Location<'_>,
    evidence: &Value,
    record: &Value,
    kept: Option<learned::Key<'_>>,
) -> Vec<Diagnostic> {
    let Some(recorded) = record
        .get("comparison")
        .filter(|comparison| !comparison.is_null())
    else {
        return Vec::new();
    };
    let Some(policy) = comparison::bound_policy(evidence, record) else {
        return Vec::new();
    };
    let rule = &super::catalogue::COMPARISON_REPLAY;
    let address = if evidence.is_array() {
        Address::root()
    } else {
        address!["trials"]
    };
    let replayed = learned::replayed(location, evidence, policy, kept);
    match comparison::replayed_disagreements(recorded, replayed) {
        Ok(disagreements) => disagreements
            .into_iter()
            .map(|(field, recorded, replayed)| {
                fails(
                    rule,
                    format!(
                        "these trials replay to {field} {replayed}, but record.json's comparison \
                         has {recorded}"
                    ),
                    address.clone(),
                )
            })
            .collect(),
        Err(reason) => vec![fails(
            rule,
            format!("the trials cannot be replayed: {reason}"),
            address,
        )],
    }
}
