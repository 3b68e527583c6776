use proptest::prelude::*;
use serde_json::Value;

use super::*;
use crate::location::DEFAULT_MAX_FILE_SIZE;

const HEX: &str = "0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242";

fn here() -> Location<'static> {
    Location::detached(DEFAULT_MAX_FILE_SIZE)
}

fn evalset(cases: &str) -> String {
    format!(
        "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {{name: core}}\nspec:\n  version: 1.0.0\n  cases:\n{cases}"
    )
}

fn case(name: &str, digest: &str) -> String {
    format!(
        "    - name: {name}\n      outcome: {{value: \"{digest}\"}}\n      expect: {{acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}}\n"
    )
}

fn fixed(text: &str) -> Fixed {
    fix_document(text, Mode::Files, here(), Verdict::unconfigured()).unwrap()
}

fn rules_of(offered: &Offered) -> Vec<&'static str> {
    offered.fixes.iter().map(|fix| fix.rule.id).collect()
}

#[test]
fn sorted_valid_documents_offer_nothing() {
    let text = evalset(&format!(
        "{}{}",
        case("a", &format!("sha256:{HEX}")),
        case("b", &format!("sha256:{HEX}"))
    ));
    let offered = fixes_for(&text, Mode::Files, here(), Verdict::unconfigured());
    assert!(offered.fixes.is_empty());
    assert!(offered.unfixable.is_empty());
    assert_eq!(fixed(&text).text, text);
}

#[test]
fn cases_out_of_order_are_sorted_with_their_comments() {
    let digest = format!("sha256:{HEX}");
    let text = evalset(&format!(
        "    # about b\n{}\n    # about a\n{}",
        case("b", &digest).replace("name: b", "name: b  # b"),
        case("a", &digest)
    ));
    let offered = fixes_for(&text, Mode::Files, here(), Verdict::unconfigured());
    assert_eq!(rules_of(&offered), vec!["evalset/cases-sorted"]);
    let result = fixed(&text);
    assert_eq!(
        result.text,
        evalset(&format!(
            "    # about a\n{}\n    # about b\n{}",
            case("a", &digest),
            case("b", &digest).replace("name: b", "name: b  # b")
        ))
    );
    assert_eq!(result.checked.errors().count(), 0);
}

#[test]
fn a_duplicate_case_is_not_fixable_and_says_why() {
    let digest = format!("sha256:{HEX}");
    let text = evalset(&format!("{}{}", case("b", &digest), case("b", &digest)));
    let result = fixed(&text);
    assert_eq!(result.text, text);
    assert_eq!(result.unfixable.len(), 1);
    assert_eq!(result.unfixable[0].rule, "evalset/cases-sorted");
    assert_eq!(
        result.unfixable[0].reason,
        "case \"b\" is a duplicate: numi cannot know which one to keep"
    );
}

#[test]
fn a_duplicate_layer_is_not_fixable() {
    let text = evalset(
        "    - name: a\n      outcome: {value: \"sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242\"}\n      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false, verification_failures: [{layer: lint, count: 1}, {layer: lint, count: 2}]}\n",
    );
    let result = fixed(&text);
    assert_eq!(result.text, text);
    assert_eq!(result.unfixable[0].rule, "evalset/failures-sorted");
    assert!(
        result.unfixable[0]
            .reason
            .starts_with("layer \"lint\" is a duplicate")
    );
}

#[test]
fn an_upper_case_digest_is_written_in_lower_case_in_any_quoting() {
    let upper = format!("sha256:{}", HEX.to_uppercase());
    for written in [format!("\"{upper}\""), format!("'{upper}'"), upper.clone()] {
        let text = evalset(&case("a", "X").replace("\"X\"", &written));
        let result = fixed(&text);
        assert_eq!(
            result.text,
            text.replace(&HEX.to_uppercase(), HEX),
            "{written}"
        );
        assert_eq!(result.applied[0].0, "evalset/outcome-digest");
    }
}

#[test]
fn a_digest_numi_cannot_know_is_not_fixable() {
    let short = format!("sha256:{}", &HEX[..63]);
    let escaped = format!("sha256:\\x41{}", &HEX.to_uppercase()[1..]);
    for (written, reason) in [
        (short, "only a digest in upper-case hex"),
        (escaped, "the digest is not written as it reads"),
    ] {
        let text = evalset(&case("a", &written));
        let result = fixed(&text);
        assert_eq!(result.text, text);
        assert_eq!(result.unfixable.len(), 1, "{written}");
        assert!(result.unfixable[0].reason.starts_with(reason), "{written}");
    }
}

#[test]
fn bundle_digests_are_fixable() {
    let text = include_str!("../kinds/context_bundle/examples/digest.failing.yaml");
    let result = fixed(text);
    assert_eq!(result.applied.len(), 1);
    assert_eq!(result.applied[0].0, "bundle/digest");
    assert!(result.text.contains("sha256:5c2e8a1f"));
    assert_eq!(result.checked.errors().count(), 0);
}

#[test]
fn gated_and_unfixable_kinds_offer_nothing() {
    let digest = format!("sha256:{HEX}");
    let text = evalset(&format!("{}{}", case("b", &digest), case("a", &digest)));
    let gated = fixes_for(
        &text,
        Mode::Repository {
            enable_alpha: false,
        },
        here(),
        Verdict::unconfigured(),
    );
    assert!(gated.fixes.is_empty());
    let admitted = fixes_for(
        &text,
        Mode::Repository { enable_alpha: true },
        here(),
        Verdict::unconfigured(),
    );
    assert_eq!(rules_of(&admitted), vec!["evalset/cases-sorted"]);
    let playbook = include_str!("../../examples/playbook-bugfix-bounded.yaml");
    assert!(
        fixes_for(playbook, Mode::Files, here(), Verdict::unconfigured())
            .fixes
            .is_empty()
    );
}

#[test]
fn apply_refuses_edits_that_do_not_make_the_intended_change() {
    let digest = format!("sha256:{HEX}");
    let text = evalset(&format!("{}{}", case("b", &digest), case("a", &digest)));
    let mut offered = fixes_for(&text, Mode::Files, here(), Verdict::unconfigured()).fixes;
    assert!(apply(&text, &offered).is_ok());
    let mut wrong = offered[0].clone();
    wrong.edits[0].replacement = wrong.edits[0].replacement.replace("name: a", "name: c");
    assert!(apply(&text, &[wrong]).is_err());
    let mut broken = offered[0].clone();
    broken.edits[0].replacement.push_str("\n  - {");
    assert!(apply(&text, &[broken]).is_err());
    let twice = offered.pop().unwrap();
    assert_eq!(
        apply(&text, &[twice.clone(), twice]).unwrap_err().reason,
        "two fixes edit the same text"
    );
}

#[test]
fn flow_style_cases_are_sorted_in_place() {
    let digest = format!("sha256:{HEX}");
    let item = |name: &str| {
        format!(
            "{{name: {name}, outcome: {{value: \"{digest}\"}}, expect: {{acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}}}}"
        )
    };
    let text = format!(
        "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {{name: core}}\nspec:\n  version: 1.0.0\n  cases: [\n    # about b\n    {},  # b\n    {}\n  ]\n",
        item("b"),
        item("a")
    );
    let result = fixed(&text);
    assert_eq!(
        result.text,
        format!(
            "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {{name: core}}\nspec:\n  version: 1.0.0\n  cases: [\n    {},\n    # about b\n    {}  # b\n  ]\n",
            item("a"),
            item("b")
        )
    );
}

/// One generated case: its name, its layers in written order, whether its
/// digest is in upper case, and whether its failures are written in block
/// style.
#[derive(Debug, Clone)]
struct GeneratedCase {
    name: String,
    layers: Vec<String>,
    upper: bool,
    block_failures: bool,
}

fn generated_cases() -> impl Strategy<Value = Vec<GeneratedCase>> {
    let names = prop::sample::subsequence(
        vec![
            "alpha", "beta", "b-2", "c.9", "delta", "d_1", "echo", "zulu",
        ],
        1..=8,
    )
    .prop_shuffle();
    names.prop_flat_map(|names| {
        let count = names.len();
        let layers = prop::collection::vec(
            prop::sample::subsequence(vec!["lint", "tests", "build", "scan"], 0..=4).prop_shuffle(),
            count,
        );
        let flags = prop::collection::vec((any::<bool>(), any::<bool>()), count);
        (Just(names), layers, flags).prop_map(|(names, layers, flags)| {
            names
                .into_iter()
                .zip(layers)
                .zip(flags)
                .map(|((name, layers), (upper, block_failures))| GeneratedCase {
                    name: name.to_owned(),
                    layers: layers.into_iter().map(str::to_owned).collect(),
                    upper,
                    block_failures,
                })
                .collect()
        })
    })
}

/// The same cases as one flow sequence, one case a line.
fn write_flow_evalset(cases: &[GeneratedCase]) -> String {
    let mut text = String::from(
        "# header\napiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {name: core}\nspec:\n  version: 1.0.0\n  cases: [  # the cases\n",
    );
    for (i, case) in cases.iter().enumerate() {
        let hex = if case.upper {
            HEX.to_uppercase()
        } else {
            HEX.to_owned()
        };
        let failures: Vec<String> = case
            .layers
            .iter()
            .map(|layer| format!("{{layer: {layer}, count: 1}}"))
            .collect();
        let comma = if i + 1 < cases.len() { "," } else { "" };
        text.push_str(&format!(
            "    # above {i}\n    {{name: {}, outcome: {{value: 'sha256:{hex}'}}, expect: {{acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false, verification_failures: [{}]}}}}{comma}  # trailing {i}\n",
            case.name,
            failures.join(", ")
        ));
        if i % 3 == 1 {
            text.push('\n');
        }
    }
    text.push_str("  ]\n# footer\n");
    text
}

fn write_evalset(cases: &[GeneratedCase]) -> String {
    let mut text = String::from(
        "# header\napiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {name: core}  # name\nspec:\n  version: 1.0.0\n  # the cases\n  cases:\n",
    );
    for (i, case) in cases.iter().enumerate() {
        let hex = if case.upper {
            HEX.to_uppercase()
        } else {
            HEX.to_owned()
        };
        text.push_str(&format!(
            "    # above {i}\n    - name: {}  # trailing {i}\n      outcome: {{value: \"sha256:{hex}\"}}\n      expect:\n        acceptance: EVAL_ACCEPTANCE_ACCEPTED\n        merged: true\n        severe: false\n",
            case.name
        ));
        if case.block_failures && !case.layers.is_empty() {
            text.push_str("        verification_failures:\n");
            for (j, layer) in case.layers.iter().enumerate() {
                text.push_str(&format!(
                    "          # failure {i}.{j}\n          - layer: {layer}  # layer {i}.{j}\n            count: 1\n"
                ));
            }
        } else if !case.layers.is_empty() {
            let items: Vec<String> = case
                .layers
                .iter()
                .map(|layer| format!("{{layer: {layer}, count: 1}}"))
                .collect();
            text.push_str(&format!(
                "        verification_failures: [{}]  # flow {i}\n",
                items.join(", ")
            ));
        }
        if i % 2 == 0 {
            text.push('\n');
        }
    }
    text.push_str("# footer\n");
    text
}

fn comments(text: &str) -> Vec<String> {
    let mut found: Vec<String> = text
        .lines()
        .filter_map(|line| line.find("# ").map(|at| line[at..].to_owned()))
        .collect();
    found.sort();
    found
}

fn intended(text: &str) -> Value {
    let mut value = yaml::load(text, &Limits::default()).unwrap().value;
    let cases = value["spec"]["cases"].as_array_mut().unwrap();
    for case in cases.iter_mut() {
        let digest = case["outcome"]["value"].as_str().unwrap().to_lowercase();
        case["outcome"]["value"] = Value::from(digest);
        if let Some(failures) = case["expect"]
            .get_mut("verification_failures")
            .and_then(Value::as_array_mut)
        {
            failures.sort_by(|a, b| a["layer"].as_str().cmp(&b["layer"].as_str()));
        }
    }
    cases.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    value
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fixing_makes_exactly_the_intended_change_keeps_comments_and_settles(
        cases in generated_cases(),
        flow in any::<bool>(),
    ) {
        let text = if flow { write_flow_evalset(&cases) } else { write_evalset(&cases) };
        let result = fixed(&text);
        let loaded = yaml::load(&result.text, &Limits::default()).unwrap();
        prop_assert_eq!(&loaded.value, &intended(&text));
        prop_assert_eq!(result.checked.errors().count(), 0);
        prop_assert_eq!(comments(&result.text), comments(&text));
        prop_assert!(result.text.starts_with("# header\n"));
        prop_assert!(result.text.ends_with("# footer\n"));
        let again = fixed(&result.text);
        prop_assert_eq!(&again.text, &result.text);
        prop_assert!(again.applied.is_empty());
    }
}

/// `numi fix` weighs suppressions as `validate` does: a real comment right
/// above the case keeps it unsorted, the same words as the last line of a
/// block scalar right above it do not.
#[test]
fn only_a_real_comment_keeps_a_finding_from_being_fixed() {
    let digest = format!("sha256:{HEX}");
    let seeded = "      seeded:\n        caught_by: scan\n        defect: |-\n          sql\n";
    let ignore = "# numi: ignore[evalset/cases-sorted] in the order added\n";
    let real = evalset(&format!(
        "{}{seeded}    {ignore}{}",
        case("b", &digest),
        case("a", &digest)
    ));
    let offered = fixes_for(&real, Mode::Files, here(), Verdict::unconfigured());
    assert_eq!(rules_of(&offered), Vec::<&str>::new());
    let would_be = evalset(&format!(
        "{}{seeded}          {ignore}{}",
        case("b", &digest),
        case("a", &digest)
    ));
    let offered = fixes_for(&would_be, Mode::Files, here(), Verdict::unconfigured());
    assert_eq!(rules_of(&offered), vec!["evalset/cases-sorted"]);
}

/// Every line end of an LF text written as `eol`.
fn with_line_ends(text: &str, eol: &str) -> String {
    text.replace('\n', eol)
}

#[test]
fn a_moved_last_item_keeps_the_line_ends_and_the_missing_final_one() {
    let digest = format!("sha256:{HEX}");
    let block = evalset(&format!("{}{}", case("b", &digest), case("a", &digest)));
    let block_sorted = evalset(&format!("{}{}", case("a", &digest), case("b", &digest)));
    let flow = "kind: EvalSet\napiVersion: numinance.dev/v1alpha1\nmetadata: {name: core}\nspec:\n  version: 1.0.0\n  cases:\n    - name: a\n      outcome: {value: \"D\"}\n      expect:\n        acceptance: EVAL_ACCEPTANCE_REJECTED\n        merged: false\n        severe: false\n        verification_failures: [\n          {layer: tests, count: 1},\n          {layer: lint, count: 1}]\n"
        .replace("\"D\"", &format!("\"{digest}\""));
    let flow_sorted = flow.replace(
        "{layer: tests, count: 1},\n          {layer: lint, count: 1}",
        "{layer: lint, count: 1},\n          {layer: tests, count: 1}",
    );
    for (text, sorted) in [(&block, &block_sorted), (&flow, &flow_sorted)] {
        for eol in ["\n", "\r\n", "\r"] {
            for final_line_end in [true, false] {
                let mut original = with_line_ends(text, eol);
                let mut expected = with_line_ends(sorted, eol);
                if !final_line_end {
                    original.truncate(original.trim_end().len());
                    expected.truncate(expected.trim_end().len());
                }
                let result = fixed(&original);
                assert_eq!(
                    result.text, expected,
                    "{eol:?}, final line end {final_line_end}"
                );
                assert_eq!(result.applied.len(), 1, "{eol:?}");
            }
        }
    }
}

#[test]
fn a_finding_carries_its_fix_unless_the_edits_would_show_a_credential() {
    let digest = format!("sha256:{HEX}");
    let unsorted = evalset(&format!("{}{}", case("b", &digest), case("a", &digest)));
    let carried = |text: &str| {
        let parsed = Parsed::load(text.as_bytes(), &Limits::default(), &here());
        let mut checked = validate_parsed(&parsed, Mode::Files, here());
        attach(&mut checked, &parsed);
        checked
            .diagnostics
            .iter()
            .map(|diagnostic| diagnostic.fix.as_ref().map(|fix| fix.message.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        carried(&unsorted),
        [Some("sort /spec/cases by name".to_owned())]
    );
    // The same sort, over a case whose name holds a token.
    let token = "ghp_R8x2Kq7Lm4Np9Vt3Wz6Yb1Cd5Fg0Hj";
    let with_token = unsorted.replacen("name: b", &format!("name: {token}"), 1);
    let fixes = carried(&with_token);
    assert!(!fixes.is_empty());
    assert!(fixes.iter().all(Option::is_none), "{fixes:?}");
    // A valid document has nothing to carry.
    let sorted = evalset(&format!("{}{}", case("a", &digest), case("b", &digest)));
    assert!(carried(&sorted).is_empty());
}
