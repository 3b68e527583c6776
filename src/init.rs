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

/// Where the hook and the CI files `numi init` writes take numi from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// This version's published release: pre-commit and GitLab install its
    /// wheel from PyPI, GitHub runs numi's action pinned to `commit`, the
    /// tag's, which downloads the release binary.
    Release { commit: &'static str },
    /// A build from source, which cannot tell whether its version has been
    /// released: the hook runs the numi on `PATH` and the CI jobs build
    /// numi from its repository, so nothing needs a package that may not
    /// be published. Each file says in a comment what to change once the
    /// release is out.
    Source,
}

/// The origin this build writes into the hook and the CI files: the
/// release only when the release workflow built this numi for its tag
/// (the archives and the wheels are built there, and the tag's commit is
/// known); every other build is a build from source.
pub fn origin_of_this_build() -> Origin {
    match built_for_the_release_tag() {
        Some(commit) => Origin::Release { commit },
        None => Origin::Source,
    }
}

/// The pre-commit hook: the staged files of the configuration tree, with
/// the gates of `numi validate .`, so the hook and CI agree. From a
/// release, pre-commit installs this version's wheel from PyPI into the
/// hook's environment (`language: python`): seconds, and no Rust
/// toolchain, where the shipped `language: rust` hooks compile numi
/// (docs/integrations.md). From source, the numi on `PATH` runs it
/// (`language: system`, which every pre-commit version reads).
pub fn pre_commit_config(origin: Origin) -> String {
    let language = match origin {
        Origin::Release { .. } => format!(
            "        language: python\n        additional_dependencies: [{PACKAGE}=={version}]\n",
            version = env!("CARGO_PKG_VERSION"),
        ),
        Origin::Source => format!(
            "        # The numi on PATH runs this hook (from numi's checkout: cargo
        # install --locked --path .). Once {PACKAGE} {version} is on
        # PyPI, pre-commit can install it for the hook instead: replace
        # the next line with
        #   language: python
        #   additional_dependencies: [{PACKAGE}=={version}]
        language: system
",
            version = env!("CARGO_PKG_VERSION"),
        ),
    };
    format!(
        "\
repos:
  - repo: local
    hooks:
      - id: numi-validate
        name: numi validate
        entry: numi validate --only
{language}        files: ^\\.numinance/.*\\.ya?ml$
        require_serial: true
"
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

/// How a CI job written by a build from source gets numi: compiled from
/// the head of its repository's default branch, the one ref such a build
/// can name. The package is named so that the command still picks numi
/// once the repository holds more than one package.
fn cargo_install_from_repository() -> String {
    format!("cargo install --locked --git {REPOSITORY} {PACKAGE}")
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

/// The step that validates. From a release: numi's action pinned to the
/// tag's commit, as zizmor's `unpinned-uses` asks of every third-party
/// action. From source: the runner's cargo builds numi first, and the
/// comment gives the action's line for once the tag exists (a build from
/// source cannot know its commit).
fn validate_step(origin: Origin) -> String {
    let action = REPOSITORY
        .strip_prefix("https://github.com/")
        .unwrap_or(REPOSITORY);
    let tag = release_tag();
    match origin {
        Origin::Release { commit } => format!(
            "      - uses: {action}@{commit} # {tag}\n        with:\n          format: github # findings as annotations on their lines\n"
        ),
        Origin::Source => format!(
            "      # Builds numi from its repository (minutes). Once {tag} is released,
      # numi's action downloads its binary instead (seconds, findings as
      # annotations): replace this step with the line
      #   - uses: {action}@<commit> # {tag}
      # the commit being what
      # git ls-remote {REPOSITORY} 'refs/tags/{tag}^{{}}' prints.
      - name: numi validate
        run: |
          {install}
          numi validate . --format github
",
            install = cargo_install_from_repository(),
        ),
    }
}

/// The GitHub Actions workflow: validates the configuration tree and shows
/// each finding as an annotation on its line; read-only permissions, every
/// action pinned.
pub fn github_actions_workflow(origin: Origin) -> String {
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
{step}",
        checkout = CHECKOUT_ACTION,
        step = validate_step(origin),
    )
}

/// The Python image the GitLab job of a release runs in: pinned to a minor
/// version, one the wheel supports (docs/install.md).
pub const GITLAB_PYTHON_IMAGE: &str = "python:3.13-slim";

/// The Rust image the GitLab job of a build from source runs in: the newest
/// stable Rust, since the head of numi's default branch may need a newer
/// one than this build did. It holds the C compiler mimalloc needs.
pub const GITLAB_RUST_IMAGE: &str = "rust:1-slim";

/// The GitLab CI job: gets numi, then writes a Code Quality report,
/// uploaded whether or not numi finds something, while numi's exit status
/// fails the job. From a release it installs this version's wheel
/// (seconds, no Rust toolchain); from source it builds numi from its
/// repository, and says what to change once the wheel is on PyPI.
pub fn gitlab_ci_job(origin: Origin) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let pip = format!("python -m pip install --quiet {PACKAGE}=={version}");
    let head = match origin {
        Origin::Release { .. } => format!(
            "  image: {GITLAB_PYTHON_IMAGE}
  variables:
    PIP_DISABLE_PIP_VERSION_CHECK: \"1\"
  script:
    - {pip}
"
        ),
        Origin::Source => format!(
            "  # Builds numi from its repository (minutes). Once {PACKAGE} {version}
  # is on PyPI, its wheel installs in seconds with no Rust: use the image
  # {GITLAB_PYTHON_IMAGE} and replace the cargo line with
  #   - {pip}
  image: {GITLAB_RUST_IMAGE}
  script:
    - {install}
",
            install = cargo_install_from_repository(),
        ),
    };
    format!(
        "\
numi:
{head}    - numi validate . --format gitlab --output-file gl-code-quality-report.json
  artifacts:
    when: always
    reports:
      codequality: gl-code-quality-report.json
"
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
    /// What the user needs to know of the file once it is written, said
    /// beside its name: that it runs numi from somewhere they must put it,
    /// or that it changes what passes.
    pub note: Option<&'static str>,
}

impl Template {
    fn never_replace(&self) -> bool {
        self.shared_part.is_some()
    }
}

/// The files `numi init` writes, in the order it writes them, taking numi
/// from `origin` ([`origin_of_this_build`] for what this build writes).
pub fn templates(ci: Option<Ci>, origin: Origin) -> Vec<Template> {
    let from_source = origin == Origin::Source;
    let mut templates = vec![
        Template {
            path: PLAYBOOK_PATH,
            contents: PLAYBOOK.to_owned(),
            shared_part: None,
            note: None,
        },
        Template {
            path: AUTONOMY_POLICY_PATH,
            contents: AUTONOMY_POLICY.to_owned(),
            shared_part: None,
            note: None,
        },
        Template {
            path: NUMI_TOML_PATH,
            contents: NUMI_TOML.to_owned(),
            shared_part: None,
            note: Some("strict = true: producer-side checks fail a document"),
        },
        Template {
            path: PRE_COMMIT_CONFIG_PATH,
            contents: pre_commit_config(origin),
            shared_part: Some("hook"),
            note: from_source.then_some("the hook runs the numi on PATH"),
        },
    ];
    let built_in_ci = from_source.then_some("the job builds numi from source");
    match ci {
        Some(Ci::GithubActions) => templates.push(Template {
            path: GITHUB_ACTIONS_WORKFLOW_PATH,
            contents: github_actions_workflow(origin),
            shared_part: None,
            note: built_in_ci,
        }),
        Some(Ci::Gitlab) => templates.push(Template {
            path: GITLAB_CI_PATH,
            contents: gitlab_ci_job(origin),
            shared_part: Some("job"),
            note: built_in_ci,
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
            Err(unlanded) => return Err(failed(outcomes, unlanded.to_string())),
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
/// Why a template has no place to land inside the repository.
#[derive(Debug, thiserror::Error)]
enum Unlanded {
    #[error("{}: {} (a link that leads nowhere?); nothing written", .existing.display(), io_reason(.error))]
    Unresolved { existing: PathBuf, error: io::Error },
    #[error("{} leads out of the repository, to {} (a link); nothing written", .existing.display(), .resolved.display())]
    OutOfRepository {
        existing: PathBuf,
        resolved: PathBuf,
    },
}

fn landing_place(root: &Path, path: &Path) -> Result<PathBuf, Unlanded> {
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
    let resolved = fs::canonicalize(existing).map_err(|error| Unlanded::Unresolved {
        existing: existing.to_path_buf(),
        error,
    })?;
    if !resolved.starts_with(root) {
        return Err(Unlanded::OutOfRepository {
            existing: existing.to_path_buf(),
            resolved,
        });
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
            templates(ci, Origin::Source)
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
            templates(ci, RELEASE)
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
        let all = templates(Some(Ci::GithubActions), Origin::Source);
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
        let all = templates(Some(Ci::GithubActions), RELEASE);
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
    const RELEASE: Origin = Origin::Release { commit: COMMIT };

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
    fn the_workflow_of_a_release_uses_numis_action_pinned_to_the_tags_commit() {
        let pinned = github_actions_workflow(RELEASE);
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
        assert_ne!(PACKAGE, "numi");
    }

    #[test]
    fn the_workflow_of_a_build_from_source_builds_numi_and_names_the_action_for_later() {
        let built = github_actions_workflow(Origin::Source);
        insta::assert_snapshot!(with_version_placeholder(&built), @r"
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
              # Builds numi from its repository (minutes). Once v[version] is released,
              # numi's action downloads its binary instead (seconds, findings as
              # annotations): replace this step with the line
              #   - uses: numinance/numi@<commit> # v[version]
              # the commit being what
              # git ls-remote https://github.com/numinance/numi 'refs/tags/v[version]^{}' prints.
              - name: numi validate
                run: |
                  cargo install --locked --git https://github.com/numinance/numi numinance-numi
                  numi validate . --format github
        ");
        // Nothing in it needs the release: no step uses numi's action.
        let document = crate::yaml::load(&built, &Limits::default()).unwrap();
        let steps = document.value["jobs"]["validate"]["steps"]
            .as_array()
            .unwrap()
            .clone();
        let uses: Vec<&str> = steps
            .iter()
            .filter_map(|step| step["uses"].as_str())
            .collect();
        assert_eq!(uses, [CHECKOUT_ACTION.split(' ').next().unwrap()]);
        // The line the comment gives is the release's own, the commit left
        // to fill in; the action's `format` is `github` by default.
        let release = github_actions_workflow(RELEASE);
        let action = release
            .lines()
            .find(|line| line.contains("@0123456789abcdef"))
            .unwrap()
            .replace(COMMIT, "<commit>");
        let commented = action.replacen("      - ", "      #   - ", 1);
        assert!(built.contains(&format!("{commented}\n")), "{built}");
    }

    #[test]
    fn the_gitlab_job_of_a_release_installs_this_versions_wheel_and_keeps_the_report_of_a_failed_run()
     {
        let job = gitlab_ci_job(RELEASE);
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
    fn the_gitlab_job_of_a_build_from_source_builds_numi_and_names_the_wheel_for_later() {
        let job = gitlab_ci_job(Origin::Source);
        insta::assert_snapshot!(with_version_placeholder(&job), @r#"
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
        // The image and the line the comment gives are the release's own.
        let release = gitlab_ci_job(RELEASE);
        let document = crate::yaml::load(&release, &Limits::default()).unwrap();
        let pip = document.value["numi"]["script"][0].as_str().unwrap();
        let image = document.value["numi"]["image"].as_str().unwrap();
        assert!(job.contains(&format!("  #   - {pip}\n")), "{job}");
        assert!(
            job.contains(&format!("  # {image} and replace the cargo line with\n")),
            "{job}"
        );
    }

    #[test]
    fn the_pre_commit_hook_of_a_release_installs_this_versions_wheel_and_never_the_name_numi() {
        let config = pre_commit_config(RELEASE);
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
    fn the_pre_commit_hook_of_a_build_from_source_runs_the_numi_on_path() {
        let config = pre_commit_config(Origin::Source);
        insta::assert_snapshot!(with_version_placeholder(&config), @r"
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
        let document = crate::yaml::load(&config, &Limits::default()).unwrap();
        let hook = &document.value["repos"][0]["hooks"][0];
        assert!(hook.get("additional_dependencies").is_none(), "{config}");
        // The lines the comment gives are the release's own, so following
        // it gives the release's hook.
        let release = pre_commit_config(RELEASE);
        let commented: Vec<&str> = config
            .lines()
            .filter_map(|line| line.strip_prefix("        #   "))
            .collect();
        let followed = config
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .flat_map(|line| {
                if line == "        language: system" {
                    commented
                        .iter()
                        .map(|replacement| format!("        {replacement}\n"))
                        .collect()
                } else {
                    vec![format!("{line}\n")]
                }
            })
            .collect::<String>();
        assert_eq!(followed, release);
    }

    #[test]
    fn only_a_build_from_source_says_where_numi_comes_from() {
        let notes = |origin| {
            templates(Some(Ci::Gitlab), origin)
                .into_iter()
                .filter_map(|template| Some((template.path, template.note?)))
                .collect::<Vec<_>>()
        };
        let strict = (
            NUMI_TOML_PATH,
            "strict = true: producer-side checks fail a document",
        );
        assert_eq!(notes(RELEASE), [strict]);
        assert_eq!(
            notes(Origin::Source),
            [
                strict,
                (PRE_COMMIT_CONFIG_PATH, "the hook runs the numi on PATH"),
                (GITLAB_CI_PATH, "the job builds numi from source"),
            ]
        );
    }

    #[test]
    fn force_overwrites_but_keeps_the_pre_commit_configuration() {
        let root = folder();
        let all = templates(None, Origin::Source);
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
        let outcomes = write(root.path(), &templates(None, RELEASE), false).unwrap();
        assert_eq!(
            outcomes.last(),
            Some(&Outcome::Kept(PRE_COMMIT_CONFIG_PATH))
        );
        assert_eq!(fs::read_to_string(&pre_commit).unwrap(), "repos: []\n");
    }
}
