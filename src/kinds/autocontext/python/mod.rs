//! Python's semantics, as autocontext's Python runtime applies them to
//! what it reads and writes: how a float is written, how a value is
//! written into a message, when two values `json.loads` read are equal,
//! autocontext's rounding, and its statistics ([`statistics`]). Every
//! check that recomputes what autocontext derives uses these, so that it
//! agrees with autocontext to the bit and to the byte.

pub mod statistics;

use serde_json::Value;

use crate::canonical;

/// A float as Python's `repr` writes it: the shortest digits that read
/// back, positional from 1e-4 up to 1e16, else with a signed exponent of at
/// least two digits; `None` for a value that is not finite.
pub(super) fn repr_float(value: f64) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific.split_once('e')?;
    let exponent: i32 = exponent.parse().ok()?;
    if !(-4..16).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        return Some(format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs()));
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let point = usize::try_from(exponent + 1).unwrap_or(0);
    Some(if exponent < 0 {
        let zeros = "0".repeat(exponent.unsigned_abs() as usize - 1);
        format!("{sign}0.{zeros}{digits}")
    } else if point >= digits.len() {
        format!("{sign}{digits}{}.0", "0".repeat(point - digits.len()))
    } else {
        let (whole, fraction) = digits.split_at(point);
        format!("{sign}{whole}.{fraction}")
    })
}

/// A digest, or null, as Python's f-string writes it: a string as itself,
/// `None` for null.
pub(super) fn in_f_string(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "None".to_owned(),
        other => other.to_string(),
    }
}

/// Whether two values are equal as autocontext compares them (Python's
/// `==` on what `json.loads` read): as their canonical JSON, where `1` and
/// `1.0` are one number; values that have none are compared as written.
pub(super) fn equal(left: &Value, right: &Value) -> bool {
    match (canonical::to_string(left), canonical::to_string(right)) {
        (Ok(left), Ok(right)) => left == right,
        _ => left == right,
    }
}

/// `_round_six`: six decimals, ties away from zero, and never `-0.0`.
pub(super) fn round_six(value: f64) -> f64 {
    let scaled = value.abs() * 1_000_000.0;
    if !scaled.is_finite() {
        return value;
    }
    let rounded = ((scaled + 0.5).floor() / 1_000_000.0).copysign(value);
    if rounded == 0.0 { 0.0 } else { rounded }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{repr_float, round_six};

    /// Against what CPython 3.11 prints for `repr` of the same doubles.
    #[test]
    fn a_float_is_written_as_pythons_repr_writes_it() {
        for (value, repr) in [
            (0.025, "0.025"),
            (1e-05, "1e-05"),
            (0.0001, "0.0001"),
            (1.25e-05, "1.25e-05"),
            (1e16, "1e+16"),
            (123_456_789_012_345.6, "123456789012345.6"),
            (1.0, "1.0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e15, "1000000000000000.0"),
            (-0.5, "-0.5"),
            (5e-324, "5e-324"),
            (1.797_693_134_862_315_7e308, "1.7976931348623157e+308"),
            (-2.5e-07, "-2.5e-07"),
            (0.0, "0.0"),
        ] {
            assert_eq!(repr_float(value).unwrap(), repr, "{value:e}");
        }
        assert_eq!(repr_float(f64::NAN), None);
    }

    #[test]
    fn round_six_breaks_ties_away_from_zero_and_drops_the_sign_of_zero() {
        assert_eq!(round_six(0.7 - 0.5), 0.2);
        assert_eq!(round_six(0.000_000_5), 0.000_001);
        assert_eq!(round_six(-0.000_000_5), -0.000_001);
        assert_eq!(round_six(-0.000_000_4).to_bits(), 0.0f64.to_bits());
        assert_eq!(round_six(1.234_567_49), 1.234_567);
        assert!(round_six(f64::INFINITY).is_infinite());
    }
}
