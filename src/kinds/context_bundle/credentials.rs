//! A ContextBundle never holds credentials: its refs are redacted, since a
//! ref can hold one (spec 000). A ref with URL userinfo, a query string, or
//! something shaped like a well-known token is reported by what it holds,
//! never by the secret itself.

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::kinds::checks::items;
use crate::kinds::checks::rule_fails;
use crate::text::quote;

/// Every ref of the bundle that holds a credential, once per kind of
/// credential found in it.
pub fn check(document: &Value) -> Vec<Diagnostic> {
    let Some(spec) = document.get("spec") else {
        return Vec::new();
    };
    let mut refs = Vec::new();
    for field in ["sources", "cited_guidance"] {
        for (i, item) in items(spec, field) {
            refs.push((format!("/spec/{field}/{i}/ref"), item));
        }
    }
    for (i, conflict) in items(spec, "conflicts") {
        for (j, claim) in items(conflict, "claims") {
            refs.push((format!("/spec/conflicts/{i}/claims/{j}/ref"), claim));
        }
    }
    let mut found = Vec::new();
    for (pointer, item) in refs {
        let Some(reference) = item.get("ref").and_then(Value::as_str) else {
            continue;
        };
        for credential in credentials(reference) {
            let mut diagnostic = rule_fails(
                &super::catalogue::CREDENTIAL_IN_REF,
                &format!(
                    "a ref is redacted: {} holds {}",
                    quote(&pointer),
                    credential.describe()
                ),
                pointer.clone(),
            );
            for secret in secret_texts(reference, credential) {
                diagnostic = diagnostic.with_secret(secret);
            }
            found.push(diagnostic);
        }
    }
    found
}

/// What a ref can hold that must not be stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    UrlUserinfo,
    QueryString,
    GitHubToken(&'static str),
    SlackToken(&'static str),
    AwsAccessKeyId(&'static str),
    JsonWebToken,
}

impl Credential {
    /// What the ref holds, in words and by the public prefix alone.
    fn describe(self) -> String {
        match self {
            Credential::UrlUserinfo => "URL userinfo (user:pass@)".to_owned(),
            Credential::QueryString => "a query string".to_owned(),
            Credential::GitHubToken(prefix) => format!("what looks like a GitHub token ({prefix})"),
            Credential::SlackToken(prefix) => format!("what looks like a Slack token ({prefix})"),
            Credential::AwsAccessKeyId(prefix) => {
                format!("what looks like an AWS access key id ({prefix})")
            }
            Credential::JsonWebToken => "what looks like a JSON Web Token".to_owned(),
        }
    }
}

const GITHUB_PREFIXES: [&str; 6] = ["github_pat_", "ghp_", "gho_", "ghs_", "ghu_", "ghr_"];
const SLACK_PREFIXES: [&str; 5] = ["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"];
const AWS_PREFIXES: [&str; 2] = ["AKIA", "ASIA"];

/// Every kind of credential `reference` holds, each once, in a fixed order.
pub fn credentials(reference: &str) -> Vec<Credential> {
    let mut found = Vec::new();
    if has_url_userinfo(reference) {
        found.push(Credential::UrlUserinfo);
    }
    if has_query(reference) {
        found.push(Credential::QueryString);
    }
    let mut previous = None;
    for (start, c) in reference.char_indices() {
        let at_boundary = previous.is_none_or(|p: char| !p.is_ascii_alphanumeric());
        previous = Some(c);
        let token = match reference.get(start..) {
            Some(rest) if at_boundary => prefixed_token_at(rest),
            _ => None,
        };
        if let Some(token) = token {
            if !found.contains(&token) {
                found.push(token);
            }
        }
    }
    if has_json_web_token(reference) {
        found.push(Credential::JsonWebToken);
    }
    found
}

/// The text of `reference` that is the credential itself, for renderers to
/// mask: the userinfo, the query, or each token of the kind found.
pub fn secret_texts(reference: &str, credential: Credential) -> Vec<&str> {
    match credential {
        Credential::UrlUserinfo => reference
            .split_once("://")
            .and_then(|(_, after_scheme)| after_scheme.split(['/', '?', '#']).next())
            .and_then(|authority| authority.rsplit_once('@'))
            .map(|(userinfo, _)| userinfo)
            .into_iter()
            .collect(),
        Credential::QueryString => reference
            .split('#')
            .next()
            .and_then(|before_fragment| before_fragment.split_once('?'))
            .map(|(_, query)| query)
            .filter(|query| !query.is_empty())
            .into_iter()
            .collect(),
        Credential::GitHubToken(_) | Credential::SlackToken(_) | Credential::AwsAccessKeyId(_) => {
            prefixed_tokens(reference, credential)
        }
        Credential::JsonWebToken => json_web_tokens(reference),
    }
}

/// Each token of `reference` that [`prefixed_token_at`] classifies as
/// `credential`, up to where its characters end.
fn prefixed_tokens(reference: &str, credential: Credential) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut previous = None;
    for (start, c) in reference.char_indices() {
        let at_boundary = previous.is_none_or(|p: char| !p.is_ascii_alphanumeric());
        previous = Some(c);
        let Some(rest) = reference.get(start..).filter(|_| at_boundary) else {
            continue;
        };
        if prefixed_token_at(rest) == Some(credential) {
            let length = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(rest.len());
            tokens.extend(rest.get(..length));
        }
    }
    tokens
}

/// Each `header.payload.signature` run of `reference` that reads as a JSON
/// Web Token.
fn json_web_tokens(reference: &str) -> Vec<&str> {
    let base64url = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
    reference
        .split(|c: char| !base64url(c))
        .filter(|run| has_json_web_token(run))
        .collect()
}

/// `scheme://user[:password]@host...`: an `@` in the authority.
fn has_url_userinfo(reference: &str) -> bool {
    let Some((_, after_scheme)) = reference.split_once("://") else {
        return false;
    };
    let authority = after_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    authority.contains('@')
}

/// A `?` followed by anything before the fragment.
fn has_query(reference: &str) -> bool {
    let before_fragment = reference.split('#').next().unwrap_or_default();
    before_fragment
        .split_once('?')
        .is_some_and(|(_, query)| !query.is_empty())
}

/// The token with a well-known prefix that starts `text`, if one does. Each
/// look ahead is bounded, so a long ref costs linear time.
fn prefixed_token_at(text: &str) -> Option<Credential> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let slack = |b: u8| b.is_ascii_alphanumeric() || b == b'-';
    let key = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit();
    for prefix in GITHUB_PREFIXES {
        if strip_prefix(text, prefix).is_some_and(|rest| run_length(rest, 20, word) == 20) {
            return Some(Credential::GitHubToken(prefix));
        }
    }
    for prefix in SLACK_PREFIXES {
        if strip_prefix(text, prefix).is_some_and(|rest| run_length(rest, 10, slack) == 10) {
            return Some(Credential::SlackToken(prefix));
        }
    }
    for prefix in AWS_PREFIXES {
        // Exactly 16 key characters, then no further letter or digit.
        let is_key_id = strip_prefix(text, prefix).is_some_and(|rest| {
            run_length(rest, 16, key) == 16
                && rest
                    .get(16..)
                    .is_some_and(|after| run_length(after, 1, |b| b.is_ascii_alphanumeric()) == 0)
        });
        if is_key_id {
            return Some(Credential::AwsAccessKeyId(prefix));
        }
    }
    None
}

/// `eyJ<header>.eyJ<payload>.<signature>`: base64url JSON header and
/// payload, as every JSON Web Token starts, split on the dots in one pass.
fn has_json_web_token(reference: &str) -> bool {
    let base64url = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let is_part =
        |text: &str| text.len() >= 7 && text.starts_with("eyJ") && text.chars().all(base64url);
    let segments: Vec<&str> = reference.split('.').collect();
    segments.windows(3).any(|window| match window {
        [header, payload, _signature] => {
            examined(header.len() + payload.len());
            let header = header
                .rsplit(|c: char| !base64url(c))
                .next()
                .unwrap_or_default();
            is_part(header) && is_part(payload)
        }
        _ => false,
    })
}

/// How many of the first `limit` bytes of `text` satisfy `accept`, in a row.
fn run_length(text: &str, limit: usize, accept: impl Fn(u8) -> bool) -> usize {
    text.bytes()
        .take(limit)
        .take_while(|&b| {
            examined(1);
            accept(b)
        })
        .count()
}

/// `text` after `prefix`, if it starts with it.
fn strip_prefix<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    examined(prefix.len());
    text.strip_prefix(prefix)
}

// The bytes the look-aheads read, counted in tests: the scan of a ref must
// cost linear time in its length, and a count says so deterministically.
#[cfg(test)]
thread_local! {
    static EXAMINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
fn examined(bytes: usize) {
    EXAMINED.with(|count| count.set(count.get() + bytes));
}

#[cfg(not(test))]
fn examined(_bytes: usize) {}

#[cfg(test)]
mod tests;
