//! numi where people use it: `init`, `schema`, `digest`, `completions`,
//! `man`, `--version`, and the files other tools read (the pre-commit hook
//! manifest, the GitHub action and workflows).

// Helpers outside #[test] functions build fixtures; a failure there is a test failure.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::numi;
use ::numi::init::{self, Ci, Origin};
use serde_json::Value;

fn checkout() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A YAML file, loaded with numi's loader. A file whose root is a sequence
/// (pre-commit's hook manifest) is read as the value of a one-key mapping,
/// since numi's loader takes mappings only.
fn load_yaml(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap();
    if text.starts_with("- ") {
        let nested: String = text.lines().map(|line| format!("  {line}\n")).collect();
        let wrapped = numi::yaml::load(&format!("root:\n{nested}"), &Default::default())
            .unwrap_or_else(|error| panic!("{}: {error:?}", path.display()));
        return wrapped.value["root"].clone();
    }
    numi::yaml::load(&text, &numi::yaml::Limits::default())
        .unwrap_or_else(|error| panic!("{}: {error:?}", path.display()))
        .value
}

fn tree(root: &Path) -> BTreeMap<String, String> {
    files_under(root)
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (name, fs::read_to_string(&path).unwrap())
        })
        .collect()
}

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

// --- --version

#[test]
fn version_is_one_line_in_both_forms() {
    // The kinds are `numi schema --list`'s to list.
    for flag in ["--version", "-V"] {
        let result = numi(checkout(), &[flag]);
        assert_eq!(result.code, 0, "{}", result.transcript());
        assert_eq!(
            result.stdout,
            format!("numi {}\n", env!("CARGO_PKG_VERSION")),
            "{flag}"
        );
    }
}

// --- schema

#[test]
fn schema_list_names_every_kind() {
    let result = numi(checkout(), &["schema", "--list"]);
    insta::assert_snapshot!(result.transcript(), @"
    exit: 0
    --- stdout
    AutocontextActivePointer        -                       produced
    AutocontextBundle               -                       produced
    AutocontextCampaignState        -                       produced
    AutocontextCandidateRecord      -                       produced
    AutocontextCausalAttribution    -                       produced
    AutocontextEvaluatorPlan        -                       produced
    AutocontextManifestDiff         -                       produced
    AutocontextMatchedTrials        -                       produced
    AutocontextNegativeResult       -                       produced
    AutocontextPromotion            -                       produced
    AutocontextReservationArtifact  -                       produced
    AutocontextStaleMarker          -                       produced
    AutonomyPolicy                  numinance.dev/v1        configuration  inferred
    ContextBundle                   numinance.dev/v1        produced
    ContextReportRun                -                       configuration
    EvalSet                         numinance.dev/v1alpha1  alpha
    OutcomeCorrected                numinance.dev/v1        produced       inferred
    OutcomeRecorded                 numinance.dev/v1        produced       inferred
    Playbook                        numinance.dev/v1        configuration
    PromotionDecided                numinance.dev/v1        produced       inferred
    PromotionProposed               numinance.dev/v1        produced       inferred
    QualificationUpdated            numinance.dev/v1        produced       inferred
    ");
}

#[test]
fn schema_prints_the_shipped_schema_of_each_kind() {
    for kind in [
        "AutonomyPolicy",
        "ContextBundle",
        "ContextReportRun",
        "EvalSet",
        "Playbook",
    ] {
        let result = numi(checkout(), &["schema", kind]);
        assert_eq!(result.code, 0, "{kind}: {}", result.stderr);
        let shipped =
            fs::read_to_string(checkout().join(format!("schemas/{kind}.schema.json"))).unwrap();
        assert_eq!(result.stdout.trim_end(), shipped.trim_end(), "{kind}");
        assert!(result.stdout.ends_with('\n'));
        let schema: Value = serde_json::from_str(&result.stdout).unwrap();
        assert_eq!(schema["title"], kind);
    }
}

#[test]
fn schema_of_an_unknown_kind_is_a_usage_error_listing_the_kinds() {
    let result = numi(checkout(), &["schema", "Foo"]);
    assert_eq!(result.code, 2);
    assert_eq!(result.stdout, "");
    assert!(
        result.stderr.contains(
            "[possible values: AutocontextActivePointer, AutocontextBundle, \
             AutocontextCampaignState, AutocontextCandidateRecord, AutocontextCausalAttribution, AutocontextEvaluatorPlan, \
             AutocontextManifestDiff, AutocontextMatchedTrials, AutocontextNegativeResult, \
             AutocontextPromotion, AutocontextReservationArtifact, AutocontextStaleMarker, AutonomyPolicy, ContextBundle, ContextReportRun, EvalSet, OutcomeCorrected, OutcomeRecorded, Playbook, \
             PromotionDecided, PromotionProposed, QualificationUpdated]"
        ),
        "{}",
        result.stderr
    );
    assert_eq!(numi(checkout(), &["schema"]).code, 2);
    assert_eq!(numi(checkout(), &["schema", "--list", "Playbook"]).code, 2);
}

// --- digest

#[test]
fn digest_prints_one_sha256_line_per_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("abc.txt"), "abc").unwrap();
    fs::write(dir.path().join("empty"), "").unwrap();
    let result = numi(dir.path(), &["digest", "abc.txt", "empty"]);
    insta::assert_snapshot!(result.transcript(), @r"
    exit: 0
    --- stdout
    sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  abc.txt
    sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty
    ");
}

#[test]
fn digest_reports_a_missing_file_and_still_digests_the_others() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("abc.txt"), "abc").unwrap();
    let result = numi(dir.path(), &["digest", "missing.yaml", "abc.txt"]);
    insta::assert_snapshot!(result.transcript(), @r"
    exit: 1
    --- stdout
    sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  abc.txt
    --- stderr
    numi: missing.yaml: read: no such file or directory
    ");
    assert_eq!(numi(dir.path(), &["digest"]).code, 2);
}

#[test]
fn canonical_digest_ignores_formatting_but_not_content() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("block.yaml"),
        "kind: Playbook\nspec:\n  change_type: bugfix\n  max_repair_attempts: 2\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("flow.yaml"),
        "# the same document\n{spec: {max_repair_attempts: 2, change_type: bugfix}, kind: Playbook}\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("doc.json"),
        r#"{"kind":"Playbook","spec":{"change_type":"bugfix","max_repair_attempts":2}}"#,
    )
    .unwrap();
    fs::write(
        dir.path().join("other.yaml"),
        "kind: Playbook\nspec:\n  change_type: bugfix\n  max_repair_attempts: 3\n",
    )
    .unwrap();
    let files = ["block.yaml", "flow.yaml", "doc.json", "other.yaml"];
    let canonical = numi(
        dir.path(),
        &[&["digest", "--canonical"][..], &files[..]].concat(),
    );
    assert_eq!(canonical.code, 0, "{}", canonical.stderr);
    let digests: Vec<&str> = canonical
        .stdout
        .lines()
        .map(|line| line.split_once("  ").unwrap().0)
        .collect();
    assert_eq!(digests.len(), 4);
    assert_eq!(digests[0], digests[1]);
    assert_eq!(digests[0], digests[2]);
    assert_ne!(digests[0], digests[3]);
    // The canonical text of the document is what is digested.
    let expected = numi::digest::sha256(
        br#"{"kind":"Playbook","spec":{"change_type":"bugfix","max_repair_attempts":2}}"#,
    );
    assert_eq!(digests[0], expected);

    let bytes = numi(dir.path(), &[&["digest"][..], &files[..]].concat());
    let byte_digests: Vec<&str> = bytes
        .stdout
        .lines()
        .map(|line| line.split_once("  ").unwrap().0)
        .collect();
    assert_ne!(byte_digests[0], byte_digests[1]);
}

#[test]
fn canonical_digest_refuses_what_is_not_one_yaml_document() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("dup.yaml"), "a: 1\na: 2\n").unwrap();
    fs::write(dir.path().join("ok.yaml"), "a: 1\n").unwrap();
    let result = numi(
        dir.path(),
        &["digest", "--canonical", "dup.yaml", "ok.yaml"],
    );
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 1
    --- stdout
    sha256:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862  ok.yaml
    --- stderr
    numi: dup.yaml: yaml: duplicate key "a" at line 2 column 1
    "#);
}

#[test]
fn a_digest_from_numi_digest_pins_an_evalset_outcome() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("outcome.json"), "{\"merged\": true}\n").unwrap();
    let result = numi(dir.path(), &["digest", "outcome.json"]);
    let digest = result.stdout.split_once("  ").unwrap().0.to_owned();
    let evalset = format!(
        "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {{name: pinned}}\n\
         spec:\n  version: 1.0.0\n  cases:\n    - name: recorded\n      outcome: {{value: \"{digest}\"}}\n      \
         expect: {{acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false, verification_failures: []}}\n"
    );
    fs::write(dir.path().join("evalset.yaml"), evalset).unwrap();
    let validated = numi(dir.path(), &["validate", "--files", "evalset.yaml"]);
    assert_eq!(validated.code, 0, "{}", validated.transcript());
}

// --- init

/// The hook `numi init` prints names this version; snapshots name it
/// `[version]`, so a release does not rewrite them.
fn with_version_placeholder(transcript: &str) -> String {
    transcript.replace(env!("CARGO_PKG_VERSION"), "[version]")
}

/// What `numi init` wrote or printed, as a build from source writes it.
/// The release workflow's own test run builds numi for the tag, and that
/// numi writes the release's hook and jobs without the notes a build from
/// source adds: they are put back to the source's, so the snapshots below
/// hold on that run too. For any other build this changes nothing.
fn as_from_source(text: &str) -> String {
    let release = init::origin_of_this_build();
    if release == Origin::Source {
        return text.to_owned();
    }
    let mut text = text
        .replace(
            &init::pre_commit_config(release),
            &init::pre_commit_config(Origin::Source),
        )
        .replace(
            &init::gitlab_ci_job(release),
            &init::gitlab_ci_job(Origin::Source),
        )
        .replace(
            &init::github_actions_workflow(release),
            &init::github_actions_workflow(Origin::Source),
        );
    let notes: Vec<(&str, &str)> = [Ci::GithubActions, Ci::Gitlab]
        .into_iter()
        .flat_map(|ci| init::templates(Some(ci), Origin::Source))
        .zip(
            [Ci::GithubActions, Ci::Gitlab]
                .into_iter()
                .flat_map(|ci| init::templates(Some(ci), release)),
        )
        .filter_map(|(source, release)| match (source.note, release.note) {
            (Some(note), None) => Some((source.path, note)),
            _ => None,
        })
        .collect();
    text = text
        .lines()
        .map(|line| {
            let written = line.starts_with("created ") || line.starts_with("overwritten ");
            let note = notes
                .iter()
                .find(|(path, _)| written && line.ends_with(path));
            match note {
                Some((_, note)) => format!("{line} ({note})\n"),
                None => format!("{line}\n"),
            }
        })
        .collect();
    text
}

#[test]
fn init_writes_a_tree_that_validates() {
    let dir = tempfile::tempdir().unwrap();
    let result = numi(dir.path(), &["init", "repo", "--ci", "github-actions"]);
    insta::assert_snapshot!(as_from_source(&result.transcript()), @"
    exit: 0
    --- stdout
    created      repo/.numinance/policy/playbook-bugfix-bounded.yaml
    created      repo/.numinance/policy/autonomy-policy.yaml
    created      repo/numi.toml (strict = true: producer-side checks fail a document)
    created      repo/.pre-commit-config.yaml (the hook runs the numi on PATH)
    created      repo/.github/workflows/numi.yml (the job builds numi from source)
    ");
    let validated = numi(dir.path(), &["validate", "repo"]);
    insta::assert_snapshot!(validated.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "worktree"
    ok       repo ".numinance/policy/autonomy-policy.yaml" AutonomyPolicy "repo-default"
    ok       repo ".numinance/policy/playbook-bugfix-bounded.yaml" Playbook "bugfix-bounded"
    --- stderr
    2 documents: 2 ok, 0 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);

    let repo = dir.path().join("repo");
    let playbook =
        fs::read_to_string(repo.join(".numinance/policy/playbook-bugfix-bounded.yaml")).unwrap();
    assert!(playbook.contains(
        "  change_type: bugfix\n  max_repair_attempts: 2\n  qualification: {min_runs: 20, max_rework_rate: 1000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}\n"
    ));

    // Each file is the library's template for where this build's numi
    // comes from (src/init.rs tests both).
    for template in init::templates(Some(Ci::GithubActions), init::origin_of_this_build()) {
        let written = fs::read_to_string(repo.join(template.path)).unwrap();
        assert_eq!(written, template.contents, "{}", template.path);
    }
    let workflow = load_yaml(&repo.join(".github/workflows/numi.yml"));
    let steps = workflow["jobs"]["validate"]["steps"].as_array().unwrap();
    let last = steps.last().unwrap();
    match init::origin_of_this_build() {
        Origin::Release { commit } => {
            assert_eq!(last["uses"], format!("numinance/numi@{commit}"));
            assert_eq!(last["with"]["format"], "github");
        }
        Origin::Source => {
            let script = last["run"].as_str().unwrap();
            assert_eq!(
                script.lines().collect::<Vec<_>>(),
                [
                    "cargo install --locked --git https://github.com/numinance/numi numinance-numi",
                    "numi validate . --format github"
                ]
            );
        }
    }

    let pre_commit = load_yaml(&repo.join(".pre-commit-config.yaml"));
    let hook = &pre_commit["repos"][0]["hooks"][0];
    let shipped = load_yaml(&checkout().join(".pre-commit-hooks.yaml"));
    assert_eq!(hook["id"], shipped[0]["id"]);
    assert_eq!(hook["entry"], shipped[0]["entry"]);
    assert_eq!(hook["files"], shipped[0]["files"]);
}

#[test]
fn init_without_ci_writes_no_workflow() {
    let dir = tempfile::tempdir().unwrap();
    let result = numi(dir.path(), &["init"]);
    assert_eq!(result.code, 0, "{}", result.transcript());
    let written: Vec<String> = tree(dir.path()).into_keys().collect();
    assert_eq!(
        written,
        [
            ".numinance/policy/autonomy-policy.yaml",
            ".numinance/policy/playbook-bugfix-bounded.yaml",
            ".pre-commit-config.yaml",
            "numi.toml",
        ]
    );
}

#[test]
fn init_twice_keeps_what_exists_and_adds_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(numi(dir.path(), &["init", "repo"]).code, 0);
    let playbook = dir
        .path()
        .join("repo/.numinance/policy/playbook-bugfix-bounded.yaml");
    fs::write(&playbook, "mine\n").unwrap();
    fs::remove_file(
        dir.path()
            .join("repo/.numinance/policy/autonomy-policy.yaml"),
    )
    .unwrap();

    let result = numi(dir.path(), &["init", "repo", "--ci", "github-actions"]);
    insta::assert_snapshot!(with_version_placeholder(&as_from_source(&result.transcript())), @r"
    exit: 0
    --- stdout
    kept         repo/.numinance/policy/playbook-bugfix-bounded.yaml (exists; --force overwrites)
    created      repo/.numinance/policy/autonomy-policy.yaml
    kept         repo/numi.toml (exists; --force overwrites)
    kept         repo/.pre-commit-config.yaml (exists; add this hook to it)
    repos:
      - repo: local
        hooks:
          - id: numi-validate
            name: numi validate
            entry: numi validate --only
            # The numi on PATH runs this hook (from numi's checkout: cargo
            # install --locked --path .). Once numinance-numi [version] is on
            # PyPI, pre-commit can install it for the hook instead: replace
            # the next line with
            #   language: python
            #   additional_dependencies: [numinance-numi==[version]]
            language: system
            files: ^\.numinance/.*\.ya?ml$
            require_serial: true
    created      repo/.github/workflows/numi.yml (the job builds numi from source)
    ");
    assert_eq!(fs::read_to_string(&playbook).unwrap(), "mine\n");
    let before = tree(dir.path());
    let again = numi(dir.path(), &["init", "repo", "--ci", "github-actions"]);
    assert_eq!(again.code, 0, "{}", again.transcript());
    assert_eq!(again.stdout.matches("kept ").count(), 5, "{}", again.stdout);
    assert_eq!(tree(dir.path()), before);
}

#[test]
fn init_force_overwrites_and_keeps_the_pre_commit_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let playbook = dir
        .path()
        .join(".numinance/policy/playbook-bugfix-bounded.yaml");
    fs::create_dir_all(playbook.parent().unwrap()).unwrap();
    fs::write(&playbook, "mine\n").unwrap();
    fs::write(dir.path().join(".pre-commit-config.yaml"), "repos: []\n").unwrap();

    let result = numi(dir.path(), &["init", "--force"]);
    insta::assert_snapshot!(with_version_placeholder(&as_from_source(&result.transcript())), @r"
    exit: 0
    --- stdout
    overwritten  .numinance/policy/playbook-bugfix-bounded.yaml
    created      .numinance/policy/autonomy-policy.yaml
    created      numi.toml (strict = true: producer-side checks fail a document)
    kept         .pre-commit-config.yaml (exists; add this hook to it)
    repos:
      - repo: local
        hooks:
          - id: numi-validate
            name: numi validate
            entry: numi validate --only
            # The numi on PATH runs this hook (from numi's checkout: cargo
            # install --locked --path .). Once numinance-numi [version] is on
            # PyPI, pre-commit can install it for the hook instead: replace
            # the next line with
            #   language: python
            #   additional_dependencies: [numinance-numi==[version]]
            language: system
            files: ^\.numinance/.*\.ya?ml$
            require_serial: true
    ");
    assert_eq!(numi(dir.path(), &["validate"]).code, 0);
    assert_eq!(
        fs::read_to_string(dir.path().join(".pre-commit-config.yaml")).unwrap(),
        "repos: []\n"
    );
}

#[test]
fn init_for_gitlab_writes_a_code_quality_job() {
    let dir = tempfile::tempdir().unwrap();
    let result = numi(dir.path(), &["init", "repo", "--ci", "gitlab"]);
    insta::assert_snapshot!(as_from_source(&result.transcript()), @"
    exit: 0
    --- stdout
    created      repo/.numinance/policy/playbook-bugfix-bounded.yaml
    created      repo/.numinance/policy/autonomy-policy.yaml
    created      repo/numi.toml (strict = true: producer-side checks fail a document)
    created      repo/.pre-commit-config.yaml (the hook runs the numi on PATH)
    created      repo/.gitlab-ci.yml (the job builds numi from source)
    ");
    let job = fs::read_to_string(dir.path().join("repo/.gitlab-ci.yml")).unwrap();
    insta::assert_snapshot!(with_version_placeholder(&as_from_source(&job)), @r#"
    numi:
      # Builds numi from its repository (minutes). Once numinance-numi [version]
      # is on PyPI, its wheel installs in seconds with no Rust: use the image
      # python:3.13-slim and replace the cargo line with
      #   - python -m pip install --quiet numinance-numi==[version]
      image: rust:1-slim
      script:
        - cargo install --locked --git https://github.com/numinance/numi numinance-numi
        - numi validate . --format gitlab --output-file gl-code-quality-report.json
      artifacts:
        when: always
        reports:
          codequality: gl-code-quality-report.json
    "#);
    assert!(!dir.path().join("repo/.github").exists());
}

/// The job's command, run as GitLab runs a script line: an invalid
/// document fails it, and the report it leaves names the finding.
#[test]
fn the_gitlab_jobs_command_fails_on_an_invalid_document_and_writes_the_report() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(numi(dir.path(), &["init", ".", "--ci", "gitlab"]).code, 0);
    let job = load_yaml(&dir.path().join(".gitlab-ci.yml"));
    let command = job["numi"]["script"][1].as_str().unwrap();
    let arguments: Vec<&str> = command.strip_prefix("numi ").unwrap().split(' ').collect();
    let report = dir.path().join("gl-code-quality-report.json");

    let valid = numi(dir.path(), &arguments);
    assert_eq!(valid.code, 0, "{}", valid.transcript());
    assert_eq!(fs::read_to_string(&report).unwrap().trim(), "[]");

    fs::write(
        dir.path().join(".numinance/policy/autonomy-policy.yaml"),
        "apiVersion: numinance.dev/v1\nkind: AutonomyPolicy\nmetadata: {name: repo-default}\nspec: {defaults: {level: AUTONOMY_LEVEL_NEVER}}\n",
    )
    .unwrap();
    let invalid = numi(dir.path(), &arguments);
    assert_eq!(invalid.code, 3, "{}", invalid.transcript());
    let issues: Value = serde_json::from_str(&fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(
        issues[0]["location"]["path"],
        ".numinance/policy/autonomy-policy.yaml"
    );
}

#[test]
fn init_for_gitlab_keeps_an_existing_ci_file_and_prints_the_job() {
    let dir = tempfile::tempdir().unwrap();
    let existing = "stages: [build]\nbuild:\n  stage: build\n  script: [make]\n";
    fs::write(dir.path().join(".gitlab-ci.yml"), existing).unwrap();
    fs::write(dir.path().join(".pre-commit-config.yaml"), "repos: []\n").unwrap();

    let result = numi(dir.path(), &["init", "--ci", "gitlab", "--force"]);
    insta::assert_snapshot!(with_version_placeholder(&as_from_source(&result.transcript())), @r#"
    exit: 0
    --- stdout
    created      .numinance/policy/playbook-bugfix-bounded.yaml
    created      .numinance/policy/autonomy-policy.yaml
    created      numi.toml (strict = true: producer-side checks fail a document)
    kept         .pre-commit-config.yaml (exists; add this hook to it)
    repos:
      - repo: local
        hooks:
          - id: numi-validate
            name: numi validate
            entry: numi validate --only
            # The numi on PATH runs this hook (from numi's checkout: cargo
            # install --locked --path .). Once numinance-numi [version] is on
            # PyPI, pre-commit can install it for the hook instead: replace
            # the next line with
            #   language: python
            #   additional_dependencies: [numinance-numi==[version]]
            language: system
            files: ^\.numinance/.*\.ya?ml$
            require_serial: true
    kept         .gitlab-ci.yml (exists; add this job to it)
    numi:
      # Builds numi from its repository (minutes). Once numinance-numi [version]
      # is on PyPI, its wheel installs in seconds with no Rust: use the image
      # python:3.13-slim and replace the cargo line with
      #   - python -m pip install --quiet numinance-numi==[version]
      image: rust:1-slim
      script:
        - cargo install --locked --git https://github.com/numinance/numi numinance-numi
        - numi validate . --format gitlab --output-file gl-code-quality-report.json
      artifacts:
        when: always
        reports:
          codequality: gl-code-quality-report.json
    "#);
    assert_eq!(
        fs::read_to_string(dir.path().join(".gitlab-ci.yml")).unwrap(),
        existing
    );
}

#[test]
fn init_rejects_an_unknown_ci_system() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(numi(dir.path(), &["init", "--ci", "jenkins"]).code, 2);
    assert!(tree(dir.path()).is_empty());
}

// --- completions and man

#[test]
fn completions_are_generated_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let result = numi(checkout(), &["completions", shell]);
        assert_eq!(result.code, 0, "{shell}: {}", result.stderr);
        assert!(result.stdout.contains("validate"), "{shell}");
        assert!(result.stdout.contains("enable-alpha"), "{shell}");
    }
    assert_eq!(numi(checkout(), &["completions", "tcsh"]).code, 2);
}

#[test]
fn bash_completion_script_is_valid_bash() {
    let result = numi(checkout(), &["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("numi.bash");
    fs::write(&script, &result.stdout).unwrap();
    let checked = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(checked.status.success(), "{checked:?}");
}

#[test]
fn man_page_is_roff_and_lists_the_subcommands() {
    let result = numi(checkout(), &["man"]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stdout.contains("\n.TH numi 1 "), "{}", result.stdout);
    assert!(result.stdout.contains(".SH NAME\n"));
    assert!(result.stdout.contains(".SH SUBCOMMANDS\n"));
    for subcommand in [
        "validate",
        "fix",
        "init",
        "schema",
        "digest",
        "completions",
        "man",
    ] {
        assert!(
            result.stdout.contains(&format!("numi\\-{subcommand}(1)")),
            "{subcommand}"
        );
        let page = numi(checkout(), &["man", subcommand]);
        assert_eq!(page.code, 0, "{subcommand}");
        assert!(
            page.stdout.contains(env!("CARGO_PKG_VERSION")),
            "{subcommand}"
        );
        assert!(
            page.stdout.contains(&format!(".TH numi\\-{subcommand} 1 "))
                || page.stdout.contains(&format!(".TH numi-{subcommand} 1 ")),
            "{}",
            page.stdout
        );
    }
    let validate = numi(checkout(), &["man", "validate"]);
    assert!(validate.stdout.contains("enable\\-alpha"));
}

#[test]
fn man_page_of_an_unknown_subcommand_is_a_usage_error() {
    let result = numi(checkout(), &["man", "frobnicate"]);
    assert_eq!(result.code, 2);
    assert_eq!(result.stdout, "");
    assert_eq!(
        result.stderr,
        "numi: no subcommand \"frobnicate\" (numi has validate, fix, explain, init, schema, digest, slug, completions, man, lsp)\n"
    );
}

// --- files other tools read

#[test]
fn pre_commit_hook_manifest_declares_the_repository_and_files_hooks() {
    let hooks = load_yaml(&checkout().join(".pre-commit-hooks.yaml"));
    let hooks = hooks.as_array().unwrap();
    let ids: Vec<&str> = hooks
        .iter()
        .map(|hook| hook["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["numi-validate", "numi-validate-files"]);
    let entries: Vec<&str> = hooks
        .iter()
        .map(|hook| hook["entry"].as_str().unwrap())
        .collect();
    assert_eq!(
        entries,
        ["numi validate --only", "numi validate --full-paths --files"]
    );
    for hook in hooks {
        assert_eq!(hook["language"], "rust");
        assert_eq!(hook["files"], "^\\.numinance/.*\\.ya?ml$");
        // One process for all the files: one report order, and duplicate
        // names found across them.
        assert_eq!(hook["require_serial"], true);
    }
}

fn action() -> Value {
    load_yaml(&checkout().join("action.yml"))
}

#[test]
fn action_is_a_composite_action_with_the_documented_inputs() {
    let action = action();
    assert_eq!(action["runs"]["using"], "composite");
    let inputs: Vec<&str> = action["inputs"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        inputs,
        [
            "path",
            "files",
            "format",
            "strict",
            "enable-alpha",
            "args",
            "version",
            "sarif-file"
        ]
    );
    assert_eq!(action["inputs"]["strict"]["default"], "false");
    assert_eq!(action["inputs"]["enable-alpha"]["default"], "false");
    assert_eq!(action["inputs"]["path"]["default"], ".");
    assert_eq!(action["inputs"]["format"]["default"], "github");
    for step in action["runs"]["steps"].as_array().unwrap() {
        let runs = step.get("run").is_some();
        let uses = step.get("uses").is_some();
        assert!(runs != uses, "{step}");
        if runs {
            assert_eq!(step["shell"], "bash", "{step}");
        }
    }
    let upload = action["runs"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|step| step.get("uses").is_some())
        .unwrap();
    assert!(
        upload["uses"]
            .as_str()
            .unwrap()
            .starts_with("github/codeql-action/upload-sarif@")
    );
    // A failed upload must not stop the step that reports numi's status.
    assert_eq!(upload["continue-on-error"], true);
    let last = action["runs"]["steps"].as_array().unwrap().last().unwrap();
    assert_eq!(last["name"], "Exit with numi's status");
    assert!(last["if"].as_str().unwrap().contains("always()"), "{last}");
}

/// Runs the action's shell steps the way the runner does, with `inputs`
/// substituted, the built numi on the PATH and no install step.
fn run_action(inputs: &[(&str, &str)], cwd: &Path) -> (Option<String>, i32) {
    let action = action();
    let mut values: BTreeMap<String, String> = action["inputs"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, input)| {
            (
                format!("inputs.{name}"),
                input["default"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    for (name, value) in inputs {
        values.insert(format!("inputs.{name}"), (*value).to_owned());
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_numi")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let temp = tempfile::tempdir().unwrap();
    let mut exit_code = None;
    for step in action["runs"]["steps"].as_array().unwrap() {
        let Some(script) = step["run"].as_str() else {
            continue; // the upload step is GitHub's own action
        };
        if step["name"] == "Install numi" {
            continue;
        }
        let output_file = temp.path().join("output");
        fs::write(&output_file, "").unwrap();
        let script_file = temp.path().join("step.sh");
        fs::write(&script_file, script).unwrap();
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&script_file)
            .current_dir(cwd)
            .env("PATH", &path)
            .env("GITHUB_OUTPUT", &output_file);
        for (name, expression) in step["env"].as_object().into_iter().flatten() {
            let expression = expression.as_str().unwrap();
            let key = expression
                .strip_prefix("${{ ")
                .and_then(|rest| rest.strip_suffix(" }}"))
                .unwrap();
            let value = match key {
                "steps.validate.outputs.exit-code" => exit_code.clone().unwrap(),
                _ => values[key].clone(),
            };
            command.env(name, value);
        }
        let status = command.status().unwrap().code().unwrap();
        let written = fs::read_to_string(&output_file).unwrap();
        if let Some(code) = written.trim().strip_prefix("exit-code=") {
            exit_code = Some(code.to_owned());
        }
        if status != 0 {
            return (exit_code, status);
        }
    }
    (exit_code, 0)
}

#[test]
fn action_validates_the_examples_and_passes_numis_status_on() {
    let (recorded, status) = run_action(&[("files", "examples")], checkout());
    assert_eq!((recorded.as_deref(), status), (Some("0"), 0));

    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("bad.yaml"),
        "apiVersion: numinance.dev/v1\nkind: EvalSet\n",
    )
    .unwrap();
    fs::write(dir.path().join("good.yaml"), "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: p}\nspec: {change_type: bugfix}\n").unwrap();
    let (recorded, status) = run_action(&[("files", "good.yaml bad.yaml")], dir.path());
    assert_eq!((recorded.as_deref(), status), (Some("3"), 3));

    let (recorded, status) = run_action(&[("format", "junit")], dir.path());
    assert_eq!((recorded, status), (None, 2));
}

#[test]
fn action_validates_a_configuration_tree_by_path() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(numi(dir.path(), &["init", "repo"]).code, 0);
    let (recorded, status) = run_action(&[("path", "repo")], dir.path());
    assert_eq!((recorded.as_deref(), status), (Some("0"), 0));
    let (recorded, status) = run_action(&[("path", "missing")], dir.path());
    assert_eq!((recorded.as_deref(), status), (Some("1"), 1));
}

#[test]
fn action_passes_strict_enable_alpha_and_args_on() {
    let dir = tempfile::tempdir().unwrap();
    let evals = dir.path().join("repo/.numinance/evals");
    fs::create_dir_all(&evals).unwrap();
    fs::copy(
        checkout().join("examples/core-replay.yaml"),
        evals.join("core-replay.yaml"),
    )
    .unwrap();
    let drafts = dir.path().join("repo/.numinance/drafts");
    fs::create_dir_all(&drafts).unwrap();
    fs::write(drafts.join("wip.yaml"), "not: [valid").unwrap();
    let gated = run_action(
        &[("path", "repo"), ("args", "--exclude drafts/")],
        dir.path(),
    );
    assert_eq!(gated, (Some("3".to_owned()), 3));
    let alpha = run_action(
        &[
            ("path", "repo"),
            ("enable-alpha", "true"),
            ("args", "--exclude .numinance/drafts/"),
        ],
        dir.path(),
    );
    assert_eq!(alpha, (Some("0".to_owned()), 0));

    fs::copy(
        checkout().join("tests/fixtures/verified/playbook-rate-20000/pb.yaml"),
        dir.path().join("pb.yaml"),
    )
    .unwrap();
    let lenient = run_action(&[("files", "pb.yaml")], dir.path());
    assert_eq!(lenient, (Some("0".to_owned()), 0));
    let strict = run_action(&[("files", "pb.yaml"), ("strict", "true")], dir.path());
    assert_eq!(strict, (Some("3".to_owned()), 3));
    let wrong = run_action(&[("files", "pb.yaml"), ("strict", "yes")], dir.path());
    assert_eq!(wrong, (None, 2));
}

/// A release of numi laid out as GitHub serves it, under a `file://` URL,
/// and the action's install script run against it.
struct Release {
    temp: tempfile::TempDir,
}

impl Release {
    const VERSION: &str = env!("CARGO_PKG_VERSION");

    fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let folder = temp.path().join(format!(
            "server/owner/numi/releases/download/v{}",
            Self::VERSION
        ));
        fs::create_dir_all(&folder).unwrap();
        let staging = temp.path().join("staging");
        fs::create_dir(&staging).unwrap();
        fs::copy(env!("CARGO_BIN_EXE_numi"), staging.join("numi")).unwrap();
        let archive = format!("numi-v{}-x86_64-unknown-linux-musl.tar.gz", Self::VERSION);
        let packed = Command::new("tar")
            .args(["-czf"])
            .arg(folder.join(&archive))
            .arg("-C")
            .arg(&staging)
            .arg(".")
            .status()
            .unwrap();
        assert!(packed.success());
        let sums = Command::new("sha256sum")
            .arg(&archive)
            .current_dir(&folder)
            .output()
            .unwrap();
        assert!(sums.status.success());
        fs::write(folder.join("SHA256SUMS"), sums.stdout).unwrap();
        Release { temp }
    }

    fn sums(&self) -> PathBuf {
        self.temp.path().join(format!(
            "server/owner/numi/releases/download/v{}/SHA256SUMS",
            Self::VERSION
        ))
    }

    /// Runs the install script; returns its exit status, its output, and
    /// the folder it put on the PATH.
    fn install(&self, env: &[(&str, &str)]) -> (i32, String, String) {
        let runner_temp = self.temp.path().join("runner");
        let _ = fs::remove_dir_all(&runner_temp);
        fs::create_dir(&runner_temp).unwrap();
        let github_path = self.temp.path().join("github-path");
        fs::write(&github_path, "").unwrap();
        // cargo stands in for the build from the checkout: it records how
        // it was called.
        let fake_bin = self.temp.path().join("fake-bin");
        fs::create_dir_all(&fake_bin).unwrap();
        let cargo = fake_bin.join("cargo");
        fs::write(
            &cargo,
            format!(
                "#!/bin/sh\necho \"$@\" > {}\n",
                self.temp.path().join("cargo-called").display()
            ),
        )
        .unwrap();
        Command::new("chmod")
            .arg("+x")
            .arg(&cargo)
            .status()
            .unwrap();
        let path = format!("{}:{}", fake_bin.display(), std::env::var("PATH").unwrap());
        let mut command = Command::new("bash");
        command
            .arg(checkout().join("action/install-numi.sh"))
            .env("PATH", path)
            .env("GITHUB_ACTION_PATH", checkout())
            .env(
                "GITHUB_SERVER_URL",
                format!("file://{}", self.temp.path().join("server").display()),
            )
            .env("NUMI_ACTION_REPOSITORY", "owner/numi")
            .env("NUMI_VERSION", "")
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TEMP", &runner_temp)
            .env("GITHUB_PATH", &github_path);
        for (name, value) in env {
            command.env(name, value);
        }
        let output = command.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let on_path = fs::read_to_string(&github_path).unwrap();
        (
            output.status.code().unwrap(),
            text,
            on_path.trim().to_owned(),
        )
    }

    fn cargo_called(&self) -> Option<String> {
        fs::read_to_string(self.temp.path().join("cargo-called")).ok()
    }
}

#[cfg(unix)]
#[test]
fn action_installs_the_release_binary_whose_sum_matches() {
    let release = Release::new();
    let (status, text, on_path) = release.install(&[]);
    assert_eq!(status, 0, "{text}");
    assert!(text.contains("installed release v"), "{text}");
    let installed = Path::new(&on_path).join("numi");
    let version = Command::new(&installed).arg("-V").output().unwrap();
    assert_eq!(
        String::from_utf8(version.stdout).unwrap(),
        format!("numi {}\n", Release::VERSION)
    );
    assert_eq!(release.cargo_called(), None);
}

#[cfg(unix)]
#[test]
fn action_refuses_a_release_binary_whose_sum_differs() {
    let release = Release::new();
    let sums = fs::read_to_string(release.sums()).unwrap();
    let tampered = format!("{}{}", "0".repeat(64), &sums[64..]);
    fs::write(release.sums(), tampered).unwrap();
    let (status, text, on_path) = release.install(&[]);
    assert_eq!(status, 1, "{text}");
    assert!(text.contains("does not match its SHA-256 sum"), "{text}");
    assert_eq!(on_path, "");
    assert_eq!(release.cargo_called(), None);
}

#[cfg(unix)]
#[test]
fn action_builds_from_its_checkout_only_when_no_release_fits() {
    let release = Release::new();
    let build = |env: &[(&str, &str)]| {
        let (status, text, on_path) = release.install(env);
        assert_eq!(status, 0, "{text}");
        let called = release.cargo_called().unwrap();
        assert!(called.starts_with("install --locked --path "), "{called}");
        assert!(on_path.ends_with("/numi/bin"), "{on_path}");
        let _ = fs::remove_file(release.temp.path().join("cargo-called"));
        text
    };
    assert!(build(&[("NUMI_VERSION", "9.9.9")]).contains("no release v9.9.9"));
    assert!(build(&[("RUNNER_ARCH", "ARM")]).contains("no release binary for Linux on ARM"));
    assert!(build(&[("NUMI_ACTION_REPOSITORY", "")]).contains("used from this repository"));
    assert!(build(&[("NUMI_VERSION", "source")]).contains("version is 'source'"));
    let (status, text, _) = release.install(&[("NUMI_VERSION", "latest")]);
    assert_eq!(status, 2, "{text}");
}

#[test]
fn workflows_parse_and_use_the_action_on_the_examples() {
    let folder = checkout().join(".github/workflows");
    let mut uses_action_on_examples = false;
    for path in files_under(&folder) {
        let workflow = load_yaml(&path);
        let jobs = workflow["jobs"].as_object().unwrap();
        assert!(!jobs.is_empty(), "{}", path.display());
        for job in jobs.values() {
            for step in job["steps"].as_array().unwrap() {
                if step["uses"] == "$/" && step["with"]["files"] == "examples" {
                    uses_action_on_examples = true;
                }
            }
        }
    }
    assert!(uses_action_on_examples);
    let ci = load_yaml(&folder.join("ci.yml"));
    let runs: Vec<&str> = ci["jobs"]["check"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|step| step["run"].as_str())
        .collect();
    assert!(runs.contains(&"bash .ci/run"), "{runs:?}");
}

#[test]
fn action_writes_sarif_to_its_file_and_github_annotations_to_the_log() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("bad.yaml"),
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: p}\nspec: {change_type: bugfix, extra: 1}\n",
    )
    .unwrap();
    let (recorded, status) = run_action(
        &[
            ("files", "bad.yaml"),
            ("format", "sarif"),
            ("sarif-file", "out.sarif"),
        ],
        dir.path(),
    );
    assert_eq!((recorded.as_deref(), status), (Some("3"), 3));
    let sarif: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("out.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(
        sarif["runs"][0]["results"][0]["ruleId"],
        "schema/additionalProperties"
    );

    let (recorded, status) = run_action(&[("files", "bad.yaml"), ("format", "github")], dir.path());
    assert_eq!((recorded.as_deref(), status), (Some("3"), 3));
}

/// `cargo binstall numinance-numi` finds, for every target the release
/// workflow builds, the archive it uploads under the name it gives it.
#[test]
fn binstall_points_at_the_archives_the_release_uploads() {
    let manifest: toml::Value =
        toml::from_str(&fs::read_to_string(checkout().join("Cargo.toml")).unwrap()).unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    let workflow = fs::read_to_string(checkout().join(".github/workflows/release.yml")).unwrap();
    assert!(
        workflow.contains("name=\"numi-$TAG-$TARGET\""),
        "{workflow}"
    );
    assert!(workflow.contains("\"dist/$name.tar.gz\""), "{workflow}");
    assert!(workflow.contains("\"../dist/$name.zip\""), "{workflow}");
    assert!(workflow.contains("cp \"target/$TARGET/dist/numi\" staging/"));
    assert!(workflow.contains("cp \"target/$TARGET/dist/numi.exe\" staging/"));
    assert_eq!(binstall["bin-dir"].as_str(), Some("{ bin }{ binary-ext }"));
    for target in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(
            workflow.contains(&format!("target: {target}}}")),
            "release.yml builds no {target}"
        );
        let windows = target.contains("windows");
        let format = binstall
            .get("overrides")
            .and_then(|overrides| overrides.get(target))
            .and_then(|target| target.get("pkg-fmt"))
            .unwrap_or(&binstall["pkg-fmt"])
            .as_str()
            .unwrap();
        assert_eq!(format, if windows { "zip" } else { "tgz" }, "{target}");
        let suffix = if windows { ".zip" } else { ".tar.gz" };
        let url = binstall["pkg-url"]
            .as_str()
            .unwrap()
            .replace("{ repo }", env!("CARGO_PKG_REPOSITORY"))
            .replace("{ version }", env!("CARGO_PKG_VERSION"))
            .replace("{ target }", target)
            .replace("{ archive-suffix }", suffix);
        assert_eq!(
            url,
            format!(
                "{}/releases/download/v{version}/numi-v{version}-{target}{suffix}",
                env!("CARGO_PKG_REPOSITORY"),
                version = env!("CARGO_PKG_VERSION"),
            )
        );
    }
}

/// What is shipped (the release archives, the wheels) and what the
/// benchmarks time is built with the dist profile, whole-program LTO in one
/// codegen unit; every other build takes the release profile, without LTO
/// and in rustc's default codegen units, so a fresh build takes minutes.
#[test]
fn what_is_shipped_and_benchmarked_is_built_with_the_dist_profile() {
    let manifest: toml::Value =
        toml::from_str(&fs::read_to_string(checkout().join("Cargo.toml")).unwrap()).unwrap();
    let profiles = &manifest["profile"];
    let dist = &profiles["dist"];
    assert_eq!(dist["inherits"].as_str(), Some("release"));
    assert_eq!(dist["lto"].as_str(), Some("fat"));
    assert_eq!(dist["codegen-units"].as_integer(), Some(1));
    let release = profiles["release"].as_table().unwrap();
    assert_eq!(
        release.get("strip").and_then(toml::Value::as_bool),
        Some(true)
    );
    assert_eq!(
        release.get("lto").and_then(toml::Value::as_str),
        Some("off")
    );
    for slow in ["codegen-units", "opt-level"] {
        assert!(!release.contains_key(slow), "[profile.release] sets {slow}");
    }

    let workflow = fs::read_to_string(checkout().join(".github/workflows/release.yml")).unwrap();
    assert!(
        workflow.contains("run: cargo build --profile dist --locked --target \"$TARGET\""),
        "{workflow}"
    );
    assert!(
        workflow.contains("args: --profile dist --locked --out dist"),
        "{workflow}"
    );
    assert!(!workflow.contains("--release"), "{workflow}");

    let bench = fs::read_to_string(checkout().join("bench/bench.py")).unwrap();
    assert!(
        bench.contains(r#"["cargo", "build", "--profile", "dist"]"#),
        "bench/bench.py builds another profile"
    );
    for script in [
        "bench.py",
        "lsp.py",
        "autocontext_store.py",
        "output_memory.py",
    ] {
        let text = fs::read_to_string(checkout().join("bench").join(script)).unwrap();
        assert!(
            !text.contains("release/numi") && !text.contains("--release"),
            "bench/{script} names the release profile's build"
        );
    }
}

#[test]
fn init_below_the_top_of_a_git_repository_says_where_the_hook_goes() {
    let temp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(temp.path().join(".git")).unwrap();
    std::fs::create_dir_all(temp.path().join("services/api")).unwrap();
    let run = numi(&temp.path().join("services/api"), &["init", "."]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("numi: note: \".\" is inside the git repository")
            && run
                .stderr
                .contains("pre-commit reads .pre-commit-config.yaml"),
        "{}",
        run.stderr
    );
    let run = numi(temp.path(), &["init", "top"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr.contains("numi: note:"),
        "a subfolder: {}",
        run.stderr
    );
    std::fs::create_dir_all(temp.path().join("other")).unwrap();
    let run = numi(temp.path(), &["init", "."]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        !run.stderr.contains("numi: note:"),
        "the top: {}",
        run.stderr
    );
}

// --- release references

/// How a file names a release of numi: the text right before the version
/// and whether the version is the tag (`vX.Y.Z`) or bare (`X.Y.Z`).
const RELEASE_MARKERS: [(&str, bool); 7] = [
    ("numinance/numi@", true),
    ("--tag ", true),
    ("releases/download/", true),
    ("refs/tags/", true),
    ("numinance-numi==", false),
    ("numinance-numi@", false),
    ("version=", false),
];

/// The words after `marker` in `line`, as far as a version reaches.
fn version_after(line: &str, marker: &str) -> Vec<String> {
    line.match_indices(marker)
        .map(|(at, _)| {
            line[at + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '$'))
                .collect()
        })
        .collect()
}

/// Whether `word` is a version (`0.1.0`, `v0.1.0`) rather than a
/// placeholder (`X.Y.Z`, `v$version`) or a name.
fn is_concrete(word: &str) -> bool {
    word.strip_prefix('v')
        .unwrap_or(word)
        .starts_with(|c: char| c.is_ascii_digit())
}

/// Every release of numi `text` names, with its line: (line, as written,
/// whether it is this version's tag or version as the marker asks).
pub(crate) fn release_references(text: &str) -> Vec<(usize, String, bool)> {
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let mut found = Vec::new();
    let mut previous = "";
    for (index, line) in text.lines().enumerate() {
        let mut named: Vec<(String, bool)> = Vec::new();
        for (marker, tagged) in RELEASE_MARKERS {
            if marker == "version=" && !line.trim_start().starts_with(marker) {
                continue;
            }
            for word in version_after(line, marker) {
                let commit = word.len() == 40 && word.bytes().all(|b| b.is_ascii_hexdigit());
                if marker == "numinance/numi@" && commit {
                    // Pinned by commit: the version is its comment.
                    let comment = line.split_once(" # ").map_or("", |(_, rest)| rest);
                    named.push((comment.to_owned(), true));
                } else if is_concrete(&word) {
                    named.push((word, tagged));
                }
            }
        }
        // pre-commit names numi's tag as `rev:` under the repository's URL.
        if previous.contains("numinance/numi") {
            if let Some(rev) = line.trim_start().strip_prefix("rev: ") {
                named.push((rev.trim().to_owned(), true));
            }
        }
        for (word, tagged) in named {
            let right = if tagged {
                word == tag
            } else {
                word == env!("CARGO_PKG_VERSION")
            };
            found.push((index + 1, word, right));
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    found
}

/// The files a user reads or a tool takes numi's release from.
fn release_naming_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "action.yml",
        "action/install-numi.sh",
        ".pre-commit-hooks.yaml",
        "pyproject.toml",
        "Cargo.toml",
    ]
    .iter()
    .map(|name| checkout().join(name))
    .collect();
    let mut pages: Vec<PathBuf> = fs::read_dir(checkout().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files.extend(files_under(&checkout().join(".github/workflows")));
    files
}

/// What `numi init` writes and prints, with every CI system, a file that
/// exists printed as the part to add to it; and the files of the origin
/// this build does not write (a release's, or a build from source's).
fn init_output() -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let mut written = Vec::new();
    for ci in ["github-actions", "gitlab"] {
        let run = numi(dir.path(), &["init", ci, "--ci", ci]);
        assert_eq!(run.code, 0, "{}", run.transcript());
        let again = numi(dir.path(), &["init", ci, "--ci", ci]);
        written.push((format!("numi init --ci {ci}, again"), again.stdout));
        for (name, text) in tree(&dir.path().join(ci)) {
            written.push((format!("numi init --ci {ci}: {name}"), text));
        }
    }
    let release = Origin::Release {
        commit: "0123456789abcdef0123456789abcdef01234567",
    };
    for (origin, label) in [
        (release, "a release"),
        (Origin::Source, "a build from source"),
    ] {
        for ci in [Ci::GithubActions, Ci::Gitlab] {
            for template in init::templates(Some(ci), origin) {
                written.push((format!("{} of {label}", template.path), template.contents));
            }
        }
    }
    written
}

#[test]
fn every_release_named_is_this_versions_tag() {
    let mut texts: Vec<(String, String)> = release_naming_files()
        .into_iter()
        .map(|path| {
            let name = path.strip_prefix(checkout()).unwrap().display().to_string();
            (name, fs::read_to_string(&path).unwrap())
        })
        .collect();
    texts.extend(init_output());
    let mut stale = Vec::new();
    let mut named: BTreeMap<String, usize> = BTreeMap::new();
    for (name, text) in &texts {
        for (line, word, right) in release_references(text) {
            *named.entry(name.clone()).or_default() += 1;
            if !right {
                stale.push(format!("{name}:{line}: {word}"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "not v{} (Cargo.toml's version):\n{}",
        env!("CARGO_PKG_VERSION"),
        stale.join("\n")
    );
    // The scan reads the places that do name a release.
    for name in [
        "README.md",
        "docs/install.md",
        "docs/integrations.md",
        "numi init --ci github-actions: .github/workflows/numi.yml",
        "numi init --ci gitlab: .gitlab-ci.yml",
        "numi init --ci gitlab: .pre-commit-config.yaml",
        ".github/workflows/numi.yml of a release",
        ".github/workflows/numi.yml of a build from source",
        ".gitlab-ci.yml of a release",
        ".gitlab-ci.yml of a build from source",
        ".pre-commit-config.yaml of a release",
        ".pre-commit-config.yaml of a build from source",
    ] {
        assert!(
            named.contains_key(name),
            "{name} names no release: {named:?}"
        );
    }
}

#[test]
fn a_stale_release_reference_is_found_and_a_placeholder_is_not() {
    let version = env!("CARGO_PKG_VERSION");
    let stale = "\
- uses: numinance/numi@v0.0.9
- repo: https://github.com/numinance/numi
  rev: v0.0.9
cargo install --git https://github.com/numinance/numi --tag 0.0.9 numinance-numi
pip install numinance-numi==0.0.9
- uses: numinance/numi@0123456789abcdef0123456789abcdef01234567 # v0.0.9
";
    let found = release_references(stale);
    assert_eq!(found.len(), 5, "{found:?}");
    assert!(found.iter().all(|(_, _, right)| !right), "{found:?}");
    let current = stale.replace("0.0.9", version).replace("--tag ", "--tag v");
    let found = release_references(&current);
    assert_eq!(found.len(), 5, "{found:?}");
    assert!(found.iter().all(|(_, _, right)| *right), "{found:?}");
    let placeholders = "\
uses: numinance/numi@vX.Y.Z
pip install numinance-numi==X.Y.Z
curl $base/releases/download/v$version/x
- repo: https://github.com/pre-commit/pre-commit-hooks
  rev: v9.9.9
";
    assert_eq!(release_references(placeholders), []);
}

/// What docs/release.md says is published: the paragraphs of its
/// "Published releases" section.
fn published_releases() -> String {
    let page = fs::read_to_string(checkout().join("docs/release.md")).unwrap();
    let section = page
        .split_once("\n## Published releases\n")
        .expect("docs/release.md has a section \"Published releases\"")
        .1;
    section
        .split_once("\n## ")
        .map_or(section, |(before, _)| before)
        .trim()
        .to_owned()
}

#[test]
fn until_a_release_is_published_every_page_naming_it_says_so() {
    let status = published_releases();
    if !status.starts_with("None yet.") {
        // A release is out: the section names its tag.
        let tag = format!("`v{}`", env!("CARGO_PKG_VERSION"));
        assert!(status.contains(&tag), "published releases: {status}");
        return;
    }
    let mut silent = Vec::new();
    for path in release_naming_files() {
        let name = path.strip_prefix(checkout()).unwrap().display().to_string();
        if !name.ends_with(".md") || name == "docs/release.md" {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        if release_references(&text).is_empty() {
            continue;
        }
        let said = text.contains("release-only") || text.contains("Release-only");
        let linked = text.contains("release.md#published-releases");
        if !(said && linked) {
            silent.push(name);
        }
    }
    assert!(
        silent.is_empty(),
        "these pages name an unpublished release without calling it release-only \
         and linking docs/release.md#published-releases: {silent:?}"
    );
    // The route that works today comes first.
    let readme = fs::read_to_string(checkout().join("README.md")).unwrap();
    let from_checkout = readme.find("cargo install --locked --path .").unwrap();
    let first_release = release_references(&readme)[0].0;
    let checkout_line = readme[..from_checkout].lines().count();
    assert!(
        checkout_line < first_release,
        "README.md: the checkout route (line {checkout_line}) comes after a release route (line {first_release})"
    );
}

#[test]
fn the_release_workflow_runs_on_the_version_tag_alone_and_checks_it() {
    let workflow = load_yaml(&checkout().join(".github/workflows/release.yml"));
    assert_eq!(
        workflow["on"],
        serde_json::json!({"push": {"tags": ["v[0-9]+.[0-9]+.[0-9]+"]}})
    );
    // GitHub's filter: `[0-9]+` is one digit or more, `.` itself.
    let tag = numi::init::release_tag();
    let parts: Vec<&str> = tag.strip_prefix('v').unwrap().split('.').collect();
    assert_eq!(parts.len(), 3, "{tag}");
    assert!(
        parts
            .iter()
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit())),
        "{tag} does not match the release workflow's filter"
    );
    let text = fs::read_to_string(checkout().join(".github/workflows/release.yml")).unwrap();
    assert!(
        text.contains("if [ \"v$version\" != \"$TAG\" ]; then"),
        "{text}"
    );
}

/// Every URL of numi's own places points into this repository (a path it
/// holds, its releases) or at the registry name numi owns, never at a
/// name another project holds.
#[test]
fn every_url_naming_numi_points_into_the_repository_or_a_name_numi_owns() {
    let repository = env!("CARGO_PKG_REPOSITORY");
    let (_, owner_and_name) = repository.split_once("github.com/").unwrap();
    let owner = owner_and_name.split('/').next().unwrap();
    let mut texts: Vec<(String, String)> = release_naming_files()
        .into_iter()
        .map(|path| {
            (
                path.display().to_string(),
                fs::read_to_string(&path).unwrap(),
            )
        })
        .collect();
    texts.extend(init_output());
    let mut wrong = Vec::new();
    let mut ours = 0;
    for (name, text) in &texts {
        for (at, _) in text.match_indices("https://") {
            let url: String = text[at..]
                .chars()
                .take_while(|c| {
                    !c.is_whitespace() && !matches!(c, ')' | '`' | '"' | '\'' | '<' | '>' | ']')
                })
                .collect();
            let url = url.trim_end_matches(['.', ',', ':', ';']);
            let verdict =
                if let Some(path) = url.strip_prefix(&format!("https://github.com/{owner}/")) {
                    ours += 1;
                    let path = path.strip_prefix(owner_and_name.split('/').nth(1).unwrap());
                    match path {
                        Some("") => true,
                        Some(rest) if rest.starts_with("/releases") => true,
                        Some(rest) => ["/blob/main/", "/tree/main/"].iter().any(|prefix| {
                            rest.strip_prefix(prefix)
                                .is_some_and(|file| checkout().join(file).exists())
                        }),
                        None => false,
                    }
                } else if url.starts_with("https://pypi.org/") {
                    // numi's own project, `numinance-numi`.
                    let last = url.trim_end_matches('/').rsplit('/').next().unwrap();
                    ours += 1;
                    last == "numinance-numi"
                } else if url.starts_with("https://crates.io/crates/") {
                    // Crates numi uses, or its own; `numi` is another project's.
                    !url.trim_end_matches('/').ends_with("/numi")
                } else {
                    true
                };
            if !verdict {
                wrong.push(format!("{name}: {url}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(ours >= 10, "{ours} URLs of numi's own");
}
