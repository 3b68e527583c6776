//! Renderers: pure functions from results to a writer. Only they print.

pub mod concise;
pub mod github;
pub mod gitlab;
pub mod json;
pub mod junit;
pub mod pretty;
pub mod sarif;
pub mod statistics;
pub mod summary;
pub mod text;

use std::io;

use crate::diagnostic::{Diagnostic, Stage};
use crate::inputs::Input;
use crate::results::{FileResult, Origin, Status, Summary};
pub use crate::results::{message_with_note, repository_path};
use crate::run::{Consumer, Options, run};
use crate::secrets::mask;

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
    /// Leave out the documents that have nothing to report (`--quiet`).
    pub quiet: bool,
    /// A note for the read error of one path (what to run instead), as
    /// `(path, note)`.
    pub read_note: Option<(String, String)>,
}

impl Consumer for Output<'_> {
    fn result(&mut self, result: &FileResult) -> io::Result<()> {
        if self.quiet && result.checked.diagnostics.is_empty() {
            return Ok(());
        }
        let noted = self
            .read_note
            .as_ref()
            .and_then(|(path, note)| (path == &result.path).then(|| with_read_note(result, note)));
        let result = noted.as_ref().unwrap_or(result);
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

/// `result` with `note` on each read error that has none.
fn with_read_note(result: &FileResult, note: &str) -> FileResult {
    let mut noted = result.clone();
    for diagnostic in &mut noted.checked.diagnostics {
        if diagnostic.stage() == Stage::Read && diagnostic.note.is_none() {
            diagnostic.note = Some(note.to_owned());
        }
    }
    noted
}

/// Runs the inputs and renders the run: its beginning, each result as it
/// comes, its end.
pub fn render<I>(
    inputs: I,
    origin: Origin,
    options: &Options,
    output: &mut Output<'_>,
) -> io::Result<Summary>
where
    I: IntoIterator<Item = Input>,
    I::IntoIter: Send,
{
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

/// Text about a diagnostic (its message, its note) as an output may show
/// it: every secret of the diagnostic masked.
pub fn masked(text: &str, diagnostic: &Diagnostic) -> String {
    mask(text, &diagnostic.secrets).into_owned()
}

/// Pretty JSON whose lines after the first are indented by `by` spaces, to
/// nest inside a document being streamed. JSON strings hold no raw line
/// breaks, so every line break is the printer's.
pub fn indented(value: &impl serde::Serialize, by: usize) -> io::Result<String> {
    let pretty = serde_json::to_string_pretty(value)?;
    Ok(pretty.replace('\n', &format!("\n{}", " ".repeat(by))))
}

/// A path in a line of text: as given when it is plain, else quoted, so a
/// file name cannot break or forge a line.
pub fn shown_path(path: &str) -> String {
    let quoted = crate::text::quote(path);
    let plain = quoted.len() == path.len() + 2 && !path.contains(": ");
    if plain { path.to_owned() } else { quoted }
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
