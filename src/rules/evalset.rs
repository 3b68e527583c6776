//! Rules of the EvalSet kind, in the order numi checks them.

use super::RuleDoc;
use crate::diagnostic::Stage;

/// An EvalSet `core-replay` at version 1.0.0 whose `spec.cases` are the
/// given YAML lines.
macro_rules! evalset_cases {
    ($cases:literal) => {
        concat!(
            "apiVersion: numinance.dev/v1alpha1\n",
            "kind: EvalSet\n",
            "metadata: {name: core-replay}\n",
            "spec:\n",
            "  version: 1.0.0\n",
            "  cases:\n",
            $cases
        )
    };
}

pub const EVALSET: &[RuleDoc] = &[
    RuleDoc {
        id: "evalset/version",
        stage: Stage::Rule,
        summary: "The EvalSet's spec.version is a strict x.y.z version: three numbers without leading zeros, no pre-release or build suffix.",
        explanation: "An EvalSet is versioned so replay results name exactly which cases they ran; a strict version compares the same everywhere. Write it unquoted or quoted, but in full: `1.0` is a number to YAML and fails the schema, `v1.0.0` and `1.0.0-rc.1` fail this rule.\n\nWrite the version as `MAJOR.MINOR.PATCH`.",
        failing: r#"apiVersion: numinance.dev/v1alpha1
kind: EvalSet
metadata: {name: core-replay}
spec:
  version: v1.0.0
  cases:
    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#,
        passing: evalset_cases!(
            r#"    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#
        ),
    },
    RuleDoc {
        id: "evalset/case-name",
        stage: Stage::Rule,
        summary: "A case name is 1 to 64 characters of a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit.",
        explanation: "Case names are identifiers: they name replay results and sort the set, so they stay in one lower-case alphabet without spaces.\n\nRename the case in lower case with `-` between words.",
        failing: evalset_cases!(
            r#"    - name: Bugfix Clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#
        ),
        passing: evalset_cases!(
            r#"    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#
        ),
    },
    RuleDoc {
        id: "evalset/outcome-digest",
        stage: Stage::Rule,
        summary: "A case's outcome.value is a digest: `sha256:` followed by 64 lower-case hex digits.",
        explanation: "The outcome digest pins the exact result a replay must reproduce; any other form cannot be compared byte for byte.\n\nWrite the digest with its `sha256:` prefix and in lower case.",
        failing: evalset_cases!(
            r#"    - name: bugfix-clean
      outcome: {value: "0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#
        ),
        passing: evalset_cases!(
            r#"    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#
        ),
    },
    RuleDoc {
        id: "evalset/layer-token",
        stage: Stage::Rule,
        summary: "An expected verification failure's layer is a token: 1 to 64 of a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit.",
        explanation: "Layers name the verification step that fails (`lint`, `tests`, `security-scan`) and are matched against a seeded defect's `caught_by`, so they use one spelling.\n\nWrite the layer in lower case with `-` between words.",
        failing: evalset_cases!(
            r#"    - name: bugfix-lint-retry
      outcome: {value: "sha256:70fd102e81fe47531de6d7921cbb496665bfa88fcc83f211129b4e76fe53b8ed"}
      expect:
        acceptance: EVAL_ACCEPTANCE_ACCEPTED
        merged: true
        severe: false
        verification_failures: [{layer: Lint Check, count: 1}]
"#
        ),
        passing: evalset_cases!(
            r#"    - name: bugfix-lint-retry
      outcome: {value: "sha256:70fd102e81fe47531de6d7921cbb496665bfa88fcc83f211129b4e76fe53b8ed"}
      expect:
        acceptance: EVAL_ACCEPTANCE_ACCEPTED
        merged: true
        severe: false
        verification_failures: [{layer: lint, count: 1}]
"#
        ),
    },
    RuleDoc {
        id: "evalset/failure-count",
        stage: Stage::Rule,
        summary: "An expected verification failure's count is at least 1.",
        explanation: "A verification failure that happens zero times is no failure: leave it out of the list instead.\n\nWrite the number of times the layer fails, or remove the entry.",
        failing: evalset_cases!(
            r#"    - name: bugfix-lint-retry
      outcome: {value: "sha256:70fd102e81fe47531de6d7921cbb496665bfa88fcc83f211129b4e76fe53b8ed"}
      expect:
        acceptance: EVAL_ACCEPTANCE_ACCEPTED
        merged: true
        severe: false
        verification_failures: [{layer: lint, count: 0}]
"#
        ),
        passing: evalset_cases!(
            r#"    - name: bugfix-lint-retry
      outcome: {value: "sha256:70fd102e81fe47531de6d7921cbb496665bfa88fcc83f211129b4e76fe53b8ed"}
      expect:
        acceptance: EVAL_ACCEPTANCE_ACCEPTED
        merged: true
        severe: false
        verification_failures: [{layer: lint, count: 1}]
"#
        ),
    },
    RuleDoc {
        id: "evalset/seed-token",
        stage: Stage::Rule,
        summary: "A seeded case's defect and caught_by are tokens: 1 to 64 of a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit.",
        explanation: "The defect names what the case plants and caught_by the layer that must catch it; both are identifiers matched elsewhere, so they use one lower-case spelling.\n\nWrite them in lower case with `-` between words.",
        failing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: SQL injection, caught_by: security-scan}
"#
        ),
        passing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
    },
    RuleDoc {
        id: "evalset/case-count",
        stage: Stage::Rule,
        summary: "An EvalSet holds 1 to 256 cases.",
        explanation: "An empty set replays nothing and proves nothing; a set past 256 cases is too slow to replay on every change.\n\nAdd a case, or split a large set into several EvalSets.",
        failing: r#"apiVersion: numinance.dev/v1alpha1
kind: EvalSet
metadata: {name: core-replay}
spec:
  version: 1.0.0
  cases: []
"#,
        passing: evalset_cases!(
            r#"    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#
        ),
    },
    RuleDoc {
        id: "evalset/cases-sorted",
        stage: Stage::Rule,
        summary: "EvalSet cases are sorted by name in byte order, without duplicates.",
        explanation: "A fixed order keeps diffs small and reviews easy, and makes a duplicated name impossible to miss. Byte order puts `-` before letters and digits before letters: `bugfix-clean` before `bugfix-lint-retry` before `planted-sql-injection`. The diagnostic points at the first case out of order.\n\nMove the case to its place, or rename or remove the duplicate.",
        failing: evalset_cases!(
            r#"    - name: bugfix-lint-retry
      outcome: {value: "sha256:70fd102e81fe47531de6d7921cbb496665bfa88fcc83f211129b4e76fe53b8ed"}
      expect:
        acceptance: EVAL_ACCEPTANCE_ACCEPTED
        merged: true
        severe: false
        verification_failures: [{layer: lint, count: 1}]
    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#
        ),
        passing: evalset_cases!(
            r#"    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
    - name: bugfix-lint-retry
      outcome: {value: "sha256:70fd102e81fe47531de6d7921cbb496665bfa88fcc83f211129b4e76fe53b8ed"}
      expect:
        acceptance: EVAL_ACCEPTANCE_ACCEPTED
        merged: true
        severe: false
        verification_failures: [{layer: lint, count: 1}]
"#
        ),
    },
    RuleDoc {
        id: "evalset/failures-sorted",
        stage: Stage::Rule,
        summary: "A case's expected verification failures are sorted by layer in byte order, without duplicates.",
        explanation: "As with cases, a fixed order keeps diffs small and makes a layer listed twice easy to see. The diagnostic points at the first failure out of order.\n\nSort the entries by layer and merge duplicates into one count.",
        failing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: tests, count: 2}, {layer: security-scan, count: 1}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
        passing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
    },
    RuleDoc {
        id: "evalset/category-seeded",
        stage: Stage::Rule,
        summary: "A case of category EVAL_CATEGORY_PLANTED_SECURITY_BUG or EVAL_CATEGORY_MIGRATION_HAZARD plants a defect (has `seeded`).",
        explanation: "These categories exist to prove that verification catches a defect planted on purpose; without the planted defect the case tests nothing of the kind.\n\nAdd `seeded: {defect: ..., caught_by: ...}`, or choose another category.",
        failing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
"#
        ),
        passing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
    },
    RuleDoc {
        id: "evalset/seeded-category",
        stage: Stage::Rule,
        summary: "A case that plants a defect (has `seeded`) names a category.",
        explanation: "The category says what kind of hazard the planted defect stands for, which is what replay results are grouped by.\n\nAdd a `category`, such as EVAL_CATEGORY_PLANTED_SECURITY_BUG.",
        failing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
        passing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
    },
    RuleDoc {
        id: "evalset/seeded-expectation",
        stage: Stage::Rule,
        summary: "A case that plants a defect expects it not accepted, not merged and not severe.",
        explanation: "A planted defect must be stopped: a case expecting it accepted or merged would make replay pass exactly when verification fails. `severe: true` would mean it reached production.\n\nExpect EVAL_ACCEPTANCE_REJECTED (or EVAL_ACCEPTANCE_ABANDONED), `merged: false` and `severe: false`.",
        failing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_ACCEPTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
        passing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
    },
    RuleDoc {
        id: "evalset/caught-by-layer",
        stage: Stage::Rule,
        summary: "A case that plants a defect is caught by one of the layers in its expected verification failures.",
        explanation: "`seeded.caught_by` names the layer that must catch the defect, so that layer must be expected to fail; otherwise the case contradicts itself.\n\nName a layer of `expect.verification_failures` in `caught_by`, or add the layer there.",
        failing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: code-review}
"#
        ),
        passing: evalset_cases!(
            r#"    - name: planted-sql-injection
      outcome: {value: "sha256:88761b4780b189a6b983d61a91302970697577cad92842f3b1c8c44256d5ce4d"}
      expect:
        acceptance: EVAL_ACCEPTANCE_REJECTED
        merged: false
        severe: false
        verification_failures: [{layer: security-scan, count: 1}, {layer: tests, count: 2}]
      category: EVAL_CATEGORY_PLANTED_SECURITY_BUG
      seeded: {defect: sql-injection, caught_by: security-scan}
"#
        ),
    },
];
