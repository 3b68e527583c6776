//! `--format concise`: one line per diagnostic,
//! `path:line:column: severity[rule-id] message`, the shape editors,
//! terminals and `grep` turn into links (ruff's `concise`, actionlint's
//! default). A valid document prints nothing; a file's findings are in
//! line order; the run ends with the summary.

use std::io;

use super::{Reporter, message_with_note, shown_path};
use crate::diagnostic::Diagnostic;
use crate::results::{FileResult, Summary};

#[derive(Debug, Default)]
pub struct ConciseReporter;

impl Reporter for ConciseReporter {
    fn begin(&mut self, _out: &mut dyn io::Write, _revision: &str) -> io::Result<()> {
        Ok(())
    }

    /// A file's findings in the order of their lines, as an editor lists
    /// them; a finding without a position (a read error) first.
    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        let mut diagnostics: Vec<&Diagnostic> = result.checked.diagnostics.iter().collect();
        diagnostics.sort_by_key(|diagnostic| {
            diagnostic
                .position
                .map(|position| (position.line, position.column))
        });
        for diagnostic in diagnostics {
            writeln!(out, "{}", line(&result.path, diagnostic))?;
        }
        Ok(())
    }

    fn end(&mut self, _out: &mut dyn io::Write, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }
}

/// The line of one diagnostic. A diagnostic without a position (a read
/// error) names the file alone.
pub fn line(path: &str, diagnostic: &Diagnostic) -> String {
    let at = match diagnostic.position {
        Some(position) => format!("{}:{}:{}", shown_path(path), position.line, position.column),
        None => shown_path(path),
    };
    format!(
        "{at}: {}[{}] {}",
        diagnostic.severity.name(),
        diagnostic.rule,
        message_with_note(diagnostic)
    )
}

#[cfg(test)]
mod tests {
    use super::line;
    use crate::diagnostic::{Diagnostic, Position};

    #[test]
    fn a_located_diagnostic_is_path_line_column_severity_rule_message() {
        let diagnostic = Diagnostic::new(
            &crate::kinds::evalset::catalogue::CASES_SORTED,
            "cases are sorted",
        )
        .at_position(Position { line: 4, column: 5 })
        .with_note("case \"b\" should follow case \"c\"");
        assert_eq!(
            line("conf/evals.yaml", &diagnostic),
            "conf/evals.yaml:4:5: error[evalset/cases-sorted] cases are sorted (case \"b\" should follow case \"c\")"
        );
    }

    #[test]
    fn a_diagnostic_without_position_names_the_file_and_a_warning_says_so() {
        let diagnostic = Diagnostic::new(
            &crate::diagnostic::stages::errors::IO,
            "no such file or directory",
        );
        assert_eq!(
            line("missing.yaml", &diagnostic),
            "missing.yaml: error[read/io] no such file or directory"
        );
        let warning = diagnostic.as_warning();
        assert!(line("m.yaml", &warning).starts_with("m.yaml: warning[read/io] "));
    }

    #[test]
    fn a_path_that_could_forge_a_line_is_quoted() {
        let diagnostic = Diagnostic::new(&crate::diagnostic::stages::errors::IO, "gone");
        assert_eq!(
            line("a\nb.yaml", &diagnostic),
            "\"a\\nb.yaml\": error[read/io] gone"
        );
        assert_eq!(
            line("a: b.yaml", &diagnostic),
            "\"a: b.yaml\": error[read/io] gone"
        );
    }

    #[test]
    fn the_secret_of_a_finding_is_masked() {
        let diagnostic = Diagnostic::new(
            &crate::kinds::context_bundle::catalogue::CREDENTIAL_IN_REF,
            "holds ghp_x",
        )
        .with_secret("ghp_x");
        assert!(!line("b.yaml", &diagnostic).contains("ghp_x"));
    }
}
