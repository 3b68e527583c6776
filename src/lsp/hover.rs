//! Hover: on a node with a finding, the finding and its rule's explanation;
//! on a key, what the kind's schema says of the field.

use serde_json::Value;

use super::diagnostics::Finding;
use super::outline::{self, Step};
use crate::kinds;

/// The Markdown shown at byte `offset`, if there is anything to say.
pub fn hover(text: &str, findings: &[Finding], offset: usize) -> Option<String> {
    let here: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.span.start <= offset && offset <= f.span.end && !f.span.is_empty())
        .collect();
    if !here.is_empty() {
        let parts: Vec<String> = here.iter().map(|f| explain(f)).collect();
        return Some(parts.join("\n\n---\n\n"));
    }
    field(text, offset)
}

fn explain(finding: &Finding) -> String {
    let diagnostic = &finding.diagnostic;
    let mut shown = format!(
        "**{}** ([`{}`]({}))",
        crate::report::masked(&diagnostic.message, diagnostic),
        diagnostic.rule,
        crate::rules::link(diagnostic.rule.id)
    );
    if let Some(note) = &diagnostic.note {
        shown.push_str(&format!("\n\n{}", crate::report::masked(note, diagnostic)));
    }
    shown.push_str(&format!(
        "\n\n{}\n\n{}",
        diagnostic.rule.summary,
        diagnostic.rule.explanation.trim_end()
    ));
    shown
}

/// What the schema says of the key under the cursor.
fn field(text: &str, offset: usize) -> Option<String> {
    let cursor = outline::cursor(text, offset);
    if cursor.in_value {
        return None;
    }
    let key = cursor.key?;
    let schema = kind_schema(text)?;
    let mut path = cursor.mapping;
    path.push(Step::Key(key.clone()));
    let node = outline::schema_at(&schema, &path)?;
    let mut shown = format!("**{key}**");
    if let Some(kind) = node.get("type").and_then(Value::as_str) {
        shown.push_str(&format!(": {kind}"));
    }
    if let Some(description) = node.get("description").and_then(Value::as_str) {
        shown.push_str(&format!("\n\n{description}"));
    }
    if let Some(value) = node.get("const") {
        shown.push_str(&format!("\n\nAlways `{}`.", plain(value)));
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        let listed: Vec<String> = values.iter().map(|v| format!("`{}`", plain(v))).collect();
        shown.push_str(&format!("\n\nOne of {}.", listed.join(", ")));
    }
    Some(shown)
}

fn plain(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned)
}

/// The schema of the kind the document names.
pub fn kind_schema(text: &str) -> Option<Value> {
    let kind = kinds::find(outline::kind_name(text)?)?;
    serde_json::from_str(kind.schema).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Diagnostic, Stage};

    const TEXT: &str = "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nspec:\n  version: x\n";

    #[test]
    fn a_finding_under_the_cursor_shows_its_rule() {
        let at = TEXT.find("x\n").unwrap_or_default();
        let finding = Finding {
            diagnostic: Diagnostic::new(
                Stage::Rule,
                &crate::kinds::evalset::catalogue::VERSION,
                "bad version",
            ),
            span: at..at + 1,
        };
        let shown = hover(TEXT, std::slice::from_ref(&finding), at).unwrap_or_default();
        assert!(
            shown.starts_with("**bad version** ([`evalset/version`]("),
            "{shown}"
        );
        let summary = crate::kinds::evalset::catalogue::VERSION.summary;
        assert!(shown.contains(summary));
        // Away from the node: the field's schema instead.
        let key = TEXT.find("version:").unwrap_or_default();
        let shown = hover(TEXT, &[finding], key).unwrap_or_default();
        assert!(
            shown.starts_with("**version**: string\n\nThe set's version, a strict x.y.z"),
            "{shown}"
        );
    }

    #[test]
    fn no_hover_off_any_key_or_in_an_unknown_kind() {
        let value = TEXT.find("x\n").unwrap_or_default();
        assert_eq!(hover(TEXT, &[], value), None);
        let unknown = TEXT.replace("EvalSet", "Nothing");
        let key = unknown.find("version:").unwrap_or_default();
        assert_eq!(hover(&unknown, &[], key), None);
    }
}
