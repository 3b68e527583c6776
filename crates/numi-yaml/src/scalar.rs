//! Plain scalars resolved by the YAML 1.2 core schema: the same text always
//! means the same JSON value, whichever YAML tool wrote it.

use std::borrow::Cow;

use serde_json::{Number, Value};

/// Why a scalar has no JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ScalarError {
    /// `.inf`, `.nan` and friends: JSON has no such numbers.
    NotFinite,
    /// A number past the range of a 64-bit float, such as `1e400`.
    TooLarge,
    /// A tag this loader does not resolve, such as `!custom` or `!!binary`.
    UnsupportedTag(String),
    /// A core tag whose content does not fit it, such as `!!int abc`.
    TagMismatch(String),
}

/// The core-schema value of a plain (unquoted) scalar. A string keeps the
/// text it was given, without a copy; on failure the text comes back for the
/// message.
pub(crate) fn resolve_plain(text: Cow<'_, str>) -> Result<Value, (ScalarError, Cow<'_, str>)> {
    if let Some(value) = as_null(&text).or_else(|| as_bool(&text)) {
        return Ok(value);
    }
    match as_number(&text) {
        Ok(Some(number)) => Ok(Value::Number(number)),
        Ok(None) => Ok(Value::String(text.into_owned())),
        Err(error) => Err((error, text)),
    }
}

/// The value of a scalar that carries an explicit tag. The handle arrives
/// expanded (`tag:yaml.org,2002:` for `!!`).
pub(crate) fn resolve_tagged(text: &str, handle: &str, suffix: &str) -> Result<Value, ScalarError> {
    let Some(suffix) = core_suffix(handle, suffix) else {
        // The non-specific tag `!` only forbids implicit resolution.
        if is_non_specific(handle, suffix) {
            return Ok(Value::String(text.to_owned()));
        }
        return Err(ScalarError::UnsupportedTag(tag_name(handle, suffix)));
    };
    let mismatch = || ScalarError::TagMismatch(format!("!!{suffix}"));
    match suffix {
        "str" => Ok(Value::String(text.to_owned())),
        "null" => as_null(text).ok_or_else(mismatch),
        "bool" => as_bool(text).ok_or_else(mismatch),
        "int" => match as_number(text)? {
            Some(number) if number.is_i64() || number.is_u64() => Ok(Value::Number(number)),
            _ => Err(mismatch()),
        },
        "float" => match as_number(text)? {
            Some(number) => Ok(Value::Number(number)),
            None => Err(mismatch()),
        },
        _ => Err(ScalarError::UnsupportedTag(format!("!!{suffix}"))),
    }
}

/// The handle `!!` expands to.
pub(crate) const CORE_HANDLE: &str = "tag:yaml.org,2002:";

/// The name of a core tag (`str` for `!!str`), written short or verbatim
/// (`!<tag:yaml.org,2002:str>`, which saphyr gives with an empty handle).
pub(crate) fn core_suffix<'t>(handle: &str, suffix: &'t str) -> Option<&'t str> {
    match handle {
        CORE_HANDLE => Some(suffix),
        "" => suffix
            .strip_prefix(CORE_HANDLE)
            .filter(|name| !name.is_empty()),
        _ => None,
    }
}

/// The non-specific tag `!`. saphyr reports it as an empty handle with the
/// suffix `!`; the other spelling is kept for a parser that splits it the
/// way the YAML grammar does.
pub(crate) fn is_non_specific(handle: &str, suffix: &str) -> bool {
    (handle.is_empty() && suffix == "!") || (handle == "!" && suffix.is_empty())
}

/// A tag as the user knows it: `!!int` for a core tag, `!custom` for a local
/// one, the expanded prefix and the suffix for a `%TAG` handle.
pub(crate) fn tag_name(handle: &str, suffix: &str) -> String {
    match core_suffix(handle, suffix) {
        Some(name) => format!("!!{name}"),
        None => format!("{handle}{suffix}"),
    }
}

/// Whether a plain scalar is null by the core schema.
pub(crate) fn is_null(text: &str) -> bool {
    matches!(text, "" | "~" | "null" | "Null" | "NULL")
}

fn as_null(text: &str) -> Option<Value> {
    is_null(text).then_some(Value::Null)
}

fn as_bool(text: &str) -> Option<Value> {
    match text {
        "true" | "True" | "TRUE" => Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => Some(Value::Bool(false)),
        _ => None,
    }
}

/// `Ok(None)` when the text is not a core-schema number at all.
fn as_number(text: &str) -> Result<Option<Number>, ScalarError> {
    let Some(&first) = text.as_bytes().first() else {
        return Ok(None);
    };
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return Ok(None);
    }
    if let Some(radix) = as_hex_or_octal(text) {
        return radix.map(Some);
    }
    if let Some(number) = as_integer(text) {
        return Ok(Some(number));
    }
    if is_infinity_or_nan(text) {
        return Err(ScalarError::NotFinite);
    }
    if !is_core_float(text) {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(float) => Number::from_f64(float)
            .map(Some)
            .ok_or(ScalarError::TooLarge),
        Err(_) => Ok(None),
    }
}

/// `0o[0-7]+` and `0x[0-9a-fA-F]+`, nothing else (no sign): `None` when
/// `text` is neither. Beyond 64 bits the value is the nearest float, as for a
/// decimal integer, and past the float range it is too large.
fn as_hex_or_octal(text: &str) -> Option<Result<Number, ScalarError>> {
    let (digits, bits) = if let Some(octal) = text.strip_prefix("0o") {
        (octal, 3)
    } else {
        (text.strip_prefix("0x")?, 4)
    };
    let radix = 1u32 << bits;
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    if let Ok(small) = u64::from_str_radix(digits, radix) {
        return Some(Ok(Number::from(small)));
    }
    Some(big_to_float(digits, radix, bits))
}

/// The float nearest to an integer of many `radix` digits: its leading 128
/// bits, with one sticky bit for any set bit below them (enough for the cast
/// to round as the exact value would), scaled by the bits that follow.
fn big_to_float(digits: &str, radix: u32, bits: u32) -> Result<Number, ScalarError> {
    let mut leading: u128 = 0;
    let mut sticky = false;
    let mut scale: u32 = 0;
    for digit in digits.chars().filter_map(|c| c.to_digit(radix)) {
        if leading >> (128 - bits) == 0 {
            leading = (leading << bits) | u128::from(digit);
        } else {
            sticky |= digit != 0;
            scale = scale.saturating_add(bits);
        }
    }
    // Past 2^1024 every float is infinite; stop the exponent there.
    let exponent = i32::try_from(scale.min(2048)).unwrap_or(2048);
    #[allow(clippy::cast_precision_loss)] // rounding to the nearest float is the point
    let float = (leading | u128::from(sticky)) as f64 * 2f64.powi(exponent);
    Number::from_f64(float).ok_or(ScalarError::TooLarge)
}

fn as_integer(text: &str) -> Option<Number> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Ok(unsigned) = text.strip_prefix('+').unwrap_or(text).parse::<u64>() {
        return Some(Number::from(unsigned));
    }
    if let Ok(signed) = text.parse::<i64>() {
        return Some(Number::from(signed));
    }
    // Too large for 64 bits: the core schema still calls it a number; past
    // the range of a float, `as_number` refuses it as too large.
    text.parse::<f64>().ok().and_then(Number::from_f64)
}

fn is_infinity_or_nan(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN")
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn is_core_float(text: &str) -> bool {
    let bytes = text.strip_prefix(['-', '+']).unwrap_or(text).as_bytes();
    let digits = |from: usize| {
        bytes
            .iter()
            .skip(from)
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut at = digits(0);
    let whole = at;
    let mut fraction = 0;
    if bytes.get(at) == Some(&b'.') {
        fraction = digits(at + 1);
        at += 1 + fraction;
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        let exponent = digits(at);
        if exponent == 0 {
            return false;
        }
        at += exponent;
    }
    at == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_scalars_follow_the_core_schema() {
        let cases = [
            ("~", json!(null)),
            ("", json!(null)),
            ("True", json!(true)),
            ("false", json!(false)),
            ("yes", json!("yes")),
            ("42", json!(42)),
            ("-7", json!(-7)),
            ("+3", json!(3)),
            ("0o17", json!(15)),
            ("0x1F", json!(31)),
            ("1.5", json!(1.5)),
            (".5", json!(0.5)),
            ("1e3", json!(1000.0)),
            ("1.0.0", json!("1.0.0")),
            ("1e", json!("1e")),
            ("sha256:00", json!("sha256:00")),
            ("infinity", json!("infinity")),
            ("-", json!("-")),
        ];
        for (text, expected) in cases {
            assert_eq!(resolve_plain(text.into()), Ok(expected), "{text:?}");
        }
    }

    #[test]
    fn numbers_json_cannot_hold_are_refused() {
        for text in [".inf", "-.Inf", ".NaN"] {
            assert_eq!(
                resolve_plain(text.into()),
                Err((ScalarError::NotFinite, text.into())),
                "{text:?}"
            );
        }
    }

    #[test]
    fn huge_integers_become_floats() {
        assert_eq!(
            resolve_plain("123456789012345678901234567890".into()),
            Ok(json!(1.2345678901234568e29))
        );
    }

    #[test]
    fn numbers_past_the_float_range_are_too_large_not_infinite() {
        let five_hundred_digits = "9".repeat(500);
        let negative = format!("-{five_hundred_digits}");
        for text in [
            "1e400",
            "-1e400",
            "1.5E+309",
            &five_hundred_digits,
            &negative,
        ] {
            assert_eq!(
                resolve_plain(text.into()),
                Err((ScalarError::TooLarge, text.into())),
                "{text:?}"
            );
        }
        assert_eq!(
            resolve_tagged("1e400", CORE_HANDLE, "float"),
            Err(ScalarError::TooLarge)
        );
        assert_eq!(
            resolve_tagged(&five_hundred_digits, CORE_HANDLE, "int"),
            Err(ScalarError::TooLarge)
        );
        // The largest float still fits; a tiny one rounds to zero.
        assert_eq!(
            resolve_plain("1.7976931348623157e308".into()),
            Ok(json!(f64::MAX))
        );
        assert_eq!(resolve_plain("1e-400".into()), Ok(json!(0.0)));
    }

    #[test]
    fn hex_and_octal_take_no_sign_and_any_length() {
        for text in [
            "0x+1F", "0o+17", "0x-1", "0o-7", "0x", "0o", "0o8", "0x1G", "0X1F",
        ] {
            assert_eq!(resolve_plain(text.into()), Ok(json!(text)), "{text:?}");
        }
        let cases = [
            ("0x1F", json!(31)),
            ("0o17", json!(15)),
            ("0xffffffffffffffff", json!(u64::MAX)),
            ("0x10000000000000000", json!(18_446_744_073_709_551_616.0)),
            ("0xFFFFFFFFFFFFFFFFF", json!(295_147_905_179_352_825_855.0)),
            (
                "0o2000000000000000000000",
                json!(18_446_744_073_709_551_616.0),
            ),
            // Leading zeros do not count towards the 64 bits.
            ("0x00000000000000000001", json!(1)),
        ];
        for (text, expected) in cases {
            assert_eq!(resolve_plain(text.into()), Ok(expected), "{text:?}");
        }
        let too_large = format!("0x1{}", "0".repeat(256));
        assert_eq!(
            resolve_plain(too_large.as_str().into()),
            Err((ScalarError::TooLarge, too_large.as_str().into()))
        );
    }

    #[test]
    fn a_large_hex_integer_rounds_to_the_nearest_float() {
        // 2^64 + 2^11 + 1 lies just above the midpoint between 2^64 and the
        // next float, 2^64 + 2^12.
        let text = format!("0x1{}801", "0".repeat(13));
        assert_eq!(
            resolve_plain(text.as_str().into()),
            Ok(json!(18_446_744_073_709_555_712.0))
        );
        // (2^64 + 2^11) * 2^164 + 1: the midpoint, and a bit far below the
        // leading 128 that makes it round up, not to even.
        let midpoint_and_more = format!("0x1{}800{}1", "0".repeat(13), "0".repeat(40));
        let scale = 2f64.powi(164);
        assert_eq!(
            resolve_plain(midpoint_and_more.as_str().into()),
            Ok(json!(18_446_744_073_709_555_712.0f64 * scale))
        );
    }

    #[test]
    fn a_verbatim_core_tag_resolves_as_its_short_form() {
        let verbatim = |name: &str| format!("{CORE_HANDLE}{name}");
        assert_eq!(resolve_tagged("1", "", &verbatim("int")), Ok(json!(1)));
        assert_eq!(resolve_tagged("1", "", &verbatim("str")), Ok(json!("1")));
        assert_eq!(
            resolve_tagged("x", "", &verbatim("int")),
            Err(ScalarError::TagMismatch("!!int".into()))
        );
        assert_eq!(
            resolve_tagged("x", "", &verbatim("binary")),
            Err(ScalarError::UnsupportedTag("!!binary".into()))
        );
        assert_eq!(
            resolve_tagged("x", "", CORE_HANDLE),
            Err(ScalarError::UnsupportedTag(CORE_HANDLE.into()))
        );
        assert_eq!(core_suffix("!", "str"), None);
        assert_eq!(core_suffix("", "!str"), None);
    }

    #[test]
    fn tags_force_or_reject_a_type() {
        let core = CORE_HANDLE;
        assert_eq!(resolve_tagged("12", core, "str"), Ok(json!("12")));
        assert_eq!(resolve_tagged("12", core, "int"), Ok(json!(12)));
        assert_eq!(
            resolve_tagged("x", core, "int"),
            Err(ScalarError::TagMismatch("!!int".into()))
        );
        assert_eq!(
            resolve_tagged("x", "!", "custom"),
            Err(ScalarError::UnsupportedTag("!custom".into()))
        );
        assert_eq!(resolve_tagged("12", "", "!"), Ok(json!("12")));
        assert_eq!(resolve_tagged("12", "!", ""), Ok(json!("12")));
        assert_eq!(
            resolve_tagged("12", "tag:example.com,2000:", "x"),
            Err(ScalarError::UnsupportedTag("tag:example.com,2000:x".into()))
        );
    }
}
