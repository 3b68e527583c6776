//! `numi init`: the starter configuration tree, and writing what is missing
//! of it without ever overwriting a file unless asked to.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::location::io_reason;
use crate::whole_file::Staged;

/// The qualification of the starter playbook: the values of the spec's
/// `numi init` template (rates in basis points: 1000 is 10 percent).
pub const PLAYBOOK: &str = "\
# A starting point to review, not a recommendation: rates are in basis points
# (max_rework_rate: 1000 is 10 percent, max_rollback_rate: 50 is 0.5 percent).
apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix-bounded, scope: SCOPE_REPO}
spec:
  change_type: bugfix
  max_repair_attempts: 2
  qualification: {min_runs: 20, max_rework_rate: 1000, max_regression_rate: 0, max_rollback_rate: 50, zero_security_escapes: true}
";

/// Every change is proposed as a pull request until a rule or a promotion
/// says otherwise.
pub const AUTONOMY_POLICY: &str = "\
apiVersion: numinance.dev/v1
kind: AutonomyPolicy
metadata: {name: repo-default, scope: SCOPE_REPO}
spec:
  defaults: {level: AUTONOMY_LEVEL_PR}
";

/// The repository's settings: a new repository starts strict, so the
/// producer-side checks (a rate above 10000 basis points, a qualification
/// that asks for no run, a credential in a ContextBundle's ref) fail a
/// document instead of warning. The bare command line keeps the
/// reference's default.
pub const NUMI_TOML: &str = "\
# numi's settings for this repository (docs/configuration.md).
# strict: the producer-side checks (a rate above 10000 basis points, a
# qualification that asks for no run, a credential in a ContextBundle ref)
# fail the document instead of warning.
strict = true
";

/// The pre-commit hook: the staged files of the configuration tree, with
/// the gates of `numi validate .`, so the hook and CI agree. pre-commit
/// installs this version's wheel from PyPI into the hook's environment
/// (`language: python`): seconds, and no Rust toolchain, where the shipped
/// `language: rust` hooks compile numi (docs/integrations.md).
pub fn pre_commit_config() -> String {
    format!(
        "\
repos:
  - repo: local
    hooks:
      - id: numi-validate
        name: numi validate
        entry: numi validate --only
        language: python
        additional_dependencies: [{package}=={version}]
        files: ^\\.numinance/.*\\.ya?ml$
        require_serial: true
",
        package = PACKAGE,
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// Where numi is published from: the workflows `numi init` writes install
/// numi from its releases there. A fork sets its own in Cargo.toml.
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// The package numi is published as; the crates.io name `numi` belongs to
/// another project, so nothing installs that name.
pub const PACKAGE: &str = env!("CARGO_PKG_NAME");

/// The release tag of this version: what the action, pre-commit's `rev:`
/// and `cargo install --tag` name (docs/release.md).
pub fn release_tag() -> String {
    format!("v{}", env!("CARGO_PKG_VERSION"))
}

/// actions/checkout pinned to the commit of its release (see docs/integrations.md).
pub const CHECKOUT_ACTION: &str =
    "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1";

/// The GitHub environment of the build, when it is a run of the release
/// workflow for this version's tag in numi's own repository: the release
/// archives and wheels are built there, and the commit of the tag is known.
/// Cargo rebuilds when these variables change.
fn built_for_the_release_tag() -> Option<&'static str> {
    release_commit(
        option_env!("GITHUB_SERVER_URL"),
        option_env!("GITHUB_REPOSITORY"),
        option_env!("GITHUB_REF"),
        option_env!("GITHUB_SHA"),
    )
}

/// The commit of this version's release tag, from the GitHub variables of
/// the build: only a tag push of `release_tag()` in [`REPOSITORY`] names it.
fn release_commit<'a>(
    server: Option<&str>,
    repository: Option<&str>,
    reference: Option<&str>,
    sha: Option<&'a str>,
) -> Option<&'a str> {
    let built_from = format!("{}/{}", server?, repository?);
    let tag = format!("refs/tags/{}", release_tag());
    let sha = sha?;
    let commit = sha.len() == 40 && sha.bytes().all(|byte| byte.is_ascii_hexdigit());
    (built_from == REPOSITORY && reference == Some(tag.as_str()) && commit).then_some(sha)
}

/// The `uses:` line of numi's action for this version. A release build
/// pins the tag's commit, as zizmor's `unpinned-uses` asks of every
/// third-party action; a build from source cannot know that commit (the
/// tag may not exist yet), so it names the tag and says how to pin it.
fn action_step(commit: Option<&str>) -> String {
    let action = REPOSITORY
        .strip_prefix("https://github.com/")
        .unwrap_or(REPOSITORY);
    let tag = release_tag();
    match commit {
        Some(commit) => format!("      - uses: {action}@{commit} # {tag}\n"),
        None => format!(
            "      # Pin the action to the tag's commit, as for any action:\n      # {action}@<commit> # {tag}, the commit being what\n      # git ls-remote {REPOSITORY} 'refs/tags/{tag}^{{}}' prints.\n      - uses: {action}@{tag} # zizmor: ignore[unpinned-uses]\n"
        ),
    }
}

/// The GitHub Actions workflow: numi's action, which downloads this
/// version's release binary checked against the release's SHA-256 sums,
/// validates the configuration tree and shows each finding as an
/// annotation on its line; read-only permissions, every action pinned.
pub fn github_actions_workflow() -> String {
    github_actions_workflow_pinned(built_for_the_release_tag())
}

fn github_actions_workflow_pinned(commit: Option<&str>) -> String {
    format!(
        "\
name: numi
on: [push, pull_request]
permissions: {{}}
concurrency:
  group: ${{{{ github.workflow }}}}-${{{{ github.ref }}}}
  cancel-in-progress: true
jobs:
  validate:
    name: numi validate
    runs-on: ubuntu-latest
    permissions:
      contents: read # the checkout
    steps:
      - uses: {checkout}
        with:
          persist-credentials: false
{action}        with:
          format: github # findings as annotations on their lines
",
        checkout = CHECKOUT_ACTION,
        action = action_step(commit),
    )
}

/// The Python image the GitLab job runs in: pinned to a minor version, one
/// the wheel supports (docs/install.md).
pub const GITLAB_PYTHON_IMAGE: &str = "python:3.13-slim";

/// The GitLab CI job: installs this version's wheel (seconds, no Rust
/// toolchain) and writes a Code Quality report, uploaded whether or not
/// numi finds something, while numi's exit status fails the job.
pub fn gitlab_ci_job() -> String {
    format!(
        "\
numi:
  image: {image}
  variables:
    PIP_DISABLE_PIP_VERSION_CHECK: \"1\"
  script:
    - python -m pip install --quiet {package}=={version}
    - numi validate . --format gitlab --output-file gl-code-quality-report.json
  artifacts:
    when: always
    reports:
      codequality: gl-code-quality-report.json
",
        image = GITLAB_PYTHON_IMAGE,
        package = PACKAGE,
        version = env!("CARGO_PKG_VERSION"),
    )
}

pub const PLAYBOOK_PATH: &str = ".numinance/policy/playbook-bugfix-bounded.yaml";
pub const AUTONOMY_POLICY_PATH: &str = ".numinance/policy/autonomy-policy.yaml";
pub const PRE_COMMIT_CONFIG_PATH: &str = ".pre-commit-config.yaml";
pub const NUMI_TOML_PATH: &str = "numi.toml";
pub const GITHUB_ACTIONS_WORKFLOW_PATH: &str = ".github/workflows/numi.yml";
pub const GITLAB_CI_PATH: &str = ".gitlab-ci.yml";

/// A CI system `numi init` writes a workflow for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ci {
    GithubActions,
    Gitlab,
}

/// One file of the starter tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Path relative to the target folder, with `/` separators.
    pub path: &'static str,
    pub contents: String,
    /// Set for a file that holds more than numi's part (pre-commit's other
    /// hooks, GitLab's other jobs): numi never replaces an existing one,
    /// even with `--force`, and prints the part to add to it, named by
    /// this word (`hook`, `job`).
    pub shared_part: Option<&'static str>,
}

impl Template {
    fn never_replace(&self) -> bool {
        self.shared_part.is_some()
    }
}

/// The files `numi init` writes, in the order it writes them.
pub fn templates(ci: Option<Ci>) -> Vec<Template> {
    let mut templates = vec![
        Template {
            path: PLAYBOOK_PATH,
            contents: PLAYBOOK.to_owned(),
            shared_part: None,
        },
        Template {
            path: AUTONOMY_POLICY_PATH,
            contents: AUTONOMY_POLICY.to_owned(),
            shared_part: None,
        },
        Template {
            path: NUMI_TOML_PATH,
            contents: NUMI_TOML.to_owned(),
            shared_part: None,
        },
        Template {
            path: PRE_COMMIT_CONFIG_PATH,
            contents: pre_commit_config(),
            shared_part: Some("hook"),
        },
    ];
    match ci {
        Some(Ci::GithubActions) => templates.push(Template {
            path: GITHUB_ACTIONS_WORKFLOW_PATH,
            contents: github_actions_workflow(),
            shared_part: None,
        }),
        Some(Ci::Gitlab) => templates.push(Template {
            path: GITLAB_CI_PATH,
            contents: gitlab_ci_job(),
            shared_part: Some("job"),
        }),
        None => {}
    }
    templates
}

/// What happened to one template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Created(&'static str),
    Overwritten(&'static str),
    /// The file exists and is left as it is: without `--force`, or always
    /// for a file with a [`Template::shared_part`].
    Kept(&'static str),
}

/// Writing `path` failed, or was refused; what was done before it is in
/// `done`, and `path` itself is as it was.
#[derive(Debug)]
pub struct InitError {
    pub done: Vec<Outcome>,
    pub path: &'static str,
    pub reason: String,
}

/// Writes the templates missing under `root` and keeps the files that exist
/// (a file a user edited is theirs), so `numi init` can be run again, to add
/// `--ci` later. `force` overwrites existing files, except those that are
/// never replaced. Each file is written whole or not at all
/// (`whole_file`), and never through a link that leads out of `root`
/// (a `.numinance` or `.github` folder linked elsewhere, or a file link).
pub fn write(root: &Path, templates: &[Template], force: bool) -> Result<Vec<Outcome>, InitError> {
    let mut outcomes = Vec::with_capacity(templates.len());
    // The folder named is the user's to make, links and all.
    let root_place = fs::create_dir_all(root).and_then(|()| fs::canonicalize(root));
    for template in templates {
        let failed = |done: Vec<Outcome>, reason: String| InitError {
            done,
            path: template.path,
            reason,
        };
        let path = target(root, template.path);
        let present = fs::symlink_metadata(&path).is_ok();
        if present && (!force || template.never_replace()) {
            outcomes.push(Outcome::Kept(template.path));
            continue;
        }
        let root_place = match &root_place {
            Ok(place) => place,
            Err(error) => return Err(failed(outcomes, io_reason(error))),
        };
        let landing = match landing_place(root_place, &path) {
            Ok(landing) => landing,
            Err(reason) => return Err(failed(outcomes, reason)),
        };
        match write_whole(&landing, &template.contents, present) {
            Ok(()) => outcomes.push(if present {
                Outcome::Overwritten(template.path)
            } else {
                Outcome::Created(template.path)
            }),
            // Made by someone else since it was looked for: theirs.
            Err(error) if !present && error.kind() == io::ErrorKind::AlreadyExists => {
                outcomes.push(Outcome::Kept(template.path));
            }
            Err(error) => {
                return Err(failed(
                    outcomes,
                    format!("{}; nothing written", io_reason(&error)),
                ));
            }
        }
    }
    Ok(outcomes)
}

/// Writes `contents` at `landing` whole: over the file there when
/// `replacing`, else only where no file is.
fn write_whole(landing: &Path, contents: &str, replacing: bool) -> io::Result<()> {
    if let Some(folder) = landing.parent() {
        fs::create_dir_all(folder)?;
    }
    let mut staged = Staged::beside(landing)?;
    staged.write_all(contents.as_bytes())?;
    if replacing {
        staged.commit()
    } else {
        staged.commit_new()
    }
}

/// Where a write to `path` lands once the links on its way are followed,
/// when that place lies within `root` (resolved): the part of `path` that
/// exists is resolved, and what does not exist yet is made inside it.
fn landing_place(root: &Path, path: &Path) -> Result<PathBuf, String> {
    let mut existing = path;
    let mut missing = Vec::new();
    while fs::symlink_metadata(existing).is_err() {
        let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
            break;
        };
        missing.push(name);
        existing = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
    }
    let resolved = fs::canonicalize(existing).map_err(|error| {
        format!(
            "{}: {} (a link that leads nowhere?); nothing written",
            existing.display(),
            io_reason(&error)
        )
    })?;
    if !resolved.starts_with(root) {
        return Err(format!(
            "{} leads out of the repository, to {} (a link); nothing written",
            existing.display(),
            resolved.display()
        ));
    }
    Ok(missing
        .into_iter()
        .rev()
        .fold(resolved, |place, name| place.join(name)))
}

fn target(root: &Path, relative: &str) -> PathBuf {
    relative
        .split('/')
        .fold(root.to_path_buf(), |path, part| path.join(part))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;
    use crate::validate::{Mode, validate_bytes};
    use crate::yaml::Limits;

    fn folder() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    #[test]
    fn the_starter_documents_are_valid_configuration() {
        for text in [PLAYBOOK, AUTONOMY_POLICY] {
            let mode = Mode::Repository {
                enable_alpha: false,
            };
            let checked = validate_bytes(text.as_bytes(), mode, &Limits::default());
            assert_eq!(checked.errors().count(), 0, "{text}");
        }
    }

    #[test]
    fn the_playbook_carries_the_spec_qualification() {
        let document = crate::yaml::load(PLAYBOOK, &Limits::default()).unwrap();
        let spec = &document.value["spec"];
        assert_eq!(spec["change_type"], "bugfix");
        assert_eq!(spec["max_repair_attempts"], 2);
        let qualification = &spec["qualification"];
        assert_eq!(qualification["min_runs"], 20);
        assert_eq!(qualification["max_rework_rate"], 1000);
        assert_eq!(qualification["max_regression_rate"], 0);
        assert_eq!(qualification["max_rollback_rate"], 50);
        assert_eq!(qualification["zero_security_escapes"], true);
        let policy = crate::yaml::load(AUTONOMY_POLICY, &Limits::default()).unwrap();
        assert_eq!(
            policy.value["spec"]["defaults"]["level"],
            "AUTONOMY_LEVEL_PR"
        );
    }

    #[test]
    fn a_ci_file_is_only_written_for_its_system() {
        let paths = |ci| {
            templates(ci)
                .iter()
                .map(|template| template.path)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            paths(None),
            [
                PLAYBOOK_PATH,
                AUTONOMY_POLICY_PATH,
                NUMI_TOML_PATH,
                PRE_COMMIT_CONFIG_PATH
            ]
        );
        assert_eq!(
            paths(Some(Ci::GithubActions)).last(),
            Some(&GITHUB_ACTIONS_WORKFLOW_PATH)
        );
        assert_eq!(paths(Some(Ci::Gitlab)).last(), Some(&GITLAB_CI_PATH));
        let shared = |ci| {
            templates(ci)
                .into_iter()
                .filter(|template| template.never_replace())
                .map(|template| template.path)
                .collect::<Vec<_>>()
        };
        assert_eq!(shared(Some(Ci::GithubActions)), [PRE_COMMIT_CONFIG_PATH]);
        assert_eq!(
            shared(Some(Ci::Gitlab)),
            [PRE_COMMIT_CONFIG_PATH, GITLAB_CI_PATH]
        );
    }

    #[test]
    fn writes_every_file_into_an_empty_folder() {
        let root = folder();
        let all = templates(Some(Ci::GithubActions));
        let outcomes = write(root.path(), &all, false).unwrap();
        assert_eq!(
            outcomes,
            all.iter()
                .map(|template| Outcome::Created(template.path))
                .collect::<Vec<_>>()
        );
        for template in &all {
            let written = fs::read_to_string(target(root.path(), template.path)).unwrap();
            assert_eq!(written, template.contents);
        }
    }

    #[test]
    fn an_existing_file_is_kept_and_the_missing_ones_written() {
        let root = folder();
        let all = templates(Some(Ci::GithubActions));
        let playbook = target(root.path(), PLAYBOOK_PATH);
        fs::create_dir_all(playbook.parent().unwrap()).unwrap();
        fs::write(&playbook, "mine\n").unwrap();

        let outcomes = write(root.path(), &all, false).unwrap();
        assert_eq!(
            outcomes,
            [
                Outcome::Kept(PLAYBOOK_PATH),
                Outcome::Created(AUTONOMY_POLICY_PATH),
                Outcome::Created(NUMI_TOML_PATH),
                Outcome::Created(PRE_COMMIT_CONFIG_PATH),
                Outcome::Created(GITHUB_ACTIONS_WORKFLOW_PATH),
            ]
        );
        assert_eq!(fs::read_to_string(&playbook).unwrap(), "mine\n");
        let again = write(root.path(), &all, false).unwrap();
        assert!(
            again
                .iter()
                .all(|outcome| matches!(outcome, Outcome::Kept(_))),
            "{again:?}"
        );
    }

    const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn only_a_release_build_of_this_tag_in_numis_repository_knows_the_commit() {
        let (server, repository) = REPOSITORY.rsplit_once('/').unwrap();
        let (server, owner) = server.rsplit_once('/').unwrap();
        let repository = format!("{owner}/{repository}");
        let tag = format!("refs/tags/{}", release_tag());
        let commit = |server: &str, repository: &str, reference: &str, sha: &'static str| {
            release_commit(Some(server), Some(repository), Some(reference), Some(sha))
        };
        assert_eq!(commit(server, &repository, &tag, COMMIT), Some(COMMIT));
        assert_eq!(commit(server, "someone/fork", &tag, COMMIT), None);
        assert_eq!(commit(server, &repository, "refs/heads/main", COMMIT), None);
        assert_eq!(
            commit(server, &repository, "refs/tags/v0.0.0-rc", COMMIT),
            None
        );
        assert_eq!(
            commit("https://gitlab.example", &repository, &tag, COMMIT),
            None
        );
        assert_eq!(commit(server, &repository, &tag, "main"), None);
        assert_eq!(release_commit(None, None, None, None), None);
    }

    /// The workflow with this version's number as `[version]`, so a
    /// release does not rewrite the snapshots.
    fn with_version_placeholder(workflow: &str) -> String {
        workflow.replace(env!("CARGO_PKG_VERSION"), "[version]")
    }

    #[test]
    fn the_workflow_uses_numis_action_pinned_to_the_tags_commit_when_known() {
        let pinned = github_actions_workflow_pinned(Some(COMMIT));
        insta::assert_snapshot!(with_version_placeholder(&pinned), @r"
        name: numi
        on: [push, pull_request]
        permissions: {}
        concurrency:
          group: ${{ github.workflow }}-${{ github.ref }}
          cancel-in-progress: true
        jobs:
          validate:
            name: numi validate
            runs-on: ubuntu-latest
            permissions:
              contents: read # the checkout
            steps:
              - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1
                with:
                  persist-credentials: false
              - uses: numinance/numi@0123456789abcdef0123456789abcdef01234567 # v[version]
                with:
                  format: github # findings as annotations on their lines
        ");
        let tagged = github_actions_workflow_pinned(None);
        insta::assert_snapshot!(with_version_placeholder(&tagged), @r"
        name: numi
        on: [push, pull_request]
        permissions: {}
        concurrency:
          group: ${{ github.workflow }}-${{ github.ref }}
          cancel-in-progress: true
        jobs:
          validate:
            name: numi validate
            runs-on: ubuntu-latest
            permissions:
              contents: read # the checkout
            steps:
              - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1
                with:
                  persist-credentials: false
              # Pin the action to the tag's commit, as for any action:
              # numinance/numi@<commit> # v[version], the commit being what
              # git ls-remote https://github.com/numinance/numi 'refs/tags/v[version]^{}' prints.
              - uses: numinance/numi@v[version] # zizmor: ignore[unpinned-uses]
                with:
                  format: github # findings as annotations on their lines
        ");
        assert_ne!(PACKAGE, "numi");
    }

    #[test]
    fn the_gitlab_job_installs_this_versions_wheel_and_keeps_the_report_of_a_failed_run() {
        let job = gitlab_ci_job();
        let document = crate::yaml::load(&job, &Limits::default()).unwrap();
        let numi = &document.value["numi"];
        assert_eq!(numi["image"], GITLAB_PYTHON_IMAGE);
        let pinned = format!(
            "python -m pip install --quiet numinance-numi=={}",
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(
            numi["script"],
            serde_json::json!([
                pinned,
                "numi validate . --format gitlab --output-file gl-code-quality-report.json"
            ])
        );
        assert_eq!(numi["artifacts"]["when"], "always");
        assert_eq!(
            numi["artifacts"]["reports"]["codequality"],
            "gl-code-quality-report.json"
        );
        assert!(numi.get("allow_failure").is_none(), "{job}");
    }

    #[test]
    fn the_pre_commit_hook_installs_this_versions_wheel_and_never_the_name_numi() {
        let config = pre_commit_config();
        let document = crate::yaml::load(&config, &Limits::default()).unwrap();
        let hook = &document.value["repos"][0]["hooks"][0];
        assert_eq!(hook["language"], "python");
        assert_eq!(hook["entry"], "numi validate --only");
        let pinned = format!("numinance-numi=={}", env!("CARGO_PKG_VERSION"));
        assert_eq!(
            hook["additional_dependencies"],
            serde_json::json!([pinned]),
            "{config}"
        );
        assert_eq!(hook["files"], "^\\.numinance/.*\\.ya?ml$");
        assert!(!config.contains("[numi=="), "{config}");
    }

    #[test]
    fn force_overwrites_but_keeps_the_pre_commit_configuration() {
        let root = folder();
        let all = templates(None);
        let playbook = target(root.path(), PLAYBOOK_PATH);
        fs::create_dir_all(playbook.parent().unwrap()).unwrap();
        fs::write(&playbook, "mine\n").unwrap();
        let pre_commit = root.path().join(PRE_COMMIT_CONFIG_PATH);
        fs::write(&pre_commit, "repos: []\n").unwrap();

        let outcomes = write(root.path(), &all, true).unwrap();
        assert_eq!(
            outcomes,
            [
                Outcome::Overwritten(PLAYBOOK_PATH),
                Outcome::Created(AUTONOMY_POLICY_PATH),
                Outcome::Created(NUMI_TOML_PATH),
                Outcome::Kept(PRE_COMMIT_CONFIG_PATH),
            ]
        );
        assert_eq!(fs::read_to_string(&playbook).unwrap(), PLAYBOOK);
        assert_eq!(fs::read_to_string(&pre_commit).unwrap(), "repos: []\n");
    }

    #[test]
    fn an_existing_pre_commit_configuration_is_kept() {
        let root = folder();
        let pre_commit = root.path().join(PRE_COMMIT_CONFIG_PATH);
        fs::write(&pre_commit, "repos: []\n").unwrap();
        let outcomes = write(root.path(), &templates(None), false).unwrap();
        assert_eq!(
            outcomes.last(),
            Some(&Outcome::Kept(PRE_COMMIT_CONFIG_PATH))
        );
        assert_eq!(fs::read_to_string(&pre_commit).unwrap(), "repos: []\n");
    }
}
