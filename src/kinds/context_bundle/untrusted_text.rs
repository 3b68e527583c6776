//! Every text field of a ContextBundle is untrusted: written from retrieved
//! content or by a model, then labelled as such in a prompt. So each is one
//! line of at most 1024 bytes without control or bidirectional formatting
//! characters (the Trojan Source characters), which could hide or reorder
//! what a reader or a model sees.

use serde_json::Value;

use crate::diagnostic::{Address, Diagnostic, PathSegment};
use crate::kinds::checks::rule_fails;
use crate::text::quote;
use crate::yaml::TextFacts;

/// The most bytes one text field may hold.
const MAX_BYTES: usize = 1024;

/// Every text of the document, keys of free-form maps included, that breaks
/// the rule: at most one finding for its characters (the first offending
/// one) and one for its length. What the loader saw may already clear every
/// text at once.
pub(super) fn check(document: &Value, text: TextFacts) -> Vec<Diagnostic> {
    if text.printable_one_line && text.longest <= MAX_BYTES {
        return Vec::new();
    }
    let mut found = Vec::new();
    walk(document, &mut Vec::new(), &mut found);
    found
}

/// One step of the path from the root to a value.
enum Segment<'v> {
    Key(&'v str),
    Index(usize),
}

/// Visits every string and key below `value`, reached by `path`, which
/// borrows its keys: the address is made only for a finding, as nearly
/// every text passes.
fn walk<'v>(value: &'v Value, path: &mut Vec<Segment<'v>>, found: &mut Vec<Diagnostic>) {
    match value {
        Value::String(text) => check_text(text, path, false, found),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                walk(item, path, found);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                path.push(Segment::Key(key));
                check_text(key, path, true, found);
                walk(item, path, found);
                path.pop();
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn address(path: &[Segment<'_>]) -> Address {
    path.iter()
        .map(|segment| match segment {
            Segment::Key(key) => PathSegment::Key((*key).to_owned()),
            Segment::Index(i) => PathSegment::Index(*i),
        })
        .collect()
}

/// Printable ASCII within the length: the common case, decided bytewise.
fn is_plainly_fine(text: &str) -> bool {
    text.len() <= MAX_BYTES && text.bytes().all(|b| (0x20..0x7f).contains(&b))
}

fn check_text(text: &str, path: &[Segment<'_>], is_key: bool, found: &mut Vec<Diagnostic>) {
    if is_plainly_fine(text) {
        return;
    }
    let offending = text
        .chars()
        .find_map(|c| classify(c).map(|class| (c, class)));
    let too_long = text.len() > MAX_BYTES;
    if offending.is_none() && !too_long {
        return;
    }
    let address = address(path);
    let pointer = address.to_string();
    let subject = if is_key {
        format!("the key {}", quote(&pointer))
    } else {
        quote(&pointer)
    };
    if let Some((c, class)) = offending {
        let code_point = format!("U+{:04X}", u32::from(c));
        let message = match class {
            Class::LineBreak => {
                format!("untrusted text is one line: {subject} holds a line break ({code_point})")
            }
            Class::Control => {
                format!("untrusted text holds no control characters: {subject} holds {code_point}")
            }
            Class::Bidi => format!(
                "untrusted text holds no bidirectional formatting characters: {subject} holds {code_point}"
            ),
        };
        found.push(rule_fails(
            &super::catalogue::UNTRUSTED_TEXT,
            &message,
            address.clone(),
        ));
    }
    if too_long {
        found.push(rule_fails(
            &super::catalogue::UNTRUSTED_TEXT,
            &format!(
                "untrusted text is at most {MAX_BYTES} bytes: {subject} is {} bytes",
                text.len()
            ),
            address,
        ));
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    LineBreak,
    Control,
    Bidi,
}

fn classify(c: char) -> Option<Class> {
    match c {
        '\n' | '\r' | '\u{0085}' | '\u{2028}' | '\u{2029}' => Some(Class::LineBreak),
        '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{061C}' => Some(Class::Bidi),
        c if c.is_control() => Some(Class::Control),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
