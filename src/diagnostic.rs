//! Diagnostics are data: what went wrong, where, and which rule says so.
//! Renderers turn them into text; nothing here formats output lines.

mod address;
pub mod stages;

use std::fmt;

pub(crate) use address::address;
pub use address::{Address, PathSegment};
pub use numi_yaml::{Position, Span};

/// The stage of the pipeline that produced a diagnostic. Stages run in this
/// order and the text format reports the first one that fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The file could not be read.
    Read,
    /// The bytes are not one YAML document with a mapping at its root.
    Yaml,
    /// The `kind`, its gates and its `apiVersion`.
    Kind,
    /// The kind's JSON Schema.
    Schema,
    /// The kind's semantic rules.
    Rule,
    /// A defect of numi itself, never of the input.
    Internal,
}

impl Stage {
    /// The stable name used by machine formats.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Read => "read",
            Stage::Yaml => "yaml",
            Stage::Kind => "kind",
            Stage::Schema => "schema",
            Stage::Rule => "rule",
            Stage::Internal => "internal",
        }
    }
}

/// How much a diagnostic weighs. Errors decide a document's status; warnings
/// are reported beside it and never change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

impl Severity {
    /// The stable name used by machine formats.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem found in one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How much the finding weighs: its rule's severity
    /// ([`RuleDoc::severity`]) when made, then weighed for this finding,
    /// where a level of `numi.toml` or `--strict` changes it.
    pub severity: Severity,
    /// The rule the finding is of: its declaration, so a finding cannot
    /// carry an id no rule has.
    pub rule: &'static RuleDoc,
    /// What is wrong, in the user's words: what every format shows, but
    /// `text` where `reference_words` says it otherwise.
    pub message: String,
    /// The message as the reference words it, where that differs from
    /// `message` (`a value of numinance.kinds.v1.Digest.value fails its
    /// check`): the `text` format prints these, byte for byte as the
    /// reference does. [`Diagnostic::text_message`] decides.
    pub reference_words: Option<String>,
    /// The node the diagnostic is about, when there is one; outputs write
    /// it as a JSON pointer.
    pub address: Option<Address>,
    /// Where that node stands in the source, when known: its first
    /// character. With a span, derived from the span's start.
    pub position: Option<Position>,
    /// Where the node ends (just past its last character), derived from
    /// the span's end, when the span is known.
    pub end: Option<Position>,
    /// The bytes of the node (or key) in the source, when known.
    pub span: Option<Span>,
    /// A hint beside the message for machine formats (which case an
    /// out-of-order case should follow, say); the text line never shows it.
    pub note: Option<String>,
    /// Text of the document that the finding is about and that no output
    /// may show (a credential): renderers mask it wherever they quote the
    /// source. Never part of the message.
    pub secrets: Vec<String>,
    /// Places in other documents the finding is about too (the first
    /// document of a name that this one repeats).
    pub related: Vec<Related>,
    /// The fix of a fixable rule's finding, when numi can make it safely.
    pub fix: Option<Box<SuggestedFix>>,
}

/// The fix a finding carries: what `numi fix` would do for it, as edits of
/// the file's text that any tool can apply (an editor, a bot, a review).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuggestedFix {
    /// What the fix does, for people: `sort /spec/cases by name`.
    pub message: String,
    /// Replacements of the file's text, none overlapping, in text order.
    pub edits: Vec<Edit>,
}

/// One replacement of a range of a file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The bytes replaced.
    pub span: Span,
    /// Where they start and end, as every other position is written.
    pub start: Position,
    pub end: Position,
    /// The text that takes their place.
    pub content: String,
}

/// A place in another document that a finding is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// The other document as given, by which machine formats locate it.
    pub path: String,
    /// The other document as the run shows it.
    pub display_name: String,
    /// The node there.
    pub address: Address,
    /// Where that node stands and ends, when the document could be read
    /// again to find it.
    pub position: Option<Position>,
    pub end: Option<Position>,
    /// What stands there, in a few words.
    pub message: String,
}

impl Related {
    /// `path:line:column` (or the path alone when the place is unknown),
    /// as the people formats show it.
    pub fn place(&self) -> String {
        match self.position {
            Some(position) => format!(
                "{}:{}:{}",
                self.display_name, position.line, position.column
            ),
            None => self.display_name.clone(),
        }
    }
}

impl Diagnostic {
    /// The finding placed at `span` of the text `lines` index: its byte
    /// range, and the positions of the range's start and end that every
    /// format shows.
    pub fn placed(mut self, lines: &numi_yaml::LineIndex<'_>, span: Span) -> Diagnostic {
        self.position = Some(lines.position(span.start()));
        self.end = Some(lines.position(span.end()));
        self.span = Some(span);
        self
    }

    /// A finding of `rule`.
    pub fn new(rule: &'static RuleDoc, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: rule.severity,
            rule,
            message: message.into(),
            reference_words: None,
            address: None,
            position: None,
            end: None,
            span: None,
            note: None,
            secrets: Vec::new(),
            related: Vec::new(),
            fix: None,
        }
    }

    /// The stage of the pipeline that found it: its rule's.
    pub fn stage(&self) -> Stage {
        self.rule.stage
    }

    /// The message the `text` format prints: the reference's words where
    /// they differ, else the message.
    pub fn text_message(&self) -> &str {
        self.reference_words.as_deref().unwrap_or(&self.message)
    }

    pub fn with_reference_words(mut self, words: impl Into<String>) -> Self {
        self.reference_words = Some(words.into());
        self
    }

    pub fn as_warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The finding about the node at `address`.
    pub fn at(mut self, address: Address) -> Self {
        self.address = Some(address);
        self
    }

    pub fn at_position(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    pub fn with_secret(mut self, secret: impl Into<String>) -> Self {
        self.secrets.push(secret.into());
        self
    }
}

/// A rule: its id and documentation, declared once as a named constant
/// (in the kind's `catalogue.rs`, or `stages` for the stages every
/// document meets) and used by name by every finding, fix and renderer.
/// It is what `numi explain` prints and what the machine formats describe
/// their rules with; `crate::rules` gathers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleDoc {
    /// The stable id, such as `evalset/cases-sorted`.
    pub id: &'static str,
    pub stage: Stage,
    /// How a finding of the rule weighs by default: producer-side checks
    /// warn, and `--strict` makes them errors.
    pub severity: Severity,
    /// One sentence: what the rule checks.
    pub summary: &'static str,
    /// Why the rule exists and how to fix a failure; plain text, may span lines.
    pub explanation: &'static str,
    /// A document, or part of one, that fails the rule; empty when no
    /// document can show it (a read error, a defect of numi).
    pub failing: &'static str,
    /// The same document made to pass; empty when `failing` is.
    pub passing: &'static str,
}

/// A rule shows as its id.
impl fmt::Display for RuleDoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

/// A rule equals its id, so a test can name the rule it expects.
impl PartialEq<str> for RuleDoc {
    fn eq(&self, id: &str) -> bool {
        self.id == id
    }
}
