//! Value checks shared by several kinds, and the message every single-field
//! check uses.

use serde_json::Value;

use crate::diagnostic::{Address, Diagnostic, PathSegment, RuleDoc};

/// The autonomy ladder, lowest first (spec 002): AutonomyPolicy levels and
/// the evals event payloads' promotions climb the same rungs.
pub(crate) const AUTONOMY_LADDER: [&str; 8] = [
    "AUTONOMY_LEVEL_OBSERVE",
    "AUTONOMY_LEVEL_SUGGEST",
    "AUTONOMY_LEVEL_IMPLEMENT",
    "AUTONOMY_LEVEL_PR",
    "AUTONOMY_LEVEL_MERGE",
    "AUTONOMY_LEVEL_STAGE",
    "AUTONOMY_LEVEL_RELEASE",
    "AUTONOMY_LEVEL_OPERATE",
];

/// The value of `key` in the mapping `value`, found by comparing keys. A
/// document's mappings hold a handful of keys, and hashing `key` with
/// SipHash, as `Value::get` does, costs more than comparing it with each.
/// The lookups that every document takes (its kind, its name) use it.
pub(crate) fn field<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    value
        .as_object()?
        .iter()
        .find_map(|(name, field)| (name == key).then_some(field))
}

/// The whole number `value` holds, read by value as the schemas read
/// `integer` (JSON Schema judges a number by its value, and docs/yaml.md
/// says numi does): `20000`, `20000.0` and `2e4` are one number. `None` for
/// a fraction, a negative number or anything not a number. Every rule that
/// reads a count or a rate reads it through this, so a number written as a
/// float never slips past one. A whole number beyond `u64` reads as
/// `u64::MAX`, larger than any bound a rule sets.
pub(crate) fn whole_number(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        let float = value.as_f64()?;
        // A whole float below 2^64 converts exactly; beyond, it saturates.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (float.fract() == 0.0 && float >= 0.0).then_some(float as u64)
    })
}

/// `sha256:` followed by 64 lowercase hex digits.
pub(crate) fn is_digest(value: &str) -> bool {
    value.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// What is wrong with a value that is not a digest, for the finding's note:
/// the prefix, the length, or the characters of its hex.
pub(crate) fn digest_problem(value: &str) -> String {
    let Some(hex) = value.strip_prefix("sha256:") else {
        return match value.split_once(':') {
            Some((prefix, _)) => format!(
                "the prefix is {}, not `sha256:`",
                crate::text::quote(&crate::text::shorten(prefix))
            ),
            None => "the `sha256:` prefix is missing".to_owned(),
        };
    };
    let length = hex.chars().count();
    if hex.bytes().any(|b| b.is_ascii_uppercase()) {
        "the hex is written in upper case; write it in lower case".to_owned()
    } else if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        "the hex holds a character that is not 0-9 or a-f".to_owned()
    } else {
        format!("the hex has {length} digits, not 64")
    }
}

/// 1 to 64 characters of `[a-z0-9._-]`, starting with a letter or digit:
/// the shape of case names and of tokens such as layers and defects.
pub(crate) fn is_token(value: &str) -> bool {
    let bytes = value.as_bytes();
    let allowed =
        |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-');
    matches!(bytes.first(), Some(b) if b.is_ascii_lowercase() || b.is_ascii_digit())
        && bytes.len() <= 64
        && bytes.iter().all(allowed)
}

/// A strict `x.y.z` version: three decimal numbers without leading zeros and
/// nothing after them.
pub(crate) fn is_strict_version(value: &str) -> bool {
    let mut parts = 0;
    for part in value.split('.') {
        parts += 1;
        let digits_only = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        if !digits_only || (part.len() > 1 && part.starts_with('0')) {
            return false;
        }
    }
    parts == 3
}

/// What a single-field check asks of a value, in the words of its
/// finding's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expected {
    /// [`is_digest`].
    Digest,
    /// [`is_token`].
    Token,
    /// [`is_strict_version`].
    StrictVersion,
    /// A whole number no less than this.
    AtLeast(u64),
    /// One of these enum values.
    OneOf(&'static [&'static str]),
}

impl Expected {
    /// What the value must be, to follow "must be".
    fn words(self) -> String {
        match self {
            Expected::Digest => "`sha256:` followed by 64 lowercase hex digits".to_owned(),
            Expected::Token => {
                "1 to 64 characters of a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit"
                    .to_owned()
            }
            Expected::StrictVersion => {
                "a strict version: MAJOR.MINOR.PATCH, three numbers without leading zeros or suffix"
                    .to_owned()
            }
            Expected::AtLeast(least) => format!("a whole number of at least {least}"),
            Expected::OneOf(values) => {
                let named: Vec<String> = values.iter().map(|value| format!("`{value}`")).collect();
                match named.as_slice() {
                    [] => "a known value".to_owned(),
                    [only] => only.clone(),
                    [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
                }
            }
        }
    }
}

/// The diagnostic of a single field that fails a value check. Its message
/// says what is wrong in the user's words: the field as the document
/// writes it, what it must be and what it holds (`got`, as [`shown`]
/// writes a string; `None` when the field is absent). The `text`
/// format keeps the reference's words:
/// `a value of numinance.kinds.v1.<Message>.<field> fails its check`.
pub(crate) fn field_fails(
    rule: &'static RuleDoc,
    field: &str,
    address: Address,
    expected: Expected,
    got: Option<String>,
) -> Diagnostic {
    let got = match got {
        Some(got) => format!("got {got}"),
        None => "it is absent".to_owned(),
    };
    let message = format!(
        "`{}` must be {}; {got}",
        field_path(&address),
        expected.words()
    );
    Diagnostic::new(rule, message)
        .with_reference_words(format!(
            "a value of numinance.kinds.v1.{field} fails its check"
        ))
        .at(address)
}

/// A value of the document as a message shows it: shortened, any
/// credential masked, quoted and escaped, so no value can forge or break
/// the line.
pub(crate) fn shown(value: &str) -> String {
    crate::text::quote(&crate::text::shorten(value))
}

/// Any value of the document as a message shows it: a string as
/// [`shown`] writes it, anything else as its JSON, shortened.
pub(crate) fn shown_value(value: &Value) -> String {
    match value {
        Value::String(text) => shown(text),
        other => crate::text::shorten(&other.to_string()),
    }
}

/// An address as the document's author reads the path:
/// `/spec/cases/0/outcome/value` is `spec.cases[0].outcome.value`; a key
/// that is not a plain name is quoted (`spec.pinned_toolsets["a b"]`), and
/// one of digits alone is written as an index is.
pub(crate) fn field_path(address: &Address) -> String {
    let mut path = String::new();
    for step in address.steps() {
        let key = match step {
            PathSegment::Index(index) => {
                path.push_str(&format!("[{index}]"));
                continue;
            }
            PathSegment::Key(key) => key,
        };
        let plain = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'));
        if !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) {
            path.push_str(&format!("[{key}]"));
        } else if plain {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key);
        } else {
            path.push_str(&format!(
                "[{}]",
                crate::text::quote(&crate::text::shorten(key))
            ));
        }
    }
    path
}

/// A rule across fields, stated as the sentence that holds.
pub(crate) fn rule_fails(rule: &'static RuleDoc, sentence: &str, address: Address) -> Diagnostic {
    Diagnostic::new(rule, sentence).at(address)
}

/// A document that passed its schema but does not fit the rules' typed
/// view: a defect of numi (schema and rules disagree), never of the input.
pub(crate) fn shape_mismatch(kind: &super::Kind, error: &serde_json::Error) -> Diagnostic {
    Diagnostic::new(
        &crate::diagnostic::stages::errors::SHAPE,
        format!(
            "the {} rules cannot read a document its schema accepts ({error}); please report this",
            kind.name
        ),
    )
}

/// The items of the array `field` of `value`, with their indexes; none when
/// it is absent.
pub(crate) fn items<'a>(value: &'a Value, field: &str) -> impl Iterator<Item = (usize, &'a Value)> {
    value
        .get(field)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::address;

    #[test]
    fn a_whole_number_is_read_by_value_however_it_is_written() {
        use serde_json::json;
        for (value, read) in [
            (json!(20000), Some(20000)),
            (json!(20000.0), Some(20000)),
            (json!(2e4), Some(20000)),
            (json!(1e1), Some(10)),
            (json!(-0.0), Some(0)),
            (json!(1e300), Some(u64::MAX)),
            (json!(2.5), None),
            (json!(-1), None),
            (json!(-1.0), None),
            (json!("10"), None),
            (json!(null), None),
        ] {
            assert_eq!(whole_number(&value), read, "{value}");
        }
    }

    #[test]
    fn a_field_is_found_by_its_key_in_a_mapping_only() {
        let document =
            serde_json::json!({"kind": "Playbook", "metadata": {"name": "x"}, "n": null});
        assert_eq!(field(&document, "kind"), Some(&Value::from("Playbook")));
        assert_eq!(field(&document, "n"), Some(&Value::Null));
        assert_eq!(field(&document, "kin"), None);
        assert_eq!(field(&document, "name"), None);
        assert_eq!(field(&serde_json::json!(["kind"]), "kind"), None);
        assert_eq!(field(&Value::from("kind"), "kind"), None);
    }

    #[test]
    fn each_digest_problem_is_named() {
        let hex = "0".repeat(64);
        let cases = [
            (
                format!("sha512:{hex}"),
                "the prefix is \"sha512\", not `sha256:`",
            ),
            (hex.clone(), "the `sha256:` prefix is missing"),
            (
                format!("sha256:{}", "A".repeat(64)),
                "the hex is written in upper case; write it in lower case",
            ),
            (
                format!("sha256:{}", "g".repeat(64)),
                "the hex holds a character that is not 0-9 or a-f",
            ),
            (
                format!("sha256:{}", "0".repeat(63)),
                "the hex has 63 digits, not 64",
            ),
        ];
        for (value, problem) in cases {
            assert!(!is_digest(&value), "{value}");
            assert_eq!(digest_problem(&value), problem, "{value}");
        }
    }

    #[test]
    fn a_field_finding_says_what_the_value_must_be_and_what_it_holds() {
        let rule = &crate::kinds::evalset::catalogue::CASE_NAME;
        let found = field_fails(
            rule,
            "EvalCase.name",
            address!["spec", "cases", 3, "name"],
            Expected::Token,
            Some(shown("Bugfix clean")),
        );
        assert_eq!(
            found.message,
            "`spec.cases[3].name` must be 1 to 64 characters of a-z, 0-9, `.`, `_` and `-`, \
             starting with a letter or digit; got \"Bugfix clean\""
        );
        assert!(!found.message.contains("numinance.kinds"));
        // The text format keeps the reference's words.
        assert_eq!(
            found.text_message(),
            "a value of numinance.kinds.v1.EvalCase.name fails its check"
        );
        let absent = field_fails(
            rule,
            "AuthoredConstraint.trust",
            address!["spec", "authored_constraints", 0, "trust"],
            Expected::OneOf(&["A", "B", "C"]),
            None,
        );
        assert_eq!(
            absent.message,
            "`spec.authored_constraints[0].trust` must be `A`, `B` or `C`; it is absent"
        );
        assert_eq!(Expected::AtLeast(1).words(), "a whole number of at least 1");
    }

    #[test]
    fn a_value_shown_in_a_message_is_quoted_shortened_and_masked() {
        assert_eq!(shown("1.0"), "\"1.0\"");
        assert_eq!(shown("a\nb"), "\"a\\nb\"");
        let long = "x".repeat(100);
        assert_eq!(shown(&long), format!("\"{}…\"", "x".repeat(64)));
        let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        assert!(!shown(token).contains("ghp_0123"), "{}", shown(token));
        assert_eq!(shown_value(&serde_json::json!(0.5)), "0.5");
        assert_eq!(shown_value(&serde_json::json!("k")), "\"k\"");
    }

    #[test]
    fn an_address_reads_as_the_path_an_author_writes() {
        assert_eq!(field_path(&address!["spec", "version"]), "spec.version");
        assert_eq!(
            field_path(&address!["spec", "cases", 0, "outcome", "value"]),
            "spec.cases[0].outcome.value"
        );
        assert_eq!(
            field_path(&address![
                "spec",
                "pinned_toolsets",
                "confluence-eng",
                "value"
            ]),
            "spec.pinned_toolsets.confluence-eng.value"
        );
        assert_eq!(
            field_path(&address!["spec", "pinned_toolsets", "a/b c", "value"]),
            "spec.pinned_toolsets[\"a/b c\"].value"
        );
        assert_eq!(field_path(&address!["spec", "7"]), "spec[7]");
        assert_eq!(field_path(&Address::root()), "");
    }

    #[test]
    fn digests() {
        let hex = "0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242";
        assert!(is_digest(&format!("sha256:{hex}")));
        for bad in [
            hex.to_owned(),
            format!("sha256:{}", hex.to_uppercase()),
            format!("sha256:{}", &hex[..63]),
            format!("sha256:{hex}0"),
            format!("sha1:{}", &hex[..40]),
            format!("sha256:{}g{}", &hex[..30], &hex[31..]),
            "sha256:".to_owned(),
        ] {
            assert!(!is_digest(&bad), "{bad}");
        }
    }

    #[test]
    fn tokens() {
        for good in ["a", "0", "security-scan", "api.v2_x", &"a".repeat(64)] {
            assert!(is_token(good), "{good}");
        }
        for bad in [
            "",
            "-a",
            ".a",
            "_a",
            "A",
            "a b",
            "a/b",
            "é",
            &"a".repeat(65),
        ] {
            assert!(!is_token(bad), "{bad}");
        }
    }

    #[test]
    fn strict_versions() {
        for good in ["0.0.0", "1.0.0", "10.20.30"] {
            assert!(is_strict_version(good), "{good}");
        }
        for bad in [
            "1.0",
            "1.0.0.0",
            "01.0.0",
            "1.00.0",
            "1.0.0-rc.1",
            "1.0.0+b",
            "v1.0.0",
            "1..0",
            "",
            "1.0.x",
        ] {
            assert!(!is_strict_version(bad), "{bad}");
        }
    }
}
