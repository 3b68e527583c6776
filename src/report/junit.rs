//! `--format junit`: JUnit XML for GitLab, Jenkins and other CI test
//! reports. One testsuite, one testcase per document: `<failure>` for an
//! invalid document, `<error>` for one that could not be checked. The suite's
//! counts open the document, so the testcases wait for the end: in an
//! anonymous temporary file, which keeps memory bounded whatever the size
//! of the run.

use std::fmt::Write as _;
use std::io::{self, Seek, Write as _};

use super::{Reporter, message_with_note, repository_path, shown_path};
use crate::diagnostic::Diagnostic;
use crate::results::{FileResult, Status, Summary};

#[derive(Debug, Default)]
pub struct JunitReporter {
    revision: String,
    testcases: Testcases,
}

/// Where the testcases wait for the counts.
#[derive(Debug)]
enum Testcases {
    /// An anonymous temporary file, gone when it is closed.
    File(io::BufWriter<std::fs::File>),
    /// Memory, when no temporary file can be made (a read-only or full
    /// temporary directory): the report is still written.
    Memory(Vec<u8>),
}

impl Default for Testcases {
    fn default() -> Self {
        Testcases::Memory(Vec::new())
    }
}

impl Testcases {
    fn new() -> Self {
        tempfile::tempfile().map_or_else(
            |_| Testcases::default(),
            |file| Testcases::File(io::BufWriter::new(file)),
        )
    }

    fn write(&mut self, xml: &str) -> io::Result<()> {
        match self {
            Testcases::File(file) => file.write_all(xml.as_bytes()),
            Testcases::Memory(bytes) => {
                bytes.extend_from_slice(xml.as_bytes());
                Ok(())
            }
        }
    }

    /// Every testcase written, copied to `out`.
    fn copy_to(&mut self, out: &mut dyn io::Write) -> io::Result<()> {
        match std::mem::take(self) {
            Testcases::Memory(bytes) => out.write_all(&bytes),
            Testcases::File(file) => {
                let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
                file.rewind()?;
                io::copy(&mut file, out).map(|_| ())
            }
        }
    }
}

impl Reporter for JunitReporter {
    fn begin(&mut self, _out: &mut dyn io::Write, revision: &str) -> io::Result<()> {
        self.revision = revision.to_owned();
        self.testcases = Testcases::new();
        Ok(())
    }

    fn result(&mut self, _out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        let mut xml = String::new();
        testcase(&mut xml, result).map_err(io::Error::other)?;
        self.testcases.write(&xml)
    }

    fn end(&mut self, out: &mut dyn io::Write, summary: &Summary) -> io::Result<()> {
        let counts = format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\"",
            summary.total(),
            summary.invalid,
            summary.error
        );
        writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(out, "<testsuites name=\"numi\" {counts}>")?;
        writeln!(
            out,
            "  <testsuite name=\"numi validate\" {counts} skipped=\"0\">"
        )?;
        writeln!(out, "    <properties>")?;
        writeln!(
            out,
            "      <property name=\"revision\" value=\"{}\"/>",
            escape(&self.revision, Context::Attribute)
        )?;
        writeln!(out, "    </properties>")?;
        self.testcases.copy_to(out)?;
        writeln!(out, "  </testsuite>")?;
        writeln!(out, "</testsuites>")
    }
}

fn testcase(xml: &mut String, result: &FileResult) -> std::fmt::Result {
    let attribute = |text: &str| escape(text, Context::Attribute);
    let classname = result.checked.kind.unwrap_or("numi");
    write!(
        xml,
        "    <testcase classname=\"{}\" name=\"{}\"",
        attribute(classname),
        attribute(&result.display_name)
    )?;
    if result.path != "-" {
        write!(
            xml,
            " file=\"{}\"",
            attribute(repository_path(&result.path))
        )?;
    }
    let diagnostics = &result.checked.diagnostics;
    let element = match result.status() {
        Status::Ok if diagnostics.is_empty() => return writeln!(xml, "/>"),
        Status::Ok => "system-out",
        Status::Invalid => "failure",
        Status::Error => "error",
    };
    writeln!(xml, ">")?;
    write!(xml, "      <{element}")?;
    if let Some(first) = result.checked.errors().next() {
        write!(
            xml,
            " message=\"{}\" type=\"{}\"",
            attribute(&message_with_note(first)),
            attribute(first.rule.id)
        )?;
    }
    write!(xml, ">")?;
    for diagnostic in diagnostics {
        writeln!(
            xml,
            "{}",
            escape(
                &listing(repository_path(&result.path), diagnostic),
                Context::Text
            )
        )?;
    }
    writeln!(xml, "</{element}>")?;
    writeln!(xml, "    </testcase>")
}

/// One diagnostic as a compiler would print it:
/// `path:line:column: severity rule: message`, the path quoted when it
/// could break the line.
fn listing(path: &str, diagnostic: &Diagnostic) -> String {
    let path = shown_path(path);
    let place = match diagnostic.position {
        Some(position) => format!("{path}:{}:{}", position.line, position.column),
        None => path.to_owned(),
    };
    format!(
        "{place}: {} {}: {}",
        diagnostic.severity.name(),
        diagnostic.rule,
        message_with_note(diagnostic)
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    Attribute,
    Text,
}

/// Text made safe for XML 1.0: markup characters as entities, line breaks
/// and tabs in attributes as character references (so attribute-value
/// normalisation keeps them), and the characters XML 1.0 cannot hold at all
/// written as `\u{XXXX}`.
fn escape(text: &str, context: Context) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' if context == Context::Attribute => escaped.push_str("&quot;"),
            '\n' if context == Context::Attribute => escaped.push_str("&#10;"),
            '\t' if context == Context::Attribute => escaped.push_str("&#9;"),
            '\r' => escaped.push_str("&#13;"),
            '\n' | '\t' => escaped.push(c),
            c if c.is_control() || matches!(c, '\u{FFFE}' | '\u{FFFF}') => {
                escaped.push_str(&format!("\\u{{{:04x}}}", u32::from(c)));
            }
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::{Context, escape};

    #[test]
    fn markup_characters_become_entities() {
        assert_eq!(
            escape(r#"<a href="x">&</a>"#, Context::Attribute),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
        assert_eq!(escape(r#"]]> "q""#, Context::Text), r#"]]&gt; "q""#);
    }

    #[test]
    fn line_breaks_survive_in_attributes() {
        assert_eq!(
            escape("a\nb\tc\rd", Context::Attribute),
            "a&#10;b&#9;c&#13;d"
        );
        assert_eq!(escape("a\nb\tc\rd", Context::Text), "a\nb\tc&#13;d");
    }

    #[test]
    fn characters_xml_cannot_hold_are_written_out() {
        assert_eq!(
            escape("nul\0 bell\u{7} esc\u{1b} \u{FFFE}", Context::Text),
            "nul\\u{0000} bell\\u{0007} esc\\u{001b} \\u{fffe}"
        );
        assert_eq!(escape("café ✓", Context::Text), "café ✓");
    }
}
