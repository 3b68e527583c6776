//! AutocontextReservationArtifact (produced):
//! `promotion-risk/<campaign>/reservation-artifacts/<candidate_digest>.json`,
//! the immutable copy autocontext writes (`persist_reservation_artifact`)
//! when a campaign's reservation for a candidate becomes terminal: the risk
//! reservation and the fixture reservation the campaign state holds for it,
//! sealed by a digest. Both digests are recomputed, the copy is compared
//! with the state beside it, and the reservation's alpha, threshold and
//! gate decision are recomputed as the state's are.

mod catalogue;

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::campaign_state::{allocation_problems, campaign_folder, gate_problem};
use super::false_promotion::CampaignPolicy;
use super::manifest::is_hex_digest;
use super::store::{Place, StoreFile};
use super::{candidate_file, fails, load_neighbour, python, store_of, text};
use crate::canonical;
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::{Kind, Role, Subject};
use crate::text::{quote, shorten};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextReservationArtifact",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextReservationArtifact.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextReservationArtifact.schema.json"),
    display_name: |value| {
        value
            .get("risk_reservation")
            .and_then(|reservation| text(reservation, "status"))
            .map(str::to_owned)
    },
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// The fields `artifact_digest` covers.
const ARTIFACT_FIELDS: [&str; 4] = [
    "schema_version",
    "campaign_id",
    "risk_reservation",
    "fixture_reservation",
];

/// The fields of a fixture reservation `plan_digest` covers, in the order
/// autocontext lists them (the digest sorts them anyway).
const PLAN_FIELDS: [&str; 5] = [
    "campaign_id",
    "candidate_digest",
    "evaluator_epoch",
    "cohort",
    "units",
];

/// The statuses of a reservation autocontext writes an artifact for.
const TERMINAL: [&str; 3] = ["authorized", "blocked", "rejected"];

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let mut found = Vec::new();
    found.extend(artifact_digest_check(value));
    found.extend(plan_checks(value));
    if let Some(store) = store_of(&subject.location) {
        if let Place::ReservationArtifact { folder, name } = &store.place {
            found.extend(binding_checks(subject, &store, folder, name));
            found.extend(planned_evidence_check(subject, &store, name));
        }
    }
    found
}

/// The candidate's matched trials are those its fixture plan reserved, as
/// autocontext's controller checks before it writes the artifact
/// (`_validate_trials_match_fixture_reservation`): each trial is the
/// planned candidate's, of its epoch and cohort, and of a planned
/// (fixture, seed) in the lane planned for it.
/// A plan of another candidate than the file names is the binding's
/// finding, and its evidence is not looked for.
fn planned_evidence_check(
    subject: &Subject<'_>,
    store: &StoreFile,
    name: &str,
) -> Option<Diagnostic> {
    let plan = subject.value.get("fixture_reservation")?;
    let candidate =
        text(plan, "candidate_digest").filter(|digest| *digest == name && is_hex_digest(digest))?;
    let rule = &catalogue::RESERVATION_FIXTURE_PLAN;
    let evidence_name = format!("candidates/{candidate}/matched_trials.json");
    let evidence = match candidate_file(
        &subject.location,
        &store.root,
        candidate,
        "matched_trials.json",
    ) {
        Ok(evidence) => evidence,
        Err(reason) => {
            return Some(fails(
                rule,
                format!("the evidence of the plan, {evidence_name}: {reason}"),
                address!["fixture_reservation"],
            ));
        }
    };
    let (trials, _) = super::comparison::evidence_parts(&evidence);
    let planned: Vec<(&str, &Value, &str)> = plan
        .get("units")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(|unit| {
            Some((
                text(unit, "fixture_digest")?,
                unit.get("seed")?,
                text(unit, "lane")?,
            ))
        })
        .collect();
    if trials.is_empty() {
        return Some(fails(
            rule,
            format!(
                "{evidence_name} holds no trials: a terminal reservation rests on matched fixture evidence"
            ),
            address!["fixture_reservation"],
        ));
    }
    let problem =
        trials.iter().enumerate().find_map(|(index, trial)| {
            let field = |name: &str| text(trial, name).unwrap_or_default();
            if field("candidate_digest") != candidate {
                return Some(format!(
                    "trial {index} is candidate {}'s",
                    quote(&shorten(field("candidate_digest")))
                ));
            }
            for identity in ["evaluator_epoch", "cohort"] {
                if field(identity) != text(plan, identity).unwrap_or_default() {
                    return Some(format!(
                        "trial {index} has {identity} {}, the plan {}",
                        quote(field(identity)),
                        quote(text(plan, identity).unwrap_or_default())
                    ));
                }
            }
            let lane = planned.iter().find_map(|(fixture, seed, lane)| {
                (*fixture == field("fixture_digest")
                    && trial.get("seed").is_some_and(|at| python::equal(at, seed)))
                .then_some(*lane)
            });
            (lane != Some(field("lane"))).then(|| {
            format!(
                "trial {index} (fixture {}, seed {}, lane {}) is not a unit the plan reserved{}",
                quote(&shorten(field("fixture_digest"))),
                trial.get("seed").map_or_else(|| "missing".to_owned(), Value::to_string),
                quote(field("lane")),
                lane.map_or_else(String::new, |lane| format!(" (it planned lane {})", quote(lane)))
            )
        })
        })?;
    Some(fails(
        rule,
        format!("{evidence_name} was not gathered under this fixture plan: {problem}"),
        address!["fixture_reservation", "units"],
    ))
}

fn artifact_digest_check(value: &Value) -> Option<Diagnostic> {
    let rule = &catalogue::RESERVATION_ARTIFACT_DIGEST;
    let written = text(value, "artifact_digest").unwrap_or_default();
    match canonical::sha256_hex_of_fields(value, &ARTIFACT_FIELDS) {
        Ok(digest) if digest == written => None,
        Ok(digest) => Some(fails(
            rule,
            format!("artifact_digest is {written}, computed {digest}"),
            address!["artifact_digest"],
        )),
        Err(refusal) => Some(fails(
            rule,
            format!("the artifact has no digest: {refusal}"),
            address!["artifact_digest"],
        )),
    }
}

/// What `CandidateFixtureReservation` refuses: an empty identity or plan, a
/// unit with no fixture or a seed that is not an integer, a unit planned
/// twice, and a plan digest that does not verify.
fn plan_checks(value: &Value) -> Vec<Diagnostic> {
    let rule = &catalogue::RESERVATION_FIXTURE_PLAN;
    let base = address!["fixture_reservation"];
    let Some(plan) = value.get("fixture_reservation") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for field in [
        "campaign_id",
        "candidate_digest",
        "evaluator_epoch",
        "cohort",
    ] {
        if text(plan, field) == Some("") {
            found.push(fails(
                rule,
                format!("{field} is empty: a fixture reservation names its campaign, candidate, epoch and cohort"),
                base.clone().key(field),
            ));
        }
    }
    let units = plan
        .get("units")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    if units.is_empty() {
        found.push(fails(
            rule,
            "units is empty: a fixture reservation plans at least one unit".to_owned(),
            base.clone().key("units"),
        ));
    }
    let mut seen: HashSet<(&str, String)> = HashSet::new();
    for (index, unit) in units.iter().enumerate() {
        let at = base.clone().key("units").index(index);
        let fixture = text(unit, "fixture_digest").unwrap_or_default();
        if fixture.is_empty() {
            found.push(fails(
                rule,
                format!("unit {index} has an empty fixture_digest"),
                at.clone().key("fixture_digest"),
            ));
        }
        let Some(seed) = unit.get("seed").and_then(Value::as_number) else {
            continue;
        };
        if seed.is_f64() {
            found.push(fails(
                rule,
                format!("unit {index} has seed {seed}, a float: autocontext reads an integer only"),
                at.clone().key("seed"),
            ));
        }
        if !seen.insert((fixture, seed.to_string())) {
            found.push(fails(
                rule,
                format!(
                    "unit {index} plans fixture {} with seed {seed} again: each (fixture_digest, \
                     seed) is planned once",
                    quote(&shorten(fixture))
                ),
                at,
            ));
        }
    }
    let written = text(plan, "plan_digest").unwrap_or_default();
    match canonical::sha256_hex_of_fields(plan, &PLAN_FIELDS) {
        Ok(digest) if digest == written => {}
        Ok(digest) => found.push(fails(
            rule,
            format!("plan_digest is {written}, computed {digest}"),
            base.clone().key("plan_digest"),
        )),
        Err(refusal) => found.push(fails(
            rule,
            format!("the fixture reservation has no digest: {refusal}"),
            base.clone().key("plan_digest"),
        )),
    }
    found
}

/// The fields in which two objects differ, in the order of `ours` then of
/// `theirs`.
fn differing_fields(ours: &Value, theirs: &Value) -> Vec<String> {
    let empty = Map::new();
    let ours = ours.as_object().unwrap_or(&empty);
    let theirs = theirs.as_object().unwrap_or(&empty);
    let mut fields: Vec<String> = Vec::new();
    for key in ours.keys().chain(theirs.keys()) {
        let differs = match (ours.get(key), theirs.get(key)) {
            (Some(left), Some(right)) => !python::equal(left, right),
            _ => true,
        };
        if differs && !fields.contains(key) {
            fields.push(key.clone());
        }
    }
    fields
}

/// The entry of the state's list `field` whose `candidate_digest` is
/// `candidate`.
pub(super) fn held_for<'s>(state: &'s Value, field: &str, candidate: &str) -> Option<&'s Value> {
    state
        .get(field)
        .and_then(Value::as_array)?
        .iter()
        .find(|entry| text(entry, "candidate_digest") == Some(candidate))
}

/// The artifact's name, campaign and candidate; then, read from the
/// campaign state beside it, its two reservations, whether the risk
/// reservation is terminal, and its alpha, threshold and gate decision.
fn binding_checks(
    subject: &Subject<'_>,
    store: &StoreFile,
    folder: &str,
    name: &str,
) -> Vec<Diagnostic> {
    let rule = &catalogue::RESERVATION_ARTIFACT_BINDING;
    let value = subject.value;
    let null = Value::Null;
    let risk = value.get("risk_reservation").unwrap_or(&null);
    let plan = value.get("fixture_reservation").unwrap_or(&null);
    let campaign_id = text(value, "campaign_id").unwrap_or_default();
    let candidate = text(risk, "candidate_digest").unwrap_or_default();
    let mut found = Vec::new();
    if candidate != name {
        found.push(fails(
            rule,
            format!(
                "the artifact is named {}.json, but its risk reservation is for candidate {}",
                shorten(name),
                shorten(candidate)
            ),
            address!["risk_reservation", "candidate_digest"],
        ));
    }
    if text(plan, "candidate_digest") != Some(candidate) {
        found.push(fails(
            rule,
            format!(
                "the fixture reservation is for candidate {}, the risk reservation for {}",
                shorten(text(plan, "candidate_digest").unwrap_or_default()),
                shorten(candidate)
            ),
            address!["fixture_reservation", "candidate_digest"],
        ));
    }
    for (whose, what, address) in [
        (
            risk,
            "the risk reservation",
            address!["risk_reservation", "campaign_id"],
        ),
        (
            plan,
            "the fixture reservation",
            address!["fixture_reservation", "campaign_id"],
        ),
    ] {
        if text(whose, "campaign_id") != Some(campaign_id) {
            found.push(fails(
                rule,
                format!(
                    "{what} belongs to campaign {}, the artifact to {}",
                    quote(&shorten(text(whose, "campaign_id").unwrap_or_default())),
                    quote(&shorten(campaign_id))
                ),
                address,
            ));
        }
    }
    match campaign_folder(campaign_id) {
        Ok(expected) if expected == folder => {}
        Ok(expected) => {
            found.push(fails(
                rule,
                format!(
                    "the artifact of campaign {} stands in promotion-risk/{}/, autocontext keeps \
                     it in promotion-risk/{}/",
                    quote(&shorten(campaign_id)),
                    shorten(folder),
                    shorten(&expected)
                ),
                address!["campaign_id"],
            ));
            return found;
        }
        Err(refusal) => {
            found.push(fails(
                rule,
                format!("the campaign id has no folder: {refusal}"),
                address!["campaign_id"],
            ));
            return found;
        }
    }
    found.extend(state_checks(subject, store, folder, risk, plan, candidate));
    found
}

/// The artifact against `promotion-risk/<folder>/false-promotion.json`,
/// `folder` being the one autocontext names for the artifact's campaign.
fn state_checks(
    subject: &Subject<'_>,
    store: &StoreFile,
    folder: &str,
    risk: &Value,
    plan: &Value,
    candidate: &str,
) -> Vec<Diagnostic> {
    let rule = &catalogue::RESERVATION_ARTIFACT_BINDING;
    let state_name = format!("promotion-risk/{folder}/false-promotion.json");
    let state = match load_neighbour(
        &subject.location,
        &store.root,
        store
            .root
            .join("promotion-risk")
            .join(folder)
            .join("false-promotion.json"),
    ) {
        Ok(state) => state,
        Err(reason) => {
            return vec![fails(
                rule,
                format!("the campaign's state, {state_name}: {reason}"),
                address!["risk_reservation"],
            )];
        }
    };
    let mut found = Vec::new();
    for (list, ours, address, what) in [
        (
            "reservations",
            risk,
            address!["risk_reservation"],
            "risk reservation",
        ),
        (
            "fixture_reservations",
            plan,
            address!["fixture_reservation"],
            "fixture reservation",
        ),
    ] {
        match held_for(&state, list, candidate) {
            None => found.push(fails(
                rule,
                format!(
                    "{state_name} holds no {what} for candidate {}",
                    shorten(candidate)
                ),
                address,
            )),
            Some(held) if !python::equal(held, ours) => found.push(fails(
                rule,
                format!(
                    "the {what} is not the one {state_name} holds for its candidate: it differs \
                     in {}",
                    differing_fields(ours, held).join(", ")
                ),
                address,
            )),
            Some(_) => {}
        }
    }
    if let Some(held) = held_for(&state, "reservations", candidate) {
        let status = text(held, "status").unwrap_or_default();
        let evidence = held.get("evidence_digest").and_then(Value::as_str);
        let unsealed = evidence.is_none_or(str::is_empty);
        if !TERMINAL.contains(&status) || unsealed {
            found.push(fails(
                rule,
                format!(
                    "the campaign's reservation for this candidate is {} in {state_name}{}: \
                     autocontext writes an artifact only for a reservation authorized, blocked \
                     or rejected on its evidence",
                    quote(status),
                    if unsealed {
                        ", with no evidence digest"
                    } else {
                        ""
                    }
                ),
                address!["risk_reservation", "status"],
            ));
        }
    }
    let Ok(policy) = CampaignPolicy::from_value(state.get("policy").unwrap_or(&Value::Null)) else {
        // The state's own line says why its policy is refused.
        return found;
    };
    for (field, problem) in allocation_problems(&policy, risk) {
        found.push(fails(
            &super::catalogue::CAMPAIGN_ALLOCATION,
            format!("the risk reservation: {problem}"),
            address!["risk_reservation", field],
        ));
    }
    if let Some(problem) = gate_problem(&subject.location, &store.root, &policy, risk) {
        found.push(fails(
            &super::catalogue::CAMPAIGN_GATE,
            format!("the risk reservation: {problem}"),
            address!["risk_reservation", "status"],
        ));
    }
    found
}
