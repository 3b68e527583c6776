//! Across the documents of a configuration tree: two documents of one kind
//! with one `metadata.name`, which a loader cannot tell apart. Results reach
//! this check in report order, so the later document gets the finding and
//! names the first.

use std::collections::HashMap;

use crate::diagnostic::{Address, Diagnostic, Related, Stage, address};
use crate::kinds::checks::rule_fails;
use crate::results::FileResult;
use crate::text::{quote, shorten};
use crate::validate::Place;

/// Where a document's name stands.
/// Where a document's name stands.
fn name_address() -> Address {
    address!["metadata", "name"]
}

/// The first document seen of each kind and name.
#[derive(Debug, Default)]
pub(super) struct DuplicateNames {
    first: HashMap<(&'static str, String), First>,
}

/// The first document of a kind and name, as a later one names it.
#[derive(Debug)]
struct First {
    display_name: String,
    path: String,
    place: Option<Place>,
}

impl DuplicateNames {
    /// Records `result` and returns the finding when an earlier document of
    /// its kind carries its name: at this document's name, with the first
    /// document's name as its related place (where each check found it),
    /// and a name no document of the kind has taken yet as the fix.
    pub(super) fn check(&mut self, result: &FileResult) -> Option<Diagnostic> {
        let checked = &result.checked;
        let refused = checked.errors().any(|diagnostic| {
            matches!(
                diagnostic.stage(),
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
                    place: checked.name_place,
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
            name_address(),
        )
        .with_note(format!(
            "rename this one or {}, or merge them: no {kind} is named `{}` yet",
            quote(&first.display_name),
            shorten(&self.free_name(kind, name))
        ));
        if let Some(place) = checked.name_place {
            finding.span = Some(place.span);
            finding.position = Some(place.start);
            finding.end = Some(place.end);
        }
        let place = first.place;
        finding.related.push(Related {
            path: first.path.clone(),
            display_name: first.display_name.clone(),
            address: name_address(),
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

#[cfg(test)]
mod tests;
