//! The loader: the JSON value of block and flow YAML, where each node stands,
//! and every way a file fails to be one YAML document with a mapping root,
//! each with its rule, message and position.

use serde_json::json;

use super::*;

fn pos(line: u32, column: u32) -> Position {
    Position { line, column }
}

/// Loads `text` recording positions, and checks that a load without them
/// gives the same value, or the same error.
fn load_both_ways(text: &str, limits: &Limits) -> Result<Document, YamlError> {
    let recorded = load(text, limits);
    let skipped = load_with(text, limits, Positions::Skip);
    match (&recorded, &skipped) {
        (Ok(recorded), Ok(skipped)) => assert_eq!(recorded.value, skipped.value, "{text:?}"),
        (Err(recorded), Err(skipped)) => assert_eq!(recorded, skipped, "{text:?}"),
        _ => panic!("{text:?} loads one way only: {recorded:?} / {skipped:?}"),
    }
    recorded
}

/// A document loaded with positions, and its text.
struct Loaded {
    document: Document,
    source: String,
}

impl std::ops::Deref for Loaded {
    type Target = Document;

    fn deref(&self) -> &Document {
        &self.document
    }
}

fn load_ok(text: &str) -> Loaded {
    match load_both_ways(text, &Limits::default()) {
        Ok(document) => Loaded {
            document,
            source: text.to_owned(),
        },
        Err(error) => panic!("{text:?} should load: {error:?}"),
    }
}

fn load_err(text: &str) -> YamlError {
    load_err_with(text, &Limits::default())
}

fn load_err_with(text: &str, limits: &Limits) -> YamlError {
    match load_both_ways(text, limits) {
        Ok(document) => panic!("{text:?} should fail, loaded {}", document.value),
        Err(error) => error,
    }
}

fn bytes_err(bytes: &[u8]) -> YamlError {
    match load_bytes(bytes, &Limits::default()) {
        Ok(document) => panic!("{bytes:?} should fail, loaded {}", document.value),
        Err(error) => error,
    }
}

fn error(id: &'static str, message: &str, position: Option<Position>) -> YamlError {
    let problem = Problem::ALL
        .into_iter()
        .find(|problem| problem.id() == id)
        .expect("a problem of this id");
    YamlError::new(problem, message, position)
}

/// Where a pointer leads, as the starts of its node and key.
#[derive(Debug, PartialEq, Eq)]
struct At {
    node: Position,
    key: Option<Position>,
    exists: bool,
}

fn locate(loaded: &Loaded, pointer: &str) -> At {
    let located = loaded.locate(&parse_pointer(&loaded.value, pointer));
    let lines = LineIndex::new(&loaded.source);
    At {
        node: lines.position(located.node.start()),
        key: located.key.map(|key| lines.position(key.start())),
        exists: located.exists,
    }
}

/// The text of the node at `pointer`, and of its key when it has one.
fn written<'t>(loaded: &'t Loaded, pointer: &str) -> (&'t str, Option<&'t str>) {
    let located = loaded.locate(&parse_pointer(&loaded.value, pointer));
    assert!(located.exists, "{pointer} in {:?}", loaded.source);
    let text = |span: Span| loaded.source.get(span.range()).unwrap_or("<outside>");
    (text(located.node), located.key.map(text))
}

/// A node that exists, found at `node` (and its key at `key`).
fn found(node: Position, key: Option<Position>) -> At {
    At {
        node,
        key,
        exists: true,
    }
}

/// A path that does not exist: the nearest existing ancestor stands at `node`.
fn missing(node: Position) -> At {
    At {
        node,
        key: None,
        exists: false,
    }
}

// The JSON value.

const BLOCK: &str = "\
name: core
count: 3
ratio: 0.5
on: true
off: ~
quoted: \"42\"
version: 1.0.0
list:
  - x
  - 2
nested:
  inner:
    deep: [1, {k: v}]
";

#[test]
fn block_yaml_becomes_its_json_value_in_key_order() {
    let document = load_ok(BLOCK);
    assert_eq!(
        document.value,
        json!({
            "name": "core",
            "count": 3,
            "ratio": 0.5,
            "on": true,
            "off": null,
            "quoted": "42",
            "version": "1.0.0",
            "list": ["x", 2],
            "nested": {"inner": {"deep": [1, {"k": "v"}]}},
        })
    );
    let keys: Vec<&str> = document
        .value
        .as_object()
        .expect("a mapping")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "name", "count", "ratio", "on", "off", "quoted", "version", "list", "nested"
        ]
    );
}

#[test]
fn flow_yaml_becomes_its_json_value() {
    let document = load_ok("{a: 1, b: [x, y], c: {d: null, e: 'it''s'}, f: []}");
    assert_eq!(
        document.value,
        json!({"a": 1, "b": ["x", "y"], "c": {"d": null, "e": "it's"}, "f": []})
    );
}

#[test]
fn keys_stay_strings_whatever_they_look_like() {
    let document = load_ok("1: a\ntrue: b\n\"~\": c\n0x10: d\n");
    assert_eq!(
        document.value,
        json!({"1": "a", "true": "b", "~": "c", "0x10": "d"})
    );
}

#[test]
fn aliases_expand_to_copies_of_their_anchor() {
    let document = load_ok("base: &b {x: 1, y: [2]}\ncopy: *b\n");
    assert_eq!(
        document.value,
        json!({"base": {"x": 1, "y": [2]}, "copy": {"x": 1, "y": [2]}})
    );
}

#[test]
fn explicit_document_markers_around_one_document_are_fine() {
    let document = load_ok("---\na: 1\n...\n");
    assert_eq!(document.value, json!({"a": 1}));
}

#[test]
fn core_tags_are_resolved() {
    let document = load_ok("a: !!str 12\nc: !!int 7\nd: !!map {x: 1}\ne: !!seq [1]\n");
    assert_eq!(
        document.value,
        json!({"a": "12", "c": 7, "d": {"x": 1}, "e": [1]})
    );
}

#[test]
fn non_specific_tag_makes_a_plain_string_and_is_allowed_on_collections() {
    let document = load_ok("a: ! 12\nb: ! [1]\n");
    assert_eq!(document.value, json!({"a": "12", "b": [1]}));
}

// Positions in a block-style document.

const POSITIONS: &str = "\
a: 1
b:
  - x
  - y
c:
  d: true
  e: {f: 2}
";

#[test]
fn block_positions_of_the_root_and_of_scalar_values_and_their_keys() {
    let document = load_ok(POSITIONS);
    assert_eq!(locate(&document, ""), found(pos(1, 1), None));
    assert_eq!(locate(&document, "/a"), found(pos(1, 4), Some(pos(1, 1))));
    assert_eq!(locate(&document, "/c/d"), found(pos(6, 6), Some(pos(6, 3))));
    assert_eq!(
        locate(&document, "/c/e/f"),
        found(pos(7, 10), Some(pos(7, 7)))
    );
}

#[test]
fn block_positions_of_collections_and_sequence_items() {
    let document = load_ok(POSITIONS);
    assert_eq!(locate(&document, "/b"), found(pos(3, 3), Some(pos(2, 1))));
    assert_eq!(locate(&document, "/b/0"), found(pos(3, 5), None));
    assert_eq!(locate(&document, "/b/1"), found(pos(4, 5), None));
    assert_eq!(locate(&document, "/c"), found(pos(6, 3), Some(pos(5, 1))));
    assert_eq!(locate(&document, "/c/e"), found(pos(7, 6), Some(pos(7, 3))));
}

#[test]
fn block_missing_paths_point_at_the_collection_that_lacks_them() {
    let document = load_ok(POSITIONS);
    assert_eq!(locate(&document, "/zzz"), missing(pos(1, 1)));
    assert_eq!(locate(&document, "/c/zzz"), missing(pos(6, 3)));
    assert_eq!(locate(&document, "/c/zzz/deeper"), missing(pos(6, 3)));
    assert_eq!(locate(&document, "/b/2"), missing(pos(3, 3)));
    // A step into a scalar does not exist either; the scalar is the nearest.
    assert_eq!(locate(&document, "/a/0"), missing(pos(1, 4)));
}

#[test]
fn block_sequence_at_the_indentation_of_its_key_has_its_items_and_key_placed() {
    let document = load_ok("items:\n- a\n- b\n");
    assert_eq!(locate(&document, "/items/0"), found(pos(2, 3), None));
    assert_eq!(locate(&document, "/items/1"), found(pos(3, 3), None));
    assert_eq!(locate(&document, "/items").key, Some(pos(1, 1)));
    assert_eq!(locate(&document, "/items").node.line, 2);
}

#[test]
fn block_sequence_at_the_indentation_of_its_key_stands_at_its_dash() {
    let document = load_ok("items:\n- a\n- b\n");
    assert_eq!(
        locate(&document, "/items"),
        found(pos(2, 1), Some(pos(1, 1)))
    );
    // A missing item points at the sequence, not at its first item.
    assert_eq!(locate(&document, "/items/5"), missing(pos(2, 1)));
}

#[test]
fn anchored_and_tagged_nodes_stand_at_their_first_property() {
    let document = load_ok("a: &x 1\nb: !!str 2\nc: &y [1]\n");
    assert_eq!(locate(&document, "/a"), found(pos(1, 4), Some(pos(1, 1))));
    assert_eq!(locate(&document, "/b"), found(pos(2, 4), Some(pos(2, 1))));
    assert_eq!(locate(&document, "/c"), found(pos(3, 4), Some(pos(3, 1))));
    assert_eq!(locate(&document, "/c/0"), found(pos(3, 8), None));
}

// Positions in a flow-style document.

const FLOW: &str = "{a: 1, b: [x, y]}";

#[test]
fn flow_positions_of_values_and_keys() {
    let document = load_ok(FLOW);
    assert_eq!(locate(&document, ""), found(pos(1, 1), None));
    assert_eq!(locate(&document, "/a"), found(pos(1, 5), Some(pos(1, 2))));
    assert_eq!(locate(&document, "/b"), found(pos(1, 11), Some(pos(1, 8))));
    assert_eq!(locate(&document, "/b/0"), found(pos(1, 12), None));
    assert_eq!(locate(&document, "/b/1"), found(pos(1, 15), None));
}

#[test]
fn flow_missing_paths_point_at_the_collection_that_lacks_them() {
    let document = load_ok(FLOW);
    assert_eq!(locate(&document, "/c"), missing(pos(1, 1)));
    assert_eq!(locate(&document, "/b/2"), missing(pos(1, 11)));
}

#[test]
fn flow_mapping_spread_over_lines() {
    let document = load_ok("spec: {a: 1,\n  b: 2}\n");
    assert_eq!(
        locate(&document, "/spec/b"),
        found(pos(2, 6), Some(pos(2, 3)))
    );
}

#[test]
fn columns_count_characters_not_bytes() {
    // "é" is two bytes in UTF-8 but one column.
    let document = load_ok("{é: 1, b: 2}");
    assert_eq!(locate(&document, "/b"), found(pos(1, 11), Some(pos(1, 8))));
}

#[test]
fn quoted_scalars_stand_at_their_opening_quote() {
    let document = load_ok("a: \"x\"\nb: 'y'\n");
    assert_eq!(locate(&document, "/a"), found(pos(1, 4), Some(pos(1, 1))));
    assert_eq!(locate(&document, "/b"), found(pos(2, 4), Some(pos(2, 1))));
}

#[test]
fn keys_with_escaped_pointer_characters_are_found() {
    let document = load_ok("\"a/b\": {\"c~d\": 1}\n");
    assert_eq!(
        locate(&document, "/a~1b/c~0d"),
        found(pos(1, 16), Some(pos(1, 9)))
    );
}

#[test]
fn an_alias_and_everything_in_its_copy_stand_where_the_alias_stands() {
    let document = load_ok("base: &b {x: 1, y: [2]}\ncopy: *b\n");
    assert_eq!(
        locate(&document, "/copy"),
        found(pos(2, 7), Some(pos(2, 1)))
    );
    assert_eq!(
        locate(&document, "/copy/x"),
        found(pos(2, 7), Some(pos(2, 7)))
    );
    assert_eq!(locate(&document, "/copy/y/0"), found(pos(2, 7), None));
    // The anchored original keeps its own positions.
    assert_eq!(
        locate(&document, "/base/x"),
        found(pos(1, 14), Some(pos(1, 11)))
    );
}

// The bytes of each node, as saphyr spans them.

#[test]
fn ranges_of_plain_and_quoted_scalars_and_their_keys() {
    let loaded = load_ok("plain: a b  # note\n\"dq\": \"x\\\"y\"\n'sq': 'it''s'\n");
    assert_eq!(written(&loaded, "/plain"), ("a b", Some("plain")));
    assert_eq!(written(&loaded, "/dq"), ("\"x\\\"y\"", Some("\"dq\"")));
    assert_eq!(written(&loaded, "/sq"), ("'it''s'", Some("'sq'")));
}

#[test]
fn ranges_of_multi_line_and_block_scalars() {
    let loaded = load_ok(
        "multi: one\n  two\nlit: |\n  first\n  second\n\nfold: >-\n  folded\nq: \"a\n  b\"\n",
    );
    assert_eq!(written(&loaded, "/multi").0, "one\n  two");
    // From the first line of content to the last, without the line breaks
    // after it.
    assert_eq!(written(&loaded, "/lit").0, "first\n  second");
    assert_eq!(written(&loaded, "/fold").0, "folded");
    assert_eq!(written(&loaded, "/q").0, "\"a\n  b\"");
}

#[test]
fn ranges_of_flow_collections_and_their_items() {
    let loaded = load_ok("m: {name: core, list: [a, [b]], e: {}}\n");
    assert_eq!(
        written(&loaded, "/m"),
        ("{name: core, list: [a, [b]], e: {}}", Some("m"))
    );
    assert_eq!(written(&loaded, "/m/name"), ("core", Some("name")));
    assert_eq!(written(&loaded, "/m/list"), ("[a, [b]]", Some("list")));
    assert_eq!(written(&loaded, "/m/list/1"), ("[b]", None));
    assert_eq!(written(&loaded, "/m/e"), ("{}", Some("e")));
    let spread = load_ok("k: [a,\n  b]\n");
    assert_eq!(written(&spread, "/k").0, "[a,\n  b]");
}

#[test]
fn ranges_of_block_collections_run_from_their_first_to_their_last_token() {
    let loaded = load_ok("spec:\n  a: 1\n  list:\n  - x\n  - 'y'\n# after\nnext: 2\n");
    assert_eq!(written(&loaded, "/spec").0, "a: 1\n  list:\n  - x\n  - 'y'");
    assert_eq!(written(&loaded, "/spec/list").0, "- x\n  - 'y'");
    assert_eq!(written(&loaded, "").0, loaded.source.trim_end());
}

#[test]
fn ranges_of_aliases_and_non_ascii_text_are_bytes() {
    let loaded = load_ok("é: &a [1]\nb: *a\nc: ünï\n");
    assert_eq!(written(&loaded, "/é"), ("&a [1]", Some("é")));
    assert_eq!(written(&loaded, "/b"), ("*a", Some("b")));
    assert_eq!(written(&loaded, "/c"), ("ünï", Some("c")));
}

#[test]
fn ranges_after_a_surrogate_pair_escape_are_in_the_original_text() {
    let loaded = load_ok("a: \"\\ud83d\\ude00\"\nb: after\n");
    assert_eq!(written(&loaded, "/a").0, "\"\\ud83d\\ude00\"");
    assert_eq!(written(&loaded, "/b"), ("after", Some("b")));
}

#[test]
fn every_line_end_gives_the_same_positions() {
    for text in [
        "a: 1\nbé:\n  c: x\n",
        "a: 1\r\nbé:\r\n  c: x\r\n",
        "a: 1\rbé:\r  c: x\r",
    ] {
        let loaded = load_ok(text);
        assert_eq!(
            locate(&loaded, "/bé/c"),
            found(pos(3, 6), Some(pos(3, 3))),
            "{text:?}"
        );
        assert_eq!(written(&loaded, "/bé/c"), ("x", Some("c")), "{text:?}");
    }
}

// yaml/syntax

#[test]
fn syntax_error_for_an_unclosed_flow_sequence_at_the_end_of_the_file() {
    let expected = error(
        "yaml/syntax",
        "while parsing a flow sequence, expected ',' or ']' at line 2 column 1",
        Some(pos(2, 1)),
    );
    assert_eq!(load_err("a: [1, 2\n"), expected);
    assert_eq!(load_err("a: [1, 2"), expected);
}

#[test]
fn syntax_error_for_a_key_inside_an_unclosed_flow_sequence() {
    assert_eq!(
        load_err("a: [1, 2\nb: 3\n"),
        error(
            "yaml/syntax",
            "illegal placement of ':' indicator at line 2 column 2",
            Some(pos(2, 2))
        )
    );
}

#[test]
fn syntax_error_for_a_tab_used_as_indentation() {
    let found = load_err("a:\n\tb: 1\n");
    assert_eq!(found.problem.id(), "yaml/syntax");
    assert_eq!(
        found.message(),
        "tabs disallowed within this context (block indentation) at line 2 column 1"
    );
    assert_eq!(found.position.map(|p| p.line), Some(2));
}

#[test]
fn syntax_error_for_a_tab_used_as_indentation_points_at_the_tab() {
    assert_eq!(load_err("a:\n\tb: 1\n").position, Some(pos(2, 1)));
}

#[test]
fn syntax_error_for_a_mapping_on_the_line_of_a_mapping_value() {
    assert_eq!(
        load_err("a: b: c\n"),
        error(
            "yaml/syntax",
            "mapping values are not allowed in this context at line 1 column 5",
            Some(pos(1, 5))
        )
    );
}

#[test]
fn syntax_error_for_an_unknown_alias() {
    assert_eq!(
        load_err("a: *nowhere\n"),
        error(
            "yaml/syntax",
            "while parsing node, found unknown anchor at line 1 column 4",
            Some(pos(1, 4))
        )
    );
}

#[test]
fn syntax_error_for_a_key_indented_under_a_scalar_value() {
    assert_eq!(
        load_err("a: 1\n b: 2\n"),
        error(
            "yaml/syntax",
            "mapping values are not allowed in this context at line 2 column 3",
            Some(pos(2, 3))
        )
    );
}

// yaml/duplicate-key

#[test]
fn duplicate_key_at_the_top_level() {
    assert_eq!(
        load_err("a: 1\nb: 2\na: 3\n"),
        error(
            "yaml/duplicate-key",
            "duplicate key \"a\" at line 3 column 1",
            Some(pos(3, 1))
        )
    );
}

#[test]
fn duplicate_key_nested_in_a_block_mapping() {
    assert_eq!(
        load_err("spec:\n  cases: []\n  version: 1\n  cases: []\n"),
        error(
            "yaml/duplicate-key",
            "duplicate key \"cases\" at line 4 column 3",
            Some(pos(4, 3))
        )
    );
}

#[test]
fn duplicate_key_nested_in_a_flow_mapping_inside_a_sequence() {
    assert_eq!(
        load_err("list:\n  - {x: 1, x: 2}\n"),
        error(
            "yaml/duplicate-key",
            "duplicate key \"x\" at line 2 column 12",
            Some(pos(2, 12))
        )
    );
}

#[test]
fn duplicate_key_written_once_plain_and_once_quoted() {
    assert_eq!(
        load_err("a: 1\n'a': 2\n"),
        error(
            "yaml/duplicate-key",
            "duplicate key \"a\" at line 2 column 1",
            Some(pos(2, 1))
        )
    );
}

#[test]
fn duplicate_key_message_escapes_the_key() {
    assert_eq!(
        load_err("\"a\\nb\": 1\n\"a\\nb\": 2\n"),
        error(
            "yaml/duplicate-key",
            "duplicate key \"a\\nb\" at line 2 column 1",
            Some(pos(2, 1))
        )
    );
}

#[test]
fn duplicate_key_through_an_alias_to_a_string() {
    assert_eq!(
        load_err("a: &k x\nx: 1\n*k : 2\n"),
        error(
            "yaml/duplicate-key",
            "duplicate key \"x\" at line 3 column 1",
            Some(pos(3, 1))
        )
    );
}

#[test]
fn same_key_in_different_mappings_is_not_a_duplicate() {
    let document = load_ok("a: {x: 1}\nb: {x: 2}\n");
    assert_eq!(document.value, json!({"a": {"x": 1}, "b": {"x": 2}}));
}

// yaml/multiple-documents

#[test]
fn multiple_documents_point_at_the_second_one() {
    assert_eq!(
        load_err("a: 1\n---\nb: 2\n"),
        error(
            "yaml/multiple-documents",
            "a file holds one YAML document; a second one starts at line 2 column 1",
            Some(pos(2, 1))
        )
    );
}

#[test]
fn multiple_documents_even_when_the_second_is_empty() {
    assert_eq!(
        load_err("---\na: 1\n---\n"),
        error(
            "yaml/multiple-documents",
            "a file holds one YAML document; a second one starts at line 3 column 1",
            Some(pos(3, 1))
        )
    );
}

#[test]
fn multiple_documents_after_a_document_end_marker() {
    assert_eq!(
        load_err("a: 1\n...\nb: 2\n"),
        error(
            "yaml/multiple-documents",
            "a file holds one YAML document; a second one starts at line 3 column 1",
            Some(pos(3, 1))
        )
    );
}

// yaml/empty

#[test]
fn empty_file_holds_no_document() {
    assert_eq!(
        load_err(""),
        error(
            "yaml/empty",
            "the file holds no YAML document",
            Some(pos(1, 1))
        )
    );
    assert_eq!(
        bytes_err(b""),
        error(
            "yaml/empty",
            "the file holds no YAML document",
            Some(pos(1, 1))
        )
    );
}

#[test]
fn comments_only_file_holds_no_document() {
    assert_eq!(
        load_err("# nothing here\n\n   # still nothing\n"),
        error(
            "yaml/empty",
            "the file holds no YAML document",
            Some(pos(1, 1))
        )
    );
}

#[test]
fn bare_document_marker_is_an_empty_document() {
    let empty = error("yaml/empty", "the document is empty", Some(pos(2, 1)));
    assert_eq!(load_err("---\n"), empty);
    assert_eq!(load_err("--- \n...\n"), empty);
    assert_eq!(bytes_err(b"---\n"), empty);
}

// yaml/root-not-mapping

#[test]
fn root_not_mapping_for_a_scalar() {
    assert_eq!(
        load_err("42\n"),
        error(
            "yaml/root-not-mapping",
            "the document root is a number, not a mapping",
            Some(pos(1, 1))
        )
    );
    assert_eq!(
        load_err("just text\n"),
        error(
            "yaml/root-not-mapping",
            "the document root is a string, not a mapping",
            Some(pos(1, 1))
        )
    );
}

#[test]
fn root_not_mapping_for_a_sequence() {
    assert_eq!(
        load_err("- a\n- b\n"),
        error(
            "yaml/root-not-mapping",
            "the document root is a sequence, not a mapping",
            Some(pos(1, 1))
        )
    );
    assert_eq!(
        load_err("\n\n  [a, b]\n"),
        error(
            "yaml/root-not-mapping",
            "the document root is a sequence, not a mapping",
            Some(pos(3, 3))
        )
    );
}

// yaml/encoding

#[test]
fn encoding_utf8_byte_order_mark_is_refused_at_the_start() {
    assert_eq!(
        bytes_err(b"\xEF\xBB\xBFa: 1\n"),
        error(
            "yaml/encoding",
            "the file starts with a byte-order mark; save it as UTF-8 without one",
            Some(pos(1, 1))
        )
    );
}

#[test]
fn encoding_utf16_with_a_byte_order_mark_is_refused() {
    let utf16 = error(
        "yaml/encoding",
        "the file is UTF-16; numi reads UTF-8 only",
        Some(pos(1, 1)),
    );
    assert_eq!(bytes_err(b"\xFF\xFEa\0:\0 \x001\0"), utf16, "little-endian");
    assert_eq!(bytes_err(b"\xFE\xFF\0a\0:\0 \x001"), utf16, "big-endian");
}

#[test]
fn encoding_utf16_without_a_byte_order_mark_is_refused() {
    let utf16 = error(
        "yaml/encoding",
        "the file is UTF-16; numi reads UTF-8 only",
        Some(pos(1, 1)),
    );
    assert_eq!(bytes_err(b"a\0:\0 \x001\0"), utf16, "little-endian");
    assert_eq!(bytes_err(b"\0a\0:\0 \x001"), utf16, "big-endian");
}

#[test]
fn encoding_utf32_is_refused() {
    let utf32 = error(
        "yaml/encoding",
        "the file is UTF-32; numi reads UTF-8 only",
        Some(pos(1, 1)),
    );
    assert_eq!(bytes_err(b"\xFF\xFE\0\0a\0\0\0"), utf32, "with a mark");
    assert_eq!(bytes_err(b"a\0\0\0:\0\0\0"), utf32, "without a mark");
}

#[test]
fn encoding_invalid_utf8_names_the_byte_offset() {
    assert_eq!(
        bytes_err(b"a: 1\nb: \xFF\n"),
        error(
            "yaml/encoding",
            "invalid UTF-8 at byte offset 8",
            Some(pos(2, 4))
        )
    );
    // The column counts characters, not bytes.
    assert_eq!(bytes_err(b"k: \xC3\xA9\nx: \xFF").position, Some(pos(2, 4)));
    assert_eq!(bytes_err(b"k: \xC3\xA9\xFF").position, Some(pos(1, 5)));
    // A truncated multi-byte sequence: the offset is where it starts.
    assert_eq!(
        bytes_err(b"name: caf\xC3"),
        error(
            "yaml/encoding",
            "invalid UTF-8 at byte offset 9",
            Some(pos(1, 10))
        )
    );
}

#[test]
fn encoding_byte_order_mark_is_refused_before_any_yaml_is_read() {
    // Even a file that would not parse: the encoding is the first check.
    assert_eq!(bytes_err(b"\xEF\xBB\xBF[").problem.id(), "yaml/encoding");
}

#[test]
fn encoding_valid_utf8_loads_through_the_byte_entry_point() {
    let document = load_bytes("name: café\n".as_bytes(), &Limits::default()).expect("loads");
    assert_eq!(document.value, json!({"name": "café"}));
}

// yaml/tag

#[test]
fn tag_local_on_a_scalar_is_unsupported() {
    assert_eq!(
        load_err("a: !custom x\n"),
        error(
            "yaml/tag",
            "unsupported tag !custom at line 1 column 4",
            Some(pos(1, 4))
        )
    );
}

#[test]
fn tag_core_but_unsupported_on_a_scalar() {
    assert_eq!(
        load_err("a: !!binary aGVsbG8=\n"),
        error(
            "yaml/tag",
            "unsupported tag !!binary at line 1 column 4",
            Some(pos(1, 4))
        )
    );
}

#[test]
fn tag_whose_content_does_not_fit() {
    assert_eq!(
        load_err("a: !!int abc\n"),
        error(
            "yaml/tag",
            "\"abc\" at line 1 column 4 is not a valid !!int",
            Some(pos(1, 4))
        )
    );
}

#[test]
fn tag_on_a_collection_that_is_not_its_core_tag() {
    assert_eq!(
        load_err("a: !!set {x: null}\n"),
        error(
            "yaml/tag",
            "unsupported tag !!set at line 1 column 4",
            Some(pos(1, 4))
        )
    );
    assert_eq!(
        load_err("a: !!map [1]\n"),
        error(
            "yaml/tag",
            "unsupported tag !!map at line 1 column 4",
            Some(pos(1, 4))
        )
    );
    assert_eq!(
        load_err("a: !thing\n  - 1\n"),
        error(
            "yaml/tag",
            "unsupported tag !thing at line 1 column 4",
            Some(pos(1, 4))
        )
    );
}

#[test]
fn tag_from_a_tag_directive_is_named_the_same_on_scalars_and_collections() {
    let directive = "%TAG !e! tag:example.com,2000:\n---\n";
    assert_eq!(
        load_err(&format!("{directive}b: !e!x 12\n")),
        error(
            "yaml/tag",
            "unsupported tag tag:example.com,2000:x at line 3 column 4",
            Some(pos(3, 4))
        )
    );
    assert_eq!(
        load_err(&format!("{directive}b: !e!x [1]\n")),
        error(
            "yaml/tag",
            "unsupported tag tag:example.com,2000:x at line 3 column 4",
            Some(pos(3, 4))
        )
    );
}

#[test]
fn tag_on_a_key_is_checked_like_a_tag_on_a_value() {
    assert_eq!(
        load_err("!custom a: 1\n"),
        error(
            "yaml/tag",
            "unsupported tag !custom at line 1 column 1",
            Some(pos(1, 1))
        )
    );
}

// yaml/not-json

#[test]
fn not_json_for_infinity() {
    assert_eq!(
        load_err("a: .inf\n"),
        error(
            "yaml/not-json",
            "\".inf\" at line 1 column 4 is not a finite number, which JSON cannot hold",
            Some(pos(1, 4))
        )
    );
}

#[test]
fn not_json_for_negative_infinity_and_nan_in_a_sequence() {
    assert_eq!(
        load_err("a: [1, -.Inf]\n"),
        error(
            "yaml/not-json",
            "\"-.Inf\" at line 1 column 8 is not a finite number, which JSON cannot hold",
            Some(pos(1, 8))
        )
    );
    assert_eq!(
        load_err("a:\n  - .NaN\n"),
        error(
            "yaml/not-json",
            "\".NaN\" at line 2 column 5 is not a finite number, which JSON cannot hold",
            Some(pos(2, 5))
        )
    );
}

#[test]
fn not_json_for_a_float_that_overflows() {
    assert_eq!(
        load_err("a: 1e400\n"),
        error(
            "yaml/not-json",
            "\"1e400\" at line 1 column 4 is a number too large to represent (beyond ±1.8e308)",
            Some(pos(1, 4))
        )
    );
}

#[test]
fn not_json_for_an_integer_of_500_digits() {
    let text = format!("a:\n  b: -{}\n", "7".repeat(500));
    let found = load_err(&text);
    assert_eq!(found.problem.id(), "yaml/not-json");
    assert_eq!(found.position, Some(pos(2, 6)));
    assert!(
        found.message().ends_with(
            "\" at line 2 column 6 is a number too large to represent (beyond ±1.8e308)"
        ),
        "{}",
        found.message()
    );
    // The caller decides how much of the number a message shows.
    assert!(found.message().contains(&"7".repeat(500)));
    let shortened =
        found.message_shortening(|text| format!("{}…", text.chars().take(8).collect::<String>()));
    assert_eq!(
        shortened,
        "\"-7777777…\" at line 2 column 6 is a number too large to represent (beyond ±1.8e308)"
    );
}

#[test]
fn quoted_infinity_is_a_string() {
    let document = load_ok("a: '.inf'\n");
    assert_eq!(document.value, json!({"a": ".inf"}));
}

// yaml/complex-key

#[test]
fn complex_key_of_a_sequence_in_block_style() {
    assert_eq!(
        load_err("? [a, b]\n: 1\n"),
        error(
            "yaml/complex-key",
            "a mapping key is not a plain scalar at line 1 column 3",
            Some(pos(1, 3))
        )
    );
}

#[test]
fn complex_key_of_a_mapping_in_flow_style() {
    assert_eq!(
        load_err("a: {{x: 1}: 2}\n"),
        error(
            "yaml/complex-key",
            "a mapping key is not a plain scalar at line 1 column 5",
            Some(pos(1, 5))
        )
    );
}

#[test]
fn complex_key_of_an_alias_to_a_collection() {
    assert_eq!(
        load_err("a: &x [1]\n*x : 2\n"),
        error(
            "yaml/complex-key",
            "a mapping key is not a plain scalar at line 2 column 1",
            Some(pos(2, 1))
        )
    );
}

#[test]
fn an_alias_to_a_string_is_a_valid_key() {
    let document = load_ok("a: &k name\n*k : 2\n");
    assert_eq!(document.value, json!({"a": "name", "name": 2}));
}

#[test]
fn an_alias_to_a_number_is_a_key_like_the_number_written_out() {
    // `1: x` loads as {"1": "x"}; `*n : x` with `&n 1` should do the same.
    let document = load_ok("a: &n 1\n*n : x\n");
    assert_eq!(document.value, json!({"a": 1, "1": "x"}));
}

// yaml/too-deep

#[test]
fn too_deep_boundary_is_the_128th_collection_root_included() {
    let fits = format!("a: {}{}\n", "[".repeat(127), "]".repeat(127));
    let mut value = load_ok(&fits).document.value;
    let mut depth = 1;
    while let Some(inner) = value
        .as_object()
        .and_then(|m| m.get("a"))
        .or_else(|| value.as_array().and_then(|items| items.first()))
        .cloned()
    {
        value = inner;
        depth += 1;
    }
    assert_eq!(depth, 128);

    let over = format!("a: {}{}\n", "[".repeat(128), "]".repeat(128));
    assert_eq!(
        load_err(&over),
        error(
            "yaml/too-deep",
            "collections nest deeper than 128 levels at line 1 column 131",
            Some(pos(1, 131))
        )
    );
}

fn too_deep_at(line: u32, column: u32) -> YamlError {
    error(
        "yaml/too-deep",
        &format!("collections nest deeper than 128 levels at line {line} column {column}"),
        Some(pos(line, column)),
    )
}

#[test]
fn too_deep_for_200_nested_flow_sequences() {
    let text = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert_eq!(load_err(&text), too_deep_at(1, 129));
}

#[test]
fn too_deep_for_10_000_nested_flow_sequences() {
    let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(load_err(&text), too_deep_at(1, 129));
}

#[test]
fn too_deep_for_100_000_unclosed_flow_sequences() {
    let text = "[".repeat(100_000);
    assert_eq!(load_err(&text), too_deep_at(1, 129));
}

#[test]
fn deep_flow_nesting_is_refused_without_a_panic() {
    // Whatever the rule, 10_000 and 100_000 levels are an error, not a crash
    // or a document.
    for depth in [10_000, 100_000] {
        let closed = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let found = load_err(&closed);
        assert!(
            matches!(found.problem.id(), "yaml/too-deep" | "yaml/syntax"),
            "{depth}: {found:?}"
        );
        assert_eq!(found.position.map(|p| p.line), Some(1), "{depth}");
    }
}

#[test]
fn too_deep_for_10_000_and_100_000_nested_flow_mappings() {
    for depth in [10_000, 100_000] {
        let text = format!("a: {}", "{a: ".repeat(depth));
        // The root is level 1; the 128th `{` is level 129, at 4 + 127 * 4.
        assert_eq!(load_err(&text), too_deep_at(1, 512), "{depth}");
    }
}

#[test]
fn too_deep_for_10_000_nested_block_mappings() {
    let mut text = String::new();
    for level in 0..10_000 {
        text.push_str(&" ".repeat(level));
        text.push_str("a:\n");
    }
    assert_eq!(load_err(&text), too_deep_at(129, 129));
}

#[test]
fn too_deep_for_100_000_nested_block_sequences_on_one_line() {
    let text = format!("{}x\n", "- ".repeat(100_000));
    assert_eq!(load_err(&text), too_deep_at(1, 257));
}

#[test]
fn too_deep_for_an_alias_that_would_nest_past_the_limit() {
    let limits = Limits {
        max_depth: 3,
        max_nodes: 1_000,
        ..Limits::default()
    };
    // Root, `a`'s sequence and its inner sequence: three levels, allowed.
    let fits = "a: &x [[1]]\n";
    assert!(load(fits, &limits).is_ok());
    // The alias would put the same two levels under `b`: four in all.
    assert_eq!(
        load_err_with("a: &x [[1]]\nb: {c: *x}\n", &limits),
        error(
            "yaml/too-deep",
            "collections nest deeper than 3 levels at line 2 column 8",
            Some(pos(2, 8))
        )
    );
}

// yaml/too-many-nodes

fn billion_laughs() -> String {
    let mut text = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let (previous, name) = match pair {
            [previous, name] => (previous, name),
            _ => unreachable!("windows of two"),
        };
        let items = vec![format!("*{previous}"); 9].join(", ");
        text.push_str(&format!("{name}: &{name} [{items}]\n"));
    }
    text
}

#[test]
fn too_many_nodes_for_a_billion_laughs_with_the_default_limits() {
    // Each line's sequence holds 9 copies of the line before. The root and
    // lines a to d cost 16_609 nodes with their anchored copies; e's sequence
    // is 66_430 nodes, and keeping its anchored copy would pass 100_000.
    assert_eq!(
        load_err(&billion_laughs()),
        error(
            "yaml/too-many-nodes",
            "the document expands to more than 100000 nodes (aliases included) at line 5 column 4",
            Some(pos(5, 4))
        )
    );
}

// yaml/too-much-text

#[test]
fn too_much_text_for_aliases_of_one_long_string() {
    let limits = Limits {
        max_text_bytes: 1024,
        ..Limits::default()
    };
    let long = "x".repeat(300);
    // The scalar and its anchored copy: 600 bytes, and `a` 1 more.
    let fits = format!("a: &s {long}\n");
    assert!(load(&fits, &limits).is_ok());
    // The first alias brings 901 bytes and `b` 902; the second would pass 1024.
    assert_eq!(
        load_err_with(&format!("a: &s {long}\nb: [*s, *s]\n"), &limits),
        error(
            "yaml/too-much-text",
            "the document expands to more than 1 KiB of text (aliases included) at line 2 column 9",
            Some(pos(2, 9))
        )
    );
}

#[test]
fn too_much_text_with_the_default_limits_for_a_string_bomb() {
    // 1 MiB of text aliased 100 times would be 100 MiB. The scalar, its
    // anchored copy and 61 aliases make 63 MiB and 2 bytes; the 62nd alias
    // would pass 64 MiB and is refused before its copy is made.
    let text = format!(
        "a: &s {}\nb: [{}]\n",
        "x".repeat(1 << 20),
        vec!["*s"; 100].join(", ")
    );
    let found = load_err(&text);
    assert_eq!(found.problem.id(), "yaml/too-much-text");
    assert_eq!(
        found.message(),
        "the document expands to more than 64 MiB of text (aliases included) at line 2 column 249"
    );
}

#[test]
fn an_alias_to_a_string_key_or_a_collection_as_key() {
    let document = load_ok("a: &k name\n*k : x\n");
    assert_eq!(document.value, json!({"a": "name", "name": "x"}));
    assert_eq!(
        load_err("a: &k [1]\n*k : x\n"),
        error(
            "yaml/complex-key",
            "a mapping key is not a plain scalar at line 2 column 1",
            Some(pos(2, 1))
        )
    );
}

#[test]
fn tags_on_keys_that_numi_knows_are_allowed() {
    let document = load_ok("!!str 1: a\n! 2: b\n");
    assert_eq!(document.value, json!({"1": "a", "2": "b"}));
    assert_eq!(
        load_err("!!int x: 1\n"),
        error(
            "yaml/tag",
            "\"x\" at line 1 column 1 is not a valid !!int",
            Some(pos(1, 1))
        )
    );
}

#[test]
fn too_many_nodes_for_a_billion_laughs_with_small_limits() {
    let limits = Limits {
        max_depth: 128,
        max_nodes: 100,
        ..Limits::default()
    };
    // Line a costs 22 nodes (with its anchored copy); b's copies of a are 10
    // nodes each: 22 + 2 + 7 * 10 = 94, and the eighth would reach 104.
    assert_eq!(
        load_err_with(&billion_laughs(), &limits),
        error(
            "yaml/too-many-nodes",
            "the document expands to more than 100 nodes (aliases included) at line 2 column 36",
            Some(pos(2, 36))
        )
    );
}

#[test]
fn too_many_nodes_without_aliases_at_the_node_that_passes_the_limit() {
    let limits = Limits {
        max_depth: 128,
        max_nodes: 10,
        ..Limits::default()
    };
    // Root, key, sequence and 7 items make 10; the eighth item is one too many.
    let fits = "a: [1, 2, 3, 4, 5, 6, 7]\n";
    assert!(load(fits, &limits).is_ok());
    assert_eq!(
        load_err_with("a: [1, 2, 3, 4, 5, 6, 7, 8]\n", &limits),
        error(
            "yaml/too-many-nodes",
            "the document expands to more than 10 nodes (aliases included) at line 1 column 26",
            Some(pos(1, 26))
        )
    );
}

#[test]
fn text_facts_vouch_only_for_printable_one_line_text() {
    let plain = load_ok("a: abc\nb: {c: \"de fgh\"}\nlonger_key: [x]\n");
    assert_eq!(
        plain.text,
        TextFacts {
            printable_one_line: true,
            longest: "longer_key".len(),
            json: false,
        }
    );
    for text in [
        "a: \"line\\nbreak\"\n",
        "a: \"\\u202E\"\n",
        "a: |\n  two\n  lines\n",
        "a: café\n",
        "a: 'single'\n",
    ] {
        assert!(!load_ok(text).text.printable_one_line, "{text:?}");
    }
    assert_eq!(load_ok("a: |\n  two\n  lines\n").text.longest, 10);
}

#[test]
fn a_tab_after_a_plain_scalar_is_pointed_at_itself() {
    let found = load_err("a:\n  b: x\n\tc: 1\n");
    assert_eq!(found.problem.id(), "yaml/syntax");
    assert_eq!(found.position, Some(pos(3, 1)), "{found:?}");
    assert!(
        found.message().ends_with("at line 3 column 1"),
        "{}",
        found.message()
    );
}

/// A root that may be a sequence: a mapping loads as it does anywhere
/// (positions included), a sequence loads too, a scalar does not.
#[test]
fn a_root_that_may_be_a_sequence_loads_a_mapping_as_anywhere() {
    let mapping = "{\n  \"schema_version\": 2,\n  \"trials\": [\n    {\"seed\": 1}\n  ]\n}\n";
    let rooted = |text: &str| {
        load_bytes_rooted(
            text.as_bytes(),
            &Limits::default(),
            Positions::Record,
            Root::MappingOrSequence,
        )
    };
    let anywhere = load_bytes(mapping.as_bytes(), &Limits::default()).unwrap();
    let document = rooted(mapping).unwrap();
    assert_eq!(document.value, anywhere.value);
    let at = |document: &Document| {
        document
            .locate(&parse_pointer(&document.value, "/trials/0/seed"))
            .node
    };
    assert_eq!(at(&document), at(&anywhere));
    assert_eq!(
        rooted("[\n  {\"seed\": 1}\n]\n").unwrap().value,
        json!([{"seed": 1}])
    );
    assert!(rooted("3\n").is_err());
}
