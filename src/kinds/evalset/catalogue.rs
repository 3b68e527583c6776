//! The rule ids of the EvalSet kind, in the order numi checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(crate) const RULES: &[RuleDoc] = &[
    VERSION,
    CASE_NAME,
    OUTCOME_DIGEST,
    LAYER_TOKEN,
    FAILURE_COUNT,
    SEED_TOKEN,
    CASE_COUNT,
    CASES_SORTED,
    FAILURES_SORTED,
    CATEGORY_SEEDED,
    SEEDED_CATEGORY,
    SEEDED_EXPECTATION,
    CAUGHT_BY_LAYER,
];

pub(crate) const VERSION: RuleDoc = RuleDoc {
    id: "evalset/version",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "The EvalSet's spec.version is a strict x.y.z version: three numbers without leading \
zeros, no pre-release or build suffix.",
    explanation: "An EvalSet is versioned so replay results name exactly which cases they ran; a strict \
version compares the same everywhere. Write it unquoted or quoted, but in full: `1.0` is \
a number to YAML and fails the schema, `v1.0.0` and `1.0.0-rc.1` fail this \
rule.\n\nWrite the version as `MAJOR.MINOR.PATCH`.",
    failing: include_str!("examples/version.failing.yaml"),
    passing: include_str!("examples/version.passing.yaml"),
};

pub(crate) const CASE_NAME: RuleDoc = RuleDoc {
    id: "evalset/case-name",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A case name is 1 to 64 characters of a-z, 0-9, `.`, `_` and `-`, starting with a letter \
or digit.",
    explanation: "Case names are identifiers: they name replay results and sort the set, so they stay in \
one lower-case alphabet without spaces.\n\nRename the case in lower case with `-` \
between words.",
    failing: include_str!("examples/case-name.failing.yaml"),
    passing: include_str!("examples/case-name.passing.yaml"),
};

pub(crate) const OUTCOME_DIGEST: RuleDoc = RuleDoc {
    id: "evalset/outcome-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A case's outcome.value is a digest: `sha256:` followed by 64 lower-case hex digits.",
    explanation: "The outcome digest pins the exact result a replay must reproduce; any other form cannot \
be compared byte for byte.\n\nWrite the digest with its `sha256:` prefix and in lower \
case.",
    failing: include_str!("examples/outcome-digest.failing.yaml"),
    passing: include_str!("examples/outcome-digest.passing.yaml"),
};

pub(crate) const LAYER_TOKEN: RuleDoc = RuleDoc {
    id: "evalset/layer-token",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "An expected verification failure's layer is a token: 1 to 64 of a-z, 0-9, `.`, `_` and \
`-`, starting with a letter or digit.",
    explanation: "Layers name the verification step that fails (`lint`, `tests`, `security-scan`) and are \
matched against a seeded defect's `caught_by`, so they use one spelling.\n\nWrite the \
layer in lower case with `-` between words.",
    failing: include_str!("examples/layer-token.failing.yaml"),
    passing: include_str!("examples/layer-token.passing.yaml"),
};

pub(crate) const FAILURE_COUNT: RuleDoc = RuleDoc {
    id: "evalset/failure-count",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "An expected verification failure's count is at least 1.",
    explanation: "A verification failure that happens zero times is no failure: leave it out of the list \
instead.\n\nWrite the number of times the layer fails, or remove the entry.",
    failing: include_str!("examples/failure-count.failing.yaml"),
    passing: include_str!("examples/failure-count.passing.yaml"),
};

pub(crate) const SEED_TOKEN: RuleDoc = RuleDoc {
    id: "evalset/seed-token",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A seeded case's defect and caught_by are tokens: 1 to 64 of a-z, 0-9, `.`, `_` and `-`, \
starting with a letter or digit.",
    explanation: "The defect names what the case plants and caught_by the layer that must catch it; both \
are identifiers matched elsewhere, so they use one lower-case spelling.\n\nWrite them in \
lower case with `-` between words.",
    failing: include_str!("examples/seed-token.failing.yaml"),
    passing: include_str!("examples/seed-token.passing.yaml"),
};

pub(crate) const CASE_COUNT: RuleDoc = RuleDoc {
    id: "evalset/case-count",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "An EvalSet holds 1 to 256 cases.",
    explanation: "An empty set replays nothing and proves nothing; a set past 256 cases is too slow to \
replay on every change.\n\nAdd a case, or split a large set into several EvalSets.",
    failing: include_str!("examples/case-count.failing.yaml"),
    passing: include_str!("examples/case-count.passing.yaml"),
};

pub(crate) const CASES_SORTED: RuleDoc = RuleDoc {
    id: "evalset/cases-sorted",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "EvalSet cases are sorted by name in byte order, without duplicates.",
    explanation: "A fixed order keeps diffs small and reviews easy, and makes a duplicated name impossible \
to miss. Byte order puts `-` before letters and digits before letters: `bugfix-clean` \
before `bugfix-lint-retry` before `planted-sql-injection`. The diagnostic points at the \
first case out of order.\n\nMove the case to its place, or rename or remove the \
duplicate.",
    failing: include_str!("examples/cases-sorted.failing.yaml"),
    passing: include_str!("examples/cases-sorted.passing.yaml"),
};

pub(crate) const FAILURES_SORTED: RuleDoc = RuleDoc {
    id: "evalset/failures-sorted",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A case's expected verification failures are sorted by layer in byte order, without \
duplicates.",
    explanation: "As with cases, a fixed order keeps diffs small and makes a layer listed twice easy to \
see. The diagnostic points at the first failure out of order.\n\nSort the entries by \
layer and merge duplicates into one count.",
    failing: include_str!("examples/failures-sorted.failing.yaml"),
    passing: include_str!("examples/failures-sorted.passing.yaml"),
};

pub(crate) const CATEGORY_SEEDED: RuleDoc = RuleDoc {
    id: "evalset/category-seeded",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A case of category EVAL_CATEGORY_PLANTED_SECURITY_BUG or EVAL_CATEGORY_MIGRATION_HAZARD \
plants a defect (has `seeded`).",
    explanation: "These categories exist to prove that verification catches a defect planted on purpose; \
without the planted defect the case tests nothing of the kind.\n\nAdd `seeded: {defect: \
..., caught_by: ...}`, or choose another category.",
    failing: include_str!("examples/category-seeded.failing.yaml"),
    passing: include_str!("examples/category-seeded.passing.yaml"),
};

pub(crate) const SEEDED_CATEGORY: RuleDoc = RuleDoc {
    id: "evalset/seeded-category",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A case that plants a defect (has `seeded`) names a category.",
    explanation: "The category says what kind of hazard the planted defect stands for, which is what \
replay results are grouped by.\n\nAdd a `category`, such as \
EVAL_CATEGORY_PLANTED_SECURITY_BUG.",
    failing: include_str!("examples/seeded-category.failing.yaml"),
    passing: include_str!("examples/seeded-category.passing.yaml"),
};

pub(crate) const SEEDED_EXPECTATION: RuleDoc = RuleDoc {
    id: "evalset/seeded-expectation",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A case that plants a defect expects it not accepted, not merged and not severe.",
    explanation: "A planted defect must be stopped: a case expecting it accepted or merged would make \
replay pass exactly when verification fails. `severe: true` would mean it reached \
production.\n\nExpect EVAL_ACCEPTANCE_REJECTED (or EVAL_ACCEPTANCE_ABANDONED), `merged: \
false` and `severe: false`.",
    failing: include_str!("examples/seeded-expectation.failing.yaml"),
    passing: include_str!("examples/seeded-expectation.passing.yaml"),
};

pub(crate) const CAUGHT_BY_LAYER: RuleDoc = RuleDoc {
    id: "evalset/caught-by-layer",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A case that plants a defect is caught by one of the layers in its expected verification \
failures.",
    explanation: "`seeded.caught_by` names the layer that must catch the defect, so that layer must be \
expected to fail; otherwise the case contradicts itself.\n\nName a layer of \
`expect.verification_failures` in `caught_by`, or add the layer there.",
    failing: include_str!("examples/caught-by-layer.failing.yaml"),
    passing: include_str!("examples/caught-by-layer.passing.yaml"),
};
