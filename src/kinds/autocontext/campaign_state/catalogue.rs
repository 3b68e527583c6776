//! The rule ids of the AutocontextCampaignState kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};
use crate::kinds::autocontext::catalogue::{CAMPAIGN_ALLOCATION, CAMPAIGN_GATE};

pub(crate) const RULES: &[RuleDoc] = &[CAMPAIGN_STATE_DIGEST, CAMPAIGN_ALLOCATION, CAMPAIGN_GATE];

pub(crate) const CAMPAIGN_STATE_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/campaign-state-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A campaign's false-promotion.json stands in the folder autocontext names for its \
campaign_id, and its state_digest is the SHA-256 of the canonical JSON of everything else it holds \
(schema 2; schema 1 without the fixture reservations).",
    explanation: "autocontext refuses to load a campaign state whose digest does not verify, and with \
it every later reservation and gate decision of the campaign; a state edited by hand, or written by \
another campaign, is found here first.\n\nRestore the state autocontext wrote; a campaign that has \
lost it must start under a new campaign id.",
    failing: "",
    passing: "",
};
