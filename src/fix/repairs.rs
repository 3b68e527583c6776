//! From a finding to its fix: each [`Repair`] made into text edits over the
//! spans the loader knows.

use serde_json::Value;

use super::spans::{permute, sequence_items};
use super::{Change, Fix, Repair, RuleFix, TextEdit, Unfixable};
use crate::diagnostic::{Address, RuleDoc};
use crate::text::{quote, shorten};
use crate::validate::Checked;
use crate::yaml::{Document, NodePositions, PathSegment};

/// The fixes of the findings of `checked` whose rules `fixes` lists, and
/// the findings of those rules that cannot be fixed. One fix per target:
/// several findings in one sequence make one sort.
pub(super) fn offer(
    text: &str,
    document: &Document,
    fixes: &[RuleFix],
    checked: &Checked,
) -> (Vec<Fix>, Vec<Unfixable>) {
    let mut offered: Vec<Fix> = Vec::new();
    let mut unfixable: Vec<Unfixable> = Vec::new();
    for diagnostic in &checked.diagnostics {
        let Some(rule_fix) = fixes.iter().find(|fix| fix.rule.id == diagnostic.rule.id) else {
            continue;
        };
        let Some(address) = &diagnostic.address else {
            continue;
        };
        let made = match rule_fix.repair {
            Repair::SortBy { key, noun } => {
                let steps = address.steps();
                let parent = Address::from(
                    steps
                        .get(..steps.len().saturating_sub(1))
                        .unwrap_or_default(),
                );
                sort(text, document, parent, key, noun, diagnostic.rule)
            }
            Repair::LowercaseDigest => {
                lowercase_digest(text, document, address.clone(), diagnostic.rule)
            }
        };
        match made {
            Ok(fix) if offered.iter().any(|other| other.change == fix.change) => {}
            Ok(fix) => offered.push(fix),
            Err(reason) => unfixable.push(Unfixable {
                rule: diagnostic.rule,
                address: address.clone(),
                reason: reason.to_string(),
            }),
        }
    }
    (offered, unfixable)
}

/// The value and the positions at `path`.
fn node_at<'d>(
    document: &'d Document,
    path: &[PathSegment],
) -> Option<(&'d Value, &'d NodePositions)> {
    let mut value = &document.value;
    let mut node = &document.positions;
    for segment in path {
        let index = match (segment, value) {
            (PathSegment::Key(key), Value::Object(map)) => map.keys().position(|k| k == key)?,
            (PathSegment::Index(index), Value::Array(_)) => *index,
            _ => return None,
        };
        value = match segment {
            PathSegment::Key(key) => value.get(key.as_str())?,
            PathSegment::Index(index) => value.get(*index)?,
        };
        node = node.children().get(index)?;
    }
    Some((value, node))
}

/// Why a finding's repair cannot be made into edits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Unrepairable {
    /// The address of the node that is not one.
    #[error("{0} is not a sequence")]
    NotASequence(Address),
    /// The sequence's address, and the key its entries are sorted by.
    #[error("an entry of {address} has no {key}")]
    NoKey { address: Address, key: &'static str },
    /// What an entry is (`case`), and the name two entries share.
    #[error("{noun} {} is a duplicate: numi cannot know which one to keep", quote(&shorten(.name)))]
    Duplicate { noun: &'static str, name: String },
    #[error("numi cannot move these entries without changing the layout around them")]
    Layout,
    #[error("a comment at the end of a line would land before more of that line")]
    TrailingComment,
    /// The address of the node that is not one.
    #[error("{0} is not a string")]
    NotAString(Address),
    #[error("only a digest in upper-case hex is fixable: numi cannot know the right digest")]
    NotUpperCase,
    #[error(
        "the digest is not written as it reads (escapes, a tag or line breaks); fix it by hand"
    )]
    NotVerbatim,
}

fn sort(
    text: &str,
    document: &Document,
    path: Address,
    key: &'static str,
    noun: &'static str,
    rule: &'static RuleDoc,
) -> Result<Fix, Unrepairable> {
    let Some((Value::Array(items), node)) = node_at(document, path.steps()) else {
        return Err(Unrepairable::NotASequence(path));
    };
    let mut names = Vec::with_capacity(items.len());
    for item in items {
        match item.get(key).and_then(Value::as_str) {
            Some(name) => names.push(name),
            None => return Err(Unrepairable::NoKey { address: path, key }),
        }
    }
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| {
        let name = |i: usize| names.get(i).map(|name| name.as_bytes());
        name(a).cmp(&name(b))
    });
    let sorted: Vec<&str> = order
        .iter()
        .filter_map(|&i| names.get(i).copied())
        .collect();
    if let Some(pair) = sorted.windows(2).find(|pair| pair.first() == pair.get(1)) {
        let name = pair.first().copied().unwrap_or_default();
        return Err(Unrepairable::Duplicate {
            noun,
            name: name.to_owned(),
        });
    }
    let sequence = node.span().start();
    let starts: Vec<usize> = node
        .children()
        .iter()
        .map(|child| child.span().start())
        .collect();
    if starts.len() != names.len() {
        return Err(Unrepairable::Layout);
    }
    let spans = sequence_items(text, sequence, &starts).ok_or(Unrepairable::Layout)?;
    let (range, replacement) =
        permute(text, &spans, &order).ok_or(Unrepairable::TrailingComment)?;
    Ok(Fix {
        rule,
        title: format!("sort {path} by {key}"),
        edits: vec![TextEdit { range, replacement }],
        change: Change::Sort { path, key },
    })
}

fn lowercase_digest(
    text: &str,
    document: &Document,
    path: Address,
    rule: &'static RuleDoc,
) -> Result<Fix, Unrepairable> {
    let Some((Value::String(value), node)) = node_at(document, path.steps()) else {
        return Err(Unrepairable::NotAString(path));
    };
    let hex = value.strip_prefix("sha256:").unwrap_or_default();
    let upper_case_only = hex.len() == 64
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
        && hex.bytes().any(|b| b.is_ascii_uppercase());
    if !upper_case_only {
        return Err(Unrepairable::NotUpperCase);
    }
    let start = node.span().start();
    let written = text.get(start..).unwrap_or_default();
    let quote_length = usize::from(written.starts_with(['"', '\'']));
    let verbatim = written
        .get(quote_length..)
        .is_some_and(|rest| rest.starts_with(value.as_str()));
    if !verbatim {
        return Err(Unrepairable::NotVerbatim);
    }
    let hex_start = start + quote_length + "sha256:".len();
    Ok(Fix {
        rule,
        title: format!("write the digest at {path} in lower case"),
        edits: vec![TextEdit {
            range: hex_start..hex_start + hex.len(),
            replacement: hex.to_ascii_lowercase(),
        }],
        change: Change::Lowercase { path },
    })
}

#[cfg(test)]
mod tests {
    use super::Unrepairable;
    use crate::diagnostic::address;

    #[test]
    fn why_a_repair_cannot_be_made_reads_as_before() {
        let cases = [
            (
                Unrepairable::NotASequence(address!["spec", "cases"]),
                "/spec/cases is not a sequence",
            ),
            (
                Unrepairable::NoKey {
                    address: address!["spec", "cases"],
                    key: "name",
                },
                "an entry of /spec/cases has no name",
            ),
            (
                Unrepairable::Duplicate {
                    noun: "case",
                    name: "bugfix".to_owned(),
                },
                "case \"bugfix\" is a duplicate: numi cannot know which one to keep",
            ),
            (
                Unrepairable::Layout,
                "numi cannot move these entries without changing the layout around them",
            ),
            (
                Unrepairable::TrailingComment,
                "a comment at the end of a line would land before more of that line",
            ),
            (
                Unrepairable::NotAString(address!["spec", "outcome"]),
                "/spec/outcome is not a string",
            ),
            (
                Unrepairable::NotUpperCase,
                "only a digest in upper-case hex is fixable: numi cannot know the right digest",
            ),
            (
                Unrepairable::NotVerbatim,
                "the digest is not written as it reads (escapes, a tag or line breaks); fix it by hand",
            ),
        ];
        for (reason, message) in cases {
            assert_eq!(reason.to_string(), message);
        }
    }
}
