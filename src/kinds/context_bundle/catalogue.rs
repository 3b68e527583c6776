//! The rule ids of the ContextBundle kind: its semantic rules, then the
//! producer-side checks (warnings, errors under `--strict`).

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(crate) const RULES: &[RuleDoc] = &[
    DIGEST,
    SOURCE_TRUST,
    CONSTRAINT_TRUST,
    CONSTRAINT_ORIGIN_DIGEST,
    UNIQUE_SOURCE_REFS,
    GUIDANCE_REF,
    CLAIM_REF,
    CONFLICT_CLAIMS,
    CONTEXT_GENERATION,
    UNTRUSTED_TEXT,
    CREDENTIAL_IN_REF,
];

pub(crate) const DIGEST: RuleDoc = RuleDoc {
    id: "bundle/digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Every digest of a ContextBundle is `sha256:` followed by 64 lower-case hex digits.",
    explanation: "A bundle pins what it was built from by digest: the authorisation context, each query's \
arguments, each source, each authored constraint, each pinned toolset and each receipt. \
A digest in any other form cannot be compared byte for byte, so the pin holds \
nothing.\n\nWrite the digest with its `sha256:` prefix and in lower case.",
    failing: include_str!("examples/digest.failing.yaml"),
    passing: include_str!("examples/digest.passing.yaml"),
};

pub(crate) const SOURCE_TRUST: RuleDoc = RuleDoc {
    id: "bundle/source-trust",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Every bundle source's trust is TRUST_CLASS_UNTRUSTED_RETRIEVED.",
    explanation: "A source is text retrieved from a knowledge system (a wiki page, a ticket): anyone who \
can edit it can write into it, so it never carries the trust of signed policy or of the \
kernel. Authored constraints may carry those; sources may not.\n\nSet the source's \
`trust` to TRUST_CLASS_UNTRUSTED_RETRIEVED; if the text is policy, make it an authored \
constraint instead.",
    failing: include_str!("examples/source-trust.failing.yaml"),
    passing: include_str!("examples/source-trust.passing.yaml"),
};

pub(crate) const CONSTRAINT_TRUST: RuleDoc = RuleDoc {
    id: "bundle/constraint-trust",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "An authored constraint carries TRUST_CLASS_SIGNED_POLICY or TRUST_CLASS_KERNEL.",
    explanation: "Authored constraints come only from the resolved profile's policy and packs, so a prompt \
may state them as constraints. One without that trust (absent, or \
TRUST_CLASS_UNTRUSTED_RETRIEVED) would pass retrieved text off as policy. Set the trust \
the constraint's origin really has, or move the text to a source.",
    failing: include_str!("examples/constraint-trust.failing.yaml"),
    passing: include_str!("examples/constraint-trust.passing.yaml"),
};

pub(crate) const CONSTRAINT_ORIGIN_DIGEST: RuleDoc = RuleDoc {
    id: "bundle/constraint-origin-digest",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "An authored constraint carries the digest of its origin.",
    explanation: "The origin_digest binds a constraint to the exact policy or pack it came from; without \
it the constraint cannot be traced back to signed policy. Its format is checked in every \
mode by bundle/digest; this rule asks for its presence.",
    failing: include_str!("examples/constraint-origin-digest.failing.yaml"),
    passing: include_str!("examples/constraint-origin-digest.passing.yaml"),
};

pub(crate) const UNIQUE_SOURCE_REFS: RuleDoc = RuleDoc {
    id: "bundle/unique-source-refs",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "The sources of a ContextBundle are unique by ref.",
    explanation: "A ref identifies one selected source; a second source with the same ref makes every \
citation of it ambiguous. The later source gets the finding: merge the two, or keep the \
one with the right version and digest.",
    failing: include_str!("examples/unique-source-refs.failing.yaml"),
    passing: include_str!("examples/unique-source-refs.passing.yaml"),
};

pub(crate) const GUIDANCE_REF: RuleDoc = RuleDoc {
    id: "bundle/guidance-ref",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "Every cited_guidance ref names a source of the bundle.",
    explanation: "Cited guidance points into a section of a selected source. A ref that names no source \
points at content the bundle never recorded, with no digest, version or access basis. \
Cite a source of the bundle, or add the source.",
    failing: include_str!("examples/guidance-ref.failing.yaml"),
    passing: include_str!("examples/guidance-ref.passing.yaml"),
};

pub(crate) const CLAIM_REF: RuleDoc = RuleDoc {
    id: "bundle/claim-ref",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "Every conflict claim's ref names a source of the bundle.",
    explanation: "A conflict records sources that disagree; a claim whose ref names no source of the \
bundle cannot be checked against anything the bundle recorded. Name a source of the \
bundle.",
    failing: include_str!("examples/claim-ref.failing.yaml"),
    passing: include_str!("examples/claim-ref.passing.yaml"),
};

pub(crate) const CONFLICT_CLAIMS: RuleDoc = RuleDoc {
    id: "bundle/conflict-claims",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "A ContextBundle conflict has at least two claims.",
    explanation: "A conflict is sources that disagree: it takes two claims to disagree. A conflict with \
one claim (or none) records nothing to resolve; list every claim, or drop the conflict.",
    failing: include_str!("examples/conflict-claims.failing.yaml"),
    passing: include_str!("examples/conflict-claims.passing.yaml"),
};

pub(crate) const CONTEXT_GENERATION: RuleDoc = RuleDoc {
    id: "bundle/context-generation",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "A ContextBundle's context_generation is at least 1.",
    explanation: "Generations count from 1: a refresh opens a new one and never changes an earlier bundle. \
A generation of 0, or none (which a decoder reads as 0), names no resolution. Write the \
generation the bundle was resolved in.",
    failing: include_str!("examples/context-generation.failing.yaml"),
    passing: include_str!("examples/context-generation.passing.yaml"),
};

pub(crate) const UNTRUSTED_TEXT: RuleDoc = RuleDoc {
    id: "bundle/untrusted-text",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "Every text field of a ContextBundle is one line of at most 1024 bytes without control or \
bidirectional formatting characters.",
    explanation: "Every text in a bundle (titles, reasons, statements, questions, topics, sections, refs \
and ids alike) is untrusted and reaches a prompt. A line break can forge a new line of \
the prompt, a control character can hide text from a reviewer, and a bidirectional \
formatting character (U+202A to U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C: Trojan \
Source) makes text read differently from what it is. The message names the field by JSON \
pointer and the first offending character by code point; remove it, or cut the text to \
1024 bytes.",
    failing: include_str!("examples/untrusted-text.failing.yaml"),
    passing: include_str!("examples/untrusted-text.passing.yaml"),
};

pub(crate) const CREDENTIAL_IN_REF: RuleDoc = RuleDoc {
    id: "bundle/credential-in-ref",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "A ref of a ContextBundle is redacted: no URL userinfo, no secret in a query string, \
nothing shaped like a credential.",
    explanation: "A bundle is stored by digest and read by people and models; a credential in a ref leaks \
with it. Refs (of sources, cited guidance and conflict claims) carry no URL userinfo \
(user:pass@, with or without a scheme), no query parameter named for a secret (token, \
access_token, api_key, signature, X-Amz-Signature, ...), and nothing shaped like a credential \
numi knows: GitHub tokens (ghp_, gho_, ghs_, ghu_, ghr_, github_pat_), Slack tokens (xox.-), \
AWS access key ids (AKIA, ASIA), `sk-` API keys, Google API keys (AIza), JSON Web Tokens and \
private-key blocks. Every family checks credentials with this one table. The message names \
the ref and what it holds, never the secret. Redact the ref to the path of the source, and \
rotate the credential.",
    failing: include_str!("examples/credential-in-ref.failing.yaml"),
    passing: include_str!("examples/credential-in-ref.passing.yaml"),
};
