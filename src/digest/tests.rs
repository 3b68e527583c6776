#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use serde_json::{Number, Value, json};

use super::*;

/// The JCS text of a JSON text, before canonical JSON's refusals: the RFC's
/// own samples hold numbers (`1E30`) that `numi digest` refuses.
fn canonical_of_json(text: &str) -> String {
    let value: Value = serde_json::from_str(text).unwrap();
    crate::canonical::unrestricted(&value).unwrap()
}

fn canonical_of_yaml(text: &str) -> String {
    let document = yaml::load(text, &Limits::default()).unwrap();
    crate::canonical::unrestricted(&document.value).unwrap()
}

#[test]
fn sha256_matches_the_fips_180_vectors() {
    assert_eq!(
        sha256(b""),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256(b"abc"),
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn sha256_is_the_digest_format_the_kinds_check() {
    let digest = sha256(b"numi");
    let hex = digest.strip_prefix("sha256:").unwrap();
    assert_eq!(hex.len(), 64);
    assert!(
        hex.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    );
}

/// RFC 8785 section 3.2.2: the sample input and its canonical form.
const RFC_8785_SAMPLE: &str = r#"{
  "numbers": [333333333.33333329, 1E30, 4.50,
              2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}"#;
const RFC_8785_SAMPLE_CANONICAL: &str = "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],\"string\":\"\u{20ac}$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";

/// RFC 8785 section 3.2.4: the UTF-8 bytes of the canonical sample.
const RFC_8785_SAMPLE_BYTES: &str = "\
    7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72 \
    75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a \
    5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31 \
    65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37 \
    5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30 \
    30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d";

#[test]
fn rfc_8785_sample_from_json() {
    assert_eq!(
        canonical_of_json(RFC_8785_SAMPLE),
        RFC_8785_SAMPLE_CANONICAL
    );
}

#[test]
fn rfc_8785_sample_through_numis_yaml_loader() {
    assert_eq!(
        canonical_of_yaml(RFC_8785_SAMPLE),
        RFC_8785_SAMPLE_CANONICAL
    );
}

#[test]
fn rfc_8785_sample_bytes() {
    let expected: Vec<u8> = RFC_8785_SAMPLE_BYTES
        .split_whitespace()
        .map(|hex| u8::from_str_radix(hex, 16).unwrap())
        .collect();
    assert_eq!(canonical_of_yaml(RFC_8785_SAMPLE).into_bytes(), expected);
}

/// RFC 8785 section 3.2.3: properties sorted by their UTF-16 code units.
#[test]
fn rfc_8785_property_sorting() {
    let input = r#"{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}"#;
    let expected = "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\
                    \"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\
                    \"\u{1f600}\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}";
    assert_eq!(canonical_of_json(input), expected);
}

/// RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text.
const RFC_8785_NUMBERS: [(u64, &str); 25] = [
    (0x0000000000000000, "0"),
    (0x8000000000000000, "0"),
    (0x0000000000000001, "5e-324"),
    (0x8000000000000001, "-5e-324"),
    (0x7fefffffffffffff, "1.7976931348623157e+308"),
    (0xffefffffffffffff, "-1.7976931348623157e+308"),
    (0x4340000000000000, "9007199254740992"),
    (0xc340000000000000, "-9007199254740992"),
    (0x4430000000000000, "295147905179352830000"),
    (0x44b52d02c7e14af5, "9.999999999999997e+22"),
    (0x44b52d02c7e14af6, "1e+23"),
    (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
    (0x444b1ae4d6e2ef4e, "999999999999999700000"),
    (0x444b1ae4d6e2ef4f, "999999999999999900000"),
    (0x444b1ae4d6e2ef50, "1e+21"),
    (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
    (0x3eb0c6f7a0b5ed8d, "0.000001"),
    (0x41b3de4355555553, "333333333.3333332"),
    (0x41b3de4355555554, "333333333.33333325"),
    (0x41b3de4355555555, "333333333.3333333"),
    (0x41b3de4355555556, "333333333.3333334"),
    (0x41b3de4355555557, "333333333.33333343"),
    (0xbecbf647612f3696, "-0.0000033333333333333333"),
    (0x43143ff3c1cb0959, "1424953923781206.2"),
    (0x3ff0000000000000, "1"),
];

#[test]
fn rfc_8785_number_table() {
    for (bits, expected) in RFC_8785_NUMBERS {
        let number = Value::Number(Number::from_f64(f64::from_bits(bits)).unwrap());
        assert_eq!(
            crate::canonical::unrestricted(&number).unwrap(),
            expected,
            "bits {bits:016x}"
        );
    }
}

#[test]
fn canonical_json_refuses_the_numbers_of_the_table_from_2_53_on() {
    for (bits, expected) in RFC_8785_NUMBERS {
        let double = f64::from_bits(bits);
        let number = Value::Number(Number::from_f64(double).unwrap());
        if double.abs() < 9_007_199_254_740_992.0 {
            assert_eq!(canonical_json(&number).unwrap(), expected);
        } else {
            let error = canonical_json(&number).unwrap_err();
            assert!(matches!(error, CanonicalError::Refused(_)), "{expected}");
        }
    }
}

#[test]
fn rfc_8785_number_table_read_back_from_text() {
    // Each canonical text, loaded as YAML, canonicalises to itself.
    for (_, expected) in RFC_8785_NUMBERS {
        let value: f64 = expected.parse().unwrap();
        if value.abs() >= 9_007_199_254_740_992.0 {
            continue;
        }
        let document = yaml::load(&format!("n: {expected}"), &Limits::default()).unwrap();
        assert_eq!(
            canonical_json(&document.value).unwrap(),
            format!("{{\"n\":{expected}}}")
        );
    }
}

#[test]
fn integers_are_read_as_doubles_and_those_without_a_double_of_their_own_refused() {
    assert_eq!(canonical_json(&json!([20, -3, 0])).unwrap(), "[20,-3,0]");
    // 2^53 + 1 has no double of its own: JCS would write 2^53, and two
    // documents would share one digest.
    for unsafe_number in [json!(9007199254740993_u64), json!(u64::MAX)] {
        let error = canonical_json(&unsafe_number).unwrap_err();
        assert!(
            error.to_string().starts_with("canonical json: the number"),
            "{error}"
        );
    }
}

#[test]
fn documents_that_differ_only_past_2_53_get_no_digest_rather_than_one_digest() {
    let limits = Limits::default();
    for text in [
        "{\"a\": 9007199254740993}",
        "{\"a\": 9007199254740992}",
        "a: 1e16",
        "a: 9007199254740992.0",
    ] {
        let error = canonical_sha256(text.as_bytes(), &limits).unwrap_err();
        assert!(
            matches!(error, CanonicalError::Refused(_)),
            "{text}: {error:?}"
        );
        assert!(error.to_string().ends_with("(at /a)"), "{error}");
    }
    assert!(canonical_sha256(b"{\"a\": 9007199254740991}", &limits).is_ok());
}

#[test]
fn reformatting_a_document_keeps_its_canonical_digest() {
    let block = "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata:\n  name: bugfix-bounded\nspec:\n  change_type: bugfix\n  max_repair_attempts: 2\n";
    let flow = "# a comment\n{kind: Playbook, spec: {max_repair_attempts: 2.0, change_type: \"bugfix\"}, metadata: {name: bugfix-bounded}, apiVersion: numinance.dev/v1}\n";
    let json = r#"{"spec":{"change_type":"bugfix","max_repair_attempts":2},"kind":"Playbook","apiVersion":"numinance.dev/v1","metadata":{"name":"bugfix-bounded"}}"#;
    let limits = Limits::default();
    let digest = canonical_sha256(block.as_bytes(), &limits).unwrap();
    assert_eq!(canonical_sha256(flow.as_bytes(), &limits).unwrap(), digest);
    assert_eq!(canonical_sha256(json.as_bytes(), &limits).unwrap(), digest);
    assert_ne!(sha256(block.as_bytes()), sha256(flow.as_bytes()));

    let changed = block.replace("max_repair_attempts: 2", "max_repair_attempts: 3");
    assert_ne!(
        canonical_sha256(changed.as_bytes(), &limits).unwrap(),
        digest
    );
}

#[test]
fn canonical_digest_is_the_digest_of_the_canonical_text() {
    let limits = Limits::default();
    let sample = RFC_8785_SAMPLE.replace("1E30", "1E15");
    let canonical = RFC_8785_SAMPLE_CANONICAL.replace("1e+30", "1000000000000000");
    assert_eq!(
        canonical_sha256(sample.as_bytes(), &limits).unwrap(),
        sha256(canonical.as_bytes())
    );
    // The RFC's own sample holds 1E30, a number canonical JSON refuses.
    let error = canonical_sha256(RFC_8785_SAMPLE.as_bytes(), &limits).unwrap_err();
    assert!(error.to_string().ends_with("(at /numbers/1)"), "{error}");
}

#[test]
fn a_file_that_is_not_one_yaml_document_has_no_canonical_digest() {
    let limits = Limits::default();
    let error = canonical_sha256(b"a: 1\na: 2\n", &limits).unwrap_err();
    assert!(matches!(error, CanonicalError::Yaml(_)), "{error:?}");
    assert!(
        error.to_string().starts_with("yaml: duplicate key"),
        "{error}"
    );
    assert!(canonical_sha256(b"a: [1\n", &limits).is_err());
    assert!(canonical_sha256(b"", &limits).is_err());
}
