//! Digests in the kinds' `Digest` format (`sha256:` and 64 lowercase hex):
//! of a file's bytes, or of the RFC 8785 (JCS) canonical JSON of the one
//! YAML or JSON document a file holds, so that reformatting the document
//! does not change its digest.

use serde_json::Value;

use crate::canonical;
use crate::yaml::{self, Limits, Positions};

/// The `sha256:<64 lowercase hex>` digest of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", canonical::hex_sha256(bytes))
}

/// Why a document has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonicalError {
    /// The bytes are not one YAML document (numi's loader message).
    #[error("yaml: {0}")]
    Yaml(String),
    /// A value JSON cannot hold (numi's loader refuses these first, so this
    /// is only reached by values built in code).
    #[error("json: {0}")]
    NotJson(String),
    /// A value canonical JSON refuses: a number that shares its double with
    /// other numbers (magnitude 2^53 or more).
    #[error("canonical json: {0}")]
    Refused(canonical::Refusal),
}

/// The RFC 8785 canonical JSON text of `value`, as [`crate::canonical`]
/// writes it: a number of magnitude 2^53 or more is refused, since JCS reads
/// it as a double other numbers share and two documents would collide.
pub fn canonical_json(value: &Value) -> Result<String, CanonicalError> {
    canonical::to_string(value).map_err(|refusal| match refusal.reason {
        canonical::Reason::NotJson => CanonicalError::NotJson(refusal.message),
        canonical::Reason::UnsafeNumber => CanonicalError::Refused(refusal),
    })
}

/// The digest of the canonical JSON of the one YAML (or JSON) document in
/// `bytes`, loaded with numi's own YAML loader.
pub fn canonical_sha256(bytes: &[u8], limits: &Limits) -> Result<String, CanonicalError> {
    let document = yaml::load_bytes_with(bytes, limits, Positions::Skip)
        .map_err(|error| CanonicalError::Yaml(crate::text::yaml_message(&error)))?;
    let text = canonical_json(&document.value)?;
    Ok(sha256(text.as_bytes()))
}

#[cfg(test)]
mod tests;
