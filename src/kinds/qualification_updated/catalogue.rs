//! The rule ids of the QualificationUpdated kind.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[RATE_BOUND, UPPER_BOUND];

pub(super) const RATE_BOUND: RuleDoc = RuleDoc {
    id: "events/rate-bound",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Each QualificationUpdated rate, and its upper bound, is at most 10000 basis points.",
    explanation: "The rates of a qualification (rework_rate_basis_points, regression_rate_basis_points, \
rollback_rate_basis_points) and upper_bound_basis_points are in basis points: 10000 is \
all runs. The profile context refuses a rate above 10000 (spec 002), so a payload \
carrying one was computed wrongly.\n\nWrite the rate in basis points, at most 10000.",
    failing: include_str!("examples/rate-bound.failing.yaml"),
    passing: include_str!("examples/rate-bound.passing.yaml"),
};

pub(super) const UPPER_BOUND: RuleDoc = RuleDoc {
    id: "events/upper-bound",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "upper_bound_basis_points is 10000 when runs is 0, and never below min(10000, ceil(30000 / \
runs)) when no failure was counted.",
    explanation: "The qualification reports the upper bound of the failure rate by the rule of three rather \
than the observed rate (spec 002): with no failure in N comparable runs, the 95 percent \
upper bound of the unseen failure rate is about 3/N, and with no run nothing is known, \
so the bound is 10000. A bound below that claims more than the runs prove. No failure \
means every rate and security_escapes at 0 (absent reads as 0).\n\nReport the bound \
as the rule of three gives it, rounded up.",
    failing: include_str!("examples/upper-bound.failing.yaml"),
    passing: include_str!("examples/upper-bound.passing.yaml"),
};
