//! The default text format, byte-compatible with the reference: a revision
//! line, then one line per document.

use std::io;

use super::{Reporter, masked};
use crate::diagnostic::{Diagnostic, Stage};
use crate::results::{FileResult, Status, Summary};
use crate::schema;
use crate::text::{quote, quote_into};

#[derive(Debug, Default)]
pub struct TextReporter;

impl Reporter for TextReporter {
    fn begin(&mut self, out: &mut dyn io::Write, revision: &str) -> io::Result<()> {
        writeln!(out, "revision: {}", quote(revision))
    }

    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        let mut line = line(result);
        line.push('\n');
        out.write_all(line.as_bytes())
    }

    fn end(&mut self, _out: &mut dyn io::Write, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }
}

/// The warnings of a document, one line each, for standard error:
/// `warning: <origin> "<name>"[ at line L column C]: <rule>: <message>`.
pub fn write_warnings(out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
    for warning in result.checked.warnings() {
        writeln!(out, "{}", warning_line(result, warning))?;
    }
    Ok(())
}

/// The line of one warning of `result`.
pub fn warning_line(result: &FileResult, warning: &Diagnostic) -> String {
    let at = warning
        .position
        .map(|position| format!(" at {position}"))
        .unwrap_or_default();
    format!(
        "warning: {} {}{at}: {}: {}",
        result.origin.name(),
        quote(&result.display_name),
        warning.rule,
        masked(warning.text_message(), warning)
    )
}

/// The one line a document gets.
pub fn line(result: &FileResult) -> String {
    let outcome = result.status();
    let status = match outcome {
        Status::Ok => "ok",
        Status::Invalid => "invalid",
        Status::Error => "error",
    };
    // One string, grown once: this line is written for every document.
    let mut line = String::with_capacity(64 + 2 * result.display_name.len());
    line.push_str(status);
    line.push_str(PADDING.get(status.len()..).unwrap_or_default());
    line.push_str(result.origin.name());
    line.push(' ');
    quote_into(&mut line, &result.display_name);
    match outcome {
        Status::Ok => {
            if let Some(kind) = &result.checked.kind {
                line.push(' ');
                line.push_str(kind);
                if let Some(name) = result.checked.shown_name() {
                    line.push(' ');
                    quote_into(&mut line, &name);
                }
            }
        }
        Status::Invalid | Status::Error => {
            let errors: Vec<&Diagnostic> = result.checked.errors().collect();
            line.push_str(": ");
            line.push_str(&message(&errors, result.checked.unlisted));
        }
    }
    line
}

/// What pads the status to its width, so names line up.
const PADDING: &str = "         ";

/// The message of the first failing stage, with its stage prefix.
fn message(diagnostics: &[&Diagnostic], unlisted: usize) -> String {
    let Some(first) = diagnostics.first() else {
        return String::new();
    };
    let shown = masked(first.text_message(), first);
    match first.stage() {
        Stage::Read => format!("read: {shown}"),
        Stage::Yaml => format!("yaml: {shown}"),
        Stage::Kind => format!("kind: {shown}"),
        Stage::Schema => schema_message(diagnostics, unlisted),
        Stage::Rule => format!("kind: invalid: {shown}"),
        Stage::Internal => format!("internal: {shown}"),
    }
}

/// `kind: does not match the kind schema: schema: value does not match
/// (violations: N): \"<pointer>\": <keyword>; ...`, the backslashes literal;
/// past the listing cap, `; and M more` ends the list.
fn schema_message(diagnostics: &[&Diagnostic], unlisted: usize) -> String {
    let violations: Vec<String> = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.stage() == Stage::Schema)
        .map(|diagnostic| {
            let pointer = diagnostic
                .address
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            let escaped = quote(&masked(&pointer, diagnostic));
            let inner = escaped
                .get(1..escaped.len().saturating_sub(1))
                .unwrap_or_default();
            format!("\\\"{inner}\\\": {}", schema::keyword(diagnostic))
        })
        .collect();
    let more = if unlisted > 0 {
        format!("; and {unlisted} more")
    } else {
        String::new()
    };
    format!(
        "kind: does not match the kind schema: schema: value does not match (violations: {}): {}{more}",
        violations.len().saturating_add(unlisted),
        violations.join("; ")
    )
}
