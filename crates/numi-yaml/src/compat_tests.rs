//! Where the loader meets YAML 1.2 and JSON at their edges: surrogate pair
//! escapes, the core schema's integers, verbatim core tags and null keys.
//! Each is checked on both paths: the fast path (which either takes a text
//! and loads what saphyr loads, or leaves it to saphyr) and saphyr itself.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

fn pos(line: u32, column: u32) -> Position {
    Position { line, column }
}

/// saphyr's load, never the fast path.
fn saphyr(text: &str) -> Result<Document, YamlError> {
    load_full(text, &Limits::default(), Positions::Record, |builder| {
        builder.finish()
    })
}

/// The fast path's load, when it takes the text.
fn fast_path(text: &str) -> Option<Value> {
    fast::load(text, &Limits::default(), Positions::Record)
        .ok()
        .map(|document| document.value)
}

/// `text` loads to `expected` through saphyr and through [`load`], with or
/// without positions; whether the fast path takes it is `fast`, and when it
/// does it loads the same.
fn loads(text: &str, expected: &Value, fast: bool) {
    match saphyr(text) {
        Ok(document) => assert_eq!(document.value, *expected, "saphyr, {text:?}"),
        Err(error) => panic!("saphyr refuses {text:?}: {error:?}"),
    }
    for positions in [Positions::Record, Positions::Skip] {
        match load_with(text, &Limits::default(), positions) {
            Ok(document) => assert_eq!(document.value, *expected, "{text:?}"),
            Err(error) => panic!("{text:?} should load: {error:?}"),
        }
    }
    assert_eq!(fast_path_disagreement(text), None, "{text:?}");
    match fast_path(text) {
        Some(value) => {
            assert!(fast, "the fast path took {text:?}");
            assert_eq!(value, *expected, "fast path, {text:?}");
        }
        None => assert!(!fast, "the fast path left {text:?} to saphyr"),
    }
}

/// `text` is refused, the same way by saphyr and by [`load`], which the fast
/// path leaves it to.
fn refused(text: &str) -> YamlError {
    assert_eq!(fast_path(text), None, "the fast path took {text:?}");
    let error = match saphyr(text) {
        Ok(document) => panic!("{text:?} should fail, loaded {}", document.value),
        Err(error) => error,
    };
    for positions in [Positions::Record, Positions::Skip] {
        assert_eq!(
            load_with(text, &Limits::default(), positions).err(),
            Some(error.clone()),
            "{text:?}"
        );
    }
    error
}

fn refused_at(text: &str, rule: &str, at: Position) -> YamlError {
    let error = refused(text);
    assert_eq!(
        (error.problem.id(), error.position),
        (rule, Some(at)),
        "{text:?}"
    );
    error
}

// Surrogate pairs in double-quoted scalars.

#[test]
fn a_surrogate_pair_is_its_one_character_in_values_and_keys() {
    // The fast path reads JSON's escapes, a pair among them; the rest of
    // these it leaves to saphyr for other reasons.
    let cases = [
        (r#"a: "\ud83d\ude00""#, json!({"a": "😀"}), true),
        (r#"a: "\uD83D\uDE00""#, json!({"a": "😀"}), true),
        (r#""\ud83d\ude00": 1"#, json!({"😀": 1}), false),
        (
            r#"{"a": "\ud83d\ude00", "\ud83d\ude00": "x"}"#,
            json!({"a": "😀", "😀": "x"}),
            true,
        ),
        (
            "list:\n  - \"a\\ud83d\\ude00b\\ud834\\udd1e\"\n  - {\"k\\ud83d\\ude00\": [\"\\ud83d\\ude00\"]}\n",
            json!({"list": ["a😀b𝄞", {"k😀": ["😀"]}]}),
            true,
        ),
        // An anchor, non-ASCII.
        (
            "a: &x \"\\ud83d\\ude00 é\"\nb: *x\n",
            json!({"a": "😀 é", "b": "😀 é"}),
            false,
        ),
        // Characters beyond ASCII before the escapes: saphyr counts
        // characters, not bytes.
        (
            "é: \"ü\\ud83d\\ude00\"\nb: [\"😀\", \"\\ud83d\\ude00\"]\n",
            json!({"é": "ü😀", "b": ["😀", "😀"]}),
            false,
        ),
        // Folded over lines, as a double-quoted scalar may be.
        (
            "a: \"x \\ud83d\\ude00\n  y\"\n",
            json!({"a": "x 😀 y"}),
            false,
        ),
        // Other escapes beside a pair still mean what they say.
        (
            r#"a: "\t\ud83d\ude00\u00e9\\""#,
            json!({"a": "\t😀é\\"}),
            true,
        ),
        // A tab after a `:`, which saphyr refuses and the loader reads as
        // a space, before and after the pair (found by the fast_path fuzz
        // target: the pair was read as the probe spells it).
        (
            "{\"a\":\t1, \"q\": \"\\udaab\\udeaa\", \"z\":\t2}",
            json!({"a": 1, "q": "\u{baeaa}", "z": 2}),
            false,
        ),
        // A directive of characters wider than a byte, which saphyr counts
        // as more than one, before the pairs.
        (
            "%\u{e9}\u{e9}\u{e9}\u{e9}\n---\nq: \"ab\\ud83d\\ude00\"\nr: \"\\ud83d\\ude00\"\n",
            json!({"q": "ab😀", "r": "😀"}),
            false,
        ),
    ];
    for (text, expected, fast) in cases {
        loads(text, &expected, fast);
    }
}

#[test]
fn surrogate_escapes_outside_double_quotes_are_text() {
    let cases = [
        (r#"a: '\ud83d\ude00'"#, json!({"a": r"\ud83d\ude00"})),
        (r#"a: \ud83d"#, json!({"a": r"\ud83d"})),
        ("a: |\n  \\udc00\n", json!({"a": "\\udc00\n"})),
        ("# \\ud83d\na: 1\n", json!({"a": 1})),
        // An escaped backslash, then text.
        (r#"a: "\\ud83d""#, json!({"a": r"\ud83d"})),
        // Beside a real pair, in the same text.
        (
            "a: '\\ud83d'\nb: \"\\ud83d\\ude00\"\n",
            json!({"a": r"\ud83d", "b": "😀"}),
        ),
    ];
    for (text, expected) in cases {
        let fast = fast_path(text).is_some();
        loads(text, &expected, fast);
    }
}

#[test]
fn after_a_surrogate_pair_positions_are_those_of_the_original_text() {
    let text = "a: {x: \"\\ud83d\\ude00\\ud83d\\ude00\", y: 1}\nb: [\"\\uD83D\\uDE00\", z]\n";
    let document = match saphyr(text) {
        Ok(document) => document,
        Err(error) => panic!("{error:?}"),
    };
    let at = |pointer: &str| document.locate(&parse_pointer(&document.value, pointer));
    let lines = LineIndex::new(text);
    let start = |span: Span| lines.position(span.start());
    assert_eq!(start(at("/a/y").node), pos(1, 39));
    assert_eq!(at("/a/y").key.map(start), Some(pos(1, 36)));
    assert_eq!(start(at("/b/1").node), pos(2, 21));
    assert_eq!(start(at("/b/0").node), pos(2, 5));
    assert_eq!(
        text.get(at("/b/0").node.range()),
        Some("\"\\uD83D\\uDE00\"")
    );
    let error = refused_at(
        "a: {x: \"\\ud83d\\ude00\", x: 1}\n",
        "yaml/duplicate-key",
        pos(1, 24),
    );
    assert_eq!(error.message(), "duplicate key \"x\" at line 1 column 24");
    refused_at("a: [\"\\ud83d\\ude00\", 1,]]\n", "yaml/syntax", pos(1, 24));
}

#[test]
fn a_pair_written_as_an_escape_is_the_key_written_as_its_character() {
    let error = refused_at(
        "\"\\ud83d\\ude00\": 1\n😀: 2\n",
        "yaml/duplicate-key",
        pos(2, 1),
    );
    assert_eq!(error.message(), "duplicate key \"😀\" at line 2 column 1");
}

#[test]
fn a_lone_surrogate_is_a_syntax_error_at_its_escape() {
    let cases = [
        (r#"a: "\ud83d""#, pos(1, 5), r"\ud83d"),
        (r#"a: "x\uDE00y""#, pos(1, 6), r"\uDE00"),
        // A high half followed by another high half, or by text.
        (r#"a: "\ud83d\ud83d""#, pos(1, 5), r"\ud83d"),
        (r#"a: "\ud83dx\ude00""#, pos(1, 5), r"\ud83d"),
        // The two halves of a pair on two lines are two lone halves.
        ("a: \"\\ud83d\\\n  \\ude00\"\n", pos(1, 5), r"\ud83d"),
        // In a key, in flow, after a pair on the same line.
        ("k:\n  \"\\ud800\": 1\n", pos(2, 4), r"\ud800"),
        (
            "a: [\"\\ud83d\\ude00\", \"\\udfff\"]\n",
            pos(1, 22),
            r"\udfff",
        ),
    ];
    for (text, at, escape) in cases {
        let error = refused_at(text, "yaml/syntax", at);
        assert_eq!(
            error.message(),
            format!(
                "found a lone surrogate escape {escape} (half of a UTF-16 pair, not a character) at {at}"
            ),
            "{text:?}"
        );
    }
}

#[test]
fn the_first_problem_in_the_text_is_reported_a_lone_surrogate_or_another() {
    // A duplicate key before the lone half, then after it.
    refused_at(
        "a: 1\na: 2\nb: \"\\ud83d\"\n",
        "yaml/duplicate-key",
        pos(2, 1),
    );
    refused_at("b: \"\\ud83d\"\na: 1\na: 2\n", "yaml/syntax", pos(1, 5));
    // A syntax error before it: saphyr stops there.
    refused_at("a: [1\nb: \"\\ud83d\"\n", "yaml/syntax", pos(2, 2));
}

// The core schema's integers.

#[test]
fn signed_hex_and_octal_are_strings_on_both_paths() {
    for text in ["0x+1F", "0o+17", "0x-1", "0o-7", "0x", "0o", "0o8", "0xG"] {
        loads(&format!("a: {text}\n"), &json!({"a": text}), true);
    }
    loads(
        "a: [0x+1F, 0o+17]\n",
        &json!({"a": ["0x+1F", "0o+17"]}),
        true,
    );
}

#[test]
fn hex_and_octal_integers_still_resolve_on_both_paths() {
    loads(
        "a: 0x1F\nb: 0o17\nc: 0xffffffffffffffff\n",
        &json!({"a": 31, "b": 15, "c": u64::MAX}),
        true,
    );
}

#[test]
fn hex_and_octal_beyond_64_bits_are_numbers_like_a_large_decimal() {
    let decimal = |digits: &str| -> Value { json!(digits.parse::<f64>().unwrap_or(f64::NAN)) };
    let cases = [
        ("0x10000000000000000", decimal("18446744073709551616")),
        ("0xFFFFFFFFFFFFFFFFF", decimal("295147905179352825855")),
        ("0o2000000000000000000000", decimal("18446744073709551616")),
        (
            "0x123456789abcdef0123456789abcdef0123456789",
            decimal("1662864085140938409653700456816428079183289059209"),
        ),
    ];
    for (text, expected) in cases {
        loads(&format!("a: {text}\n"), &json!({"a": expected}), true);
        loads(&format!("a: [{text}]\n"), &json!({"a": [expected]}), true);
    }
}

#[test]
fn hex_and_octal_past_the_float_range_are_too_large() {
    let hex = format!("0x1{}", "0".repeat(256));
    let octal = format!("0o1{}", "0".repeat(342));
    for text in [hex, octal] {
        let error = refused_at(&format!("a: {text}\n"), "yaml/not-json", pos(1, 4));
        assert!(
            error
                .message()
                .ends_with("is a number too large to represent (beyond ±1.8e308)")
        );
    }
    // Just inside the range: the largest float, (2^53 - 1) * 2^971.
    loads(
        &format!("a: 0x{}8{}\n", "f".repeat(13), "0".repeat(242)),
        &json!({"a": f64::MAX}),
        true,
    );
}

// Verbatim core tags.

#[test]
fn a_verbatim_core_tag_is_its_short_form() {
    let cases = [
        ("a: !<tag:yaml.org,2002:str> 1\n", json!({"a": "1"})),
        ("a: !<tag:yaml.org,2002:int> 1\n", json!({"a": 1})),
        ("a: !<tag:yaml.org,2002:float> 1.5\n", json!({"a": 1.5})),
        ("a: !<tag:yaml.org,2002:bool> true\n", json!({"a": true})),
        ("a: !<tag:yaml.org,2002:null> ~\n", json!({"a": null})),
        ("a: !<tag:yaml.org,2002:seq> [1]\n", json!({"a": [1]})),
        (
            "a: !<tag:yaml.org,2002:map> {b: 1}\n",
            json!({"a": {"b": 1}}),
        ),
        ("a: !<tag:yaml.org,2002:seq>\n- 1\n", json!({"a": [1]})),
        ("!<tag:yaml.org,2002:map>\na: 1\n", json!({"a": 1})),
        ("!<tag:yaml.org,2002:str> 1: a\n", json!({"1": "a"})),
        ("{!<tag:yaml.org,2002:int> 2: b}\n", json!({"2": "b"})),
    ];
    for (text, expected) in cases {
        loads(text, &expected, false);
        // Written short, the same value.
        let short = text.replace("!<tag:yaml.org,2002:", "!!").replace('>', "");
        loads(&short, &expected, false);
    }
}

#[test]
fn a_verbatim_core_tag_is_checked_like_its_short_form() {
    let error = refused_at("a: !<tag:yaml.org,2002:int> x\n", "yaml/tag", pos(1, 4));
    assert_eq!(
        error.message(),
        "\"x\" at line 1 column 4 is not a valid !!int"
    );
    let error = refused_at(
        "a: !<tag:yaml.org,2002:binary> AA==\n",
        "yaml/tag",
        pos(1, 4),
    );
    assert_eq!(
        error.message(),
        "unsupported tag !!binary at line 1 column 4"
    );
    let error = refused_at("a: !<tag:yaml.org,2002:map> [1]\n", "yaml/tag", pos(1, 4));
    assert_eq!(error.message(), "unsupported tag !!map at line 1 column 4");
    // Only the core prefix names a core tag, and it needs a name after it.
    refused_at("a: !<tag:yaml.org,2002:> x\n", "yaml/tag", pos(1, 4));
    refused_at("a: !<tag:example.com,2002:str> x\n", "yaml/tag", pos(1, 4));
}

// Null keys.

#[test]
fn a_null_key_is_refused_where_it_stands() {
    let cases = [
        (": 1\n", pos(1, 1)),
        // saphyr puts an empty explicit key where its value starts.
        ("a: 1\n? \n: 2\n", pos(3, 1)),
        ("{: 1}\n", pos(1, 2)),
        ("a: {: 1}\n", pos(1, 5)),
        ("!!null : 1\n", pos(1, 1)),
        ("!<tag:yaml.org,2002:null> : 1\n", pos(1, 1)),
        ("~: 1\n", pos(1, 1)),
        ("a:\n  null: 1\n", pos(2, 3)),
        ("Null: 1\n", pos(1, 1)),
        ("{NULL: 1}\n", pos(1, 2)),
        ("a: [~: 1]\n", pos(1, 5)),
        ("a: &n ~\n*n : 1\n", pos(2, 1)),
    ];
    for (text, at) in cases {
        let error = refused_at(text, "yaml/complex-key", at);
        assert_eq!(
            error.message(),
            format!("a mapping key is null at {at}; quote it if a string is meant"),
            "{text:?}"
        );
    }
}

#[test]
fn a_key_that_is_a_string_is_kept_whatever_it_reads_like() {
    let cases = [
        ("\"~\": 1\n", json!({"~": 1}), false),
        ("\"\": 1\n", json!({"": 1}), false),
        ("'': 1\n", json!({"": 1}), false),
        ("'null': 1\n", json!({"null": 1}), false),
        ("! ~: 1\n", json!({"~": 1}), false),
        ("!!str : 1\n", json!({"": 1}), false),
        (
            "nullable: 1\nnull_x: 2\n",
            json!({"nullable": 1, "null_x": 2}),
            true,
        ),
        ("a: &n \"~\"\n*n : 1\n", json!({"a": "~", "~": 1}), false),
        (
            "a: ~\nb: [~, null]\n",
            json!({"a": null, "b": [null, null]}),
            true,
        ),
    ];
    for (text, expected, fast) in cases {
        loads(text, &expected, fast);
    }
}

#[test]
fn a_syntax_error_near_a_pair_is_reported_as_beside_any_other_text() {
    // A pair is 12 characters, as `xxxxxxxxxxxx` is: the same error, at the
    // same place, whether saphyr's scanner stops before or after the scalar.
    let templates = [
        "a: \"P\" ]\n",
        "a: \"P P\" ]]\n",
        "a: {x: \"P\"\nb: 1\n",
        "a: \"P\": b\n",
        "a: [\"P\"\n",
        "\"P\"\n- a\n",
        "a: \"P\n",
        "a: \"P\"\r\nb: \"P\"\r\n  c: 1\r\n",
    ];
    for template in templates {
        let with_pair = template.replace('P', r"\ud83d\ude00");
        let with_text = template.replace('P', "xxxxxxxxxxxx");
        let expected = refused(&with_text);
        assert_eq!(refused(&with_pair), expected, "{with_pair:?}");
    }
}

#[test]
fn lines_are_counted_as_saphyr_counts_them() {
    refused_at(
        "a: \"\\ud83d\\ude00\"\r\nb: \"\\ud83d\"\r\n",
        "yaml/syntax",
        pos(2, 5),
    );
    loads(
        "a: \"\\ud83d\\ude00\"\r\nb: \"\\ud83d\\ude00\"\r\n",
        &json!({"a": "😀", "b": "😀"}),
        false,
    );
}

// Tabs between a `:` and its value.

#[test]
fn a_tab_after_a_colon_separates_like_a_space() {
    let cases = [
        ("{\"a\":\t1}", json!({"a": 1})),
        (
            "{\"a\":\ttrue, \"b\":\tfalse, \"c\":\tnull, \"d\":\t-2.5e3}",
            json!({"a": true, "b": false, "c": null, "d": -2.5e3}),
        ),
        (
            "{\"a\":\t\t\"x\", \"b\":\t[1,\t2]}",
            json!({"a": "x", "b": [1, 2]}),
        ),
        (
            "{\n\t\"a\":\t{\n\t\t\"b\":\t1\n\t}\n}\n",
            json!({"a": {"b": 1}}),
        ),
        (
            "a:\t1\nb:\tword\nc:\t-x\n",
            json!({"a": 1, "b": "word", "c": "-x"}),
        ),
        ("a: [k:\tv]\n", json!({"a": [{"k": "v"}]})),
        ("s:\n- a:\tb\n", json!({"s": [{"a": "b"}]})),
        ("? x\n:\tvalue\n", json!({"x": "value"})),
        ("a: {b:\tc}\r\nd:\t1\r\n", json!({"a": {"b": "c"}, "d": 1})),
        // Beyond ASCII before the tab: saphyr counts characters.
        ("é:\t1\nü: [x:\ty]\n", json!({"é": 1, "ü": [{"x": "y"}]})),
    ];
    for (text, expected) in cases {
        loads(text, &expected, false);
    }
}

#[test]
fn a_colon_and_a_tab_inside_a_scalar_stay_its_text() {
    let cases = [
        ("{\"a\":\t\"k:\tv\"}", json!({"a": "k:\tv"})),
        ("{\"k:\tv\":\t1}", json!({"k:\tv": 1})),
        ("a:\t'k:\tv'\n", json!({"a": "k:\tv"})),
        ("a: |\n  k:\tv\nb:\t1\n", json!({"a": "k:\tv\n", "b": 1})),
        ("a:\t1 # k:\tv\n", json!({"a": 1})),
        // Two keys that only a tab and a space tell apart.
        (
            "{\"k:\tv\":\t1, \"k: v\":\t2}",
            json!({"k:\tv": 1, "k: v": 2}),
        ),
    ];
    for (text, expected) in cases {
        loads(text, &expected, false);
    }
}

#[test]
fn a_tab_after_a_colon_stands_where_it_was_written() {
    let text = "a:\t1\nb: {c:\t\"d\"}\n";
    let document = match saphyr(text) {
        Ok(document) => document,
        Err(error) => panic!("{error:?}"),
    };
    let lines = LineIndex::new(text);
    let at = |pointer: &str| {
        let node = document
            .locate(&parse_pointer(&document.value, pointer))
            .node;
        (lines.position(node.start()), text.get(node.range()))
    };
    assert_eq!(at("/a"), (pos(1, 4), Some("1")));
    assert_eq!(at("/b/c"), (pos(2, 8), Some("\"d\"")));
}

#[test]
fn a_block_collection_after_a_tab_is_still_refused_at_the_tab() {
    // The tab would indent the collection: YAML indents with spaces only.
    for (text, at) in [
        ("? x\n:\tk: v\n", pos(2, 2)),
        ("? x\n:\t\t- a\n", pos(2, 2)),
        ("a: 1\n? é\n:\tk: v\n", pos(3, 2)),
    ] {
        let error = refused_at(text, "yaml/syntax", at);
        assert_eq!(
            error.message(),
            format!(
                "a tab separates ':' from the block collection after it at {at}; only spaces may indent a block collection"
            )
        );
    }
    // After a space and a tab, or starting with a quote or a property,
    // which saphyr lets through.
    for (text, at) in [
        ("? x\n: \tk: v\n", pos(2, 3)),
        ("? x\n:\t\"k\": v\n", pos(2, 2)),
        ("? x\n:\t&a k: v\n", pos(2, 2)),
        ("? x\n: \t- a\n", pos(2, 3)),
    ] {
        refused_at(text, "yaml/syntax", at);
    }
    // With spaces they are fine, and so is a flow collection after a tab;
    // after a key on the same line, a block collection never is.
    loads("? x\n: k: v\n", &json!({"x": {"k": "v"}}), false);
    loads("? x\n: - a\n", &json!({"x": ["a"]}), false);
    loads(
        "a:\t[1]\nb: \t&x {c: d}\ne:\t!!map\t{f: g}\n",
        &json!({"a": [1], "b": {"c": "d"}, "e": {"f": "g"}}),
        false,
    );
    refused_at("a:\t- b\n", "yaml/syntax", pos(1, 4));
    refused_at("a:\tk: v\n", "yaml/syntax", pos(1, 5));
}

// Characters outside `c-printable`.

#[test]
fn a_c0_control_character_is_refused_wherever_it_stands() {
    let cases = [
        ("{\u{2}\"a\": 1}", pos(1, 2), "U+0002", r"\x02"),
        ("a: b\u{1}c\n", pos(1, 5), "U+0001", r"\x01"),
        ("a:\n  \u{1b}b: 1\n", pos(2, 3), "U+001B", r"\x1B"),
        // Inside quotes too: JSON refuses them in a string as well.
        ("a: \"x\u{1f}\"\n", pos(1, 6), "U+001F", r"\x1F"),
        ("é: 'ü\u{8}'\n", pos(1, 6), "U+0008", r"\x08"),
        ("a: 1 # \u{c}\n", pos(1, 8), "U+000C", r"\x0C"),
        ("a: |\n  \u{b}\n", pos(2, 3), "U+000B", r"\x0B"),
        ("a: 1\rb: \u{e}\n", pos(2, 4), "U+000E", r"\x0E"),
        ("a: \0\n", pos(1, 4), "U+0000", r"\x00"),
    ];
    for (text, at, code, escape) in cases {
        let error = refused_at(text, "yaml/syntax", at);
        assert_eq!(
            error.message(),
            format!(
                "found {code}, a control character YAML does not allow in a document, at {at}; write it as the escape {escape} in a double-quoted string"
            ),
            "{text:?}"
        );
    }
}

#[test]
fn del_c1_controls_and_noncharacters_are_refused_outside_quotes() {
    let cases = [
        (
            "a: x\u{7f}\n",
            pos(1, 5),
            "U+007F, a control character",
            r"\x7F",
        ),
        (
            "é: ü\u{80}\n",
            pos(1, 5),
            "U+0080, a control character",
            r"\x80",
        ),
        (
            "a: \u{9f}\r\n",
            pos(1, 4),
            "U+009F, a control character",
            r"\x9F",
        ),
        (
            "a: 1\rb: \u{fffe}\n",
            pos(2, 4),
            "U+FFFE, a noncharacter",
            r"\uFFFE",
        ),
        (
            "{\"a\":\u{ffff}1}",
            pos(1, 6),
            "U+FFFF, a noncharacter",
            r"\uFFFF",
        ),
        (
            "a: |\n  \u{84}\n",
            pos(2, 3),
            "U+0084, a control character",
            r"\x84",
        ),
        (
            "a: 1 # \u{7f}\n",
            pos(1, 8),
            "U+007F, a control character",
            r"\x7F",
        ),
        // After a quoted scalar that holds one.
        (
            "a: ['\u{7f}', x\u{7f}]\n",
            pos(1, 11),
            "U+007F, a control character",
            r"\x7F",
        ),
    ];
    for (text, at, what, escape) in cases {
        let error = refused_at(text, "yaml/syntax", at);
        assert_eq!(
            error.message(),
            format!(
                "found {what} YAML allows only in a quoted string, at {at}; quote the text, or write it as the escape {escape} in a double-quoted string"
            ),
            "{text:?}"
        );
    }
}

#[test]
fn an_escape_of_such_a_character_and_every_printable_one_load() {
    let cases = [
        (r#"a: "\x02""#, json!({"a": "\u{2}"})),
        (
            r#"{"a": "\u0002\u007f\u0080\ufffe"}"#,
            json!({"a": "\u{2}\u{7f}\u{80}\u{fffe}"}),
        ),
        ("a: \"x\ty\"\n", json!({"a": "x\ty"})),
        ("a: b\u{85}c\n", json!({"a": "b\u{85}c"})),
        (
            "a: \u{a0}x \u{fffd} \u{1F600}\n",
            json!({"a": "\u{a0}x \u{fffd} \u{1F600}"}),
        ),
        // Written as they are in a quoted scalar, as in a JSON string.
        (
            "{\"a\u{80}\": \"x\u{7f}\u{9f}\u{ffff}\"}",
            json!({"a\u{80}": "x\u{7f}\u{9f}\u{ffff}"}),
        ),
        (
            "a: 'ü\u{80}'\nb: \"\u{fffe}\n  \u{7f}\"\n",
            json!({"a": "ü\u{80}", "b": "\u{fffe} \u{7f}"}),
        ),
    ];
    for (text, expected) in cases {
        let fast = fast_path(text).is_some();
        loads(text, &expected, fast);
    }
}

#[test]
fn the_first_problem_in_the_text_is_reported_such_a_character_or_another() {
    refused_at("a: [1\nb: \u{2}\n", "yaml/syntax", pos(2, 2));
    refused_at("a: 1\na: 2\nb: \u{2}\n", "yaml/duplicate-key", pos(2, 1));
    refused_at("b: \u{2}\na: 1\na: 2\n", "yaml/syntax", pos(1, 4));
    refused_at("a: \u{2}\nb: [1\n", "yaml/syntax", pos(1, 4));
}

// Indicators that cannot start a plain scalar.

#[test]
fn a_block_scalar_indicator_cannot_start_a_plain_scalar_in_flow() {
    for (text, at, indicator) in [
        ("{a: |}\n", pos(1, 5), '|'),
        ("{a: >}\n", pos(1, 5), '>'),
        ("a: [x, >y]\n", pos(1, 8), '>'),
        ("a: [x, |-]\n", pos(1, 8), '|'),
        ("{|: a}\n", pos(1, 2), '|'),
        ("a: {b: !!str |}\n", pos(1, 8), '|'),
    ] {
        let error = refused_at(text, "yaml/syntax", at);
        assert_eq!(
            error.message(),
            format!(
                "a plain scalar cannot start with '{indicator}', a block scalar indicator, at {at}; quote the text"
            ),
            "{text:?}"
        );
    }
}

#[test]
fn a_block_scalar_indicator_quoted_inside_or_in_block_context_is_fine() {
    let cases = [
        ("{a: \"|\", b: '>'}\n", json!({"a": "|", "b": ">"})),
        ("a: [x|y, x>y, x |]\n", json!({"a": ["x|y", "x>y", "x |"]})),
        (
            "a: |\n  text\nb: >\n  more\n",
            json!({"a": "text\n", "b": "more\n"}),
        ),
        ("{\"a\": \"|\"}", json!({"a": "|"})),
    ];
    for (text, expected) in cases {
        let fast = fast_path(text).is_some();
        loads(text, &expected, fast);
    }
}

// JSON, whatever white space it is written with.

#[test]
fn the_json_oracle_catches_a_difference_and_passes_what_json_reads_alike() {
    assert_eq!(json_disagreement("{\"a\":\t1, \"b\": [-0, 1.0]}"), None);
    // Not a JSON object, or a key twice: nothing to compare.
    assert_eq!(json_disagreement("[1]"), None);
    assert_eq!(json_disagreement("{\"a\": 1, \"a\": 2}"), None);
    assert_eq!(json_disagreement("{a: 1}"), None);
    // A C0 control in a string JSON refuses too: nothing to compare.
    assert_eq!(json_disagreement("{\"a\": \"x\u{2}\"}"), None);
    assert!(!same_json(&json!({"a": [1, 2]}), &json!({"a": [1]})));
    assert!(!same_json(&json!({"a": 1}), &json!({"a": "1"})));
    assert!(same_json(&json!({"a": 0}), &json!({"a": -0.0})));
}

/// A JSON value whose strings hold what matters to YAML.
fn json_value() -> impl Strategy<Value = Value> {
    let string = r#"[a-z:#|>'"\\\t \u{e9}-]{0,5}"#;
    let atom = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(Value::from),
        prop::sample::select(vec![0.5, -2.5e3, 1e16, 0.1]).prop_map(Value::from),
        string.prop_map(Value::String),
    ];
    atom.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(string, inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// `value` written as JSON with `spaces` (cycled) wherever JSON allows
/// white space.
fn render_spaced(value: &Value, spaces: &mut impl Iterator<Item = &'static str>, out: &mut String) {
    let (open, close, entries): (char, char, Vec<(Option<&String>, &Value)>) = match value {
        Value::Array(items) => ('[', ']', items.iter().map(|item| (None, item)).collect()),
        Value::Object(map) => (
            '{',
            '}',
            map.iter().map(|(key, item)| (Some(key), item)).collect(),
        ),
        atom => return out.push_str(&atom.to_string()),
    };
    out.push(open);
    for (index, (key, item)) in entries.into_iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(spaces.next().unwrap_or_default());
        if let Some(key) = key {
            out.push_str(&Value::String(key.clone()).to_string());
            out.push_str(spaces.next().unwrap_or_default());
            out.push(':');
            out.push_str(spaces.next().unwrap_or_default());
        }
        render_spaced(item, spaces, out);
        out.push_str(spaces.next().unwrap_or_default());
    }
    out.push(close);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    /// Tabs, spaces and every line end between JSON's tokens: the text
    /// loads as JSON reads it.
    #[test]
    fn json_loads_as_json_reads_it_whatever_its_white_space(
        entries in prop::collection::btree_map("[a-z]{1,3}", json_value(), 0..5),
        spaces in prop::collection::vec(
            prop::sample::select(vec!["", " ", "\t", "\t\t", " \t", "\n", "\r\n", "\r", "\n\t"]),
            1..16,
        ),
    ) {
        let root = Value::Object(entries.into_iter().collect());
        let mut spaces = spaces.into_iter().cycle();
        let mut text = String::new();
        render_spaced(&root, &mut spaces, &mut text);
        let expected: Value = serde_json::from_str(&text).unwrap_or_default();
        prop_assert_eq!(&expected, &root);
        prop_assert_eq!(json_disagreement(&text), None, "{:?}", text);
    }
}

#[test]
fn a_flow_collection_ends_at_its_bracket_whatever_spaces_follow() {
    // saphyr counts the spaces after a closing bracket at the end of its
    // line into the collection; the fast path does not, and neither must the
    // recorded range.
    for text in ["{}  ", "{} \n", "{a: 1}  ", "{a: [1, 2]  }\t\n", "[{}]  "] {
        assert_eq!(fast_path_disagreement(text), None, "{text:?}");
        let full = load_full(text, &Limits::default(), Positions::Record, |builder| {
            builder.finish_any_root()
        });
        let loaded = load(text, &Limits::default()).map(|document| document.positions.at);
        if let (Ok(_), Ok(at)) = (full, loaded) {
            let end = text.trim_end().len();
            assert_eq!(at, Span::new(0, end), "{text:?}");
        }
    }
}
