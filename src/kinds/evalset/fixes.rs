//! The EvalSet rules `numi fix` repairs: the order rules and a digest in
//! upper-case hex. A duplicate case or layer stays a finding.

use crate::repair::{Repair, RuleFix};

pub const FIXES: &[RuleFix] = &[
    RuleFix {
        rule: "evalset/outcome-digest",
        repair: Repair::LowercaseDigest,
    },
    RuleFix {
        rule: "evalset/cases-sorted",
        repair: Repair::SortBy {
            key: "name",
            noun: "case",
        },
    },
    RuleFix {
        rule: "evalset/failures-sorted",
        repair: Repair::SortBy {
            key: "layer",
            noun: "layer",
        },
    },
];
