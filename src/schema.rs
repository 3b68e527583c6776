//! The schema stage: a JSON Schema compiled when numi is built, and its
//! violations as diagnostics in document order.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::LocationSegment;
use jsonschema::{ErrorIterator, ValidationError};
use serde_json::Value;

use crate::diagnostic::{Address, Diagnostic, RuleDoc, stages};
use crate::yaml::{KeyIndex, PathSegment, document_order_with, json_type_name};

pub(crate) mod described;

/// Most violations listed for one document. Past it violations are counted,
/// not kept, so a document with millions of them costs no more memory than
/// one with a hundred.
pub(crate) const MAX_LISTED_VIOLATIONS: usize = 100;

/// The violations of one document: the first ones in document order, and
/// how many more there are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Violations {
    /// At most [`MAX_LISTED_VIOLATIONS`], in document order, then by keyword.
    pub listed: Vec<Diagnostic>,
    /// Violations found past the cap: counted, not listed.
    pub unlisted: usize,
}

/// A JSON Schema compiled into the binary: a schema that does not compile
/// fails the build, and a run spends nothing on compiling it.
#[derive(Debug, Clone, Copy)]
pub struct CompiledSchema {
    pub is_valid: fn(&Value) -> bool,
    pub iter_errors: for<'i> fn(&'i Value) -> ErrorIterator<'i>,
    /// The schema as a value, parsed the first time a violation needs it
    /// (the properties a mapping takes, the values an enum allows).
    pub parsed: fn() -> Option<&'static Value>,
}

/// The [`CompiledSchema`] of the schema file at `$path`, relative to the
/// crate root. Formats are annotations only, as in the reference.
// rustfmt shifts the attribute further on every run; keep it as written.
#[rustfmt::skip]
macro_rules! compiled_schema {
    ($path:literal) => {{
        #[jsonschema::validator(
            path = $path,
            draft = Draft202012,
            validate_formats = false,
            methods = { is_valid = true, validate = false, iter_errors = true }
        )]
        struct Compiled;
        fn parsed() -> Option<&'static serde_json::Value> {
            static PARSED: std::sync::OnceLock<Option<serde_json::Value>> =
                std::sync::OnceLock::new();
            PARSED
                .get_or_init(|| {
                    serde_json::from_str(include_str!(concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/",
                        $path
                    )))
                    .ok()
                })
                .as_ref()
        }
        $crate::schema::CompiledSchema {
            is_valid: Compiled::is_valid,
            iter_errors: Compiled::iter_errors,
            parsed,
        }
    }};
}
pub(crate) use compiled_schema;

/// The violations of `schema`, ordered by where the offending value stands
/// in the document, then by keyword; past [`MAX_LISTED_VIOLATIONS`] only
/// counted.
pub(crate) fn check(schema: &CompiledSchema, document: &Value) -> Violations {
    check_listing(schema, document, MAX_LISTED_VIOLATIONS)
}

/// [`check`] listing at most `cap` violations.
pub(crate) fn check_listing(schema: &CompiledSchema, document: &Value, cap: usize) -> Violations {
    if (schema.is_valid)(document) {
        return Violations::default();
    }
    let mut keys = KeyIndex::default();
    // The `cap` first violations in document order: a max-heap that drops
    // its last entry whenever it holds one too many.
    let mut first: BinaryHeap<Ranked> = BinaryHeap::new();
    let mut found = 0usize;
    for error in (schema.iter_errors)(document) {
        for (path, rule, message, note) in violations_of(&error, schema.parsed) {
            found = found.saturating_add(1);
            let ranked = Ranked {
                order: document_order_with(document, &path, &mut keys),
                rule,
                seen: found,
                path,
                message,
                note,
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
    listed.dedup_by(|x, y| x.rule == y.rule && x.address == y.address);
    Violations {
        listed,
        unlisted: found.saturating_sub(kept),
    }
}

impl Violations {
    /// The number of violations, listed or not.
    #[cfg(test)]
    pub(crate) fn count(&self) -> usize {
        self.listed.len().saturating_add(self.unlisted)
    }
}

/// A violation waiting for its place in the listing: ordered by where it
/// stands, then by keyword, then as jsonschema found it.
struct Ranked {
    order: Vec<usize>,
    rule: &'static RuleDoc,
    /// How many violations jsonschema had reported up to this one.
    seen: usize,
    path: Vec<PathSegment>,
    message: String,
    note: Option<String>,
}

impl Ranked {
    fn into_diagnostic(self) -> Diagnostic {
        let diagnostic = Diagnostic::new(self.rule, self.message).at(Address::from(self.path));
        match self.note {
            Some(note) => diagnostic.with_note(note),
            None => diagnostic,
        }
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
            .then_with(|| self.rule.id.cmp(other.rule.id))
            .then_with(|| self.seen.cmp(&other.seen))
    }
}

/// The keyword a schema diagnostic reports, from its rule id.
pub(crate) fn keyword(diagnostic: &Diagnostic) -> &str {
    diagnostic
        .rule
        .id
        .strip_prefix("schema/")
        .unwrap_or(diagnostic.rule.id)
}

/// One jsonschema error as violations (path, rule, message), made one at a
/// time: an unexpected property points at itself, a missing one at where it
/// would be.
fn violations_of<'e>(
    error: &'e ValidationError<'_>,
    parsed: fn() -> Option<&'static Value>,
) -> impl Iterator<Item = (Vec<PathSegment>, &'static RuleDoc, String, Option<String>)> + 'e {
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
            let message = format!("missing required property {}", crate::text::quote(name));
            let note = format!("add `{name}`");
            (
                &[],
                Some((
                    at(&base, name),
                    &stages::schema::REQUIRED,
                    message,
                    Some(note),
                )),
            )
        }
        kind => {
            let message = describe(kind, error.instance());
            let note = hint(kind, error.instance());
            (
                &[],
                Some((base.clone(), rule_of(kind.keyword()), message, note)),
            )
        }
    };
    let allowed: Vec<&'static str> = if unexpected.is_empty() {
        Vec::new()
    } else {
        parsed()
            .and_then(|root| subschema_at(root, &base))
            .map(property_names)
            .unwrap_or_default()
    };
    unexpected
        .iter()
        .map(move |name| {
            let message = format!(
                "unexpected property {}",
                crate::text::quote(&crate::text::shorten(name))
            );
            let home = parsed().and_then(|root| home_of(root, name, &base));
            let note = unexpected_hint(name, &allowed, home.as_deref());
            (
                at(&base, name),
                &stages::schema::ADDITIONAL_PROPERTIES,
                message,
                Some(note),
            )
        })
        .chain(single)
}

/// Most allowed values or property names a hint lists.
const MAX_LISTED: usize = 8;

/// What to do with a property the mapping does not take: the one mapping
/// of the document that takes it (`home`, a JSON pointer: the key was
/// indented into the wrong mapping), else the allowed one nearest to it,
/// else remove it (and what the mapping takes instead).
fn unexpected_hint(name: &str, allowed: &[&str], home: Option<&str>) -> String {
    if let Some(home) = home {
        return if home.is_empty() {
            "did you mean to put it at the top level of the document?".to_owned()
        } else {
            format!("did you mean to put it under `{home}`?")
        };
    }
    match crate::suggest::nearest(name, allowed.iter().copied()) {
        Some(near) => format!("did you mean `{near}`?"),
        None if allowed.is_empty() => "remove it".to_owned(),
        None => format!("remove it; this mapping takes {}", listed(allowed)),
    }
}

/// One step from the document root to a place in a schema where a mapping
/// stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step<'s> {
    /// A property of this name.
    Key(&'s str),
    /// Any item of an array.
    AnyItem,
    /// Any key of a mapping whose keys are free (`additionalProperties`
    /// or `patternProperties` with a schema).
    AnyKey,
}

type Place<'s> = Vec<Step<'s>>;

/// How deep the search for a property's places goes: deeper than any
/// document numi reads is written, and bounded whatever the schema.
const MAX_PLACE_DEPTH: usize = 32;

/// The JSON pointer of the one mapping of the document where the schema
/// allows a property `name` found unexpected at `base`; `None` when the
/// schema allows it nowhere, or in more than one place, or only in a
/// place that cannot be named from `base` (an array item that `base` does
/// not pass through).
fn home_of(root: &Value, name: &str, base: &[PathSegment]) -> Option<String> {
    let mut places = Vec::new();
    collect_places(
        root,
        root,
        name,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut places,
    );
    let [place] = places.as_slice() else {
        return None;
    };
    let home = instantiate(place, base)?;
    (home != base).then(|| Address::from(home).to_string())
}

/// Every place of `schema` (reached at `path`) whose `properties` holds
/// `name`, stopping once there are two: only a single place is advice.
/// `$ref`s are followed, a recursive one round twice. Each schema object's
/// few keywords are read in one pass rather than looked up one by one: the
/// search visits every node of the schema, once per misplaced key.
fn collect_places<'s>(
    root: &'s Value,
    schema: &'s Value,
    name: &str,
    path: &mut Place<'s>,
    followed: &mut Vec<&'s str>,
    places: &mut Vec<Place<'s>>,
) {
    if places.len() > 1 || path.len() > MAX_PLACE_DEPTH {
        return;
    }
    let Some(keywords) = schema.as_object() else {
        return;
    };
    for (keyword, value) in keywords {
        match keyword.as_str() {
            "$ref" => {
                let Some(reference) = value.as_str() else {
                    continue;
                };
                let target = reference
                    .strip_prefix('#')
                    .and_then(|pointer| root.pointer(pointer));
                // A reference entered a second time on the way down is a
                // recursive schema: a property of it has a place at each
                // depth, so one round more finds the second.
                let entered = followed.iter().filter(|seen| **seen == reference).count();
                if let (Some(target), true) = (target, entered < 2) {
                    followed.push(reference);
                    collect_places(root, target, name, path, followed, places);
                    followed.pop();
                }
            }
            "properties" => {
                let Some(properties) = value.as_object() else {
                    continue;
                };
                let allows = properties
                    .iter()
                    .any(|(key, property)| key == name && property != &Value::Bool(false));
                if allows && !places.contains(path) {
                    places.push(path.clone());
                }
                for (key, property) in properties {
                    path.push(Step::Key(key));
                    collect_places(root, property, name, path, followed, places);
                    path.pop();
                }
            }
            "items" if value.is_object() => {
                path.push(Step::AnyItem);
                collect_places(root, value, name, path, followed, places);
                path.pop();
            }
            "additionalProperties" if value.is_object() => {
                path.push(Step::AnyKey);
                collect_places(root, value, name, path, followed, places);
                path.pop();
            }
            "patternProperties" => {
                let patterns = value.as_object().into_iter().flat_map(|map| map.values());
                for values in patterns.filter(|values| values.is_object()) {
                    path.push(Step::AnyKey);
                    collect_places(root, values, name, path, followed, places);
                    path.pop();
                }
            }
            "allOf" | "anyOf" | "oneOf" => {
                for branch in value.as_array().into_iter().flatten() {
                    collect_places(root, branch, name, path, followed, places);
                }
            }
            "then" | "else" => collect_places(root, value, name, path, followed, places),
            _ => {}
        }
    }
}

/// `place` as a path of the document, its free steps (any item, any key)
/// those `base` takes; `None` when `base` does not go that way.
fn instantiate(place: &[Step], base: &[PathSegment]) -> Option<Vec<PathSegment>> {
    let mut path: Vec<PathSegment> = Vec::with_capacity(place.len());
    for step in place {
        let depth = path.len();
        let taken = base
            .get(depth)
            .filter(|_| base.get(..depth) == Some(path.as_slice()));
        let next = match (step, taken) {
            (Step::Key(key), _) => PathSegment::Key((*key).to_owned()),
            (Step::AnyItem, Some(PathSegment::Index(index))) => PathSegment::Index(*index),
            (Step::AnyKey, Some(PathSegment::Key(key))) => PathSegment::Key(key.clone()),
            _ => return None,
        };
        path.push(next);
    }
    Some(path)
}

/// The allowed value of an enum nearest to the one written. No list of
/// them when none is near: the message already gives it.
fn enum_hint(text: &str, options: &Value) -> Option<String> {
    let allowed = options.as_array()?.iter().filter_map(Value::as_str);
    crate::suggest::nearest(text, allowed).map(|near| format!("did you mean `{near}`?"))
}

fn listed(names: &[&str]) -> String {
    let shown: Vec<String> = names
        .iter()
        .take(MAX_LISTED)
        .map(|name| format!("`{name}`"))
        .collect();
    let more = names.len().saturating_sub(MAX_LISTED);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The subschema that applies at `path`, following `$ref`s within the
/// schema, `properties`, `additionalProperties` and `items`.
pub(crate) fn subschema_at<'s>(root: &'s Value, path: &[PathSegment]) -> Option<&'s Value> {
    let mut current = resolve(root, root)?;
    for segment in path {
        let next = match (segment, current.get("items")) {
            (PathSegment::Index(_), Some(items)) => items,
            (PathSegment::Index(_), None) => return None,
            (PathSegment::Key(name), _) => current
                .get("properties")
                .and_then(|properties| properties.get(name))
                .or_else(|| {
                    current
                        .get("additionalProperties")
                        .filter(|a| a.is_object())
                })?,
        };
        current = resolve(root, next)?;
    }
    Some(current)
}

/// `schema`, or what its local `$ref` (`#/$defs/Name`) points at.
fn resolve<'s>(root: &'s Value, schema: &'s Value) -> Option<&'s Value> {
    let mut current = schema;
    // A chain of references is short; the bound keeps a cycle harmless.
    for _ in 0..8 {
        match current.get("$ref").and_then(Value::as_str) {
            Some(reference) => current = root.pointer(reference.strip_prefix('#')?)?,
            None => return Some(current),
        }
    }
    None
}

fn property_names(schema: &Value) -> Vec<&str> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default()
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

/// YAML 1.1 booleans that YAML 1.2 (numi's schema) reads as strings.
const YAML_11_TRUE: &[&str] = &["y", "yes", "on"];
const YAML_11_FALSE: &[&str] = &["n", "no", "off"];

/// What the user most likely meant, for the violation's note: the nearest
/// allowed value of an enum, or `true`/`false` for a YAML 1.1 boolean.
fn hint(kind: &ValidationErrorKind, instance: &Value) -> Option<String> {
    let text = instance.as_str()?;
    match kind {
        ValidationErrorKind::Type { kind } if type_names(kind).contains("boolean") => {
            let lower = text.to_ascii_lowercase();
            let meant = if YAML_11_TRUE.contains(&lower.as_str()) || lower == "true" {
                "true"
            } else if YAML_11_FALSE.contains(&lower.as_str()) || lower == "false" {
                "false"
            } else {
                return None;
            };
            let why = if lower == meant {
                "is a quoted string".to_owned()
            } else {
                "is a boolean in YAML 1.1 only; YAML 1.2 reads it as a string".to_owned()
            };
            Some(format!(
                "{} {why}: use {meant}",
                crate::text::quote(&crate::text::shorten(text))
            ))
        }
        ValidationErrorKind::Enum { options } => enum_hint(text, options),
        _ => None,
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

/// The schema stage's rule for `keyword`: `schema/<keyword>`, or
/// `schema/other` for a keyword with no rule of its own.
fn rule_of(keyword: &str) -> &'static RuleDoc {
    stages::schema::SCHEMA
        .iter()
        .find(|rule| rule.id.strip_prefix("schema/") == Some(keyword))
        .unwrap_or(&stages::schema::OTHER)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn path(keys: &[&str]) -> Vec<PathSegment> {
        keys.iter()
            .map(|key| match key.parse::<usize>() {
                Ok(index) => PathSegment::Index(index),
                Err(_) => PathSegment::Key((*key).to_owned()),
            })
            .collect()
    }

    #[test]
    fn the_subschema_at_a_path_follows_refs_properties_and_items() {
        let schema = json!({
            "properties": {
                "spec": {"properties": {"cases": {"items": {"$ref": "#/$defs/Case"}}}},
                "tools": {"additionalProperties": {"$ref": "#/$defs/Case"}}
            },
            "$defs": {"Case": {"properties": {"acceptance": {"enum": ["A", "B"]}}}}
        });
        let acceptance = subschema_at(&schema, &path(&["spec", "cases", "3", "acceptance"]));
        assert_eq!(acceptance, Some(&json!({"enum": ["A", "B"]})));
        let case = subschema_at(&schema, &path(&["tools", "any/name"])).map(property_names);
        assert_eq!(case, Some(vec!["acceptance"]));
        assert_eq!(subschema_at(&schema, &path(&["nope"])), None);
        let cyclic = json!({"$ref": "#"});
        assert_eq!(subschema_at(&cyclic, &[]), None);
    }

    #[test]
    fn a_misplaced_property_is_pointed_to_its_one_home() {
        let schema = json!({
            "properties": {
                "metadata": {"$ref": "#/$defs/Metadata"},
                "spec": {"properties": {
                    "qualification": {"properties": {"min_runs": {}}},
                    "cases": {"items": {"$ref": "#/$defs/Case"}},
                    "tools": {"additionalProperties": {"properties": {"command": {}}}}
                }}
            },
            "$defs": {
                "Metadata": {"properties": {"name": {}, "scope": {}}},
                "Case": {"properties": {
                    "name": {},
                    "expect": {"properties": {"acceptance": {}}}
                }}
            }
        });
        let home = |name: &str, base: &[&str]| home_of(&schema, name, &path(base));
        // Dedented out of its parent, or indented into a sibling.
        assert_eq!(
            home("min_runs", &["spec"]).as_deref(),
            Some("/spec/qualification")
        );
        assert_eq!(
            home("scope", &["spec", "qualification"]).as_deref(),
            Some("/metadata")
        );
        assert_eq!(home("spec", &["metadata"]).as_deref(), Some(""));
        // An array item or a free key is named by the one the finding is in.
        assert_eq!(
            home("acceptance", &["spec", "cases", "3"]).as_deref(),
            Some("/spec/cases/3/expect")
        );
        assert_eq!(
            home("command", &["spec", "tools", "lint", "args"]).as_deref(),
            Some("/spec/tools/lint")
        );
        // Not from outside the item or the free key it would be in.
        assert_eq!(home("acceptance", &["spec"]), None);
        assert_eq!(home("command", &["spec"]), None);
        // Allowed in two places (metadata and each case), or nowhere.
        assert_eq!(home("name", &["spec"]), None);
        assert_eq!(home("colour", &["spec"]), None);
        // Allowed only where the finding already is.
        let one_of = json!({"properties": {"spec": {"oneOf": [
            {"properties": {"a": {}}},
            {"properties": {"b": {}}}
        ]}}});
        assert_eq!(home_of(&one_of, "a", &path(&["spec"])), None);
        // A schema that refers to itself has a place at every depth.
        let cyclic = json!({"$ref": "#/$defs/Node", "$defs": {"Node": {"properties": {
            "leaf": {}, "child": {"$ref": "#/$defs/Node"}, "self": {"$ref": "#"}
        }}}});
        assert_eq!(home_of(&cyclic, "leaf", &path(&["other"])), None);
        assert_eq!(home_of(&cyclic, "nothing", &path(&[])), None);
        assert_eq!(
            unexpected_hint("min_runs", &["change_type"], Some("/spec/qualification")),
            "did you mean to put it under `/spec/qualification`?"
        );
        assert_eq!(
            unexpected_hint("kind", &["name"], Some("")),
            "did you mean to put it at the top level of the document?"
        );
    }

    #[test]
    fn hints_name_a_near_value_or_property_and_never_guess_a_far_one() {
        let allowed = ["version", "cases"];
        assert_eq!(
            unexpected_hint("case", &allowed, None),
            "did you mean `cases`?"
        );
        assert_eq!(
            unexpected_hint("colour", &allowed, None),
            "remove it; this mapping takes `version`, `cases`"
        );
        assert_eq!(unexpected_hint("colour", &[], None), "remove it");
        let many: Vec<String> = (1..=10).map(|n| format!("name{n}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(unexpected_hint("colour", &many, None).ends_with(", `name8` and 2 more"));
        let options = json!(["SCOPE_ORG", "SCOPE_TEAM", "SCOPE_REPO"]);
        assert_eq!(
            enum_hint("SCOPE_REPOSITORY", &options).as_deref(),
            Some("did you mean `SCOPE_REPO`?")
        );
        assert_eq!(enum_hint("nothing-like-it", &options), None);
        assert_eq!(enum_hint("SCOPE_REPO", &json!([1, 2])), None);
    }
}
