use super::credentials;

fn found(text: &str) -> Vec<(&'static str, &str)> {
    credentials(text)
        .into_iter()
        .map(|credential| (credential.what, credential.secret))
        .collect()
}

/// One text of each shape, and the secret it holds.
fn shapes() -> Vec<(String, String)> {
    let shapes = [
        "AKIAIOSFODNN7EXAMPLE".to_owned(),
        format!("ghp_{}", "a1B2".repeat(9)),
        format!("xoxb-{}", "1234-5678-abcd"),
        format!("sk-{}", "x9".repeat(12)),
        format!("AIza{}", "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl".to_owned(),
    ];
    shapes
        .into_iter()
        .map(|secret| (format!("see {secret} here"), secret))
        .collect()
}

#[test]
fn each_token_shape_is_found_by_its_public_prefix() {
    let expected = [
        "what looks like an AWS access key id (AKIA)",
        "what looks like a GitHub token (ghp_)",
        "what looks like a Slack token (xoxb-)",
        "what looks like an API key (sk-)",
        "what looks like a Google API key (AIza)",
        "what looks like a JSON Web Token",
    ];
    for ((text, secret), what) in shapes().iter().zip(expected) {
        assert_eq!(found(text), [(what, secret.as_str())], "{text}");
    }
}

#[test]
fn near_misses_are_not_credentials() {
    for text in [
        "the API key sk-live-4f3a never lands",
        "xsk-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "AKIAIOSFODNN7EXAMPLEX",
        "AKIAiosfodnn7example",
        "AIzaShort",
        "ghp_short",
        "eyJhbGciOiJIUzI1NiJ9 alone",
        "https://example.com/docs?page=2&sort=asc",
        "https://example.com/a#token=x",
        "git@github.com:org/repo.git",
        "git@github.com:org/repo",
        "mail me at someone@example.com",
        "a@b.c",
        "mailto:someone@example.com",
        "cc:bob@example.com and To:alice@example.com",
        "the stand-up is at 10:30@room-4",
        "user:@host.example/x",
        ":pass@host.example/x",
        "bot:pass@",
        "-----BEGIN PUBLIC KEY-----",
        "https://wiki.example.com/refunds",
    ] {
        assert_eq!(found(text), [], "{text}");
    }
}

#[test]
fn url_userinfo_with_or_without_a_scheme() {
    assert_eq!(
        found("https://bot:hunter2@wiki.example.com/x"),
        [("URL userinfo (user:pass@)", "bot:hunter2")]
    );
    assert_eq!(
        found("clone bot:hunter2@wiki.example.com/x"),
        [("URL userinfo (user:pass@)", "bot:hunter2")]
    );
    assert_eq!(
        found("bot:pass@host/x"),
        [("URL userinfo (user:pass@)", "bot:pass")]
    );
    assert_eq!(
        found("(bot:pass@host)"),
        [("URL userinfo (user:pass@)", "bot:pass")]
    );
    assert_eq!(
        found("admin:1234@10.0.0.1"),
        [("URL userinfo (user:pass@)", "admin:1234")]
    );
    assert_eq!(
        found("https://deploy@git.example.com/x"),
        [("URL userinfo (user:pass@)", "deploy")]
    );
}

#[test]
fn secrets_in_a_query_string_by_the_parameter_name() {
    assert_eq!(
        found("https://x.example/a?token=abc123&page=2"),
        [("a secret in a query string", "abc123")]
    );
    assert_eq!(
        found("https://s3.example/o?X-Amz-Signature=f00d&X-Amz-Date=1"),
        [("a secret in a query string", "f00d")]
    );
    assert_eq!(
        found("https://x.example/a?access_token=t1&api_key=k2"),
        [
            ("a secret in a query string", "t1"),
            ("a secret in a query string", "k2")
        ]
    );
    // A key-shaped value is found by its shape whatever the parameter.
    let key = format!("sk-{}", "y".repeat(24));
    assert_eq!(
        found(&format!("https://x.example/v1?x={key}")),
        [("what looks like an API key (sk-)", key.as_str())]
    );
}

#[test]
fn a_token_inside_userinfo_is_reported_once() {
    let token = format!("ghp_{}", "z".repeat(36));
    let url = format!("https://{token}@github.com/org/repo");
    assert_eq!(found(&url), [("URL userinfo (user:pass@)", token.as_str())]);
}

#[test]
fn private_key_blocks_to_their_end_line() {
    let block = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----";
    let text = format!("key:\n{block}\nafter");
    assert_eq!(found(&text), [("a private key block", block)]);
    let open = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn";
    assert_eq!(found(open), [("a private key block", open)]);
}

#[test]
fn several_credentials_in_order() {
    let github = format!("ghp_{}", "q".repeat(30));
    let text = format!("AKIAIOSFODNN7EXAMPLE then {github}");
    assert_eq!(
        found(&text),
        [
            (
                "what looks like an AWS access key id (AKIA)",
                "AKIAIOSFODNN7EXAMPLE"
            ),
            ("what looks like a GitHub token (ghp_)", github.as_str()),
        ]
    );
}

#[test]
fn every_prefixed_shape_is_found_after_its_first_byte_lets_it_through() {
    for shape in super::PREFIXED.iter() {
        let text = match shape.what {
            super::JSON_WEB_TOKEN => "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2ln".to_owned(),
            super::PRIVATE_KEY => {
                "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----".to_owned()
            }
            _ => format!("{}{}", shape.prefix, "A".repeat(shape.minimum.max(1))),
        };
        let words = format!("see {text} here");
        assert_eq!(
            found(&words).first().map(|(what, _)| *what),
            Some(shape.what),
            "{text}"
        );
    }
}

#[test]
fn a_word_without_an_at_sign_or_a_question_mark_holds_no_credential_by_its_place() {
    assert!(found("https://example.com/a/b#frag plain:words").is_empty());
    assert_eq!(
        found("https://bot:hunter2@example.com x"),
        [("URL userinfo (user:pass@)", "bot:hunter2")]
    );
    assert_eq!(
        found("https://x.example/?token=abc"),
        [("a secret in a query string", "abc")]
    );
}
