//! AutocontextEvaluatorPlan (produced): `candidates/<digest>/evaluator_plan.json`,
//! the immutable plan (arms, fixtures, policy, evaluator identities) a
//! candidate's evidence is collected under, and its digest.

mod catalogue;

use serde_json::Value;

use super::evidence::{candidate_of, disagreement, policy_digest_problem};
use super::learned;
use super::{fails, text};
use crate::canonical;
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::{Kind, Role, Subject};
use crate::location::Location;

pub(super) const KIND: Kind = Kind {
    name: "AutocontextEvaluatorPlan",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextEvaluatorPlan.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextEvaluatorPlan.schema.json"),
    display_name: crate::kinds::no_name,
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// The digest of the plan `artifact` holds (of null when it holds none).
/// For the plan file a run read for candidate `kept`, computed once: its
/// own line and its candidate's matched trials, which are checked against
/// the plan only when its digest verifies, both ask.
pub(super) fn plan_digest(
    location: &Location<'_>,
    artifact: &Value,
    kept: Option<learned::Key<'_>>,
) -> Result<String, canonical::Refusal> {
    let plan = artifact.get("plan").unwrap_or(&Value::Null);
    let Some((root, digest)) = kept else {
        return canonical::sha256_hex(plan);
    };
    if let Some(known) = learned::plan_digest(location, root, digest) {
        return known;
    }
    let computed = canonical::sha256_hex(plan);
    learned::keep_plan_digest(location, root, digest, &computed);
    computed
}

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let plan = value.get("plan").unwrap_or(&Value::Null);
    let written = text(value, "plan_digest").unwrap_or_default();
    let candidate = candidate_of(&subject.location);
    let kept = match &candidate {
        Some(Ok(candidate)) => subject
            .location
            .is_loaded(value)
            .then_some((candidate.store.root.as_path(), candidate.digest.as_str())),
        _ => None,
    };
    let mut found = match plan_digest(&subject.location, value, kept) {
        Ok(computed) if computed == written => Vec::new(),
        Ok(computed) => vec![fails(
            &catalogue::PLAN_DIGEST,
            format!("plan_digest is {written}, computed {computed}"),
            address!["plan_digest"],
        )],
        Err(refusal) => vec![fails(
            &catalogue::PLAN_DIGEST,
            format!("the plan has no digest: {refusal}"),
            address!["plan"],
        )],
    };
    let binding = &catalogue::PLAN_BINDING;
    if let Some(problem) = policy_digest_problem(
        plan.get("confirmation_policy"),
        text(plan, "confirmation_policy_digest"),
    ) {
        found.push(fails(
            binding,
            problem,
            address!["plan", "confirmation_policy_digest"],
        ));
    }
    match candidate {
        None => {}
        Some(Err(problem)) => found.push(fails(
            binding,
            problem.to_string(),
            address!["plan", "candidate_digest"],
        )),
        Some(Ok(candidate)) => {
            let mut expected = candidate.binding();
            expected.push((
                "scenario",
                Value::String(candidate.store.scenario.clone()),
                "the store's scenario",
            ));
            for (field, value, whose) in &expected {
                if let Some(problem) = disagreement(plan, field, value, whose) {
                    found.push(fails(binding, problem, address!["plan", *field]));
                }
            }
        }
    }
    found
}
