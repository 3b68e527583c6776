use std::collections::BTreeSet;
use std::path::Path;

use super::{RuleDoc, all, find, nearest};
use crate::diagnostic::stages::project::PROJECT;
use crate::diagnostic::{Severity, Stage};
use crate::validate::{Mode, validate_bytes};
use crate::yaml::Limits;

/// Rules no document can show: read errors and defects of numi, an encoding
/// a text example cannot carry, schema keywords the kind stage or the
/// shipped schemas leave unreachable, and the autocontext store's rules,
/// which need a store around the document (the kinds of a store's evidence
/// files and promotion records are told by their place in it alone; tested
/// in `src/kinds/autocontext/` and `tests/integration/autocontext.rs`).
const WITHOUT_EXAMPLE: &[&str] = &[
    // A finding on a file named `.json`: an example is a document, unnamed.
    "yaml/json-syntax",
    "autocontext/store-address",
    "autocontext/store-scenario",
    "autocontext/parent",
    "autocontext/store-link",
    "autocontext/active-bundle",
    "autocontext/active-promotion",
    "autocontext/active-rollback",
    "autocontext/lifecycle-mirror",
    "autocontext/candidate-policy-digest",
    "autocontext/candidate-bundle",
    "autocontext/comparison-replay",
    "autocontext/diff-digest",
    "autocontext/diff-recomputed",
    "autocontext/trials-policy-digest",
    "autocontext/trial-pair-key",
    "autocontext/trial-binding",
    "autocontext/trials-plan",
    "autocontext/attribution-diff",
    "autocontext/attribution-digest",
    "autocontext/attribution-recomputed",
    "autocontext/negative-result-entries",
    "autocontext/negative-result-lifecycle",
    "autocontext/negative-result-binding",
    "autocontext/negative-result-recomputed",
    "autocontext/plan-digest",
    "autocontext/plan-binding",
    "autocontext/promotion-policy-digest",
    "autocontext/promotion-bundles",
    "autocontext/promotion-diff",
    "autocontext/campaign-state-digest",
    "autocontext/campaign-allocation",
    "autocontext/campaign-gate",
    "autocontext/reservation-artifact-digest",
    "autocontext/reservation-fixture-plan",
    "autocontext/reservation-artifact-binding",
    "autocontext/stale-marker",
    "read/io",
    "internal/shape",
    "internal/panic",
    "yaml/encoding",
    "yaml/too-much-text",
    "schema/const",
    "schema/other",
    // Shown only by a manifest read from standard input.
    "contextreport/paths-unchecked",
];

/// The modes the failing and passing examples of a rule are checked in:
/// the configuration tree's gates need repository mode.
fn modes(id: &str) -> (Mode, Mode) {
    let repository = |enable_alpha| Mode::Repository { enable_alpha };
    match id {
        "kind/produced" => (repository(true), Mode::Files),
        "kind/alpha-disabled" => (repository(false), repository(true)),
        _ => (Mode::Files, Mode::Files),
    }
}

fn stage_of_prefix(prefix: &str) -> Option<Stage> {
    match prefix {
        "read" => Some(Stage::Read),
        "yaml" => Some(Stage::Yaml),
        "kind" => Some(Stage::Kind),
        "schema" => Some(Stage::Schema),
        "evalset" | "bundle" | "playbook" | "policy" | "repo" | "contextreport" | "events"
        | "autocontext" => Some(Stage::Rule),
        "internal" => Some(Stage::Internal),
        _ => None,
    }
}

#[test]
fn ids_are_unique_and_well_formed() {
    let mut seen = BTreeSet::new();
    for doc in all() {
        assert!(seen.insert(doc.id), "{} is documented twice", doc.id);
        let (prefix, name) = doc.id.split_once('/').unwrap_or_default();
        assert!(
            !prefix.is_empty() && prefix.bytes().all(|b| b.is_ascii_lowercase()),
            "{}: the prefix is lower-case letters",
            doc.id
        );
        assert!(
            name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
                && name.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-'),
            "{}: the name is letters and dashes",
            doc.id
        );
        if let Some(stage) = stage_of_prefix(prefix) {
            assert_eq!(doc.stage, stage, "{}: stage", doc.id);
        }
        assert!(
            doc.summary.ends_with('.'),
            "{}: summary is a sentence",
            doc.id
        );
        assert!(
            !doc.explanation.trim().is_empty(),
            "{}: explanation",
            doc.id
        );
        assert_eq!(find(doc.id), Some(doc));
    }
    assert_eq!(find("evalset/nope"), None);
}

#[test]
fn the_set_of_ids_is_frozen() {
    // A rename or removal breaks users' scripts and suppressions: it has to
    // show up here, in review.
    let ids: Vec<&str> = all().map(|doc| doc.id).collect();
    insta::assert_snapshot!(ids.join("\n"));
}

#[test]
fn every_rule_has_examples_unless_no_document_can_show_it() {
    for doc in all() {
        let without = WITHOUT_EXAMPLE.contains(&doc.id);
        assert_eq!(
            doc.failing.is_empty(),
            without,
            "{}: failing example",
            doc.id
        );
        assert_eq!(
            doc.passing.is_empty(),
            without,
            "{}: passing example",
            doc.id
        );
    }
    for id in WITHOUT_EXAMPLE {
        assert!(find(id).is_some(), "{id} is documented");
    }
}

fn emitted(doc: &RuleDoc, example: &str, mode: Mode) -> (bool, Vec<&'static str>) {
    let checked = match doc.id.strip_prefix("contextreport/") {
        // A run manifest's paths are relative to it: its examples stand
        // beside the tree they name.
        Some(_) => {
            let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src/kinds/context_report/run/examples/example.yaml");
            let location =
                crate::location::Location::file(&folder, crate::location::DEFAULT_MAX_FILE_SIZE);
            crate::validate::validate_at(example.as_bytes(), mode, &Limits::default(), location)
        }
        None => validate_bytes(example.as_bytes(), mode, &Limits::default()),
    };
    let rules: Vec<&'static str> = checked.diagnostics.iter().map(|d| d.rule.id).collect();
    let errors = checked.errors().map(|d| d.rule.id).collect();
    (rules.contains(&doc.id), errors)
}

#[test]
fn failing_examples_fail_their_rule_and_passing_ones_pass() {
    // The project's findings come from a run or from the suppression
    // comments, not from validating one document: `strict::tests` and
    // `verdict::suppression` check their examples.
    let single_document = |doc: &&RuleDoc| !PROJECT.contains(doc);
    for doc in all()
        .filter(|doc| !doc.failing.is_empty())
        .filter(single_document)
    {
        let (failing_mode, passing_mode) = modes(doc.id);
        let (fails, errors) = emitted(doc, doc.failing, failing_mode);
        assert!(fails, "{}: the failing example does not emit it", doc.id);
        assert!(
            errors.iter().all(|rule| *rule == doc.id),
            "{}: the failing example fails other rules too: {errors:?}",
            doc.id
        );
        let (passes_too, errors) = emitted(doc, doc.passing, passing_mode);
        assert!(!passes_too, "{}: the passing example emits it", doc.id);
        assert!(
            errors.is_empty(),
            "{}: the passing example is not valid: {errors:?}",
            doc.id
        );
    }
}

#[test]
fn near_misses_of_an_id_are_suggested() {
    assert_eq!(nearest("evalset/case-sorted"), Some("evalset/cases-sorted"));
    assert_eq!(nearest("bundle/source-trusts"), Some("bundle/source-trust"));
    assert_eq!(nearest("completely-different"), None);
    // A bare name stands for the id that ends with it, or a near one.
    assert_eq!(nearest("cases-sorted"), Some("evalset/cases-sorted"));
    assert_eq!(nearest("case-sorted"), Some("evalset/cases-sorted"));
    assert_eq!(nearest("duplicate-key"), Some("yaml/duplicate-key"));
    assert_eq!(nearest("sorted-cases-and-more"), None);
}

#[test]
fn a_hint_costs_what_the_catalogue_bounds_whatever_the_id() {
    use crate::suggest::take_work;
    let chars = |id: &str| id.chars().count();
    let longest = all().map(|doc| chars(doc.id)).max().unwrap_or(0);
    // Each id and each name is a candidate once, however many rules share
    // a name or a family.
    assert_eq!(super::IDS.len(), all().count());
    let names: BTreeSet<&str> = all()
        .filter_map(|doc| doc.id.split_once('/').map(|(_, name)| name))
        .collect();
    assert_eq!(super::NAMES.len(), names.len());
    assert!(names.len() < all().count());
    let families: BTreeSet<&str> = all()
        .filter(|doc| doc.stage == Stage::Rule)
        .filter_map(|doc| doc.id.split_once('/').map(|(family, _)| family))
        .collect();
    assert_eq!(super::RULE_FAMILIES.len(), families.len());

    // A megabyte id: a prefix of it read against the names, then the ids,
    // and not one comparison.
    take_work();
    assert_eq!(nearest(&"cases-sorted".repeat(90_000)), None);
    let longest_name = names.iter().map(|name| chars(name)).max().unwrap_or(0);
    assert_eq!(
        take_work(),
        (longest_name * 5 / 2 + 1) + (longest * 5 / 2 + 1)
    );
    assert_eq!(nearest(&"evalset/cases-sorted".repeat(50_000)), None);
    assert_eq!(take_work(), longest * 5 / 2 + 1);
    // An id of a rule's length: each id compared once at most.
    let id = "evalset/cases-sortd";
    assert_eq!(nearest(id), Some("evalset/cases-sorted"));
    let bound = chars(id) + all().map(|doc| chars(id) * chars(doc.id)).sum::<usize>();
    assert!(take_work() <= bound);
}

/// The rules that warn by default: what the producer of a document should
/// have ensured.
fn producer_side() -> impl Iterator<Item = &'static RuleDoc> {
    all().filter(|rule| rule.severity == Severity::Warning)
}

#[test]
fn the_producer_side_rules_are_frozen() {
    let ids: Vec<&str> = producer_side().map(|rule| rule.id).collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    insta::assert_snapshot!(ids.join("\n"), @r"
    contextreport/credential-in-prompt
    contextreport/paths-unchecked
    autocontext/lifecycle-mirror
    bundle/constraint-trust
    bundle/constraint-origin-digest
    bundle/unique-source-refs
    bundle/guidance-ref
    bundle/claim-ref
    bundle/conflict-claims
    bundle/context-generation
    bundle/untrusted-text
    bundle/credential-in-ref
    playbook/rate-bound
    playbook/min-runs
    policy/rule-above-floor
    policy/duplicate-rule
    policy/duplicate-floor
    events/unnamed-field
    repo/duplicate-name
    suppression/unknown-rule
    suppression/unused
    ");
}

#[test]
fn producer_side_examples_warn_and_fail_once_promoted() {
    // A run manifest's examples need their folder: `kinds::context_report`
    // tests them; the project's findings come from a run or the suppression
    // comments (see above).
    for rule in producer_side()
        .filter(|rule| !PROJECT.contains(rule))
        .filter(|rule| !rule.id.starts_with("contextreport/"))
        .filter(|rule| !WITHOUT_EXAMPLE.contains(&rule.id))
    {
        let failing = validate_bytes(rule.failing.as_bytes(), Mode::Files, &Limits::default());
        let rules: Vec<&str> = failing.diagnostics.iter().map(|d| d.rule.id).collect();
        assert_eq!(rules, vec![rule.id], "{}:\n{}", rule.id, rule.failing);
        assert!(
            failing
                .diagnostics
                .iter()
                .all(|d| d.severity == Severity::Warning),
            "{}",
            rule.id
        );
        let mut promoted = failing.clone();
        promoted.promote_warnings();
        assert_eq!(promoted.errors().count(), 1, "{}", rule.id);

        let passing = validate_bytes(rule.passing.as_bytes(), Mode::Files, &Limits::default());
        assert_eq!(
            passing.diagnostics,
            vec![],
            "{}:\n{}",
            rule.id,
            rule.passing
        );
    }
}

/// GitHub's anchor of a Markdown heading: lower case, spaces to `-`, and
/// every character but letters, digits, `-` and `_` dropped.
fn github_anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn every_rule_link_lands_on_its_heading_in_the_rule_pages() {
    let page = include_str!("../../docs/rules.md");
    let anchors: BTreeSet<String> = page
        .lines()
        .filter_map(|line| line.strip_prefix("### "))
        .map(github_anchor)
        .collect();
    for doc in all() {
        let link = super::link(doc.id);
        let (page_url, anchor) = link.split_once('#').expect("a link has an anchor");
        assert_eq!(page_url, super::RULES_URL);
        assert!(anchors.contains(anchor), "{} links to #{anchor}", doc.id);
    }
    assert_eq!(
        super::link("evalset/cases-sorted"),
        format!("{}#evalsetcases-sorted", super::RULES_URL)
    );
    assert!(super::RULES_URL.starts_with(super::REPOSITORY_URL));
    assert!(super::REPOSITORY_URL.starts_with("https://"));
}

#[test]
fn a_text_names_declared_rules_once_each_in_order() {
    let text = "at most 10000 (rule playbook/rate-bound), at least 1 (rule \
playbook/min-runs); again playbook/rate-bound. Not rules: numinance.dev/v1, rule nope/none, \
a/b, rule of three.";
    let ids: Vec<&str> = super::mentioned(text).iter().map(|doc| doc.id).collect();
    assert_eq!(ids, ["playbook/rate-bound", "playbook/min-runs"]);
    assert!(super::mentioned("no rule here").is_empty());
}

/// Every `rule family/name` a shipped schema's description names is a
/// declared rule, so a description cannot send its reader to a rule that
/// does not exist.
#[test]
fn every_rule_a_schema_description_names_is_declared() {
    fn descriptions<'v>(node: &'v serde_json::Value, found: &mut Vec<&'v str>) {
        match node {
            serde_json::Value::Object(map) => {
                if let Some(text) = map.get("description").and_then(serde_json::Value::as_str) {
                    found.push(text);
                }
                map.values().for_each(|child| descriptions(child, found));
            }
            serde_json::Value::Array(items) => {
                items.iter().for_each(|item| descriptions(item, found))
            }
            _ => {}
        }
    }
    let mut named = 0;
    for kind in crate::kinds::all() {
        let schema: serde_json::Value = serde_json::from_str(kind.schema).expect("a JSON schema");
        let mut texts = Vec::new();
        descriptions(&schema, &mut texts);
        for text in texts {
            for (_, after) in text
                .match_indices("rule ")
                .map(|(at, _)| text.split_at(at + 5))
            {
                let id: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_'))
                    .collect();
                if id.contains('/') {
                    assert!(
                        find(&id).is_some(),
                        "{}: {id:?} is no rule: {text}",
                        kind.name
                    );
                    named += 1;
                }
            }
        }
    }
    assert!(named >= 30, "only {named} rules named");
}
