//! numi's findings as LSP diagnostics: the same pipeline as `numi validate`
//! for the document's path, each finding with the range of its node.

use std::ops::Range;
use std::path::Path;
use std::str::FromStr;

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, NumberOrString, Uri,
};

use super::encoding::Encoding;
use crate::diagnostic::{Diagnostic, Severity};
use crate::location::{DEFAULT_MAX_FILE_SIZE, Location};
use crate::project::{ConfigFile, Flags, Settings};
use crate::validate::{Checked, Mode, validate_guarded};
use crate::yaml::Limits;
use crate::yaml::LineIndex;

/// One finding of a checked document and the bytes of the node it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Finding {
    pub diagnostic: Diagnostic,
    pub span: Range<usize>,
}

/// The mode `numi validate` would check a file at `path` in: a file in a
/// `.numinance/` tree is configuration, any other file is checked as
/// `--files` checks it.
pub(super) fn mode_for(path: Option<&Path>, enable_alpha: bool) -> Mode {
    let in_tree = path.is_some_and(|path| {
        path.components()
            .any(|component| component.as_os_str() == ".numinance")
    });
    if in_tree {
        Mode::Repository { enable_alpha }
    } else {
        Mode::Files
    }
}

/// Every finding of `text`, the document open at `path` (none for an
/// unsaved buffer: then no neighbour can be read), weighed as `numi
/// validate` weighs it: the `numi.toml` that holds for the file (its alpha
/// gate, strictness, excluded paths and rule levels) and its inline
/// suppressions. Each finding a safe fix repairs carries that fix, for the
/// code actions. A configuration that does not load is passed over here;
/// `numi validate` says what is wrong with it.
pub(super) fn check(text: &str, path: Option<&Path>, flags: Flags) -> Vec<Finding> {
    let Some(weighing) = Weighing::of(path, flags) else {
        return Vec::new();
    };
    let Weighing { mode, location, .. } = weighing;
    let verdict = weighing.settings.verdict();
    let checked = validate_guarded(
        text.as_bytes(),
        mode,
        &Limits::default(),
        location,
        |checked, parsed| {
            verdict.apply(checked, parsed, path.unwrap_or(Path::new("")));
            crate::fix::attach(checked, parsed);
        },
    );
    if !matches!(mode, Mode::Repository { .. }) && !recognised(&checked, text) {
        return Vec::new();
    }
    // One index for every finding without a span, built only if one has none.
    let mut lines = None;
    checked
        .diagnostics
        .into_iter()
        .map(|diagnostic| {
            let span = span_of(text, &mut lines, &diagnostic);
            Finding { diagnostic, span }
        })
        .collect()
}

/// Whether a document outside a configuration tree is numi's to speak of:
/// one whose kind numi knows (a family claimed it), or one that says it is
/// a Numinance document (`numinance.dev/` in its text: a misspelt kind or a
/// broken line of a policy still gets its findings). An editor starts the
/// server on every YAML buffer; a workflow or a `.pre-commit-config.yaml`
/// gets no `kind/unknown` from it.
fn recognised(checked: &Checked, text: &str) -> bool {
    checked.kind.is_some() || text.contains("numinance.dev/")
}

/// How a document open at `path` is checked and its findings weighed: the
/// settings that hold for it, its mode and where it stands. The checks and
/// the fixes of the server both start from it, so a fix is offered only
/// for what the server shows (fix-all follows `numi.toml`, its levels,
/// `select` and `ignore`).
pub(super) struct Weighing<'a> {
    pub settings: Settings,
    pub mode: Mode,
    pub location: Location<'a>,
}

impl<'a> Weighing<'a> {
    /// `None` when the configuration leaves the file out of every check.
    pub(super) fn of(path: Option<&'a Path>, flags: Flags) -> Option<Weighing<'a>> {
        let settings = path.map_or_else(
            || settings_without_file(flags),
            |path| settings_for(path, flags),
        );
        if path.is_some_and(|path| settings.policy.excludes(path)) {
            return None;
        }
        let location = match path {
            Some(path) => Location::file(path, DEFAULT_MAX_FILE_SIZE),
            None => Location::detached(DEFAULT_MAX_FILE_SIZE),
        };
        let mode = mode_for(path, settings.enable_alpha);
        Some(Weighing {
            settings,
            mode,
            location,
        })
    }
}

/// The settings for the file at `path`: the flags over the `numi.toml`
/// found from its folder upward; the flags alone when there is none or it
/// does not load.
fn settings_for(path: &Path, flags: Flags) -> Settings {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    Settings::resolve(flags, ConfigFile::Found, folder)
        .unwrap_or_else(|_| settings_without_file(flags))
}

/// The settings of the flags alone, for an unsaved buffer or a
/// configuration that does not load.
fn settings_without_file(flags: Flags) -> Settings {
    Settings::resolve(flags, ConfigFile::None, Path::new(".")).unwrap_or_default()
}

/// The bytes of a finding's node, or of the character at its position
/// when only that is known (from `lines`, the text's index, built the
/// first time one is needed).
fn span_of<'t>(
    text: &'t str,
    lines: &mut Option<LineIndex<'t>>,
    diagnostic: &Diagnostic,
) -> Range<usize> {
    match (diagnostic.span, diagnostic.position) {
        (Some(span), _) => span.range(),
        (None, Some(position)) => lines
            .get_or_insert_with(|| LineIndex::new(text))
            .character_at(position)
            .range(),
        (None, None) => 0..0,
    }
}

/// The findings of `text` as the client shows them: the text indexed once
/// for all of them, so a document of many findings costs its size once.
pub(super) fn to_lsp_all(
    findings: &[Finding],
    text: &str,
    encoding: Encoding,
    uri: &Uri,
) -> Vec<lsp_types::Diagnostic> {
    let lines = LineIndex::new(text);
    findings
        .iter()
        .map(|finding| to_lsp(finding, &lines, encoding, uri))
        .collect()
}

/// A finding as the client shows it, placed by `lines`, the index of the
/// document's text (built once for all its findings). The order rules'
/// note ("case b should follow case a") goes in the related information,
/// at the node.
pub(super) fn to_lsp(
    finding: &Finding,
    lines: &LineIndex<'_>,
    encoding: Encoding,
    uri: &Uri,
) -> lsp_types::Diagnostic {
    let range = lsp_range(lines, &finding.span, encoding);
    let diagnostic = &finding.diagnostic;
    let related = diagnostic.note.as_ref().map(|note| {
        vec![DiagnosticRelatedInformation {
            location: lsp_types::Location {
                uri: uri.clone(),
                range,
            },
            message: crate::report::masked(note, diagnostic),
        }]
    });
    lsp_types::Diagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(diagnostic.rule.id.to_owned())),
        code_description: Uri::from_str(&crate::rules::link(diagnostic.rule.id))
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("numi".to_owned()),
        message: message(diagnostic),
        related_information: related,
        tags: None,
        data: None,
    }
}

/// The message with its stage, as the text format words it after the name;
/// a credential in it masked.
fn message(diagnostic: &Diagnostic) -> String {
    use crate::diagnostic::Stage;
    let message = match diagnostic.stage() {
        Stage::Schema => match &diagnostic.address {
            Some(address) => format!(
                "{}: {}",
                crate::text::quote(&address.to_string()),
                diagnostic.message
            ),
            None => diagnostic.message.clone(),
        },
        _ => diagnostic.message.clone(),
    };
    crate::report::masked(&message, diagnostic)
}

/// A byte range of the indexed text as the client counts it.
pub(super) fn lsp_range(
    lines: &LineIndex<'_>,
    span: &Range<usize>,
    encoding: Encoding,
) -> lsp_types::Range {
    lsp_types::Range {
        start: encoding.position(lines, span.start),
        end: encoding.position(lines, span.end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BROKEN: &str = "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata:\n  name: \"é-set\"\nspec:\n  version: \"1.0\"\n  cases: []\n";

    #[test]
    fn a_finding_spans_its_token_in_utf16_units() {
        let findings = check(BROKEN, None, Flags::default());
        let version = findings
            .iter()
            .find(|f| f.diagnostic.rule == "evalset/version")
            .map(|f| f.span.clone());
        assert_eq!(version.and_then(|s| BROKEN.get(s)), Some("\"1.0\""));
    }

    #[test]
    fn a_credential_in_a_message_is_masked_whatever_stage_failed() {
        #![allow(clippy::unwrap_used)]
        let text = "apiVersion: numinance.dev/v1\nkind: https://deploy:hunter2-s3cr3t@wiki.example.com/x\nspec: {}\n";
        let findings = check(text, None, Flags::default());
        assert_eq!(rules_of(&findings), ["kind/unknown"]);
        let uri = Uri::from_str("file:///tmp/b.yaml").unwrap();
        let shown = to_lsp(
            findings.first().unwrap(),
            &LineIndex::new(text),
            Encoding::Utf16,
            &uri,
        )
        .message;
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("https://*****"), "{shown}");
    }

    #[test]
    fn a_document_of_many_findings_is_indexed_a_bounded_number_of_times() {
        #![allow(clippy::unwrap_used)]
        // 400 unknown suppression ids, each a finding of its own line.
        let mut text: String = (0..400)
            .map(|i| format!("# numi: ignore[playbook/x{i}] why\n"))
            .collect();
        text.push_str(include_str!("../../examples/playbook-bugfix-bounded.yaml"));
        let uri = Uri::from_str("file:///tmp/p.yaml").unwrap();
        crate::yaml::take_indexed();
        let findings = check(&text, None, Flags::default());
        assert_eq!(findings.len(), 400);
        let shown = to_lsp_all(&findings, &text, Encoding::Utf16, &uri);
        assert_eq!(shown.len(), 400);
        assert_eq!(shown[399].range.start.line, 399);
        // Indexed four times: for the loader's positions, the comments, the
        // suppressions' lines and the client's positions; once per finding
        // would be 400 times.
        let indexed = crate::yaml::take_indexed();
        assert!(
            indexed <= 4 * text.len(),
            "{indexed} bytes for {}",
            text.len()
        );
    }

    fn rules_of(findings: &[Finding]) -> Vec<&'static str> {
        findings.iter().map(|f| f.diagnostic.rule.id).collect()
    }

    #[test]
    fn findings_are_weighed_by_the_numi_toml_that_holds_for_the_file() {
        #![allow(clippy::unwrap_used)]
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("set.yaml");
        let unconfigured = check(BROKEN, Some(&file), Flags::default());
        assert_eq!(
            rules_of(&unconfigured),
            ["evalset/version", "evalset/case-count"]
        );

        std::fs::write(
            dir.path().join("numi.toml"),
            "[rules]\n\"evalset/version\" = \"off\"\n\"evalset/case-count\" = \"warning\"\n",
        )
        .unwrap();
        let configured = check(BROKEN, Some(&file), Flags::default());
        assert_eq!(rules_of(&configured), ["evalset/case-count"]);
        assert!(
            configured
                .iter()
                .all(|f| f.diagnostic.severity == Severity::Warning)
        );

        std::fs::write(dir.path().join("numi.toml"), "exclude = [\"set.yaml\"]\n").unwrap();
        assert_eq!(check(BROKEN, Some(&file), Flags::default()), Vec::new());

        // A configuration that does not load leaves the findings as they are.
        std::fs::write(dir.path().join("numi.toml"), "no-such-key = 1\n").unwrap();
        assert_eq!(check(BROKEN, Some(&file), Flags::default()), unconfigured);
    }

    const RATE_OVER_BOUND: &str = "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: bugfix-bounded, scope: SCOPE_REPO}\nspec:\n  change_type: bugfix\n  max_repair_attempts: 2\n  qualification: {min_runs: 20, max_rework_rate: 20000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}\n";

    fn severities(findings: &[Finding]) -> Vec<(&'static str, Severity)> {
        findings
            .iter()
            .map(|f| (f.diagnostic.rule.id, f.diagnostic.severity))
            .collect()
    }

    #[test]
    fn strict_in_the_numi_toml_makes_a_producer_warning_an_error() {
        #![allow(clippy::unwrap_used)]
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pb.yaml");
        assert_eq!(
            severities(&check(RATE_OVER_BOUND, Some(&file), Flags::default())),
            [("playbook/rate-bound", Severity::Warning)]
        );
        std::fs::write(dir.path().join("numi.toml"), "strict = false\n").unwrap();
        assert_eq!(
            severities(&check(RATE_OVER_BOUND, Some(&file), Flags::default())),
            [("playbook/rate-bound", Severity::Warning)]
        );
        std::fs::write(dir.path().join("numi.toml"), "strict = true\n").unwrap();
        assert_eq!(
            severities(&check(RATE_OVER_BOUND, Some(&file), Flags::default())),
            [("playbook/rate-bound", Severity::Error)]
        );
        // The flag alone does it too, with no configuration file at all.
        let strict = Flags {
            strict: true,
            ..Flags::default()
        };
        assert_eq!(
            severities(&check(RATE_OVER_BOUND, None, strict)),
            [("playbook/rate-bound", Severity::Error)]
        );
    }

    #[test]
    fn a_rule_the_numi_toml_does_not_select_is_not_shown() {
        #![allow(clippy::unwrap_used)]
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pb.yaml");
        for (config, shown) in [
            ("ignore = [\"evalset\"]\n", true),
            ("ignore = [\"playbook\"]\n", false),
            ("select = [\"playbook/min-runs\"]\n", false),
            ("select = [\"playbook/rate-bound\"]\n", true),
        ] {
            std::fs::write(dir.path().join("numi.toml"), config).unwrap();
            let findings = check(RATE_OVER_BOUND, Some(&file), Flags::default());
            assert_eq!(!severities(&findings).is_empty(), shown, "{config}");
        }
    }

    #[test]
    fn a_finding_its_comment_suppresses_is_not_shown() {
        let text = BROKEN.replace(
            "version: \"1.0\"\n",
            "version: \"1.0\"  # numi: ignore[evalset/version] the old scheme\n",
        );
        assert_eq!(
            rules_of(&check(&text, None, Flags::default())),
            ["evalset/case-count"]
        );
        // The same words inside the scalar are its text, not a comment.
        let quoted = BROKEN.replace(
            "version: \"1.0\"\n",
            "version: \"1.0 # numi: ignore[evalset/version] the old scheme\"\n",
        );
        assert_eq!(
            rules_of(&check(&quoted, None, Flags::default())),
            ["evalset/version", "evalset/case-count"]
        );
    }

    #[test]
    fn a_valid_document_has_no_finding() {
        let valid = include_str!("../../examples/core-replay.yaml");
        assert_eq!(check(valid, None, Flags::default()), Vec::new());
    }

    #[test]
    fn a_missing_property_covers_the_mapping_that_lacks_it() {
        let text = "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata:\n  name: x\nspec:\n  cases: []\n";
        let findings = check(text, None, Flags::default());
        let required = findings
            .iter()
            .find(|f| f.diagnostic.rule == "schema/required");
        assert_eq!(
            required.and_then(|f| text.get(f.span.clone())),
            Some("cases: []")
        );
    }

    #[test]
    fn files_in_a_configuration_tree_meet_its_gates() {
        let tree = Path::new("/repo/.numinance/evals/a.yaml");
        let loose = Path::new("/repo/evals/a.yaml");
        assert_eq!(
            mode_for(Some(tree), false),
            Mode::Repository {
                enable_alpha: false
            }
        );
        assert_eq!(mode_for(Some(loose), false), Mode::Files);
        assert_eq!(mode_for(None, false), Mode::Files);
    }

    #[test]
    fn a_yaml_file_numi_does_not_recognise_gets_no_finding_outside_a_tree() {
        let dir = tempfile::tempdir().unwrap();
        let workflow = "name: ci\non: [push]\njobs: {}\n";
        let outside = dir.path().join(".github/workflows/ci.yml");
        assert!(check(workflow, Some(&outside), Flags::default()).is_empty());
        assert!(check("a: [\n", Some(&outside), Flags::default()).is_empty());
        // In a configuration tree every document is numi's.
        let inside = dir.path().join(".numinance/policy/ci.yml");
        assert_eq!(
            rules_of(&check(workflow, Some(&inside), Flags::default())),
            ["kind/unknown"]
        );
        // A Numinance document anywhere: a misspelt kind, a broken line.
        let misspelt = "apiVersion: numinance.dev/v1\nkind: Playbok\nmetadata: {name: x}\n";
        assert_eq!(
            rules_of(&check(misspelt, Some(&outside), Flags::default())),
            ["kind/unknown"]
        );
        let broken = "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: [\n";
        assert_eq!(
            rules_of(&check(broken, Some(&outside), Flags::default())),
            ["yaml/syntax"]
        );
    }
}
