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
