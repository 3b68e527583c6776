//! Rules of the `kind:` stage: a kind this build knows, its gates, its
//! apiVersion.

use super::RuleDoc;
use crate::diagnostic::Stage;

pub const KIND: &[RuleDoc] = &[
    RuleDoc {
        id: "kind/unknown",
        stage: Stage::Kind,
        summary: "The document names, as a string, a kind this build knows: AutonomyPolicy, ContextBundle, EvalSet or Playbook.",
        explanation: "The kind decides which schema and rules apply; without a known kind \
nothing else can be checked. Kind names are case-sensitive.\n\n\
Add a `kind:` line, or fix its spelling.",
        failing: r#"apiVersion: numinance.dev/v1
kind: PlayBook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "kind/produced",
        stage: Stage::Kind,
        summary: "A produced kind (ContextBundle) is not kept in the configuration tree.",
        explanation: "The runtime writes ContextBundle records; people do not configure them. \
One under `.numinance/` would be read as configuration, so `numi validate [DIR]` refuses it. \
`numi validate --files` checks a bundle against its own schema and rules.\n\n\
Move the file out of `.numinance/`, and check it with `numi validate --files PATH`.",
        failing: r#"# .numinance/policy/implement-stage.yaml, checked by: numi validate
apiVersion: numinance.dev/v1
kind: ContextBundle
spec:
  change_id: chg_01JB2Q8W3N5M7K9P1R3T5V7X9Z
  work_unit_id: wu_01JB2Q8Z4P6R8T0V2X4Z6B8D0F
  stage: implement
  authz_context_digest: {value: "sha256:5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8c"}
  resolver: {model_id: resolver-model, prompt_version: resolver-3}
  budget_used: {tokens: 5400, calls: 4, ms: 8200}
"#,
        passing: r#"# bundles/implement-stage.yaml, checked by: numi validate --files bundles
apiVersion: numinance.dev/v1
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
        id: "kind/alpha-disabled",
        stage: Stage::Kind,
        summary: "An alpha kind (EvalSet) in the configuration tree is read only with --enable-alpha.",
        explanation: "The shape of an alpha kind may still change, so a repository opts in to \
it: `numi validate [DIR]` refuses one unless `--enable-alpha` is given. \
`numi validate --files` always reads alpha kinds.\n\n\
Run `numi validate --enable-alpha`, or move the document out of `.numinance/`.",
        failing: r#"# .numinance/policy/core-replay.yaml, checked by: numi validate
apiVersion: numinance.dev/v1alpha1
kind: EvalSet
metadata: {name: core-replay}
spec:
  version: 1.0.0
  cases:
    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#,
        passing: r#"# .numinance/policy/core-replay.yaml, checked by: numi validate --enable-alpha
apiVersion: numinance.dev/v1alpha1
kind: EvalSet
metadata: {name: core-replay}
spec:
  version: 1.0.0
  cases:
    - name: bugfix-clean
      outcome: {value: "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
"#,
    },
    RuleDoc {
        id: "kind/api-version",
        stage: Stage::Kind,
        summary: "The apiVersion is the kind's own: numinance.dev/v1alpha1 for EvalSet, numinance.dev/v1 for every other kind.",
        explanation: "The apiVersion says which version of the kind's shape the document is \
written against; numi knows one version per kind, and a document written for another one \
would be checked against the wrong schema.\n\n\
Set `apiVersion` to the kind's version.",
        failing: r#"apiVersion: numinance.dev/v1alpha1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
    },
];
