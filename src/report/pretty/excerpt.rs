//! The part of a document a pretty report shows: the finding's line and one
//! line on either side, each cut to a window of columns around the finding.
//!
//! miette lays out whatever source it is given, a whole line at a time, and
//! pads the underline with a formatting width that must fit in 16 bits: a
//! finding past column 65,535 made it panic, and a line of megabytes made
//! each report that long. Handing it only this excerpt bounds both, while
//! the line numbers and the column in the report's title stay those of the
//! document.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::yaml::LineIndex;

/// The most characters of one line a report shows.
pub(super) const SHOWN_LINE: usize = 160;

/// Of those, how many come before the finding on a line cut to fit.
const LEAD: usize = 40;

/// Marks where a shown line was cut.
const CUT: &str = "…";

/// The lines miette shows of a document, cut to fit, with what it needs to
/// number them as the document does.
#[derive(Debug)]
pub(super) struct Excerpt {
    name: String,
    text: String,
    /// The document's line (from 0) that is the excerpt's first.
    first_line: usize,
    /// The excerpt's line (from 0) that holds the finding.
    finding_line: usize,
    /// The document's byte column where the finding's shown line starts, and
    /// how many bytes the cut mark before it takes.
    cut_at: usize,
    mark: usize,
}

impl Excerpt {
    /// The excerpt of `index`'s text around the `length` bytes at `start`,
    /// and where those bytes are in it (cut at the shown line's end).
    pub(super) fn around(
        name: &str,
        index: &LineIndex<'_>,
        start: usize,
        length: usize,
    ) -> Option<(Excerpt, SourceSpan)> {
        let text = index.text();
        let line = index.line_of(start);
        let (line_start, line_end) = index.line_bounds(line)?;
        let start = start.clamp(line_start, line_end);
        // Lines on either side are cut at the same byte column, so what is
        // shown of them stands above and below the finding.
        let column = if line_end - line_start > SHOWN_LINE {
            back(text, start, LEAD).saturating_sub(line_start)
        } else {
            0
        };
        let first_line = line.saturating_sub(1);
        let mut excerpt = Excerpt {
            name: name.to_owned(),
            text: String::new(),
            first_line,
            finding_line: line - first_line,
            cut_at: column,
            mark: 0,
        };
        let mut span = SourceSpan::from((0, 0));
        for shown in first_line..=line + 1 {
            let Some((from, to)) = index.line_bounds(shown) else {
                break;
            };
            let window = Window::of(text, from, to, column);
            if shown == line {
                excerpt.mark = window.mark().len();
                let at = excerpt.text.len() + excerpt.mark + (start - window.from);
                let end = start.saturating_add(length).min(window.to);
                span = SourceSpan::from((at, end.saturating_sub(start)));
            }
            excerpt.text.push_str(window.mark());
            excerpt
                .text
                .push_str(text.get(window.from..window.to).unwrap_or_default());
            if window.to < to {
                excerpt.text.push_str(CUT);
            }
            // The line break is kept where the document has one: miette
            // shows a last line with and without one differently.
            if to < text.len() {
                excerpt.text.push('\n');
            }
        }
        Some((excerpt, span))
    }

    /// The column at which miette writes the label of `span`: past the
    /// line numbers and the rule beside them, under the middle of the
    /// underline, past the `╰── ` that leads to it (miette's
    /// `render_single_line_highlights`). The label is wrapped to what is
    /// left of the line.
    pub(super) fn label_column(&self, span: &SourceSpan) -> usize {
        let shown_lines = self.text.lines().count();
        let last_number = self.first_line + shown_lines;
        // ` 11 │ `: a space, the number padded to the widest, ` │ `.
        let gutter = last_number.to_string().len() + 4;
        let start_offset = span.offset();
        let line_start = self
            .text
            .get(..start_offset)
            .and_then(|before| before.rfind('\n'))
            .map_or(0, |at| at + 1);
        let width_to = |offset: usize| {
            crate::text::columns(self.text.get(line_start..offset).unwrap_or_default())
        };
        let start = width_to(start_offset);
        let end = if span.is_empty() {
            start + 1
        } else {
            width_to(start_offset + span.len()).max(start + 1)
        };
        gutter + (start + end) / 2 + "╰── ".chars().count()
    }

    #[cfg(test)]
    pub(super) fn text(&self) -> &str {
        &self.text
    }
}

/// The bytes of one line shown.
struct Window {
    from: usize,
    to: usize,
    cut_before: bool,
}

impl Window {
    /// The line `from..to` of `text` from byte column `column` on, at most
    /// `SHOWN_LINE` characters; a line that fits is shown whole.
    fn of(text: &str, from: usize, to: usize, column: usize) -> Window {
        if to - from <= SHOWN_LINE {
            return Window {
                from,
                to,
                cut_before: false,
            };
        }
        let start = floor(text, from.saturating_add(column).min(to)).max(from);
        Window {
            from: start,
            to: forth(text, start, SHOWN_LINE).min(to),
            cut_before: start > from,
        }
    }

    fn mark(&self) -> &'static str {
        if self.cut_before { CUT } else { "" }
    }
}

/// The offset `count` characters before `offset` in `text` (or its start).
fn back(text: &str, offset: usize, count: usize) -> usize {
    text.get(..offset)
        .and_then(|before| before.char_indices().rev().take(count).last())
        .map_or(offset, |(at, _)| at)
}

/// The offset `count` characters after `offset` in `text` (or its end).
fn forth(text: &str, offset: usize, count: usize) -> usize {
    let rest = text.get(offset..).unwrap_or_default();
    offset
        + rest
            .char_indices()
            .nth(count)
            .map_or(rest.len(), |(at, _)| at)
}

/// `offset` moved back onto a character boundary of `text`.
fn floor(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let contents =
            self.text
                .as_str()
                .read_span(span, context_lines_before, context_lines_after)?;
        // miette counts the column of the span's start in bytes from its
        // line's start; on the finding's line that start is the cut's.
        let on_finding_line = self
            .text
            .get(..span.offset())
            .is_some_and(|before| before.matches('\n').count() == self.finding_line);
        let column = if on_finding_line {
            contents.column().saturating_sub(self.mark) + self.cut_at
        } else {
            contents.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            contents.data(),
            *contents.span(),
            contents.line() + self.first_line,
            column,
            contents.line_count(),
        )))
    }
}
