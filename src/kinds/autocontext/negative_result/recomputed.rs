//! The ledger autocontext's `_persist_negative_result` writes for a
//! candidate (`context_bundles/promotion.py`, through
//! `build_negative_result_ledger`), recomputed from what the store holds:
//! the record's comparison, the matched trials in their stored order, the
//! evaluator plan's cohort and the evidence it references, and what ended
//! the evaluation (the comparison's decision; a confirmed candidate's stale
//! marker, or the reservation its campaign's false-promotion gate blocked).
//! The failure-mode summary is `_failure_mode_summary` of the entries as
//! written.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::catalogue;
use crate::canonical;
use crate::diagnostic::{Address, Diagnostic, PathSegment, address};
use crate::kinds::Subject;
use crate::kinds::autocontext::comparison::evidence_parts;
use crate::kinds::autocontext::evidence::Candidate;
use crate::kinds::autocontext::python;
use crate::kinds::autocontext::reservation_artifact::held_for;
use crate::kinds::autocontext::stale_marker;
use crate::kinds::autocontext::{fails, load_neighbour, parted_tails, shown, text};
use crate::location::{Entry, io_reason};

/// The reason `build_negative_result_ledger` writes when it is given none.
const DEFAULT_REASON: &str = "Negative branch result recorded.";

/// The reason `authorize_promotion` hands on for a decided reservation
/// that holds none.
const PERSISTED_DECISION: &str = "persisted false-promotion decision";

/// What the rationale of a candidate blocked by its false-promotion gate
/// starts with (`_complete_promotion`), before `; reservation_sha256=`.
const BLOCKED_RATIONALE: &str = "false-promotion gate blocked: ";

/// The summary of the reference to the matched trials, before the policy
/// digest and a full stop.
const TRIALS_SUMMARY: &str =
    "Persisted matched candidate/incumbent evaluation pairs; confirmation_policy_sha256=";

/// The summary of the reference to the evaluator plan.
const PLAN_SUMMARY: &str = "Immutable score, validity, routing, executor, and fixture plan.";

/// What ended a candidate's evaluation, as `_persist_negative_result`
/// tells the cases apart.
enum Ending {
    /// `_terminal_result`: the comparison came out rejected or inconclusive.
    Decided,
    /// `terminalize_stale_candidate`: a confirmed candidate whose incumbent
    /// is no longer active, with the reason its marker holds, and its
    /// reservation when a campaign of the store holds one.
    Stale(Option<String>, Option<Held>),
    /// `_complete_promotion`: a confirmed candidate the campaign's
    /// false-promotion gate did not authorize, with the reason and where it
    /// was read, when the store holds it, and its reservation.
    Blocked(Option<(String, String)>, Option<Held>),
}

/// The candidate's reservation in a campaign of the store.
struct Held {
    /// The campaign's folder in `promotion-risk/`.
    folder: String,
    reservation: Value,
}

impl Ending {
    /// `decision_identity`, the last words of the result id.
    fn identity<'a>(&self, decision: &'a str) -> &'a str {
        match self {
            Ending::Decided => decision,
            Ending::Stale(..) => "stale-incumbent",
            Ending::Blocked(..) => "false-promotion-blocked",
        }
    }

    /// Whether `_persist_negative_result` references a campaign
    /// reservation: always for a blocked candidate, for a stale one when
    /// its campaign rejected its reservation. `None` for a stale candidate
    /// no campaign of the store holds: whether it had one is not known.
    fn references_reservation(&self) -> Option<bool> {
        match self {
            Ending::Decided => Some(false),
            Ending::Stale(_, held) => held.as_ref().map(|_| true),
            Ending::Blocked(..) => Some(true),
        }
    }

    /// The candidate's reservation in a campaign of the store.
    fn held(&self) -> Option<&Held> {
        match self {
            Ending::Decided => None,
            Ending::Stale(_, held) | Ending::Blocked(_, held) => held.as_ref(),
        }
    }
}

/// One field autocontext derives: where it is in the ledger, its value,
/// and what it is derived from.
struct Expected {
    address: Address,
    value: Value,
    whence: String,
}

pub(super) fn recomputed_checks(
    subject: &Subject<'_>,
    candidate: &Candidate,
    record: &Value,
) -> Vec<Diagnostic> {
    let rule = &catalogue::NEGATIVE_RESULT_RECOMPUTED;
    let Some(comparison) = record.get("comparison").filter(|value| value.is_object()) else {
        return vec![fails(
            rule,
            "the candidate's record.json holds no comparison, and autocontext writes a negative \
             result only from the comparison that ended an evaluation"
                .to_owned(),
            address!["entries"],
        )];
    };
    let mut found = Vec::new();
    let entries = super::entries(subject.value);
    if entries.len() != 1 {
        found.push(fails(
            rule,
            format!(
                "the ledger holds {} entries, but autocontext writes one for a candidate, once",
                entries.len()
            ),
            address!["entries"],
        ));
    }
    let ending = match ending(subject, candidate, record, comparison) {
        Ok(ending) => ending,
        Err(unknown) => {
            found.push(unknown);
            return found;
        }
    };
    if !entries.is_empty() {
        found.extend(reference_checks(subject, candidate, &ending));
    }
    for field in expected_fields(subject, candidate, record, comparison, &ending)
        .into_iter()
        .filter(|field| !entries.is_empty() || !field.address.starts_with(&address!["entries"]))
    {
        let written = field.address.find(subject.value).unwrap_or(&Value::Null);
        found.extend(
            difference(&field.address, written, &field.value).map(|(address, message)| {
                fails(rule, format!("{message}{}", field.whence), address)
            }),
        );
    }
    found
}

/// The entry's evidence references, as `_persist_negative_result` lists
/// them: the matched trials, the campaign's reservation artifact when the
/// gate blocked the candidate (or its campaign rejected a stale one), the
/// evaluator plan, each with its summary. The paths and digests of the
/// first and last are `negative-result-binding`'s; the artifact's path is
/// where the writer's controller kept it, absolute, and only its place
/// under `promotion-risk/` is compared.
fn reference_checks(
    subject: &Subject<'_>,
    candidate: &Candidate,
    ending: &Ending,
) -> Vec<Diagnostic> {
    let rule = &catalogue::NEGATIVE_RESULT_RECOMPUTED;
    let refs = address!["entries", 0, "evidence_refs"];
    let references = refs
        .find(subject.value)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let (counts, listed): (&[usize], &str) = match ending.references_reservation() {
        Some(false) => (&[2], "the matched trials and the evaluator plan"),
        Some(true) => (
            &[3],
            "the matched trials, the campaign's reservation and the evaluator plan",
        ),
        None => (
            &[2, 3],
            "the matched trials, the campaign's reservation if one was rejected, and the \
             evaluator plan",
        ),
    };
    if !counts.contains(&references.len()) {
        return vec![fails(
            rule,
            format!(
                "{} holds {} references, but autocontext references {listed}",
                field_name(&refs),
                references.len()
            ),
            refs,
        )];
    }
    let mut expected: Vec<(Address, Value, String)> = Vec::new();
    if let Some(digest) = candidate
        .file(&subject.location, "matched_trials.json")
        .ok()
        .and_then(|evidence| text(&evidence, "confirmation_policy_digest").map(str::to_owned))
    {
        expected.push((
            refs.clone().index(0).key("summary"),
            Value::String(format!("{TRIALS_SUMMARY}{digest}.")),
            "the policy digest of matched_trials.json".to_owned(),
        ));
    }
    expected.push((
        refs.clone()
            .index(references.len().saturating_sub(1))
            .key("summary"),
        Value::from(PLAN_SUMMARY),
        "_persist_negative_result".to_owned(),
    ));
    if let (Some(held), 3) = (ending.held(), references.len()) {
        expected.extend(reservation_reference(subject, candidate, held, &refs));
    }
    let mut found = Vec::new();
    for (at, value, whence) in expected {
        let written = at.find(subject.value).unwrap_or(&Value::Null);
        found.extend(
            difference(&at, written, &value)
                .map(|(at, message)| fails(rule, format!("{message}{whence}"), at)),
        );
    }
    found
}

/// The reference to the candidate's reservation artifact: its place under
/// the campaign's folder with the artifact's digest, and its summary of
/// the reservation the campaign's state holds.
fn reservation_reference(
    subject: &Subject<'_>,
    candidate: &Candidate,
    held: &Held,
    refs: &Address,
) -> Vec<(Address, Value, String)> {
    let mut expected = Vec::new();
    let place = format!(
        "promotion-risk/{}/reservation-artifacts/{}.json",
        held.folder, candidate.digest
    );
    let uri = refs
        .clone()
        .index(1)
        .key("uri")
        .find(subject.value)
        .and_then(Value::as_str)
        .unwrap_or_default();
    let artifact = load_neighbour(
        &subject.location,
        &candidate.store.root,
        candidate.store.root.join(&place),
    );
    let digest = artifact
        .ok()
        .and_then(|artifact| text(&artifact, "artifact_digest").map(str::to_owned));
    let tail = match &digest {
        Some(digest) => format!("/{place}#sha256={digest}"),
        None => format!("/{place}#sha256="),
    };
    let matches = match &digest {
        Some(_) => uri.ends_with(&tail),
        None => uri.contains(&tail),
    };
    if !matches {
        expected.push((
            refs.clone().index(1).key("uri"),
            Value::String(format!("…{tail}")),
            format!(
                "the reservation artifact of the campaign in promotion-risk/{}",
                held.folder
            ),
        ));
    }
    let reservation = &held.reservation;
    let alpha = reservation
        .get("allocated_alpha")
        .and_then(Value::as_f64)
        .and_then(python::repr_float);
    if let (Ok(sealed), Some(alpha)) = (canonical::sha256_hex(reservation), alpha) {
        let evidence = text(reservation, "evidence_digest").unwrap_or("None");
        expected.push((
            refs.clone().index(1).key("summary"),
            Value::String(format!(
                "Campaign reservation status={}; reservation_sha256={sealed}; \
                 allocated_alpha={alpha}; trial_evidence_sha256={evidence}.",
                text(reservation, "status").unwrap_or("None")
            )),
            format!(
                "the candidate's reservation in promotion-risk/{}/false-promotion.json",
                held.folder
            ),
        ));
    }
    expected
}

/// Where `written` first differs from `expected`, as Python's `==` compares
/// them, and the message up to where it names the source: a list of as
/// many items is compared item by item and an object field by field, so
/// the first differing value is named.
fn difference(address: &Address, written: &Value, expected: &Value) -> Option<(Address, String)> {
    if python::equal(written, expected) {
        return None;
    }
    if let (Value::Array(written), Value::Array(expected)) = (written, expected) {
        if written.len() != expected.len() {
            return Some((
                address.clone(),
                format!(
                    "{} holds {} items, but {} are given by ",
                    field_name(address),
                    written.len(),
                    expected.len()
                ),
            ));
        }
        return written.iter().zip(expected).enumerate().find_map(
            |(index, (written, expected))| {
                difference(&address.clone().index(index), written, expected)
            },
        );
    }
    if let (Value::Object(written), Value::Object(expected)) = (written, expected) {
        return expected
            .keys()
            .chain(written.keys().filter(|key| !expected.contains_key(*key)))
            .find_map(|key| {
                difference(
                    &address.clone().key(key),
                    written.get(key).unwrap_or(&Value::Null),
                    expected.get(key).unwrap_or(&Value::Null),
                )
            });
    }
    if let (Value::String(written), Value::String(expected)) = (written, expected) {
        if let Some((written, expected)) = parted_tails(written, expected) {
            return Some((
                address.clone(),
                format!(
                    "{} is {written}, but {expected} is given by ",
                    field_name(address)
                ),
            ));
        }
    }
    Some((
        address.clone(),
        format!(
            "{} is {}, but {} is given by ",
            field_name(address),
            shown(written),
            shown(expected)
        ),
    ))
}

/// Tells the candidate's ending from its comparison's decision and, for a
/// confirmed one, its stale marker (`stale_terminalization.json`, written
/// before the ledger and never removed); without one, the candidate was
/// blocked by its false-promotion gate. When a file that tells it cannot
/// be read, the finding that says so.
fn ending(
    subject: &Subject<'_>,
    candidate: &Candidate,
    record: &Value,
    comparison: &Value,
) -> Result<Ending, Diagnostic> {
    if text(comparison, "decision") != Some("confirmed") {
        return Ok(Ending::Decided);
    }
    let marker = "stale_terminalization.json";
    let path = candidate
        .store
        .root
        .join("candidates")
        .join(&candidate.digest)
        .join(marker);
    if !matches!(subject.location.entry(&path), Entry::Missing) {
        let marker = candidate
            .file(&subject.location, marker)
            .map_err(|reason| {
                unknown_ending(format!("the candidate's stale marker, {marker}: {reason}"))
            })?;
        let held = held_reservation(subject, candidate)?;
        let written = super::entries(subject.value)
            .first()
            .and_then(|entry| entry.get("reason"));
        let reason = stale_marker::reason_held(&marker, candidate.parent(), written);
        return Ok(Ending::Stale(reason, held));
    }
    if let Some(held) = held_reservation(subject, candidate)? {
        let reason = text(&held.reservation, "reason")
            .filter(|reason| !reason.is_empty())
            .unwrap_or(PERSISTED_DECISION)
            .to_owned();
        let whence = format!(
            "the candidate's reservation in promotion-risk/{}/false-promotion.json",
            held.folder
        );
        return Ok(Ending::Blocked(Some((reason, whence)), Some(held)));
    }
    let from_rationale = text(record, "rationale")
        .and_then(|rationale| rationale.strip_prefix(BLOCKED_RATIONALE))
        .and_then(|rest| rest.rsplit_once("; reservation_sha256="))
        .map(|(reason, _)| (reason.to_owned(), "the record's rationale".to_owned()));
    Ok(Ending::Blocked(from_rationale, None))
}

/// The finding on an ending that cannot be told, saying which file could
/// not be read and why.
fn unknown_ending(message: String) -> Diagnostic {
    fails(
        &catalogue::NEGATIVE_RESULT_RECOMPUTED,
        message,
        address!["entries", 0, "reason"],
    )
}

/// The candidate's reservation in a campaign of the store
/// (`promotion-risk/<campaign>/false-promotion.json`, campaigns in name
/// order); the finding of [`ending`] when a campaign cannot be read.
fn held_reservation(
    subject: &Subject<'_>,
    candidate: &Candidate,
) -> Result<Option<Held>, Diagnostic> {
    let root = &candidate.store.root;
    let campaigns = root.join("promotion-risk");
    if !matches!(subject.location.entry(&campaigns), Entry::Folder) {
        return Ok(None);
    }
    let names = subject.location.list(&campaigns).map_err(|error| {
        unknown_ending(format!(
            "the store's campaigns, promotion-risk/: {}",
            io_reason(&error)
        ))
    })?;
    for name in names {
        let path = campaigns.join(&name).join("false-promotion.json");
        if !matches!(subject.location.entry(&path), Entry::File(_)) {
            continue;
        }
        let state_name = format!("promotion-risk/{name}/false-promotion.json");
        let state = load_neighbour(&subject.location, root, path).map_err(|reason| {
            unknown_ending(format!("the campaign's state, {state_name}: {reason}"))
        })?;
        if let Some(reservation) = held_for(&state, "reservations", &candidate.digest) {
            return Ok(Some(Held {
                folder: name,
                reservation: reservation.clone(),
            }));
        }
    }
    Ok(None)
}

/// An address as a path people read:
/// `/entries/0/evaluated_seeds/2` as `entries[0].evaluated_seeds[2]`. A
/// key of digits alone reads as an index; a key keeps its pointer escapes.
fn field_name(address: &Address) -> String {
    let mut name = String::new();
    for step in address.steps() {
        let step = match step {
            PathSegment::Index(index) => index.to_string(),
            PathSegment::Key(key) => key.replace('~', "~0").replace('/', "~1"),
        };
        if step.bytes().all(|byte| byte.is_ascii_digit()) && !name.is_empty() {
            name.push_str(&format!("[{step}]"));
        } else {
            if !name.is_empty() {
                name.push('.');
            }
            name.push_str(&step);
        }
    }
    name
}

/// The fields autocontext derives from the store, each with what it is
/// derived from; a field whose source is missing or unreadable is left out
/// (the rule of that source says why).
fn expected_fields(
    subject: &Subject<'_>,
    candidate: &Candidate,
    record: &Value,
    comparison: &Value,
    ending: &Ending,
) -> Vec<Expected> {
    let decision = text(comparison, "decision").unwrap_or_default();
    let comparison_reason = text(comparison, "reason");
    let what_ended = match ending {
        Ending::Decided => format!("the record's {decision} comparison"),
        Ending::Stale(..) => "the candidate's stale marker".to_owned(),
        Ending::Blocked(..) => {
            "the record's confirmed comparison without a stale marker (a false-promotion block)"
                .to_owned()
        }
    };
    let mut fields: Vec<(&str, Option<Value>, String)> = vec![(
        "result_id",
        Some(Value::String(format!(
            "context-bundle-{}-{}",
            candidate.digest,
            ending.identity(decision)
        ))),
        what_ended.clone(),
    )];
    let verification = match ending {
        Ending::Decided if decision == "inconclusive" => Some(true),
        Ending::Decided => comparison_reason.map(|reason| reason.contains("validity")),
        Ending::Stale(..) | Ending::Blocked(..) => Some(true),
    };
    fields.push((
        "failure_kind",
        verification.map(|verification| {
            Value::from(if verification {
                "verification_failed"
            } else {
                "score_regression"
            })
        }),
        match ending {
            Ending::Decided => "the record's comparison (its decision and reason)".to_owned(),
            _ => what_ended.clone(),
        },
    ));
    let (reason, whence) = match ending {
        Ending::Decided => (
            comparison_reason.map(str::to_owned),
            "the record's comparison".to_owned(),
        ),
        Ending::Stale(reason, _) => (reason.clone(), "the candidate's stale marker".to_owned()),
        Ending::Blocked(held, _) => match held {
            Some((reason, whence)) => (Some(reason.clone()), whence.clone()),
            None => (None, String::new()),
        },
    };
    fields.push((
        "reason",
        reason.map(|reason| {
            Value::from(if reason.is_empty() {
                DEFAULT_REASON
            } else {
                reason.as_str()
            })
        }),
        whence,
    ));
    fields.push((
        "score_delta",
        comparison.get("mean_effect").map(|mean| {
            mean.as_f64()
                .filter(|mean| mean.is_finite())
                .map_or(Value::Null, |mean| json!(python::round_six(mean)))
        }),
        "the record's comparison (mean_effect to six decimals)".to_owned(),
    ));
    let (seeds, probes) = evaluated(subject, candidate);
    let trials = "matched_trials.json's trials, in their order";
    fields.push(("evaluated_seeds", seeds, trials.to_owned()));
    fields.push(("evaluated_probes", probes, trials.to_owned()));
    let created = record.get("created_at").cloned();
    fields.push((
        "occurred_at",
        created.clone(),
        "the record's created_at".to_owned(),
    ));
    for (field, value) in [
        ("disposition", json!("caution")),
        ("applicability_scope", json!("exact_bundle")),
        ("hypothesis_node_id", Value::Null),
        ("branch_lineage", json!([])),
        ("generation_index", Value::Null),
        ("evidence_expires_at", Value::Null),
        ("safety_policy_authority", Value::Null),
        ("retest_of_result_id", Value::Null),
        ("retest_outcome", Value::Null),
        ("superseded_by_result_id", Value::Null),
        ("context/context_bundle_family", Value::Null),
        ("context/verifier_digest", Value::Null),
        ("context/component_dependencies", json!([])),
        ("context/environment_fingerprint", Value::Null),
    ] {
        fields.push((field, Some(value), "_persist_negative_result".to_owned()));
    }
    let cohort = candidate
        .file(&subject.location, "evaluator_plan.json")
        .ok()
        .and_then(|plan| plan.pointer("/plan/cohort").cloned());
    fields.push((
        "context/trial_cohort",
        cohort,
        "evaluator_plan.json's cohort".to_owned(),
    ));
    fields
        .into_iter()
        .filter_map(|(field, value, whence)| {
            value.map(|value| Expected {
                // A field of a nested object is named by its path.
                address: field
                    .split('/')
                    .fold(address!["entries", 0], |address, key| address.key(key)),
                value,
                whence,
            })
        })
        .chain(created.map(|created| Expected {
            address: address!["generated_at"],
            value: created,
            whence: "the record's created_at".to_owned(),
        }))
        .collect()
}

/// `[str(trial.seed) ...]` and `[trial.fixture ...]` over the candidate's
/// matched trials in their stored order, as `_string_list` keeps them (no
/// empty string); each `None` when the trials cannot be read or a seed is
/// not an integer (autocontext's reader refuses such trials).
fn evaluated(subject: &Subject<'_>, candidate: &Candidate) -> (Option<Value>, Option<Value>) {
    let Ok(evidence) = candidate.file(&subject.location, "matched_trials.json") else {
        return (None, None);
    };
    let (trials, _) = evidence_parts(&evidence);
    let seeds: Option<Vec<Value>> = trials
        .iter()
        .map(|trial| match trial.get("seed") {
            Some(Value::Number(seed)) if !seed.is_f64() => Some(Value::String(seed.to_string())),
            _ => None,
        })
        .collect();
    let probes: Option<Vec<Value>> = trials
        .iter()
        .map(|trial| trial.get("fixture").and_then(Value::as_str))
        .filter(|fixture| *fixture != Some(""))
        .map(|fixture| fixture.map(Value::from))
        .collect();
    (seeds.map(Value::Array), probes.map(Value::Array))
}

/// `_failure_mode_summary`: the entries' result ids grouped by failure kind
/// and disposition, in entry order within a group, groups sorted by kind
/// then disposition. `None` when an entry lacks one of the three strings
/// (the schema says so).
pub(in crate::kinds::autocontext) fn failure_mode_summary(entries: &[Value]) -> Option<Value> {
    let mut groups: BTreeMap<(&str, &str), Vec<Value>> = BTreeMap::new();
    for entry in entries {
        let kind = text(entry, "failure_kind")?;
        let disposition = text(entry, "disposition")?;
        let id = text(entry, "result_id")?;
        groups
            .entry((kind, disposition))
            .or_default()
            .push(Value::from(id));
    }
    Some(Value::Array(
        groups
            .into_iter()
            .map(|((kind, disposition), ids)| {
                let mut summary = Map::new();
                summary.insert("failure_kind".into(), Value::from(kind));
                summary.insert("disposition".into(), Value::from(disposition));
                summary.insert("count".into(), Value::from(ids.len()));
                summary.insert("result_ids".into(), Value::Array(ids));
                Value::Object(summary)
            })
            .collect(),
    ))
}

/// The written failure-mode summary against the one the written entries
/// give, compared as Python's `==` compares them.
pub(super) fn summary_check(value: &Value) -> Option<Diagnostic> {
    let computed = failure_mode_summary(super::entries(value))?;
    let written = value.get("failure_mode_summary").unwrap_or(&Value::Null);
    difference(&address!["failure_mode_summary"], written, &computed).map(|(address, message)| {
        fails(
            &catalogue::NEGATIVE_RESULT_RECOMPUTED,
            format!("{message}the entries, as _failure_mode_summary groups them"),
            address,
        )
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::field_name;
    use crate::diagnostic::address;

    #[test]
    fn an_address_is_named_as_a_path() {
        assert_eq!(
            field_name(&address!["entries", 0, "evaluated_seeds", 2]),
            "entries[0].evaluated_seeds[2]"
        );
        assert_eq!(field_name(&address!["generated_at"]), "generated_at");
        assert_eq!(
            field_name(&address!["entries", 0, "context", "trial_cohort"]),
            "entries[0].context.trial_cohort"
        );
    }
}
