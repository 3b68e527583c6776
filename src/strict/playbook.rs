//! The Playbook qualification values the profile context refuses and the
//! reference's file check passes (spec 002: a rate of 20000 passes
//! `numi validate --files`): rates above 10000 basis points, and a
//! qualification that asks for no run at all.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Stage};
use crate::kinds::checks::rule_fails;
use crate::rules::RuleDoc;

/// 100 percent, in basis points.
const MAX_RATE: u64 = 10_000;

/// The qualification fields counted in basis points.
const RATES: [&str; 3] = [
    "max_rework_rate",
    "max_regression_rate",
    "max_rollback_rate",
];

pub const RATE_BOUND: RuleDoc = RuleDoc {
    id: "playbook/rate-bound",
    stage: Stage::Rule,
    summary: "Each Playbook qualification rate is at most 10000 basis points.",
    explanation: "max_rework_rate, max_regression_rate and max_rollback_rate are in basis points: \
1000 is 10 percent, 10000 is all runs. The profile context refuses a rate above 10000, yet the \
reference's file check passes one (spec 002), so a green file check is no proof the value is \
acceptable. Write the rate in basis points, at most 10000.",
    failing: concat!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: bugfix-bounded, scope: SCOPE_REPO}\nspec:\n  change_type: bugfix\n  max_repair_attempts: 2\n",
        "  qualification: {min_runs: 20, max_rework_rate: 20000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}\n"
    ),
    passing: concat!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: bugfix-bounded, scope: SCOPE_REPO}\nspec:\n  change_type: bugfix\n  max_repair_attempts: 2\n",
        "  qualification: {min_runs: 20, max_rework_rate: 2000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}\n"
    ),
};

pub const MIN_RUNS: RuleDoc = RuleDoc {
    id: "playbook/min-runs",
    stage: Stage::Rule,
    summary: "A Playbook qualification asks for at least one run (min_runs at least 1).",
    explanation: "A qualification states the evidence a promotion needs. With min_runs 0, or \
absent (read as 0), it needs none: every rate is met by an empty record. By the rule of three, \
a small min_runs proves little; zero proves nothing. Set min_runs to the number of closed runs \
the evidence needs, or drop the qualification (absent is not permissive).",
    failing: concat!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: bugfix-bounded, scope: SCOPE_REPO}\nspec:\n  change_type: bugfix\n  max_repair_attempts: 2\n",
        "  qualification: {min_runs: 0, max_rework_rate: 1000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}\n"
    ),
    passing: concat!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: bugfix-bounded, scope: SCOPE_REPO}\nspec:\n  change_type: bugfix\n  max_repair_attempts: 2\n",
        "  qualification: {min_runs: 20, max_rework_rate: 1000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}\n"
    ),
};

pub fn check(document: &Value) -> Vec<Diagnostic> {
    let Some(qualification) = document.pointer("/spec/qualification") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if qualification
        .get("min_runs")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        == 0
    {
        found.push(rule_fails(
            MIN_RUNS.id,
            "a Playbook qualification asks for at least one run (min_runs at least 1)",
            "/spec/qualification/min_runs".to_owned(),
        ));
    }
    for field in RATES {
        let Some(rate) = qualification.get(field).and_then(Value::as_u64) else {
            continue;
        };
        if rate > MAX_RATE {
            found.push(rule_fails(
                RATE_BOUND.id,
                &format!(
                    "a Playbook qualification rate is at most {MAX_RATE} basis points: {field} is {rate}"
                ),
                format!("/spec/qualification/{field}"),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests;
