//! Credentials in refs on both sides: each shape found, look-alikes passed,
//! every ref place checked, and no message ever holding the secret.

use serde_json::{Value, json};

use super::*;

const GITHUB_TOKEN: &str = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
const SLACK_TOKEN: &str = "xoxb-123456789012-abcdefABCDEF";
const AWS_KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const OPENAI_KEY: &str = "sk-proj-4f3a9c2e7b1d8a6f5e0c3b9a";
const GOOGLE_KEY: &str = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q";
const JWT: &str =
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

fn bundle(reference: &str) -> Value {
    json!({"spec": {
        "sources": [{"ref": reference}],
        "cited_guidance": [{"ref": reference}],
        "conflicts": [{"topic": "t", "claims": [{"ref": "wiki/a"}, {"ref": reference}]}],
    }})
}

fn one_ref(reference: &str) -> Vec<Diagnostic> {
    check(&json!({"spec": {"sources": [{"ref": reference}]}}))
}

#[test]
fn redacted_refs_pass() {
    for reference in [
        "confluence-eng/ENG/pages/4211",
        "https://wiki.example.com/refunds#limits",
        "https://wiki.example.com/refunds?",
        "https://wiki.example.com/refunds?page=2&lang=en",
        "mailto:team@example.com",
        "git@github.com:org/repo.git",
        "ghp_short",
        "xoxb-1",
        "sk-live-4f3a",
        "AIzaShort",
        "AKIAshort",
        "AKIAIOSFODNN7EXAMPLE0",
        "notAKIAIOSFODNN7EXAMPLE",
        "eyJhbGciOiJIUzI1NiJ9",
        "eyJ.eyJ.",
        "docs/page.eyJ-is-not-a-token.md",
        "",
    ] {
        assert_eq!(one_ref(reference), vec![], "{reference:?}");
    }
}

#[test]
fn each_shape_is_found_and_its_secret_recorded() {
    let cases = [
        (
            "https://bot:hunter2@wiki.example.com/a",
            "URL userinfo (user:pass@)",
            "bot:hunter2",
        ),
        (
            "bot:hunter2@wiki.example.com/a",
            "URL userinfo (user:pass@)",
            "bot:hunter2",
        ),
        (
            "https://wiki.example.com/a?access_token=abc&x=1#f",
            "a secret in a query string",
            "abc",
        ),
        (
            &*format!("repo/{GITHUB_TOKEN}/x"),
            "what looks like a GitHub token (ghp_)",
            GITHUB_TOKEN,
        ),
        (
            &*format!("chan:{SLACK_TOKEN}"),
            "what looks like a Slack token (xoxb-)",
            SLACK_TOKEN,
        ),
        (
            &*format!("key {AWS_KEY_ID}."),
            "what looks like an AWS access key id (AKIA)",
            AWS_KEY_ID,
        ),
        (
            &*format!("llm/{OPENAI_KEY}"),
            "what looks like an API key (sk-)",
            OPENAI_KEY,
        ),
        (
            &*format!("maps?k={GOOGLE_KEY}"),
            "what looks like a Google API key (AIza)",
            GOOGLE_KEY,
        ),
        (
            &*format!("bearer {JWT} end"),
            "what looks like a JSON Web Token",
            JWT,
        ),
    ];
    for (reference, what, secret) in cases {
        let found = one_ref(reference);
        assert_eq!(
            found.iter().map(|d| d.message.as_str()).collect::<Vec<_>>(),
            [format!(
                "a ref is redacted: \"/spec/sources/0/ref\" holds {what}"
            )],
            "{reference}"
        );
        for diagnostic in &found {
            assert_eq!(diagnostic.secrets, [secret], "{reference}");
            assert!(!diagnostic.message.contains(secret));
        }
    }
}

#[test]
fn a_token_found_twice_is_reported_once() {
    let found = one_ref(&format!("{GITHUB_TOKEN}/{GITHUB_TOKEN}"));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].secrets, [GITHUB_TOKEN]);
}

/// Whatever the text, the scans read at most this many bytes per byte of
/// it: each byte is read once by the split into words and once by the URL
/// reading of its word, and once more by a scan that starts at a token
/// boundary (a scan that finds a credential resumes after it).
const BOUND_PER_BYTE: usize = 6;

#[test]
fn a_long_hostile_ref_costs_linear_time() {
    for unit in [
        "ghp_",
        "eyJ-",
        "eyJa.",
        "eyJabcd.",
        "AKIA",
        "xoxb-",
        "a:b@",
        "?token=x&",
        "-----BEGIN x",
        "-----BEGIN RSA PRIVATE KEY-----\n",
        "a:ghp_0123456789012345678901234567890123456789@h ",
    ] {
        let short = unit.repeat(1 << 10);
        let long = unit.repeat(1 << 12);
        let (short_cost, _) = crate::secrets::examined_by(&short);
        let (long_cost, _) = crate::secrets::examined_by(&long);
        assert!(
            long_cost <= BOUND_PER_BYTE * long.len(),
            "{unit:?}: {long_cost} bytes read for {} bytes",
            long.len()
        );
        // Four times the text, about four times the reading, where a
        // quadratic scan would read sixteen times as much.
        assert!(
            long_cost <= 5 * short_cost.max(1),
            "{unit:?}: {short_cost} then {long_cost}"
        );
    }
}

/// The bound above fails a detector that reads to the end of the text from
/// every boundary, as a PEM header search without a limit did.
#[test]
fn the_linear_bound_fails_a_quadratic_reading() {
    let text = "-----BEGIN x".repeat(1 << 12);
    let quadratic: usize = text
        .char_indices()
        .filter(|(at, _)| {
            text.get(*at..)
                .is_some_and(|rest| rest.starts_with("-----BEGIN"))
        })
        .map(|(at, _)| text.len() - at)
        .sum();
    assert!(quadratic > BOUND_PER_BYTE * text.len(), "{quadratic}");
    let (linear, _) = crate::secrets::examined_by(&text);
    assert!(linear <= BOUND_PER_BYTE * text.len(), "{linear}");
}

#[test]
fn every_ref_place_is_checked_and_no_message_holds_the_secret() {
    let reference = format!("https://bot:hunter2@wiki.example.com/?token={GITHUB_TOKEN}");
    let found = check(&bundle(&reference));
    let pointers: Vec<String> = found
        .iter()
        .map(|d| {
            d.address
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        })
        .collect();
    let seen: Vec<(&str, &str, &str)> = found
        .iter()
        .zip(&pointers)
        .map(|(d, pointer)| (d.rule.id, d.message.as_str(), pointer.as_str()))
        .collect();
    let expected = |pointer: &'static str| {
        [
            format!("a ref is redacted: \"{pointer}\" holds URL userinfo (user:pass@)"),
            format!("a ref is redacted: \"{pointer}\" holds a secret in a query string"),
        ]
        .map(|message| (pointer, message))
    };
    let mut wanted = Vec::new();
    for pointer in [
        "/spec/sources/0/ref",
        "/spec/cited_guidance/0/ref",
        "/spec/conflicts/0/claims/1/ref",
    ] {
        wanted.extend(expected(pointer));
    }
    assert_eq!(
        seen,
        wanted
            .iter()
            .map(|(pointer, message)| ("bundle/credential-in-ref", message.as_str(), *pointer))
            .collect::<Vec<_>>()
    );
    for diagnostic in &found {
        for secret in ["hunter2", "bot:", &GITHUB_TOKEN[4..]] {
            assert!(!diagnostic.message.contains(secret), "{diagnostic:?}");
        }
    }
}

#[test]
fn a_bundle_with_redacted_refs_passes() {
    assert_eq!(check(&bundle("confluence-eng/ENG/pages/4211")), vec![]);
}
