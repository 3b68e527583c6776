//! `--format json`: one JSON document per run, streamed a result at a time:
//! the revision, every result with every diagnostic, then the counts. Its
//! JSON Schema is `schemas/report.schema.json`.

use std::borrow::Cow;
use std::io;

use serde::Serialize;

use super::{Reporter, indented, status_name};
use crate::diagnostic::{Address, Diagnostic, Severity};
use crate::results::{FileResult, Summary};
use crate::secrets::mask;

#[derive(Debug, Default)]
pub struct JsonReporter {
    results: usize,
    errors: usize,
    warnings: usize,
}

#[derive(Serialize)]
struct ResultRecord<'a> {
    origin: &'static str,
    path: &'a str,
    display_name: &'a str,
    kind: Option<&'a str>,
    name: Option<Cow<'a, str>>,
    status: &'static str,
    diagnostics: Vec<DiagnosticRecord<'a>>,
    suppressed: Vec<SuppressedRecord<'a>>,
}

#[derive(Serialize)]
struct SuppressedRecord<'a> {
    #[serde(flatten)]
    diagnostic: DiagnosticRecord<'a>,
    reason: Cow<'a, str>,
}

#[derive(Serialize)]
struct DiagnosticRecord<'a> {
    stage: &'static str,
    rule: &'static str,
    severity: &'static str,
    message: Cow<'a, str>,
    note: Option<Cow<'a, str>>,
    pointer: Option<Cow<'a, str>>,
    line: Option<u32>,
    column: Option<u32>,
    end: Option<EndRecord>,
    /// Only when the finding has places in other documents.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<RelatedRecord<'a>>,
    /// Only when numi can fix the finding: what `numi fix` would do.
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<FixRecord<'a>>,
}

/// A finding's fix: edits of the file's text, positioned as every finding
/// is, that applied together make what `numi fix` makes for it.
#[derive(Serialize)]
struct FixRecord<'a> {
    message: &'a str,
    edits: Vec<EditRecord<'a>>,
}

#[derive(Serialize)]
struct EditRecord<'a> {
    line: u32,
    column: u32,
    end: EndRecord,
    content: &'a str,
}

/// A place in another document that a finding is about.
#[derive(Serialize)]
struct RelatedRecord<'a> {
    path: &'a str,
    display_name: &'a str,
    /// Written as its JSON pointer.
    pointer: &'a Address,
    message: Cow<'a, str>,
    line: Option<u32>,
    column: Option<u32>,
    end: Option<EndRecord>,
}

/// Where a diagnostic's node ends: just past its last character.
#[derive(Serialize)]
struct EndRecord {
    line: u32,
    column: u32,
}

#[derive(Serialize)]
struct SummaryRecord {
    documents: DocumentCounts,
    diagnostics: DiagnosticCounts,
}

#[derive(Serialize)]
struct DocumentCounts {
    total: usize,
    ok: usize,
    invalid: usize,
    error: usize,
}

#[derive(Serialize)]
struct DiagnosticCounts {
    error: usize,
    warning: usize,
    suppressed: usize,
}

impl<'a> From<&'a Diagnostic> for DiagnosticRecord<'a> {
    fn from(diagnostic: &'a Diagnostic) -> Self {
        DiagnosticRecord {
            stage: diagnostic.stage().name(),
            rule: diagnostic.rule.id,
            severity: diagnostic.severity.name(),
            message: mask(&diagnostic.message, &diagnostic.secrets),
            note: diagnostic
                .note
                .as_deref()
                .map(|note| mask(note, &diagnostic.secrets)),
            pointer: diagnostic.address.as_ref().map(|address| {
                Cow::Owned(mask(&address.to_string(), &diagnostic.secrets).into_owned())
            }),
            line: diagnostic.position.map(|position| position.line),
            column: diagnostic.position.map(|position| position.column),
            end: diagnostic.end.map(|end| EndRecord {
                line: end.line,
                column: end.column,
            }),
            related: diagnostic
                .related
                .iter()
                .map(|related| RelatedRecord {
                    path: &related.path,
                    display_name: &related.display_name,
                    pointer: &related.address,
                    message: mask(&related.message, &diagnostic.secrets),
                    line: related.position.map(|position| position.line),
                    column: related.position.map(|position| position.column),
                    end: related.end.map(|end| EndRecord {
                        line: end.line,
                        column: end.column,
                    }),
                })
                .collect(),
            fix: diagnostic.fix.as_deref().map(|fix| FixRecord {
                message: &fix.message,
                edits: fix
                    .edits
                    .iter()
                    .map(|edit| EditRecord {
                        line: edit.start.line,
                        column: edit.start.column,
                        end: EndRecord {
                            line: edit.end.line,
                            column: edit.end.column,
                        },
                        content: &edit.content,
                    })
                    .collect(),
            }),
        }
    }
}

impl Reporter for JsonReporter {
    fn begin(&mut self, out: &mut dyn io::Write, revision: &str) -> io::Result<()> {
        write!(
            out,
            "{{\n  \"revision\": {},\n  \"results\": [",
            serde_json::to_string(revision)?
        )
    }

    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        for diagnostic in &result.checked.diagnostics {
            match diagnostic.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
            }
        }
        let record = ResultRecord {
            origin: result.origin.name(),
            path: &result.path,
            display_name: &result.display_name,
            kind: result.checked.kind,
            name: result.checked.shown_name(),
            status: status_name(result.status()),
            diagnostics: result.checked.diagnostics.iter().map(Into::into).collect(),
            suppressed: result
                .checked
                .suppressed
                .iter()
                .map(|suppressed| SuppressedRecord {
                    diagnostic: (&suppressed.diagnostic).into(),
                    reason: mask(&suppressed.reason, &suppressed.diagnostic.secrets),
                })
                .collect(),
        };
        let separator = if self.results == 0 { "" } else { "," };
        self.results += 1;
        write!(out, "{separator}\n    {}", indented(&record, 4)?)
    }

    fn end(&mut self, out: &mut dyn io::Write, summary: &Summary) -> io::Result<()> {
        let close = if self.results == 0 { "]" } else { "\n  ]" };
        let record = SummaryRecord {
            documents: DocumentCounts {
                total: summary.total(),
                ok: summary.ok,
                invalid: summary.invalid,
                error: summary.error,
            },
            diagnostics: DiagnosticCounts {
                error: self.errors,
                warning: self.warnings,
                suppressed: summary.suppressed,
            },
        };
        writeln!(
            out,
            "{close},\n  \"summary\": {}\n}}",
            indented(&record, 2)?
        )
    }
}
