//! What a schema says of its fields to people: the text editors show on a
//! key. Every property carries a `description` of its own (beside a `$ref`
//! where it has one: a `level` in `floors` means something else than the
//! default `level`), and the description of a node with an `enum` gives
//! each value's meaning on a line of its own, `VALUE: meaning`. A line
//! break is all JSON Schema has for it, so a JSON-Schema-aware editor shows
//! the same text, each value on its own line. [`undescribed`] finds where a
//! schema falls short of that.

use serde_json::Value;

use crate::yaml::PathSegment;

/// A property as its schema declares it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Field<'s> {
    /// The property's node as written: a `$ref` with its own description.
    pub written: &'s Value,
    /// What the node says once its `$ref` is followed (`written` without one).
    pub resolved: &'s Value,
    /// What each item is, for an array: its `items`, `$ref` followed.
    pub items: Option<&'s Value>,
    /// Whether the mapping it belongs to requires it.
    pub required: bool,
}

impl<'s> Field<'s> {
    /// The field's descriptions: its own, then its reference's where that is
    /// another node with one.
    pub(crate) fn descriptions(&self) -> Vec<&'s str> {
        let own = self.written.get("description").and_then(Value::as_str);
        let referred = (!std::ptr::eq(self.written, self.resolved))
            .then(|| self.resolved.get("description").and_then(Value::as_str))
            .flatten();
        own.into_iter().chain(referred).collect()
    }

    /// The values the field allows, as the schema lists them.
    pub(crate) fn values(&self) -> &'s [Value] {
        self.resolved
            .get("enum")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// What `value` means, from the field's descriptions; none when the
    /// field has no such value or no description gives its meaning.
    pub(crate) fn meaning(&self, value: &str) -> Option<&'s str> {
        if !self.values().iter().any(|v| v.as_str() == Some(value)) {
            return None;
        }
        self.descriptions()
            .into_iter()
            .find_map(|description| meaning(description, value))
    }
}

/// The property at `path` (its last step a key), `$ref`s followed on the
/// way, an item standing for every item.
pub(crate) fn field_at<'s>(root: &'s Value, path: &[PathSegment]) -> Option<Field<'s>> {
    let (PathSegment::Key(name), parent_path) = path.split_last()? else {
        return None;
    };
    let parent = super::subschema_at(root, parent_path)?;
    let written = parent
        .get("properties")
        .and_then(|properties| properties.get(name))
        .or_else(|| parent.get("additionalProperties").filter(|a| a.is_object()))?;
    let resolved = super::resolve(root, written)?;
    let required = parent
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(name)));
    let items = resolved
        .get("items")
        .and_then(|items| super::resolve(root, items));
    Some(Field {
        written,
        resolved,
        items,
        required,
    })
}

/// The meaning `description` gives `value`: the rest of the line that starts
/// with `VALUE: `.
pub(crate) fn meaning<'d>(description: &'d str, value: &str) -> Option<&'d str> {
    description.lines().find_map(|line| {
        line.strip_prefix(value)
            .and_then(|rest| rest.strip_prefix(": "))
            .map(str::trim)
            .filter(|meaning| !meaning.is_empty())
    })
}

/// The lines of `description` that give no value's meaning: its prose.
pub(crate) fn prose<'d>(description: &'d str, values: &[Value]) -> Vec<&'d str> {
    description
        .lines()
        .filter(|line| {
            !values
                .iter()
                .filter_map(Value::as_str)
                .any(|value| meaning(line, value).is_some())
        })
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect()
}

/// Where `schema` falls short for people, as JSON pointers into it: every
/// property without a description of its own (`/properties/spec`), and
/// every value of an enum whose node's description does not give its
/// meaning (`/$defs/Level/enum/2`). Empty when every key and value is
/// explained.
#[cfg(test)]
pub(crate) fn undescribed(schema: &Value) -> Vec<String> {
    let mut missing = Vec::new();
    walk(schema, &mut String::new(), &mut missing);
    missing
}

#[cfg(test)]
fn walk(node: &Value, pointer: &mut String, missing: &mut Vec<String>) {
    let at = pointer.len();
    match node {
        Value::Object(map) => {
            if let Some(properties) = map.get("properties").and_then(Value::as_object) {
                for (name, property) in properties {
                    if property
                        .get("description")
                        .and_then(Value::as_str)
                        .is_none()
                    {
                        missing.push(format!("{pointer}/properties/{}", escaped(name)));
                    }
                }
            }
            if let Some(values) = map.get("enum").and_then(Value::as_array) {
                let description = map.get("description").and_then(Value::as_str);
                for (index, value) in values.iter().enumerate() {
                    let explained = value
                        .as_str()
                        .is_some_and(|value| description.and_then(|d| meaning(d, value)).is_some());
                    if !explained {
                        missing.push(format!("{pointer}/enum/{index}"));
                    }
                }
            }
            for (key, child) in map {
                pointer.push('/');
                pointer.push_str(&escaped(key));
                walk(child, pointer, missing);
                pointer.truncate(at);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                pointer.push_str(&format!("/{index}"));
                walk(child, pointer, missing);
                pointer.truncate(at);
            }
        }
        _ => {}
    }
}

/// A key as one step of a JSON pointer (RFC 6901).
#[cfg(test)]
fn escaped(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn path(keys: &[&str]) -> Vec<PathSegment> {
        keys.iter()
            .map(|key| match *key {
                "[]" => PathSegment::Index(0),
                key => PathSegment::Key(key.to_owned()),
            })
            .collect()
    }

    /// A small schema with every key and value explained.
    fn explained() -> Value {
        json!({
            "type": "object",
            "properties": {
                "level": {"$ref": "#/$defs/Level", "description": "The default level."},
                "rules": {
                    "type": "array",
                    "description": "Grants.",
                    "items": {"properties": {
                        "level": {"$ref": "#/$defs/Level", "description": "The level granted."}
                    }}
                }
            },
            "required": ["level"],
            "$defs": {"Level": {
                "enum": ["LOW", "HIGH"],
                "description": "The ladder, lowest first:\nLOW: a little.\nHIGH: a lot."
            }}
        })
    }

    #[test]
    fn a_schema_that_explains_every_key_and_value_passes() {
        assert_eq!(undescribed(&explained()), Vec::<String>::new());
    }

    /// The other side: take away one description, or one value's line, and
    /// the walk names what is missing.
    #[test]
    fn a_missing_description_or_value_meaning_is_named() {
        let mut schema = explained();
        if let Some(rule) = schema.pointer_mut("/properties/rules/items/properties/level") {
            rule.as_object_mut().map(|node| node.remove("description"));
        }
        assert_eq!(
            undescribed(&schema),
            ["/properties/rules/items/properties/level"]
        );
        // A description on the reference alone is not the property's own.
        let mut schema = explained();
        if let Some(level) = schema.pointer_mut("/properties/level") {
            *level = json!({"$ref": "#/$defs/Level"});
        }
        assert_eq!(undescribed(&schema), ["/properties/level"]);
        let mut schema = explained();
        if let Some(ladder) = schema.pointer_mut("/$defs/Level/description") {
            *ladder = json!("The ladder:\nLOW: a little.\nHIGH:");
        }
        assert_eq!(undescribed(&schema), ["/$defs/Level/enum/1"]);
        let schema = json!({"properties": {"a/b": {"enum": ["X"]}}});
        assert_eq!(
            undescribed(&schema),
            ["/properties/a~1b", "/properties/a~1b/enum/0"]
        );
    }

    #[test]
    fn a_field_has_its_own_description_first_then_its_references() {
        let schema = explained();
        let Some(rule_level) = field_at(&schema, &path(&["rules", "[]", "level"])) else {
            panic!("rules[].level is a field");
        };
        assert_eq!(
            rule_level.descriptions(),
            [
                "The level granted.",
                "The ladder, lowest first:\nLOW: a little.\nHIGH: a lot."
            ]
        );
        assert!(!rule_level.required);
        assert_eq!(rule_level.meaning("HIGH"), Some("a lot."));
        assert_eq!(rule_level.meaning("MEDIUM"), None);
        let level = field_at(&schema, &path(&["level"]));
        assert!(level.is_some_and(|level| level.required));
        let rules = field_at(&schema, &path(&["rules"]));
        assert_eq!(rules.map(|f| f.descriptions()), Some(vec!["Grants."]));
        assert_eq!(field_at(&schema, &path(&["nope"])), None);
        assert_eq!(field_at(&schema, &path(&["rules", "[]"])), None);
    }

    #[test]
    fn a_description_splits_into_prose_and_the_values_meanings() {
        let ladder = "The ladder, lowest first:\nLOW: a little.\nHIGH: a lot.";
        let values = [json!("LOW"), json!("HIGH")];
        assert_eq!(prose(ladder, &values), ["The ladder, lowest first:"]);
        assert_eq!(meaning(ladder, "LOW"), Some("a little."));
        // A value named inside a sentence is no meaning line.
        assert_eq!(meaning("Caps at LOW: always.", "HIGH"), None);
        assert_eq!(meaning("LOWER: no.", "LOW"), None);
    }
}
