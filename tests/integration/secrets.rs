//! A finding about a credential never shows the credential: each fixture of
//! tests/fixtures/secrets/ rendered in every format (and with `--strict`,
//! which makes the findings errors), standard output and standard error
//! together, holds no part of the secret, while the finding itself is there.

#![allow(clippy::expect_used, clippy::panic)]

use crate::common::{fixtures, numi};

const FORMATS: &[&str] = &[
    "text", "concise", "pretty", "json", "sarif", "github", "gitlab", "junit",
];

/// Each fixture with the secret text it holds.
const LEAKS: &[(&str, &str)] = &[
    ("leak.yaml", "16C7e42F292c6912E7710c838347Ae178B4a"),
    ("userinfo.yaml", "hunter2-s3cr3t"),
];

#[test]
fn no_format_shows_the_secret_of_a_credential_finding() {
    let folder = fixtures().join("secrets");
    for &(file, secret) in LEAKS {
        let source = std::fs::read_to_string(folder.join(file)).expect("fixture");
        assert!(source.contains(secret), "the fixture holds {secret:?}");
        for format in FORMATS {
            for strict in [false, true] {
                let mut args = vec!["validate", "--files", file, "--format", format];
                args.extend(["--color", "always", "--summary", "always"]);
                if strict {
                    args.push("--strict");
                }
                let run = numi(&folder, &args);
                let shown = format!("{}{}", run.stdout, run.stderr);
                assert!(
                    shown.contains("credential-in-ref") || *format == "text" && strict,
                    "{file} {format} strict={strict}: the finding is reported\n{shown}"
                );
                assert!(
                    !shown.contains(secret),
                    "{file} {format} strict={strict} shows {secret:?}:\n{shown}"
                );
            }
        }
    }
}

#[test]
fn the_pretty_snippet_keeps_the_rest_of_the_ref_and_its_columns() {
    let run = numi(
        &fixtures().join("secrets"),
        &[
            "validate",
            "--files",
            "userinfo.yaml",
            "--format",
            "pretty",
            "--color",
            "never",
        ],
    );
    assert!(
        run.stdout
            .contains("ref: https://******************@wiki.example.com/pages/4211"),
        "{}",
        run.stdout
    );
}

/// Documents that fail before the credential rule runs, each with the
/// secret parts no output may show: masking does not wait for a finding.
const EARLY_FAILURES: &[(&str, &[&str])] = &[
    ("yaml-error.yaml", &["hunter2-s3cr3t"]),
    // The message quotes the kind cut to 64 characters, before the `@`
    // that makes the rest a password.
    (
        "kind-error.yaml",
        &[
            "Vq7Rw2Lx9Kt4Nz8Bp3Hs6Jd1Fm5Gc0Yw2Ea7Tu4Ri9Oq3Pl8Mk1Nj6Hb5Vg0Cf2Xd7Sz4Aq9",
            "Vq7Rw2Lx9Kt4",
        ],
    ),
    (
        "schema-error.yaml",
        &[
            "hunter2-s3cr3t",
            "R8x2Kq7Lm4Np9Vt3Wz6Yb1Cd5Fg0Hj",
            "Zq4Rt8Yu2Io6Pa1Sd5Fg9Hj3Kl7",
        ],
    ),
];

#[test]
fn no_format_shows_a_credential_whatever_stage_failed() {
    let folder = fixtures().join("secrets");
    for &(file, secrets) in EARLY_FAILURES {
        let source = std::fs::read_to_string(folder.join(file)).expect("fixture");
        for format in FORMATS {
            let run = numi(
                &folder,
                &[
                    "validate", "--files", file, "--format", format, "--color", "never",
                ],
            );
            assert_eq!(run.code, 3, "{file} {format}: invalid\n{}", run.stderr);
            let shown = format!("{}{}", run.stdout, run.stderr);
            assert!(
                !shown.contains("credential-in-ref"),
                "{file} {format}: the document fails before the credential rule\n{shown}"
            );
            for secret in secrets {
                assert!(source.contains(secret), "{file} holds {secret:?}");
                assert!(
                    !shown.contains(secret),
                    "{file} {format} shows {secret:?}:\n{shown}"
                );
            }
        }
    }
}

#[test]
fn the_masked_snippet_of_an_early_failure_keeps_the_rest_of_the_line() {
    let run = numi(
        &fixtures().join("secrets"),
        &[
            "validate",
            "--files",
            "yaml-error.yaml",
            "--format",
            "pretty",
            "--color",
            "never",
        ],
    );
    assert!(run.stdout.contains("yaml/syntax"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("ref: \"https://******************@wiki.example.com/pages/4211"),
        "{}",
        run.stdout
    );
}
