//! AutocontextEvaluatorPlan (produced): `candidates/<digest>/evaluator_plan.json`,
//! the immutable plan (arms, fixtures, policy, evaluator identities) a
//! candidate's evidence is collected under, and its digest.

mod catalogue;

use serde_json::Value;

use super::evidence::{candidate_of, disagreement, policy_digest_problem};
use super::{fails, text};
use crate::canonical;
use crate::diagnostic::Diagnostic;
use crate::kinds::{Kind, Role, Subject};

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

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let plan = value.get("plan").unwrap_or(&Value::Null);
    let written = text(value, "plan_digest").unwrap_or_default();
    let mut found = match canonical::sha256_hex(plan) {
        Ok(computed) if computed == written => Vec::new(),
        Ok(computed) => vec![fails(
            &catalogue::PLAN_DIGEST,
            format!("plan_digest is {written}, computed {computed}"),
            "/plan_digest",
        )],
        Err(refusal) => vec![fails(
            &catalogue::PLAN_DIGEST,
            format!("the plan has no digest: {refusal}"),
            "/plan",
        )],
    };
    let binding = &catalogue::PLAN_BINDING;
    if let Some(problem) = policy_digest_problem(
        plan.get("confirmation_policy"),
        text(plan, "confirmation_policy_digest"),
    ) {
        found.push(fails(binding, problem, "/plan/confirmation_policy_digest"));
    }
    match candidate_of(&subject.location) {
        None => {}
        Some(Err(problem)) => found.push(fails(
            binding,
            problem.to_string(),
            "/plan/candidate_digest",
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
                    found.push(fails(binding, problem, &format!("/plan/{field}")));
                }
            }
        }
    }
    found
}
