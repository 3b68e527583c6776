//! The Playbook qualification values the profile context refuses and the
//! reference's file check passes (spec 002: a rate of 20000 passes
//! `numi validate --files`): rates above 10000 basis points, and a
//! qualification that asks for no run at all.

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::kinds::checks::{field, rule_fails};

/// 100 percent, in basis points.
const MAX_RATE: u64 = 10_000;

/// The qualification fields counted in basis points.
const RATES: [&str; 3] = [
    "max_rework_rate",
    "max_regression_rate",
    "max_rollback_rate",
];

pub fn check(document: &Value) -> Vec<Diagnostic> {
    // Two lookups by key: a JSON pointer would copy each of its steps.
    let Some(qualification) = field(document, "spec").and_then(|spec| field(spec, "qualification"))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if field(qualification, "min_runs")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        == 0
    {
        found.push(rule_fails(
            &super::catalogue::MIN_RUNS,
            "a Playbook qualification asks for at least one run (min_runs at least 1)",
            "/spec/qualification/min_runs".to_owned(),
        ));
    }
    for name in RATES {
        let Some(rate) = field(qualification, name).and_then(Value::as_u64) else {
            continue;
        };
        if rate > MAX_RATE {
            found.push(rule_fails(
                &super::catalogue::RATE_BOUND,
                &format!(
                    "a Playbook qualification rate is at most {MAX_RATE} basis points: {name} is {rate}"
                ),
                format!("/spec/qualification/{name}"),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests;
