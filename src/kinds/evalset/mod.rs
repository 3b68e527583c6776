//! EvalSet (`numinance.dev/v1alpha1`, alpha): a versioned, reference-only set
//! of replay cases.

pub(crate) mod catalogue;
mod fixes;

use serde::Deserialize;
use serde_json::{Number, Value};

use super::checks::{
    Expected, digest_problem, field_fails, is_digest, is_strict_version, is_token, rule_fails,
    shown,
};
use super::{Kind, Role};
use crate::diagnostic::{Diagnostic, address};
use crate::text::{quote, shorten};

pub(crate) const KIND: Kind = Kind {
    name: "EvalSet",
    api_version: Some("numinance.dev/v1alpha1"),
    role: Role::Alpha,
    inferred: false,
    schema: include_str!("../../../schemas/EvalSet.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/EvalSet.schema.json"),
    display_name: super::metadata_name,
    rules: |subject| rules(subject.value),
    producer_checks: super::no_rules,
    catalogue: catalogue::RULES,
    fixes: fixes::FIXES,
};

/// Most cases an EvalSet may hold.
const MAX_CASES: usize = 256;

/// Categories whose cases must plant a defect.
const MUST_BE_SEEDED: [&str; 2] = [
    "EVAL_CATEGORY_PLANTED_SECURITY_BUG",
    "EVAL_CATEGORY_MIGRATION_HAZARD",
];

#[derive(Deserialize)]
struct EvalSet<'a> {
    #[serde(borrow)]
    spec: Spec<'a>,
}

#[derive(Deserialize)]
struct Spec<'a> {
    version: &'a str,
    #[serde(borrow)]
    cases: Vec<Case<'a>>,
}

#[derive(Deserialize)]
struct Case<'a> {
    name: &'a str,
    outcome: Digest<'a>,
    #[serde(borrow)]
    expect: Expect<'a>,
    category: Option<&'a str>,
    seeded: Option<Seeded<'a>>,
}

#[derive(Deserialize)]
struct Digest<'a> {
    value: &'a str,
}

#[derive(Deserialize)]
struct Expect<'a> {
    acceptance: &'a str,
    merged: bool,
    severe: bool,
    #[serde(default, borrow)]
    verification_failures: Vec<Failure<'a>>,
}

#[derive(Deserialize)]
struct Failure<'a> {
    layer: &'a str,
    count: Number,
}

#[derive(Deserialize)]
struct Seeded<'a> {
    defect: &'a str,
    caught_by: &'a str,
}

fn rules(document: &Value) -> Vec<Diagnostic> {
    let set = match EvalSet::deserialize(document) {
        Ok(set) => set,
        Err(error) => return vec![super::checks::shape_mismatch(&KIND, &error)],
    };
    let spec = &set.spec;
    let mut found = field_checks(spec);
    found.extend(cross_field_checks(spec));
    found
}

/// Single fields that fail a value check, in document order.
fn field_checks(spec: &Spec<'_>) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    if !is_strict_version(spec.version) {
        found.push(field_fails(
            &catalogue::VERSION,
            "EvalSetSpec.version",
            address!["spec", "version"],
            Expected::StrictVersion,
            Some(shown(spec.version)),
        ));
    }
    for (i, case) in spec.cases.iter().enumerate() {
        // Spelled out only for a finding: nearly every case passes.
        let at = || address!["spec", "cases", i];
        if !is_token(case.name) {
            found.push(field_fails(
                &catalogue::CASE_NAME,
                "EvalCase.name",
                at().key("name"),
                Expected::Token,
                Some(shown(case.name)),
            ));
        }
        if !is_digest(case.outcome.value) {
            found.push(
                field_fails(
                    &catalogue::OUTCOME_DIGEST,
                    "Digest.value",
                    at().key("outcome").key("value"),
                    Expected::Digest,
                    Some(shown(case.outcome.value)),
                )
                .with_note(digest_problem(case.outcome.value)),
            );
        }
        for (j, failure) in case.expect.verification_failures.iter().enumerate() {
            let failure_at = || at().key("expect").key("verification_failures").index(j);
            if !is_token(failure.layer) {
                found.push(field_fails(
                    &catalogue::LAYER_TOKEN,
                    "EvalVerificationFailure.layer",
                    failure_at().key("layer"),
                    Expected::Token,
                    Some(shown(failure.layer)),
                ));
            }
            if failure.count.as_f64().is_none_or(|count| count < 1.0) {
                found.push(field_fails(
                    &catalogue::FAILURE_COUNT,
                    "EvalVerificationFailure.count",
                    failure_at().key("count"),
                    Expected::AtLeast(1),
                    Some(failure.count.to_string()),
                ));
            }
        }
        if let Some(seeded) = &case.seeded {
            if !is_token(seeded.defect) {
                found.push(field_fails(
                    &catalogue::SEED_TOKEN,
                    "EvalSeed.defect",
                    at().key("seeded").key("defect"),
                    Expected::Token,
                    Some(shown(seeded.defect)),
                ));
            }
            if !is_token(seeded.caught_by) {
                found.push(field_fails(
                    &catalogue::SEED_TOKEN,
                    "EvalSeed.caught_by",
                    at().key("seeded").key("caught_by"),
                    Expected::Token,
                    Some(shown(seeded.caught_by)),
                ));
            }
        }
    }
    found
}

/// Rules across fields, set-wide first, then case by case.
fn cross_field_checks(spec: &Spec<'_>) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    if spec.cases.is_empty() || spec.cases.len() > MAX_CASES {
        let count = match spec.cases.len() {
            1 => "1 case".to_owned(),
            n => format!("{n} cases"),
        };
        found.push(
            rule_fails(
                &catalogue::CASE_COUNT,
                "an EvalSet holds 1 to 256 cases",
                address!["spec", "cases"],
            )
            .with_note(format!("it has {count}")),
        );
    }
    let names: Vec<&str> = spec.cases.iter().map(|case| case.name).collect();
    if let Some((i, note)) = first_out_of_order("case", &names) {
        found.push(
            rule_fails(
                &catalogue::CASES_SORTED,
                "EvalSet cases are sorted by name without duplicates",
                address!["spec", "cases", i],
            )
            .with_note(note),
        );
    }
    for (i, case) in spec.cases.iter().enumerate() {
        let at = || address!["spec", "cases", i];
        let failures = &case.expect.verification_failures;
        let layers: Vec<&str> = failures.iter().map(|failure| failure.layer).collect();
        if let Some((j, note)) = first_out_of_order("layer", &layers) {
            found.push(
                rule_fails(
                    &catalogue::FAILURES_SORTED,
                    "EvalSet verification failures are sorted by layer without duplicates",
                    at().key("expect").key("verification_failures").index(j),
                )
                .with_note(note),
            );
        }
        let must_be_seeded = case
            .category
            .is_some_and(|category| MUST_BE_SEEDED.contains(&category));
        match &case.seeded {
            None if must_be_seeded => found.push(rule_fails(
                &catalogue::CATEGORY_SEEDED,
                "an EvalSet case of a planted security bug or a migration hazard plants a defect",
                at().key("category"),
            )),
            None => {}
            Some(seeded) => {
                if case.category.is_none() {
                    found.push(rule_fails(
                        &catalogue::SEEDED_CATEGORY,
                        "an EvalSet case that plants a defect names a category",
                        at().key("seeded"),
                    ));
                }
                let expect = &case.expect;
                if expect.acceptance == "EVAL_ACCEPTANCE_ACCEPTED" || expect.merged || expect.severe
                {
                    found.push(rule_fails(
                        &catalogue::SEEDED_EXPECTATION,
                        "an EvalSet case that plants a defect expects it not accepted, not merged and not severe",
                        at().key("expect"),
                    ));
                }
                if !failures
                    .iter()
                    .any(|failure| failure.layer == seeded.caught_by)
                {
                    found.push(rule_fails(
                        &catalogue::CAUGHT_BY_LAYER,
                        "an EvalSet case that plants a defect is caught by one of its expected failure layers",
                        at().key("seeded").key("caught_by"),
                    ));
                }
            }
        }
    }
    found
}

/// The index of the first name that is not strictly greater, in byte order,
/// than the one before it, and a note on where it belongs: after the
/// greatest smaller name of the list, or first.
fn first_out_of_order(noun: &str, names: &[&str]) -> Option<(usize, String)> {
    let mut previous: Option<&str> = None;
    for (i, &name) in names.iter().enumerate() {
        if previous.is_some_and(|before| before.as_bytes() >= name.as_bytes()) {
            let shown = |name: &str| quote(&shorten(name));
            let earlier = names.get(..i).unwrap_or_default();
            let follows = names
                .iter()
                .filter(|other| other.as_bytes() < name.as_bytes())
                .max_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            let note = match follows {
                _ if earlier.contains(&name) => format!("{noun} {} is a duplicate", shown(name)),
                Some(follows) => format!(
                    "{noun} {} should follow {noun} {}",
                    shown(name),
                    shown(follows)
                ),
                None => format!("{noun} {} should come first", shown(name)),
            };
            return Some((i, note));
        }
        previous = Some(name);
    }
    None
}

#[cfg(test)]
mod tests;
