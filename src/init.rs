//! `numi init`: the starter configuration tree, and writing what is missing
//! of it without ever overwriting a file unless asked to.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

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

/// Where numi is published from: the workflow `numi init` writes installs
/// numi from its release tag there. A fork sets its own in Cargo.toml.
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// The package numi is published as; the crates.io name `numi` belongs to
/// another project, so nothing installs that name.
pub const PACKAGE: &str = env!("CARGO_PKG_NAME");

/// actions/checkout pinned to the commit of its release (see docs/integrations.md).
pub const CHECKOUT_ACTION: &str =
    "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1";

/// The GitHub Actions workflow: builds this version of numi from its
/// release tag (never a crates.io name another project could hold) and
/// validates the configuration tree, with read-only permissions and no
/// third-party action.
pub fn github_actions_workflow() -> String {
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
      - run: cargo install --locked --git {repository} --tag v{version} {package}
      - run: numi validate .
",
        checkout = CHECKOUT_ACTION,
        repository = REPOSITORY,
        version = env!("CARGO_PKG_VERSION"),
        package = PACKAGE,
    )
}

pub const PLAYBOOK_PATH: &str = ".numinance/policy/playbook-bugfix-bounded.yaml";
pub const AUTONOMY_POLICY_PATH: &str = ".numinance/policy/autonomy-policy.yaml";
pub const PRE_COMMIT_CONFIG_PATH: &str = ".pre-commit-config.yaml";
pub const GITHUB_ACTIONS_WORKFLOW_PATH: &str = ".github/workflows/numi.yml";

/// A CI system `numi init` writes a workflow for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ci {
    GithubActions,
}

/// One file of the starter tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Path relative to the target folder, with `/` separators.
    pub path: &'static str,
    pub contents: String,
    /// Whether an existing file is kept even with `--force`: a
    /// repository's pre-commit configuration holds other hooks, so numi
    /// never replaces it.
    pub never_replace: bool,
}

/// The files `numi init` writes, in the order it writes them.
pub fn templates(ci: Option<Ci>) -> Vec<Template> {
    let mut templates = vec![
        Template {
            path: PLAYBOOK_PATH,
            contents: PLAYBOOK.to_owned(),
            never_replace: false,
        },
        Template {
            path: AUTONOMY_POLICY_PATH,
            contents: AUTONOMY_POLICY.to_owned(),
            never_replace: false,
        },
        Template {
            path: PRE_COMMIT_CONFIG_PATH,
            contents: pre_commit_config(),
            never_replace: true,
        },
    ];
    if ci == Some(Ci::GithubActions) {
        templates.push(Template {
            path: GITHUB_ACTIONS_WORKFLOW_PATH,
            contents: github_actions_workflow(),
            never_replace: false,
        });
    }
    templates
}

/// What happened to one template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Created(&'static str),
    Overwritten(&'static str),
    /// The file exists and is left as it is: without `--force`, or always
    /// for [`Template::never_replace`].
    Kept(&'static str),
}

/// Writing `path` failed; what was done before it is in `done`.
#[derive(Debug)]
pub struct InitError {
    pub done: Vec<Outcome>,
    pub path: &'static str,
    pub error: io::Error,
}

/// Writes the templates missing under `root` and keeps the files that exist
/// (a file a user edited is theirs), so `numi init` can be run again, to add
/// `--ci` later. `force` overwrites existing files, except those that are
/// never replaced.
pub fn write(root: &Path, templates: &[Template], force: bool) -> Result<Vec<Outcome>, InitError> {
    let mut outcomes = Vec::with_capacity(templates.len());
    for template in templates {
        let path = target(root, template.path);
        let present = fs::symlink_metadata(&path).is_ok();
        if present && (!force || template.never_replace) {
            outcomes.push(Outcome::Kept(template.path));
            continue;
        }
        let written = match path.parent() {
            Some(parent) => fs::create_dir_all(parent),
            None => Ok(()),
        }
        .and_then(|()| fs::write(&path, &template.contents));
        if let Err(error) = written {
            return Err(InitError {
                done: outcomes,
                path: template.path,
                error,
            });
        }
        outcomes.push(if present {
            Outcome::Overwritten(template.path)
        } else {
            Outcome::Created(template.path)
        });
    }
    Ok(outcomes)
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
    fn the_workflow_is_only_written_for_github_actions() {
        let paths = |ci| {
            templates(ci)
                .iter()
                .map(|template| template.path)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            paths(None),
            [PLAYBOOK_PATH, AUTONOMY_POLICY_PATH, PRE_COMMIT_CONFIG_PATH]
        );
        assert_eq!(
            paths(Some(Ci::GithubActions)).last(),
            Some(&GITHUB_ACTIONS_WORKFLOW_PATH)
        );
        assert!(github_actions_workflow().contains("numi validate .\n"));
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

    #[test]
    fn the_workflow_installs_numi_from_its_release_tag_and_never_the_name_numi() {
        let workflow = github_actions_workflow();
        let install = format!(
            "cargo install --locked --git {REPOSITORY} --tag v{} {PACKAGE}\n",
            env!("CARGO_PKG_VERSION")
        );
        assert!(workflow.contains(&install), "{workflow}");
        assert_ne!(PACKAGE, "numi");
        assert!(!workflow.contains("install --locked numi"), "{workflow}");
        assert!(
            REPOSITORY.starts_with("https://github.com/"),
            "{REPOSITORY}"
        );
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
