//! What autocontext derives from an attribution's source trials
//! (`analytics/context_attribution.py`, `attribute_controlled_trials` and
//! `_validate_controlled_attribution_binding`): the effect, confidence,
//! token cost, test time, interactions and disposition, computed as its
//! Python computes them, to the bit.

use serde_json::Value;

use super::catalogue;
use super::{sorted, strings};
use crate::diagnostic::{Address, Diagnostic};
use crate::kinds::autocontext::python::statistics::fmean;
use crate::kinds::autocontext::{fails, python, text};

/// The fields every source trial of an attribution shares with it; the
/// tested bundle is written on the attribution as `last_tested_bundle_digest`.
const SHARED_FIELDS: [(&str, &str); 8] = [
    ("component_kind", "component_kind"),
    ("component_key", "component_key"),
    ("component_digest", "component_digest"),
    ("evidence_level", "evidence_level"),
    ("tested_bundle_digest", "last_tested_bundle_digest"),
    ("comparison_bundle_digest", "comparison_bundle_digest"),
    ("evaluator_epoch", "evaluator_epoch"),
    ("trial_cohort", "trial_cohort"),
];

/// `_trial_confidence`: the share of trials (up to four) times the share of
/// non-zero effects that agree in sign.
pub(crate) fn trial_confidence(effects: &[f64]) -> f64 {
    if effects.is_empty() {
        return 0.0;
    }
    let nonzero = effects.iter().filter(|effect| **effect != 0.0).count();
    let agreement = if nonzero == 0 {
        1.0
    } else {
        let positive = effects.iter().filter(|effect| **effect > 0.0).count();
        ratio(positive.max(nonzero - positive), nonzero)
    };
    python::round_six((ratio(effects.len(), 1) / 4.0).min(1.0) * agreement)
}

/// Python's `int / int`, exact for the trial counts an attribution holds.
#[allow(clippy::cast_precision_loss)]
fn ratio(numerator: usize, denominator: usize) -> f64 {
    numerator as f64 / denominator as f64
}

/// `_classify`.
pub(crate) fn classify(
    effect: f64,
    token_cost: u64,
    neutral_effect: f64,
    high_token_cost: u64,
) -> &'static str {
    if effect < -neutral_effect {
        "harmful"
    } else if effect > neutral_effect {
        "retained"
    } else if token_cost >= high_token_cost {
        "demotion_candidate"
    } else {
        "uncertain"
    }
}

/// A trial's effect: `with_component_score - without_component_score`,
/// rounded; `None` where autocontext refuses the trial.
fn trial_effect(trial: &Value) -> Option<f64> {
    let with = trial.get("with_component_score").and_then(Value::as_f64)?;
    let without = trial
        .get("without_component_score")
        .and_then(Value::as_f64)?;
    let effect = with - without;
    effect.is_finite().then(|| python::round_six(effect))
}

/// The written form of a recomputed figure, as the recorded one beside it
/// in the message is written (serde_json's shortest form: `1e-5`, where
/// Python's `json.dumps` writes `1e-05`).
fn figure(value: f64) -> String {
    Value::from(value).to_string()
}

/// Every figure of `attribution` (at `at`) that is not what its source
/// `trials` give.
pub(crate) fn figure_checks(
    attribution: &Value,
    trials: &[&Value],
    at: &Address,
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut differs = |field: &str, recorded: String, recomputed: String| {
        found.push(fails(
            &catalogue::ATTRIBUTION_RECOMPUTED,
            format!("{field} is {recorded}, recomputed {recomputed} from its source trials"),
            at.clone().key("attribution").key(field),
        ));
    };
    let recorded = |field: &str| {
        attribution
            .get(field)
            .map_or_else(|| "missing".to_owned(), Value::to_string)
    };

    for trial in trials {
        if let Some((ours, theirs)) = SHARED_FIELDS
            .iter()
            .find(|(ours, theirs)| trial.get(*ours) != attribution.get(*theirs))
        {
            differs(
                theirs,
                recorded(theirs),
                format!(
                    "{} (source trial {})",
                    trial
                        .get(*ours)
                        .map_or_else(|| "missing".to_owned(), Value::to_string),
                    text(trial, "trial_id").unwrap_or("without an id")
                ),
            );
            break;
        }
    }

    let trial_ids = strings(attribution, "trial_ids");
    let mut unique = sorted(trial_ids.clone());
    unique.dedup();
    if unique != trial_ids {
        differs(
            "trial_ids",
            recorded("trial_ids"),
            "them unique and in UTF-16 order".to_owned(),
        );
    }

    let effects: Option<Vec<f64>> = trials.iter().map(|trial| trial_effect(trial)).collect();
    let Some(effects) = effects else {
        differs(
            "effect",
            recorded("effect"),
            "nothing: a source trial has no finite with- and without-component scores".to_owned(),
        );
        return found;
    };
    let Ok(effect) = fmean(&effects).map(python::round_six) else {
        differs(
            "effect",
            recorded("effect"),
            "nothing: its source trials have no finite mean effect".to_owned(),
        );
        return found;
    };
    let confidence = trial_confidence(&effects);
    for (field, value) in [("effect", effect), ("confidence", confidence)] {
        if attribution.get(field).and_then(Value::as_f64) != Some(value) {
            differs(field, recorded(field), figure(value));
        }
    }

    let token_cost = trials
        .iter()
        .filter_map(|trial| trial.get("token_cost").and_then(Value::as_u64))
        .max()
        .unwrap_or(0);
    if attribution.get("token_cost").and_then(Value::as_u64) != Some(token_cost) {
        differs("token_cost", recorded("token_cost"), token_cost.to_string());
    }
    let tested_at = trials
        .iter()
        .filter_map(|trial| text(trial, "tested_at"))
        .max()
        .unwrap_or_default();
    if text(attribution, "tested_at") != Some(tested_at) {
        differs(
            "tested_at",
            recorded("tested_at"),
            Value::from(tested_at).to_string(),
        );
    }
    let mut interactions = sorted(
        trials
            .iter()
            .flat_map(|trial| strings(trial, "interaction_component_digests"))
            .collect(),
    );
    interactions.dedup();
    if strings(attribution, "interaction_component_digests") != interactions
        || !attribution
            .get("interaction_component_digests")
            .is_some_and(Value::is_array)
    {
        differs(
            "interaction_component_digests",
            recorded("interaction_component_digests"),
            Value::from(interactions).to_string(),
        );
    }

    let neutral = attribution
        .get("classification_neutral_effect")
        .and_then(Value::as_f64)
        .filter(|neutral| neutral.is_finite() && *neutral >= 0.0);
    let high = attribution
        .get("classification_high_token_cost")
        .and_then(Value::as_u64);
    let (Some(neutral), Some(high)) = (neutral, high) else {
        differs(
            "disposition",
            recorded("disposition"),
            "nothing: the classification policy (classification_neutral_effect, \
             classification_high_token_cost) is not a non-negative number and count"
                .to_owned(),
        );
        return found;
    };
    let disposition = classify(effect, token_cost, neutral, high);
    if text(attribution, "disposition") != Some(disposition) {
        differs(
            "disposition",
            recorded("disposition"),
            Value::from(disposition).to_string(),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::{classify, trial_confidence};

    #[test]
    fn confidence_grows_with_trials_and_sign_agreement() {
        assert_eq!(trial_confidence(&[]), 0.0);
        assert_eq!(trial_confidence(&[0.2]), 0.25);
        assert_eq!(trial_confidence(&[0.0, 0.0]), 0.5);
        assert_eq!(trial_confidence(&[0.1, -0.1, 0.2, 0.0, 0.3]), 0.75);
        assert_eq!(trial_confidence(&[0.1, -0.1, 0.2]), 0.5);
    }

    #[test]
    fn the_disposition_follows_effect_then_cost() {
        assert_eq!(classify(-0.2, 0, 0.1, 256), "harmful");
        assert_eq!(classify(0.2, 0, 0.1, 256), "retained");
        assert_eq!(classify(0.1, 256, 0.1, 256), "demotion_candidate");
        assert_eq!(classify(-0.1, 255, 0.1, 256), "uncertain");
    }
}
