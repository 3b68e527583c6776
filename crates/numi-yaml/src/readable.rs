//! A text as saphyr can be asked where its scalars stand, every byte where
//! it stood: saphyr refuses a tab after a `:` before a word, so that tab is
//! read as a space (see [`separation`]: a space and a tab separate alike,
//! and inside a scalar either is one character of its text), and it
//! miscounts a character wider than a byte on a directive line, so those
//! are spelt in ASCII. The comment scan and the surrogate rewrite both ask
//! saphyr so.

use std::borrow::Cow;

use super::separation;

/// `text` with the corrections above; each keeps every byte where it
/// stood, so a byte offset in the result is one in `text`.
pub(super) fn for_spans(text: Cow<'_, str>) -> Cow<'_, str> {
    let separated = match separation::rewrite(&text) {
        None => text,
        Some(found) => Cow::Owned(found.apply(&text).into_owned()),
    };
    match directives_in_ascii(&separated) {
        None => separated,
        Some(ascii) => Cow::Owned(ascii),
    }
}

/// `text` with every character wider than a byte on a directive line (a
/// line of a document's prologue, before its `---`, that starts with `%`)
/// spelt as that many `x`s, or `None` when no such line holds one. saphyr
/// counts such a character as more than one when it passes over a
/// directive it does not know, so every span after it would stand too far
/// on; no scalar's text is on a directive line, and the byte of each later
/// character stays where it was.
fn directives_in_ascii(text: &str) -> Option<String> {
    let mut in_prologue = true;
    let mut ascii: Option<String> = None;
    let mut copied = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let directive = in_prologue && line.starts_with('%');
        if line.starts_with("...") {
            in_prologue = true;
        } else if !directive && !line.trim().is_empty() && !line.trim_start().starts_with('#') {
            in_prologue = false;
        }
        if directive && !line.is_ascii() {
            let ascii = ascii.get_or_insert_with(|| String::with_capacity(text.len()));
            ascii.push_str(text.get(copied..at)?);
            for character in line.chars() {
                if character.is_ascii() {
                    ascii.push(character);
                } else {
                    ascii.extend(std::iter::repeat_n('x', character.len_utf8()));
                }
            }
            copied = at + line.len();
        }
        at += line.len();
    }
    let mut ascii = ascii?;
    ascii.push_str(text.get(copied..)?);
    Some(ascii)
}

#[cfg(test)]
mod tests {
    use super::directives_in_ascii;

    #[test]
    fn only_a_directive_line_of_wide_characters_is_spelt_again() {
        assert_eq!(directives_in_ascii("a: \u{e9}\n"), None);
        assert_eq!(directives_in_ascii("%YAML 1.2\n---\na: b\n"), None);
        assert_eq!(directives_in_ascii("a: \"\u{e9}\n%x\"\n"), None);
        assert_eq!(
            directives_in_ascii("%\u{e9}\n--- \u{e9}\n").as_deref(),
            Some("%xx\n--- \u{e9}\n")
        );
        assert_eq!(
            directives_in_ascii("a: \u{e9}\n...\n%\u{e9}\n---\n").as_deref(),
            Some("a: \u{e9}\n...\n%xx\n---\n")
        );
    }
}
