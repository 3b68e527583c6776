//! `--format sarif`: one SARIF 2.1.0 log with one run, as GitHub code
//! scanning takes it, streamed a result at a time as `--format json` is:
//! the log's head, each result as it comes (serde-sarif's typed result), then
//! the tool with the rules the results used, in the order of their first
//! use, which each result's `ruleIndex` already points at, and the
//! invocation, whose success is known only at the end. Memory stays bounded
//! by the rules, whatever the number of results.

use std::collections::HashMap;
use std::io;

use serde_sarif::sarif::{
    ArtifactChange, ArtifactContent, ArtifactLocation, Fix, Invocation, Location, Message,
    MultiformatMessageString, PhysicalLocation, Region, Replacement, ReportingDescriptor,
    Result as SarifResult, ResultLevel, Suppression, Tool, ToolComponent,
};

use super::{Reporter, indented, masked, message_with_note, repository_path};
use crate::diagnostic::{Diagnostic, Position, RuleDoc, Severity, SuggestedFix};
use crate::results::{FileResult, Summary};
use crate::rules;

/// The published schema of SARIF 2.1.0.
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// How deep a result stands in the log: `runs[0].results[i]`.
const RESULT_INDENT: usize = 8;

/// How deep the run's members stand.
const RUN_MEMBER_INDENT: usize = 6;

#[derive(Debug, Default)]
pub struct SarifReporter {
    results: usize,
    /// The rules used so far, in the order of their first use: the order of
    /// `tool.driver.rules`.
    rules: Vec<&'static RuleDoc>,
    rule_indexes: HashMap<&'static str, usize>,
}

impl SarifReporter {
    /// Where `rule` stands in the rules array, which it joins on first use.
    fn rule_index(&mut self, rule: &'static RuleDoc) -> usize {
        let next = self.rules.len();
        let index = *self.rule_indexes.entry(rule.id).or_insert(next);
        if index == next {
            self.rules.push(rule);
        }
        index
    }

    fn write_result(&mut self, out: &mut dyn io::Write, result: &SarifResult) -> io::Result<()> {
        let separator = if self.results == 0 { "" } else { "," };
        self.results += 1;
        write!(
            out,
            "{separator}\n{}{}",
            " ".repeat(RESULT_INDENT),
            indented(result, RESULT_INDENT)?
        )
    }
}

impl Reporter for SarifReporter {
    fn begin(&mut self, out: &mut dyn io::Write, _revision: &str) -> io::Result<()> {
        write!(
            out,
            "{{\n  \"$schema\": {},\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {{\n      \
             \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [",
            serde_json::to_string(SCHEMA)?
        )
    }

    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        for diagnostic in &result.checked.diagnostics {
            let index = self.rule_index(diagnostic.rule);
            let sarif = sarif_result(&result.path, diagnostic, index);
            self.write_result(out, &sarif)?;
        }
        // Code scanning shows a suppressed result as dismissed, with its
        // justification, instead of losing it.
        for suppressed in &result.checked.suppressed {
            let diagnostic = &suppressed.diagnostic;
            let index = self.rule_index(diagnostic.rule);
            let mut sarif = sarif_result(&result.path, diagnostic, index);
            sarif.suppressions = Some(vec![
                Suppression::builder()
                    .kind(serde_json::json!("inSource"))
                    .justification(masked(&suppressed.reason, diagnostic))
                    .build(),
            ]);
            self.write_result(out, &sarif)?;
        }
        Ok(())
    }

    fn end(&mut self, out: &mut dyn io::Write, summary: &Summary) -> io::Result<()> {
        let close = if self.results == 0 { "]" } else { "\n      ]" };
        let driver = ToolComponent::builder()
            .name("numi")
            .version(env!("CARGO_PKG_VERSION"))
            .information_uri(rules::REPOSITORY_URL)
            .rules(
                self.rules
                    .iter()
                    .map(|rule| descriptor(rule))
                    .collect::<Vec<_>>(),
            )
            .build();
        let tool = Tool::builder().driver(driver).build();
        let invocations = vec![
            Invocation::builder()
                .execution_successful(summary.error == 0 && summary.total() > 0)
                .build(),
        ];
        let member = " ".repeat(RUN_MEMBER_INDENT);
        writeln!(
            out,
            "{close},\n{member}\"tool\": {},\n{member}\"invocations\": {}\n    }}\n  ]\n}}",
            indented(&tool, RUN_MEMBER_INDENT)?,
            indented(&invocations, RUN_MEMBER_INDENT)?
        )
    }
}

/// A rule as SARIF describes it: its catalogue summary and explanation,
/// and what `numi explain` says of it.
fn descriptor(rule: &RuleDoc) -> ReportingDescriptor {
    let help = MultiformatMessageString::builder()
        .text(help_text(rule))
        .markdown(help_markdown(rule))
        .build();
    ReportingDescriptor::builder()
        .id(rule.id)
        .short_description(
            MultiformatMessageString::builder()
                .text(rule.summary)
                .build(),
        )
        .full_description(
            MultiformatMessageString::builder()
                .text(rule.explanation)
                .build(),
        )
        .help(help)
        .help_uri(rules::link(rule.id))
        .build()
}

/// What `numi explain` says, as plain text: what the rule checks, why and
/// how to fix a failure, then its examples.
fn help_text(doc: &RuleDoc) -> String {
    let mut text = format!("{}\n\n{}", doc.summary, doc.explanation.trim_end());
    for (title, example) in [("Fails:", doc.failing), ("Passes:", doc.passing)] {
        if !example.is_empty() {
            text.push_str(&format!("\n\n{title}\n\n{}", example.trim_end()));
        }
    }
    text
}

/// The same as Markdown, as docs/rules.md writes it.
fn help_markdown(doc: &RuleDoc) -> String {
    let mut text = format!(
        "**{}**\n\n{}\n\n`numi explain {}` prints the same.",
        doc.summary,
        doc.explanation.trim_end(),
        doc.id
    );
    for (title, example) in [("Fails:", doc.failing), ("Passes:", doc.passing)] {
        if !example.is_empty() {
            text.push_str(&format!(
                "\n\n{title}\n\n```yaml\n{}\n```",
                example.trim_end()
            ));
        }
    }
    text
}

fn sarif_result(path: &str, diagnostic: &Diagnostic, rule_index: usize) -> SarifResult {
    let level = match diagnostic.severity {
        Severity::Error => ResultLevel::Error,
        Severity::Warning => ResultLevel::Warning,
    };
    let message = Message::builder()
        .text(message_with_note(diagnostic))
        .build();
    let mut result = SarifResult::builder()
        .rule_id(diagnostic.rule.id)
        .level(level)
        .message(message)
        .build();
    result.rule_index = i64::try_from(rule_index).ok();
    result.locations =
        location(path, diagnostic.position, diagnostic.end).map(|location| vec![location]);
    let related: Vec<Location> = (1..)
        .zip(&diagnostic.related)
        .filter_map(|(id, related)| {
            let mut location = location(&related.path, related.position, related.end)?;
            location.id = Some(id);
            location.message = Some(
                Message::builder()
                    .text(masked(&related.message, diagnostic))
                    .build(),
            );
            Some(location)
        })
        .collect();
    if !related.is_empty() {
        result.related_locations = Some(related);
    }
    result.fixes = diagnostic
        .fix
        .as_deref()
        .filter(|_| path != "-")
        .map(|fix| vec![sarif_fix(path, fix)]);
    result
}

/// A finding's fix as SARIF proposes one: its edits as replacements of
/// regions of the one file, positioned as results are.
fn sarif_fix(path: &str, fix: &SuggestedFix) -> Fix {
    let replacements: Vec<Replacement> = fix
        .edits
        .iter()
        .map(|edit| {
            Replacement::builder()
                .deleted_region(
                    Region::builder()
                        .start_line(i64::from(edit.start.line))
                        .start_column(i64::from(edit.start.column))
                        .end_line(i64::from(edit.end.line))
                        .end_column(i64::from(edit.end.column))
                        .build(),
                )
                .inserted_content(
                    ArtifactContent::builder()
                        .text(edit.content.clone())
                        .build(),
                )
                .build()
        })
        .collect();
    Fix::builder()
        .description(Message::builder().text(fix.message.clone()).build())
        .artifact_changes(vec![
            ArtifactChange::builder()
                .artifact_location(ArtifactLocation::builder().uri(uri(path)).build())
                .replacements(replacements)
                .build(),
        ])
        .build()
}

/// Where a node stands: the file and, when known, the line and column.
/// Standard input has no file to point at.
fn location(path: &str, position: Option<Position>, end: Option<Position>) -> Option<Location> {
    if path == "-" {
        return None;
    }
    let artifact = ArtifactLocation::builder().uri(uri(path)).build();
    let physical = match position {
        Some(position) => {
            // SARIF's end column is the column just past the region, as
            // numi's end is.
            let end = end.unwrap_or(position);
            PhysicalLocation::builder()
                .artifact_location(artifact)
                .region(
                    Region::builder()
                        .start_line(i64::from(position.line))
                        .start_column(i64::from(position.column))
                        .end_line(i64::from(end.line))
                        .end_column(i64::from(end.column))
                        .build(),
                )
                .build()
        }
        // A finding about the whole file (it cannot be read) points at its
        // start: code scanning shows a result only with a region.
        None => PhysicalLocation::builder()
            .artifact_location(artifact)
            .region(Region::builder().start_line(1).start_column(1).build())
            .build(),
    };
    Some(Location::builder().physical_location(physical).build())
}

/// A path as a URI reference: relative paths stay relative (to the
/// repository root, as code scanning resolves them), absolute ones become
/// `file://` URIs; every byte outside the unreserved set and `/` is
/// percent-encoded.
pub fn uri(path: &str) -> String {
    let relative = repository_path(path);
    let encoded = percent_encode(relative);
    if relative.starts_with('/') {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn relative_paths_stay_relative_and_are_percent_encoded() {
        assert_eq!(uri(".numinance/x.yaml"), ".numinance/x.yaml");
        assert_eq!(uri("./bad/doc.yaml"), "bad/doc.yaml");
        assert_eq!(uri("a b/c#d?.yaml"), "a%20b/c%23d%3F.yaml");
        assert_eq!(uri("x:y.yaml"), "x%3Ay.yaml");
        assert_eq!(uri("café.yaml"), "caf%C3%A9.yaml");
        assert_eq!(uri("100%.yaml"), "100%25.yaml");
    }

    #[test]
    fn absolute_paths_become_file_uris() {
        assert_eq!(uri("/tmp/a b.yaml"), "file:///tmp/a%20b.yaml");
    }
}
