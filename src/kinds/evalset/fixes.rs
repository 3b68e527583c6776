//! The EvalSet rules `numi fix` repairs: the order rules and a digest in
//! upper-case hex. A duplicate case or layer stays a finding.

use crate::repair::{Repair, RuleFix};

pub(super) const FIXES: &[RuleFix] = &[
    RuleFix {
        rule: &super::catalogue::OUTCOME_DIGEST,
        repair: Repair::LowercaseDigest,
    },
    RuleFix {
        rule: &super::catalogue::CASES_SORTED,
        repair: Repair::SortBy {
            key: "name",
            noun: "case",
        },
    },
    RuleFix {
        rule: &super::catalogue::FAILURES_SORTED,
        repair: Repair::SortBy {
            key: "layer",
            noun: "layer",
        },
    },
];
