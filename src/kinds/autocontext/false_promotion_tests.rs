//! autocontext's `false-promotion-parity.json`, which both its runtimes
//! reproduce, reproduced here case by case.

use std::fs;
use std::path::Path;

use serde_json::Value;

use super::{
    CampaignPolicy, Candidate, GatePolicy, Lane, Observation, Reservation, RobustMethod,
    evaluate_evidence, required_confidence_z, state, state_digest,
};

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/autocontext/fixtures")
        .join(name);
    serde_json::from_str(&fs::read_to_string(&path).expect("the parity fixture is copied"))
        .expect("the fixture is JSON")
}

fn parity() -> (Value, CampaignPolicy) {
    let fixture = fixture("false-promotion-parity.json");
    let policy = CampaignPolicy::from_value(&fixture["campaign_policy"]).unwrap();
    (fixture, policy)
}

fn cases<'f>(fixture: &'f Value, name: &str) -> &'f [Value] {
    let cases = fixture[name].as_array().unwrap();
    assert!(!cases.is_empty(), "{name}");
    cases
}

#[test]
fn every_candidate_allocation_is_the_fixtures_to_the_bit() {
    let (fixture, policy) = parity();
    for case in cases(&fixture, "candidate_allocations") {
        let index = case["candidate_index"].as_u64().unwrap();
        let alpha = policy.alpha_for_candidate(index).unwrap();
        assert_eq!(
            alpha.to_bits(),
            case["alpha"].as_f64().unwrap().to_bits(),
            "{index}"
        );
        let z = required_confidence_z(alpha).unwrap();
        assert_eq!(
            z.to_bits(),
            case["required_confidence_z"].as_f64().unwrap().to_bits(),
            "{index}"
        );
    }
    // Beyond the fixture: the allocation underflows, and autocontext
    // refuses an alpha outside (0, 1).
    assert_eq!(policy.alpha_for_candidate(2_000), None);
    assert_eq!(required_confidence_z(0.0), None);
    assert_eq!(required_confidence_z(1.0), None);
    assert_eq!(required_confidence_z(f64::NAN), None);
}

/// The reservation the campaign makes for the causal-attribution fixture's
/// candidate, its first.
fn first_reservation(fixture: &Value, policy: &CampaignPolicy) -> Reservation {
    let state = &fixture["persisted_state_case"];
    let candidate_fixture = self::fixture(state["candidate_fixture"].as_str().unwrap());
    let tested = &candidate_fixture["tested"];
    Reservation::reserve(
        policy,
        state["campaign_id"].as_str().unwrap(),
        0,
        &Candidate {
            digest: tested["digest"].as_str().unwrap(),
            incumbent_digest: tested["parent_digest"].as_str().unwrap(),
            evaluator_epoch: tested["evaluator_epoch"].as_str().unwrap(),
        },
        &fixture["base_confirmation_policy"],
    )
    .unwrap()
}

fn digest_of(reservation: &Reservation, policy: &CampaignPolicy) -> String {
    state_digest(&state(
        &reservation.campaign_id,
        policy,
        std::slice::from_ref(reservation),
    ))
    .unwrap()
}

#[test]
fn the_persisted_state_and_every_reservation_status_digest_as_the_fixture_says() {
    let (fixture, policy) = parity();
    let reservation = first_reservation(&fixture, &policy);
    let state = &fixture["persisted_state_case"];
    assert_eq!(
        reservation.confirmation_policy_digest,
        state["expected_confirmation_policy_digest"]
            .as_str()
            .unwrap()
    );
    assert_eq!(
        digest_of(&reservation, &policy),
        state["expected_state_digest"].as_str().unwrap()
    );
    let text = |case: &Value, field: &str| case[field].as_str().map(str::to_owned);
    for case in cases(&fixture, "reservation_status_cases") {
        let updated = Reservation {
            status: text(case, "status").unwrap(),
            reason: text(case, "reason"),
            evidence_digest: text(case, "evidence_digest"),
            independent_confirmation_blocks: case["independent_confirmation_blocks"]
                .as_u64()
                .unwrap(),
            independent_heldout_blocks: case["independent_heldout_blocks"].as_u64().unwrap(),
            ..reservation.clone()
        };
        assert_eq!(
            digest_of(&updated, &policy),
            case["expected_state_digest"].as_str().unwrap(),
            "{}",
            case["status"]
        );
    }
    // One field of the state changed changes its digest.
    let mut other = reservation.clone();
    other.candidate_index = 1;
    assert_ne!(
        digest_of(&other, &policy),
        state["expected_state_digest"].as_str().unwrap()
    );
}

/// The observations of an evidence case as the matched trials hold them:
/// the Python fixture test scores the candidate `0.5 + delta` against
/// `0.5`, so the trial's delta is that difference.
fn observations(case: &Value) -> Vec<Observation> {
    case["observations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|observation| Observation {
            lane: Lane::named(observation["lane"].as_str().unwrap()).unwrap(),
            block: observation["block"].as_str().unwrap().to_owned(),
            delta: (0.5 + observation["delta"].as_f64().unwrap()) - 0.5,
        })
        .collect()
}

fn gate_policy(fixture: &Value) -> GatePolicy {
    GatePolicy::from_value(&fixture["base_confirmation_policy"]).unwrap()
}

/// Every evidence case: disjoint blocks authorized through the cluster-t
/// interval, repeated seeds of one block and lanes that share a block
/// refused before it.
#[test]
fn every_evidence_case_is_decided_as_the_fixture_says() {
    let (fixture, policy) = parity();
    let mut decided = 0;
    for case in cases(&fixture, "evidence_cases") {
        let expected = &case["expected"];
        let outcome =
            evaluate_evidence(&policy, &gate_policy(&fixture), &observations(case)).unwrap();
        assert_eq!(
            outcome.authorized, expected["authorized"],
            "{}",
            case["name"]
        );
        assert_eq!(outcome.reason, expected["reason"], "{}", case["name"]);
        assert_eq!(
            outcome.independent_confirmation_blocks as u64,
            expected["independent_confirmation_blocks"]
                .as_u64()
                .unwrap()
        );
        assert_eq!(
            outcome.independent_heldout_blocks as u64,
            expected["independent_heldout_blocks"].as_u64().unwrap()
        );
        decided += 1;
    }
    assert_eq!(decided, 3);
}

/// Under `bounded_hoeffding` the gate needs no interval of another module;
/// the outcomes are autocontext 0.18.0's `_evaluate_evidence` on the same
/// observations (twenty confirmation blocks, `max_confirmation_pairs` 3).
#[test]
fn the_hoeffding_gate_clears_as_autocontexts() {
    let (fixture, mut policy) = parity();
    policy.robust_method = RobustMethod::BoundedHoeffding;
    let mut confirmation = gate_policy(&fixture);
    confirmation.max_confirmation_pairs = 3;
    let run = |delta: f64, heldout: f64| {
        let mut observations = vec![Observation {
            lane: Lane::Screen,
            block: "s".to_owned(),
            delta: (0.5 + 0.3) - 0.5,
        }];
        observations.extend((0..20).map(|index| Observation {
            lane: Lane::Confirmation,
            block: format!("c{index}"),
            delta: (0.5 + delta) - 0.5,
        }));
        observations.push(Observation {
            lane: Lane::Heldout,
            block: "h".to_owned(),
            delta: (0.5 + heldout) - 0.5,
        });
        evaluate_evidence(&policy, &confirmation, &observations).unwrap()
    };
    let authorized = run(0.7, 0.2);
    assert!(authorized.authorized);
    assert_eq!(
        authorized.reason,
        "campaign alpha reservation and dependence-aware evidence authorized promotion"
    );
    assert_eq!(authorized.independent_confirmation_blocks, 20);
    assert_eq!(
        run(0.6, 0.2).reason,
        "campaign-adjusted block confidence interval does not clear the minimum effect"
    );
    assert_eq!(
        run(0.7, -0.2).reason,
        "independent held-out blocks do not clear the minimum effect"
    );
    assert_eq!(
        run(1.5, 0.2).reason,
        "paired effect falls outside the predeclared robust bounds"
    );
}

#[test]
fn a_policy_autocontext_refuses_is_refused_with_the_reason() {
    let (fixture, _) = parity();
    for (field, value, reason) in [
        (
            "familywise_alpha",
            Value::from(1.0),
            "familywise_alpha must be finite and between zero and one",
        ),
        (
            "familywise_alpha",
            Value::from("0.05"),
            "familywise_alpha is not a number",
        ),
        (
            "allocation_decay",
            Value::from(0.0),
            "allocation_decay must be finite and between zero and one",
        ),
        (
            "min_independent_confirmation_blocks",
            Value::from(1),
            "min_independent_confirmation_blocks must be at least two",
        ),
        (
            "min_independent_confirmation_blocks",
            Value::from(-2),
            "min_independent_confirmation_blocks is not a non-negative integer",
        ),
        (
            "require_disjoint_lane_blocks",
            Value::Null,
            "require_disjoint_lane_blocks must be a boolean",
        ),
        (
            "robust_method",
            Value::from("bootstrap"),
            "robust_method must be cluster_t or bounded_hoeffding",
        ),
        (
            "effect_lower_bound",
            Value::from(2.0),
            "effect bounds must be finite and increasing",
        ),
    ] {
        let mut policy = fixture["campaign_policy"].clone();
        policy[field] = value;
        assert_eq!(
            CampaignPolicy::from_value(&policy)
                .map_err(|error| error.to_string())
                .err()
                .as_deref(),
            Some(reason),
            "{field}"
        );
    }
    let mut gate = fixture["base_confirmation_policy"].clone();
    gate["min_effect"] = Value::Null;
    assert_eq!(
        GatePolicy::from_value(&gate).map_err(|error| error.to_string()),
        Err("min_effect is not a number".to_owned())
    );
    assert_eq!(
        CampaignPolicy::from_value(&fixture["campaign_policy"])
            .unwrap()
            .to_value(),
        fixture["campaign_policy"]
    );
}
