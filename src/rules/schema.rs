//! Rules of the schema stage, one per JSON Schema keyword numi's schemas
//! use (`schema::SCHEMA_RULES`). The schemas are under `schemas/`.

use super::RuleDoc;
use crate::diagnostic::Stage;

pub const SCHEMA: &[RuleDoc] = &[
    RuleDoc {
        id: "schema/additionalProperties",
        stage: Stage::Schema,
        summary: "A mapping holds only the properties its kind's schema names.",
        explanation: "Every schema is strict: a property it does not name is refused rather \
than ignored, so a misspelt field (`max_repair_attempt`) cannot pass unnoticed while its \
intended value is silently missing. The diagnostic points at the unexpected key. Free-form \
data belongs under the top-level `extensions` mapping (Playbook, AutonomyPolicy, EvalSet).\n\n\
Fix the key's spelling, or remove it.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempt: 2
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: 2
"#,
    },
    RuleDoc {
        id: "schema/required",
        stage: Stage::Schema,
        summary: "A mapping holds every property its kind's schema requires.",
        explanation: "A required property is one the runtime cannot do without (a Playbook's \
`spec.change_type`, an EvalSet case's `outcome`). The pointer names the missing property; \
the position is the mapping that lacks it.\n\n\
Add the property to that mapping.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  max_repair_attempts: 2
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: 2
"#,
    },
    RuleDoc {
        id: "schema/type",
        stage: Stage::Schema,
        summary: "A value has the type its kind's schema gives it: string, integer, number, boolean, mapping or sequence.",
        explanation: "YAML decides a value's type from how it is written: `2` is an integer, \
`\"2\"` a string, `1.0` a number, `yes` a string (YAML 1.2). A value of the wrong type \
would be misread by the runtime.\n\n\
Write the value in the expected type; quote it only when a string is meant.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: "2"
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: 2
"#,
    },
    RuleDoc {
        id: "schema/enum",
        stage: Stage::Schema,
        summary: "A value is one of the values its kind's schema lists.",
        explanation: "Levels, scopes, categories, acceptances and trust classes are closed \
sets of names; a value outside the set means nothing to the runtime. Names are \
case-sensitive and spelt in full (`SCOPE_REPO`, not `repo`).\n\n\
Use one of the listed values; numi's pretty format suggests the nearest one.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix, scope: SCOPE_REPOSITORY}
spec: {change_type: bugfix}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix, scope: SCOPE_REPO}
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "schema/const",
        stage: Stage::Schema,
        summary: "A value equals the one value its kind's schema pins.",
        explanation: "The schemas pin `apiVersion` and `kind`. The kind stage checks both \
first (rules kind/unknown and kind/api-version), so a document reaches the schema stage with \
the pinned values and this rule is reported only for a schema that pins another field.\n\n\
Write the pinned value.",
        failing: "",
        passing: "",
    },
    RuleDoc {
        id: "schema/minimum",
        stage: Stage::Schema,
        summary: "A number is at least its kind's schema's minimum.",
        explanation: "Counts, rates and sizes are never negative.\n\n\
Write a number at or above the minimum the message names.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: -1
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: 0
"#,
    },
    RuleDoc {
        id: "schema/maximum",
        stage: Stage::Schema,
        summary: "A number is at most its kind's schema's maximum.",
        explanation: "Counts, rates and sizes are unsigned 32-bit integers in the Numinance \
wire format, so they stop at 4294967295.\n\n\
Write a number at or below the maximum the message names.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: 4294967296
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: 4294967295
"#,
    },
    RuleDoc {
        id: "schema/minLength",
        stage: Stage::Schema,
        summary: "A string is at least as long as its kind's schema requires.",
        explanation: "Names and change types identify a document or a rule; an empty one \
identifies nothing.\n\n\
Write a non-empty value.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: ""}
spec: {change_type: bugfix}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "schema/pattern",
        stage: Stage::Schema,
        summary: "A string matches the pattern its kind's schema gives it.",
        explanation: "Some names form an open family with a fixed prefix, such as a bundle \
source's `access_basis` (`KNOWLEDGE_AUTH_` and upper-case words). The message names the \
pattern.\n\n\
Write a value that matches it.",
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
    - ref: confluence-eng/ENG/pages/4211
      access_basis: user-delegated
      staleness: SOURCE_STALENESS_FRESH
      trust: TRUST_CLASS_UNTRUSTED_RETRIEVED
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
    - ref: confluence-eng/ENG/pages/4211
      access_basis: KNOWLEDGE_AUTH_USER_DELEGATED
      staleness: SOURCE_STALENESS_FRESH
      trust: TRUST_CLASS_UNTRUSTED_RETRIEVED
"#,
    },
    RuleDoc {
        id: "schema/other",
        stage: Stage::Schema,
        summary: "A value satisfies a schema keyword numi has no rule id of its own for.",
        explanation: "numi's schemas use only the keywords listed under the other `schema/` \
rules; this id keeps a keyword added to a schema later reportable before it gets its own.\n\n\
Follow the message, which names the keyword.",
        failing: "",
        passing: "",
    },
];
