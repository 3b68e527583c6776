//! Completion: the properties the mapping at the cursor may still take,
//! the values a field allows (enums and constants: `apiVersion`, `kind`,
//! `EVAL_ACCEPTANCE_…`, each value with its meaning), and the kinds at the
//! `kind:` of a new document.

use lsp_types::{CompletionItem, CompletionItemKind};
use serde_json::Value;

use super::hover::kind_schema;
use super::outline::{self, Step};
use crate::kinds;
use crate::schema::described::{self, Field};

/// The items offered at byte `offset` of `text`.
pub(super) fn complete(text: &str, offset: usize) -> Vec<CompletionItem> {
    let cursor = outline::cursor(text, offset);
    let schema = kind_schema(text);
    if cursor.in_value {
        let Some(key) = cursor.key else {
            return Vec::new();
        };
        if cursor.mapping.is_empty() && key == "kind" {
            return kinds::all()
                .map(|kind| value_item(kind.name, None))
                .collect();
        }
        if cursor.mapping.is_empty() && key == "apiVersion" && schema.is_none() {
            let mut versions: Vec<&str> = kinds::all().filter_map(|k| k.api_version).collect();
            versions.sort_unstable();
            versions.dedup();
            return versions.into_iter().map(|v| value_item(v, None)).collect();
        }
        let mut path = cursor.mapping;
        path.push(Step::Key(key));
        return schema
            .as_ref()
            .and_then(|schema| described::field_at(schema, &outline::segments(&path)))
            .map(|field| values(&field))
            .unwrap_or_default();
    }
    let Some(schema) = schema else {
        if cursor.mapping.is_empty() {
            return ["apiVersion", "kind"]
                .into_iter()
                .filter(|key| !cursor.siblings.iter().any(|s| s == key))
                .map(|key| property_item(key, None))
                .collect();
        }
        return Vec::new();
    };
    let Some(node) = outline::schema_at(&schema, &cursor.mapping) else {
        return Vec::new();
    };
    let Some(properties) = node.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .filter(|(name, _)| {
            cursor.key.as_ref() == Some(*name) || !cursor.siblings.iter().any(|s| s == *name)
        })
        .map(|(name, property)| {
            let description = property.get("description").and_then(Value::as_str);
            property_item(name, description)
        })
        .collect()
}

/// The values a field allows, each with its meaning where a description
/// gives one, else with the field's description.
fn values(field: &Field<'_>) -> Vec<CompletionItem> {
    let description = field.descriptions().first().copied();
    let constant = field.resolved.get("const");
    field
        .values()
        .iter()
        .chain(constant)
        .filter_map(Value::as_str)
        .map(|value| value_item(value, field.meaning(value).or(description)))
        .collect()
}

fn property_item(name: &str, description: Option<&str>) -> CompletionItem {
    CompletionItem {
        label: name.to_owned(),
        kind: Some(CompletionItemKind::PROPERTY),
        detail: description.map(str::to_owned),
        insert_text: Some(format!("{name}: ")),
        ..CompletionItem::default()
    }
}

fn value_item(value: &str, description: Option<&str>) -> CompletionItem {
    CompletionItem {
        label: value.to_owned(),
        kind: Some(CompletionItemKind::ENUM_MEMBER),
        detail: description.map(str::to_owned),
        ..CompletionItem::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str) -> Vec<String> {
        let offset = text.find('|').unwrap_or_default();
        complete(&text.replacen('|', "", 1), offset)
            .into_iter()
            .map(|item| item.label)
            .collect()
    }

    #[test]
    fn properties_the_mapping_lacks_are_offered() {
        let text =
            "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nspec:\n  version: 1.0.0\n  |\n";
        assert_eq!(labels(text), ["cases"]);
        let item = "kind: EvalSet\nspec:\n  cases:\n  - name: a\n    |\n";
        assert_eq!(labels(item), ["outcome", "expect", "category", "seeded"]);
    }

    #[test]
    fn enum_values_are_offered_after_the_key() {
        let text = "kind: EvalSet\nspec:\n  cases:\n  - expect:\n      acceptance: |\n";
        assert_eq!(
            labels(text),
            [
                "EVAL_ACCEPTANCE_ACCEPTED",
                "EVAL_ACCEPTANCE_REJECTED",
                "EVAL_ACCEPTANCE_ABANDONED"
            ]
        );
        assert_eq!(
            labels("kind: EvalSet\napiVersion: |\n"),
            ["numinance.dev/v1alpha1"]
        );
        assert_eq!(
            labels("kind: EvalSet\nspec:\n  version: |\n"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn each_value_offered_carries_its_meaning() {
        let text = "kind: AutonomyPolicy\nspec:\n  floors:\n    - level: |\n";
        let offset = text.find('|').unwrap_or_default();
        let items = complete(&text.replacen('|', "", 1), offset);
        let detail = |label: &str| {
            items
                .iter()
                .find(|item| item.label == label)
                .and_then(|item| item.detail.clone())
        };
        assert_eq!(
            detail("AUTONOMY_LEVEL_OBSERVE").as_deref(),
            Some("the agent watches and reports; it changes nothing.")
        );
        assert_eq!(
            detail("AUTONOMY_LEVEL_PR").as_deref(),
            Some("the agent opens a pull request; a person reviews and merges it.")
        );
        // A constant has no meaning line: the field's description.
        let api = complete("kind: Playbook\napiVersion: \n", 27);
        assert_eq!(api.len(), 1);
        assert!(
            api.first()
                .and_then(|item| item.detail.as_deref())
                .is_some_and(|detail| detail.starts_with("The version of the Numinance API")),
            "{api:?}"
        );
    }

    #[test]
    fn autonomy_levels_and_trust_classes_are_offered() {
        let policy = "kind: AutonomyPolicy\nspec:\n  defaults:\n    level: |\n";
        let levels = labels(policy);
        assert!(
            levels
                .first()
                .is_some_and(|l| l == "AUTONOMY_LEVEL_OBSERVE"),
            "{levels:?}"
        );
        assert!(
            levels.iter().all(|l| l.starts_with("AUTONOMY_LEVEL_")),
            "{levels:?}"
        );
        let bundle = "kind: ContextBundle\nspec:\n  authored_constraints:\n    - trust: |\n";
        let classes = labels(bundle);
        assert!(
            classes.contains(&"TRUST_CLASS_UNTRUSTED_RETRIEVED".to_owned()),
            "{classes:?}"
        );
    }

    #[test]
    fn a_new_document_is_offered_its_kind_and_api_version() {
        assert_eq!(labels("|\n"), ["apiVersion", "kind"]);
        let kinds = labels("kind: |\n");
        assert!(kinds.contains(&"EvalSet".to_owned()), "{kinds:?}");
        assert!(kinds.contains(&"AutonomyPolicy".to_owned()), "{kinds:?}");
    }
}
