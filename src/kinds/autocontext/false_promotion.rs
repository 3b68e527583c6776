//! autocontext's campaign-wide false-promotion control
//! (`context_bundles/false_promotion.py`): the alpha each candidate of a
//! campaign is allotted, the confidence threshold reserved for it, the
//! digest of the persisted campaign state and the dependence-aware evidence
//! gate, computed as autocontext's Python computes them, to the bit.

use serde_json::{Value, json};

use super::python::statistics::{erfc, fmean, paired_confidence_interval};
use crate::canonical;

/// How the evidence gate bounds the confirmation blocks' mean effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RobustMethod {
    /// A Student-t interval over the block means.
    ClusterT,
    /// Hoeffding's bound for effects within the declared bounds.
    BoundedHoeffding,
}

impl RobustMethod {
    fn name(self) -> &'static str {
        match self {
            Self::ClusterT => "cluster_t",
            Self::BoundedHoeffding => "bounded_hoeffding",
        }
    }
}

/// `CampaignFalsePromotionPolicy`: a summable alpha-spending policy.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignPolicy {
    pub familywise_alpha: f64,
    pub allocation_decay: f64,
    pub min_independent_confirmation_blocks: u64,
    pub require_disjoint_lane_blocks: bool,
    pub robust_method: RobustMethod,
    pub effect_lower_bound: f64,
    pub effect_upper_bound: f64,
}

/// Why autocontext refuses a persisted policy: the campaign's, or the
/// confirmation figures its gate reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    #[error("{0} is not a number")]
    NotANumber(&'static str),
    #[error("{0} is not a non-negative integer")]
    NotACount(&'static str),
    #[error("{0} must be a boolean")]
    NotABoolean(&'static str),
    #[error("robust_method must be cluster_t or bounded_hoeffding")]
    UnknownRobustMethod,
    /// A field that must lie strictly between zero and one.
    #[error("{0} must be finite and between zero and one")]
    OutsideTheOpenUnit(&'static str),
    #[error("min_independent_confirmation_blocks must be at least two")]
    TooFewConfirmationBlocks,
    #[error("effect bounds must be finite and increasing")]
    EffectBounds,
}

fn number(value: &Value, field: &'static str) -> Result<f64, PolicyError> {
    value
        .get(field)
        .and_then(Value::as_f64)
        .ok_or(PolicyError::NotANumber(field))
}

fn count(value: &Value, field: &'static str) -> Result<u64, PolicyError> {
    value
        .get(field)
        .and_then(Value::as_u64)
        .ok_or(PolicyError::NotACount(field))
}

fn open_unit(value: f64) -> bool {
    value.is_finite() && 0.0 < value && value < 1.0
}

impl CampaignPolicy {
    /// The policy as autocontext persists it, refused where autocontext's
    /// constructor refuses it.
    pub fn from_value(value: &Value) -> Result<Self, PolicyError> {
        let robust_method = match value.get("robust_method").map(Value::as_str) {
            None | Some(Some("cluster_t")) => RobustMethod::ClusterT,
            Some(Some("bounded_hoeffding")) => RobustMethod::BoundedHoeffding,
            Some(_) => return Err(PolicyError::UnknownRobustMethod),
        };
        let bound = |field: &'static str, default: f64| {
            value
                .get(field)
                .map_or(Ok(default), |_| number(value, field))
        };
        let policy = Self {
            familywise_alpha: number(value, "familywise_alpha")?,
            allocation_decay: number(value, "allocation_decay")?,
            min_independent_confirmation_blocks: count(
                value,
                "min_independent_confirmation_blocks",
            )?,
            require_disjoint_lane_blocks: value
                .get("require_disjoint_lane_blocks")
                .and_then(Value::as_bool)
                .ok_or(PolicyError::NotABoolean("require_disjoint_lane_blocks"))?,
            robust_method,
            effect_lower_bound: bound("effect_lower_bound", -1.0)?,
            effect_upper_bound: bound("effect_upper_bound", 1.0)?,
        };
        if !open_unit(policy.familywise_alpha) {
            return Err(PolicyError::OutsideTheOpenUnit("familywise_alpha"));
        }
        if !open_unit(policy.allocation_decay) {
            return Err(PolicyError::OutsideTheOpenUnit("allocation_decay"));
        }
        if policy.min_independent_confirmation_blocks < 2 {
            return Err(PolicyError::TooFewConfirmationBlocks);
        }
        if !policy.effect_lower_bound.is_finite()
            || !policy.effect_upper_bound.is_finite()
            || policy.effect_lower_bound >= policy.effect_upper_bound
        {
            return Err(PolicyError::EffectBounds);
        }
        Ok(policy)
    }

    /// `to_dict`, the form hashed into the campaign state.
    pub fn to_value(&self) -> Value {
        json!({
            "familywise_alpha": self.familywise_alpha,
            "allocation_decay": self.allocation_decay,
            "min_independent_confirmation_blocks": self.min_independent_confirmation_blocks,
            "require_disjoint_lane_blocks": self.require_disjoint_lane_blocks,
            "robust_method": self.robust_method.name(),
            "effect_lower_bound": self.effect_lower_bound,
            "effect_upper_bound": self.effect_upper_bound,
        })
    }

    /// `alpha_for_candidate`: `alpha * (1 - decay) * decay ** index`;
    /// `None` once it underflows to zero (autocontext then authorizes no
    /// further promotion).
    pub fn alpha_for_candidate(&self, candidate_index: u64) -> Option<f64> {
        // Python's `float ** int` is C's `pow`, as `powf` is; an index
        // beyond i32 underflows either way.
        #[allow(clippy::cast_precision_loss)]
        let power = self.allocation_decay.powf(candidate_index as f64);
        let allocated = self.familywise_alpha * (1.0 - self.allocation_decay) * power;
        (allocated != 0.0).then_some(allocated)
    }
}

/// `required_confidence_z`: the two-sided normal threshold whose tail is
/// `allocated_alpha`, found by bisection on `erfc` and rounded up to twelve
/// decimals; `None` where autocontext refuses the alpha.
pub fn required_confidence_z(allocated_alpha: f64) -> Option<f64> {
    if !open_unit(allocated_alpha) {
        return None;
    }
    let tail = |z: f64| erfc(z / std::f64::consts::SQRT_2);
    let mut lower = 0.0;
    let mut upper = 1.0;
    while tail(upper) > allocated_alpha {
        lower = upper;
        upper *= 2.0;
        if !upper.is_finite() {
            return None;
        }
    }
    for _ in 0..160 {
        let midpoint = (lower + upper) / 2.0;
        if tail(midpoint) > allocated_alpha {
            lower = midpoint;
        } else {
            upper = midpoint;
        }
    }
    let scale = 1_000_000_000_000.0;
    Some((upper * scale).ceil() / scale)
}

/// The confirmation policy a reservation binds: the base policy with its
/// `confidence_z` raised to the reserved threshold.
pub fn effective_policy(base: &Value, required_z: f64) -> Value {
    let mut policy = base.clone();
    if let Some(fields) = policy.as_object_mut() {
        let base_z = fields
            .get("confidence_z")
            .and_then(Value::as_f64)
            .unwrap_or(f64::NEG_INFINITY);
        fields.insert("confidence_z".into(), Value::from(base_z.max(required_z)));
    }
    policy
}

/// `CandidateRiskReservation`: what a campaign reserves for one candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Reservation {
    pub campaign_id: String,
    pub candidate_digest: String,
    pub incumbent_digest: String,
    pub evaluator_epoch: String,
    pub candidate_index: u64,
    pub allocated_alpha: f64,
    pub required_confidence_z: f64,
    pub confirmation_policy_digest: String,
    pub status: String,
    pub reason: Option<String>,
    pub evidence_digest: Option<String>,
    pub independent_confirmation_blocks: u64,
    pub independent_heldout_blocks: u64,
}

/// Who a reservation is for: the candidate bundle's digest, its parent's
/// and its evaluator epoch.
pub struct Candidate<'a> {
    pub digest: &'a str,
    pub incumbent_digest: &'a str,
    pub evaluator_epoch: &'a str,
}

impl Reservation {
    /// `reserve_confirmation_policy` for the campaign's candidate number
    /// `candidate_index`: its alpha, threshold and the digest of the
    /// confirmation policy it binds, still `reserved`. `None` where
    /// autocontext refuses (the allocation underflowed, or the base policy
    /// has no digest).
    pub fn reserve(
        policy: &CampaignPolicy,
        campaign_id: &str,
        candidate_index: u64,
        candidate: &Candidate<'_>,
        base_policy: &Value,
    ) -> Option<Self> {
        let allocated_alpha = policy.alpha_for_candidate(candidate_index)?;
        let required_confidence_z = required_confidence_z(allocated_alpha)?;
        let effective = effective_policy(base_policy, required_confidence_z);
        Some(Self {
            campaign_id: campaign_id.to_owned(),
            candidate_digest: candidate.digest.to_owned(),
            incumbent_digest: candidate.incumbent_digest.to_owned(),
            evaluator_epoch: candidate.evaluator_epoch.to_owned(),
            candidate_index,
            allocated_alpha,
            required_confidence_z,
            confirmation_policy_digest: canonical::sha256_hex(&effective).ok()?,
            status: "reserved".to_owned(),
            reason: None,
            evidence_digest: None,
            independent_confirmation_blocks: 0,
            independent_heldout_blocks: 0,
        })
    }

    /// `to_dict`, the form persisted in the campaign state.
    pub fn to_value(&self) -> Value {
        json!({
            "campaign_id": self.campaign_id,
            "candidate_digest": self.candidate_digest,
            "incumbent_digest": self.incumbent_digest,
            "evaluator_epoch": self.evaluator_epoch,
            "candidate_index": self.candidate_index,
            "allocated_alpha": self.allocated_alpha,
            "required_confidence_z": self.required_confidence_z,
            "confirmation_policy_digest": self.confirmation_policy_digest,
            "status": self.status,
            "reason": self.reason,
            "evidence_digest": self.evidence_digest,
            "independent_confirmation_blocks": self.independent_confirmation_blocks,
            "independent_heldout_blocks": self.independent_heldout_blocks,
        })
    }
}

/// The fields of a schema-2 campaign state its `state_digest` covers; a
/// schema-1 state has only the first four.
const STATE_FIELDS: [&str; 6] = [
    "schema_version",
    "campaign_id",
    "policy",
    "reservations",
    "fixture_reservations",
    "fixture_history_complete",
];

/// The digest autocontext writes as `state_digest` in a campaign's
/// `false-promotion.json`: of everything else `state` holds, a missing
/// field counted as null.
pub fn state_digest(state: &Value) -> Result<String, canonical::Refusal> {
    let fields = if state.get("schema_version").and_then(Value::as_u64) == Some(1) {
        &STATE_FIELDS[..4]
    } else {
        &STATE_FIELDS[..]
    };
    canonical::sha256_hex_of_fields(state, fields)
}

/// A campaign state as autocontext writes it (schema 2), without its
/// digest.
pub fn state(campaign_id: &str, policy: &CampaignPolicy, reservations: &[Reservation]) -> Value {
    json!({
        "schema_version": 2,
        "campaign_id": campaign_id,
        "policy": policy.to_value(),
        "reservations": reservations.iter().map(Reservation::to_value).collect::<Vec<_>>(),
        "fixture_reservations": [],
        "fixture_history_complete": true,
    })
}

/// An evaluation lane of a matched trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    Screen,
    Confirmation,
    Heldout,
}

impl Lane {
    /// The lane autocontext writes as `lane`.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "screen" => Some(Self::Screen),
            "confirmation" => Some(Self::Confirmation),
            "heldout" => Some(Self::Heldout),
            _ => None,
        }
    }
}

/// One matched trial as the gate sees it: its lane, its dependence block
/// (the fixture digest) and its paired effect.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    pub lane: Lane,
    pub block: String,
    pub delta: f64,
}

/// What the gate decided, as autocontext records it on the reservation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateOutcome {
    pub authorized: bool,
    pub reason: &'static str,
    pub independent_confirmation_blocks: usize,
    pub independent_heldout_blocks: usize,
}

/// The confirmation policy figures the gate reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GatePolicy {
    pub min_confirmation_pairs: u64,
    pub max_confirmation_pairs: u64,
    pub min_heldout_pairs: u64,
    pub min_effect: f64,
    pub confidence_z: f64,
}

impl GatePolicy {
    pub fn from_value(value: &Value) -> Result<Self, PolicyError> {
        Ok(Self {
            min_confirmation_pairs: count(value, "min_confirmation_pairs")?,
            max_confirmation_pairs: count(value, "max_confirmation_pairs")?,
            min_heldout_pairs: count(value, "min_heldout_pairs")?,
            min_effect: number(value, "min_effect")?,
            confidence_z: number(value, "confidence_z")?,
        })
    }
}

/// The means of each block's effects, blocks in code point order of their
/// names (Python's `sorted` on strings).
fn block_means(observations: &[&Observation]) -> Option<Vec<f64>> {
    let mut blocks: Vec<(&str, Vec<f64>)> = Vec::new();
    for observation in observations {
        match blocks
            .iter_mut()
            .find(|(block, _)| *block == observation.block)
        {
            Some((_, effects)) => effects.push(observation.delta),
            None => blocks.push((&observation.block, vec![observation.delta])),
        }
    }
    blocks.sort_by(|left, right| left.0.cmp(right.0));
    blocks
        .iter()
        .map(|(_, effects)| fmean(effects).ok())
        .collect()
}

fn in_lane(observations: &[Observation], lane: Lane) -> Vec<&Observation> {
    observations
        .iter()
        .filter(|observation| observation.lane == lane)
        .collect()
}

fn shares_a_block(left: &[&Observation], right: &[&Observation]) -> bool {
    left.iter()
        .any(|one| right.iter().any(|other| one.block == other.block))
}

/// `_evaluate_evidence`: whether the campaign gate authorizes promotion on
/// these observations. Under `cluster_t` the bound is the lower end of
/// `paired_confidence_interval` over the confirmation block means, the
/// policy's `confidence_z` spent over its looks. `None` where autocontext
/// raises: a block without a finite mean, an interval it cannot compute.
pub fn evaluate_evidence(
    campaign: &CampaignPolicy,
    confirmation: &GatePolicy,
    observations: &[Observation],
) -> Option<GateOutcome> {
    let screen = in_lane(observations, Lane::Screen);
    let confirming = in_lane(observations, Lane::Confirmation);
    let heldout = in_lane(observations, Lane::Heldout);
    let outcome = |authorized, reason, confirmation_blocks, heldout_blocks| GateOutcome {
        authorized,
        reason,
        independent_confirmation_blocks: confirmation_blocks,
        independent_heldout_blocks: heldout_blocks,
    };
    if campaign.require_disjoint_lane_blocks
        && (shares_a_block(&screen, &confirming)
            || shares_a_block(&screen, &heldout)
            || shares_a_block(&confirming, &heldout))
    {
        return Some(outcome(
            false,
            "dependence blocks overlap across evaluation lanes",
            0,
            0,
        ));
    }
    let confirmation_effects = block_means(&confirming)?;
    let heldout_effects = block_means(&heldout)?;
    let blocks = |authorized, reason| {
        Some(outcome(
            authorized,
            reason,
            confirmation_effects.len(),
            heldout_effects.len(),
        ))
    };
    let required = confirmation
        .min_confirmation_pairs
        .max(campaign.min_independent_confirmation_blocks);
    if (confirmation_effects.len() as u64) < required {
        return blocks(
            false,
            "insufficient independent confirmation blocks after non-IID clustering",
        );
    }
    if (heldout_effects.len() as u64) < confirmation.min_heldout_pairs {
        return blocks(
            false,
            "insufficient independent held-out blocks after non-IID clustering",
        );
    }
    // Fewer than one look: autocontext's interval raises, and Hoeffding's
    // bound would divide by zero.
    let max_looks = confirmation
        .max_confirmation_pairs
        .checked_sub(confirmation.min_confirmation_pairs)?
        .checked_add(1)?;
    let confidence_low = match campaign.robust_method {
        RobustMethod::BoundedHoeffding => {
            let outside = observations.iter().any(|observation| {
                observation.delta < campaign.effect_lower_bound
                    || observation.delta > campaign.effect_upper_bound
            });
            if outside {
                return blocks(
                    false,
                    "paired effect falls outside the predeclared robust bounds",
                );
            }
            let family_alpha = erfc(confirmation.confidence_z / std::f64::consts::SQRT_2);
            #[allow(clippy::cast_precision_loss)]
            let look_alpha = family_alpha / max_looks as f64;
            let width = campaign.effect_upper_bound - campaign.effect_lower_bound;
            if look_alpha == 0.0 {
                Some(f64::NEG_INFINITY)
            } else {
                #[allow(clippy::cast_precision_loss)]
                let blocks = confirmation_effects.len() as f64;
                let mean = fmean(&confirmation_effects).ok()?;
                Some(mean - width * ((1.0 / look_alpha).ln() / (2.0 * blocks)).sqrt())
            }
        }
        RobustMethod::ClusterT => {
            paired_confidence_interval(&confirmation_effects, confirmation.confidence_z, max_looks)
                .ok()?
                .low
        }
    };
    if confidence_low.is_none_or(|low| low <= confirmation.min_effect) {
        return blocks(
            false,
            "campaign-adjusted block confidence interval does not clear the minimum effect",
        );
    }
    if fmean(&heldout_effects).ok()? <= confirmation.min_effect {
        return blocks(
            false,
            "independent held-out blocks do not clear the minimum effect",
        );
    }
    blocks(
        true,
        "campaign alpha reservation and dependence-aware evidence authorized promotion",
    )
}

#[cfg(test)]
#[path = "false_promotion_tests.rs"]
mod tests;
