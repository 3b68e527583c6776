//! A `.json` file that its family's own tools read with a strict JSON
//! parser (Python's `json.loads`, JavaScript's `JSON.parse`) is checked as
//! strict JSON (RFC 8259) too: YAML, which numi reads it as, also takes
//! comments, trailing commas, leading zeros and unquoted keys, which those
//! tools refuse before they start.

use super::{LineIndex, YamlError};
use crate::diagnostic::Position;
use crate::diagnostic::stages::yaml::JSON_SYNTAX;

/// Whether `path` names a file its tools read as JSON.
pub fn is_json_file(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("json"))
}

/// `Ok` when `text` is one strict JSON text; else the first problem, at
/// the character where a JSON parser stops. `tool` names the reader the
/// message speaks of.
pub fn check(text: &str, tool: &str) -> Result<(), YamlError> {
    match problem(text) {
        None => Ok(()),
        Some((what, position)) => Err(YamlError::new(
            &JSON_SYNTAX,
            format!("{tool} reads a .json file as strict JSON, and this one is not: {what}"),
            Some(position),
        )),
    }
}

/// What first keeps `text` from being one strict JSON text, and where.
pub fn problem(text: &str) -> Option<(String, Position)> {
    // Skipping the value is the cheap test; only a text that fails it is
    // read again into a value, whose error names a trailing comma as one
    // (skipping calls it a key that is no string).
    serde_json::from_str::<serde::de::IgnoredAny>(text).err()?;
    let error = serde_json::from_str::<serde_json::Value>(text).err()?;
    // serde_json counts lines at `\n` alone and columns in bytes, the
    // offending byte included.
    let line_start: usize = text
        .split_inclusive('\n')
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let mut offset = (line_start + error.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let what = error.to_string();
    let what = what
        .rsplit_once(" at line ")
        .map_or(what.as_str(), |(what, _)| what);
    let hint = match text.get(offset..).and_then(|rest| rest.chars().next()) {
        Some('#' | '/') => ": JSON has no comments",
        Some('\u{feff}') => ": a byte-order mark",
        Some('\'') => ": JSON quotes strings with `\"` only",
        _ => "",
    };
    Some((
        format!("{what}{hint}"),
        LineIndex::new(text).position(offset),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> Option<(String, u32, u32)> {
        check(text, "the tool").err().map(|error| {
            let position = error.position.unwrap_or_default();
            (error.message, position.line, position.column)
        })
    }

    #[test]
    fn strict_json_passes() {
        for text in [
            "{}",
            "{\"a\": [1, 2.5, -0, 1e3, true, null, \"x\"]}\n",
            "{\"a\":\t1}",
            "\r\n{\"a\"\r\n:\r\n1}\r\n",
            "{\"big\": 100000000000000000000}",
        ] {
            assert_eq!(problem(text), None, "{text:?}");
        }
    }

    #[test]
    fn what_yaml_takes_and_json_refuses_is_named_where_it_stands() {
        let cases = [
            ("{\"a\": 1,}", "trailing comma", 1, 9),
            ("{\n  \"a\": 01\n}", "invalid number", 2, 9),
            ("# note\n{\"a\": 1}", "JSON has no comments", 1, 1),
            ("{\"a\": 1} // note", "JSON has no comments", 1, 10),
            ("{a: 1}", "key must be a string", 1, 2),
            ("{'a': 1}", "JSON quotes strings", 1, 2),
            ("\u{feff}{\"a\": 1}", "a byte-order mark", 1, 1),
            ("{\"a\": NaN}", "expected value", 1, 7),
            ("{\"é\": 1,}", "trailing comma", 1, 9),
        ];
        for (text, expected, line, column) in cases {
            let (message, at_line, at_column) = problem(text).unwrap_or_default();
            assert!(message.contains(expected), "{text:?}: {message}");
            assert!(
                message.starts_with("the tool reads a .json file"),
                "{message}"
            );
            assert!(!message.contains(" at line "), "{message}");
            assert_eq!((at_line, at_column), (line, column), "{text:?}: {message}");
        }
    }

    #[test]
    fn only_json_names_are_json_files() {
        assert!(is_json_file(std::path::Path::new("run.json")));
        assert!(is_json_file(std::path::Path::new("a/b.JSON")));
        assert!(!is_json_file(std::path::Path::new("run.yaml")));
        assert!(!is_json_file(std::path::Path::new("json")));
    }
}
