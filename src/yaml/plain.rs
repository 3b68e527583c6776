//! Where each plain (unquoted) scalar value of a document stands: for the
//! checks of a family whose tool reads YAML of another version, which
//! resolves plain scalars by other rules (`yes` is a boolean to YAML 1.1,
//! a string to YAML 1.2). Quoted and block scalars mean the same text to
//! every version, and keys are left out.

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::PathSegment;
use crate::diagnostic::Position;

/// One plain scalar value, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainScalar {
    pub path: Vec<PathSegment>,
    pub text: String,
    pub position: Position,
}

enum Frame {
    /// A mapping, and the key whose value comes next; `None` while a key
    /// is awaited, `Some(None)` after a key that is no string.
    Mapping(Option<Option<String>>),
    Sequence(usize),
}

/// The plain scalar values of the one document `text` holds, in document
/// order; empty when the text does not parse (the loader says why).
pub fn plain_scalars(text: &str) -> Vec<PlainScalar> {
    let mut found = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    // The path of the collection each frame stands for; `None` below a
    // key that is no string, whose values no pointer reaches.
    let mut paths: Vec<Option<Vec<PathSegment>>> = Vec::new();
    // Read as the loader reads it (a tab after a `:` as a space): every
    // scalar stands where it stands in `text`.
    let Some(read) = super::comments::readable(text) else {
        return Vec::new();
    };
    let mut parser = Parser::new_from_str(&read);
    while let Some(next) = parser.next_event() {
        let Ok((event, span)) = next else {
            return Vec::new();
        };
        let value_path = || -> Option<Vec<PathSegment>> {
            let mut path = paths.last().cloned().flatten().unwrap_or_default();
            if paths.last().is_some_and(Option::is_none) {
                return None;
            }
            match frames.last() {
                None => {}
                Some(Frame::Sequence(index)) => path.push(PathSegment::Index(*index)),
                Some(Frame::Mapping(Some(Some(key)))) => path.push(PathSegment::Key(key.clone())),
                Some(Frame::Mapping(_)) => return None,
            }
            Some(path)
        };
        let is_key = matches!(frames.last(), Some(Frame::Mapping(None)));
        match event {
            Event::Scalar(value, style, _, tag) => {
                if is_key {
                    if let Some(Frame::Mapping(awaited)) = frames.last_mut() {
                        *awaited = Some(Some(value.into_owned()));
                    }
                    continue;
                }
                if style == ScalarStyle::Plain && tag.is_none() {
                    if let Some(path) = value_path() {
                        found.push(PlainScalar {
                            path,
                            text: value.into_owned(),
                            position: super::position(&span.start),
                        });
                    }
                }
                advance(&mut frames);
            }
            Event::Alias(_) => {
                if is_key {
                    if let Some(Frame::Mapping(awaited)) = frames.last_mut() {
                        *awaited = Some(None);
                    }
                } else {
                    advance(&mut frames);
                }
            }
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                let path = if is_key { None } else { value_path() };
                paths.push(path);
                frames.push(if matches!(event, Event::SequenceStart(..)) {
                    Frame::Sequence(0)
                } else {
                    Frame::Mapping(None)
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                frames.pop();
                paths.pop();
                match frames.last_mut() {
                    // A collection as a key: no string key, so its value
                    // has no pointer.
                    Some(Frame::Mapping(awaited @ None)) => *awaited = Some(None),
                    _ => advance(&mut frames),
                }
            }
            Event::StreamEnd => break,
            _ => {}
        }
    }
    found
}

/// The frame on top has taken one value.
fn advance(frames: &mut [Frame]) {
    match frames.last_mut() {
        Some(Frame::Sequence(index)) => *index += 1,
        Some(Frame::Mapping(awaited)) => *awaited = None,
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, String, u32)> {
        plain_scalars(text)
            .into_iter()
            .map(|scalar| {
                (
                    super::super::format_pointer(&scalar.path),
                    scalar.text,
                    scalar.position.line,
                )
            })
            .collect()
    }

    #[test]
    fn plain_values_by_pointer_quoted_and_keys_left_out() {
        let text = "tags: [yes, 'no', \"on\", 1:30]\nplugins:\n  - ../x\n  - |\n    block\nruns: 3\nnested: {a: [b, {c: d}]}\n? [complex]\n: hidden\nafter: =\n";
        assert_eq!(
            found(text),
            [
                ("/tags/0".to_owned(), "yes".to_owned(), 1),
                ("/tags/3".to_owned(), "1:30".to_owned(), 1),
                ("/plugins/0".to_owned(), "../x".to_owned(), 3),
                ("/runs".to_owned(), "3".to_owned(), 6),
                ("/nested/a/0".to_owned(), "b".to_owned(), 7),
                ("/nested/a/1/c".to_owned(), "d".to_owned(), 7),
                ("/after".to_owned(), "=".to_owned(), 10),
            ]
        );
    }

    #[test]
    fn tagged_aliased_and_unparsable_text_give_nothing_wrong() {
        assert_eq!(found("a: !!str yes\nb: &x on\nc: *x\n").len(), 1);
        assert_eq!(found("a:\tyes\n"), [("/a".to_owned(), "yes".to_owned(), 1)]);
        assert_eq!(found("a: [unclosed\n"), Vec::new());
        assert_eq!(found("plain"), [(String::new(), "plain".to_owned(), 1)]);
    }
}
