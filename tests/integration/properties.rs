//! Properties of the whole pipeline over generated input (issue 4): any
//! bytes, YAML-shaped documents of every kind with partial and wrong spec
//! shapes, and mutations of the valid examples. None may panic, every answer
//! names a stage numi knows, and an answer without diagnostics is a document
//! of a known kind.
//!
//! proptest's default of 256 cases per property applies; set PROPTEST_CASES
//! for a longer run.

// Test helpers may fail loudly: clippy allows this inside #[test] functions
// but not in the helpers beside them.
#![allow(clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

use numi::report::text::line;
use numi::results::{FileResult, Origin, Status};
use numi::yaml::Limits;
use numi::{Checked, Mode, Stage, validate_bytes};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Map, Number, Value};

const MODES: [Mode; 3] = [
    Mode::Files,
    Mode::Repository {
        enable_alpha: false,
    },
    Mode::Repository { enable_alpha: true },
];

/// Validates `bytes` in every mode and checks what holds for any input.
fn check_any(bytes: &[u8]) -> Vec<Checked> {
    let limits = Limits::default();
    let loaded = numi::yaml::load_bytes(bytes, &limits);
    MODES
        .iter()
        .map(|&mode| {
            let checked = validate_bytes(bytes, mode, &limits);
            assert_eq!(
                checked,
                validate_bytes(bytes, mode, &limits),
                "the same bytes get the same answer"
            );
            if checked.diagnostics.is_empty() {
                assert!(checked.kind.is_some(), "valid without a kind: {checked:?}");
                assert!(loaded.is_ok(), "valid but the YAML does not load");
            }
            if let Err(error) = &loaded {
                assert_eq!(checked.diagnostics.len(), 1, "{checked:?}");
                assert_eq!(
                    checked.diagnostics.first().map(|d| (d.stage(), d.rule.id)),
                    Some((Stage::Yaml, error.problem.id()))
                );
            }
            for diagnostic in &checked.diagnostics {
                assert!(
                    matches!(
                        diagnostic.stage(),
                        Stage::Yaml | Stage::Kind | Stage::Schema | Stage::Rule
                    ),
                    "a stage no document may reach: {diagnostic:?}"
                );
                assert!(diagnostic.rule.id.contains('/'), "{diagnostic:?}");
                let position = diagnostic.position.unwrap_or_default();
                assert!(
                    position.line >= 1 && position.column >= 1,
                    "every diagnostic of a document has a position: {diagnostic:?}"
                );
                assert!(!diagnostic.message.is_empty(), "{diagnostic:?}");
            }
            let origin = match mode {
                Mode::Files => Origin::File,
                Mode::Repository { .. } => Origin::Repo,
            };
            let result = FileResult {
                origin,
                display_name: "doc.yaml".to_owned(),
                path: "doc.yaml".to_owned(),
                read_from: None,
                checked: checked.clone(),
                source: None,
            };
            assert_ne!(result.status(), Status::Error);
            let text = line(&result);
            assert!(!text.contains(['\n', '\r']), "one line: {text:?}");
            checked
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Arbitrary bytes

/// Pieces of YAML and of Numinance documents, so that random bytes reach
/// past the parser now and then.
const TOKENS: &[&str] = &[
    "apiVersion: numinance.dev/v1\n",
    "apiVersion: numinance.dev/v1alpha1\n",
    "kind: EvalSet\n",
    "kind: ContextBundle\n",
    "kind: Playbook\n",
    "kind: AutonomyPolicy\n",
    "metadata: {name: x, scope: SCOPE_REPO}\n",
    "spec:\n",
    "  ",
    "- ",
    ": ",
    "? ",
    ", ",
    "[",
    "]",
    "{",
    "}",
    "&a ",
    "*a",
    "!!str ",
    "!!int ",
    "!x ",
    "!x%0A",
    "%0D%0A",
    "!<tag:x%0A> ",
    "%TAG !e! tag:e%0A\n",
    "---\n",
    "...\n",
    "|\n",
    ">-\n",
    "\"",
    "'",
    "#",
    "\t",
    "\n",
    "\r\n",
    "\u{feff}",
    "\0",
    ".nan",
    "1e400",
    "0x1F",
    "~",
    "name",
    "cases",
    "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242",
    "é",
    "\u{202e}",
];

fn yamlish_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            3 => prop::sample::select(TOKENS).prop_map(|t| t.as_bytes().to_vec()),
            1 => prop::collection::vec(any::<u8>(), 1..8),
            1 => "[a-z]{1,8}".prop_map(String::into_bytes),
        ],
        0..64,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        check_any(&bytes);
    }

    #[test]
    fn yaml_flavoured_bytes_never_panic(bytes in yamlish_bytes()) {
        check_any(&bytes);
    }
}

// ---------------------------------------------------------------------------
// YAML-shaped documents

/// Property names of numi's schemas, and a few it does not know.
const KEYS: &[&str] = &[
    "acceptance",
    "apiVersion",
    "cases",
    "category",
    "caught_by",
    "change_type",
    "count",
    "defect",
    "digest",
    "expect",
    "id",
    "kind",
    "layer",
    "level",
    "max_repair_attempts",
    "max_rework_rate",
    "merged",
    "metadata",
    "min_runs",
    "name",
    "outcome",
    "qualification",
    "risk_class",
    "scope",
    "seeded",
    "severe",
    "sources",
    "spec",
    "stage",
    "staleness",
    "trust",
    "value",
    "verification_failures",
    "version",
    "zero_security_escapes",
    "unknown",
    "",
    "a/b~c",
    "7",
    "true",
    "null",
    "key with spaces",
];

/// Scalar strings worth trying: enumerations, digests, versions, tokens,
/// and text YAML treats specially when it is not quoted.
const STRINGS: &[&str] = &[
    "numinance.dev/v1",
    "numinance.dev/v1alpha1",
    "EvalSet",
    "ContextBundle",
    "Playbook",
    "AutonomyPolicy",
    "SCOPE_REPO",
    "SCOPE_ORG",
    "EVAL_ACCEPTANCE_ACCEPTED",
    "EVAL_ACCEPTANCE_REJECTED",
    "EVAL_CATEGORY_PLANTED_SECURITY_BUG",
    "EVAL_CATEGORY_MIGRATION_HAZARD",
    "TRUST_CLASS_UNTRUSTED_RETRIEVED",
    "TRUST_CLASS_SIGNED_POLICY",
    "RISK_CLASS_LOW",
    "AUTONOMY_LEVEL_PR",
    "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242",
    "sha256:00",
    "1.0.0",
    "1.0",
    "bugfix",
    "lint",
    "security-scan",
    "sql-injection",
    "",
    " ",
    "-",
    "~",
    ".inf",
    "#not a comment",
    "a: b",
    "line\nbreak",
    "tab\there",
    "quote\"and\\backslash",
    "\u{202e}bidi",
    "\u{7f}\u{85}\u{fffe}",
    "café",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => prop::sample::select(STRINGS).prop_map(|s| Value::String(s.to_owned())),
        1 => "[ -~]{0,12}".prop_map(Value::String),
        1 => any::<String>().prop_map(Value::String),
        2 => any::<i64>().prop_map(|n| Value::Number(n.into())),
        1 => (0u64..4).prop_map(|n| Value::Number(n.into())),
        1 => any::<u64>().prop_map(|n| Value::Number(n.into())),
        1 => any::<f64>()
            .prop_filter_map("finite", Number::from_f64)
            .prop_map(Value::Number),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(KEYS).prop_map(str::to_owned),
        1 => "[a-z_]{1,10}",
        1 => any::<String>(),
    ]
}

fn tree() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A document of a kind (or not): right or wrong apiVersion, metadata, and
/// a spec that is a generated tree, a valid example's spec, or an example's
/// spec with parts replaced by generated trees.
fn document() -> impl Strategy<Value = Value> {
    let examples = examples_as_json();
    let kinds = prop::sample::select(vec![
        Some("EvalSet"),
        Some("ContextBundle"),
        Some("Playbook"),
        Some("AutonomyPolicy"),
        Some("Unknown"),
        None,
    ]);
    let versions = prop::sample::select(vec![
        Some("numinance.dev/v1"),
        Some("numinance.dev/v1alpha1"),
        Some("v1"),
        None,
    ]);
    let example = prop::sample::select(examples);
    let edits = prop::collection::vec((any::<Index>(), any::<Index>(), tree(), 0u8..16), 0..4);
    (
        kinds,
        versions,
        example,
        edits,
        tree(),
        prop::bool::weighted(0.75),
        0u8..3,
    )
        .prop_map(
            |(kind, version, example, edits, extra, keep_example, metadata)| {
                let mut document = if keep_example {
                    example
                } else {
                    let mut map = Map::new();
                    if let Some(version) = version {
                        map.insert("apiVersion".into(), version.into());
                    }
                    if let Some(kind) = kind {
                        map.insert("kind".into(), kind.into());
                    }
                    match metadata {
                        0 => {}
                        1 => {
                            map.insert(
                                "metadata".into(),
                                serde_json::json!({"name": "x", "scope": "SCOPE_REPO"}),
                            );
                        }
                        _ => {
                            map.insert("metadata".into(), extra.clone());
                        }
                    }
                    let spec = example.get("spec").cloned().unwrap_or(Value::Null);
                    map.insert("spec".into(), spec);
                    Value::Object(map)
                };
                for (at, child, replacement, how) in edits {
                    edit(&mut document, at, child, replacement, how);
                }
                document
            },
        )
}

/// One edit somewhere in `value`: replace a node, delete a map entry or
/// sequence item, duplicate an item, add an entry (`how` 0 to 3), or change
/// a value for another of its type or reorder a sequence (4 and up).
fn edit(value: &mut Value, at: Index, child: Index, replacement: Value, how: u8) {
    let mut nodes = 0;
    count(value, &mut nodes);
    let target = at.index(nodes.max(1));
    let mut seen = 0;
    let Some(mut node) = nth(value, target, &mut seen) else {
        return;
    };
    if how >= 4 {
        // Down to something that is not a mapping, for a type-preserving edit.
        while let Value::Object(map) = node {
            let len = map.len();
            match map.values_mut().nth(child.index(len.max(1))) {
                Some(inner) => node = inner,
                None => return,
            }
        }
    }
    match (node, how) {
        // Type-preserving edits, which keep the schema happy more often and
        // so reach the semantic rules.
        (Value::String(text), 4..) => *text = STRINGS[child.index(STRINGS.len())].to_owned(),
        (Value::Bool(flag), 4..) => *flag = !*flag,
        (Value::Number(number), 4..) => *number = Number::from(child.index(4)),
        (Value::Array(items), 4..) if items.len() > 1 => {
            let (a, b) = (child.index(items.len()), at.index(items.len()));
            items.swap(a, b);
        }
        (Value::Array(items), 4..) if !items.is_empty() => {
            let copy = items[child.index(items.len())].clone();
            items.push(copy);
        }
        (node, 0) => *node = replacement,
        (Value::Object(map), 1) if !map.is_empty() => {
            let key = map.keys().nth(child.index(map.len())).cloned();
            if let Some(key) = key {
                map.remove(&key);
            }
        }
        (Value::Array(items), 1) if !items.is_empty() => {
            items.remove(child.index(items.len()));
        }
        (Value::Array(items), 2) if !items.is_empty() => {
            let copy = items[child.index(items.len())].clone();
            items.push(copy);
        }
        (Value::Object(map), _) => {
            map.insert(format!("extra{}", child.index(3)), replacement);
        }
        (node, _) => *node = replacement,
    }
}

fn count(value: &Value, nodes: &mut usize) {
    *nodes += 1;
    match value {
        Value::Array(items) => items.iter().for_each(|v| count(v, nodes)),
        Value::Object(map) => map.values().for_each(|v| count(v, nodes)),
        _ => {}
    }
}

fn nth<'v>(value: &'v mut Value, target: usize, seen: &mut usize) -> Option<&'v mut Value> {
    if *seen == target {
        return Some(value);
    }
    *seen += 1;
    match value {
        Value::Array(items) => items.iter_mut().find_map(|v| nth(v, target, seen)),
        Value::Object(map) => map.values_mut().find_map(|v| nth(v, target, seen)),
        _ => None,
    }
}

fn examples_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"))
}

fn example_texts() -> Vec<String> {
    let mut paths: Vec<_> = std::fs::read_dir(examples_dir())
        .expect("examples/")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("an example"))
        .collect()
}

fn examples_as_json() -> Vec<Value> {
    example_texts()
        .iter()
        .map(|text| {
            numi::yaml::load(text, &Limits::default())
                .expect("an example loads")
                .value
        })
        .collect()
}

/// Renders `value` as YAML text: each collection in block or flow style as
/// `styles` says, strings plain when that is safe, else double-quoted.
struct Renderer {
    styles: u64,
}

impl Renderer {
    fn next(&mut self) -> u64 {
        // xorshift64: cheap and deterministic from the generated seed.
        self.styles ^= self.styles << 13;
        self.styles ^= self.styles >> 7;
        self.styles ^= self.styles << 17;
        self.styles
    }

    fn flow(&mut self) -> bool {
        self.next() % 3 == 0
    }

    fn document(&mut self, value: &Value) -> String {
        let mut out = String::new();
        match value {
            Value::Object(map) if !map.is_empty() && !self.flow() => {
                self.block_map(map, 0, &mut out);
            }
            Value::Array(items) if !items.is_empty() && !self.flow() => {
                self.block_seq(items, 0, &mut out);
            }
            other => {
                out.push_str(&self.inline(other));
                out.push('\n');
            }
        }
        out
    }

    fn block_map(&mut self, map: &Map<String, Value>, indent: usize, out: &mut String) {
        for (key, value) in map {
            out.push_str(&" ".repeat(indent));
            out.push_str(&self.string(key));
            out.push(':');
            self.block_value(value, indent, out);
        }
    }

    fn block_seq(&mut self, items: &[Value], indent: usize, out: &mut String) {
        for item in items {
            out.push_str(&" ".repeat(indent));
            out.push('-');
            self.block_value(item, indent, out);
        }
    }

    /// After `key:` or `-`: a scalar or flow collection on the same line, a
    /// block collection on the lines below.
    fn block_value(&mut self, value: &Value, indent: usize, out: &mut String) {
        match value {
            Value::Object(map) if !map.is_empty() && !self.flow() => {
                out.push('\n');
                self.block_map(map, indent + 2, out);
            }
            Value::Array(items) if !items.is_empty() && !self.flow() => {
                out.push('\n');
                self.block_seq(items, indent + 2, out);
            }
            other => {
                out.push(' ');
                out.push_str(&self.inline(other));
                out.push('\n');
            }
        }
    }

    fn inline(&mut self, value: &Value) -> String {
        match value {
            Value::Null => "null".to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                let parts: Vec<String> = items.iter().map(|v| self.inline(v)).collect();
                format!("[{}]", parts.join(", "))
            }
            Value::Object(map) => {
                let parts: Vec<String> = map
                    .iter()
                    .map(|(k, v)| format!("{}: {}", self.string(k), self.inline(v)))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
        }
    }

    fn string(&mut self, text: &str) -> String {
        let safe = !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/'))
            && text.starts_with(|c: char| c.is_ascii_alphabetic())
            && !matches!(
                text,
                "true" | "True" | "TRUE" | "false" | "False" | "FALSE" | "null" | "Null" | "NULL"
            );
        if safe && self.next() % 2 == 0 {
            return text.to_owned();
        }
        let mut quoted = String::from("\"");
        for c in text.chars() {
            match c {
                '"' => quoted.push_str("\\\""),
                '\\' => quoted.push_str("\\\\"),
                ' '..='~' => quoted.push(c),
                c if is_printable(c) && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                    quoted.push(c);
                }
                c if u32::from(c) <= 0xFFFF => {
                    quoted.push_str(&format!("\\u{:04X}", u32::from(c)));
                }
                c => quoted.push_str(&format!("\\U{:08X}", u32::from(c))),
            }
        }
        quoted.push('"');
        quoted
    }
}

/// YAML's c-printable outside ASCII.
fn is_printable(c: char) -> bool {
    matches!(u32::from(c), 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

proptest! {
    /// Any tree, rendered in any mix of block and flow styles, loads back as
    /// itself: numi's YAML stage accepts well-formed YAML and keeps every
    /// value, and the later stages answer without panicking.
    #[test]
    fn generated_trees_load_back_and_never_panic(value in tree(), styles in 1u64..) {
        let text = Renderer { styles }.document(&value);
        let results = check_any(text.as_bytes());
        let loaded = numi::yaml::load(&text, &Limits::default());
        match &value {
            Value::Object(_) => {
                let document = loaded.map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
                prop_assert_eq!(&document.value, &value, "{}", text);
            }
            _ => prop_assert!(loaded.is_err(), "the root is not a mapping:\n{}", text),
        }
        if value.is_object() {
            for checked in &results {
                prop_assert!(checked.diagnostics.iter().all(|d| d.stage() != Stage::Yaml));
            }
        }
    }

    /// Documents of every kind, valid and partial, rendered in any style:
    /// they load, and each answer stops at a known stage.
    #[test]
    fn generated_documents_never_panic(value in document(), styles in 1u64..) {
        let text = Renderer { styles }.document(&value);
        let results = check_any(text.as_bytes());
        if value.is_object() {
            for checked in &results {
                prop_assert!(
                    checked.diagnostics.iter().all(|d| d.stage() != Stage::Yaml),
                    "{:?}\n{}", checked.diagnostics, text
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Mutations of the valid examples

#[derive(Debug, Clone)]
enum Mutation {
    Flip(Index, u8),
    Insert(Index, &'static str),
    Truncate(Index),
    DeleteLine(Index),
    DuplicateLine(Index),
    SwapLines(Index, Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<Index>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip(at, byte)),
        2 => (any::<Index>(), prop::sample::select(TOKENS)).prop_map(|(at, t)| Mutation::Insert(at, t)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
        2 => any::<Index>().prop_map(Mutation::DeleteLine),
        1 => any::<Index>().prop_map(Mutation::DuplicateLine),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let lines = |bytes: &[u8]| -> Vec<Vec<u8>> {
        bytes
            .split_inclusive(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect()
    };
    match mutation {
        Mutation::Flip(at, byte) if !bytes.is_empty() => {
            let at = at.index(bytes.len());
            bytes[at] = *byte;
        }
        Mutation::Insert(at, token) => {
            let at = at.index(bytes.len() + 1);
            bytes.splice(at..at, token.bytes());
        }
        Mutation::Truncate(at) => bytes.truncate(at.index(bytes.len() + 1)),
        Mutation::DeleteLine(at) | Mutation::DuplicateLine(at) if !bytes.is_empty() => {
            let mut all = lines(bytes);
            let at = at.index(all.len());
            if matches!(mutation, Mutation::DeleteLine(_)) {
                all.remove(at);
            } else {
                let copy = all[at].clone();
                all.insert(at, copy);
            }
            *bytes = all.concat();
        }
        Mutation::SwapLines(a, b) if !bytes.is_empty() => {
            let mut all = lines(bytes);
            let (a, b) = (a.index(all.len()), b.index(all.len()));
            all.swap(a, b);
            *bytes = all.concat();
        }
        _ => {}
    }
}

proptest! {
    #[test]
    fn mutated_examples_never_panic(
        example in prop::sample::select(example_texts()),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let mut bytes = example.into_bytes();
        for mutation in &mutations {
            apply(&mut bytes, mutation);
        }
        check_any(&bytes);
    }
}

/// The examples themselves are valid in the modes that admit their kind.
#[test]
fn the_examples_are_valid() {
    for text in example_texts() {
        let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
        assert!(checked.diagnostics.is_empty(), "{checked:?}\n{text}");
    }
}
