//! A ContextBundle never holds credentials: its refs are redacted, since a
//! ref can hold one (spec 000). A ref holding anything numi's credential
//! detector finds (URL userinfo, a secret in a query string, something
//! shaped like a well-known token or key) is reported by what it holds,
//! never by the secret itself.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, address};
use crate::kinds::checks::items;
use crate::kinds::checks::rule_fails;
use crate::secrets::credentials;
use crate::text::quote;

/// Every ref of the bundle that holds a credential, once per kind of
/// credential found in it.
pub(super) fn check(document: &Value) -> Vec<Diagnostic> {
    let Some(spec) = document.get("spec") else {
        return Vec::new();
    };
    let mut refs = Vec::new();
    for field in ["sources", "cited_guidance"] {
        for (i, item) in items(spec, field) {
            refs.push((address!["spec", field, i, "ref"], item));
        }
    }
    for (i, conflict) in items(spec, "conflicts") {
        for (j, claim) in items(conflict, "claims") {
            refs.push((address!["spec", "conflicts", i, "claims", j, "ref"], claim));
        }
    }
    let mut found = Vec::new();
    for (address, item) in refs {
        let Some(reference) = item.get("ref").and_then(Value::as_str) else {
            continue;
        };
        // One finding per kind of credential, holding every secret of it.
        let mut kinds: Vec<(&str, Vec<&str>)> = Vec::new();
        for credential in credentials(reference) {
            match kinds.iter_mut().find(|(what, _)| *what == credential.what) {
                Some((_, secrets)) => secrets.push(credential.secret),
                None => kinds.push((credential.what, vec![credential.secret])),
            }
        }
        for (what, secrets) in kinds {
            let mut diagnostic = rule_fails(
                &super::catalogue::CREDENTIAL_IN_REF,
                &format!(
                    "a ref is redacted: {} holds {what}",
                    quote(&address.to_string())
                ),
                address.clone(),
            );
            for secret in secrets {
                diagnostic = diagnostic.with_secret(secret);
            }
            found.push(diagnostic);
        }
    }
    found
}

#[cfg(test)]
mod tests;
