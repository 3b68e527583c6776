//! The default text format, byte-compatible with the reference: a revision
//! line, then one line per document.

use std::io;

use super::{Reporter, masked};
use crate::diagnostic::{Diagnostic, Stage};
use crate::results::{FileResult, Status, Summary};
use crate::schema;
use crate::text::quote;

#[derive(Debug, Default)]
pub struct TextReporter;

impl Reporter for TextReporter {
    fn begin(&mut self, out: &mut dyn io::Write, revision: &str) -> io::Result<()> {
        writeln!(out, "revision: {}", quote(revision))
    }

    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        writeln!(out, "{}", line(result))
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
        masked(&warning.message, warning)
    )
}

/// The one line a document gets.
pub fn line(result: &FileResult) -> String {
    let status = match result.status() {
        Status::Ok => "ok",
        Status::Invalid => "invalid",
        Status::Error => "error",
    };
    let head = format!(
        "{status:<9}{} {}",
        result.origin.name(),
        quote(&result.display_name)
    );
    match result.status() {
        Status::Ok => match (&result.checked.kind, &result.checked.name) {
            (Some(kind), Some(name)) => format!("{head} {kind} {}", quote(name)),
            (Some(kind), None) => format!("{head} {kind}"),
            (None, _) => head,
        },
        Status::Invalid | Status::Error => {
            let errors: Vec<&Diagnostic> = result.checked.errors().collect();
            format!("{head}: {}", message(&errors, result.checked.unlisted))
        }
    }
}

/// The message of the first failing stage, with its stage prefix.
fn message(diagnostics: &[&Diagnostic], unlisted: usize) -> String {
    let Some(first) = diagnostics.first() else {
        return String::new();
    };
    let shown = masked(&first.message, first);
    match first.stage {
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
        .filter(|diagnostic| diagnostic.stage == Stage::Schema)
        .map(|diagnostic| {
            let pointer = diagnostic.pointer.as_deref().unwrap_or_default();
            let escaped = quote(&masked(pointer, diagnostic));
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
