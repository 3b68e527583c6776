//! AutocontextCampaignState (produced):
//! `promotion-risk/<campaign>/false-promotion.json` in a store, where
//! autocontext's live runtime keeps its campaign-wide false-promotion
//! control (`CampaignFalsePromotionController`, rooted at the store's
//! `promotion-risk/`): the policy, the risk reserved for each candidate and
//! what the gate decided. Its digest and every allocation are recomputed
//! (see `false_promotion.rs`).

mod catalogue;

use serde_json::{Map, Value};

use super::candidate_file;
use super::false_promotion::{
    CampaignPolicy, GatePolicy, Lane, Observation, evaluate_evidence, required_confidence_z,
    state_digest,
};
use super::manifest::is_hex_digest;
use super::stale_marker;
use super::store::Place;
use super::{fails, store_of, text};
use crate::canonical;
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::{Kind, Role, Subject};
use crate::location::{Entry, Location};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextCampaignState",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextCampaignState.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextCampaignState.schema.json"),
    display_name: |value| text(value, "campaign_id").map(str::to_owned),
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// `campaign_path_segment`: the folder autocontext keeps a campaign in.
pub(super) fn campaign_folder(campaign_id: &str) -> Result<String, canonical::Refusal> {
    let plain = !campaign_id.is_empty()
        && campaign_id != "."
        && campaign_id != ".."
        && campaign_id.len() <= 120
        && campaign_id
            .chars()
            .all(|character| character.is_ascii_alphanumeric() || "-_.".contains(character));
    if plain {
        return Ok(campaign_id.to_owned());
    }
    let mut identity = Map::new();
    identity.insert("campaign_path_identity".into(), Value::from(campaign_id));
    canonical::sha256_hex(&Value::Object(identity)).map(|digest| format!("%{digest}"))
}

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let mut found = Vec::new();
    let campaign_id = text(value, "campaign_id").unwrap_or_default();
    if let Some(Place::Campaign { folder }) = store_of(&subject.location).map(|file| file.place) {
        match campaign_folder(campaign_id) {
            Ok(expected) if expected == folder => {}
            Ok(expected) => found.push(fails(
                &catalogue::CAMPAIGN_STATE_DIGEST,
                format!(
                    "the state of campaign {campaign_id:?} stands in promotion-risk/{folder}/, \
                     autocontext keeps it in promotion-risk/{expected}/"
                ),
                address!["campaign_id"],
            )),
            Err(refusal) => found.push(fails(
                &catalogue::CAMPAIGN_STATE_DIGEST,
                format!("the campaign id has no folder: {refusal}"),
                address!["campaign_id"],
            )),
        }
    }
    let written = text(value, "state_digest").unwrap_or_default();
    match state_digest(value) {
        Ok(digest) if digest == written => {}
        Ok(digest) => found.push(fails(
            &catalogue::CAMPAIGN_STATE_DIGEST,
            format!("state_digest is {written}, computed {digest}"),
            address!["state_digest"],
        )),
        Err(refusal) => found.push(fails(
            &catalogue::CAMPAIGN_STATE_DIGEST,
            format!("the state has no digest: {refusal}"),
            address!["state_digest"],
        )),
    }
    found.extend(allocation_checks(value, campaign_id));
    if let (Some(store), Ok(policy)) = (
        store_of(&subject.location),
        CampaignPolicy::from_value(value.get("policy").unwrap_or(&Value::Null)),
    ) {
        let reservations = value
            .get("reservations")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (index, reservation) in reservations.iter().enumerate() {
            if let Some(problem) =
                gate_problem(&subject.location, &store.root, &policy, reservation)
            {
                found.push(fails(
                    &super::catalogue::CAMPAIGN_GATE,
                    format!("reservation {index}: {problem}"),
                    address!["reservations", index, "status"],
                ));
            }
        }
    }
    found
}

/// The statuses of a reservation the campaign decided: by its gate
/// (`authorized`, `blocked`), by the candidate's own comparison
/// (`record_terminal_decision`: `rejected`, `inconclusive`), or as stale
/// (`reject_stale_risk_reservation`: `rejected`).
const DECIDED: [&str; 4] = ["authorized", "blocked", "rejected", "inconclusive"];

/// Why a decided reservation is not what autocontext writes for it, if it
/// is not. What decided it is told as autocontext tells it, from the
/// comparison that ended the candidate's evaluation (its `record.json`,
/// which its own rule replays from the matched trials): a `rejected` or
/// `inconclusive` comparison ends the reservation by
/// `record_terminal_decision`; a `confirmed` one goes to the gate, or,
/// when its incumbent went stale, is rejected as stale.
pub(super) fn gate_problem(
    location: &Location<'_>,
    root: &std::path::Path,
    policy: &CampaignPolicy,
    reservation: &Value,
) -> Option<String> {
    let status = text(reservation, "status")?;
    if !DECIDED.contains(&status) {
        return None;
    }
    let digest = text(reservation, "candidate_digest").filter(|digest| is_hex_digest(digest))?;
    let record = match candidate_file(location, root, digest, "record.json") {
        Ok(record) => record,
        Err(reason) => {
            return Some(format!(
                "the comparison that ended the candidate's evaluation, \
                 candidates/{digest}/record.json: {reason}"
            ));
        }
    };
    let comparison = record.get("comparison").filter(|value| value.is_object());
    match comparison.and_then(|comparison| text(comparison, "decision")) {
        Some(decision @ ("rejected" | "inconclusive")) => {
            return terminal_decision_problem(reservation, status, decision, comparison);
        }
        Some("confirmed") if status == "inconclusive" => {
            return Some(format!(
                "status inconclusive, but the comparison in candidates/{digest}/record.json is \
                 confirmed: autocontext records an inconclusive reservation only from an \
                 inconclusive comparison"
            ));
        }
        Some("confirmed") => {}
        decision => {
            return Some(format!(
                "status {status}, but candidates/{digest}/record.json holds {}: autocontext \
                 decides a reservation only once the candidate's comparison has ended its \
                 evaluation (rejected, inconclusive or confirmed)",
                decision.map_or_else(
                    || "no comparison".to_owned(),
                    |decision| format!("a comparison that is {decision:?}")
                )
            ));
        }
    }
    let evidence = match candidate_file(location, root, digest, "matched_trials.json") {
        Ok(evidence) => evidence,
        Err(reason) => {
            return Some(format!(
                "the gate's evidence, candidates/{digest}/matched_trials.json: {reason}"
            ));
        }
    };
    let trials = evidence
        .get("trials")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut sorted: Vec<&Value> = trials.iter().collect();
    sorted.sort_by(|left, right| text(left, "pair_key").cmp(&text(right, "pair_key")));
    let sorted = Value::from(sorted.into_iter().cloned().collect::<Vec<_>>());
    let evidence_digest = canonical::sha256_hex(&sorted).ok();
    if text(reservation, "evidence_digest") != evidence_digest.as_deref() {
        return Some(format!(
            "evidence_digest is not the digest of candidates/{digest}/matched_trials.json's trials \
             (computed {})",
            evidence_digest.unwrap_or_default()
        ));
    }
    if status == "rejected" {
        return stale_rejection_problem(location, root, digest, reservation, trials);
    }
    if evidence.get("confirmation_policy_digest") != reservation.get("confirmation_policy_digest") {
        return Some(format!(
            "candidates/{digest}/matched_trials.json was gathered under another confirmation \
             policy than the one reserved"
        ));
    }
    let confirmation = GatePolicy::from_value(evidence.get("confirmation_policy")?).ok()?;
    let observations: Option<Vec<Observation>> = trials
        .iter()
        .map(|trial| {
            Some(Observation {
                lane: Lane::named(text(trial, "lane")?)?,
                block: text(trial, "fixture_digest")?.to_owned(),
                delta: trial.get("candidate_score")?.as_f64()?
                    - trial.get("incumbent_score")?.as_f64()?,
            })
        })
        .collect();
    let Some(outcome) = observations
        .and_then(|observations| evaluate_evidence(policy, &confirmation, &observations))
    else {
        return Some("the gate cannot be replayed on its matched trials".to_owned());
    };
    let replayed_status = if outcome.authorized {
        "authorized"
    } else {
        "blocked"
    };
    if status != replayed_status || text(reservation, "reason") != Some(outcome.reason) {
        return Some(format!(
            "status {status} ({}), the gate gives {replayed_status} ({:?}) on the matched trials",
            written(reservation, "reason"),
            outcome.reason
        ));
    }
    block_count_difference(
        reservation,
        [
            outcome.independent_confirmation_blocks,
            outcome.independent_heldout_blocks,
        ],
    )
    .map(|(field, written, count)| {
        format!("{field} is {written}, the gate counts {count} on the matched trials")
    })
}

/// A field of a reservation as written, or `missing`.
fn written(reservation: &Value, field: &str) -> String {
    reservation
        .get(field)
        .map_or_else(|| "missing".to_owned(), Value::to_string)
}

/// The first of the independent confirmation and held-out block counts
/// that is not `counts`: its field, the value written and the count.
fn block_count_difference(
    reservation: &Value,
    counts: [usize; 2],
) -> Option<(&'static str, String, usize)> {
    [
        "independent_confirmation_blocks",
        "independent_heldout_blocks",
    ]
    .into_iter()
    .zip(counts)
    .find(|(field, count)| reservation.get(*field).and_then(Value::as_u64) != Some(*count as u64))
    .map(|(field, count)| (field, written(reservation, field), count))
}

/// Why a reservation the candidate's own comparison ended
/// (`record_terminal_decision`) is not what autocontext writes, if it is
/// not: the status is the comparison's decision and the reason its reason,
/// which autocontext checks on every resume (`_update_reservation`), and
/// nothing else changes from the reservation as reserved: no evidence is
/// bound and no block counted.
fn terminal_decision_problem(
    reservation: &Value,
    status: &str,
    decision: &str,
    comparison: Option<&Value>,
) -> Option<String> {
    let reason = comparison.and_then(|comparison| text(comparison, "reason"));
    if status != decision || text(reservation, "reason") != reason {
        return Some(format!(
            "status {status} ({}), but the candidate's comparison in record.json is {decision} \
             ({}): a reservation its comparison ended holds that decision and reason",
            written(reservation, "reason"),
            reason.map_or_else(|| "no reason".to_owned(), |reason| format!("{reason:?}"))
        ));
    }
    if !reservation
        .get("evidence_digest")
        .is_none_or(Value::is_null)
    {
        return Some(format!(
            "evidence_digest is {}, but a reservation its comparison ended binds no evidence \
             (autocontext's record_terminal_decision leaves it null)",
            written(reservation, "evidence_digest")
        ));
    }
    block_count_difference(reservation, [0, 0]).map(|(field, written, _)| {
        format!(
            "{field} is {written}, but a reservation its comparison ended counts no blocks \
             (autocontext's record_terminal_decision leaves it 0)"
        )
    })
}

/// Why a reservation rejected on confirmed evidence is not what
/// autocontext's rejection of a stale candidate
/// (`reject_stale_risk_reservation`) writes, if it is not: the candidate
/// has its stale marker, the reason is the marker's, which autocontext
/// checks on every resume, and its independent blocks are the fixtures of
/// each lane of the candidate's matched trials, counted without the gate
/// (which did not decide it). The trials' digest is checked by the caller.
fn stale_rejection_problem(
    location: &Location<'_>,
    root: &std::path::Path,
    digest: &str,
    reservation: &Value,
    trials: &[Value],
) -> Option<String> {
    let marker_name = format!("candidates/{digest}/stale_terminalization.json");
    let marker_path = root
        .join("candidates")
        .join(digest)
        .join("stale_terminalization.json");
    if matches!(location.entry(&marker_path), Entry::Missing) {
        return Some(format!(
            "status rejected, but the candidate's comparison is confirmed and {marker_name} is \
             missing: autocontext rejects a confirmed candidate's reservation only as stale, \
             after writing that marker"
        ));
    }
    let marker = match candidate_file(location, root, digest, "stale_terminalization.json") {
        Ok(marker) => marker,
        Err(reason) => {
            return Some(format!(
                "the candidate's stale marker, {marker_name}: {reason}"
            ));
        }
    };
    let parent = super::stored_bundle(location, root, digest)
        .ok()
        .map_or(Value::Null, |bundle| bundle.parent_digest().value());
    let held = stale_marker::reason_held(&marker, &parent, reservation.get("reason"));
    if text(reservation, "reason") != held.as_deref() {
        return Some(format!(
            "rejected as stale with reason {}, but {marker_name} gives {}",
            written(reservation, "reason"),
            written(&marker, "reason")
        ));
    }
    let blocks = |lane: &str| {
        trials
            .iter()
            .filter(|trial| text(trial, "lane") == Some(lane))
            .filter_map(|trial| text(trial, "fixture_digest"))
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    block_count_difference(reservation, [blocks("confirmation"), blocks("heldout")]).map(
        |(field, written, count)| {
            format!(
                "rejected as stale with {field} {written}: the candidate's matched trials hold \
                 {count} such fixtures"
            )
        },
    )
}

/// The policy, the numbering of the reservations and each one's alpha and
/// threshold.
fn allocation_checks(value: &Value, campaign_id: &str) -> Vec<Diagnostic> {
    let policy = match CampaignPolicy::from_value(value.get("policy").unwrap_or(&Value::Null)) {
        Ok(policy) => policy,
        Err(problem) => {
            return vec![fails(
                &super::catalogue::CAMPAIGN_ALLOCATION,
                format!("the campaign policy is refused by autocontext: {problem}"),
                address!["policy"],
            )];
        }
    };
    let reservations = value
        .get("reservations")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut found = Vec::new();
    for (index, reservation) in reservations.iter().enumerate() {
        let at = address!["reservations", index];
        let mut differs = |field: &str, problem: String| {
            found.push(fails(
                &super::catalogue::CAMPAIGN_ALLOCATION,
                format!("reservation {index}: {problem}"),
                at.clone().key(field),
            ));
        };
        if text(reservation, "campaign_id") != Some(campaign_id) {
            differs(
                "campaign_id",
                format!("it belongs to another campaign than {campaign_id:?}"),
            );
        }
        let candidate_index = reservation.get("candidate_index").and_then(Value::as_u64);
        if candidate_index != Some(index as u64) {
            differs(
                "candidate_index",
                format!(
                    "candidate_index is {}, and reservations are numbered in order from 0",
                    reservation
                        .get("candidate_index")
                        .map_or_else(|| "missing".to_owned(), Value::to_string)
                ),
            );
            continue;
        }
        for (field, problem) in allocation_problems(&policy, reservation) {
            differs(field, problem);
        }
    }
    found
}

/// Where a reservation's `allocated_alpha` and `required_confidence_z` are
/// not what `policy` allots its `candidate_index`: each field and why.
pub(super) fn allocation_problems(
    policy: &CampaignPolicy,
    reservation: &Value,
) -> Vec<(&'static str, String)> {
    let Some(index) = reservation.get("candidate_index").and_then(Value::as_u64) else {
        return vec![(
            "candidate_index",
            "candidate_index is not a non-negative integer".to_owned(),
        )];
    };
    let Some(alpha) = policy.alpha_for_candidate(index) else {
        return vec![(
            "allocated_alpha",
            "the campaign's allocation has underflowed to zero by this candidate".to_owned(),
        )];
    };
    let written = |field: &str| {
        reservation
            .get(field)
            .map_or_else(|| "missing".to_owned(), Value::to_string)
    };
    let mut found = Vec::new();
    if reservation.get("allocated_alpha").and_then(Value::as_f64) != Some(alpha) {
        found.push((
            "allocated_alpha",
            format!(
                "allocated_alpha is {}, the policy allots {}",
                written("allocated_alpha"),
                Value::from(alpha)
            ),
        ));
    }
    let Some(threshold) = required_confidence_z(alpha) else {
        return found;
    };
    if reservation
        .get("required_confidence_z")
        .and_then(Value::as_f64)
        != Some(threshold)
    {
        found.push((
            "required_confidence_z",
            format!(
                "required_confidence_z is {}, the threshold of its alpha is {}",
                written("required_confidence_z"),
                Value::from(threshold)
            ),
        ));
    }
    found
}
