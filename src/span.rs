//! Where a node stands in a document's text: the byte offset of a loader
//! position, and the extent of the YAML token that starts there. The pretty
//! report underlines that token; the language server sends it as a range.

use crate::diagnostic::Position;

/// The byte offset of a line and column (a column counts characters), or
/// the nearest end of line or text when the position lies past it.
pub fn offset(text: &str, position: Position) -> usize {
    let line_index = usize::try_from(position.line.saturating_sub(1)).unwrap_or(usize::MAX);
    let Some(line_start) = line_starts(text).nth(line_index) else {
        return text.len();
    };
    let line = text.get(line_start..).unwrap_or_default();
    let line_length = line.find('\n').unwrap_or(line.len());
    let column_index = usize::try_from(position.column.saturating_sub(1)).unwrap_or(usize::MAX);
    let within = line
        .char_indices()
        .nth(column_index)
        .map_or(line_length, |(at, _)| at.min(line_length));
    line_start + within
}

fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1))
}

/// The length in bytes of the YAML token starting at `start`: a quoted
/// scalar with its quotes, a flow collection that closes on its line, or a
/// plain scalar or key up to what ends it. Enough to underline the node.
pub fn token_length(text: &str, start: usize) -> usize {
    let Some(rest) = text.get(start..) else {
        return 0;
    };
    let line = rest.split('\n').next().unwrap_or_default();
    let line_prefix = text
        .get(..start)
        .and_then(|before| before.rsplit('\n').next())
        .unwrap_or_default();
    let length = match line.chars().next() {
        None => 0,
        // A position on a tab is a finding about the tab (YAML refuses it
        // in indentation): the tab alone is the token.
        Some('\t') => return 1,
        Some(quote @ ('"' | '\'')) => quoted_length(line, quote),
        Some('{' | '[') => flow_length(line).unwrap_or(1),
        Some('-' | '?' | ':') if line.chars().nth(1).is_none_or(char::is_whitespace) => 1,
        Some(_) => plain_length(line, in_flow(line_prefix)),
    };
    let token = line.get(..length).unwrap_or_default();
    token.trim_end().len()
}

/// A quoted scalar's length with its quotes: `\"` escapes a double quote,
/// `''` a single one.
fn quoted_length(line: &str, quote: char) -> usize {
    let mut escaped = false;
    let mut chars = line.char_indices().skip(1).peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' if quote == '"' && !escaped => escaped = true,
            '\'' if quote == '\'' && chars.peek().is_some_and(|&(_, next)| next == '\'') => {
                chars.next();
            }
            c if c == quote && !escaped => return at + c.len_utf8(),
            _ => escaped = false,
        }
    }
    line.len()
}

/// The length of a flow collection that closes on the same line.
fn flow_length(line: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quoted: Option<char> = None;
    for (at, c) in line.char_indices() {
        match (quoted, c) {
            (Some(q), c) if c == q => quoted = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quoted = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a flow collection is open before the token on its line.
fn in_flow(line_prefix: &str) -> bool {
    let opened = line_prefix.matches(['{', '[']).count();
    let closed = line_prefix.matches(['}', ']']).count();
    opened > closed
}

fn plain_length(line: &str, in_flow: bool) -> usize {
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        let ends = match c {
            ':' => line
                .get(at + 1..)
                .and_then(|after| after.chars().next())
                .is_none_or(|next| next.is_whitespace() || (in_flow && ",]}".contains(next))),
            '#' => previous.is_whitespace(),
            ',' | ']' | '}' => in_flow,
            _ => false,
        };
        if ends {
            return at;
        }
        previous = c;
    }
    line.len()
}
