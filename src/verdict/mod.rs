//! What a document's findings come to once the project has had its say:
//! the findings its inline `# numi: ignore[RULE] reason` comments silence,
//! and the levels `numi.toml` sets (a rule off, a warning, an error), with
//! `--strict` for the warnings the configuration leaves alone. `numi
//! validate`, `numi fix` and `numi lsp` all weigh findings here, so a
//! finding one of them hides is hidden by all three.

pub mod suppression;

use std::path::Path;
use std::sync::LazyLock;

use crate::config::{Level, Policy};
use crate::diagnostic::{Diagnostic, Severity, Stage};
use crate::validate::{Checked, Parsed};

/// The project's say over findings: its configured levels and `--strict`.
#[derive(Debug, Clone, Copy)]
pub struct Verdict<'a> {
    pub policy: &'a Policy,
    pub strict: bool,
}

/// The policy of a project without a configuration file.
static UNCONFIGURED: LazyLock<Policy> = LazyLock::new(Policy::default);

impl Verdict<'static> {
    /// No configuration and no `--strict`: only the document's own
    /// suppressions have a say.
    pub fn unconfigured() -> Self {
        Verdict {
            policy: &UNCONFIGURED,
            strict: false,
        }
    }
}

impl Verdict<'_> {
    /// Moves the findings `text` suppresses to the suppressed ones, then
    /// weighs the rest as the file at `path`: what a single document comes
    /// to. A run weighs after its checks across documents instead (see
    /// [`Verdict::weigh`]).
    pub fn apply(&self, checked: &mut Checked, parsed: &Parsed<'_>, path: &Path) {
        suppression::apply(checked, parsed);
        self.weigh(checked, path);
    }

    /// The configuration's level for each finding of the rule stage (off
    /// drops it, suppressed or not: a rule that does not run has nothing to
    /// show or to count), then `--strict` for the warnings the
    /// configuration left alone.
    pub fn weigh(&self, checked: &mut Checked, path: &Path) {
        let policy = self.policy;
        let strict = self.strict;
        if policy.is_empty() {
            if strict {
                checked.promote_warnings();
            }
            return;
        }
        let level_of = |diagnostic: &Diagnostic| {
            (diagnostic.stage() == Stage::Rule)
                .then(|| policy.level(diagnostic.rule.id, path))
                .flatten()
        };
        checked
            .suppressed
            .retain(|kept| level_of(&kept.diagnostic) != Some(Level::Off));
        checked.diagnostics.retain_mut(|diagnostic| {
            let level = level_of(diagnostic);
            match level.map(Level::severity) {
                Some(None) => false,
                Some(Some(severity)) => {
                    diagnostic.severity = severity;
                    true
                }
                None => {
                    if strict {
                        diagnostic.severity = Severity::Error;
                    }
                    true
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::Path;

    use super::Verdict;
    use crate::config;
    use crate::diagnostic::{Diagnostic, Position, Severity};
    use crate::validate::Checked;
    use crate::validate::Parsed;

    /// An error and a warning of the rule stage, on lines 2 and 3.
    fn checked() -> Checked {
        let at = |line| Position { line, column: 1 };
        Checked {
            diagnostics: vec![
                Diagnostic::new(&crate::kinds::evalset::catalogue::VERSION, "v").at_position(at(2)),
                Diagnostic::new(
                    &crate::kinds::context_bundle::catalogue::CONTEXT_GENERATION,
                    "g",
                )
                .as_warning()
                .at_position(at(3)),
            ],
            ..Checked::default()
        }
    }

    fn rules(checked: &Checked) -> Vec<(&str, Severity)> {
        checked
            .diagnostics
            .iter()
            .map(|d| (d.rule.id, d.severity))
            .collect()
    }

    #[test]
    fn unconfigured_keeps_every_finding_and_strict_makes_warnings_errors() {
        let mut plain = checked();
        Verdict::unconfigured().apply(
            &mut plain,
            &Parsed::detached(b"a: 1\n"),
            Path::new("x.yaml"),
        );
        assert_eq!(
            rules(&plain),
            [
                ("evalset/version", Severity::Error),
                ("bundle/context-generation", Severity::Warning)
            ]
        );
        let policy = config::Policy::default();
        let mut strict = checked();
        Verdict {
            policy: &policy,
            strict: true,
        }
        .apply(
            &mut strict,
            &Parsed::detached(b"a: 1\n"),
            Path::new("x.yaml"),
        );
        assert_eq!(
            rules(&strict),
            [
                ("evalset/version", Severity::Error),
                ("bundle/context-generation", Severity::Error)
            ]
        );
    }

    #[test]
    fn levels_drop_or_set_the_severity_of_the_rules_they_name() {
        let config = config::parse(
            "[rules]\n\"evalset/version\" = \"off\"\n\"bundle/context-generation\" = \"error\"\n",
        )
        .unwrap();
        let policy = config.policy(Path::new(".")).unwrap();
        let mut weighed = checked();
        Verdict {
            policy: &policy,
            strict: false,
        }
        .apply(&mut weighed, &Parsed::detached(b""), Path::new("x.yaml"));
        assert_eq!(
            rules(&weighed),
            [("bundle/context-generation", Severity::Error)]
        );
    }

    #[test]
    fn a_suppression_with_a_reason_moves_its_finding_aside() {
        let text = b"a: 1\nb: 2  # numi: ignore[evalset/version] kept for replay\nc: 3\n";
        let mut weighed = checked();
        Verdict::unconfigured().apply(&mut weighed, &Parsed::detached(text), Path::new("x.yaml"));
        assert_eq!(
            rules(&weighed),
            [("bundle/context-generation", Severity::Warning)]
        );
        assert_eq!(weighed.suppressed.len(), 1);
        assert_eq!(weighed.suppressed[0].reason, "kept for replay");
    }

    #[test]
    fn a_suppressed_finding_of_a_rule_that_is_off_is_dropped() {
        let text = b"a: 1\nb: 2  # numi: ignore[evalset/version] kept for replay\nc: 3\n";
        for (config, kept) in [
            ("", 1),
            ("[rules]\n\"evalset/version\" = \"warning\"\n", 1),
            ("[rules]\n\"evalset/version\" = \"off\"\n", 0),
            ("ignore = [\"evalset\"]\n", 0),
            ("select = [\"bundle\"]\n", 0),
            (
                "[[overrides]]\npaths = [\"**/x.yaml\"]\nrules = { \"evalset/version\" = \"off\" }\n",
                0,
            ),
        ] {
            let policy = config::parse(config)
                .unwrap()
                .policy(Path::new("."))
                .unwrap();
            let mut weighed = checked();
            Verdict {
                policy: &policy,
                strict: false,
            }
            .apply(&mut weighed, &Parsed::detached(text), Path::new("x.yaml"));
            assert_eq!(weighed.suppressed.len(), kept, "{config}");
        }
    }
}
