//! Digests in the kinds' `Digest` format (`sha256:` and 64 lowercase hex):
//! of a file's bytes, or of the RFC 8785 (JCS) canonical JSON of the one
//! YAML or JSON document a file holds, so that reformatting the document
//! does not change its digest.

use std::fmt::Write as _;

use serde_json::{Number, Value};
use sha2::{Digest as _, Sha256};

use crate::yaml::{self, Limits};

/// The `sha256:<64 lowercase hex>` digest of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut text = String::with_capacity(7 + 64);
    text.push_str("sha256:");
    for byte in hash.iter() {
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// Why a document has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CanonicalError {
    /// The bytes are not one YAML document (numi's loader message).
    Yaml(String),
    /// A value JSON cannot hold (numi's loader refuses these first, so this
    /// is only reached by values built in code).
    NotJson(String),
}

impl std::fmt::Display for CanonicalError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CanonicalError::Yaml(message) => write!(formatter, "yaml: {message}"),
            CanonicalError::NotJson(message) => write!(formatter, "json: {message}"),
        }
    }
}

/// The RFC 8785 canonical JSON text of `value`.
///
/// JCS reads every number as an IEEE 754 double, so integers are converted
/// first: `20` stays `20`, but an integer beyond 2^53 is written as the
/// double nearest to it, as any JCS implementation in JavaScript would.
pub fn canonical_json(value: &Value) -> Result<String, CanonicalError> {
    let as_doubles = numbers_as_doubles(value);
    serde_json_canonicalizer::to_string(&as_doubles)
        .map_err(|error| CanonicalError::NotJson(error.to_string()))
}

/// The digest of the canonical JSON of the one YAML (or JSON) document in
/// `bytes`, loaded with numi's own YAML loader.
pub fn canonical_sha256(bytes: &[u8], limits: &Limits) -> Result<String, CanonicalError> {
    let document =
        yaml::load_bytes(bytes, limits).map_err(|error| CanonicalError::Yaml(error.message))?;
    let text = canonical_json(&document.value)?;
    Ok(sha256(text.as_bytes()))
}

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
