//! The EvalSet rules, each on both sides: the spec's example (or an edge of
//! it) that passes, and one edit of it that fails with the exact rule,
//! message and address.

use serde_json::{Value, json};

use super::*;
use crate::diagnostic::{Address, Position, Severity, Stage, address};
use crate::kinds::checks::shown;
use crate::kinds::tests::{documented, starts_only};
use crate::validate::{Mode, validate_bytes};
use crate::yaml::Limits;

/// The spec's valid example, `schemas/examples/EvalSet/core-replay.yaml`.
const CORE_REPLAY: &str = include_str!("../../../examples/core-replay.yaml");

const DIGEST: &str = "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242";

const CASES_SORTED: &str = "EvalSet cases are sorted by name without duplicates";
const CASE_COUNT: &str = "an EvalSet holds 1 to 256 cases";
const FAILURES_SORTED: &str =
    "EvalSet verification failures are sorted by layer without duplicates";
const CATEGORY_SEEDED: &str =
    "an EvalSet case of a planted security bug or a migration hazard plants a defect";
const SEEDED_CATEGORY: &str = "an EvalSet case that plants a defect names a category";
const SEEDED_EXPECTATION: &str =
    "an EvalSet case that plants a defect expects it not accepted, not merged and not severe";
const CAUGHT_BY_LAYER: &str =
    "an EvalSet case that plants a defect is caught by one of its expected failure layers";

fn core_replay() -> Value {
    crate::yaml::load(CORE_REPLAY, &Limits::default())
        .expect("the spec's example loads")
        .value
}

/// What the rules find in the example once `edit` has changed it.
fn check(edit: impl FnOnce(&mut Value)) -> Vec<Diagnostic> {
    let mut document = core_replay();
    edit(&mut document);
    rules(&document)
}

/// A rule across fields, as the rules stage reports it (before positions).
fn rule(rule: &'static str, message: &str, address: Address) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        rule: documented(rule),
        message: message.to_owned(),
        address: Some(address),
        position: None,
        end: None,
        span: None,
        note: None,
        reference_words: None,
        secrets: Vec::new(),
        related: Vec::new(),
        fix: None,
    }
}

/// A single field that fails its value check, holding `got` as the
/// message shows it.
fn field(rule_id: &'static str, field: &str, address: Address, got: &str) -> Diagnostic {
    let expected = match rule_id {
        "evalset/version" => {
            "a strict version: MAJOR.MINOR.PATCH, three numbers without leading zeros or suffix"
        }
        "evalset/outcome-digest" => "`sha256:` followed by 64 lowercase hex digits",
        "evalset/failure-count" => "a whole number of at least 1",
        _ => "1 to 64 characters of a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit",
    };
    let mut found = rule(
        rule_id,
        &format!(
            "`{}` must be {expected}; got {got}",
            crate::kinds::checks::field_path(&address)
        ),
        address,
    );
    found.reference_words = Some(format!(
        "a value of numinance.kinds.v1.{field} fails its check"
    ));
    found
}

/// A minimal valid EvalSet of `names.len()` ordinary cases.
fn set_of(names: &[String]) -> Value {
    let cases: Vec<Value> = names
        .iter()
        .map(|name| {
            json!({
                "name": name,
                "outcome": {"value": DIGEST},
                "expect": {"acceptance": "EVAL_ACCEPTANCE_ACCEPTED", "merged": true, "severe": false},
            })
        })
        .collect();
    json!({
        "apiVersion": "numinance.dev/v1alpha1",
        "kind": "EvalSet",
        "metadata": {"name": "generated"},
        "spec": {"version": "1.0.0", "cases": cases},
    })
}

fn numbered(count: usize) -> Vec<String> {
    (0..count).map(|i| format!("case-{i:03}")).collect()
}

fn named(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| (*name).to_owned()).collect()
}

// The example itself.

#[test]
fn core_replay_example_passes_every_rule() {
    assert_eq!(rules(&core_replay()), vec![]);
}

#[test]
fn core_replay_example_is_valid_through_the_whole_pipeline() {
    let checked = validate_bytes(CORE_REPLAY.as_bytes(), Mode::Files, &Limits::default());
    assert_eq!(checked.diagnostics, vec![]);
    assert_eq!(checked.kind, Some("EvalSet"));
    assert_eq!(checked.name.as_deref(), Some("core-replay"));
}

// evalset/version

#[test]
fn version_passes_for_strict_versions_with_multi_digit_parts() {
    for version in ["0.0.0", "10.20.300"] {
        assert_eq!(
            check(|d| d["spec"]["version"] = json!(version)),
            vec![],
            "{version}"
        );
    }
}

#[test]
fn version_fails_for_a_two_part_version() {
    assert_eq!(
        check(|d| d["spec"]["version"] = json!("1.0")),
        vec![field(
            "evalset/version",
            "EvalSetSpec.version",
            address!["spec", "version"],
            "\"1.0\""
        )]
    );
}

#[test]
fn version_fails_for_a_prefix_a_leading_zero_or_a_pre_release() {
    for version in ["v1.0.0", "1.01.0", "1.0.0-rc.1"] {
        assert_eq!(
            check(|d| d["spec"]["version"] = json!(version)),
            vec![field(
                "evalset/version",
                "EvalSetSpec.version",
                address!["spec", "version"],
                &format!("{version:?}")
            )],
            "{version}"
        );
    }
}

// evalset/case-count

#[test]
fn case_count_passes_for_a_single_case() {
    let found = check(|d| {
        let first = d["spec"]["cases"][0].clone();
        d["spec"]["cases"] = json!([first]);
    });
    assert_eq!(found, vec![]);
}

#[test]
fn case_count_fails_for_no_cases() {
    assert_eq!(
        check(|d| d["spec"]["cases"] = json!([])),
        vec![
            rule("evalset/case-count", CASE_COUNT, address!["spec", "cases"])
                .with_note("it has 0 cases")
        ]
    );
}

#[test]
fn case_count_passes_for_256_cases() {
    assert_eq!(rules(&set_of(&numbered(256))), vec![]);
}

#[test]
fn case_count_fails_for_257_cases() {
    assert_eq!(
        rules(&set_of(&numbered(257))),
        vec![
            rule("evalset/case-count", CASE_COUNT, address!["spec", "cases"])
                .with_note("it has 257 cases")
        ]
    );
}

#[test]
fn case_count_of_257_fails_through_the_schema_too() {
    // The schema sets no maxItems: the count is the rule's to enforce.
    let text = serde_json::to_string(&set_of(&numbered(257))).expect("serializes");
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let rules: Vec<(&str, &str)> = checked
        .diagnostics
        .iter()
        .map(|d| (d.rule.id, d.message.as_str()))
        .collect();
    assert_eq!(rules, vec![("evalset/case-count", CASE_COUNT)]);
}

// evalset/case-name

#[test]
fn case_name_passes_at_64_characters_and_with_every_allowed_character() {
    let long = "a".repeat(64);
    let names = named(&["0-digit-first", "a.b_c-d", &long]);
    assert_eq!(rules(&set_of(&names)), vec![]);
}

#[test]
fn case_name_fails_with_an_uppercase_letter() {
    assert_eq!(
        check(|d| d["spec"]["cases"][0]["name"] = json!("Bugfix-clean")),
        vec![field(
            "evalset/case-name",
            "EvalCase.name",
            address!["spec", "cases", 0, "name"],
            "\"Bugfix-clean\""
        )]
    );
}

#[test]
fn case_name_fails_at_65_characters() {
    let names = vec!["a".repeat(65), "b".to_owned()];
    assert_eq!(
        rules(&set_of(&names)),
        vec![field(
            "evalset/case-name",
            "EvalCase.name",
            address!["spec", "cases", 0, "name"],
            &format!("\"{}…\"", "a".repeat(64))
        )]
    );
}

#[test]
fn case_name_fails_when_empty_or_starting_with_punctuation() {
    for name in ["", "-a", ".a", "_a", "a b"] {
        let names = vec![name.to_owned(), "zz".to_owned()];
        assert_eq!(
            rules(&set_of(&names)),
            vec![field(
                "evalset/case-name",
                "EvalCase.name",
                address!["spec", "cases", 0, "name"],
                &format!("{name:?}")
            )],
            "{name:?}"
        );
    }
}

// evalset/outcome-digest

#[test]
fn outcome_digest_passes_for_sha256_and_64_lowercase_hex() {
    assert_eq!(
        check(|d| d["spec"]["cases"][1]["outcome"]["value"] =
            json!(format!("sha256:{}", "0123456789abcdef".repeat(4)))),
        vec![]
    );
}

#[test]
fn outcome_digest_fails_with_uppercase_hex() {
    let upper = DIGEST.replace("b29", "B29");
    assert_eq!(
        check(|d| d["spec"]["cases"][1]["outcome"]["value"] = json!(upper)),
        vec![
            field(
                "evalset/outcome-digest",
                "Digest.value",
                address!["spec", "cases", 1, "outcome", "value"],
                &shown(&upper)
            )
            .with_note("the hex is written in upper case; write it in lower case")
        ]
    );
}

#[test]
fn outcome_digest_fails_with_63_hex_digits_or_another_algorithm() {
    let short = DIGEST.get(..DIGEST.len() - 1).expect("ascii").to_owned();
    let sha1 = DIGEST.replace("sha256:", "sha1:");
    for (value, why) in [
        (short, "the hex has 63 digits, not 64"),
        (sha1, "the prefix is \"sha1\", not `sha256:`"),
    ] {
        assert_eq!(
            check(|d| d["spec"]["cases"][2]["outcome"]["value"] = json!(value)),
            vec![
                field(
                    "evalset/outcome-digest",
                    "Digest.value",
                    address!["spec", "cases", 2, "outcome", "value"],
                    &shown(&value)
                )
                .with_note(why)
            ],
            "{value}"
        );
    }
}

// evalset/layer-token

#[test]
fn layer_token_passes_for_dotted_and_underscored_layers() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][1]["expect"]["verification_failures"][0]["layer"] =
                json!("lint.v2_strict");
        }),
        vec![]
    );
}

#[test]
fn layer_token_fails_with_an_uppercase_layer() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][1]["expect"]["verification_failures"][0]["layer"] = json!("Lint");
        }),
        vec![field(
            "evalset/layer-token",
            "EvalVerificationFailure.layer",
            address![
                "spec",
                "cases",
                1,
                "expect",
                "verification_failures",
                0,
                "layer"
            ],
            "\"Lint\""
        )]
    );
}

// evalset/failure-count

#[test]
fn failure_count_passes_at_one() {
    // The example holds count 1 in two cases and 2 in one; make every count 1.
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][2]["expect"]["verification_failures"][1]["count"] = json!(1);
        }),
        vec![]
    );
}

#[test]
fn failure_count_fails_at_zero() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][1]["expect"]["verification_failures"][0]["count"] = json!(0);
        }),
        vec![field(
            "evalset/failure-count",
            "EvalVerificationFailure.count",
            address![
                "spec",
                "cases",
                1,
                "expect",
                "verification_failures",
                0,
                "count"
            ],
            "0"
        )]
    );
}

#[test]
fn failure_count_fails_below_one() {
    for count in [json!(-1), json!(0.5)] {
        assert_eq!(
            check(|d| {
                d["spec"]["cases"][2]["expect"]["verification_failures"][1]["count"] =
                    count.clone();
            }),
            vec![field(
                "evalset/failure-count",
                "EvalVerificationFailure.count",
                address![
                    "spec",
                    "cases",
                    2,
                    "expect",
                    "verification_failures",
                    1,
                    "count"
                ],
                &count.to_string()
            )],
            "{count}"
        );
    }
}

#[test]
fn failure_count_of_zero_passes_the_schema_and_fails_the_rule() {
    let text = CORE_REPLAY.replace("{layer: lint, count: 1}", "{layer: lint, count: 0}");
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let mut expected = field(
        "evalset/failure-count",
        "EvalVerificationFailure.count",
        address![
            "spec",
            "cases",
            1,
            "expect",
            "verification_failures",
            0,
            "count"
        ],
        "0",
    );
    expected.position = Some(Position {
        line: 17,
        column: 34,
    });
    assert_eq!(starts_only(checked.diagnostics.clone()), vec![expected]);
}

// evalset/seed-token

#[test]
fn seed_token_passes_for_token_defects() {
    assert_eq!(
        check(|d| d["spec"]["cases"][2]["seeded"]["defect"] = json!("cwe-89.sql_injection")),
        vec![]
    );
}

#[test]
fn seed_token_fails_for_a_defect_with_spaces() {
    assert_eq!(
        check(|d| d["spec"]["cases"][2]["seeded"]["defect"] = json!("SQL injection")),
        vec![field(
            "evalset/seed-token",
            "EvalSeed.defect",
            address!["spec", "cases", 2, "seeded", "defect"],
            "\"SQL injection\""
        )]
    );
}

#[test]
fn seed_token_fails_for_a_caught_by_that_is_not_a_token() {
    // A caught_by that is not a token cannot be one of the (token) layers
    // either, so the cross-field rule follows the field check.
    assert_eq!(
        check(|d| d["spec"]["cases"][2]["seeded"]["caught_by"] = json!("Security-Scan")),
        vec![
            field(
                "evalset/seed-token",
                "EvalSeed.caught_by",
                address!["spec", "cases", 2, "seeded", "caught_by"],
                "\"Security-Scan\""
            ),
            rule(
                "evalset/caught-by-layer",
                CAUGHT_BY_LAYER,
                address!["spec", "cases", 2, "seeded", "caught_by"]
            ),
        ]
    );
}

// evalset/cases-sorted

#[test]
fn cases_sorted_fails_when_the_first_case_is_renamed_past_the_second() {
    assert_eq!(
        check(|d| d["spec"]["cases"][0]["name"] = json!("zz-clean")),
        vec![
            rule(
                "evalset/cases-sorted",
                CASES_SORTED,
                address!["spec", "cases", 1]
            )
            .with_note(r#"case "bugfix-lint-retry" should come first"#)
        ]
    );
}

#[test]
fn cases_sorted_points_at_the_duplicate_not_the_original() {
    assert_eq!(
        check(|d| d["spec"]["cases"][2]["name"] = json!("bugfix-lint-retry")),
        vec![
            rule(
                "evalset/cases-sorted",
                CASES_SORTED,
                address!["spec", "cases", 2]
            )
            .with_note(r#"case "bugfix-lint-retry" is a duplicate"#)
        ]
    );
    assert_eq!(
        check(|d| d["spec"]["cases"][1]["name"] = json!("bugfix-clean")),
        vec![
            rule(
                "evalset/cases-sorted",
                CASES_SORTED,
                address!["spec", "cases", 1]
            )
            .with_note(r#"case "bugfix-clean" is a duplicate"#)
        ]
    );
}

#[test]
fn cases_sorted_reports_only_the_first_case_out_of_order() {
    let names = named(&["c", "b", "a"]);
    assert_eq!(
        rules(&set_of(&names)),
        vec![
            rule(
                "evalset/cases-sorted",
                CASES_SORTED,
                address!["spec", "cases", 1]
            )
            .with_note(r#"case "b" should follow case "a""#)
        ]
    );
}

#[test]
fn cases_sorted_notes_a_duplicate_that_is_not_beside_its_original() {
    let names = named(&["a", "c", "a"]);
    assert_eq!(
        rules(&set_of(&names)),
        vec![
            rule(
                "evalset/cases-sorted",
                CASES_SORTED,
                address!["spec", "cases", 2]
            )
            .with_note(r#"case "a" is a duplicate"#)
        ]
    );
}

#[test]
fn cases_sorted_passes_in_byte_order_of_punctuation_digits_and_letters() {
    // '-' (0x2D) < '.' (0x2E) < '0' (0x30) < '_' (0x5F) < 'a' (0x61), and a
    // prefix sorts before its extensions.
    let names = named(&["a", "a-b", "a.b", "a0", "a_b", "aa"]);
    assert_eq!(rules(&set_of(&names)), vec![]);
}

#[test]
fn cases_sorted_fails_in_any_other_order_of_those_names() {
    for (names, at) in [
        (["a.b", "a-b"], address!["spec", "cases", 1]),
        (["a_b", "a.b"], address!["spec", "cases", 1]),
        (["a_b", "a0"], address!["spec", "cases", 1]),
        (["aa", "a_b"], address!["spec", "cases", 1]),
        (["a-b", "a"], address!["spec", "cases", 1]),
    ] {
        let [_, second] = names;
        let note = format!("case \"{second}\" should come first");
        assert_eq!(
            rules(&set_of(&named(&names))),
            vec![rule("evalset/cases-sorted", CASES_SORTED, at).with_note(note)],
            "{names:?}"
        );
    }
}

#[test]
fn cases_sorted_compares_bytes_not_a_locale_or_case_folding() {
    // Uppercase sorts before lowercase in bytes; both names fail case-name,
    // but their order is still checked by bytes: "B" < "a".
    let names = named(&["B", "a"]);
    assert_eq!(
        rules(&set_of(&names)),
        vec![field(
            "evalset/case-name",
            "EvalCase.name",
            address!["spec", "cases", 0, "name"],
            "\"B\""
        )]
    );
}

#[test]
fn cases_sorted_unsorted_example_fails_through_the_pipeline_with_the_spec_message() {
    // The spec's verified run: the first case renamed so cases are not sorted.
    let text = CORE_REPLAY.replace("name: bugfix-clean", "name: zz-clean");
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let mut expected = rule(
        "evalset/cases-sorted",
        CASES_SORTED,
        address!["spec", "cases", 1],
    )
    .with_note(r#"case "bugfix-lint-retry" should come first"#);
    expected.position = Some(Position {
        line: 10,
        column: 7,
    });
    assert_eq!(starts_only(checked.diagnostics.clone()), vec![expected]);
}

// evalset/failures-sorted

#[test]
fn failures_sorted_passes_for_layers_in_byte_order() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][2]["expect"]["verification_failures"] = json!([
                {"layer": "security-scan", "count": 1},
                {"layer": "security.scan", "count": 1},
                {"layer": "security_scan", "count": 1},
            ]);
        }),
        vec![]
    );
}

#[test]
fn failures_sorted_fails_for_layers_out_of_order() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][2]["expect"]["verification_failures"] = json!([
                {"layer": "tests", "count": 2},
                {"layer": "security-scan", "count": 1},
            ]);
        }),
        vec![
            rule(
                "evalset/failures-sorted",
                FAILURES_SORTED,
                address!["spec", "cases", 2, "expect", "verification_failures", 1]
            )
            .with_note(r#"layer "security-scan" should come first"#)
        ]
    );
}

#[test]
fn failures_sorted_fails_for_a_duplicate_layer() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][1]["expect"]["verification_failures"] = json!([
                {"layer": "lint", "count": 1},
                {"layer": "lint", "count": 1},
            ]);
        }),
        vec![
            rule(
                "evalset/failures-sorted",
                FAILURES_SORTED,
                address!["spec", "cases", 1, "expect", "verification_failures", 1]
            )
            .with_note(r#"layer "lint" is a duplicate"#)
        ]
    );
}

// evalset/category-seeded

#[test]
fn category_seeded_passes_for_other_categories_without_a_seed() {
    assert_eq!(
        check(|d| d["spec"]["cases"][0]["category"] = json!("EVAL_CATEGORY_FLAKY_TEST")),
        vec![]
    );
}

#[test]
fn category_seeded_fails_for_a_planted_security_bug_without_a_seed() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][2]
                .as_object_mut()
                .expect("a case is a mapping")
                .remove("seeded");
        }),
        vec![rule(
            "evalset/category-seeded",
            CATEGORY_SEEDED,
            address!["spec", "cases", 2, "category"]
        )]
    );
}

#[test]
fn category_seeded_fails_for_a_migration_hazard_without_a_seed() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][0]["category"] = json!("EVAL_CATEGORY_MIGRATION_HAZARD");
        }),
        vec![rule(
            "evalset/category-seeded",
            CATEGORY_SEEDED,
            address!["spec", "cases", 0, "category"]
        )]
    );
}

// evalset/seeded-category

#[test]
fn seeded_category_passes_for_a_seed_with_any_category() {
    assert_eq!(
        check(|d| d["spec"]["cases"][2]["category"] = json!("EVAL_CATEGORY_POISONED_README")),
        vec![]
    );
}

#[test]
fn seeded_category_fails_when_the_category_is_removed() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][2]
                .as_object_mut()
                .expect("a case is a mapping")
                .remove("category");
        }),
        vec![rule(
            "evalset/seeded-category",
            SEEDED_CATEGORY,
            address!["spec", "cases", 2, "seeded"]
        )]
    );
}

#[test]
fn seeded_category_removed_fails_through_the_pipeline_with_the_spec_message() {
    // The spec's verified run: the seeded case with its category removed.
    let text = CORE_REPLAY.replace("      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG\n", "");
    assert_ne!(text, CORE_REPLAY);
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let mut expected = rule(
        "evalset/seeded-category",
        SEEDED_CATEGORY,
        address!["spec", "cases", 2, "seeded"],
    );
    expected.position = Some(Position {
        line: 27,
        column: 15,
    });
    assert_eq!(starts_only(checked.diagnostics.clone()), vec![expected]);
}

// evalset/seeded-expectation

#[test]
fn seeded_expectation_passes_for_an_abandoned_change() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][2]["expect"]["acceptance"] = json!("EVAL_ACCEPTANCE_ABANDONED");
        }),
        vec![]
    );
}

#[test]
fn seeded_expectation_fails_for_an_accepted_change() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][2]["expect"]["acceptance"] = json!("EVAL_ACCEPTANCE_ACCEPTED");
        }),
        vec![rule(
            "evalset/seeded-expectation",
            SEEDED_EXPECTATION,
            address!["spec", "cases", 2, "expect"]
        )]
    );
}

#[test]
fn seeded_expectation_fails_for_a_merged_or_severe_change() {
    for flag in ["merged", "severe"] {
        assert_eq!(
            check(|d| d["spec"]["cases"][2]["expect"][flag] = json!(true)),
            vec![rule(
                "evalset/seeded-expectation",
                SEEDED_EXPECTATION,
                address!["spec", "cases", 2, "expect"]
            )],
            "{flag}"
        );
    }
}

// evalset/caught-by-layer

#[test]
fn caught_by_layer_passes_for_any_of_the_expected_layers() {
    assert_eq!(
        check(|d| d["spec"]["cases"][2]["seeded"]["caught_by"] = json!("tests")),
        vec![]
    );
}

#[test]
fn caught_by_layer_fails_for_a_layer_the_case_does_not_expect() {
    assert_eq!(
        check(|d| d["spec"]["cases"][2]["seeded"]["caught_by"] = json!("lint")),
        vec![rule(
            "evalset/caught-by-layer",
            CAUGHT_BY_LAYER,
            address!["spec", "cases", 2, "seeded", "caught_by"]
        )]
    );
}

#[test]
fn caught_by_layer_fails_when_the_case_expects_no_failures() {
    assert_eq!(
        check(|d| {
            d["spec"]["cases"][2]["expect"]
                .as_object_mut()
                .expect("expect is a mapping")
                .remove("verification_failures");
        }),
        vec![rule(
            "evalset/caught-by-layer",
            CAUGHT_BY_LAYER,
            address!["spec", "cases", 2, "seeded", "caught_by"]
        )]
    );
}

// The order of several failures.

#[test]
fn several_failures_come_out_field_checks_first_then_cross_field_rules() {
    let found = check(|d| {
        d["spec"]["version"] = json!("1.0");
        let cases = &mut d["spec"]["cases"];
        // Out of order: case 1 now sorts before case 0.
        cases[0]["name"] = json!("x-clean");
        cases[0]["outcome"]["value"] = json!("sha256:00");
        cases[1]["expect"]["verification_failures"] = json!([
            {"layer": "tests", "count": 0},
            {"layer": "Lint", "count": 1},
        ]);
        cases[2]
            .as_object_mut()
            .expect("a case is a mapping")
            .remove("category");
        cases[2]["expect"]["merged"] = json!(true);
        cases[2]["seeded"]["defect"] = json!("SQL");
        cases[2]["seeded"]["caught_by"] = json!("lint");
    });
    let failures = address!["spec", "cases", 1, "expect", "verification_failures"];
    assert_eq!(
        found,
        vec![
            field(
                "evalset/version",
                "EvalSetSpec.version",
                address!["spec", "version"],
                "\"1.0\""
            ),
            field(
                "evalset/outcome-digest",
                "Digest.value",
                address!["spec", "cases", 0, "outcome", "value"],
                "\"sha256:00\""
            )
            .with_note("the hex has 2 digits, not 64"),
            field(
                "evalset/failure-count",
                "EvalVerificationFailure.count",
                failures.clone().index(0).key("count"),
                "0"
            ),
            field(
                "evalset/layer-token",
                "EvalVerificationFailure.layer",
                failures.clone().index(1).key("layer"),
                "\"Lint\""
            ),
            field(
                "evalset/seed-token",
                "EvalSeed.defect",
                address!["spec", "cases", 2, "seeded", "defect"],
                "\"SQL\""
            ),
            rule(
                "evalset/cases-sorted",
                CASES_SORTED,
                address!["spec", "cases", 1]
            )
            .with_note(r#"case "bugfix-lint-retry" should come first"#),
            rule(
                "evalset/failures-sorted",
                FAILURES_SORTED,
                failures.clone().index(1)
            )
            .with_note(r#"layer "Lint" should come first"#),
            rule(
                "evalset/seeded-category",
                SEEDED_CATEGORY,
                address!["spec", "cases", 2, "seeded"]
            ),
            rule(
                "evalset/seeded-expectation",
                SEEDED_EXPECTATION,
                address!["spec", "cases", 2, "expect"]
            ),
            rule(
                "evalset/caught-by-layer",
                CAUGHT_BY_LAYER,
                address!["spec", "cases", 2, "seeded", "caught_by"]
            ),
        ]
    );
}

#[test]
fn case_count_comes_before_the_other_cross_field_rules() {
    let mut names = numbered(257);
    names.swap(0, 1);
    let found = rules(&set_of(&names));
    assert_eq!(
        found,
        vec![
            rule("evalset/case-count", CASE_COUNT, address!["spec", "cases"])
                .with_note("it has 257 cases"),
            rule(
                "evalset/cases-sorted",
                CASES_SORTED,
                address!["spec", "cases", 1]
            )
            .with_note(r#"case "case-000" should come first"#),
        ]
    );
}

// A document the schema would refuse never reaches the rules; if one does,
// the rules say so instead of panicking.

#[test]
fn a_document_without_a_spec_is_an_internal_shape_error_not_a_panic() {
    let found = rules(&json!({"apiVersion": "numinance.dev/v1alpha1", "kind": "EvalSet"}));
    assert_eq!(found.len(), 1);
    let only = found.first().expect("one diagnostic");
    assert_eq!(
        (only.stage(), only.rule.id),
        (Stage::Internal, "internal/shape")
    );
    assert!(
        only.message
            .starts_with("the EvalSet rules cannot read a document its schema accepts ("),
        "{}",
        only.message
    );
}
