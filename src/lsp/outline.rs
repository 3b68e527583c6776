//! Where the cursor stands in a document that may not parse (it is being
//! typed): the path of keys and sequence items read from the indentation of
//! the lines above it, and what the kind's schema says of that path. Lines
//! are those of the one line index, [`LineIndex`]: a line feed, a carriage
//! return or the two together end one, as for the loader and the protocol.

use serde_json::Value;

use crate::yaml::{LineIndex, PathSegment};

/// One step from the root toward the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    Key(String),
    Item,
}

/// What the cursor's line holds at the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Cursor {
    /// The mapping the cursor's line belongs to.
    pub mapping: Vec<Step>,
    /// The key on the cursor's line, if it has one.
    pub key: Option<String>,
    /// Whether the cursor stands in the value after `key:`.
    pub in_value: bool,
    /// The keys the mapping already has (the cursor's own among them).
    pub siblings: Vec<String>,
    /// The scalar after `key:` when the cursor stands in it, quotes and
    /// comment removed; none for an empty value, a flow collection, a block
    /// scalar, an anchor, an alias or a tag.
    pub value: Option<String>,
}

/// A line cut into its indentation, its sequence markers and its content.
struct Line<'a> {
    /// Spaces before the first marker or the content.
    indent: usize,
    /// How many `- ` markers open the line.
    markers: usize,
    /// The column (in characters) where the content starts.
    content_column: usize,
    content: &'a str,
}

/// `line` is one of [`LineIndex::lines`], without its line break.
fn cut(line: &str) -> Line<'_> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let mut rest = line.get(indent..).unwrap_or_default();
    let mut markers = 0;
    let mut column = indent;
    while let Some(after) = rest.strip_prefix('-') {
        if !(after.is_empty() || after.starts_with(' ')) {
            break;
        }
        let trimmed = after.trim_start_matches(' ');
        column += 1 + (after.len() - trimmed.len());
        rest = trimmed;
        markers += 1;
    }
    Line {
        indent,
        markers,
        content_column: column,
        content: rest,
    }
}

/// The key of a `key: value` or `key:` line, quotes removed.
fn key_of(content: &str) -> Option<&str> {
    let end = content.match_indices(':').map(|(at, _)| at).find(|&at| {
        content
            .get(at + 1..)
            .is_none_or(|after| after.is_empty() || after.starts_with([' ', '\t']))
    })?;
    let key = content.get(..end)?.trim();
    let key = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    (!key.is_empty() && !key.starts_with(['#', '{', '['])).then_some(key)
}

fn is_blank(line: &Line<'_>) -> bool {
    line.content.is_empty() || line.content.starts_with('#') || line.content.starts_with("---")
}

/// The cursor at byte `offset` of `text`.
pub(super) fn cursor(text: &str, offset: usize) -> Cursor {
    let line_index = LineIndex::new(text);
    let lines: Vec<&str> = line_index.lines().collect();
    let at = line_index.position(offset);
    let index = usize::try_from(at.line.saturating_sub(1)).unwrap_or_default();
    let current = lines.get(index).copied().unwrap_or_default();
    let before_cursor = usize::try_from(at.column.saturating_sub(1)).unwrap_or_default();
    let line = cut(current);
    let mut mapping_reversed = Vec::new();
    let (column, key, in_value, value) = if is_blank(&line) {
        (before_cursor, None, false, None)
    } else {
        let key = key_of(line.content).map(str::to_owned);
        let at_colon = key.as_ref().and_then(|_| line.content.find(':'));
        let colon = at_colon.map(|at| {
            line.content_column + line.content.get(..at).unwrap_or_default().chars().count()
        });
        let in_value = colon.is_some_and(|colon| before_cursor > colon);
        let value = at_colon
            .filter(|_| in_value)
            .and_then(|at| line.content.get(at + 1..))
            .and_then(scalar_of);
        (line.content_column, key, in_value, value)
    };
    let (mut target, mut inclusive) = (column, false);
    if !is_blank(&line) && line.markers > 0 {
        mapping_reversed.extend(std::iter::repeat_n(Step::Item, line.markers));
        (target, inclusive) = (line.indent, true);
    }
    for above in lines.get(..index).unwrap_or_default().iter().rev() {
        if target == 0 && !inclusive {
            break;
        }
        let above = cut(above);
        if is_blank(&above) {
            continue;
        }
        let k = above.content_column;
        if k < target || (inclusive && k <= target) {
            if let Some(key) = key_of(above.content) {
                mapping_reversed.push(Step::Key(key.to_owned()));
            }
            if above.markers > 0 {
                mapping_reversed.extend(std::iter::repeat_n(Step::Item, above.markers));
                (target, inclusive) = (above.indent, true);
            } else {
                (target, inclusive) = (k, false);
            }
        } else if above.markers > 0
            && (above.indent < target || (inclusive && above.indent <= target))
        {
            mapping_reversed.extend(std::iter::repeat_n(Step::Item, above.markers));
            (target, inclusive) = (above.indent, true);
        }
    }
    mapping_reversed.reverse();
    let siblings = siblings(&lines, index, column);
    Cursor {
        mapping: mapping_reversed,
        key,
        in_value,
        siblings,
        value,
    }
}

/// The scalar a value's text holds (what follows `key:` on its line), quotes
/// and comment removed.
fn scalar_of(text: &str) -> Option<String> {
    let text = text.trim_start_matches([' ', '\t']);
    let quoted = |quote: char| {
        let rest = text.strip_prefix(quote)?;
        rest.find(quote).and_then(|end| rest.get(..end))
    };
    let scalar = match text.chars().next()? {
        '"' => quoted('"')?,
        '\'' => quoted('\'')?,
        '{' | '[' | '|' | '>' | '&' | '*' | '!' | '#' => return None,
        _ => text.split(" #").next().unwrap_or(text).trim_end(),
    };
    (!scalar.is_empty()).then(|| scalar.to_owned())
}

/// The keys at `column` of the mapping around line `index`.
fn siblings(lines: &[&str], index: usize, column: usize) -> Vec<String> {
    let mut keys = Vec::new();
    let mut take = |line: &Line<'_>| {
        if let Some(key) = key_of(line.content) {
            keys.push(key.to_owned());
        }
    };
    for (at, raw) in lines.iter().enumerate().skip(index) {
        let line = cut(raw);
        if is_blank(&line) || line.content_column > column {
            continue;
        }
        if line.content_column < column || (line.markers > 0 && at != index) {
            break;
        }
        take(&line);
    }
    for raw in lines.get(..index).unwrap_or_default().iter().rev() {
        let line = cut(raw);
        if is_blank(&line) || line.content_column > column {
            continue;
        }
        if line.content_column < column {
            break;
        }
        take(&line);
        if line.markers > 0 {
            break;
        }
    }
    keys
}

/// The schema node at `path`, `$ref`s followed: the schema stage's walk,
/// with an item standing for every item.
pub(super) fn schema_at<'s>(root: &'s Value, path: &[Step]) -> Option<&'s Value> {
    crate::schema::subschema_at(root, &segments(path))
}

/// The schema's path for a cursor's path: an item stands for every item.
pub(super) fn segments(path: &[Step]) -> Vec<PathSegment> {
    path.iter()
        .map(|step| match step {
            Step::Key(key) => PathSegment::Key(key.clone()),
            Step::Item => PathSegment::Index(0),
        })
        .collect()
}

/// The kind a document names on its top-level `kind:` line.
pub(super) fn kind_name(text: &str) -> Option<&str> {
    LineIndex::new(text).lines().find_map(|line| {
        let value = line.strip_prefix("kind:")?.trim();
        let value = value.split(" #").next().unwrap_or(value).trim();
        Some(value.trim_matches(['"', '\'']))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, marker: &str) -> Cursor {
        let offset = text.find(marker).unwrap_or_default();
        cursor(&text.replace(marker, ""), offset)
    }

    fn keys(path: &[&str]) -> Vec<Step> {
        path.iter()
            .map(|key| match *key {
                "[]" => Step::Item,
                key => Step::Key(key.to_owned()),
            })
            .collect()
    }

    const EVALSET: &str = "kind: EvalSet\nspec:\n  cases:\n  - name: a\n    outcome:\n      |\n    expect:\n      acceptance: |X\n";

    #[test]
    fn the_path_follows_keys_and_compact_sequence_items() {
        let cursor = at(EVALSET, "|");
        assert_eq!(cursor.mapping, keys(&["spec", "cases", "[]", "outcome"]));
        assert_eq!(cursor.key, None);
        let cursor = at(&EVALSET.replacen('|', "", 1), "|X");
        assert_eq!(cursor.mapping, keys(&["spec", "cases", "[]", "expect"]));
        assert_eq!(cursor.key.as_deref(), Some("acceptance"));
        assert!(cursor.in_value);
    }

    #[test]
    fn the_scalar_under_the_cursor_is_read_without_quotes_or_comment() {
        let value = |line: &str| at(&format!("kind: EvalSet\n{line}\n"), "|").value;
        assert_eq!(
            value("scope: SCOPE_|REPO # wide"),
            Some("SCOPE_REPO".to_owned())
        );
        assert_eq!(
            value("scope: \"SCOPE_|REPO\""),
            Some("SCOPE_REPO".to_owned())
        );
        assert_eq!(value("scope: 'a # |b'"), Some("a # b".to_owned()));
        assert_eq!(value("sco|pe: SCOPE_REPO"), None, "on the key");
        assert_eq!(value("scope: |"), None, "empty");
        assert_eq!(value("metadata: {name: |a}"), None, "a flow mapping");
        assert_eq!(value("scope: *|alias"), None);
    }

    #[test]
    fn a_key_on_an_item_line_belongs_to_the_item() {
        let text = "spec:\n  cases:\n    - na|me: a\n      expect: {}\n";
        let cursor = at(text, "|");
        assert_eq!(cursor.mapping, keys(&["spec", "cases", "[]"]));
        assert_eq!(cursor.key.as_deref(), Some("name"));
        assert!(!cursor.in_value);
        assert_eq!(cursor.siblings, ["name", "expect"]);
    }

    #[test]
    fn siblings_stop_at_the_next_item() {
        let text = "cases:\n- name: a\n  outcome: x\n  |\n- name: b\n  expect: y\n";
        let cursor = at(text, "|");
        assert_eq!(cursor.mapping, keys(&["cases", "[]"]));
        assert_eq!(cursor.siblings, ["outcome", "name"]);
    }

    #[test]
    fn references_are_followed_through_the_schema() {
        let schema = serde_json::json!({
            "properties": {"a": {"$ref": "#/$defs/A"}, "l": {"$ref": "#/$defs/Loop"}},
            "$defs": {"A": {"type": "array", "items": {"properties": {"b": {"const": 1}}}},
                      "Loop": {"$ref": "#/$defs/Loop"}}
        });
        let found = schema_at(&schema, &keys(&["a", "[]", "b"]));
        assert_eq!(found, Some(&serde_json::json!({"const": 1})));
        assert_eq!(schema_at(&schema, &keys(&["a", "c"])), None);
        assert_eq!(schema_at(&schema, &keys(&["l"])), None);
    }

    /// The same document with each line end YAML knows: the same cursor,
    /// key, path and siblings at the same place.
    #[test]
    fn every_line_end_gives_the_same_cursor() {
        let lines = [
            "kind: EvalSet",
            "spec:",
            "  cases:",
            "  - name: a",
            "    outcome: x",
            "    exp|ect: y",
            "  - name: b",
            "",
        ];
        let expected = at(&lines.join("\n"), "|");
        assert_eq!(expected.mapping, keys(&["spec", "cases", "[]"]));
        assert_eq!(expected.key.as_deref(), Some("expect"));
        assert_eq!(expected.siblings, ["expect", "outcome", "name"]);
        for end in ["\r\n", "\r"] {
            let text = lines.join(end);
            assert_eq!(at(&text, "|"), expected, "{end:?}");
            assert_eq!(kind_name(&text), Some("EvalSet"), "{end:?}");
        }
        // In the value, after the colon, on a line that ends with a CR.
        let text = lines.join("\r").replace("exp|ect: y", "expect: |y");
        let in_value = at(&text, "|");
        assert!(in_value.in_value && in_value.key.as_deref() == Some("expect"));
    }

    #[test]
    fn the_kind_is_read_from_its_line() {
        assert_eq!(
            kind_name("apiVersion: x\nkind: \"EvalSet\" # alpha\n"),
            Some("EvalSet")
        );
        assert_eq!(kind_name("spec:\n  kind: nested\n"), None);
    }
}
