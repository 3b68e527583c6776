//! `--format github`: GitHub Actions workflow commands, one per diagnostic,
//! so each problem shows as an annotation on its line. A document without
//! diagnostics prints nothing, and there is no summary line: the exit status
//! and the annotations say it all.

use std::io;

use super::{Reporter, message_with_note, repository_path};
use crate::diagnostic::Severity;
use crate::results::{FileResult, Summary};
use crate::text::escaped_unseen;

#[derive(Debug, Default)]
pub struct GithubReporter;

impl Reporter for GithubReporter {
    fn begin(&mut self, _out: &mut dyn io::Write, _revision: &str) -> io::Result<()> {
        Ok(())
    }

    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        for diagnostic in &result.checked.diagnostics {
            let command = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let mut properties = Vec::new();
            if result.path != "-" {
                properties.push(format!(
                    "file={}",
                    escape_property(repository_path(&result.path))
                ));
            }
            if let Some(position) = diagnostic.position {
                properties.push(format!("line={}", position.line));
                properties.push(format!("col={}", position.column));
                if let Some(end) = diagnostic.end {
                    properties.push(format!("endLine={}", end.line));
                    properties.push(format!("endColumn={}", end.column));
                }
            }
            properties.push(format!("title={}", escape_property(diagnostic.rule.id)));
            writeln!(
                out,
                "::{command} {}::{}",
                properties.join(","),
                escape_data(&message_with_note(diagnostic))
            )?;
        }
        Ok(())
    }

    fn end(&mut self, _out: &mut dyn io::Write, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }
}

/// The message of a workflow command, escaped as the runner unescapes it:
/// `%`, CR and LF as `%25`, `%0D`, `%0A`. The runner knows no escape for
/// other control characters, which a terminal or log viewer would act on
/// (ESC starts a sequence), so they are written as `\u{001b}`, as every
/// other format shows them.
fn escape_data(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => escaped.push_str("%25"),
            '\r' => escaped.push_str("%0D"),
            '\n' => escaped.push_str("%0A"),
            c => match escaped_unseen(c).filter(|_| c != '\t') {
                Some(escape) => escaped.push_str(&escape),
                None => escaped.push(c),
            },
        }
    }
    escaped
}

/// A property value: the message escapes, and `:` and `,`, which would end it.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::{escape_data, escape_property};

    #[test]
    fn data_escapes_percent_and_line_breaks_only() {
        assert_eq!(escape_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
    }

    #[test]
    fn properties_also_escape_colons_and_commas() {
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn control_characters_are_written_visibly() {
        assert_eq!(
            escape_property("a\u{1b}[31m\u{7}b\u{202e}.yaml"),
            "a\\u{001b}[31m\\u{0007}b\\u{202e}.yaml"
        );
        assert_eq!(escape_data("tab\tkept"), "tab\tkept");
    }
}
