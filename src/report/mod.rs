//! Renderers: pure functions from results to a writer. Only they print.

pub mod github;
pub mod json;
pub mod junit;
pub mod pretty;
pub mod sarif;
pub mod text;

use std::io;

use crate::diagnostic::Diagnostic;
use crate::inputs::Input;
use crate::results::{FileResult, Origin, Status, Summary};
use crate::run::{Consumer, Options, run};

/// Renders one run in one format. Results arrive in report order.
pub trait Reporter {
    fn begin(&mut self, out: &mut dyn io::Write, revision: &str) -> io::Result<()>;
    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()>;
    fn end(&mut self, out: &mut dyn io::Write, summary: &Summary) -> io::Result<()>;
}

/// A run's results rendered as they arrive: the reporter writes `out`, and
/// the warnings of each document go to `warnings` when the format has no
/// place for them (the text format's lines).
pub struct Output<'a> {
    pub reporter: &'a mut dyn Reporter,
    pub out: &'a mut dyn io::Write,
    pub warnings: Option<&'a mut dyn io::Write>,
}

impl Consumer for Output<'_> {
    fn result(&mut self, result: &FileResult) -> io::Result<()> {
        self.reporter.result(self.out, result)?;
        if let Some(warnings) = self.warnings.as_deref_mut() {
            if result.checked.warnings().next().is_some() {
                // Flushed first, so that on a terminal the warnings follow
                // their document's line.
                self.out.flush()?;
                // A closed standard error loses the warnings, not the report.
                let _ = text::write_warnings(warnings, result);
            }
        }
        Ok(())
    }

    fn idle(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Runs the inputs and renders the run: its beginning, each result as it
/// comes, its end.
pub fn render(
    inputs: &[Input],
    origin: Origin,
    options: &Options,
    output: &mut Output<'_>,
) -> io::Result<Summary> {
    output.reporter.begin(output.out, origin.revision())?;
    let summary = run(inputs, origin, options, output)?;
    output.reporter.end(output.out, &summary)?;
    Ok(summary)
}

/// The stable name of a status in machine formats.
pub fn status_name(status: Status) -> &'static str {
    match status {
        Status::Ok => "ok",
        Status::Invalid => "invalid",
        Status::Error => "error",
    }
}

/// A diagnostic's message with its note, for formats that show one text.
pub fn message_with_note(diagnostic: &Diagnostic) -> String {
    match &diagnostic.note {
        Some(note) => format!("{} ({note})", diagnostic.message),
        None => diagnostic.message.clone(),
    }
}

/// A path as given, without the leading `./` steps that tools matching
/// repository paths do not expect.
pub fn repository_path(path: &str) -> &str {
    let mut path = path;
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.trim_start_matches('/');
    }
    path
}

#[cfg(test)]
mod tests {
    use super::repository_path;

    #[test]
    fn repository_paths_lose_leading_dot_steps_only() {
        assert_eq!(repository_path("./a/b.yaml"), "a/b.yaml");
        assert_eq!(repository_path("././/a.yaml"), "a.yaml");
        assert_eq!(repository_path("../a.yaml"), "../a.yaml");
        assert_eq!(repository_path(".numinance/a.yaml"), ".numinance/a.yaml");
        assert_eq!(repository_path("/abs/a.yaml"), "/abs/a.yaml");
    }
}
