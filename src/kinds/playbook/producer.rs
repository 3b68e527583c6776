//! The Playbook qualification values the profile context refuses and the
//! reference's file check passes (spec 002: a rate of 20000 passes
//! `numi validate --files`): rates above 10000 basis points, and a
//! qualification that asks for no run at all.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, address};
use crate::kinds::checks::{field, rule_fails, whole_number};

/// 100 percent, in basis points.
const MAX_RATE: u64 = 10_000;

/// The qualification fields counted in basis points.
const RATES: [&str; 3] = [
    "max_rework_rate",
    "max_regression_rate",
    "max_rollback_rate",
];

pub(super) fn check(document: &Value) -> Vec<Diagnostic> {
    // Two lookups by key: a JSON pointer would copy each of its steps.
    let Some(qualification) = field(document, "spec").and_then(|spec| field(spec, "qualification"))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    // Absent or 0 asks for no run; 10.0 asks for ten.
    if field(qualification, "min_runs").map_or(Some(0), whole_number) == Some(0) {
        found.push(rule_fails(
            &super::catalogue::MIN_RUNS,
            "a Playbook qualification asks for at least one run (min_runs at least 1)",
            address!["spec", "qualification", "min_runs"],
        ));
    }
    for name in RATES {
        let Some(value) = field(qualification, name) else {
            continue;
        };
        if whole_number(value).is_some_and(|rate| rate > MAX_RATE) {
            // The number as it reads: `2e4` and `20000.0` show as `20000.0`.
            found.push(rule_fails(
                &super::catalogue::RATE_BOUND,
                &format!(
                    "a Playbook qualification rate is at most {MAX_RATE} basis points: {name} is {value}"
                ),
                address!["spec", "qualification", name],
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests;
