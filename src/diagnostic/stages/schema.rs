//! Rules of the schema stage, one per JSON Schema keyword numi's schemas
//! use. The schemas are under `schemas/`.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub const SCHEMA: &[RuleDoc] = &[
    ADDITIONAL_PROPERTIES,
    REQUIRED,
    TYPE,
    ENUM,
    CONST,
    MINIMUM,
    MAXIMUM,
    MIN_LENGTH,
    PATTERN,
    OTHER,
];

pub const ADDITIONAL_PROPERTIES: RuleDoc = RuleDoc {
    id: "schema/additionalProperties",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A mapping holds only the properties its kind's schema names.",
    explanation: "Every schema is strict: a property it does not name is refused rather than ignored, so a \
misspelt field (`max_repair_attempt`) cannot pass unnoticed while its intended value is \
silently missing. The diagnostic points at the unexpected key. Free-form data belongs \
under the top-level `extensions` mapping (Playbook, AutonomyPolicy, EvalSet).\n\nFix the \
key's spelling, move it under the mapping that takes it (the finding names that mapping \
when the schema has exactly one), or remove it.",
    failing: include_str!("examples/schema/additionalProperties.failing.yaml"),
    passing: include_str!("examples/schema/additionalProperties.passing.yaml"),
};

pub const REQUIRED: RuleDoc = RuleDoc {
    id: "schema/required",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A mapping holds every property its kind's schema requires.",
    explanation: "A required property is one the runtime cannot do without (a Playbook's \
`spec.change_type`, an EvalSet case's `outcome`). The pointer names the missing \
property; the position is the mapping that lacks it.\n\nAdd the property to that \
mapping.",
    failing: include_str!("examples/schema/required.failing.yaml"),
    passing: include_str!("examples/schema/required.passing.yaml"),
};

pub const TYPE: RuleDoc = RuleDoc {
    id: "schema/type",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A value has the type its kind's schema gives it: string, integer, number, boolean, \
mapping or sequence.",
    explanation: "YAML decides a value's type from how it is written: `2` is an integer, `\"2\"` a string, \
`1.0` a number, `yes` a string (YAML 1.2). A value of the wrong type would be misread by \
the runtime.\n\nWrite the value in the expected type; quote it only when a string is \
meant.",
    failing: include_str!("examples/schema/type.failing.yaml"),
    passing: include_str!("examples/schema/type.passing.yaml"),
};

pub const ENUM: RuleDoc = RuleDoc {
    id: "schema/enum",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A value is one of the values its kind's schema lists.",
    explanation: "Levels, scopes, categories, acceptances and trust classes are closed sets of names; a \
value outside the set means nothing to the runtime. Names are case-sensitive and spelt \
in full (`SCOPE_REPO`, not `repo`).\n\nUse one of the listed values; where one is near \
the value written, the finding's note names it.",
    failing: include_str!("examples/schema/enum.failing.yaml"),
    passing: include_str!("examples/schema/enum.passing.yaml"),
};

pub const CONST: RuleDoc = RuleDoc {
    id: "schema/const",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A value equals the one value its kind's schema pins.",
    explanation: "The schemas pin `apiVersion` and `kind`. The kind stage checks both first (rules \
kind/unknown and kind/api-version), so a document reaches the schema stage with the \
pinned values and this rule is reported only for a schema that pins another \
field.\n\nWrite the pinned value.",
    failing: "",
    passing: "",
};

pub const MINIMUM: RuleDoc = RuleDoc {
    id: "schema/minimum",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A number is at least its kind's schema's minimum.",
    explanation: "Counts, rates and sizes are never negative.\n\nWrite a number at or above the minimum \
the message names.",
    failing: include_str!("examples/schema/minimum.failing.yaml"),
    passing: include_str!("examples/schema/minimum.passing.yaml"),
};

pub const MAXIMUM: RuleDoc = RuleDoc {
    id: "schema/maximum",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A number is at most its kind's schema's maximum.",
    explanation: "Counts, rates and sizes are unsigned 32-bit integers in the Numinance wire format, so \
they stop at 4294967295.\n\nWrite a number at or below the maximum the message names.",
    failing: include_str!("examples/schema/maximum.failing.yaml"),
    passing: include_str!("examples/schema/maximum.passing.yaml"),
};

pub const MIN_LENGTH: RuleDoc = RuleDoc {
    id: "schema/minLength",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A string is at least as long as its kind's schema requires.",
    explanation: "Names and change types identify a document or a rule; an empty one identifies \
nothing.\n\nWrite a non-empty value.",
    failing: include_str!("examples/schema/minLength.failing.yaml"),
    passing: include_str!("examples/schema/minLength.passing.yaml"),
};

pub const PATTERN: RuleDoc = RuleDoc {
    id: "schema/pattern",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A string matches the pattern its kind's schema gives it.",
    explanation: "Some names form an open family with a fixed prefix, such as a bundle source's \
`access_basis` (`KNOWLEDGE_AUTH_` and upper-case words). The message names the \
pattern.\n\nWrite a value that matches it.",
    failing: include_str!("examples/schema/pattern.failing.yaml"),
    passing: include_str!("examples/schema/pattern.passing.yaml"),
};

pub const OTHER: RuleDoc = RuleDoc {
    id: "schema/other",
    stage: Stage::Schema,
    severity: Severity::Error,
    summary: "A value satisfies a schema keyword numi has no rule id of its own for.",
    explanation: "numi's schemas use only the keywords listed under the other `schema/` rules; this id \
keeps a keyword added to a schema later reportable before it gets its own.\n\nFollow the \
message, which names the keyword.",
    failing: "",
    passing: "",
};
