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

#[test]
fn a_credential_shaped_name_is_masked_wherever_the_name_is_shown() {
    // A Playbook whose name is a GitHub token: valid (the text format's
    // `ok` line shows the name), and with a finding (pretty's heading).
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let stars = "*".repeat(token.len());
    let temp = tempfile::tempdir().expect("temp dir");
    let playbook = include_str!("../../examples/playbook-bugfix-bounded.yaml");
    std::fs::write(
        temp.path().join("token.yaml"),
        playbook.replace("bugfix-bounded", token),
    )
    .expect("write");
    std::fs::write(
        temp.path().join("broken.yaml"),
        format!("{}colour: red\n", playbook.replace("bugfix-bounded", token)),
    )
    .expect("write");
    std::fs::write(temp.path().join("plain.yaml"), playbook).expect("write");
    for format in FORMATS {
        let run = numi(
            temp.path(),
            &[
                "validate",
                "--files",
                "token.yaml",
                "broken.yaml",
                "--format",
                format,
                "--color",
                "never",
            ],
        );
        assert_eq!(run.code, 3, "{format}: {}", run.stderr);
        let shown = format!("{}{}", run.stdout, run.stderr);
        assert!(!shown.contains(token), "{format} shows the token:\n{shown}");
        assert!(!shown.contains("ghp_"), "{format} shows a part:\n{shown}");
    }
    let shown_in = |format: &str, file: &str| {
        numi(
            temp.path(),
            &[
                "validate", "--files", file, "--format", format, "--color", "never",
            ],
        )
        .stdout
    };
    assert_eq!(
        shown_in("text", "token.yaml"),
        format!("revision: \"files\"\nok       file \"token.yaml\" Playbook \"{stars}\"\n")
    );
    assert!(
        shown_in("json", "token.yaml").contains(&format!("\"name\": \"{stars}\"")),
        "json"
    );
    assert!(
        shown_in("pretty", "broken.yaml").starts_with(&format!(
            "invalid  file \"broken.yaml\" Playbook \"{stars}\": 1 problem\n"
        )),
        "pretty"
    );
    // An ordinary name is shown as written, the text format's line byte for
    // byte the reference's.
    assert_eq!(
        shown_in("text", "plain.yaml"),
        "revision: \"files\"\nok       file \"plain.yaml\" Playbook \"bugfix-bounded\"\n"
    );
    assert!(shown_in("json", "plain.yaml").contains("\"name\": \"bugfix-bounded\""));
}

#[test]
fn two_credential_shaped_names_are_told_apart_though_both_show_masked() {
    let first = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let second = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
    let temp = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(temp.path().join(".git")).expect("mkdir");
    std::fs::create_dir_all(temp.path().join(".numinance")).expect("mkdir");
    let playbook = include_str!("../../examples/playbook-bugfix-bounded.yaml");
    let write = |file: &str, name: &str| {
        std::fs::write(
            temp.path().join(".numinance").join(file),
            playbook.replace("bugfix-bounded", name),
        )
        .expect("write");
    };
    write("a.yaml", first);
    write("b.yaml", second);
    let run = numi(temp.path(), &["validate", "--format", "concise"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("duplicate-name"), "{}", run.stdout);
    // The same token twice is one name twice.
    write("b.yaml", first);
    let run = numi(temp.path(), &["validate", "--format", "concise"]);
    assert!(run.stdout.contains("repo/duplicate-name"), "{}", run.stdout);
    assert!(!run.stdout.contains("ghp_"), "{}", run.stdout);
}
