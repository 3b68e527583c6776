//! `--format pretty`: miette's graphical report of every problem of every
//! document, with the source snippet, a label at the node, the rule id as
//! the code and a help line on how to fix it. Meant for people at a
//! terminal; machines read the other formats.

use std::fmt;
use std::io;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::{Reporter, text};
use crate::diagnostic::{Address, Diagnostic, PathSegment, Severity, Span, Stage};
use crate::results::{FileResult, Status, Summary};
use crate::secrets::{MASK, mask};
use crate::text::{is_invisible_format, quote, wrap};
use crate::yaml::LineIndex;
use excerpt::Excerpt;

/// Columns the report is wrapped to when standard output is no terminal.
pub const WIDTH: usize = 80;

/// What miette writes before each line of the headline (`  × `, `  │ `)
/// and of the help (`  help: `, then spaces).
const HEADLINE_INDENT: usize = 4;
const HELP_INDENT: usize = 8;

/// The fewest columns a label is wrapped to, however far right its node
/// stands: narrower, it would take a line a word.
const LABEL_MIN: usize = 24;

/// What a tab in the source is shown as.
const TAB: char = '→';

pub struct PrettyReporter {
    handler: GraphicalReportHandler,
    width: usize,
}

impl PrettyReporter {
    /// A reporter that wraps its text to `width` columns, at token
    /// boundaries only ([`crate::text::wrap`]): miette's own wrapping
    /// breaks inside words and leaves labels whole, so it is off.
    pub fn new(colour: bool, width: usize) -> Self {
        let theme = if colour {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        PrettyReporter {
            handler: GraphicalReportHandler::new_themed(theme)
                .with_width(width)
                .with_wrap_lines(false)
                .with_links(false),
            width,
        }
    }

    /// The report of one diagnostic; `source` is the document as shown,
    /// with its name.
    fn report(&mut self, diagnostic: &Diagnostic, source: Option<&Shown<'_>>) -> Report {
        let excerpt = source.and_then(|source| {
            let text = source.index.text();
            let shown = shown_span(&source.index, diagnostic)?;
            // A block mapping stands where its first key does; underlining
            // that key would blame it for what the mapping lacks.
            let points_at_mapping = diagnostic.rule == &crate::diagnostic::stages::schema::REQUIRED
                && !text
                    .get(shown.start()..)
                    .is_some_and(|rest| rest.starts_with('{'));
            let length = if points_at_mapping {
                0
            } else {
                shown.range().len()
            };
            Excerpt::around(&source.name, &source.index, shown.start(), length)
        });
        let (source, label) = match excerpt {
            Some((excerpt, span)) => {
                let label_text = label(diagnostic);
                let text = mask(&label_text, &diagnostic.secrets);
                let room = self
                    .width
                    .saturating_sub(excerpt.label_column(&span))
                    .max(LABEL_MIN);
                let label = LabeledSpan::new_primary_with_span(Some(wrap(&text, room)), span);
                (Some(excerpt), Some(label))
            }
            None => (None, None),
        };
        let secrets = &diagnostic.secrets;
        Report {
            message: wrap(
                &mask(&headline(diagnostic), secrets),
                self.width.saturating_sub(HEADLINE_INDENT),
            ),
            code: diagnostic.rule.id,
            severity: match diagnostic.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            help: wrap(
                &mask(&help(diagnostic), secrets),
                self.width.saturating_sub(HELP_INDENT),
            ),
            source,
            label,
        }
    }
}

/// A document as its reports show it, indexed once for all of them.
struct Shown<'t> {
    name: String,
    index: LineIndex<'t>,
}

impl Reporter for PrettyReporter {
    fn begin(&mut self, _out: &mut dyn io::Write, _revision: &str) -> io::Result<()> {
        Ok(())
    }

    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        let diagnostics = &result.checked.diagnostics;
        if diagnostics.is_empty() {
            return writeln!(out, "{}", text::line(result));
        }
        writeln!(out, "{}", heading(result))?;
        let text = result
            .source
            .as_deref()
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
            .map(|text| printable(&masked_source(text, diagnostics)));
        let source = text.as_deref().map(|text| Shown {
            name: escaped_name(&result.display_name),
            index: LineIndex::new(text),
        });
        for diagnostic in diagnostics {
            let report = self.report(diagnostic, source.as_ref());
            let mut rendered = String::new();
            self.handler
                .render_report(&mut rendered, &report)
                .map_err(|_| io::Error::other("the report cannot be rendered"))?;
            writeln!(out, "{}", rendered.trim_end())?;
            writeln!(out)?;
        }
        Ok(())
    }

    /// The run's summary line follows, written by the command, which times
    /// the run.
    fn end(&mut self, _out: &mut dyn io::Write, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }
}

/// One diagnostic as miette sees it.
#[derive(Debug)]
struct Report {
    message: String,
    code: &'static str,
    severity: miette::Severity,
    help: String,
    source: Option<Excerpt>,
    label: Option<LabeledSpan>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.help))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|source| source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = self.label.clone()?;
        Some(Box::new(std::iter::once(label)))
    }
}

/// The line above a document's reports: status, origin, name, kind and how
/// many problems follow.
fn heading(result: &FileResult) -> String {
    let status = match result.status() {
        Status::Ok => "ok",
        Status::Invalid => "invalid",
        Status::Error => "error",
    };
    let mut line = format!(
        "{status:<9}{} {}",
        result.origin.name(),
        quote(&result.display_name)
    );
    if let Some(kind) = result.checked.kind {
        line.push(' ');
        line.push_str(kind);
        if let Some(name) = result.checked.shown_name() {
            line.push(' ');
            line.push_str(&quote(&name));
        }
    }
    let count = result.checked.diagnostics.len();
    let problems = if count == 1 { "problem" } else { "problems" };
    line.push_str(&format!(": {count} {problems}"));
    line
}

/// The source with every secret of every diagnostic masked. A secret that
/// the text does not hold as written (a quoted scalar with escapes) is
/// masked by blanking the whole node its diagnostic points at.
fn masked_source(text: &str, diagnostics: &[Diagnostic]) -> String {
    let secrets: Vec<&str> = diagnostics
        .iter()
        .flat_map(|diagnostic| diagnostic.secrets.iter().map(String::as_str))
        .collect();
    let mut masked = mask(text, &secrets).into_owned();
    for diagnostic in diagnostics {
        let hidden = diagnostic
            .secrets
            .iter()
            .any(|secret| !secret.is_empty() && !text.contains(secret.as_str()));
        if !hidden {
            continue;
        }
        let Some(node) = whole_span(&LineIndex::new(&masked), diagnostic) else {
            continue;
        };
        if let Some(written) = masked.get(node.range()) {
            // Character for character, line breaks kept: positions still hold.
            let stars: String = written
                .chars()
                .map(|c| if matches!(c, '\n' | '\r') { c } else { MASK })
                .collect();
            masked.replace_range(node.range(), &stars);
        }
    }
    masked
}

/// The bytes of `diagnostic`'s node in `shown`, a text that stands for the
/// source character for character (secrets masked, line ends made line
/// feeds): its span's positions, found again there.
fn whole_span(shown: &LineIndex<'_>, diagnostic: &Diagnostic) -> Option<Span> {
    let start = diagnostic.position?;
    Some(match diagnostic.end {
        Some(end) => Span::new(shown.offset(start), shown.offset(end)),
        None => shown.character_at(start),
    })
}

/// What the report underlines of `diagnostic`'s node: its first line.
fn shown_span(shown: &LineIndex<'_>, diagnostic: &Diagnostic) -> Option<Span> {
    whole_span(shown, diagnostic).map(|span| shown.first_line(span))
}

/// A display name as the snippet's title may show it: escaped as the text
/// format escapes it, without the quotes.
fn escaped_name(name: &str) -> String {
    let quoted = quote(name);
    quoted
        .get(1..quoted.len().saturating_sub(1))
        .unwrap_or_default()
        .to_owned()
}

/// What went wrong, in one line. Schema violations name the node they are
/// about; every other message already says which rule fails.
fn headline(diagnostic: &Diagnostic) -> String {
    match (diagnostic.stage(), &diagnostic.address) {
        (Stage::Schema, Some(address)) => {
            format!("{}: {}", quote(&address.to_string()), diagnostic.message)
        }
        (Stage::Read, _) => format!("read: {}", diagnostic.message),
        _ => diagnostic.message.clone(),
    }
}

/// The words beside the underlined node.
fn label(diagnostic: &Diagnostic) -> String {
    match *diagnostic.rule {
        crate::diagnostic::stages::schema::ADDITIONAL_PROPERTIES => {
            "not a property of this mapping".to_owned()
        }
        crate::diagnostic::stages::schema::REQUIRED => {
            match diagnostic.address.as_ref().and_then(last_step) {
                Some(name) => format!("the mapping here lacks {}", quote(&name)),
                None => "this mapping lacks a required property".to_owned(),
            }
        }
        _ if diagnostic.stage() == Stage::Schema => diagnostic.message.clone(),
        _ => match &diagnostic.address {
            Some(address) => quote(&address.to_string()),
            None => "here".to_owned(),
        },
    }
}

/// Rules whose finding's note is the fix itself (the property to add, the
/// allowed name or value nearest to what was written), made where the
/// finding is: it replaces the rule's general advice.
const NOTE_IS_THE_FIX: [&crate::diagnostic::RuleDoc; 4] = [
    &crate::diagnostic::stages::schema::ADDITIONAL_PROPERTIES,
    &crate::diagnostic::stages::schema::REQUIRED,
    &crate::diagnostic::stages::schema::ENUM,
    &crate::diagnostic::stages::project::DUPLICATE_NAME,
];

/// How to fix it: the note where it is the fix, else the note (where a
/// case belongs, why a digest is malformed) and what the rule asks; then
/// where to read more. The renderer shows the note, never computes it.
fn help(diagnostic: &Diagnostic) -> String {
    let rule = diagnostic.rule;
    // The summary states the passing state ("The file is well-formed
    // YAML."), which reads as if nothing were wrong: the help says the fix.
    let advice = how_to_fix(rule.explanation);
    let fix = match (&diagnostic.note, advice) {
        (Some(note), _) if NOTE_IS_THE_FIX.contains(&rule) => Some(note.clone()),
        (Some(note), Some(advice)) => Some(format!("{note}\n{advice}")),
        (note, advice) => note.clone().or(advice),
    };
    let more = if rule.failing.is_empty() {
        format!("`numi explain {rule}` tells more")
    } else {
        format!("`numi explain {rule}` shows a failing and a passing example")
    };
    // The places in other documents the finding is about, where a reader
    // goes next: each file has its own excerpt, so they are named here.
    let related: String = diagnostic
        .related
        .iter()
        .map(|related| format!("{}: {}\n", related.message, escaped_name(&related.place())))
        .collect();
    match fix {
        Some(fix) => format!("{fix}\n{related}{more}"),
        None => format!("{related}{more}"),
    }
}

/// How to fix a failure, from a rule's explanation: its last paragraph
/// when it has several (why, then how to fix), else its last sentence.
fn how_to_fix(explanation: &str) -> Option<String> {
    let paragraphs: Vec<&str> = explanation
        .split("\n\n")
        .map(str::trim)
        .filter(|paragraph| !paragraph.is_empty())
        .collect();
    let last = match paragraphs.as_slice() {
        [] => return None,
        [only] => only
            .trim_end_matches('.')
            .rsplit(". ")
            .next()
            .map(|sentence| format!("{}.", sentence.trim()))?,
        [.., last] => (*last).to_owned(),
    };
    Some(last.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The last step of an address, as text: a key as it is, an index as its
/// number.
fn last_step(address: &Address) -> Option<String> {
    match address.last()? {
        PathSegment::Key(key) => Some(key.clone()),
        PathSegment::Index(index) => Some(index.to_string()),
    }
}

/// The source as it may be shown on a terminal: line breaks normalised to
/// `\n`, tabs shown as `→`, and control and invisible formatting characters
/// replaced one for one, so a file cannot drive the terminal and columns still count true.
fn printable(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' => shown.push('\n'),
            '\n' => shown.push(c),
            // Shown, not expanded to spaces, so a tab that breaks the YAML
            // can be seen; one character still, so columns count true.
            '\t' => shown.push(TAB),
            c if c.is_control() || is_invisible_format(c) => shown.push('\u{FFFD}'),
            c => shown.push(c),
        }
    }
    shown
}

mod excerpt;

#[cfg(test)]
mod tests;
