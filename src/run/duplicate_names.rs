//! Across the documents of a configuration tree: two documents of one kind
//! with one `metadata.name`, which a loader cannot tell apart. Results reach
//! this check in report order, so the later document gets the finding and
//! names the first.

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, Stage};
use crate::kinds::checks::rule_fails;
use crate::results::FileResult;
use crate::text::{quote, shorten};

/// The first document seen of each kind and name.
#[derive(Debug, Default)]
pub struct DuplicateNames {
    first: HashMap<(&'static str, String), String>,
}

impl DuplicateNames {
    /// Records `result` and returns the finding when an earlier document of
    /// its kind carries its name.
    pub fn check(&mut self, result: &FileResult) -> Option<Diagnostic> {
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
        match self.first.get(&(kind, name.clone())) {
            Some(first) => Some(rule_fails(
                &crate::diagnostic::stages::project::DUPLICATE_NAME,
                &format!(
                    "documents of one kind have distinct names: {kind} {} is already defined in {}",
                    quote(&shorten(name)),
                    quote(first)
                ),
                "/metadata/name".to_owned(),
            )),
            None => {
                self.first
                    .insert((kind, name.clone()), result.display_name.clone());
                None
            }
        }
    }
}

#[cfg(test)]
mod tests;
