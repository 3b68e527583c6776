//! A tab between a mapping's `:` and its value. YAML 1.2 separates them
//! with any white space, tabs included (`{"a":<TAB>1}` is JSON, and YAML),
//! but saphyr refuses a `:` followed by tabs alone when the value starts
//! with a letter, a digit, `_` or `-` ("':' must be followed by a valid
//! YAML whitespace"). It does so to catch a block collection written on the
//! line of its `:` after a tab (`? a\n:<TAB>b: c`), where the tab would
//! indent the collection and only spaces may; for a scalar it is wrong.
//!
//! So before saphyr reads a text, the first tab after each such `:` is
//! written as a space, which takes the same byte and the same column: every
//! position saphyr gives stands as it does in the original. The loader then
//! refuses, itself, a block collection that starts right after such a tab,
//! as saphyr meant to. A `:` and tab inside a quoted or block scalar are the
//! scalar's text, not a separation: a first read of the rewritten text says
//! which bytes the scalars hold ([`super::comments`] knows), and those tabs
//! are left as they are (see [`Separations::without`]).
//!
//! Only a text with `:` and a tab side by side pays for this: for any other
//! text [`rewrite`] is one search.

use std::borrow::Cow;

use memchr::memmem;

/// One tab written as a space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Separation {
    /// The byte offset of the tab, right after its `:`.
    pub(super) tab: usize,
    /// The tab's index in characters, as saphyr's markers count them.
    pub(super) tab_index: usize,
    /// The index in characters of the value's first character, after the
    /// tabs.
    pub(super) value_index: usize,
}

/// The tabs a rewrite wrote as spaces, in text order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Separations(Vec<Separation>);

/// No rewrite.
pub(super) static NO_SEPARATIONS: Separations = Separations(Vec::new());

impl Separations {
    /// Whether a node of saphyr's that starts at `index` (in characters) is
    /// the value right after a rewritten tab.
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

    /// `text` with each of these tabs written as a space.
    pub(super) fn apply<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.0.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut bytes = text.as_bytes().to_vec();
        for separation in &self.0 {
            if let Some(byte) = bytes.get_mut(separation.tab) {
                *byte = b' ';
            }
        }
        // A tab and a space are both one byte of ASCII: the text is still
        // UTF-8.
        Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned()))
    }
}

/// The tabs of `text` saphyr would refuse after a `:`: each `:` followed by
/// tabs alone and then a character saphyr takes for the start of a word.
/// `None` when there are none.
pub(super) fn rewrite(text: &str) -> Option<Separations> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    // Characters before `counted`, a byte offset: saphyr counts characters.
    let (mut counted, mut chars) = (0, 0);
    for colon in memmem::find_iter(bytes, b":\t") {
        let tab = colon + 1;
        let tabs = bytes
            .get(tab..)
            .map_or(0, |rest| rest.iter().take_while(|&&b| b == b'\t').count());
        let starts_word = bytes
            .get(tab + tabs)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'));
        if !starts_word {
            continue;
        }
        chars += text.get(counted..tab).map_or(0, |run| run.chars().count());
        counted = tab;
        found.push(Separation {
            tab,
            tab_index: chars,
            value_index: chars + tabs,
        });
    }
    (!found.is_empty()).then_some(Separations(found))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tabs(text: &str) -> Vec<(usize, usize, usize)> {
        rewrite(text)
            .unwrap_or_default()
            .0
            .iter()
            .map(|s| (s.tab, s.tab_index, s.value_index))
            .collect()
    }

    #[test]
    fn a_tab_before_a_word_is_found_and_written_as_a_space() {
        let text = "{\"é\":\t1, \"b\":\t\t-2, \"c\":\t\"x\", \"d\": \tx}";
        // "é" is two bytes and one character.
        assert_eq!(tabs(text), [(6, 5, 6), (14, 13, 15)]);
        let rewritten = rewrite(text).unwrap_or_default().apply(text);
        assert_eq!(
            rewritten,
            "{\"é\": 1, \"b\": \t-2, \"c\":\t\"x\", \"d\": \tx}"
        );
    }

    #[test]
    fn a_tab_before_anything_else_is_left_alone() {
        for text in [
            "{\"a\":\t\"x\"}",
            "a:\t\n",
            "a:\t# c\n",
            "a: \tb\n",
            "a:b\tc\n",
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
