//! The rule ids of the AutonomyPolicy kind: producer-side checks
//! (warnings, errors under `--strict`).

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[RULE_ABOVE_FLOOR, DUPLICATE_RULE, DUPLICATE_FLOOR];

pub(super) const RULE_ABOVE_FLOOR: RuleDoc = RuleDoc {
    id: "policy/rule-above-floor",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "An AutonomyPolicy rule grants no more than the floor of its risk class.",
    explanation: "A floor caps every change of its risk class: a promotion never moves a stratum above it. \
A rule granting a higher level at that risk class never takes effect, and reads as a \
grant it is not. Lower the rule to the floor, or drop it.",
    failing: include_str!("examples/rule-above-floor.failing.yaml"),
    passing: include_str!("examples/rule-above-floor.passing.yaml"),
};

pub(super) const DUPLICATE_RULE: RuleDoc = RuleDoc {
    id: "policy/duplicate-rule",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "AutonomyPolicy rules name each change type at each risk class once.",
    explanation: "Two rules for one change type at one risk class either repeat each other or disagree, \
and a reader cannot tell which one holds. The later rule gets the finding: keep one.",
    failing: include_str!("examples/duplicate-rule.failing.yaml"),
    passing: include_str!("examples/duplicate-rule.passing.yaml"),
};

pub(super) const DUPLICATE_FLOOR: RuleDoc = RuleDoc {
    id: "policy/duplicate-floor",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "AutonomyPolicy floors name each risk class once.",
    explanation: "Two floors for one risk class leave the cap to whichever one a reader sees first. The \
later floor gets the finding: keep one, at the level the risk class is capped at.",
    failing: include_str!("examples/duplicate-floor.failing.yaml"),
    passing: include_str!("examples/duplicate-floor.passing.yaml"),
};
