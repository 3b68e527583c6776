//! The rule ids of the AutocontextBundle kind, in the order numi checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};
use crate::kinds::autocontext::catalogue::STORE_LINK;

pub(crate) const RULES: &[RuleDoc] = &[
    COMPONENT_ORDER,
    COMPONENT_DIGEST,
    MANIFEST_DIGEST,
    STORE_ADDRESS,
    STORE_SCENARIO,
    PARENT,
    STORE_LINK,
];

pub(crate) const COMPONENT_ORDER: RuleDoc = RuleDoc {
    id: "autocontext/component-order",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A bundle's components are unique by (kind, key) and sorted by kind, then key, in \
UTF-16 code units.",
    explanation: "autocontext sorts a manifest's components the way JCS sorts object keys, by UTF-16 code \
units (so `😀` comes before `דּ`, though its UTF-8 bytes sort after), and refuses a \
manifest whose components are out of that order or list a (kind, key) twice: the order \
is part of what the manifest digest covers.\n\nLet autocontext write the manifest \
(`ContextBundle.create` sorts), or sort by the UTF-16 code units of kind, then key.",
    failing: include_str!("examples/component-order.failing.yaml"),
    passing: include_str!("examples/component-order.passing.yaml"),
};

pub(crate) const COMPONENT_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/component-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Each component's digest is the SHA-256 of the canonical JSON of its content, key, kind \
and media_type.",
    explanation: "A component is addressed by its content: its digest is the SHA-256 of the RFC 8785 \
canonical JSON of `{content, key, kind, media_type}`, as autocontext's Python and \
TypeScript runtimes compute it. A digest that does not match means the content was \
changed after it was addressed. The message names the component, the digest found and \
the digest computed.\n\nRestore the content the digest names, or write a new bundle \
with autocontext.",
    failing: include_str!("examples/component-digest.failing.yaml"),
    passing: include_str!("examples/component-digest.passing.yaml"),
};

pub(crate) const MANIFEST_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/manifest-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A bundle's digest is the SHA-256 of the canonical JSON of its schema_version, scenario, \
evaluator_epoch, parent_digest and components.",
    explanation: "The manifest digest names the whole bundle: it covers every component with its digest, \
the parent and the evaluator epoch. The active pointer, candidate records and promotions \
refer to bundles by it, so a bundle whose digest does not match is not the bundle they \
name.\n\nRestore the manifest, or write a new bundle with autocontext.",
    failing: include_str!("examples/manifest-digest.failing.yaml"),
    passing: include_str!("examples/manifest-digest.passing.yaml"),
};

pub(crate) const STORE_ADDRESS: RuleDoc = RuleDoc {
    id: "autocontext/store-address",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A stored bundle's file is named by its digest: `bundles/<digest>.json`.",
    explanation: "A store finds a bundle by its digest alone; a file under another name is a bundle no \
pointer can reach, or one that stands in for another.\n\nMove the file to the name of its \
digest, or let autocontext's `ContextBundleStore` write it.",
    failing: "",
    passing: "",
};

pub(crate) const STORE_SCENARIO: RuleDoc = RuleDoc {
    id: "autocontext/store-scenario",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A stored bundle's scenario is the name of the scenario folder that holds its store.",
    explanation: "A store is `<knowledge>/<scenario>/context_bundles/`; autocontext refuses to load a \
bundle whose scenario is not its storage namespace, so a bundle of another scenario \
would never serve.\n\nStore the bundle under its own scenario.",
    failing: "",
    passing: "",
};

pub(crate) const PARENT: RuleDoc = RuleDoc {
    id: "autocontext/parent",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A stored bundle's parent_digest names the bundle of that digest in the same store and \
scenario.",
    explanation: "Every candidate descends from the bundle that was active when it was proposed; its \
manifest diff and its promotion are computed against that parent. A parent that is \
missing, holds another digest or belongs to another scenario breaks that chain (the \
parent's own digests are verified on its own line).\n\nRestore \
the parent bundle in `bundles/`.",
    failing: "",
    passing: "",
};
