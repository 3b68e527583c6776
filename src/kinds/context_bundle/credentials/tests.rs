//! Credentials in refs on both sides: each shape found, look-alikes passed,
//! every ref place checked, and no message ever holding the secret.

use serde_json::{Value, json};

use super::*;

const GITHUB_TOKEN: &str = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
const SLACK_TOKEN: &str = "xoxb-123456789012-abcdefABCDEF";
const AWS_KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const JWT: &str =
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

#[test]
fn redacted_refs_pass() {
    for reference in [
        "confluence-eng/ENG/pages/4211",
        "https://wiki.example.com/refunds#limits",
        "https://wiki.example.com/refunds?",
        "mailto:team@example.com",
        "ghp_short",
        "xoxb-1",
        "AKIAshort",
        "AKIAIOSFODNN7EXAMPLE0",
        "notAKIAIOSFODNN7EXAMPLE",
        "eyJhbGciOiJIUzI1NiJ9",
        "eyJ.eyJ.",
        "docs/page.eyJ-is-not-a-token.md",
        "",
    ] {
        assert_eq!(credentials(reference), vec![], "{reference:?}");
    }
}

#[test]
fn each_shape_is_found() {
    let cases: [(&str, Vec<Credential>); 10] = [
        (
            "https://bot:hunter2@wiki.example.com/a",
            vec![Credential::UrlUserinfo],
        ),
        (
            "https://token@github.com/org/repo",
            vec![Credential::UrlUserinfo],
        ),
        (
            "https://wiki.example.com/a?sig=abc#top",
            vec![Credential::QueryString],
        ),
        (GITHUB_TOKEN, vec![Credential::GitHubToken("ghp_")]),
        (
            "https://api.example.com/github_pat_11ABCDEFG0123456789_abcdefghijkl",
            vec![Credential::GitHubToken("github_pat_")],
        ),
        (
            &format!("slack/{SLACK_TOKEN}"),
            vec![Credential::SlackToken("xoxb-")],
        ),
        ("xoxp-1234567890-abc", vec![Credential::SlackToken("xoxp-")]),
        (
            &format!("s3/{AWS_KEY_ID}/bucket"),
            vec![Credential::AwsAccessKeyId("AKIA")],
        ),
        (&format!("auth/{JWT}"), vec![Credential::JsonWebToken]),
        (
            &format!("https://u:p@x.example.com/?t={GITHUB_TOKEN}&k={AWS_KEY_ID}&j={JWT}"),
            vec![
                Credential::UrlUserinfo,
                Credential::QueryString,
                Credential::GitHubToken("ghp_"),
                Credential::AwsAccessKeyId("AKIA"),
                Credential::JsonWebToken,
            ],
        ),
    ];
    for (reference, expected) in cases {
        assert_eq!(credentials(reference), expected, "{reference}");
    }
}

#[test]
fn a_token_found_twice_is_reported_once() {
    let reference = format!("{GITHUB_TOKEN}/{GITHUB_TOKEN}");
    assert_eq!(
        credentials(&reference),
        vec![Credential::GitHubToken("ghp_")]
    );
}

/// The bytes the look-aheads read while `credentials` scans `reference`,
/// and what it found.
fn examined_by(reference: &str) -> (usize, Vec<Credential>) {
    EXAMINED.with(|count| count.set(0));
    let found = credentials(reference);
    (EXAMINED.with(std::cell::Cell::get), found)
}

/// The most the look-aheads may read per byte of a ref: every prefix and
/// the bounded run after each kind of token, and a JSON Web Token's header
/// and payload.
fn bound_per_byte() -> usize {
    let prefixes: usize = GITHUB_PREFIXES
        .iter()
        .chain(&SLACK_PREFIXES)
        .chain(&AWS_PREFIXES)
        .map(|prefix| prefix.len())
        .sum();
    prefixes + 20 + 10 + 17 + 2
}

#[test]
fn a_long_hostile_ref_costs_linear_time() {
    let cases: [(&str, Vec<Credential>); 6] = [
        ("ghp_", vec![Credential::GitHubToken("ghp_")]),
        ("eyJ-", vec![]),
        ("eyJa.", vec![]),
        ("eyJabcd.", vec![Credential::JsonWebToken]),
        ("AKIA", vec![]),
        ("xoxb-", vec![Credential::SlackToken("xoxb-")]),
    ];
    for (unit, expected) in cases {
        let short = unit.repeat(1 << 12);
        let long = unit.repeat(1 << 14);
        let (short_cost, found) = examined_by(&short);
        assert_eq!(found, expected, "{unit}");
        let (long_cost, found) = examined_by(&long);
        assert_eq!(found, expected, "{unit}");
        assert!(
            long_cost <= bound_per_byte() * long.len(),
            "{unit}: {long_cost} for {} bytes",
            long.len()
        );
        // Four times the text, about four times the reading (the ends of
        // the text cost a little more or less): linear, where a quadratic
        // scan would read sixteen times as much.
        assert!(
            long_cost <= 5 * short_cost,
            "{unit}: {short_cost} then {long_cost}"
        );
    }
}

/// The bound above fails a scan that looks ahead to the end of the ref at
/// each position.
#[test]
fn the_linear_bound_fails_a_quadratic_scan() {
    let reference = "ab".repeat(1 << 11);
    EXAMINED.with(|count| count.set(0));
    for (start, _) in reference.char_indices() {
        let rest = reference.get(start..).unwrap_or_default();
        run_length(rest, rest.len(), |b| b.is_ascii_alphanumeric());
    }
    let quadratic = EXAMINED.with(std::cell::Cell::get);
    assert!(
        quadratic > bound_per_byte() * reference.len(),
        "{quadratic}"
    );
    let (linear, _) = examined_by(&reference);
    assert!(linear <= bound_per_byte() * reference.len(), "{linear}");
}

fn bundle(reference: &str) -> Value {
    json!({"spec": {
        "sources": [{"ref": reference}],
        "cited_guidance": [{"ref": reference}],
        "conflicts": [{"topic": "t", "claims": [{"ref": "wiki/a"}, {"ref": reference}]}],
    }})
}

#[test]
fn every_ref_place_is_checked_and_no_message_holds_the_secret() {
    let reference = format!("https://bot:hunter2@wiki.example.com/?token={GITHUB_TOKEN}");
    let found = check(&bundle(&reference));
    let seen: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|d| {
            (
                d.rule.id,
                d.message.as_str(),
                d.pointer.as_deref().unwrap_or_default(),
            )
        })
        .collect();
    let expected = |pointer: &'static str| {
        [
            format!("a ref is redacted: \"{pointer}\" holds URL userinfo (user:pass@)"),
            format!("a ref is redacted: \"{pointer}\" holds a query string"),
            format!("a ref is redacted: \"{pointer}\" holds what looks like a GitHub token (ghp_)"),
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

#[test]
fn each_finding_records_the_credential_text_as_its_secret() {
    let cases = [
        ("https://bot:hunter2@wiki.example.com/a", "bot:hunter2"),
        (
            "https://wiki.example.com/a?token=abc&x=1#f",
            "token=abc&x=1",
        ),
        (&*format!("repo/{GITHUB_TOKEN}/x"), GITHUB_TOKEN),
        (&*format!("chan:{SLACK_TOKEN}"), SLACK_TOKEN),
        (&*format!("key {AWS_KEY_ID}."), AWS_KEY_ID),
        (&*format!("bearer {JWT} end"), JWT),
    ];
    for (reference, secret) in cases {
        let document = json!({"spec": {"sources": [{"ref": reference}]}});
        let found = check(&document);
        assert!(!found.is_empty(), "{reference:?}");
        for diagnostic in &found {
            assert!(
                diagnostic.secrets.iter().any(|s| s == secret),
                "{reference:?}: {:?}",
                diagnostic.secrets
            );
            assert!(!diagnostic.message.contains(secret));
        }
    }
}

#[test]
fn a_redacted_ref_records_no_secret() {
    let document = json!({"spec": {"sources": [{"ref": "https://wiki.example.com/a#f"}]}});
    assert!(check(&document).is_empty());
    assert_eq!(
        secret_texts("https://wiki.example.com/a?", Credential::QueryString),
        Vec::<&str>::new()
    );
}
