#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use serde_json::{Value, json};

use super::*;

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn safe_integers_up_to_2_53_minus_1_are_written_exactly() {
    assert_eq!(
        to_string(&json!([9007199254740991_u64, -9007199254740991_i64, 0])).unwrap(),
        "[9007199254740991,-9007199254740991,0]"
    );
}

#[test]
fn integers_from_2_53_are_refused_with_their_place() {
    for text in [
        "9007199254740992",
        "-9007199254740992",
        "9007199254740993",
        "18446744073709551615",
        "-9223372036854775808",
    ] {
        let refusal = to_string(&parsed(text)).unwrap_err();
        assert_eq!(refusal.pointer, "", "{text}");
        assert!(refusal.message.contains("2^53"), "{refusal}");
    }
    let refusal = to_string(&parsed(r#"{"outer":[0,{"a/b":9007199254740992}]}"#)).unwrap_err();
    assert_eq!(refusal.pointer, "/outer/1/a~1b");
    assert_eq!(
        refusal.to_string(),
        "the number 9007199254740992 has a magnitude of 2^53 or more: canonical JSON reads it as a \
         double it shares with other numbers, so it is refused (at /outer/1/a~1b)"
    );
}

#[test]
fn integral_floats_from_2_53_are_refused_and_smaller_floats_are_not() {
    for text in [
        "1e16",
        "9007199254740992.0",
        "-1e300",
        "1.7976931348623157e308",
    ] {
        assert!(to_string(&parsed(text)).is_err(), "{text}");
    }
    assert_eq!(
        to_string(&parsed("9007199254740991.0")).unwrap(),
        "9007199254740991"
    );
    assert_eq!(to_string(&parsed("1e15")).unwrap(), "1000000000000000");
    assert_eq!(to_string(&parsed("-0.0")).unwrap(), "0");
    assert_eq!(to_string(&parsed("1.23e-05")).unwrap(), "0.0000123");
    assert_eq!(to_string(&parsed("1e-07")).unwrap(), "1e-7");
}

#[test]
fn keys_sort_by_utf16_code_units_not_by_bytes() {
    // U+1F600 is a surrogate pair (0xD83D ...), which sorts before U+FB33
    // in UTF-16 although its UTF-8 bytes sort after.
    let value = json!({"\u{fb33}": 1, "\u{1f600}": 2, "a": 3});
    assert_eq!(
        to_string(&value).unwrap(),
        "{\"a\":3,\"\u{1f600}\":2,\"\u{fb33}\":1}"
    );
}

#[test]
fn the_digest_is_of_the_canonical_text() {
    let value = json!({"b": 1, "a": "x"});
    assert_eq!(
        sha256_hex(&value).unwrap(),
        hex_sha256(br#"{"a":"x","b":1}"#)
    );
    assert_eq!(
        hex_sha256(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert!(sha256_hex(&json!({"a": 9007199254740993_u64})).is_err());
}

/// Below 2^53 an integer's text is that of the double nearest it, so the
/// refusing writer, which writes the value as it stands, writes what the
/// unrestricted one writes after converting every integer to a double.
#[test]
fn safe_integers_are_written_as_their_doubles_are() {
    let value = parsed(
        r#"{"a": [0, -1, 7, 9007199254740991, -9007199254740991, 1.5, -0.25, 1.5e-7],
            "b": {"c": -4503599627370496, "d": 12345678901234}}"#,
    );
    assert_eq!(to_string(&value).unwrap(), unrestricted(&value).unwrap());
    assert_eq!(
        to_string(&parsed(r#"{"n": [9007199254740991, -3, 0]}"#)).unwrap(),
        r#"{"n":[9007199254740991,-3,0]}"#
    );
}

#[test]
fn the_text_is_the_one_serde_json_canonicalizer_writes() {
    let values = [
        json!(null),
        json!([true, false, null, [], {}, [[]], {"": {}}]),
        json!({"b": 1, "a": [1, 2.5, -0.0, 1e-7, 123456789.125, -3, 0.1], "c": {"z": "", "y": null}}),
        json!({"\u{1f600}": 1, "\u{fb33}": 2, "\u{e000}": 3, "a": 4, "é": 5, "aa": 6, "A": 7}),
        json!({"text": "\"quoted\" \\ / \u{0}\u{1}\u{8}\t\n\u{b}\u{c}\r\u{1f}\u{7f}\u{2028}\u{2029} é 😀 דּ"}),
        json!({"k\u{1f}\"ey": "v", "k": 1.0, "kk": 1.5e15, "kkk": 5e-324, "n": 9007199254740991_i64}),
        json!([{"m": [{"n": {"o": [0.30000000000000004, 100.0, 1.5e-300, -4503599627370495.5]}}]}]),
    ];
    for value in values {
        let ours = to_string(&value).unwrap();
        assert_eq!(ours, jcs_text(&value).unwrap(), "{value}");
        assert_eq!(
            sha256_hex(&value).unwrap(),
            hex_sha256(jcs_text(&value).unwrap().as_bytes())
        );
    }
}

#[test]
fn a_number_refused_deep_in_a_value_is_refused_at_its_place_as_before() {
    let value = json!({"a": [1, {"b~/c": [0.5, 9007199254740992_u64]}]});
    let refusal = to_string(&value).unwrap_err();
    assert_eq!(refusal.reason, Reason::UnsafeNumber);
    assert_eq!(refusal.pointer, "/a/1/b~0~1c/1");
    assert_eq!(sha256_hex(&value).unwrap_err(), refusal);
}

#[test]
fn utf16_order_is_byte_order_unless_a_character_lies_beyond_u_ffff() {
    use std::cmp::Ordering::{Greater, Less};
    assert_eq!(utf16_order("a", "b"), Less);
    assert_eq!(utf16_order("é", "z"), Greater);
    assert_eq!(utf16_order("\u{e000}", "\u{ffff}"), Less);
    // U+1F600 is the pair D83D DE00, before U+FB33 and U+E000 in UTF-16,
    // though after them in UTF-8 and by code point.
    assert_eq!(utf16_order("\u{1f600}", "\u{fb33}"), Less);
    assert_eq!(utf16_order("x\u{1f600}", "x\u{e000}"), Less);
    assert_eq!(utf16_order("\u{1f600}", "\u{d7ff}"), Greater);
}

#[test]
fn the_rfc_8785_sample_without_its_unsafe_number_is_written_as_the_rfc_writes_it() {
    let value = parsed(
        r#"{
  "numbers": [333333333.33333329, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}"#,
    );
    assert_eq!(
        to_string(&value).unwrap(),
        "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,4.5,0.002,1e-27],\
         \"string\":\"\u{20ac}$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"
    );
}

#[test]
fn listed_fields_digest_as_the_object_of_them_would() {
    let trial = json!({
        "seed": 7,
        "fixture_digest": "f",
        "cohort": "c",
        "ignored": [1, 2],
        "é": "accent",
        "😀": "astral",
        "\u{fb1d}": "hebrew"
    });
    let fields = [
        "fixture_digest",
        "seed",
        "missing",
        "cohort",
        "😀",
        "\u{fb1d}",
        "é",
    ];
    let built: serde_json::Map<String, Value> = fields
        .iter()
        .map(|field| {
            (
                (*field).to_owned(),
                trial.get(*field).cloned().unwrap_or(Value::Null),
            )
        })
        .collect();
    assert_eq!(
        sha256_hex_of_fields(&trial, &fields).unwrap(),
        sha256_hex(&Value::Object(built)).unwrap()
    );
    assert_ne!(
        sha256_hex_of_fields(&trial, &fields).unwrap(),
        sha256_hex_of_fields(&trial, &fields[..2]).unwrap()
    );
    // A refusal names its place in the object of the fields.
    let unsafe_seed = json!({"seed": {"deep": [9007199254740993_u64]}});
    let refusal = sha256_hex_of_fields(&unsafe_seed, &["seed"]).unwrap_err();
    assert_eq!(refusal.pointer, "/seed/deep/0");
}
