//! AutonomyPolicy documents that pass their schema but mislead a reader: a
//! rule granting more than the floor of its risk class (the floor caps it,
//! so the grant never takes effect), and a change type at a risk class, or a
//! risk class's floor, named twice.

use std::collections::HashMap;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, address};
use crate::kinds::checks::items;
use crate::kinds::checks::{AUTONOMY_LADDER as LADDER, rule_fails};
use crate::text::{quote, shorten};

pub(super) fn check(document: &Value) -> Vec<Diagnostic> {
    let Some(spec) = document.get("spec") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    // The cap of each risk class: the lowest of its floors.
    let mut caps: HashMap<&str, usize> = HashMap::new();
    for (i, floor) in items(spec, "floors") {
        let (Some(risk_class), Some(level)) = (text(floor, "risk_class"), rank(floor)) else {
            continue;
        };
        match caps.get_mut(risk_class) {
            Some(cap) => {
                *cap = (*cap).min(level);
                found.push(rule_fails(
                    &super::catalogue::DUPLICATE_FLOOR,
                    &format!("AutonomyPolicy floors name each risk class once: {risk_class} is named again"),
                    address!["spec", "floors", i, "risk_class"],
                ));
            }
            None => {
                caps.insert(risk_class, level);
            }
        }
    }
    let mut granted = HashMap::new();
    for (i, rule) in items(spec, "rules") {
        let (Some(change_type), Some(risk_class), Some(level)) = (
            text(rule, "change_type"),
            text(rule, "risk_class"),
            rank(rule),
        ) else {
            continue;
        };
        if granted.insert((change_type, risk_class), i).is_some() {
            found.push(rule_fails(
                &super::catalogue::DUPLICATE_RULE,
                &format!(
                    "AutonomyPolicy rules name each change type at each risk class once: {} at {risk_class} is named again",
                    quote(&shorten(change_type))
                ),
                address!["spec", "rules", i, "change_type"],
            ));
        }
        let cap = caps
            .get(risk_class)
            .and_then(|&cap| LADDER.get(cap).map(|name| (cap, name)));
        if let Some((cap, cap_name)) = cap {
            if level > cap {
                let level_name = LADDER.get(level).copied().unwrap_or_default();
                found.push(rule_fails(
                    &super::catalogue::RULE_ABOVE_FLOOR,
                    &format!(
                        "an AutonomyPolicy rule grants no more than the floor of its risk class: {level_name} is above the {risk_class} floor {cap_name}"
                    ),
                    address!["spec", "rules", i, "level"],
                ));
            }
        }
    }
    found
}

fn text<'a>(value: &'a Value, field: &str) -> Option<&'a str> {
    value.get(field).and_then(Value::as_str)
}

/// The place of a rule's or floor's level on the ladder.
fn rank(value: &Value) -> Option<usize> {
    let level = text(value, "level")?;
    LADDER.iter().position(|&name| name == level)
}

#[cfg(test)]
mod tests;
