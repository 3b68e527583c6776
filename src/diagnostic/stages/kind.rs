//! Rules of the `kind:` stage: a kind this build knows, its gates, its
//! apiVersion.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub const KIND: &[RuleDoc] = &[UNKNOWN, PRODUCED, ALPHA_DISABLED, API_VERSION];

pub const UNKNOWN: RuleDoc = RuleDoc {
    id: "kind/unknown",
    stage: Stage::Kind,
    severity: Severity::Error,
    summary: "The document names, as a string, a kind this build knows (`numi schema --list` lists \
them).",
    explanation: "The kind decides which schema and rules apply; without a known kind nothing else can be \
checked. Kind names are case-sensitive.\n\nAdd a `kind:` line, or fix its spelling.",
    failing: include_str!("examples/kind/unknown.failing.yaml"),
    passing: include_str!("examples/kind/unknown.passing.yaml"),
};

pub const PRODUCED: RuleDoc = RuleDoc {
    id: "kind/produced",
    stage: Stage::Kind,
    severity: Severity::Error,
    summary: "A produced kind (ContextBundle, the evals event payloads) is not kept in the configuration \
tree.",
    explanation: "The runtime writes ContextBundle records and the evals event payloads (OutcomeRecorded, \
QualificationUpdated, PromotionProposed, PromotionDecided, OutcomeCorrected); people do \
not configure them. One under \
`.numinance/` would be read as configuration, so `numi validate [DIR]` refuses it. `numi \
validate --files` checks one against its own schema and rules.\n\nMove the file out \
of `.numinance/`, and check it with `numi validate --files PATH`.",
    failing: include_str!("examples/kind/produced.failing.yaml"),
    passing: include_str!("examples/kind/produced.passing.yaml"),
};

pub const ALPHA_DISABLED: RuleDoc = RuleDoc {
    id: "kind/alpha-disabled",
    stage: Stage::Kind,
    severity: Severity::Error,
    summary: "An alpha kind (EvalSet) in the configuration tree is read only with --enable-alpha.",
    explanation: "The shape of an alpha kind may still change, so a repository opts in to it: `numi \
validate [DIR]` refuses one unless `--enable-alpha` is given. `numi validate --files` \
always reads alpha kinds.\n\nRun `numi validate --enable-alpha`, or move the document \
out of `.numinance/`.",
    failing: include_str!("examples/kind/alpha-disabled.failing.yaml"),
    passing: include_str!("examples/kind/alpha-disabled.passing.yaml"),
};

pub const API_VERSION: RuleDoc = RuleDoc {
    id: "kind/api-version",
    stage: Stage::Kind,
    severity: Severity::Error,
    summary: "The apiVersion is the kind's own: numinance.dev/v1alpha1 for EvalSet, numinance.dev/v1 \
for every other kind.",
    explanation: "The apiVersion says which version of the kind's shape the document is written against; \
numi knows one version per kind, and a document written for another one would be checked \
against the wrong schema.\n\nSet `apiVersion` to the kind's version.",
    failing: include_str!("examples/kind/api-version.failing.yaml"),
    passing: include_str!("examples/kind/api-version.passing.yaml"),
};
