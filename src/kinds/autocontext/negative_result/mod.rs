//! AutocontextNegativeResult (produced): `candidates/<digest>/negative_result.json`,
//! the ledger autocontext writes when a candidate's evaluation ends without
//! a promotion. It is read whole as autocontext's strict model reads it
//! (the schema, then unique result ids and integers without a fraction); in
//! a store it is allowed only beside a rejected or inconclusive candidate,
//! its evidence references name this candidate's matched trials and
//! evaluator plan by digests that verify, and every field autocontext
//! derives is recomputed from the store (`recomputed.rs`).

mod catalogue;
pub(super) mod recomputed;

use serde_json::Value;

use std::collections::HashSet;

use super::evidence::{Candidate, candidate_of, disagreement};
use super::{NeighbourError, fails, text};
use crate::canonical;
use crate::diagnostic::{Address, Diagnostic, address};
use crate::kinds::{Kind, Role, Subject};
use crate::location::unit::Kept;
use crate::text::{quote, shorten};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextNegativeResult",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextNegativeResult.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextNegativeResult.schema.json"),
    display_name: crate::kinds::no_name,
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// The evidence files of the candidate a reference may name, and how the
/// digest after `#sha256=` is found for each.
const EVIDENCE_FILES: [&str; 2] = ["matched_trials.json", "evaluator_plan.json"];

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let mut found = entry_checks(subject.value);
    found.extend(recomputed::summary_check(subject.value));
    match candidate_of(&subject.location) {
        None => {}
        Some(Err(problem)) => found.push(fails(
            &catalogue::NEGATIVE_RESULT_BINDING,
            problem.to_string(),
            address!["run_id"],
        )),
        Some(Ok(candidate)) => {
            let record = candidate.file(&subject.location, "record.json");
            found.extend(lifecycle_check(&record));
            found.extend(binding_checks(subject, &candidate));
            // A ledger the record does not allow is said once, not
            // compared with a comparison that could not have written it.
            if let Some(record) = record.ok().filter(|record| allows_negative_result(record)) {
                found.extend(recomputed::recomputed_checks(subject, &candidate, &record));
            }
        }
    }
    found
}

fn entries(value: &Value) -> &[Value] {
    value
        .get("entries")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

/// What autocontext's model refuses beyond the schema: a result id listed
/// twice (its model validator), and an integer field written with a
/// fraction (`1.0`: JSON Schema's `integer` takes it, pydantic's strict
/// `int` does not).
fn entry_checks(value: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    for (index, entry) in entries(value).iter().enumerate() {
        if let Some(id) = text(entry, "result_id") {
            if !seen.insert(id) {
                found.push(fails(
                    &catalogue::NEGATIVE_RESULT_ENTRIES,
                    format!(
                        "result_id {} is listed twice: each entry has its own",
                        quote(&shorten(id))
                    ),
                    address!["entries", index, "result_id"],
                ));
            }
        }
        found.extend(fraction_check(
            entry,
            "generation_index",
            address!["entries", index],
        ));
    }
    let summaries = value
        .get("failure_mode_summary")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (index, summary) in summaries.iter().enumerate() {
        found.extend(fraction_check(
            summary,
            "count",
            address!["failure_mode_summary", index],
        ));
    }
    found
}

/// An integer field written as a float (`1.0`, `1e0`).
fn fraction_check(value: &Value, field: &str, at: Address) -> Option<Diagnostic> {
    let number = value.get(field).and_then(Value::as_number)?;
    number.is_f64().then(|| {
        fails(
            &catalogue::NEGATIVE_RESULT_ENTRIES,
            format!("{field} is {number}, a float: autocontext reads an integer only"),
            at.key(field),
        )
    })
}

/// Whether a record allows a negative result: its lifecycle is `rejected`,
/// or its comparison ended `inconclusive` (autocontext writes the ledger
/// before it moves such a candidate from screened to rejected).
pub(super) fn allows_negative_result(record: &Value) -> bool {
    text(record, "lifecycle") == Some("rejected")
        || record
            .get("comparison")
            .and_then(|comparison| text(comparison, "decision"))
            == Some("inconclusive")
}

fn lifecycle_check(record: &Result<Kept, NeighbourError>) -> Vec<Diagnostic> {
    match record {
        Ok(record) if allows_negative_result(record) => Vec::new(),
        Ok(record) => vec![fails(
            &catalogue::NEGATIVE_RESULT_LIFECYCLE,
            format!(
                "the candidate's record.json says {}, with no inconclusive comparison: a negative \
                 result stands only beside a rejected or inconclusive candidate",
                quote(&shorten(text(record, "lifecycle").unwrap_or_default()))
            ),
            address!["entries"],
        )],
        Err(reason) => vec![fails(
            &catalogue::NEGATIVE_RESULT_LIFECYCLE,
            format!("the candidate has no record: record.json: {reason}"),
            address!["entries"],
        )],
    }
}

fn binding_checks(subject: &Subject<'_>, candidate: &Candidate) -> Vec<Diagnostic> {
    let value = subject.value;
    let mut found = Vec::new();
    let run_id = format!("context-bundle:{}", candidate.digest);
    if text(value, "run_id") != Some(run_id.as_str()) {
        found.push(fails(
            &catalogue::NEGATIVE_RESULT_BINDING,
            format!(
                "run_id is {}, not {run_id}",
                quote(&shorten(text(value, "run_id").unwrap_or_default()))
            ),
            address!["run_id"],
        ));
    }
    let digest = Value::String(candidate.digest.clone());
    let scenario = Value::String(candidate.store.scenario.clone());
    for (index, entry) in entries(value).iter().enumerate() {
        let at = address!["entries", index];
        if let Some(problem) = disagreement(entry, "branch_id", &digest, "the candidate's digest") {
            found.push(fails(
                &catalogue::NEGATIVE_RESULT_BINDING,
                problem,
                at.clone().key("branch_id"),
            ));
        }
        let context = entry.get("context").unwrap_or(&Value::Null);
        for (field, expected, whose) in [
            ("context_bundle_digest", &digest, "the candidate's digest"),
            (
                "evaluator_epoch",
                candidate.epoch(),
                "the bundle's evaluator_epoch",
            ),
            ("scenario_name", &scenario, "the store's scenario"),
        ] {
            if let Some(problem) = disagreement(context, field, expected, whose) {
                found.push(fails(
                    &catalogue::NEGATIVE_RESULT_BINDING,
                    problem,
                    at.clone().key("context").key(field),
                ));
            }
        }
        let references = entry
            .get("evidence_refs")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (number, reference) in references.iter().enumerate() {
            if let Some(problem) = reference_problem(subject, candidate, text_or_empty(reference)) {
                found.push(fails(
                    &catalogue::NEGATIVE_RESULT_BINDING,
                    problem,
                    at.clone().key("evidence_refs").index(number).key("uri"),
                ));
            }
        }
    }
    found
}

fn text_or_empty(reference: &Value) -> &str {
    text(reference, "uri").unwrap_or_default()
}

/// Why a reference to the candidate's evidence does not verify, if it does
/// not. A reference is `<scenario>/context_bundles/candidates/<d>/<file>#sha256=<digest>`;
/// its path is compared with this candidate's, never opened as written.
/// References to other evidence (a campaign's reservation) are left alone.
fn reference_problem(subject: &Subject<'_>, candidate: &Candidate, uri: &str) -> Option<String> {
    let (path, written) = uri.split_once("#sha256=")?;
    let file = EVIDENCE_FILES.iter().find(|file| {
        path.rsplit('/').next() == Some(**file) && path.contains("/context_bundles/candidates/")
    })?;
    let own = format!(
        "{}/context_bundles/candidates/{}/{file}",
        candidate.store.scenario, candidate.digest
    );
    if path != own {
        return Some(format!(
            "the reference names {}, not this candidate's {own}",
            quote(&shorten(path))
        ));
    }
    let evidence = match candidate.file(&subject.location, file) {
        Ok(evidence) => evidence,
        Err(reason) => return Some(format!("the reference names {file}: {reason}")),
    };
    let computed = if *file == "evaluator_plan.json" {
        text(&evidence, "plan_digest").map(str::to_owned)
    } else {
        canonical::sha256_hex(&evidence).ok()
    };
    match computed {
        Some(computed) if computed == written => None,
        Some(computed) => Some(format!(
            "the reference to {file} has sha256={}, but the file's digest is {computed}",
            shorten(written)
        )),
        None => Some(format!("{file} has no digest to compare with")),
    }
}
