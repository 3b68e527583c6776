//! The parts of a run manifest the rules read, taken from a document that
//! passed the schema. A value the schema guarantees is still read without
//! trusting it: a missing one reads as absent.

use std::path::Path;

use serde_json::Value;

use crate::diagnostic::{Address, address};
use crate::kinds::checks::items;

/// One entry of `subjects`.
#[derive(Debug, Clone)]
pub(super) struct SubjectEntry<'a> {
    pub index: usize,
    /// The id as written, if it is.
    pub id: Option<&'a str>,
    pub path: &'a str,
    pub kind: &'a str,
    pub workdir: Option<&'a str>,
}

impl SubjectEntry<'_> {
    /// Where the entry stands in the manifest.
    pub(super) fn address(&self) -> Address {
        address!["subjects", self.index]
    }

    /// The id the subject goes by without a folder to resolve its path
    /// against: as written, or the last name of its path.
    pub(super) fn lexical_id(&self) -> String {
        self.id.map_or_else(
            || {
                Path::new(self.path).file_name().map_or_else(
                    || self.path.to_owned(),
                    |name| name.to_string_lossy().into_owned(),
                )
            },
            str::to_owned,
        )
    }
}

/// One model reference, of `models` or the judge.
#[derive(Debug, Clone)]
pub(super) struct ModelEntry<'a> {
    pub address: Address,
    pub provider: &'a str,
    pub id: &'a str,
    pub base_url: Option<&'a str>,
    pub api_key_env: Option<&'a str>,
}

impl ModelEntry<'_> {
    /// `provider/id`, as context-report names a model.
    pub(super) fn qualified(&self) -> String {
        format!("{}/{}", self.provider, self.id)
    }
}

pub(super) fn subjects(document: &Value) -> Vec<SubjectEntry<'_>> {
    items(document, "subjects")
        .map(|(index, subject)| SubjectEntry {
            index,
            id: subject.get("id").and_then(Value::as_str),
            path: subject
                .get("path")
                .and_then(Value::as_str)
                .unwrap_or_default(),
            kind: subject
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or_default(),
            workdir: subject.get("workdir").and_then(Value::as_str),
        })
        .collect()
}

fn model(address: Address, value: &Value) -> ModelEntry<'_> {
    let text = |field: &str| value.get(field).and_then(Value::as_str);
    ModelEntry {
        address,
        provider: text("provider").unwrap_or_default(),
        id: text("id").unwrap_or_default(),
        base_url: text("baseUrl"),
        api_key_env: text("apiKeyEnv"),
    }
}

pub(super) fn models(document: &Value) -> Vec<ModelEntry<'_>> {
    items(document, "models")
        .map(|(index, value)| model(address!["models", index], value))
        .collect()
}

pub(super) fn judge(document: &Value) -> Option<ModelEntry<'_>> {
    document
        .get("judge")
        .filter(|judge| judge.is_object())
        .map(|judge| model(address!["judge"], judge))
}
