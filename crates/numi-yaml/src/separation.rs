//! A tab between a mapping's `:` and its value. YAML 1.2 separates them
//! with any white space, tabs included (`{"a":<TAB>1}` is JSON, and YAML),
//! but saphyr refuses a `:` followed by tabs alone when the value starts
//! with a letter, a digit, `_` or `-` ("':' must be followed by a valid
//! YAML whitespace"). It does so to catch a block collection written on the
//! line of its `:` after a tab (`? a\n:<TAB>b: c`), where the tab would
//! indent the collection and only spaces may; for a scalar it is wrong,
//! and it misses such a collection after a space and a tab, or one that
//! starts with a quote or a property.
//!
//! So before saphyr reads a text, the first tab after each `:` saphyr
//! would refuse is written as a space, which takes the same byte and the
//! same column: every position saphyr gives stands as it does in the
//! original. The loader then refuses, itself, a block collection that
//! starts right after any white space with a tab that follows a `:`. A `:`
//! and a tab inside a quoted or block scalar are the scalar's text, not a
//! separation: a first read of the rewritten text says which bytes the
//! scalars hold ([`super::comments`] knows), and those tabs are left as
//! they are (see [`Separations::without`]).
//!
//! Only a text with a tab pays for this: for any other text [`rewrite`] is
//! one search. Reported upstream as saphyr-rs/saphyr#113 (a fix is open as
//! #130); once a release holds it, this module and its second read go.

use std::borrow::Cow;

/// White space with a tab between a `:` and a value on its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Separation {
    /// The byte offset of the first tab.
    pub(super) tab: usize,
    /// Whether saphyr would refuse it, so the tab is written as a space.
    pub(super) rewritten: bool,
    /// The tab's index in characters, as saphyr's markers count them.
    pub(super) tab_index: usize,
    /// The index in characters of the value's first character, after the
    /// white space.
    pub(super) value_index: usize,
}

/// The separations of a text, in text order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Separations(Vec<Separation>);

/// No rewrite.
pub(super) static NO_SEPARATIONS: Separations = Separations(Vec::new());

impl Separations {
    /// Whether a node of saphyr's that starts at `index` (in characters) is
    /// the value right after a tab.
    pub(super) fn value_at(&self, index: usize) -> Option<&Separation> {
        let at = self.0.partition_point(|s| s.value_index < index);
        self.0.get(at).filter(|s| s.value_index == index)
    }

    /// These separations less those inside the byte ranges `inside` (in
    /// text order).
    pub(super) fn without(&self, inside: &[(usize, usize)]) -> Separations {
        Separations(
            self.0
                .iter()
                .filter(|s| {
                    let at = inside.partition_point(|&(_, end)| end <= s.tab);
                    inside.get(at).is_none_or(|&(start, _)| start > s.tab)
                })
                .copied()
                .collect(),
        )
    }

    /// Whether any of these tabs is written as a space.
    pub(super) fn rewrites(&self) -> bool {
        self.0.iter().any(|s| s.rewritten)
    }

    /// `text` with each of these tabs saphyr would refuse written as a
    /// space.
    pub(super) fn apply<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if !self.rewrites() {
            return Cow::Borrowed(text);
        }
        let mut bytes = text.as_bytes().to_vec();
        for separation in self.0.iter().filter(|s| s.rewritten) {
            if let Some(byte) = bytes.get_mut(separation.tab) {
                *byte = b' ';
            }
        }
        // A tab and a space are both one byte of ASCII: the text is still
        // UTF-8.
        Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned()))
    }
}

/// Every white space with a tab between a `:` and a value on its line
/// that may be a block collection (not a flow collection, nor a comment):
/// `None` when there is none.
pub(super) fn rewrite(text: &str) -> Option<Separations> {
    let bytes = text.as_bytes();
    memchr::memchr(b'\t', bytes)?;
    let blank = |b: &u8| matches!(b, b' ' | b'\t');
    let mut found = Vec::new();
    // Characters before `counted`, a byte offset: saphyr counts characters.
    let (mut counted, mut chars) = (0, 0);
    let mut after = 0;
    for tab in memchr::memchr_iter(b'\t', bytes) {
        if tab < after {
            continue;
        }
        let run_start = bytes.get(..tab).map_or(tab, |before| {
            tab - before.iter().rev().take_while(|b| blank(b)).count()
        });
        let value = bytes.get(tab..).map_or(tab, |rest| {
            tab + rest.iter().take_while(|b| blank(b)).count()
        });
        after = value;
        if run_start == 0 || bytes.get(run_start - 1) != Some(&b':') {
            continue;
        }
        let Some(&first) = bytes.get(value) else {
            continue;
        };
        if matches!(first, b'\n' | b'\r' | b'#') || is_flow_collection(bytes, value) {
            continue;
        }
        let first_tab = run_start
            + bytes
                .get(run_start..value)
                .map_or(0, |run| run.iter().take_while(|&&b| b == b' ').count());
        let rewritten = first_tab == run_start
            && bytes
                .get(run_start..value)
                .is_some_and(|run| run.iter().all(|&b| b == b'\t'))
            && (first.is_ascii_alphanumeric() || matches!(first, b'_' | b'-'));
        chars += text
            .get(counted..first_tab)
            .map_or(0, |run| run.chars().count());
        counted = first_tab;
        found.push(Separation {
            tab: first_tab,
            rewritten,
            tab_index: chars,
            value_index: chars + (value - first_tab),
        });
    }
    (!found.is_empty()).then_some(Separations(found))
}

/// Whether the node at byte `at` is a flow collection, after any
/// properties (`&anchor`, `!tag`) and the white space between them.
fn is_flow_collection(bytes: &[u8], mut at: usize) -> bool {
    loop {
        match bytes.get(at) {
            Some(b'[' | b'{') => return true,
            Some(b'&' | b'!') => {
                at += bytes.get(at..).map_or(1, |rest| {
                    rest.iter()
                        .take_while(|&&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
                        .count()
                });
                at += bytes.get(at..).map_or(0, |rest| {
                    rest.iter()
                        .take_while(|&&b| matches!(b, b' ' | b'\t'))
                        .count()
                });
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tabs(text: &str) -> Vec<(usize, usize, usize, bool)> {
        rewrite(text)
            .unwrap_or_default()
            .0
            .iter()
            .map(|s| (s.tab, s.tab_index, s.value_index, s.rewritten))
            .collect()
    }

    #[test]
    fn a_tab_saphyr_refuses_is_found_and_written_as_a_space() {
        let text = "{\"é\":\t1, \"b\":\t\t-2, \"c\":\t\"x\", \"d\": \tx}";
        // "é" is two bytes and one character.
        assert_eq!(
            tabs(text),
            [
                (6, 5, 6, true),
                (14, 13, 15, true),
                (24, 23, 24, false),
                (35, 34, 35, false)
            ]
        );
        let rewritten = rewrite(text).unwrap_or_default().apply(text);
        assert_eq!(
            rewritten,
            "{\"é\": 1, \"b\": \t-2, \"c\":\t\"x\", \"d\": \tx}"
        );
    }

    #[test]
    fn a_tab_before_a_line_end_a_comment_or_a_flow_collection_is_left_alone() {
        for text in [
            "a:\t\n",
            "a:\t# c\n",
            "a:b\tc\n",
            "{\"a\":\t[1]}",
            "a: \t&x {b: c}\n",
            "a:\t!!map\t{b: c}\n",
            "a: b\n",
        ] {
            assert_eq!(rewrite(text), None, "{text:?}");
        }
    }

    #[test]
    fn separations_inside_spans_are_left_out() {
        let Some(found) = rewrite("a:\tb\nc:\td\ne:\tf\n") else {
            panic!("three tabs")
        };
        let kept = found.without(&[(4, 9)]);
        assert_eq!(kept.0.len(), 2);
        assert!(kept.value_at(3).is_some() && kept.value_at(13).is_some());
        assert!(kept.value_at(8).is_none());
    }
}
