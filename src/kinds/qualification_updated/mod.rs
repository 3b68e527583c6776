//! QualificationUpdated (`numinance.dev/v1`, produced): a stratum's
//! qualification, computed from its outcomes: production runs, replay runs
//! (reported apart, never counted in runs), unbound outcomes, resets, the
//! rates in basis points and the upper bound of the failure rate. Fields
//! inferred from spec 002 (see `super::events`).

mod catalogue;

use serde_json::Value;

use super::checks::rule_fails;
use super::events::{self, NamedFields, whole_number};
use super::{Kind, Role};
use crate::diagnostic::{Diagnostic, address};

static FIELDS: NamedFields = NamedFields::new(include_str!(
    "../../../schemas/QualificationUpdated.schema.json"
));

pub(super) const KIND: Kind = Kind {
    name: "QualificationUpdated",
    api_version: Some("numinance.dev/v1"),
    role: Role::Produced,
    inferred: true,
    schema: include_str!("../../../schemas/QualificationUpdated.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/QualificationUpdated.schema.json"),
    display_name: super::no_name,
    rules: |subject| rules(subject.value),
    producer_checks: |subject| FIELDS.unnamed(KIND.name, subject.value),
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// 100 percent, in basis points: the profile context refuses a rate above it.
const MAX_RATE: u64 = 10_000;

/// The rule of three: with no failure in `runs` runs, the 95 percent upper
/// bound of the failure rate is about 3 / runs, here in basis points.
const RULE_OF_THREE: u64 = 30_000;

/// The rates, in basis points; a failure was counted when one is above 0.
const RATES: [&str; 3] = [
    "rework_rate_basis_points",
    "regression_rate_basis_points",
    "rollback_rate_basis_points",
];

const UPPER_BOUND: &str = "upper_bound_basis_points";

fn rules(document: &Value) -> Vec<Diagnostic> {
    let Some(spec) = document.get("spec") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for field in RATES.into_iter().chain([UPPER_BOUND]) {
        if let Some(rate) = whole_number(spec, field).filter(|rate| *rate > MAX_RATE) {
            found.push(rule_fails(
                &catalogue::RATE_BOUND,
                &format!(
                    "a QualificationUpdated rate is at most {MAX_RATE} basis points: {field} is {rate}"
                ),
                address!["spec", field],
            ));
        }
    }
    found.extend(upper_bound(spec));
    events::in_document_order(document, found)
}

/// The rule-of-three floor of `upper_bound_basis_points`: 10000 with no run,
/// `min(10000, ceil(30000 / runs))` when no failure was counted. A bound
/// above 10000 is `events/rate-bound`'s, not this rule's.
fn upper_bound(spec: &Value) -> Option<Diagnostic> {
    let bound = whole_number(spec, UPPER_BOUND)?;
    let runs = whole_number(spec, "runs")?;
    let sentence = if runs == 0 {
        (bound < MAX_RATE).then(|| {
            format!(
                "a QualificationUpdated {UPPER_BOUND} is {MAX_RATE} when runs is 0: it is {bound}"
            )
        })?
    } else {
        let mut failures = RATES.into_iter().chain(["security_escapes"]);
        let no_failure = failures.all(|field| whole_number(spec, field) == Some(0));
        let floor = RULE_OF_THREE.div_ceil(runs).min(MAX_RATE);
        (no_failure && bound < floor).then(|| {
            format!(
                "a QualificationUpdated {UPPER_BOUND} is never below the rule-of-three bound \
                 min(10000, ceil(30000 / runs)) when no failure was counted: {runs} runs bound it \
                 at {floor}, not {bound}"
            )
        })?
    };
    Some(rule_fails(
        &catalogue::UPPER_BOUND,
        &sentence,
        address!["spec", UPPER_BOUND],
    ))
}

#[cfg(test)]
mod tests;
