//! Rules of the ContextBundle kind.

use super::RuleDoc;
use crate::diagnostic::Stage;

pub const BUNDLE: &[RuleDoc] = &[
    RuleDoc {
        id: "bundle/digest",
        stage: Stage::Rule,
        summary: "Every digest of a ContextBundle is `sha256:` followed by 64 lower-case hex digits.",
        explanation: "A bundle pins what it was built from by digest: the authorisation context, \
each query's arguments, each source, each authored constraint, each pinned toolset and each \
receipt. A digest in any other form cannot be compared byte for byte, so the pin holds \
nothing.\n\n\
Write the digest with its `sha256:` prefix and in lower case.",
        failing: r#"apiVersion: numinance.dev/v1
kind: ContextBundle
spec:
  change_id: chg_01JB2Q8W3N5M7K9P1R3T5V7X9Z
  work_unit_id: wu_01JB2Q8Z4P6R8T0V2X4Z6B8D0F
  stage: implement
  authz_context_digest: {value: "sha256:5C2E8A1F3B7D9E0C4A6F8B2D1E3C5A7F9B0D2E4C6A8F1B3D5E7C9A0F2B4D6E8C"}
  resolver: {model_id: resolver-model, prompt_version: resolver-3}
  budget_used: {tokens: 5400, calls: 4, ms: 8200}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: ContextBundle
spec:
  change_id: chg_01JB2Q8W3N5M7K9P1R3T5V7X9Z
  work_unit_id: wu_01JB2Q8Z4P6R8T0V2X4Z6B8D0F
  stage: implement
  authz_context_digest: {value: "sha256:5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8c"}
  resolver: {model_id: resolver-model, prompt_version: resolver-3}
  budget_used: {tokens: 5400, calls: 4, ms: 8200}
"#,
    },
    RuleDoc {
        id: "bundle/source-trust",
        stage: Stage::Rule,
        summary: "Every bundle source's trust is TRUST_CLASS_UNTRUSTED_RETRIEVED.",
        explanation: "A source is text retrieved from a knowledge system (a wiki page, a \
ticket): anyone who can edit it can write into it, so it never carries the trust of signed \
policy or of the kernel. Authored constraints may carry those; sources may not.\n\n\
Set the source's `trust` to TRUST_CLASS_UNTRUSTED_RETRIEVED; if the text is policy, make it \
an authored constraint instead.",
        failing: r#"apiVersion: numinance.dev/v1
kind: ContextBundle
spec:
  change_id: chg_01JB2Q8W3N5M7K9P1R3T5V7X9Z
  work_unit_id: wu_01JB2Q8Z4P6R8T0V2X4Z6B8D0F
  stage: implement
  authz_context_digest: {value: "sha256:5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8c"}
  resolver: {model_id: resolver-model, prompt_version: resolver-3}
  budget_used: {tokens: 5400, calls: 4, ms: 8200}
  sources:
    - {ref: confluence-eng/ENG/pages/4211, staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_SIGNED_POLICY}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: ContextBundle
spec:
  change_id: chg_01JB2Q8W3N5M7K9P1R3T5V7X9Z
  work_unit_id: wu_01JB2Q8Z4P6R8T0V2X4Z6B8D0F
  stage: implement
  authz_context_digest: {value: "sha256:5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8c"}
  resolver: {model_id: resolver-model, prompt_version: resolver-3}
  budget_used: {tokens: 5400, calls: 4, ms: 8200}
  sources:
    - {ref: confluence-eng/ENG/pages/4211, staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}
"#,
    },
];
