//! The rule ids of the OutcomeRecorded kind: those every evals event payload
//! shares, documented here once.

use crate::diagnostic::RuleDoc;
use crate::kinds::events;

pub(super) const RULES: &[RuleDoc] = &[events::DIGEST, events::UNNAMED_FIELD];
