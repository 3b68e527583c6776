//! AutocontextStaleMarker (produced):
//! `candidates/<digest>/stale_terminalization.json`, written by
//! autocontext's `begin_stale_confirmed_candidate_terminalization` before
//! it ends a confirmed candidate whose incumbent is no longer active, and
//! never removed. Every binding autocontext checks on a resume
//! (`_validate_stale_terminalization`, then
//! `finalize_stale_confirmed_candidate_terminalization`) is checked here
//! against the store.

mod catalogue;

use serde_json::Value;

use super::evidence::{candidate_of, disagreement};
use super::{fails, parted_tails, python, shown, text};
use crate::canonical;
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::{Kind, Role, Subject};
use crate::text::shorten;

pub(super) const KIND: Kind = Kind {
    name: "AutocontextStaleMarker",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextStaleMarker.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextStaleMarker.schema.json"),
    display_name: crate::kinds::no_name,
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// The reason autocontext writes in the marker for a candidate whose
/// parent is `parent` when `observed` was active.
pub(super) fn stale_reason(parent: &Value, observed: &Value) -> String {
    format!(
        "confirmed candidate incumbent {} is stale; active bundle is {}",
        python::in_f_string(parent),
        python::in_f_string(observed)
    )
}

/// The reason a stale ending repeats from its marker, as another file of
/// the store (`written` there) is compared with it: the reason the marker
/// holds, which autocontext hands on (`terminal_reason`). When the marker
/// holds another reason than the one its parent and observed bundle give,
/// the marker's own line says so, and which of its fields was edited is
/// not known: a `written` reason that is either is taken, so that one edit
/// is refused on the marker alone. `None` when the marker holds no reason.
pub(super) fn reason_held(
    marker: &Value,
    parent: &Value,
    written: Option<&Value>,
) -> Option<String> {
    let held = text(marker, "reason")?;
    let rebuilt = stale_reason(
        parent,
        marker.get("observed_active_digest").unwrap_or(&Value::Null),
    );
    if held != rebuilt && written.and_then(Value::as_str) == Some(rebuilt.as_str()) {
        return Some(rebuilt);
    }
    Some(held.to_owned())
}

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let rule = &catalogue::STALE_MARKER;
    let value = subject.value;
    let candidate = match candidate_of(&subject.location) {
        None => return Vec::new(),
        Some(Err(problem)) => {
            return vec![fails(
                rule,
                problem.to_string(),
                address!["candidate_digest"],
            )];
        }
        Some(Ok(candidate)) => candidate,
    };
    let mut found = Vec::new();
    for (field, expected, whose) in [
        (
            "candidate_digest",
            Value::String(candidate.digest.clone()),
            "the candidate folder's digest",
        ),
        (
            "parent_digest",
            candidate.parent().clone(),
            "the bundle's parent_digest",
        ),
    ] {
        if let Some(problem) = disagreement(value, field, &expected, whose) {
            found.push(fails(rule, problem, address![field]));
        }
    }
    // The plan and the evidence the candidate was confirmed on, as
    // `evaluator_plan_binding` and `matched_evidence_binding` give them.
    let plan = candidate
        .file(&subject.location, "evaluator_plan.json")
        .map(|plan| text(&plan, "plan_digest").map(str::to_owned))
        .map_err(|reason| reason.to_string());
    let evidence = candidate
        .file(&subject.location, "matched_trials.json")
        .map_err(|reason| reason.to_string())
        .and_then(|evidence| {
            if evidence.is_array() {
                return Err(
                    "a schema-1 array of trials, which binds no confirmation policy: \
                            autocontext writes a stale marker only over schema-2 evidence"
                        .to_owned(),
                );
            }
            canonical::sha256_hex(&evidence)
                .map(Some)
                .map_err(|refusal| format!("it has no digest: {refusal}"))
        });
    for (field, file, digest) in [
        ("evaluator_plan_digest", "evaluator_plan.json", plan),
        ("matched_evidence_digest", "matched_trials.json", evidence),
    ] {
        match digest {
            Ok(digest) if text(value, field) == digest.as_deref() => {}
            Ok(digest) => found.push(fails(
                rule,
                format!(
                    "{field} is {}, but {file} beside it has {}",
                    shorten(&written(value, field)),
                    digest.map_or_else(|| "no digest".to_owned(), |digest| shorten(&digest))
                ),
                address![field],
            )),
            Err(reason) => found.push(fails(
                rule,
                format!("the marker binds {file}: {reason}"),
                address![field],
            )),
        }
    }
    let null = Value::Null;
    let observed = value.get("observed_active_digest").unwrap_or(&null);
    let parent = candidate.parent();
    if observed == parent || text(value, "observed_active_digest") == Some(&candidate.digest) {
        found.push(fails(
            rule,
            format!(
                "observed_active_digest is {}, the candidate's own {}: a candidate whose \
                 incumbent or itself is active is not stale",
                shorten(&observed.to_string()),
                if observed == parent {
                    "incumbent"
                } else {
                    "bundle"
                }
            ),
            address!["observed_active_digest"],
        ));
    }
    let reason = stale_reason(parent, observed);
    match value.get("reason") {
        Some(Value::String(held)) if *held == reason => {}
        held => {
            let (held, rebuilt) = parted(held.unwrap_or(&Value::Null), &reason);
            found.push(fails(
                rule,
                format!(
                    "reason is {held}, but the bundle's parent and the active bundle the marker \
                     saw give {rebuilt}, as autocontext writes it"
                ),
                address!["reason"],
            ));
        }
    }
    found.extend(
        record_problem(subject, &candidate, value)
            .map(|problem| fails(rule, problem, address!["reason"])),
    );
    found
}

/// A written value and the text expected in its place, as a message shows
/// them: two long texts from a little before where they part.
fn parted(written: &Value, expected: &str) -> (String, String) {
    let whole = || (shown(written), shown(&Value::from(expected)));
    match written {
        Value::String(text) => parted_tails(text, expected).unwrap_or_else(whole),
        _ => whole(),
    }
}

/// A field as written, or `missing`.
fn written(value: &Value, field: &str) -> String {
    value
        .get(field)
        .map_or_else(|| "missing".to_owned(), Value::to_string)
}

/// Why the record beside the marker is not one autocontext leaves beside
/// it, if it is not: its comparison is confirmed (the marker is written
/// only for a confirmed candidate, and a resume replays it to confirmed),
/// and it is still confirmed (the marker written, the ending not yet
/// finished) or rejected with the marker's reason as its rationale.
fn record_problem(
    subject: &Subject<'_>,
    candidate: &super::evidence::Candidate,
    marker: &Value,
) -> Option<String> {
    let record = match candidate.file(&subject.location, "record.json") {
        Ok(record) => record,
        Err(reason) => return Some(format!("the candidate's record.json: {reason}")),
    };
    let decision = record
        .get("comparison")
        .and_then(|comparison| text(comparison, "decision"));
    if decision != Some("confirmed") {
        return Some(format!(
            "record.json's comparison is {}: autocontext ends only a confirmed candidate as stale",
            decision.map_or_else(|| "missing".to_owned(), |decision| format!("{decision:?}"))
        ));
    }
    let rationale = record.get("rationale");
    match text(&record, "lifecycle") {
        Some("confirmed") => None,
        Some("rejected")
            if rationale.and_then(Value::as_str)
                == reason_held(marker, candidate.parent(), rationale).as_deref() =>
        {
            None
        }
        Some("rejected") => Some(format!(
            "record.json is rejected with rationale {}, but the stale ending it records gives \
             the marker's reason, {}",
            shown(rationale.unwrap_or(&Value::Null)),
            shown(marker.get("reason").unwrap_or(&Value::Null))
        )),
        lifecycle => Some(format!(
            "record.json is {}: beside a stale marker autocontext leaves a record confirmed (the \
             ending begun) or rejected (finished)",
            lifecycle.map_or_else(
                || "without a lifecycle".to_owned(),
                |lifecycle| format!("{lifecycle:?}")
            )
        )),
    }
}
