//! Canonical JSON as autocontext defines it, the text whose SHA-256 is a
//! content digest: RFC 8785 (JCS: object keys sorted by UTF-16 code units,
//! numbers in ECMAScript form, no insignificant whitespace) restricted to
//! values that every runtime reads the same way.
//!
//! JCS reads every number as an IEEE 754 double. A number of magnitude 2^53
//! or more cannot be told from its neighbours there (`9007199254740993`
//! and `9007199254740992` are one double), so two different documents
//! would share a digest: such numbers are refused, integral floats like
//! `1e16` included, as autocontext's Python and TypeScript runtimes refuse
//! them. A lone surrogate is refused too; a Rust string cannot hold one, so
//! numi's loader refuses it when it reads the text and no value built here
//! carries one.
//!
//! The text is written here in one pass: keys sorted by UTF-16 code units,
//! strings escaped as `serde_json` escapes them (the JCS escapes: the two
//! quotes, the five short control escapes, `\u00xx` in lower case for the
//! other control characters, nothing else), safe integers as their
//! decimals. A fraction is written by `serde_json_canonicalizer` (the
//! ECMAScript number form, through `ryu-js`), which also checks the whole
//! text in the tests. That crate writes every member of every object to a
//! buffer of its own and parses each key back to sort it, which was most
//! of the time numi spent on a digest.

use serde_json::{Number, Value};

/// Magnitude from which a number no longer names one value: 2^53.
const UNSAFE_MAGNITUDE: f64 = 9_007_199_254_740_992.0;

/// Why a value has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}{}", at_pointer(.pointer))]
pub struct Refusal {
    pub reason: Reason,
    /// The JSON Pointer of the value refused, `""` for the whole document.
    pub pointer: String,
    pub message: String,
}

/// What kind of value is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A number of magnitude 2^53 or more.
    UnsafeNumber,
    /// A value JSON cannot hold (built in code; no loaded text gives one).
    NotJson,
}

/// Where a refused value stands, as a refusal ends: nothing for the whole
/// document.
fn at_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        String::new()
    } else {
        format!(" (at {pointer})")
    }
}

/// The canonical JSON text of `value`, or why it has none.
pub fn to_string(value: &Value) -> Result<String, Refusal> {
    String::from_utf8(canonical_bytes(value)?).map_err(|error| not_json(&error))
}

/// The SHA-256 of the canonical text of `value`, as 64 lowercase hex.
pub fn sha256_hex(value: &Value) -> Result<String, Refusal> {
    canonical_bytes(value).map(|text| hex_sha256(&text))
}

/// [`sha256_hex`] of the object holding `members`, without building it:
/// a pair key or an identity digest names a few fields of a larger value,
/// and copying them into an object of their own cost more than the hash.
pub fn sha256_hex_of_members(members: &[(&str, &Value)]) -> Result<String, Refusal> {
    let mut sorted = members.to_vec();
    sorted.sort_unstable_by(|left, right| utf16_order(left.0, right.0));
    let mut text = Vec::new();
    match write_members(&sorted, &mut text) {
        Ok(()) => Ok(hex_sha256(&text)),
        // The refusal and its place are told by the object itself, built
        // only now that one is.
        Err(_) => {
            let object = members
                .iter()
                .map(|(key, value)| ((*key).to_owned(), (*value).clone()))
                .collect();
            sha256_hex(&Value::Object(object))
        }
    }
}

/// [`sha256_hex`] of the object holding the listed `fields` of `object`
/// (`null` for one it lacks), as autocontext digests an identity.
pub fn sha256_hex_of_fields(object: &Value, fields: &[&str]) -> Result<String, Refusal> {
    const ABSENT: Value = Value::Null;
    let members: Vec<(&str, &Value)> = fields
        .iter()
        .map(|field| (*field, object.get(*field).unwrap_or(&ABSENT)))
        .collect();
    sha256_hex_of_members(&members)
}

/// The canonical text of `value` as UTF-8 bytes.
fn canonical_bytes(value: &Value) -> Result<Vec<u8>, Refusal> {
    let mut text = Vec::new();
    match write_canonical(value, &mut text) {
        Ok(()) => Ok(text),
        // The place of the number refused is looked for only once one is.
        Err(Unwritten::UnsafeNumber) => Err(first_refusal(value, &mut String::new())
            .unwrap_or_else(|| not_json(&"a number has no canonical form"))),
        Err(Unwritten::NotJson(refusal)) => Err(refusal),
    }
}

/// Why [`write_canonical`] stopped.
enum Unwritten {
    /// A number of magnitude 2^53 or more, somewhere in the value.
    UnsafeNumber,
    NotJson(Refusal),
}

fn write_canonical(value: &Value, text: &mut Vec<u8>) -> Result<(), Unwritten> {
    match value {
        Value::Null => text.extend_from_slice(b"null"),
        Value::Bool(true) => text.extend_from_slice(b"true"),
        Value::Bool(false) => text.extend_from_slice(b"false"),
        Value::Number(number) => write_number(number, text)?,
        Value::String(string) => write_string(string, text)?,
        Value::Array(items) => {
            text.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    text.push(b',');
                }
                write_canonical(item, text)?;
            }
            text.push(b']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&str, &Value)> =
                map.iter().map(|(key, item)| (key.as_str(), item)).collect();
            members.sort_unstable_by(|left, right| utf16_order(left.0, right.0));
            write_members(&members, text)?;
        }
    }
    Ok(())
}

/// An object of `members`, already in canonical order.
fn write_members(members: &[(&str, &Value)], text: &mut Vec<u8>) -> Result<(), Unwritten> {
    text.push(b'{');
    for (index, (key, item)) in members.iter().enumerate() {
        if index > 0 {
            text.push(b',');
        }
        write_string(key, text)?;
        text.push(b':');
        write_canonical(item, text)?;
    }
    text.push(b'}');
    Ok(())
}

/// A safe integer as its decimal, which is the text of the double nearest
/// it below 2^53; a fraction in ECMAScript form.
fn write_number(number: &Number, text: &mut Vec<u8>) -> Result<(), Unwritten> {
    if !is_safe_number(number) {
        return Err(Unwritten::UnsafeNumber);
    }
    if number.is_u64() || number.is_i64() {
        text.extend_from_slice(number.to_string().as_bytes());
        return Ok(());
    }
    let written = jcs_text(&Value::Number(number.clone())).map_err(Unwritten::NotJson)?;
    text.extend_from_slice(written.as_bytes());
    Ok(())
}

/// A string quoted and escaped as JCS escapes it, which is `serde_json`'s
/// escaping.
fn write_string(string: &str, text: &mut Vec<u8>) -> Result<(), Unwritten> {
    // Nearly every string (a digest, a name) has nothing to escape and is
    // copied whole; every byte is looked at, so the look goes many at once.
    let plain = string.bytes().fold(true, |plain, b| {
        plain & (b >= b' ') & (b != b'"') & (b != b'\\')
    });
    if plain {
        text.push(b'"');
        text.extend_from_slice(string.as_bytes());
        text.push(b'"');
        return Ok(());
    }
    serde_json::to_writer(&mut *text, string).map_err(|error| Unwritten::NotJson(not_json(&error)))
}

/// The order of two strings by their UTF-16 code units, as JCS sorts keys
/// (`😀` before `דּ`, though its UTF-8 bytes sort after).
pub fn utf16_order(left: &str, right: &str) -> std::cmp::Ordering {
    // UTF-8 bytes sort as code points do, and code points as UTF-16 units
    // unless a character beyond U+FFFF (four bytes, led by 0xF0 or more)
    // meets one from U+E000: without one, the bytes decide.
    let astral = |text: &str| text.bytes().any(|byte| byte >= 0xF0);
    if astral(left) || astral(right) {
        left.encode_utf16().cmp(right.encode_utf16())
    } else {
        left.as_bytes().cmp(right.as_bytes())
    }
}

fn not_json(error: &dyn std::fmt::Display) -> Refusal {
    Refusal {
        reason: Reason::NotJson,
        pointer: String::new(),
        message: format!("not JSON: {error}"),
    }
}

/// The SHA-256 of `bytes`, as 64 lowercase hex: the one digest helper,
/// for canonical text and for a file's bytes alike.
pub fn hex_sha256(bytes: &[u8]) -> String {
    use sha2::{Digest as _, Sha256};
    // Digit by digit, not `write!` a byte at a time: the formatting
    // machinery cost half as much as the hash itself.
    let hash = Sha256::digest(bytes);
    let mut text = String::with_capacity(64);
    for byte in hash.iter() {
        for nibble in [byte >> 4, byte & 0x0f] {
            text.push(char::from_digit(u32::from(nibble), 16).unwrap_or('0'));
        }
    }
    text
}

/// Whether `number` has one exact double that no other JSON number shares.
pub fn is_safe_number(number: &Number) -> bool {
    if let Some(unsigned) = number.as_u64() {
        return unsigned < 1 << 53;
    }
    if let Some(signed) = number.as_i64() {
        return signed.unsigned_abs() < 1 << 53;
    }
    number
        .as_f64()
        .is_some_and(|double| double.is_finite() && double.abs() < UNSAFE_MAGNITUDE)
}

/// JCS text with no refusal: integers are converted to the double nearest
/// them first, as a JavaScript reader would. For tests only: RFC 8785's
/// number table holds numbers numi refuses.
#[cfg(test)]
pub(crate) fn unrestricted(value: &Value) -> Result<String, Refusal> {
    jcs_text(&numbers_as_doubles(value))
}

fn jcs_text(value: &Value) -> Result<String, Refusal> {
    serde_json_canonicalizer::to_string(value).map_err(|error| not_json(&error))
}

fn first_refusal(value: &Value, pointer: &mut String) -> Option<Refusal> {
    match value {
        Value::Number(number) if !is_safe_number(number) => Some(Refusal {
            reason: Reason::UnsafeNumber,
            pointer: pointer.clone(),
            message: format!(
                "the number {number} has a magnitude of 2^53 or more: canonical JSON reads it \
                 as a double it shares with other numbers, so it is refused"
            ),
        }),
        Value::Array(items) => items.iter().enumerate().find_map(|(index, item)| {
            let length = pointer.len();
            pointer.push('/');
            pointer.push_str(&index.to_string());
            let found = first_refusal(item, pointer);
            pointer.truncate(length);
            found
        }),
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            let length = pointer.len();
            pointer.push('/');
            pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            let found = first_refusal(item, pointer);
            pointer.truncate(length);
            found
        }),
        _ => None,
    }
}

#[cfg(test)]
fn numbers_as_doubles(value: &Value) -> Value {
    match value {
        Value::Number(number) if !number.is_f64() => number
            .as_f64()
            .and_then(Number::from_f64)
            .map_or_else(|| value.clone(), Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(numbers_as_doubles).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, item)| (key.clone(), numbers_as_doubles(item)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

#[cfg(test)]
mod tests;
