//! The comparison replayed from a candidate's raw matched trials under its
//! persisted confirmation policy, as autocontext's `evaluate_matched_trials`
//! computes it (`context_bundles/comparison.py`), so that the comparison a
//! candidate record and a promotion record hold can be checked against it.
//!
//! The decision, reason, counts and mean effect are compared exactly, with
//! the statistics [`statistics`](super::statistics) computes by Python's
//! own operations; the interval's bounds to 12 digits, since they pass
//! through the C library (docs/autocontext.md, "The comparison").

use serde_json::{Map, Value};

use super::matched_trials::pair_key;
use super::statistics::{fmean, paired_confidence_interval};
use crate::location::held::{self, Kept};
use crate::text::shorten;

/// The fields of autocontext's `ComparisonResult.to_dict()`, in its order.
pub const FIELDS: [&str; 8] = [
    "decision",
    "reason",
    "screen_pairs",
    "confirmation_pairs",
    "heldout_pairs",
    "mean_effect",
    "confidence_low",
    "confidence_high",
];

/// `ConfirmationPolicy(**data)`, with its defaults and checks.
struct Policy {
    min_screen_pairs: u64,
    min_confirmation_pairs: u64,
    max_confirmation_pairs: u64,
    min_heldout_pairs: u64,
    min_effect: f64,
    confidence_z: f64,
}

impl Policy {
    fn from_value(value: &Value) -> Result<Self, String> {
        let Some(object) = value.as_object() else {
            return Err("the confirmation policy is not an object".to_owned());
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
            return Err(format!(
                "the confirmation policy has a field autocontext does not know: {}",
                shorten(unknown)
            ));
        }
        let count = |name: &str, default: u64| -> Result<u64, String> {
            match object.get(name) {
                None => Ok(default),
                Some(Value::Number(number)) if number.is_i64() || number.is_u64() => number
                    .as_u64()
                    .ok_or_else(|| format!("the confirmation policy's {name} is negative")),
                Some(_) => Err(format!(
                    "the confirmation policy's {name} must be an integer"
                )),
            }
        };
        let real = |name: &str, default: f64| -> Result<f64, String> {
            match object.get(name) {
                None => Ok(default),
                Some(Value::Number(number)) => number
                    .as_f64()
                    .ok_or_else(|| format!("the confirmation policy's {name} is not a number")),
                Some(_) => Err(format!("the confirmation policy's {name} must be a number")),
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
            Some("min_screen_pairs must be positive")
        } else if policy.min_confirmation_pairs < 2 {
            Some("min_confirmation_pairs must be at least 2")
        } else if policy.max_confirmation_pairs < policy.min_confirmation_pairs {
            Some("max_confirmation_pairs must be >= min_confirmation_pairs")
        } else if policy.min_heldout_pairs < 1 {
            Some("min_heldout_pairs must be positive")
        } else if !policy.min_effect.is_finite() {
            Some("min_effect must be finite")
        } else if !policy.confidence_z.is_finite() || policy.confidence_z <= 0.0 {
            Some("confidence_z must be finite and positive")
        } else {
            None
        };
        match problem {
            Some(problem) => Err(format!("the confirmation policy is refused: {problem}")),
            None => Ok(policy),
        }
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
    fn from_value(index: usize, value: &Value) -> Result<Self, String> {
        let refuse = |problem: &str| Err(format!("trial {index}: {problem}"));
        let lane = match value.get("lane").and_then(Value::as_str) {
            Some("screen") => Lane::Screen,
            Some("confirmation") => Lane::Confirmation,
            Some("heldout") => Lane::Heldout,
            _ => return refuse("lane is not screen, confirmation or heldout"),
        };
        for field in ["cohort", "fixture", "fixture_digest"] {
            if value
                .get(field)
                .and_then(Value::as_str)
                .is_none_or(|text| text.trim().is_empty())
            {
                return refuse("matched trials require cohort, fixture, and fixture_digest");
            }
        }
        let score = |field: &str| -> Result<f64, String> {
            let Some(Value::Number(number)) = value.get(field) else {
                return Err(format!("trial {index}: {field} must be numeric"));
            };
            if number.is_i64() || number.is_u64() {
                let magnitude = number
                    .as_i64()
                    .map(i64::unsigned_abs)
                    .or_else(|| number.as_u64())
                    .unwrap_or(u64::MAX);
                if magnitude > MAX_SAFE_INTEGER {
                    return Err(format!(
                        "trial {index}: {field} integer must be within the JavaScript safe integer range"
                    ));
                }
            }
            number
                .as_f64()
                .filter(|score| score.is_finite())
                .ok_or_else(|| format!("trial {index}: {field} must be finite"))
        };
        let flag = |field: &str| -> Result<bool, String> {
            match value.get(field) {
                None => Ok(true),
                Some(Value::Bool(flag)) => Ok(*flag),
                Some(_) => Err(format!("trial {index}: {field} must be a boolean")),
            }
        };
        let delta = score("candidate_score")? - score("incumbent_score")?;
        if !delta.is_finite() {
            return refuse("matched trial scores and effect must be finite");
        }
        Ok(Trial {
            lane,
            delta,
            valid: flag("candidate_valid")? && flag("incumbent_valid")?,
        })
    }
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

/// The comparison `evaluate_matched_trials` returns for these trials under
/// this policy, as the JSON object autocontext persists; none when the
/// trials repeat an evaluation unit; or why autocontext would refuse to
/// compute one.
pub fn replay(trials: &[Value], policy: &Value) -> Result<Option<Map<String, Value>>, String> {
    if repeats_a_unit(trials) {
        return Ok(None);
    }
    evaluate(trials, policy).map(Some)
}

fn evaluate(trials: &[Value], policy: &Value) -> Result<Map<String, Value>, String> {
    let policy = Policy::from_value(policy)?;
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
    let result = |decision: &str, reason: &str, statistics: [Option<f64>; 3]| {
        let mut object = Map::new();
        object.insert("decision".to_owned(), Value::from(decision));
        object.insert("reason".to_owned(), Value::from(reason));
        for (field, count) in FIELDS[2..5].iter().zip(counts) {
            object.insert((*field).to_owned(), Value::from(count));
        }
        for (field, statistic) in FIELDS[5..].iter().zip(statistics) {
            object.insert(
                (*field).to_owned(),
                statistic.map_or(Value::Null, Value::from),
            );
        }
        object
    };
    let deltas =
        |trials: &[&Trial]| -> Vec<f64> { trials.iter().map(|trial| trial.delta).collect() };
    let all_valid = |trials: &[&Trial]| trials.iter().all(|trial| trial.valid);
    let statistic_error = |error: super::statistics::StatisticsError| error.to_string();

    if counts[1] > policy.max_confirmation_pairs {
        return Err("confirmation pairs exceed the configured maximum".to_owned());
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
    let screen_effect = fmean(&deltas(&screen)).map_err(statistic_error)?;
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
        paired_confidence_interval(&deltas(&confirmation), policy.confidence_z, max_looks)
            .map_err(statistic_error)?;
    let (Some(mean_effect), Some(low), Some(high)) = (interval.mean, interval.low, interval.high)
    else {
        return Err("the confirmation lane has too few pairs for an interval".to_owned());
    };
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
    let heldout_effect = fmean(&deltas(&heldout)).map_err(statistic_error)?;
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
/// (the interval's critical value), whose last bits differ between C
/// libraries: autocontext on glibc and numi's static musl build may
/// disagree there by an ulp or so without either being wrong.
const BOUNDS: [&str; 2] = ["confidence_low", "confidence_high"];

/// How far a bound may lie from the replayed one, relative to its size (at
/// least 1): the precision the false-promotion parity fixture pins a
/// confidence z to (12 decimals), far above a C library's last bit and far
/// below any edit that changes what the interval says.
const BOUND_TOLERANCE: f64 = 1e-12;

fn bounds_agree(recorded: f64, replayed: f64) -> bool {
    let scale = recorded.abs().max(replayed.abs()).max(1.0);
    (recorded - replayed).abs() <= BOUND_TOLERANCE * scale
}

/// Each field where `recorded` is not `replayed` as Python's `==` sees it
/// (numbers by value; the two bounds within [`BOUND_TOLERANCE`]): the
/// field, the recorded and the replayed value.
pub fn disagreements(
    recorded: &Value,
    replayed: &Map<String, Value>,
) -> Vec<(&'static str, String, String)> {
    FIELDS
        .iter()
        .filter_map(|field| {
            let ours = replayed.get(*field).unwrap_or(&Value::Null);
            let theirs = recorded.get(*field).unwrap_or(&Value::Null);
            let same = match (theirs, ours) {
                (Value::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
                    (Some(a), Some(b)) if BOUNDS.contains(field) => bounds_agree(a, b),
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
pub fn evidence_parts(evidence: &Value) -> (&[Value], Option<&Value>) {
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

/// The fields where `recorded` is not the comparison replayed from
/// `evidence` (a matched-trials file) under `policy`, or why it cannot be
/// replayed. `from`, when given, is the kept trials file and the kept
/// record the policy is bound with: a run that checks both replays them
/// once.
pub fn replayed_disagreements(
    recorded: &Value,
    evidence: &Value,
    policy: &Value,
    from: Option<[&Kept; 2]>,
) -> Result<Vec<(&'static str, String, String)>, String> {
    let (trials, _) = evidence_parts(evidence);
    let replayed = match from {
        Some(kept) => held::derived("comparison replay", &kept, || replay(trials, policy)),
        None => replay(trials, policy),
    };
    replayed.map(|replayed| {
        replayed.map_or_else(Vec::new, |replayed| disagreements(recorded, &replayed))
    })
}

/// The confirmation policy a candidate's comparison is replayed under, as
/// autocontext binds it: the matched-trials file's, else the record's.
/// None when neither binds one, or when they disagree (a finding of its
/// own).
pub fn bound_policy<'v>(evidence: &'v Value, record: &'v Value) -> Option<&'v Value> {
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
