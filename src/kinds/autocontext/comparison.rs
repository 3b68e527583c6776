//! The comparison replayed from a candidate's raw matched trials under its
//! persisted confirmation policy, as autocontext's `evaluate_matched_trials`
//! computes it (`context_bundles/comparison.py`), so that the comparison a
//! candidate record and a promotion record hold can be checked against it.
//!
//! The decision, reason, counts and mean effect are compared exactly, with
//! the statistics [`statistics`](super::statistics) computes by Python's
//! own operations; the interval's bounds exactly too where numi calls the
//! C library autocontext's CPython calls (glibc), and elsewhere within the
//! error a last-bit difference of that library can make
//! (docs/autocontext.md, "The comparison").

use std::cell::Cell;

use serde_json::Value;

use super::python::statistics::{
    StatisticsError, erfc, fmean, paired_confidence_interval, student_t_upper_quantile,
};
use crate::canonical;
use crate::text::shorten;

/// The fields of autocontext's `ComparisonResult.to_dict()`, in its order.
pub(super) const FIELDS: [&str; 8] = [
    "decision",
    "reason",
    "screen_pairs",
    "confirmation_pairs",
    "heldout_pairs",
    "mean_effect",
    "confidence_low",
    "confidence_high",
];

/// Why autocontext refuses to compute a comparison: what
/// `evaluate_matched_trials` raises on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(super) enum ReplayError {
    #[error(transparent)]
    Policy(#[from] PolicyError),
    /// The trial at this index (in the file's order) is refused.
    #[error("trial {index}: {problem}")]
    Trial { index: usize, problem: TrialError },
    #[error("confirmation pairs exceed the configured maximum")]
    TooManyConfirmationPairs,
    #[error("the confirmation lane has too few pairs for an interval")]
    NoInterval,
    #[error(transparent)]
    Statistics(#[from] StatisticsError),
}

/// Why `ConfirmationPolicy(**data)` refuses a persisted policy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum PolicyError {
    #[error("the confirmation policy is not an object")]
    NotAnObject,
    #[error(
        "the confirmation policy has a field autocontext does not know: {}",
        shorten(.0)
    )]
    UnknownField(String),
    #[error("the confirmation policy's {0} is negative")]
    Negative(&'static str),
    #[error("the confirmation policy's {0} must be an integer")]
    NotAnInteger(&'static str),
    /// A number that is no double.
    #[error("the confirmation policy's {0} is not a number")]
    NotADouble(&'static str),
    #[error("the confirmation policy's {0} must be a number")]
    NotANumber(&'static str),
    #[error("the confirmation policy is refused: min_screen_pairs must be positive")]
    NoScreenPairs,
    #[error("the confirmation policy is refused: min_confirmation_pairs must be at least 2")]
    TooFewConfirmationPairs,
    #[error(
        "the confirmation policy is refused: max_confirmation_pairs must be >= \
         min_confirmation_pairs"
    )]
    MaximumBelowMinimum,
    #[error("the confirmation policy is refused: min_heldout_pairs must be positive")]
    NoHeldoutPairs,
    #[error("the confirmation policy is refused: min_effect must be finite")]
    MinEffect,
    #[error("the confirmation policy is refused: confidence_z must be finite and positive")]
    ConfidenceZ,
}

/// Why `MatchedTrial.from_dict` or `_validate_trials` refuses a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(super) enum TrialError {
    #[error("lane is not screen, confirmation or heldout")]
    Lane,
    /// Its cohort, fixture or fixture digest is missing or blank.
    #[error("matched trials require cohort, fixture, and fixture_digest")]
    Unnamed,
    #[error("{0} must be numeric")]
    NotNumeric(&'static str),
    #[error("{0} integer must be within the JavaScript safe integer range")]
    UnsafeInteger(&'static str),
    #[error("{0} must be finite")]
    NotFinite(&'static str),
    /// The effect, candidate score less incumbent score, overflows.
    #[error("matched trial scores and effect must be finite")]
    Effect,
    #[error("{0} must be a boolean")]
    NotABoolean(&'static str),
}

/// `ConfirmationPolicy(**data)`, with its defaults and checks.
#[derive(Debug, Clone, Copy)]
pub(super) struct Policy {
    min_screen_pairs: u64,
    min_confirmation_pairs: u64,
    max_confirmation_pairs: u64,
    min_heldout_pairs: u64,
    min_effect: f64,
    confidence_z: f64,
}

impl Policy {
    pub(super) fn from_value(value: &Value) -> Result<Self, PolicyError> {
        let Some(object) = value.as_object() else {
            return Err(PolicyError::NotAnObject);
        };
        if let Some(unknown) = object.keys().find(|key| {
            ![
                "min_screen_pairs",
                "min_confirmation_pairs",
                "max_confirmation_pairs",
                "min_heldout_pairs",
                "min_effect",
                "confidence_z",
            ]
            .contains(&key.as_str())
        }) {
            return Err(PolicyError::UnknownField(unknown.clone()));
        }
        let count = |name: &'static str, default: u64| -> Result<u64, PolicyError> {
            match object.get(name) {
                None => Ok(default),
                Some(Value::Number(number)) if number.is_i64() || number.is_u64() => {
                    number.as_u64().ok_or(PolicyError::Negative(name))
                }
                Some(_) => Err(PolicyError::NotAnInteger(name)),
            }
        };
        let real = |name: &'static str, default: f64| -> Result<f64, PolicyError> {
            match object.get(name) {
                None => Ok(default),
                Some(Value::Number(number)) => number.as_f64().ok_or(PolicyError::NotADouble(name)),
                Some(_) => Err(PolicyError::NotANumber(name)),
            }
        };
        let policy = Policy {
            min_screen_pairs: count("min_screen_pairs", 2)?,
            min_confirmation_pairs: count("min_confirmation_pairs", 6)?,
            max_confirmation_pairs: count("max_confirmation_pairs", 20)?,
            min_heldout_pairs: count("min_heldout_pairs", 2)?,
            min_effect: real("min_effect", 0.0)?,
            confidence_z: real("confidence_z", 1.96)?,
        };
        let problem = if policy.min_screen_pairs < 1 {
            Some(PolicyError::NoScreenPairs)
        } else if policy.min_confirmation_pairs < 2 {
            Some(PolicyError::TooFewConfirmationPairs)
        } else if policy.max_confirmation_pairs < policy.min_confirmation_pairs {
            Some(PolicyError::MaximumBelowMinimum)
        } else if policy.min_heldout_pairs < 1 {
            Some(PolicyError::NoHeldoutPairs)
        } else if !policy.min_effect.is_finite() {
            Some(PolicyError::MinEffect)
        } else if !policy.confidence_z.is_finite() || policy.confidence_z <= 0.0 {
            Some(PolicyError::ConfidenceZ)
        } else {
            None
        };
        match problem {
            Some(problem) => Err(problem),
            None => Ok(policy),
        }
    }

    /// Whether a replay under `self` is one under `other`: every count and
    /// every bit of both reals the same.
    pub(super) fn is(&self, other: &Policy) -> bool {
        self.min_screen_pairs == other.min_screen_pairs
            && self.min_confirmation_pairs == other.min_confirmation_pairs
            && self.max_confirmation_pairs == other.max_confirmation_pairs
            && self.min_heldout_pairs == other.min_heldout_pairs
            && self.min_effect.to_bits() == other.min_effect.to_bits()
            && self.confidence_z.to_bits() == other.confidence_z.to_bits()
    }
}

/// What of a matched trial the comparison reads.
struct Trial {
    lane: Lane,
    delta: f64,
    valid: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lane {
    Screen,
    Confirmation,
    Heldout,
}

/// The largest integer autocontext accepts as a score (JavaScript's safe
/// integers).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

impl Trial {
    /// `MatchedTrial.from_dict` and `_validate_trials`, for what the
    /// comparison depends on; the pair key and the binding to the candidate
    /// are rules of their own.
    fn from_value(index: usize, value: &Value) -> Result<Self, ReplayError> {
        let refused = |problem| ReplayError::Trial { index, problem };
        let lane = match value.get("lane").and_then(Value::as_str) {
            Some("screen") => Lane::Screen,
            Some("confirmation") => Lane::Confirmation,
            Some("heldout") => Lane::Heldout,
            _ => return Err(refused(TrialError::Lane)),
        };
        for field in ["cohort", "fixture", "fixture_digest"] {
            if value
                .get(field)
                .and_then(Value::as_str)
                .is_none_or(|text| text.trim().is_empty())
            {
                return Err(refused(TrialError::Unnamed));
            }
        }
        let score = |field: &'static str| -> Result<f64, ReplayError> {
            let Some(Value::Number(number)) = value.get(field) else {
                return Err(refused(TrialError::NotNumeric(field)));
            };
            if number.is_i64() || number.is_u64() {
                let magnitude = number
                    .as_i64()
                    .map(i64::unsigned_abs)
                    .or_else(|| number.as_u64())
                    .unwrap_or(u64::MAX);
                if magnitude > MAX_SAFE_INTEGER {
                    return Err(refused(TrialError::UnsafeInteger(field)));
                }
            }
            number
                .as_f64()
                .filter(|score| score.is_finite())
                .ok_or_else(|| refused(TrialError::NotFinite(field)))
        };
        let flag = |field: &'static str| -> Result<bool, ReplayError> {
            match value.get(field) {
                None => Ok(true),
                Some(Value::Bool(flag)) => Ok(*flag),
                Some(_) => Err(refused(TrialError::NotABoolean(field))),
            }
        };
        let delta = score("candidate_score")? - score("incumbent_score")?;
        if !delta.is_finite() {
            return Err(refused(TrialError::Effect));
        }
        Ok(Trial {
            lane,
            delta,
            valid: flag("candidate_valid")? && flag("incumbent_valid")?,
        })
    }
}

/// The fields that name one evaluation unit: lane and fixture name are
/// labels, so relabelling a unit must not make it a second pair.
const PAIR_FIELDS: [&str; 4] = ["evaluator_epoch", "cohort", "fixture_digest", "seed"];

/// The pair key autocontext computes for a trial: the digest of the fields
/// that name its evaluation unit.
pub(super) fn pair_key(trial: &Value) -> Result<String, canonical::Refusal> {
    canonical::sha256_hex_of_fields(trial, &PAIR_FIELDS)
}

/// Whether two trials are one evaluation unit (or one has no pair key):
/// autocontext refuses such a file before it evaluates anything, and the
/// matched trials' own rule says so.
fn repeats_a_unit(trials: &[Value]) -> bool {
    let mut seen = std::collections::HashSet::new();
    trials.iter().any(|trial| match pair_key(trial) {
        Ok(key) => !seen.insert(key),
        Err(_) => true,
    })
}

/// A replayed comparison: the fields of the JSON object autocontext
/// persists, and what its interval, if it has one, was computed from.
#[derive(Debug, Clone)]
pub(super) struct Replayed {
    decision: &'static str,
    reason: &'static str,
    /// `screen_pairs`, `confirmation_pairs` and `heldout_pairs`.
    counts: [u64; 3],
    /// `mean_effect`, `confidence_low` and `confidence_high`.
    statistics: [Option<f64>; 3],
    spread: Option<Spread>,
}

impl Replayed {
    /// The value of `field` (one of [`FIELDS`]) in the object autocontext
    /// persists, as `json.loads` reads it back (a real that is not finite
    /// has no JSON number: null).
    fn field(&self, field: &str) -> Value {
        let [screen, confirmation, heldout] = self.counts;
        let [mean, low, high] = self.statistics;
        let real = |statistic: Option<f64>| statistic.map_or(Value::Null, Value::from);
        match field {
            "decision" => Value::from(self.decision),
            "reason" => Value::from(self.reason),
            "screen_pairs" => Value::from(screen),
            "confirmation_pairs" => Value::from(confirmation),
            "heldout_pairs" => Value::from(heldout),
            "mean_effect" => real(mean),
            "confidence_low" => real(low),
            "confidence_high" => real(high),
            _ => Value::Null,
        }
    }
}

/// What a confirmation interval's critical value is computed from: the
/// Student-t quantile of `erfc(confidence_z / sqrt 2) / max_looks / 2` at
/// `degrees_of_freedom`.
#[derive(Debug, Clone, Copy)]
struct Spread {
    degrees_of_freedom: u64,
    confidence_z: f64,
    max_looks: u64,
}

/// The comparison `evaluate_matched_trials` returns for these trials under
/// this policy; none when the trials repeat an evaluation unit; or why
/// autocontext would refuse to compute one.
pub(super) fn replay(trials: &[Value], policy: &Value) -> Replay {
    if repeats_a_unit(trials) {
        return Ok(None);
    }
    evaluate(trials, &Policy::from_value(policy)?).map(Some)
}

/// [`replay`] under a policy already read.
pub(super) fn replay_under(trials: &[Value], policy: &Policy) -> Replay {
    if repeats_a_unit(trials) {
        return Ok(None);
    }
    evaluate(trials, policy).map(Some)
}

fn evaluate(trials: &[Value], policy: &Policy) -> Result<Replayed, ReplayError> {
    let trials = trials
        .iter()
        .enumerate()
        .map(|(index, trial)| Trial::from_value(index, trial))
        .collect::<Result<Vec<_>, _>>()?;
    let lane =
        |lane: Lane| -> Vec<&Trial> { trials.iter().filter(|trial| trial.lane == lane).collect() };
    let (screen, confirmation, heldout) = (
        lane(Lane::Screen),
        lane(Lane::Confirmation),
        lane(Lane::Heldout),
    );
    let counts = [screen.len(), confirmation.len(), heldout.len()].map(|count| count as u64);
    // Set once the interval is computed: what it was computed from.
    let spread = Cell::new(None);
    let result =
        |decision: &'static str, reason: &'static str, statistics: [Option<f64>; 3]| Replayed {
            decision,
            reason,
            counts,
            statistics,
            spread: spread.get(),
        };
    let deltas =
        |trials: &[&Trial]| -> Vec<f64> { trials.iter().map(|trial| trial.delta).collect() };
    let all_valid = |trials: &[&Trial]| trials.iter().all(|trial| trial.valid);

    if counts[1] > policy.max_confirmation_pairs {
        return Err(ReplayError::TooManyConfirmationPairs);
    }
    if counts[0] < policy.min_screen_pairs {
        return Ok(result(
            "needs_screen",
            "insufficient matched screen pairs",
            [None; 3],
        ));
    }
    if !all_valid(&screen) {
        return Ok(result("rejected", "screen validity failure", [None; 3]));
    }
    let screen_effect = fmean(&deltas(&screen))?;
    if screen_effect <= policy.min_effect {
        return Ok(result(
            "rejected",
            "candidate failed the cheap matched screen",
            [Some(screen_effect), None, None],
        ));
    }
    if counts[1] < policy.min_confirmation_pairs {
        return Ok(result(
            "needs_confirmation",
            "screen passed; more matched confirmation pairs required",
            [Some(screen_effect), None, None],
        ));
    }
    if !all_valid(&confirmation) {
        return Ok(result(
            "rejected",
            "confirmation validity failure",
            [None; 3],
        ));
    }
    let max_looks = policy.max_confirmation_pairs - policy.min_confirmation_pairs + 1;
    let interval =
        paired_confidence_interval(&deltas(&confirmation), policy.confidence_z, max_looks)?;
    let (Some(mean_effect), Some(low), Some(high)) = (interval.mean, interval.low, interval.high)
    else {
        return Err(ReplayError::NoInterval);
    };
    spread.set(Some(Spread {
        degrees_of_freedom: counts[1].saturating_sub(1),
        confidence_z: policy.confidence_z,
        max_looks,
    }));
    let interval = [Some(mean_effect), Some(low), Some(high)];
    if high <= policy.min_effect {
        return Ok(result(
            "rejected",
            "confirmation confidence interval is below the minimum effect",
            interval,
        ));
    }
    if low <= policy.min_effect {
        return Ok(if counts[1] >= policy.max_confirmation_pairs {
            result(
                "inconclusive",
                "maximum confirmation budget reached without a decisive effect",
                interval,
            )
        } else {
            result(
                "needs_confirmation",
                "confirmation uncertainty overlaps the minimum effect",
                interval,
            )
        });
    }
    if counts[2] < policy.min_heldout_pairs {
        return Ok(result(
            "needs_heldout",
            "confirmation passed; held-out matched pairs required",
            interval,
        ));
    }
    if !all_valid(&heldout) {
        return Ok(result("rejected", "held-out validity failure", interval));
    }
    let heldout_effect = fmean(&deltas(&heldout))?;
    if heldout_effect <= policy.min_effect {
        return Ok(result(
            "rejected",
            "candidate regressed on the held-out lane",
            [Some(heldout_effect), Some(low), Some(high)],
        ));
    }
    Ok(result(
        "confirmed",
        "matched confirmation and held-out lanes passed",
        interval,
    ))
}

/// The fields that pass through the C library's `log`, `log1p` and `exp`
/// (the interval's critical value), whose last bits may differ between C
/// libraries.
const BOUNDS: [&str; 2] = ["confidence_low", "confidence_high"];

/// Whether numi's `log`, `log1p` and `exp` (Rust's `f64` methods) are the
/// C library's that autocontext's CPython calls on the platforms it runs
/// on: glibc, on Linux for x86-64 and AArch64. There numi performs every
/// operation autocontext performs, in the same order, on the same library,
/// and the bounds are compared as autocontext's own replay compares them,
/// exactly. Elsewhere (numi's static musl build, macOS, Windows) the
/// library is another one.
pub(super) const SAME_C_LIBRARY: bool = cfg!(all(
    target_os = "linux",
    target_env = "gnu",
    any(target_arch = "x86_64", target_arch = "aarch64")
));

/// The distance between `value` and the next double away from zero (the
/// smallest subnormal at zero).
fn ulp(value: f64) -> f64 {
    let magnitude = value.abs();
    if !magnitude.is_finite() {
        return f64::NAN;
    }
    f64::from_bits(magnitude.to_bits() + 1) - magnitude
}

/// How many ulps of the interval's half-width a bound computed with
/// another C library's `log`, `log1p` and `exp` may lie from glibc's (the
/// final addition to the mean aside), when each of those returns a double
/// next to glibc's (both are faithful: within an ulp of the exact value).
/// The incomplete beta's `log_front` sums terms of up to about
/// `(v/2) ln(v/2)` for `v` degrees of freedom, so an ulp of each moves it
/// by their size in ulps; `exp` turns that into a relative error of the
/// survival function, and the bisection into one of the critical value
/// `t`, so of the half-width, by that times `S / (t S')`, which is at most
/// about `1/v + 1/t^2`. The sum of those terms times that factor (`P`)
/// bounded the distance seen when every library result was moved by an
/// ulp, up, down or at random, over 1,328 intervals of 1 to 30,000
/// degrees of freedom and confidence z from 0.05 to 8, by `4 P + 32`
/// ulps of the half-width, with 1.14 of it at worst (docs/autocontext.md);
/// `8 P + 64` is allowed.
fn bound_tolerance_ulps(spread: Spread) -> Option<f64> {
    const LANCZOS_G: f64 = 6.024_680_040_776_73;
    let degrees = spread.degrees_of_freedom as f64;
    if degrees < 1.0 || spread.max_looks == 0 {
        return None;
    }
    let tail = erfc(spread.confidence_z / 2.0_f64.sqrt()) / spread.max_looks as f64 / 2.0;
    let critical = student_t_upper_quantile(tail, spread.degrees_of_freedom).ok()?;
    if !critical.is_finite() || critical <= 0.0 {
        return None;
    }
    let (alpha, beta) = (degrees / 2.0, 0.5);
    let value = degrees / (degrees + critical * critical);
    let terms = (alpha + beta) * (alpha + beta + LANCZOS_G).ln()
        + alpha * (alpha + LANCZOS_G).ln()
        + beta * (beta + LANCZOS_G).ln()
        + alpha * value.ln().abs()
        + beta * (-value).ln_1p().abs()
        // `exp` of `log_front` and the two logs of `lgamma`'s Lanczos
        // sums, and the two `exp` of glibc's `erfc`, which numi's port
        // calls from the platform's library too.
        + 3.0
        + 2.0;
    let propagated = (1.0 / degrees + 1.0 / (critical * critical)) * terms;
    propagated.is_finite().then_some(8.0 * propagated + 64.0)
}

/// Whether a recorded bound is the replayed one: equal, as autocontext's
/// replay compares them; or, where numi's C library is not glibc
/// ([`SAME_C_LIBRARY`]), within the ulps of the half-width that
/// [`bound_tolerance_ulps`] allows, and two of the bound itself for the
/// addition to the mean.
fn bound_agrees(recorded: f64, replayed: f64, replay: &Replayed, same_library: bool) -> bool {
    if recorded == replayed {
        return true;
    }
    if same_library {
        return false;
    }
    // As JSON holds them: a real that is not finite is no number.
    let [mean, low, high] = replay
        .statistics
        .map(|statistic| statistic.filter(|real| real.is_finite()));
    let (Some(spread), Some(mean), Some(low), Some(high)) = (replay.spread, mean, low, high) else {
        return false;
    };
    let half_width = (high - mean).abs().max((mean - low).abs());
    // A zero spread, or an unbounded interval, passes through no library.
    if half_width == 0.0 || !half_width.is_finite() || high == f64::MAX {
        return false;
    }
    let Some(ulps) = bound_tolerance_ulps(spread) else {
        return false;
    };
    let rounding = 2.0 * ulp(recorded.abs().max(replayed.abs()));
    (recorded - replayed).abs() <= ulps * ulp(half_width) + rounding
}

/// Each field where `recorded` is not `replayed` as Python's `==` sees it
/// (numbers by value; the two bounds as [`bound_agrees`] says): the field,
/// the recorded and the replayed value.
pub(super) fn disagreements(
    recorded: &Value,
    replayed: &Replayed,
) -> Vec<(&'static str, String, String)> {
    disagreements_on(recorded, replayed, SAME_C_LIBRARY)
}

/// [`disagreements`] as on a platform whose C library is glibc
/// (`same_library`) or another one.
fn disagreements_on(
    recorded: &Value,
    replayed: &Replayed,
    same_library: bool,
) -> Vec<(&'static str, String, String)> {
    FIELDS
        .iter()
        .filter_map(|field| {
            let ours = &replayed.field(field);
            let theirs = recorded.get(*field).unwrap_or(&Value::Null);
            let same = match (theirs, ours) {
                (Value::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
                    (Some(a), Some(b)) if BOUNDS.contains(field) => {
                        bound_agrees(a, b, replayed, same_library)
                    }
                    (a, b) => a == b,
                },
                _ => theirs == ours,
            };
            (!same).then(|| {
                (
                    *field,
                    shorten(&theirs.to_string()),
                    shorten(&ours.to_string()),
                )
            })
        })
        .collect()
}

/// The trials of a matched-trials file (its schema-2 envelope or the bare
/// schema-1 array) and the policy it binds, if it binds one.
pub(super) fn evidence_parts(evidence: &Value) -> (&[Value], Option<&Value>) {
    match evidence {
        Value::Array(trials) => (trials.as_slice(), None),
        _ => (
            evidence
                .get("trials")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice),
            evidence
                .get("confirmation_policy")
                .filter(|policy| !policy.is_null()),
        ),
    }
}

/// What a replay comes to: the comparison, none when the trials repeat an
/// evaluation unit, or why autocontext would refuse to compute one.
pub(super) type Replay = Result<Option<Replayed>, ReplayError>;

/// The fields where `recorded` is not the comparison `replayed`, or why
/// the trials cannot be replayed.
pub(super) fn replayed_disagreements(
    recorded: &Value,
    replayed: Replay,
) -> Result<Vec<(&'static str, String, String)>, ReplayError> {
    replayed.map(|replayed| {
        replayed.map_or_else(Vec::new, |replayed| disagreements(recorded, &replayed))
    })
}

/// The confirmation policy a candidate's comparison is replayed under, as
/// autocontext binds it: the matched-trials file's, else the record's.
/// None when neither binds one, or when they disagree (a finding of its
/// own).
pub(super) fn bound_policy<'v>(evidence: &'v Value, record: &'v Value) -> Option<&'v Value> {
    let (_, from_evidence) = evidence_parts(evidence);
    let from_record = record
        .get("confirmation_policy")
        .filter(|policy| !policy.is_null());
    match (from_evidence, from_record) {
        (Some(ours), Some(theirs)) if ours != theirs => None,
        (Some(policy), _) | (None, Some(policy)) => Some(policy),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use serde_json::{Value, json};

    use super::{Replayed, SAME_C_LIBRARY, Spread, bound_agrees, disagreements_on, replay, ulp};

    /// An interval autocontext 0.18.0 computed on glibc x86-64 (CPython
    /// 3.11), and the lower bound the same computation gave with each
    /// `log`, `log1p` and `exp` result moved by an ulp (the most any other
    /// faithful C library can move it), printed by CPython.
    struct Case {
        degrees_of_freedom: u64,
        confidence_z: f64,
        max_looks: u64,
        mean: f64,
        low: f64,
        high: f64,
        low_elsewhere: f64,
    }

    const CASES: [Case; 4] = [
        Case {
            degrees_of_freedom: 8,
            confidence_z: 0.3,
            max_looks: 4,
            mean: 0.00899211111111111,
            low: -0.05643747173922337,
            high: 0.0744216939614456,
            low_elsewhere: -0.05643747173922289,
        },
        Case {
            degrees_of_freedom: 1,
            confidence_z: 3.0,
            max_looks: 20,
            mean: -0.014482999999999996,
            low: -539.7720555572595,
            high: 539.7430895572594,
            low_elsewhere: -539.7720555572605,
        },
        Case {
            degrees_of_freedom: 100,
            confidence_z: 1.0,
            max_looks: 1,
            mean: 0.04456143564356436,
            low: 0.03483018527709427,
            high: 0.054292686010034445,
            low_elsewhere: 0.03483018527709559,
        },
        Case {
            degrees_of_freedom: 2000,
            confidence_z: 2.576,
            max_looks: 4,
            mean: 0.05101135282358821,
            low: 0.044347818723585175,
            high: 0.05767488692359124,
            low_elsewhere: 0.04434781872358584,
        },
    ];

    fn replayed(case: &Case) -> Replayed {
        Replayed {
            decision: "confirmed",
            reason: "matched confirmation and held-out lanes passed",
            counts: [1, case.degrees_of_freedom + 1, 1],
            statistics: [Some(case.mean), Some(case.low), Some(case.high)],
            spread: Some(Spread {
                degrees_of_freedom: case.degrees_of_freedom,
                confidence_z: case.confidence_z,
                max_looks: case.max_looks,
            }),
        }
    }

    /// The comparison object `replay` stands for, as autocontext persists it.
    fn object(replay: &Replayed) -> Value {
        Value::Object(
            super::FIELDS
                .iter()
                .map(|field| ((*field).to_owned(), replay.field(field)))
                .collect(),
        )
    }

    #[test]
    fn numi_compares_bounds_exactly_on_glibc_linux_only() {
        assert_eq!(
            SAME_C_LIBRARY,
            cfg!(all(
                target_os = "linux",
                target_env = "gnu",
                any(target_arch = "x86_64", target_arch = "aarch64")
            ))
        );
    }

    #[test]
    fn a_bound_another_c_library_gives_is_taken_only_where_the_library_differs() {
        for case in &CASES {
            let replay = replayed(case);
            let next = f64::from_bits(case.low.to_bits() + 1);
            assert!(bound_agrees(case.low, case.low, &replay, true));
            // On glibc, as autocontext's replay: not an ulp off.
            assert!(!bound_agrees(case.low_elsewhere, case.low, &replay, true));
            assert!(!bound_agrees(next, case.low, &replay, true));
            // Elsewhere: what a library's last bits make is taken, and an
            // edit of 100,000 ulps of the half-width (some 1e-11 of it) is
            // not.
            assert!(
                bound_agrees(case.low_elsewhere, case.low, &replay, false),
                "{} degrees of freedom",
                case.degrees_of_freedom
            );
            assert!(bound_agrees(next, case.low, &replay, false));
            let half_width = (case.high - case.low) / 2.0;
            let far = case.low + 100_000.0 * ulp(half_width) + 4.0 * ulp(case.low);
            assert!(
                !bound_agrees(far, case.low, &replay, false),
                "{} degrees of freedom",
                case.degrees_of_freedom
            );
        }
    }

    #[test]
    fn the_tolerance_grows_with_the_degrees_of_freedom_and_stays_small() {
        let ulps: Vec<f64> = CASES
            .iter()
            .map(|case| super::bound_tolerance_ulps(replayed(case).spread.unwrap()).unwrap())
            .collect();
        // 1 degree of freedom: a few hundred ulps of the half-width;
        // 2,000: some ten thousand, a relative 1e-11 of it at most.
        assert!(ulps[1] < 300.0, "{ulps:?}");
        assert!(ulps[3] > ulps[2] && ulps[3] < 20_000.0, "{ulps:?}");
        for (case, ulps) in CASES.iter().zip(&ulps) {
            let half_width = (case.high - case.low) / 2.0;
            assert!(ulps * ulp(half_width) < 1e-11 * half_width, "{ulps}");
        }
    }

    #[test]
    fn an_interval_that_passes_through_no_library_is_compared_exactly() {
        let mut replay = replayed(&CASES[0]);
        replay.statistics = [Some(CASES[0].mean); 3];
        let next = f64::from_bits(CASES[0].mean.to_bits() + 1);
        assert!(!bound_agrees(next, CASES[0].mean, &replay, false));
        replay.spread = None;
        assert!(!bound_agrees(next, CASES[0].mean, &replay, false));
    }

    #[test]
    fn other_fields_are_compared_as_pythons_equality_compares_them() {
        let replay = replayed(&CASES[2]);
        assert_eq!(replay.field("confirmation_pairs"), json!(101));
        let mut recorded = object(&replay);
        assert_eq!(recorded["decision"], json!("confirmed"));
        recorded["confirmation_pairs"] = json!(101.0);
        for same_library in [true, false] {
            assert!(disagreements_on(&recorded, &replay, same_library).is_empty());
        }
        recorded["mean_effect"] = json!(f64::from_bits(CASES[2].mean.to_bits() + 1));
        for same_library in [true, false] {
            let found = disagreements_on(&recorded, &replay, same_library);
            assert_eq!(found.len(), 1);
            assert_eq!(found[0].0, "mean_effect");
        }
    }

    /// A trial of `lane`, its seed `seed`, with this candidate score.
    fn trial(lane: &str, seed: u64, candidate_score: Value) -> Value {
        json!({"lane": lane, "cohort": "c", "fixture": "f", "fixture_digest": "d",
               "seed": seed, "evaluator_epoch": "e", "candidate_score": candidate_score,
               "incumbent_score": 0})
    }

    /// Why the comparison of `trials` under `policy` cannot be replayed.
    fn refusal(trials: &[Value], policy: Value) -> String {
        match replay(trials, &policy) {
            Ok(_) => panic!("replayed: {trials:?} under {policy}"),
            Err(reason) => reason.to_string(),
        }
    }

    #[test]
    fn why_a_comparison_cannot_be_replayed_reads_as_autocontext_refuses_it() {
        for (policy, reason) in [
            (json!(1), "the confirmation policy is not an object"),
            (
                json!({"min_lanes": 1}),
                "the confirmation policy has a field autocontext does not know: min_lanes",
            ),
            (
                json!({"min_screen_pairs": -1}),
                "the confirmation policy's min_screen_pairs is negative",
            ),
            (
                json!({"min_screen_pairs": 1.5}),
                "the confirmation policy's min_screen_pairs must be an integer",
            ),
            (
                json!({"min_effect": "0"}),
                "the confirmation policy's min_effect must be a number",
            ),
            (
                json!({"min_screen_pairs": 0}),
                "the confirmation policy is refused: min_screen_pairs must be positive",
            ),
            (
                json!({"min_confirmation_pairs": 1}),
                "the confirmation policy is refused: min_confirmation_pairs must be at least 2",
            ),
            (
                json!({"max_confirmation_pairs": 5}),
                "the confirmation policy is refused: max_confirmation_pairs must be >= \
                 min_confirmation_pairs",
            ),
            (
                json!({"min_heldout_pairs": 0}),
                "the confirmation policy is refused: min_heldout_pairs must be positive",
            ),
            (
                json!({"confidence_z": 0}),
                "the confirmation policy is refused: confidence_z must be finite and positive",
            ),
        ] {
            assert_eq!(refusal(&[], policy), reason);
        }
        let one = |trial: Value| refusal(&[trial], json!({}));
        assert_eq!(
            one(trial("lane", 0, json!(1))),
            "trial 0: lane is not screen, confirmation or heldout"
        );
        let mut unnamed = trial("screen", 0, json!(1));
        unnamed["cohort"] = json!(" ");
        assert_eq!(
            one(unnamed),
            "trial 0: matched trials require cohort, fixture, and fixture_digest"
        );
        assert_eq!(
            one(trial("screen", 0, json!("1"))),
            "trial 0: candidate_score must be numeric"
        );
        assert_eq!(
            one(trial("screen", 0, json!(1_u64 << 53))),
            "trial 0: candidate_score integer must be within the JavaScript safe integer range"
        );
        let mut flagged = trial("screen", 0, json!(1));
        flagged["incumbent_valid"] = json!("yes");
        assert_eq!(one(flagged), "trial 0: incumbent_valid must be a boolean");
        let mut unbounded = trial("screen", 0, json!(1e308));
        unbounded["incumbent_score"] = json!(-1e308);
        assert_eq!(
            one(unbounded),
            "trial 0: matched trial scores and effect must be finite"
        );
        let confirming: Vec<Value> = (0..3)
            .map(|seed| trial("confirmation", seed, json!(1)))
            .collect();
        assert_eq!(
            refusal(
                &confirming,
                json!({"min_confirmation_pairs": 2, "max_confirmation_pairs": 2})
            ),
            "confirmation pairs exceed the configured maximum"
        );
        let huge: Vec<Value> = (0..2)
            .map(|seed| trial("screen", seed, json!(1.5e308)))
            .collect();
        assert_eq!(
            refusal(&huge, json!({})),
            "a sum of the paired effects overflows a double"
        );
    }
}
