//! Where each plain (unquoted) scalar value of a document stands: for the
//! checks of a family whose tool reads YAML of another version, which
//! resolves plain scalars by other rules (`yes` is a boolean to YAML 1.1,
//! a string to YAML 1.2). Quoted and block scalars mean the same text to
//! every version, and keys are left out.

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::PathSegment;
use crate::Position;

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

/// Where the values of a document stand, event by event: the path of the
/// next value, and whether the next scalar is a key.
#[derive(Default)]
struct Walker {
    frames: Vec<Frame>,
    /// The path of the collection each frame stands for; `None` below a
    /// key that is no string, whose values no pointer reaches.
    paths: Vec<Option<Vec<PathSegment>>>,
}

impl Walker {
    /// The path of the value the next event starts, if a pointer reaches it.
    fn value_path(&self) -> Option<Vec<PathSegment>> {
        let mut path = self.paths.last().cloned().flatten().unwrap_or_default();
        if self.paths.last().is_some_and(Option::is_none) {
            return None;
        }
        match self.frames.last() {
            None => {}
            Some(Frame::Sequence(index)) => path.push(PathSegment::Index(*index)),
            Some(Frame::Mapping(Some(Some(key)))) => path.push(PathSegment::Key(key.clone())),
            Some(Frame::Mapping(_)) => return None,
        }
        Some(path)
    }

    /// Whether the next node is a mapping's key.
    fn at_key(&self) -> bool {
        matches!(self.frames.last(), Some(Frame::Mapping(None)))
    }

    /// Takes one event.
    fn step(&mut self, event: &Event<'_>) {
        let is_key = self.at_key();
        match event {
            Event::Scalar(value, ..) => {
                if is_key {
                    if let Some(Frame::Mapping(awaited)) = self.frames.last_mut() {
                        *awaited = Some(Some(value.to_string()));
                    }
                    return;
                }
                advance(&mut self.frames);
            }
            Event::Alias(_) => {
                if is_key {
                    if let Some(Frame::Mapping(awaited)) = self.frames.last_mut() {
                        *awaited = Some(None);
                    }
                } else {
                    advance(&mut self.frames);
                }
            }
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                let path = if is_key { None } else { self.value_path() };
                self.paths.push(path);
                self.frames
                    .push(if matches!(event, Event::SequenceStart(..)) {
                        Frame::Sequence(0)
                    } else {
                        Frame::Mapping(None)
                    });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                self.frames.pop();
                self.paths.pop();
                match self.frames.last_mut() {
                    // A collection as a key: no string key, so its value
                    // has no pointer.
                    Some(Frame::Mapping(awaited @ None)) => *awaited = Some(None),
                    _ => advance(&mut self.frames),
                }
            }
            _ => {}
        }
    }
}

/// Reads the events of the one document `text` holds, as the loader reads
/// it (a tab after a `:` as a space, so every node stands where it stands
/// in `text`), showing each to `visit` with where the walk stands before
/// it and the text read; false when the text does not parse.
fn walk(
    text: &str,
    mut visit: impl FnMut(&Walker, &Event<'_>, &saphyr_parser::Span, &str),
) -> bool {
    let mut walker = Walker::default();
    let Some(read) = super::comments::readable(text) else {
        return false;
    };
    let mut parser = Parser::new_from_str(&read);
    while let Some(next) = parser.next_event() {
        let Ok((event, span)) = next else {
            return false;
        };
        visit(&walker, &event, &span, &read);
        if matches!(event, Event::StreamEnd) {
            break;
        }
        walker.step(&event);
    }
    true
}

/// The plain scalar values of the one document `text` holds, in document
/// order; empty when the text does not parse (the loader says why).
pub fn plain_scalars(text: &str) -> Vec<PlainScalar> {
    let mut found = Vec::new();
    let parsed = walk(text, |walker, event, span, _| {
        if let Event::Scalar(value, style, _, tag) = event {
            if !walker.at_key() && *style == ScalarStyle::Plain && tag.is_none() {
                if let Some(path) = walker.value_path() {
                    found.push(PlainScalar {
                        path,
                        text: value.to_string(),
                        position: super::position(&span.start),
                    });
                }
            }
        }
    });
    if parsed { found } else { Vec::new() }
}

/// A mapping tagged as a set (`!!set`, YAML 1.1's unordered set of its
/// keys, which YAML 1.2's core schema does not have).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaggedSet {
    /// Its path, when a pointer reaches it.
    pub path: Option<Vec<PathSegment>>,
    /// The byte range of its tag in `text`.
    pub tag: (usize, usize),
}

/// The mappings of the one document `text` holds that are tagged
/// `tag:yaml.org,2002:set`, in document order; empty when the text does
/// not parse.
pub fn tagged_sets(text: &str) -> Vec<TaggedSet> {
    let mut found = Vec::new();
    let parsed = walk(text, |walker, event, span, read| {
        let Event::MappingStart(_, Some(tag)) = event else {
            return;
        };
        let full = "tag:yaml.org,2002:set";
        let is_set = format!("{}{}", tag.handle, tag.suffix) == full || tag.suffix == full;
        let byte = |index: usize| {
            read.char_indices()
                .map(|(at, _)| at)
                .chain(std::iter::once(read.len()))
                .nth(index)
        };
        // The node's properties start its span: the tag is written
        // there, in its shorthand or verbatim form.
        let written = byte(span.start.index())
            .zip(byte(span.end.index()))
            .and_then(|(start, end)| {
                let spanned = read.get(start..end.max(start))?;
                ["!!set", "!<tag:yaml.org,2002:set>"]
                    .iter()
                    .find_map(|form| {
                        spanned
                            .find(form)
                            .map(|at| (start + at, start + at + form.len()))
                    })
            });
        if let (true, Some(tag)) = (is_set, written) {
            found.push(TaggedSet {
                path: if walker.at_key() {
                    None
                } else {
                    walker.value_path()
                },
                tag,
            });
        }
    });
    if parsed { found } else { Vec::new() }
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
    fn sets_are_found_with_their_path_and_tag() {
        let text =
            "tags: !!set {a, b}\nnested:\n  - !<tag:yaml.org,2002:set>\n    c:\nmap: {x: y}\n";
        let sets = tagged_sets(text);
        assert_eq!(sets.len(), 2, "{sets:?}");
        assert_eq!(
            sets[0].path.as_deref().map(super::super::format_pointer),
            Some("/tags".to_owned())
        );
        assert_eq!(text.get(sets[0].tag.0..sets[0].tag.1), Some("!!set"));
        assert_eq!(
            sets[1].path.as_deref().map(super::super::format_pointer),
            Some("/nested/0".to_owned())
        );
        assert_eq!(
            text.get(sets[1].tag.0..sets[1].tag.1),
            Some("!<tag:yaml.org,2002:set>")
        );
        assert!(tagged_sets("a: !!map {b: c}\n").is_empty());
        assert!(tagged_sets("a: !!set {b\n").is_empty());
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
