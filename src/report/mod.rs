//! Renderers: pure functions from results to a writer. Only they print.

pub mod github;
pub mod json;
pub mod junit;
pub mod pretty;
pub mod sarif;
pub mod text;

use std::io;

use crate::diagnostic::Diagnostic;
use crate::run::{FileResult, Status, Summary};

/// Renders one run in one format. Results arrive in report order.
pub trait Reporter {
    fn begin(&mut self, out: &mut dyn io::Write, revision: &str) -> io::Result<()>;
    fn result(&mut self, out: &mut dyn io::Write, result: &FileResult) -> io::Result<()>;
    fn end(&mut self, out: &mut dyn io::Write, summary: &Summary) -> io::Result<()>;
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

/// User text in double quotes on one line: quotes, backslashes, control and
/// bidirectional formatting characters escaped, so no input can forge or break
/// an output line.
pub fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            c if c.is_control() || is_invisible_format(c) => {
                quoted.push_str(&format!("\\u{{{:04x}}}", u32::from(c)));
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// User text cut to a length fit for a one-line message.
pub fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 64;
    let mut shown: String = text.chars().take(MAX_CHARS).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

/// Format characters that change how text reads without showing themselves
/// (Trojan Source and friends).
pub fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'
    )
}

#[cfg(test)]
mod tests {
    use super::{quote, repository_path};

    #[test]
    fn repository_paths_lose_leading_dot_steps_only() {
        assert_eq!(repository_path("./a/b.yaml"), "a/b.yaml");
        assert_eq!(repository_path("././/a.yaml"), "a.yaml");
        assert_eq!(repository_path("../a.yaml"), "../a.yaml");
        assert_eq!(repository_path(".numinance/a.yaml"), ".numinance/a.yaml");
        assert_eq!(repository_path("/abs/a.yaml"), "/abs/a.yaml");
    }

    #[test]
    fn quoting_keeps_output_on_one_line() {
        assert_eq!(quote("doc.yaml"), "\"doc.yaml\"");
        assert_eq!(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quote("a\nb\tc\u{7}"), "\"a\\nb\\tc\\u{0007}\"");
        assert_eq!(quote("x\u{202E}y"), "\"x\\u{202e}y\"");
        assert_eq!(quote("café"), "\"café\"");
    }
}
