//! Where the items of a sequence stand in the text, comments included, so
//! that a sort is a splice of text. The loader records the bytes of each
//! node; the layout around them (dashes, comment lines, commas) is read here.
//!
//! An item is its own lines (block style) or its own node (flow style),
//! with the comment lines directly above it and the comment at the end of
//! its line. What lies between items (blank lines, commas) stays in place.

use std::ops::Range;

use crate::yaml::LineIndex;

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// One item of a sequence, as a splice sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ItemSpan {
    /// The item with its comment lines above it: what moves.
    pub(crate) body: Range<usize>,
    /// After the body: the text that stays in this place (a comma).
    pub(crate) separator: Range<usize>,
    /// The comment at the end of the item's line, with the spaces before
    /// it, when the item's line ends after it (flow style only: in block
    /// style the body holds it). `None` when more of the sequence follows
    /// on the line, so no comment can stand there.
    pub(crate) tail: Option<Range<usize>>,
}

/// The spans of the items of the sequence that starts at `sequence`, whose
/// items start at `items`; `None` when the text is not laid out in a way
/// this splice knows (the fix is then not offered).
pub(crate) fn sequence_items(
    text: &str,
    sequence: usize,
    items: &[usize],
) -> Option<Vec<ItemSpan>> {
    // The lines as YAML counts them: a line feed, a carriage return or
    // both end a line, so a moved item keeps the line ends it was written
    // with, whichever they are.
    let lines = LineIndex::new(text);
    match text.get(sequence..)?.chars().next()? {
        '[' => flow_items(&lines, items),
        '-' => block_items(&lines, items),
        _ => None,
    }
}

fn block_items(lines: &LineIndex<'_>, items: &[usize]) -> Option<Vec<ItemSpan>> {
    let text = lines.text();
    let mut dashes = Vec::with_capacity(items.len());
    let mut column = None;
    for &item in items {
        let dash = dash_before(text, item)?;
        let start = lines.line_start(dash);
        let before = text.get(start..dash)?;
        if !before.bytes().all(|b| b == b' ') {
            return None;
        }
        if column.is_some_and(|column| column != before.len()) {
            return None;
        }
        column = Some(before.len());
        dashes.push(start);
    }
    let column = column?;
    let starts: Vec<usize> = dashes
        .iter()
        .map(|&dash_line| leading_comments(lines, dash_line, column))
        .collect();
    let mut spans = Vec::with_capacity(items.len());
    for (i, &dash_line) in dashes.iter().enumerate() {
        let start = *starts.get(i)?;
        let end = match starts.get(i + 1) {
            Some(&next) => last_content_before(lines, dash_line, next),
            None => end_of_last_item(lines, dash_line, column),
        };
        if end < start
            || spans
                .last()
                .is_some_and(|last: &ItemSpan| last.body.end > start)
        {
            return None;
        }
        spans.push(ItemSpan {
            body: start..end,
            separator: end..end,
            tail: None,
        });
    }
    Some(spans)
}

/// The `-` of a block sequence item whose node starts at `item`: the first
/// character before it that is not white space.
fn dash_before(text: &str, item: usize) -> Option<usize> {
    let before = text.get(..item)?;
    let dash = before
        .trim_end_matches([' ', '\t', '\n', '\r'])
        .len()
        .checked_sub(1)?;
    (before.as_bytes().get(dash) == Some(&b'-')).then_some(dash)
}

/// Where an item's lines start: its dash line, or the comment lines
/// directly above it that are no more indented than its dash (a comment
/// indented further belongs to the body of the item before).
fn leading_comments(lines: &LineIndex<'_>, dash_line: usize, column: usize) -> usize {
    let mut start = dash_line;
    while let Some(previous) = lines.previous_line(start) {
        let line = lines.line_text(previous);
        if is_comment(line) && indentation(line) <= column {
            start = previous;
        } else {
            break;
        }
    }
    start
}

/// The end of the last line that is neither blank before `next` (the start
/// of the next item's lines), never before the end of the dash line.
fn last_content_before(lines: &LineIndex<'_>, dash_line: usize, next: usize) -> usize {
    let mut start = next;
    while let Some(previous) = lines.previous_line(start) {
        if previous <= dash_line || !is_blank(lines.line_text(previous)) {
            return lines.line_end(previous.max(dash_line));
        }
        start = previous;
    }
    lines.line_end(dash_line)
}

/// The end of the last item of a block sequence: its dash line and every
/// line after it indented more than the dash, blank lines between them
/// included, trailing blank lines not.
fn end_of_last_item(lines: &LineIndex<'_>, dash_line: usize, column: usize) -> usize {
    let mut end = lines.line_end(dash_line);
    let mut next = lines.next_line(dash_line);
    while let Some(start) = next {
        let line = lines.line_text(start);
        if !is_blank(line) {
            if indentation(line) <= column {
                break;
            }
            end = lines.line_end(start);
        }
        next = lines.next_line(start);
    }
    end
}

fn flow_items(lines: &LineIndex<'_>, items: &[usize]) -> Option<Vec<ItemSpan>> {
    let text = lines.text();
    let mut spans: Vec<ItemSpan> = Vec::with_capacity(items.len());
    for &item in items {
        let end = flow_node_end(lines, item)?;
        let line = lines.line_start(item);
        let starts_line = text.get(line..item)?.bytes().all(|b| b == b' ');
        let mut start = item;
        if starts_line {
            let mut above = line;
            while let Some(previous) = lines.previous_line(above) {
                if !is_comment(lines.line_text(previous)) {
                    break;
                }
                above = previous;
            }
            if above < line {
                // From the comment's `#`: the indentation stays in place.
                start = above + indentation(lines.line_text(above));
            }
        }
        if spans.last().is_some_and(|last| last.body.end > start) {
            return None;
        }
        let line_end = lines.line_end(end);
        let after = text.get(end..line_end)?;
        let spaces = after.len() - after.trim_start_matches(' ').len();
        let separator_end = match after.get(spaces..)?.strip_prefix(',') {
            Some(_) => end + spaces + 1,
            None => end,
        };
        let rest = text.get(separator_end..line_end)?;
        let tail = (is_blank(rest) || is_comment(rest)).then_some(separator_end..line_end);
        spans.push(ItemSpan {
            body: start..end,
            separator: end..separator_end,
            tail,
        });
    }
    Some(spans)
}

/// The end of the flow mapping or sequence that starts at `start`; `None`
/// for any other node.
fn flow_node_end(lines: &LineIndex<'_>, start: usize) -> Option<usize> {
    let bytes = lines.text().as_bytes();
    if !matches!(bytes.get(start), Some(b'{' | b'[')) {
        return None;
    }
    let mut depth = 0usize;
    let mut i = start;
    // Whether a quote here would open a quoted scalar: after an indicator
    // or white space, not inside a plain scalar (`it's`).
    let mut token_start = true;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'{' | b'[' => {
                depth += 1;
                token_start = true;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
                token_start = false;
            }
            b'"' | b'\'' if token_start => {
                i = quoted_end(bytes, i)?;
                token_start = false;
                continue;
            }
            b'#' if token_start => {
                i = lines.line_end(i);
                continue;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' => token_start = true,
            _ => token_start = false,
        }
        i += 1;
    }
    None
}

/// The offset just after the quoted scalar that opens at `start`.
fn quoted_end(bytes: &[u8], start: usize) -> Option<usize> {
    let quote = *bytes.get(start)?;
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        if quote == b'"' && b == b'\\' {
            i += 2;
            continue;
        }
        if b == quote {
            if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return Some(i + 1);
        }
        i += 1;
    }
    None
}

/// The sequence's items placed in `order` (`order[slot]` is the item that
/// goes to `slot`): one replacement for the text from the first item's
/// start to the last item's end. `None` when an item's end-of-line comment
/// would land where no comment can stand.
pub(crate) fn permute(
    text: &str,
    spans: &[ItemSpan],
    order: &[usize],
) -> Option<(Range<usize>, String)> {
    let first = spans.first()?;
    let last = spans.last()?;
    let end = |span: &ItemSpan| {
        span.tail
            .as_ref()
            .map_or(span.separator.end, |tail| tail.end)
    };
    let region = first.body.start..end(last);
    let mut out = String::with_capacity(region.len());
    for (slot, span) in spans.iter().enumerate() {
        let moved = spans.get(*order.get(slot)?)?;
        out.push_str(text.get(moved.body.clone())?);
        out.push_str(text.get(span.separator.clone())?);
        let moved_tail = moved
            .tail
            .as_ref()
            .and_then(|tail| text.get(tail.clone()))
            .unwrap_or_default();
        match &span.tail {
            Some(_) => out.push_str(moved_tail),
            None if moved_tail.trim().is_empty() => {}
            None => return None,
        }
        if let Some(next) = spans.get(slot + 1) {
            out.push_str(text.get(end(span)..next.body.start)?);
        }
    }
    Some((region, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str, sequence: &str, items: &[&str]) -> Vec<String> {
        let at = |needle: &str| text.find(needle).unwrap();
        let items: Vec<usize> = items.iter().map(|item| at(item)).collect();
        sequence_items(text, at(sequence), &items)
            .unwrap()
            .iter()
            .map(|span| text[span.body.clone()].to_owned())
            .collect()
    }

    #[test]
    fn block_items_take_their_comments_and_leave_the_blank_lines() {
        let text = "cases:\n  # about b\n  - name: b # b\n    x: 1\n    # inside b\n\n  # about a\n  - name: a\n\n# after\nnext: 1\n";
        assert_eq!(
            spans(text, "- name: b", &["name: b", "name: a"]),
            vec![
                "  # about b\n  - name: b # b\n    x: 1\n    # inside b",
                "  # about a\n  - name: a"
            ]
        );
    }

    #[test]
    fn an_item_on_the_line_after_its_dash_is_found() {
        let text = "s:\n-\n  name: b\n- name: a\n";
        assert_eq!(
            spans(text, "-\n", &["name: b", "name: a"]),
            vec!["-\n  name: b", "- name: a"]
        );
    }

    #[test]
    fn block_items_at_different_columns_are_not_spliced() {
        let text = "s:\n  - a: 1\n- b: 2\n";
        let items = [text.find("a: 1").unwrap(), text.find("b: 2").unwrap()];
        assert_eq!(sequence_items(text, text.find('-').unwrap(), &items), None);
    }

    #[test]
    fn flow_items_end_at_their_bracket_whatever_they_quote() {
        let end = |text: &str, start: usize| flow_node_end(&LineIndex::new(text), start);
        let text = "[{a: \"}#\", b: 'it''s'}, {c: it's}]";
        assert_eq!(end(text, 1), Some(22));
        assert_eq!(end(text, 24), Some(33));
        assert_eq!(end("{a: [1, 2}", 0), None);
        assert_eq!(end("a", 0), None);
        // A comment ends at any line break, a lone carriage return too.
        assert_eq!(end("{a: 1, # }\r}", 0), Some(12));
    }

    #[test]
    fn flow_items_carry_their_comments() {
        let text = "s: [\n  # about b\n  {n: b},  # b\n  {n: a}\n]\n";
        let sequence = text.find('[').unwrap();
        let items = [text.find("{n: b}").unwrap(), text.find("{n: a}").unwrap()];
        let found = sequence_items(text, sequence, &items).unwrap();
        let (range, replacement) = permute(text, &found, &[1, 0]).unwrap();
        let mut fixed = text.to_owned();
        fixed.replace_range(range, &replacement);
        assert_eq!(fixed, "s: [\n  {n: a},\n  # about b\n  {n: b}  # b\n]\n");
    }

    #[test]
    fn a_comment_cannot_move_before_more_of_its_line() {
        let text = "s: [{n: b}, # b\n  {n: a}, {n: c}]\n";
        let items = [
            text.find("{n: b}").unwrap(),
            text.find("{n: a}").unwrap(),
            text.find("{n: c}").unwrap(),
        ];
        let found = sequence_items(text, text.find('[').unwrap(), &items).unwrap();
        assert!(permute(text, &found, &[1, 2, 0]).is_none());
        assert!(permute(text, &found, &[0, 1, 2]).is_some());
    }
}
