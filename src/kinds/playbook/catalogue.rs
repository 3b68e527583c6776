//! The rule ids of the Playbook kind: producer-side checks (warnings,
//! errors under `--strict`).

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[RATE_BOUND, MIN_RUNS];

pub(super) const RATE_BOUND: RuleDoc = RuleDoc {
    id: "playbook/rate-bound",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "Each Playbook qualification rate is at most 10000 basis points.",
    explanation: "max_rework_rate, max_regression_rate and max_rollback_rate are in basis points: 1000 is \
10 percent, 10000 is all runs. The profile context refuses a rate above 10000, yet the \
reference's file check passes one (spec 002), so a green file check is no proof the \
value is acceptable. Write the rate in basis points, at most 10000.",
    failing: include_str!("examples/rate-bound.failing.yaml"),
    passing: include_str!("examples/rate-bound.passing.yaml"),
};

pub(super) const MIN_RUNS: RuleDoc = RuleDoc {
    id: "playbook/min-runs",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "A Playbook qualification asks for at least one run (min_runs at least 1).",
    explanation: "A qualification states the evidence a promotion needs. With min_runs 0, or absent (read \
as 0), it needs none: every rate is met by an empty record. By the rule of three, a \
small min_runs proves little; zero proves nothing. Set min_runs to the number of closed \
runs the evidence needs, or drop the qualification (absent is not permissive).",
    failing: include_str!("examples/min-runs.failing.yaml"),
    passing: include_str!("examples/min-runs.passing.yaml"),
};
