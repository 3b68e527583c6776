//! Hover: on a node with a finding, the finding and its rule's explanation;
//! on a key, what the kind's schema says of the field (its meaning, type,
//! unit and allowed values, each value's meaning, and the rules that check
//! it); on a value of an enum, what that value means. Where both a finding
//! and a key or value stand, the finding comes first.

use serde_json::Value;

use super::diagnostics::Finding;
use super::outline::{self, Step};
use super::place::{self, Place};
use crate::diagnostic::Severity;
use crate::kinds;
use crate::schema::described::{self, Field};
use crate::secrets::mask;

/// The Markdown shown at byte `offset`, if there is anything to say.
pub(super) fn hover(text: &str, findings: &[Finding], offset: usize) -> Option<String> {
    let mut parts: Vec<String> = findings
        .iter()
        .filter(|f| f.span.start <= offset && offset <= f.span.end && !f.span.is_empty())
        .map(explain)
        .collect();
    // A key of a free mapping (a bundle's `pinned_toolsets`) is the
    // document's text, shown in the path: masked as every text shown is.
    parts.extend(field(text, offset).map(|shown| mask(&shown, &[] as &[&str]).into_owned()));
    (!parts.is_empty()).then(|| parts.join("\n\n---\n\n"))
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

/// What the schema says of the key, or of the enum value, under the cursor.
fn field(text: &str, offset: usize) -> Option<String> {
    let (kind, place) = place::at(text, offset);
    let schema = (kinds::find(&kind?)?.compiled.parsed)()?;
    match place? {
        Place::Key(path) => {
            let field = described::field_at(schema, &outline::segments(&path))?;
            Some(key(&path, &field))
        }
        Place::Value(path, value) => {
            let field = described::field_at(schema, &outline::segments(&path))?;
            let meaning = field.meaning(&value)?;
            Some(format!(
                "**{value}** (a value of `{}`): {meaning}",
                place::dotted(&path)
            ))
        }
    }
}

/// A key's explanation: its name, path and shape on the first line; its
/// descriptions; the values it allows with their meanings; the rules its
/// descriptions name.
fn key(path: &[Step], field: &Field<'_>) -> String {
    let name = match path.last() {
        Some(Step::Key(name)) => name.as_str(),
        _ => "",
    };
    let mut shown = format!("**{name}** (`{}`): {}", place::dotted(path), shape(field));
    let values = field.values();
    let descriptions = field.descriptions();
    for description in &descriptions {
        for line in described::prose(description, values) {
            shown.push_str(&format!("\n\n{line}"));
        }
    }
    if let Some(value) = field.resolved.get("const") {
        shown.push_str(&format!("\n\nAlways `{}`.", plain(value)));
    }
    if !values.is_empty() {
        shown.push_str("\n\nValues:\n");
        for value in values {
            let value = plain(value);
            match field.meaning(&value) {
                Some(meaning) => shown.push_str(&format!("\n- `{value}`: {meaning}")),
                None => shown.push_str(&format!("\n- `{value}`")),
            }
        }
    }
    let rules = crate::rules::mentioned(&descriptions.join("\n"));
    if !rules.is_empty() {
        shown.push_str("\n\nChecked by:\n");
        for rule in rules {
            let weight = match rule.severity {
                Severity::Warning => " (a warning; an error under `--strict`)",
                _ => "",
            };
            shown.push_str(&format!(
                "\n- [`{}`]({}){weight}: {}",
                rule.id,
                crate::rules::link(rule.id),
                rule.summary
            ));
        }
    }
    shown
}

/// The field's type and bounds in a few words, and whether it is required:
/// `integer from 0 to 4294967295, optional`.
fn shape(field: &Field<'_>) -> String {
    let node = field.resolved;
    let mut words = if node.get("const").is_some() {
        "constant".to_owned()
    } else if node.get("enum").is_some() {
        "one of the values below".to_owned()
    } else {
        let mut words = type_name(node);
        if let Some(items) = field.items {
            let item = type_name(items);
            if item != "any value" {
                words.push_str(&format!(" of {item}s"));
            }
        }
        let minimum = node.get("minimum").map(plain);
        let maximum = node.get("maximum").map(plain);
        match (minimum, maximum) {
            (Some(min), Some(max)) => words.push_str(&format!(" from {min} to {max}")),
            (Some(min), None) => words.push_str(&format!(" from {min}")),
            (None, Some(max)) => words.push_str(&format!(" up to {max}")),
            (None, None) => {}
        }
        match node.get("minLength").and_then(Value::as_u64) {
            Some(1) => words.push_str(", not empty"),
            Some(length) => words.push_str(&format!(" of at least {length} characters")),
            None => {}
        }
        words
    };
    words.push_str(if field.required {
        ", required"
    } else {
        ", optional"
    });
    words
}

/// The JSON type a node declares, `any value` when it declares none.
fn type_name(node: &Value) -> String {
    match node.get("type") {
        Some(Value::String(name)) => name.clone(),
        Some(Value::Array(names)) => names.iter().map(plain).collect::<Vec<_>>().join(" or "),
        _ => "any value".to_owned(),
    }
}

fn plain(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned)
}

/// The schema of the kind the document names.
pub(super) fn kind_schema(text: &str) -> Option<Value> {
    let kind = kinds::find(outline::kind_name(text)?)?;
    serde_json::from_str(kind.schema).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostic;

    const TEXT: &str = "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nspec:\n  version: x\n";

    const PLAYBOOK: &str = include_str!("../../examples/playbook-bugfix-bounded.yaml");

    fn on(text: &str, needle: &str) -> String {
        let at = text.find(needle).unwrap_or_default();
        hover(text, &[], at).unwrap_or_default()
    }

    #[test]
    fn a_finding_under_the_cursor_shows_its_rule() {
        let at = TEXT.find("x\n").unwrap_or_default();
        let finding = Finding {
            diagnostic: Diagnostic::new(&crate::kinds::evalset::catalogue::VERSION, "bad version"),
            span: at..at + 1,
        };
        let shown = hover(TEXT, std::slice::from_ref(&finding), at).unwrap_or_default();
        assert!(
            shown.starts_with("**bad version** ([`evalset/version`]("),
            "{shown}"
        );
        let summary = crate::kinds::evalset::catalogue::VERSION.summary;
        assert!(shown.contains(summary));
        assert!(
            !shown.contains("---"),
            "a plain value has no field text: {shown}"
        );
        // Away from the node: the field's schema instead.
        let key = TEXT.find("version:").unwrap_or_default();
        let shown = hover(TEXT, &[finding], key).unwrap_or_default();
        assert!(
            shown.starts_with(
                "**version** (`spec.version`): string, required\n\nThe set's version, a strict x.y.z"
            ),
            "{shown}"
        );
    }

    /// A finding whose node holds the key under the cursor: the finding as
    /// before, then the key's explanation.
    #[test]
    fn a_finding_over_a_key_comes_first_then_the_key() {
        let spec = TEXT.find("spec:").unwrap_or_default();
        let finding = Finding {
            diagnostic: Diagnostic::new(&crate::kinds::evalset::catalogue::CASE_COUNT, "no cases"),
            span: spec..TEXT.len(),
        };
        let key = TEXT.find("version:").unwrap_or_default();
        let alone = hover(TEXT, &[], key).unwrap_or_default();
        let shown = hover(TEXT, std::slice::from_ref(&finding), key).unwrap_or_default();
        let Some((first, second)) = shown.split_once("\n\n---\n\n") else {
            panic!("a finding and a key: {shown}");
        };
        assert!(
            first.starts_with("**no cases** ([`evalset/case-count`]("),
            "{first}"
        );
        assert_eq!(second, alone);
    }

    #[test]
    fn a_credential_in_a_free_key_is_masked() {
        let token = format!("ghp_{}", "a1B2".repeat(9));
        let text = format!(
            "apiVersion: numinance.dev/v1\nkind: ContextBundle\nspec:\n  pinned_toolsets:\n    {token}: {{value: x}}\n"
        );
        let shown = on(&text, &token);
        assert!(shown.starts_with("**"), "{shown}");
        assert!(!shown.contains(&token), "{shown}");
        let stars = "*".repeat(token.len());
        assert!(
            shown.starts_with(&format!(
                "**{stars}** (`spec.pinned_toolsets.{stars}`): object, optional\n\nA content digest."
            )),
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
        // A value no enum lists has no meaning to show.
        let wrong = PLAYBOOK.replace("SCOPE_REPO", "SCOPE_REPOSITORY");
        assert_eq!(
            hover(
                &wrong,
                &[],
                wrong.find("SCOPE_REPOSITORY").unwrap_or_default()
            ),
            None
        );
        assert_eq!(on(PLAYBOOK, "bugfix\n"), "", "a plain string value");
    }

    /// A key of a flow mapping explains itself as one of a block mapping:
    /// its meaning, type, unit, bounds and the rule that checks it.
    #[test]
    fn a_key_shows_its_meaning_unit_and_checks() {
        let rate = on(PLAYBOOK, "max_rework_rate");
        assert!(
            rate.starts_with(
                "**max_rework_rate** (`spec.qualification.max_rework_rate`): integer from 0 to 4294967295, optional\n\n"
            ),
            "{rate}"
        );
        assert!(
            rate.contains("in basis points: 1000 is 10 percent"),
            "{rate}"
        );
        assert!(
            rate.contains("\n- [`playbook/rate-bound`](")
                && rate.contains("(a warning; an error under `--strict`)"),
            "{rate}"
        );
        let block = PLAYBOOK.replace(
            "qualification: {min_runs: 20, max_rework_rate: 1000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}",
            "qualification:\n    min_runs: 20\n    max_rework_rate: 1000\n",
        );
        assert!(block.contains("\n    max_rework_rate: 1000\n"), "{block}");
        assert_eq!(
            on(&block, "max_rework_rate"),
            rate,
            "block style: the same text"
        );
        let change_type = on(PLAYBOOK, "change_type");
        assert!(change_type.starts_with("**change_type** (`spec.change_type`): string, not empty, required\n\nThe change type this playbook works"), "{change_type}");
    }

    #[test]
    fn an_enum_key_lists_each_value_with_its_meaning_and_a_value_shows_its_own() {
        let scope = on(PLAYBOOK, "scope");
        assert!(
            scope.starts_with(
                "**scope** (`metadata.scope`): one of the values below, optional\n\nHow wide"
            ),
            "{scope}"
        );
        assert!(
            scope.contains("\n\nValues:\n\n- `SCOPE_ORG`: set for the whole organisation"),
            "{scope}"
        );
        assert!(
            !scope.contains("\nSCOPE_ORG:"),
            "the value lines are not prose too: {scope}"
        );
        assert_eq!(
            on(PLAYBOOK, "SCOPE_REPO"),
            "**SCOPE_REPO** (a value of `metadata.scope`): set for one repository, the narrowest scope, within what its team and organisation set."
        );
        // A level through its reference: the key's own description, then the ladder's.
        let policy = include_str!("../../examples/autonomy-policy-org-default.yaml");
        let floor = on(policy, "level: AUTONOMY_LEVEL_SUGGEST");
        assert!(floor.starts_with("**level** (`spec.floors[].level`): one of the values below, required\n\nThe highest level a change of the floor's risk class may reach"), "{floor}");
        assert!(
            floor.contains("\n\nThe autonomy ladder, lowest first"),
            "{floor}"
        );
        assert!(floor.contains("\n- `AUTONOMY_LEVEL_OPERATE`: "), "{floor}");
        assert_ne!(on(policy, "level: AUTONOMY_LEVEL_PR"), floor);
        assert!(on(policy, "AUTONOMY_LEVEL_MERGE").starts_with(
            "**AUTONOMY_LEVEL_MERGE** (a value of `spec.rules[].level`): the agent merges"
        ),);
    }
}
