//! Across the documents of a configuration tree: two documents of one kind
//! with one `metadata.name`, which a loader cannot tell apart. Results reach
//! this check in report order, so the later document gets the finding and
//! names the first.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Position, Related, Span, Stage};
use crate::kinds::checks::rule_fails;
use crate::location::read_regular;
use crate::results::FileResult;
use crate::text::{quote, shorten};
use crate::yaml::{self, Limits, LineIndex, PathSegment};
use serde_json::Value;

/// Where a document's name stands.
const NAME_POINTER: &str = "/metadata/name";

/// The first document seen of each kind and name.
#[derive(Debug, Default)]
pub struct DuplicateNames {
    first: HashMap<(&'static str, String), First>,
}

/// The first document of a kind and name, as a later one names it.
#[derive(Debug)]
struct First {
    display_name: String,
    path: String,
    read_from: Option<PathBuf>,
}

impl DuplicateNames {
    /// Records `result` and returns the finding when an earlier document of
    /// its kind carries its name: at this document's name, with the first
    /// document's name as its related place (each file read again, within
    /// `max_file_size`, to find where the name stands: duplicates are rare,
    /// and no document's positions are worked out in case it has one), and
    /// a name no document of the kind has taken yet as the fix.
    pub fn check(&mut self, result: &FileResult, max_file_size: u64) -> Option<Diagnostic> {
        let checked = &result.checked;
        let refused = checked.errors().any(|diagnostic| {
            matches!(
                diagnostic.stage,
                Stage::Read | Stage::Yaml | Stage::Kind | Stage::Internal
            )
        });
        let (Some(kind), Some(name)) = (checked.kind, checked.name.as_ref()) else {
            return None;
        };
        if refused {
            return None;
        }
        let Some(first) = self.first.get(&(kind, name.clone())) else {
            self.first.insert(
                (kind, name.clone()),
                First {
                    display_name: result.display_name.clone(),
                    path: result.path.clone(),
                    read_from: result.read_from.clone(),
                },
            );
            return None;
        };
        let shown = quote(&shorten(name));
        let mut finding = rule_fails(
            &crate::diagnostic::stages::project::DUPLICATE_NAME,
            &format!(
                "documents of one kind have distinct names: {kind} {shown} is already defined in {}",
                quote(&first.display_name)
            ),
            NAME_POINTER.to_owned(),
        )
        .with_note(format!(
            "rename this one or {}, or merge them: no {kind} is named `{}` yet",
            quote(&first.display_name),
            shorten(&self.free_name(kind, name))
        ));
        // The bytes a renderer kept are the ones it quotes: placed in them,
        // the name lines up with the excerpt even if the file changed since.
        let here = match &result.source {
            Some(bytes) => name_in(bytes, name),
            None => name_place(result.read_from.as_deref(), name, max_file_size),
        };
        if let Some(place) = here {
            finding.span = Some(place.span);
            finding.position = Some(place.start);
            finding.end = Some(place.end);
        }
        let place = name_place(first.read_from.as_deref(), name, max_file_size);
        finding.related.push(Related {
            path: first.path.clone(),
            display_name: first.display_name.clone(),
            pointer: NAME_POINTER.to_owned(),
            position: place.map(|place| place.start),
            end: place.map(|place| place.end),
            message: format!("the first {kind} named {shown}"),
        });
        Some(finding)
    }

    /// `name-2`, `name-3`, ... (after any such number `name` ends in): the
    /// first that no document of `kind` seen so far has.
    fn free_name(&self, kind: &'static str, name: &str) -> String {
        let stem = match name.rsplit_once('-') {
            Some((stem, number))
                if !stem.is_empty()
                    && !number.is_empty()
                    && number.bytes().all(|b| b.is_ascii_digit()) =>
            {
                stem
            }
            _ => name,
        };
        let taken = |candidate: &String| self.first.contains_key(&(kind, candidate.clone()));
        // Each taken candidate is a document seen: the search ends within
        // one more than their number.
        (2..=self.first.len().saturating_add(2))
            .map(|number| format!("{stem}-{number}"))
            .find(|candidate| !taken(candidate))
            .unwrap_or_else(|| format!("{name}-2"))
    }
}

/// Where `metadata.name` stands in the file at `path`, read again: its
/// bytes, first character and end; `None` when the file cannot be read, no
/// longer loads, or no longer holds `name`.
fn name_place(path: Option<&Path>, name: &str, max_file_size: u64) -> Option<Place> {
    let bytes = read_regular(path?, max_file_size).ok()?;
    name_in(&bytes, name)
}

/// Where `metadata.name` stands in `bytes`, if they hold `name` there.
fn name_in(bytes: &[u8], name: &str) -> Option<Place> {
    let text = std::str::from_utf8(bytes).ok()?;
    let document = yaml::load(text, &Limits::default()).ok()?;
    if document.value.pointer(NAME_POINTER).and_then(Value::as_str) != Some(name) {
        return None;
    }
    let located = document.locate(&[
        PathSegment::Key("metadata".to_owned()),
        PathSegment::Key("name".to_owned()),
    ]);
    if !located.exists {
        return None;
    }
    let lines = LineIndex::new(text);
    Some(Place {
        span: located.node,
        start: lines.position(located.node.start()),
        end: lines.position(located.node.end()),
    })
}

/// Where a node stands in a file.
#[derive(Debug, Clone, Copy)]
struct Place {
    span: Span,
    start: Position,
    end: Position,
}

#[cfg(test)]
mod tests;
