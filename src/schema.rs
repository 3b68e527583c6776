//! The schema stage: each kind's JSON Schema, compiled when numi is built,
//! and its violations as diagnostics in document order.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::LocationSegment;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Stage};
use crate::kinds::Kind;
use crate::yaml::{KeyIndex, PathSegment, document_order_with, format_pointer, json_type_name};

/// Most violations listed for one document. Past it violations are counted,
/// not kept, so a document with millions of them costs no more memory than
/// one with a hundred.
pub const MAX_LISTED_VIOLATIONS: usize = 100;

/// The violations of one document: the first ones in document order, and
/// how many more there are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Violations {
    /// At most [`MAX_LISTED_VIOLATIONS`], in document order, then by keyword.
    pub listed: Vec<Diagnostic>,
    /// Violations found past the cap: counted, not listed.
    pub unlisted: usize,
}

/// The violations of the kind's schema, ordered by where the offending value
/// stands in the document, then by keyword; past [`MAX_LISTED_VIOLATIONS`]
/// only counted.
pub fn check(kind: &'static Kind, document: &Value) -> Violations {
    check_listing(kind, document, MAX_LISTED_VIOLATIONS)
}

/// [`check`] listing at most `cap` violations.
pub fn check_listing(kind: &'static Kind, document: &Value, cap: usize) -> Violations {
    let schema = kind.compiled;
    if (schema.is_valid)(document) {
        return Violations::default();
    }
    let mut keys = KeyIndex::default();
    // The `cap` first violations in document order: a max-heap that drops
    // its last entry whenever it holds one too many.
    let mut first: BinaryHeap<Ranked> = BinaryHeap::new();
    let mut found = 0usize;
    for error in (schema.iter_errors)(document) {
        for (path, rule, message) in violations_of(&error) {
            found = found.saturating_add(1);
            let ranked = Ranked {
                order: document_order_with(document, &path, &mut keys),
                rule,
                seen: found,
                path,
                message,
            };
            if first.len() < cap {
                first.push(ranked);
            } else if first.peek().is_some_and(|last| ranked < *last) {
                first.pop();
                first.push(ranked);
            }
        }
    }
    let kept = first.len();
    let mut listed: Vec<Diagnostic> = first
        .into_sorted_vec()
        .into_iter()
        .map(Ranked::into_diagnostic)
        .collect();
    listed.dedup_by(|x, y| x.rule == y.rule && x.pointer == y.pointer);
    Violations {
        listed,
        unlisted: found.saturating_sub(kept),
    }
}

impl Violations {
    /// The number of violations, listed or not.
    pub fn count(&self) -> usize {
        self.listed.len().saturating_add(self.unlisted)
    }
}

/// A violation waiting for its place in the listing: ordered by where it
/// stands, then by keyword, then as jsonschema found it.
struct Ranked {
    order: Vec<usize>,
    rule: &'static str,
    /// How many violations jsonschema had reported up to this one.
    seen: usize,
    path: Vec<PathSegment>,
    message: String,
}

impl Ranked {
    fn into_diagnostic(self) -> Diagnostic {
        Diagnostic::new(Stage::Schema, self.rule, self.message)
            .at_pointer(format_pointer(&self.path))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order
            .cmp(&other.order)
            .then_with(|| self.rule.cmp(other.rule))
            .then_with(|| self.seen.cmp(&other.seen))
    }
}

/// The keyword a schema diagnostic reports, from its rule id.
pub fn keyword(diagnostic: &Diagnostic) -> &str {
    diagnostic
        .rule
        .strip_prefix("schema/")
        .unwrap_or(diagnostic.rule)
}

/// One jsonschema error as violations (path, rule, message), made one at a
/// time: an unexpected property points at itself, a missing one at where it
/// would be.
fn violations_of<'e>(
    error: &'e ValidationError<'_>,
) -> impl Iterator<Item = (Vec<PathSegment>, &'static str, String)> + 'e {
    let base: Vec<PathSegment> = error
        .instance_path()
        .iter()
        .map(|segment| match segment {
            LocationSegment::Property(name) => PathSegment::Key(name.into_owned()),
            LocationSegment::Index(index) => PathSegment::Index(index),
        })
        .collect();
    let at = |base: &[PathSegment], name: &str| {
        let mut path = base.to_vec();
        path.push(PathSegment::Key(name.to_owned()));
        path
    };
    let (unexpected, single): (&[String], _) = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => (unexpected.as_slice(), None),
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let message = format!("missing required property {}", crate::report::quote(name));
            (&[], Some((at(&base, name), "schema/required", message)))
        }
        kind => {
            let message = describe(kind, error.instance());
            (&[], Some((base.clone(), rule_id(kind.keyword()), message)))
        }
    };
    unexpected
        .iter()
        .map(move |name| {
            let message = format!("unexpected property {}", crate::report::quote(name));
            (at(&base, name), "schema/additionalProperties", message)
        })
        .chain(single)
}

/// A short message for a violation, never echoing a long input value.
fn describe(kind: &ValidationErrorKind, instance: &Value) -> String {
    let found = json_type_name(instance);
    match kind {
        ValidationErrorKind::Type { kind } => {
            format!("expected {}, found {found}", type_names(kind))
        }
        ValidationErrorKind::Enum { options } => format!("expected one of {}", short_json(options)),
        ValidationErrorKind::Constant { expected_value } => {
            format!("expected {}", short_json(expected_value))
        }
        ValidationErrorKind::Minimum { limit } => format!("expected at least {limit}"),
        ValidationErrorKind::Maximum { limit } => format!("expected at most {limit}"),
        ValidationErrorKind::MinLength { limit } => format!("expected at least {limit} characters"),
        ValidationErrorKind::Pattern { pattern } => format!("expected a string matching {pattern}"),
        other => format!("fails the {} keyword", other.keyword()),
    }
}

fn type_names(kind: &jsonschema::error::TypeKind) -> String {
    match kind {
        jsonschema::error::TypeKind::Single(ty) => ty.to_string(),
        jsonschema::error::TypeKind::Multiple(types) => {
            let names: Vec<String> = types.iter().map(|ty| ty.to_string()).collect();
            names.join(" or ")
        }
    }
}

fn short_json(value: &Value) -> String {
    const MAX: usize = 200;
    let text = value.to_string();
    if text.len() <= MAX {
        return text;
    }
    let mut cut = MAX;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…", text.get(..cut).unwrap_or_default())
}

/// Rule ids of the schema stage: `schema/<keyword>`.
fn rule_id(keyword: &str) -> &'static str {
    SCHEMA_RULES
        .iter()
        .find(|rule| rule.strip_prefix("schema/") == Some(keyword))
        .copied()
        .unwrap_or("schema/other")
}

/// The schema keywords numi's schemas use, as rule ids.
pub const SCHEMA_RULES: &[&str] = &[
    "schema/additionalProperties",
    "schema/const",
    "schema/enum",
    "schema/maximum",
    "schema/minLength",
    "schema/minimum",
    "schema/pattern",
    "schema/required",
    "schema/type",
    "schema/other",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds;
    use serde_json::json;

    fn playbook_with(extra: &[&str]) -> Value {
        let mut document = json!({
            "apiVersion": "numinance.dev/v1",
            "kind": "Playbook",
        });
        if let Some(map) = document.as_object_mut() {
            for key in extra {
                map.insert((*key).to_owned(), json!(0));
            }
        }
        document
    }

    fn pointers(violations: &Violations) -> Vec<&str> {
        violations
            .listed
            .iter()
            .filter_map(|d| d.pointer.as_deref())
            .collect()
    }

    /// What a validator reports on a document: each error's keyword and
    /// instance path, in the order reported.
    fn report(errors: jsonschema::ErrorIterator<'_>) -> Vec<(String, String)> {
        errors
            .map(|error| {
                (
                    error.kind().keyword().to_owned(),
                    error.instance_path().to_string(),
                )
            })
            .collect()
    }

    /// The schemas compiled into numi enforce what the shipped schema text
    /// (`numi schema KIND`) says: on every example document of the rule
    /// catalogue, they report what a validator built from the text reports.
    #[test]
    fn compiled_schemas_agree_with_the_shipped_schema_text() {
        let from_text: Vec<jsonschema::Validator> = kinds::KINDS
            .iter()
            .map(|kind| {
                let schema: Value = match serde_json::from_str(kind.schema) {
                    Ok(schema) => schema,
                    Err(error) => panic!("the {} schema is not JSON: {error}", kind.name),
                };
                match jsonschema::options()
                    .with_draft(jsonschema::Draft::Draft202012)
                    .should_validate_formats(false)
                    .build(&schema)
                {
                    Ok(validator) => validator,
                    Err(error) => panic!("the {} schema does not compile: {error}", kind.name),
                }
            })
            .collect();
        let mut compared = 0;
        for doc in crate::rules::all() {
            for example in [doc.failing, doc.passing] {
                let Ok(document) = crate::yaml::load(example, &crate::yaml::Limits::default())
                else {
                    continue;
                };
                let name = document.value.get("kind").and_then(Value::as_str);
                let Some((kind, from_text)) = kinds::KINDS
                    .iter()
                    .zip(&from_text)
                    .find(|(kind, _)| Some(kind.name) == name)
                else {
                    continue;
                };
                let value = &document.value;
                assert_eq!(
                    (kind.compiled.is_valid)(value),
                    from_text.is_valid(value),
                    "{}: {example}",
                    doc.id
                );
                assert_eq!(
                    report((kind.compiled.iter_errors)(value)),
                    report(from_text.iter_errors(value)),
                    "{}: {example}",
                    doc.id
                );
                compared += 1;
            }
        }
        assert!(compared > 50, "only {compared} examples compared");
    }

    #[test]
    fn the_listing_keeps_the_first_violations_in_document_order_and_counts_the_rest() {
        let Some(playbook) = kinds::find("Playbook") else {
            panic!("Playbook is a kind");
        };
        let document = playbook_with(&["z3", "z1", "z2", "a9", "a8"]);
        let all = check_listing(playbook, &document, usize::MAX);
        let capped = check_listing(playbook, &document, 3);
        assert_eq!(
            capped.listed.as_slice(),
            all.listed.get(..3).unwrap_or_default()
        );
        assert_eq!(pointers(&capped), ["/z3", "/z1", "/z2"]);
        assert_eq!(capped.count(), all.count());
        assert_eq!(capped.unlisted, all.listed.len() - 3);
        assert_eq!(all.unlisted, 0);
    }

    #[test]
    fn a_listing_under_the_cap_is_whole() {
        let Some(playbook) = kinds::find("Playbook") else {
            panic!("Playbook is a kind");
        };
        let document = playbook_with(&["extra"]);
        let checked = check(playbook, &document);
        assert_eq!(checked.unlisted, 0);
        assert!(pointers(&checked).contains(&"/extra"));
        assert!(checked.listed.len() <= MAX_LISTED_VIOLATIONS);
    }

    #[test]
    fn many_violations_keep_at_most_the_cap() {
        let Some(playbook) = kinds::find("Playbook") else {
            panic!("Playbook is a kind");
        };
        let names: Vec<String> = (0..1000).map(|i| format!("x{i}")).collect();
        let keys: Vec<&str> = names.iter().map(String::as_str).collect();
        let document = playbook_with(&keys);
        let checked = check(playbook, &document);
        assert_eq!(checked.listed.len(), MAX_LISTED_VIOLATIONS);
        assert_eq!(
            pointers(&checked).first().copied(),
            Some("/x0"),
            "document order, not jsonschema's"
        );
        assert_eq!(
            checked.count(),
            check_listing(playbook, &document, usize::MAX).count()
        );
        assert!(checked.count() > 1000);
    }
}
