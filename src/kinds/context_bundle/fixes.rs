//! The ContextBundle rules `numi fix` repairs: a digest in upper-case hex.

use crate::repair::{Repair, RuleFix};

pub(super) const FIXES: &[RuleFix] = &[RuleFix {
    rule: &super::catalogue::DIGEST,
    repair: Repair::LowercaseDigest,
}];
