//! Rule ids as context-report derives them from a rule's own text (spec
//! 003, "Tasks"), and the blocks of an instruction text that carry them.
//! The same words give the same id in every tool, so a task can name a rule
//! without importing context-report.

/// Most words an id keeps.
const WORDS: usize = 6;
/// Most characters an id keeps.
const CHARACTERS: usize = 48;

/// The id of `text`: lower-cased as Unicode does, its runs of `[a-z0-9]`,
/// the first six joined by `-`, cut to 48 characters without a trailing
/// `-`; `rule` when nothing is left.
pub(crate) fn slug(text: &str) -> String {
    let lowered = text.to_lowercase();
    let words: Vec<&str> = lowered
        .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        .filter(|word| !word.is_empty())
        .take(WORDS)
        .collect();
    let joined = words.join("-");
    // Only ASCII is left, so a byte count is a character count.
    let cut = joined.get(..CHARACTERS).unwrap_or(&joined);
    let id = cut.trim_end_matches('-');
    if id.is_empty() {
        "rule".to_owned()
    } else {
        id.to_owned()
    }
}

/// The ids of `texts` in order, a repeat getting `-2`, `-3`, ... as the
/// repeats of one subject's file do.
pub(crate) fn numbered<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    texts
        .into_iter()
        .map(|text| {
            let base = slug(text);
            let count = seen.entry(base.clone()).or_insert(0);
            *count += 1;
            if *count == 1 {
                base
            } else {
                format!("{base}-{count}")
            }
        })
        .collect()
}

/// The logical blocks of a Markdown instruction text, as context-report's
/// extractor reads them: a bullet, or a run of lines, up to a blank line, a
/// heading, a table row, an HTML comment, a quote or a callout; fenced code
/// is skipped; `*`, `_` and backticks are dropped.
pub(crate) fn blocks(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut parts: Vec<&str> = Vec::new();
    let mut in_fence = false;
    let mut flush = |parts: &mut Vec<&str>| {
        if !parts.is_empty() {
            found.push(clean(&parts.join(" ")));
            parts.clear();
        }
    };
    for line in lines(text) {
        let content = line.trim_start();
        if content.starts_with("```") {
            flush(&mut parts);
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if is_break(content) {
            flush(&mut parts);
            continue;
        }
        if let Some(item) = bullet_text(content) {
            flush(&mut parts);
            parts.push(item);
        } else {
            parts.push(line.trim());
        }
    }
    flush(&mut parts);
    found
}

/// The ids a task may name in `text`, as context-report's extractor gives
/// them: the blocks it reads as rules, a repeat among them numbered `-2`,
/// `-3`, ...; then each block it passes over, by its own slug, unnumbered
/// (spec 003: a task that names a passed-over block promotes it).
pub(crate) fn block_ids(text: &str) -> Vec<String> {
    let blocks = blocks(text);
    let (rules, passed_over): (Vec<&String>, Vec<&String>) =
        blocks.iter().partition(|block| reads_as_rule(block));
    let mut ids = numbered(rules.into_iter().map(String::as_str));
    ids.extend(passed_over.into_iter().map(|block| slug(block)));
    ids
}

/// The fewest and most characters a block the extractor takes as a rule
/// holds (Python's `len`, code points).
const RULE_CHARACTERS: std::ops::RangeInclusive<usize> = 12..=400;

/// The first words that make a block read as an instruction, and the
/// phrases that do wherever they stand: context-report 0.1.0's
/// `directive_markers.json`.
const IMPERATIVE_OPENERS: [&str; 27] = [
    "add", "always", "avoid", "check", "commit", "do", "don't", "dont", "enforce", "ensure",
    "format", "keep", "name", "never", "no", "only", "prefer", "put", "run", "skip", "start",
    "stop", "target", "treat", "use", "validate", "write",
];
const DIRECTIVE_PHRASES: [&str; 18] = [
    "must",
    "must not",
    "should",
    "should not",
    "shall",
    "required",
    "forbidden",
    "do not",
    "don't",
    "never",
    "always",
    "prefer",
    "avoid",
    "instead of",
    "make sure",
    "be sure",
    "is not allowed",
    "not allowed",
];

/// Whether the extractor takes a block as a rule rather than passing it
/// over: 12 to 400 characters, and imperative (`is_directive`): its first
/// word, lower-cased and without `:`, `,` or `.` at either end, opens an
/// instruction, or a directive phrase stands in it between word
/// boundaries.
fn reads_as_rule(block: &str) -> bool {
    if !RULE_CHARACTERS.contains(&block.chars().count()) {
        return false;
    }
    let lowered = block.to_lowercase();
    let first = lowered
        .split(is_python_space)
        .find(|word| !word.is_empty())
        .unwrap_or_default()
        .trim_matches([':', ',', '.']);
    IMPERATIVE_OPENERS.contains(&first)
        || DIRECTIVE_PHRASES
            .iter()
            .any(|phrase| has_word(&lowered, phrase))
}

/// Whether `phrase` stands in `text` with a word boundary (Python's `\b`)
/// on either side.
fn has_word(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(at, _)| {
        let before = text.get(..at).and_then(|head| head.chars().next_back());
        let after = text
            .get(at + phrase.len()..)
            .and_then(|tail| tail.chars().next());
        let boundary = |outside: Option<char>, inside: Option<char>| {
            outside.is_none_or(|c| !is_word(c)) == inside.is_some_and(is_word)
        };
        boundary(before, phrase.chars().next()) && boundary(after, phrase.chars().next_back())
    })
}

/// A word character of Python's `re` on text: a letter or number of any
/// script, or `_`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whitespace as Python's `str.split()` splits on it: Unicode's, and the
/// four information separators.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Lines split where Python's `str.splitlines` splits them, as the
/// extractor does; `\r\n` is one break.
fn lines(text: &str) -> Vec<&str> {
    let breaks = |c: char| {
        matches!(
            c,
            '\n' | '\r'
                | '\u{0b}'
                | '\u{0c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        )
    };
    let mut found = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !breaks(c) {
            continue;
        }
        found.push(text.get(start..at).unwrap_or_default());
        start = at + c.len_utf8();
        if c == '\r' && chars.next_if(|&(_, next)| next == '\n').is_some() {
            start += 1;
        }
    }
    if start < text.len() {
        found.push(text.get(start..).unwrap_or_default());
    }
    found
}

/// Whether `content` (a line without its leading space) ends a block.
fn is_break(content: &str) -> bool {
    content.trim().is_empty()
        || is_heading(content)
        || content.starts_with('|')
        || content.starts_with("<!--")
        || content.starts_with('>')
        || content.starts_with("[!")
}

/// `#` to `######`, then a space.
fn is_heading(content: &str) -> bool {
    let hashes = content.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes)
        && content
            .get(hashes..)
            .and_then(|rest| rest.chars().next())
            .is_some_and(char::is_whitespace)
}

/// The text of a bullet or numbered item: `-`, `*`, `+`, or digits and
/// `.` or `)`, then space. A digit is any decimal digit, as Python's `\d`
/// reads one: `١. Never release on a Friday.` is a numbered item.
fn bullet_text(content: &str) -> Option<&str> {
    let after_marker = if let Some(rest) = content.strip_prefix(['-', '*', '+']) {
        rest
    } else {
        let digits: usize = content
            .chars()
            .take_while(|&c| is_decimal_digit(c))
            .map(char::len_utf8)
            .sum();
        if digits == 0 {
            return None;
        }
        content.get(digits..)?.strip_prefix(['.', ')'])?
    };
    if !after_marker.starts_with(char::is_whitespace) {
        return None;
    }
    Some(after_marker.trim_start())
}

/// The zero of every run of ten decimal digits (general category `Nd`) in
/// Unicode 14.0, the version of Python 3.11's `unicodedata`: Unicode
/// encodes each script's digits as one run from zero to nine.
const DIGIT_ZEROS: [u32; 66] = [
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
    0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0,
    0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

/// Whether `c` is a decimal digit of any script, as Python's `\d` is.
fn is_decimal_digit(c: char) -> bool {
    let code = u32::from(c);
    let run = DIGIT_ZEROS.partition_point(|&zero| zero <= code);
    run.checked_sub(1)
        .and_then(|index| DIGIT_ZEROS.get(index))
        .is_some_and(|&zero| code - zero < 10)
}

fn clean(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '*' | '_' | '`'))
        .collect::<String>()
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests;
