//! The rule ids of the PromotionProposed kind.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[LEVEL_ORDER];

pub(super) const LEVEL_ORDER: RuleDoc = RuleDoc {
    id: "events/level-order",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A PromotionProposed moves its stratum up the ladder: to_level is above from_level.",
    explanation: "A promotion proposes more autonomy for a stratum, on the ladder OBSERVE, SUGGEST, \
IMPLEMENT, PR, MERGE, STAGE, RELEASE, OPERATE (spec 002). A proposal to the same level \
or a lower one is no promotion; lowering a level is owned by the policy context and the \
circuit breaker, not by the evals events.\n\nSet to_level to a level above from_level.",
    failing: include_str!("examples/level-order.failing.yaml"),
    passing: include_str!("examples/level-order.passing.yaml"),
};
