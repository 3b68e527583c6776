//! Producer-side checks: what a file-level pass of the reference leaves to
//! the producer of a document (spec 000 and 002 say so). They run on every
//! document that passed its kind's schema and report warnings; `--strict`
//! makes every warning an error (see `Checked::promote_warnings`).

mod autonomy_policy;
mod context_bundle;
mod credentials;
pub mod duplicate_names;
mod examples;
mod playbook;
mod untrusted_text;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::kinds::Kind;
use crate::rules::RuleDoc;
use crate::yaml::{TextFacts, document_order, parse_pointer};

/// The catalogue entries of the producer-side rules, in the order the README
/// lists them.
pub const RULES: &[RuleDoc] = &[
    context_bundle::CONSTRAINT_TRUST,
    context_bundle::CONSTRAINT_ORIGIN_DIGEST,
    context_bundle::UNIQUE_SOURCE_REFS,
    context_bundle::GUIDANCE_REF,
    context_bundle::CLAIM_REF,
    context_bundle::CONFLICT_CLAIMS,
    context_bundle::CONTEXT_GENERATION,
    untrusted_text::UNTRUSTED_TEXT,
    credentials::CREDENTIAL_IN_REF,
    playbook::RATE_BOUND,
    playbook::MIN_RUNS,
    autonomy_policy::RULE_ABOVE_FLOOR,
    autonomy_policy::DUPLICATE_RULE,
    autonomy_policy::DUPLICATE_FLOOR,
    duplicate_names::DUPLICATE_NAME,
];

/// The producer-side findings of one document that passed its kind's schema,
/// as warnings, in the order their values stand in the document.
pub fn check(kind: &Kind, document: &Value, text: TextFacts) -> Vec<Diagnostic> {
    let mut found = match kind.name {
        "ContextBundle" => {
            let mut found = context_bundle::check(document);
            found.extend(untrusted_text::check(document, text));
            found.extend(credentials::check(document));
            found
        }
        "Playbook" => playbook::check(document),
        "AutonomyPolicy" => autonomy_policy::check(document),
        _ => Vec::new(),
    };
    found.sort_by_cached_key(|diagnostic| {
        let pointer = diagnostic.pointer.as_deref().unwrap_or_default();
        document_order(document, &parse_pointer(document, pointer))
    });
    found.into_iter().map(Diagnostic::as_warning).collect()
}

/// The items of the array `field` of `value`, with their indexes; none when
/// it is absent.
fn items<'a>(value: &'a Value, field: &str) -> impl Iterator<Item = (usize, &'a Value)> {
    value
        .get(field)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}
