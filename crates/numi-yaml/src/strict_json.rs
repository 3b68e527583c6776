//! A `.json` file that its family's own tools read with a strict JSON
//! parser (Python's `json.loads`, JavaScript's `JSON.parse`) is checked as
//! strict JSON (RFC 8259) too: YAML, which this crate reads it as, also takes
//! comments, trailing commas, leading zeros and unquoted keys, which those
//! tools refuse before they start.

use crate::{LineIndex, Position, Problem, YamlError};

/// A family's JSON reader: who reads its `.json` files, as messages name
/// them, and what it takes beyond RFC 8259.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonReader {
    pub name: &'static str,
    /// Python's `json.loads` takes `NaN`, `Infinity` and `-Infinity` as
    /// numbers (`allow_nan` is on by default); JavaScript's `JSON.parse`
    /// refuses them, so a family read by both does not.
    pub takes_non_finite: bool,
}

/// Whether `path` names a file its tools read as JSON.
pub fn is_json_file(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("json"))
}

/// `Ok` when `text` is one JSON text as `reader` reads it; else the first
/// problem, at the character where its parser stops.
pub fn check(text: &str, reader: JsonReader) -> Result<(), YamlError> {
    match problem_for(text, reader) {
        None => Ok(()),
        Some((what, position)) => Err(YamlError::new(
            Problem::JsonSyntax,
            format!(
                "{} reads a .json file as strict JSON, and this one is not: {what}",
                reader.name
            ),
            Some(position),
        )),
    }
}

/// The offsets of the bytes of the JSON text `bytes` that stand outside
/// its strings (a string's quotes left out too), in one pass: escaped
/// quotes stay inside their string.
pub fn outside_strings(bytes: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut in_string = false;
    let mut escaped = false;
    bytes.iter().enumerate().filter_map(move |(at, &byte)| {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            return None;
        }
        if byte == b'"' {
            in_string = true;
            return None;
        }
        Some((at, byte))
    })
}

/// `text` with each `NaN`, `Infinity` and `-Infinity` outside a string
/// written as a `0` padded with spaces to its length, so every other
/// character stays where it stood; `None` when it holds none.
fn with_non_finite_as_zero(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (at, byte) in outside_strings(bytes) {
        if at < copied || !matches!(byte, b'N' | b'I' | b'-') {
            continue;
        }
        let rest = bytes.get(at..).unwrap_or_default();
        let Some(word) = [&b"-Infinity"[..], b"Infinity", b"NaN"]
            .into_iter()
            .find(|word| rest.starts_with(word))
        else {
            continue;
        };
        out.push_str(text.get(copied..at).unwrap_or_default());
        out.push('0');
        out.extend(std::iter::repeat_n(' ', word.len() - 1));
        copied = at + word.len();
    }
    if copied == 0 {
        return None;
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    Some(out)
}

/// What first keeps `text` from being one JSON text as `reader` reads it,
/// and where.
pub fn problem_for(text: &str, reader: JsonReader) -> Option<(String, Position)> {
    let found = problem(text)?;
    if !reader.takes_non_finite {
        return Some(found);
    }
    match with_non_finite_as_zero(text) {
        Some(finite) => problem(&finite),
        None => Some(found),
    }
}

/// What first keeps `text` from being one strict JSON text, and where.
fn problem(text: &str) -> Option<(String, Position)> {
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

    const STRICT: JsonReader = JsonReader {
        name: "the tool",
        takes_non_finite: false,
    };

    fn problem(text: &str) -> Option<(String, u32, u32)> {
        check(text, STRICT).err().map(|error| {
            let position = error.position.unwrap_or_default();
            (error.message(), position.line, position.column)
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
    fn pythons_json_loads_takes_nan_and_the_infinities() {
        let python = JsonReader {
            name: "Python",
            takes_non_finite: true,
        };
        for text in [
            "{\"a\": NaN}",
            "[Infinity, -Infinity, NaN]",
            "{\"NaN\": \"Infinity\", \"b\": -Infinity}",
        ] {
            assert!(check(text, python).is_ok(), "{text:?}");
            assert!(check(text, STRICT).is_err(), "{text:?}");
        }
        // Nothing else is taken: a misspelling, a constant inside a word,
        // and what Python refuses still fail where they stand.
        for text in [
            "{\"a\": nan}",
            "{\"a\": NaNa}",
            "{\"a\": +Infinity}",
            "[NaN,]",
        ] {
            let error = check(text, python).err();
            assert!(error.is_some(), "{text:?}");
        }
        // Where a strict reader stops for another reason, so does Python.
        let at = |reader| check("[NaN, 01]", reader).err().and_then(|e| e.position);
        assert_eq!(at(python).map(|p| p.column), Some(8));
        // A constant inside a string is text, left as it is.
        assert_eq!(with_non_finite_as_zero("[\"NaN\"]"), None);
        assert_eq!(
            with_non_finite_as_zero("[NaN, -Infinity]").as_deref(),
            Some("[0  , 0        ]")
        );
    }

    #[test]
    fn only_json_names_are_json_files() {
        assert!(is_json_file(std::path::Path::new("run.json")));
        assert!(is_json_file(std::path::Path::new("a/b.JSON")));
        assert!(!is_json_file(std::path::Path::new("run.yaml")));
        assert!(!is_json_file(std::path::Path::new("json")));
    }
}
