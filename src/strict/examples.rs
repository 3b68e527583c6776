//! The smallest ContextBundle the rule examples start from: the spec's
//! required fields and one source, its `sources` list left open at the end
//! so that an example may add a source or another spec field.

macro_rules! bundle {
    ($rest:literal) => {
        concat!(
            "apiVersion: numinance.dev/v1\n",
            "kind: ContextBundle\n",
            "spec:\n",
            "  change_id: chg_01JB2Q8W3N5M7K9P1R3T5V7X9Z\n",
            "  work_unit_id: wu_01JB2Q8Z4P6R8T0V2X4Z6B8D0F\n",
            "  stage: implement\n",
            "  context_generation: 1\n",
            "  authz_context_digest: {value: \"sha256:5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8c\"}\n",
            "  resolver: {model_id: eu.anthropic.claude-haiku-v1:0, prompt_version: resolver-3}\n",
            "  budget_used: {tokens: 5400, calls: 4, ms: 8200}\n",
            "  sources:\n",
            "    - {ref: confluence-eng/ENG/pages/4211, title: Payments retry policy, staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n",
            $rest
        )
    };
}

pub(crate) use bundle;
