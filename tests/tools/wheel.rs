//! The Python package (pyproject.toml, maturin's `bin` bindings), built and
//! used with the real tools: pip and maturin build the wheel, a fresh
//! virtual environment gets `numi` on its PATH from it, and the real
//! pre-commit installs the hook `numi init` writes from a release build
//! from that wheel with no Rust toolchain on the PATH. The sdist's file
//! list and the cargo-binstall metadata are checked too.
//!
//! `.ci/run` installs the tools at exact versions (no network at test time):
//! pip and maturin in `target/wheel-tools`, with the setuptools wheel that
//! pre-commit's placeholder package of a `repo: local` hook builds with in
//! `target/wheel-tools/find-links`, and pre-commit in `target/ci-tools`.
//! Without them its tests are reported ignored, and fail under `CI=true`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Instant;

use ::numi::init::{self, Origin};

use crate::pre_commit::RATE_PLAYBOOK;
use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "wheel tools",
    install: ".ci/run installs pip 26.3 and maturin 1.16.0 into target/wheel-tools, the setuptools wheel into target/wheel-tools/find-links, and pre-commit 4.7.0 into target/ci-tools",
    locate,
    tests: &[
        (
            "wheel::the_wheel_puts_numi_on_the_path_and_it_validates_the_examples",
            |_| {
                the_wheel_puts_numi_on_the_path().unwrap();
            },
        ),
        (
            "wheel::the_sdist_holds_what_the_build_needs_and_no_tests_or_corpora",
            |_| {
                the_sdist_holds_the_build_and_nothing_else().unwrap();
            },
        ),
        (
            "wheel::pre_commit_installs_the_hook_numi_init_writes_from_the_wheel_without_rust",
            |_| {
                pre_commit_installs_the_init_hook_from_the_wheel().unwrap();
            },
        ),
    ],
};

/// The pinned tools' Python, when every tool the wheel's tests need is there.
fn locate() -> Option<Program> {
    let needed = [
        wheel_tools().join("bin/python"),
        wheel_tools().join("bin/maturin"),
        wheel_tools().join("find-links"),
        pre_commit_program(),
    ];
    needed
        .iter()
        .all(|path| path.exists())
        .then(|| Program::new(wheel_tools().join("bin/python")))
}

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A Playbook whose `metadata.scope` is not one of the enum's values.
const TYPO_PLAYBOOK: &str = "apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: typo, scope: SCOPE_REOP}
spec: {change_type: bugfix}
";

fn checkout() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The virtual environment holding pip and maturin at the versions
/// `.ci/run` installs.
fn wheel_tools() -> PathBuf {
    checkout().join("target/wheel-tools")
}

fn pre_commit_program() -> PathBuf {
    checkout().join("target/ci-tools/bin/pre-commit")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A command that reads no user configuration of pip or cargo and reaches
/// no network.
fn offline(program: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .env("PIP_CONFIG_FILE", "/dev/null")
        .env("PIP_NO_INDEX", "1")
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .env("CARGO_NET_OFFLINE", "true");
    command
}

/// The wheel, built once per test run by pip through maturin (the build
/// backend pyproject.toml names) from the venv of pinned tools, into a
/// folder of its own. A fast release profile, as the pre-commit test's:
/// what is checked is the package, not the optimiser.
fn wheel() -> Result<&'static Path, String> {
    static WHEEL: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    WHEEL
        .get_or_init(build_wheel)
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(String::clone)
}

fn build_wheel() -> Result<PathBuf, String> {
    // Where cargo puts this test's own build, a CARGO_TARGET_DIR set
    // elsewhere included, never the checkout's target/ regardless.
    let dist = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wheel-test/dist");
    if dist.exists() {
        fs::remove_dir_all(&dist).map_err(|error| error.to_string())?;
    }
    fs::create_dir_all(&dist).map_err(|error| error.to_string())?;
    let tools_bin = wheel_tools().join("bin");
    let path = std::env::join_paths(std::iter::once(tools_bin.clone()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .map_err(|error| error.to_string())?;
    let started = Instant::now();
    let built = offline(&tools_bin.join("python"))
        .args(["-m", "pip", "wheel", "--no-build-isolation", "--no-deps"])
        .arg("--wheel-dir")
        .arg(&dist)
        .arg(checkout())
        .env("PATH", path)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("wheel-test/cargo"),
        )
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .output()
        .map_err(|error| format!("pip wheel did not start: {error}"))?;
    if !built.status.success() {
        return Err(format!("pip wheel failed:\n{}", text(&built)));
    }
    eprintln!("pip built the wheel in {:.0?}", started.elapsed());
    let wheels: Vec<PathBuf> = fs::read_dir(&dist)
        .map_err(|error| error.to_string())?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    match wheels.as_slice() {
        [wheel] => Ok(wheel.clone()),
        _ => Err(format!("pip wheel wrote {wheels:?}, not one wheel")),
    }
}

/// A fresh virtual environment with the wheel installed, offline.
fn install_into_fresh_venv(wheel: &Path, venv: &Path) -> Result<(), String> {
    let python = wheel_tools().join("bin/python");
    let created = offline(&python)
        .args(["-m", "venv", "--without-pip"])
        .arg(venv)
        .output()
        .map_err(|error| error.to_string())?;
    if !created.status.success() {
        return Err(format!("venv failed:\n{}", text(&created)));
    }
    let installed = offline(&python)
        .args(["-m", "pip", "--python"])
        .arg(venv.join("bin/python"))
        .args(["install", "--no-deps"])
        .arg(wheel)
        .output()
        .map_err(|error| error.to_string())?;
    if !installed.status.success() {
        return Err(format!("pip install failed:\n{}", text(&installed)));
    }
    Ok(())
}

/// `numi` by name, found on a PATH of the venv's scripts and the system's
/// folders only.
fn numi_on_path(venv: &Path, args: &[&str]) -> Output {
    Command::new("numi")
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", venv.join("bin").display()),
        )
        .current_dir(checkout())
        .args(args)
        .output()
        .expect("numi starts from the venv's PATH")
}

fn numi_built_by_cargo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_numi"))
        .current_dir(checkout())
        .args(args)
        .output()
        .expect("the test build of numi starts")
}

/// The wheel is named as PyPI expects, installs `numi` into a fresh
/// environment's PATH, and that `numi` is this version and validates as the
/// cargo build does: the shipped examples pass, a typo fails.
pub(crate) fn the_wheel_puts_numi_on_the_path() -> Result<(), String> {
    let wheel = wheel()?;
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    let prefix = format!("numinance_numi-{VERSION}-");
    if !(name.starts_with(&prefix) && name.ends_with(".whl")) {
        return Err(format!("the wheel is named {name}, not {prefix}*.whl"));
    }
    let temp = tempfile::tempdir().map_err(|error| error.to_string())?;
    let venv = temp.path().join("venv");
    install_into_fresh_venv(wheel, &venv)?;
    if !venv.join("bin/numi").is_file() {
        return Err("the wheel put no numi in the venv's bin/".to_owned());
    }

    let version = numi_on_path(&venv, &["--version"]);
    let expected = numi_built_by_cargo(&["--version"]);
    if !version.status.success() || version.stdout != expected.stdout {
        return Err(format!(
            "numi --version from the wheel:\n{}\nfrom cargo:\n{}",
            text(&version),
            text(&expected)
        ));
    }
    if !String::from_utf8_lossy(&version.stdout).starts_with(&format!("numi {VERSION}\n")) {
        return Err(format!("numi --version says:\n{}", text(&version)));
    }

    let examples = numi_on_path(&venv, &["validate", "--files", "examples"]);
    let expected = numi_built_by_cargo(&["validate", "--files", "examples"]);
    if examples.status.code() != Some(0)
        || examples.status.code() != expected.status.code()
        || examples.stdout != expected.stdout
    {
        return Err(format!(
            "numi validate --files examples from the wheel:\n{}\nfrom cargo:\n{}",
            text(&examples),
            text(&expected)
        ));
    }

    let typo = temp.path().join("typo.yaml");
    fs::write(&typo, TYPO_PLAYBOOK).map_err(|error| error.to_string())?;
    let typo = typo.to_string_lossy().into_owned();
    let refused = numi_on_path(&venv, &["validate", "--files", &typo]);
    let expected = numi_built_by_cargo(&["validate", "--files", &typo]);
    if refused.status.success()
        || refused.status.code() != expected.status.code()
        || !text(&refused).contains("/metadata/scope")
    {
        return Err(format!(
            "a typo passed the wheel's numi:\n{}",
            text(&refused)
        ));
    }
    Ok(())
}

/// maturin's sdist holds what a build from it needs (Cargo.toml's
/// `include` and pyproject.toml) and no tests, bench corpora or build
/// output.
pub(crate) fn the_sdist_holds_the_build_and_nothing_else() -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|error| error.to_string())?;
    let built = offline(&wheel_tools().join("bin/maturin"))
        .args(["sdist", "--out"])
        .arg(temp.path())
        .current_dir(checkout())
        .output()
        .map_err(|error| error.to_string())?;
    if !built.status.success() {
        return Err(format!("maturin sdist failed:\n{}", text(&built)));
    }
    let sdist = temp.path().join(format!("numinance_numi-{VERSION}.tar.gz"));
    let listed = offline(&wheel_tools().join("bin/python"))
        .args(["-m", "tarfile", "--list"])
        .arg(&sdist)
        .output()
        .map_err(|error| error.to_string())?;
    if !listed.status.success() {
        return Err(format!(
            "{} is not listed:\n{}",
            sdist.display(),
            text(&listed)
        ));
    }
    let root = format!("numinance_numi-{VERSION}/");
    let files: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter_map(|line| line.trim_end().strip_prefix(&root))
        .map(str::to_owned)
        .collect();
    for needed in [
        "pyproject.toml",
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "LICENSE",
        "src/main.rs",
        "src/lib.rs",
        "crates/numi-yaml/Cargo.toml",
        "crates/numi-yaml/src/lib.rs",
        "schemas/Playbook.schema.json",
        "examples/playbook-bugfix-bounded.yaml",
    ] {
        if !files.iter().any(|file| file == needed) {
            return Err(format!("the sdist leaves out {needed}: {files:?}"));
        }
    }
    let unwanted: Vec<&String> = files
        .iter()
        .filter(|file| {
            [
                "target/",
                "tests/",
                "bench/",
                "fuzz/",
                ".github/",
                "crates/numi-yaml/tests/",
            ]
            .iter()
            .any(|folder| file.starts_with(folder))
        })
        .collect();
    if !unwanted.is_empty() {
        return Err(format!("the sdist holds {unwanted:?}"));
    }
    Ok(())
}

/// A git repository in a temporary folder where pre-commit runs with its
/// own home, no user configuration, pip pointed at a local folder of
/// wheels and no index, and a PATH without cargo or rustc.
struct Project {
    _temp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    find_links: String,
}

impl Project {
    fn new(wheel: &Path) -> Result<Self, String> {
        let temp = tempfile::tempdir().map_err(|error| error.to_string())?;
        let root = temp.path().join("project");
        let home = temp.path().join("pre-commit-home");
        fs::create_dir(&root).map_err(|error| error.to_string())?;
        let find_links = format!(
            "{} {}",
            wheel.parent().unwrap().display(),
            wheel_tools().join("find-links").display()
        );
        let project = Project {
            _temp: temp,
            root,
            home,
            find_links,
        };
        project.git(&["init", "--quiet"])?;
        Ok(project)
    }

    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .current_dir(&self.root)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &self.home)
            .env("PRE_COMMIT_HOME", &self.home)
            .env("PRE_COMMIT_COLOR", "never")
            .env("NO_COLOR", "1")
            .env("PIP_CONFIG_FILE", "/dev/null")
            .env("PIP_NO_INDEX", "1")
            .env("PIP_FIND_LINKS", &self.find_links)
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
            .env("VIRTUALENV_OVERRIDE_APP_DATA", self.home.join("virtualenv"))
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "numi test")
            .env("GIT_AUTHOR_EMAIL", "numi@example.invalid")
            .env("GIT_COMMITTER_NAME", "numi test")
            .env("GIT_COMMITTER_EMAIL", "numi@example.invalid");
        command
    }

    fn git(&self, args: &[&str]) -> Result<Output, String> {
        let output = self
            .command(Path::new("/usr/bin/git"))
            .args(args)
            .output()
            .map_err(|error| format!("git did not start: {error}"))?;
        if output.status.success() {
            Ok(output)
        } else {
            Err(format!("git {args:?} failed:\n{}", text(&output)))
        }
    }

    fn pre_commit(&self, args: &[&str]) -> Result<Output, String> {
        self.git(&["add", "--all"])?;
        self.command(&pre_commit_program())
            .args(args)
            .output()
            .map_err(|error| format!("pre-commit did not start: {error}"))
    }

    fn write(&self, relative: &str, contents: &str) -> Result<(), String> {
        let path = self.root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).map_err(|error| error.to_string())?;
        fs::write(path, contents).map_err(|error| error.to_string())
    }

    fn remove(&self, relative: &str) -> Result<(), String> {
        fs::remove_file(self.root.join(relative)).map_err(|error| error.to_string())
    }
}

fn expect_run(project: &Project, passes: bool, shows: &str) -> Result<String, String> {
    let run = project.pre_commit(&["run", "--all-files"])?;
    let output = text(&run);
    if run.status.success() != passes || !output.contains(shows) {
        let expected = if passes { "pass" } else { "fail" };
        return Err(format!(
            "pre-commit run was to {expected} and show {shows:?}:\n{output}"
        ));
    }
    Ok(output)
}

/// The hook `numi init` writes from a release build, installed by the real
/// pre-commit from the wheel in a local folder with no index and no Rust
/// toolchain on the PATH: what init writes passes, a typo of an enum value fails, the gates
/// of `numi validate .` hold (an alpha kind is refused) and `args` reach
/// numi.
pub(crate) fn pre_commit_installs_the_init_hook_from_the_wheel() -> Result<(), String> {
    for tool in ["cargo", "rustc"] {
        if ["/usr/bin", "/bin"]
            .iter()
            .any(|folder| Path::new(folder).join(tool).exists())
        {
            return Err(format!("{tool} is in /usr/bin or /bin, on the hook's PATH"));
        }
    }
    let wheel = wheel()?;
    let project = Project::new(wheel)?;
    // What `numi init` writes from a release build; this test's numi may be
    // built from source, whose hook runs the numi on PATH instead
    // (tests/tools/pre_commit.rs).
    let release = Origin::Release {
        commit: "0123456789abcdef0123456789abcdef01234567",
    };
    init::write(&project.root, &init::templates(None, release), false)
        .map_err(|error| format!("the release's files were not written: {error:?}"))?;
    let config = fs::read_to_string(project.root.join(".pre-commit-config.yaml"))
        .map_err(|error| error.to_string())?;
    if !config.contains(&format!("[numinance-numi=={VERSION}]")) {
        return Err(format!("numi init pins no wheel:\n{config}"));
    }

    project.git(&["add", "--all"])?;
    let started = Instant::now();
    let installed = project.pre_commit(&["install-hooks"])?;
    if !installed.status.success() {
        return Err(format!(
            "pre-commit install-hooks failed:\n{}",
            text(&installed)
        ));
    }
    eprintln!(
        "pre-commit installed the numi hook from the wheel in {:.0?}",
        started.elapsed()
    );

    expect_run(&project, true, "numi validate")?;
    let passed = expect_run(&project, true, "Passed")?;
    if passed.contains("Failed") {
        return Err(passed);
    }

    let typo = ".numinance/policy/typo.yaml";
    project.write(typo, TYPO_PLAYBOOK)?;
    expect_run(&project, false, "repo \".numinance/policy/typo.yaml\"")?;
    expect_run(&project, false, "/metadata/scope")?;
    project.remove(typo)?;

    let evalset = ".numinance/policy/core-replay.yaml";
    let core_replay = fs::read_to_string(checkout().join("examples/core-replay.yaml"))
        .map_err(|error| error.to_string())?;
    project.write(evalset, &core_replay)?;
    expect_run(&project, false, "alpha kind is not enabled: EvalSet")?;
    project.remove(evalset)?;

    // The numi.toml init writes makes the hook strict: a rate of 20000
    // fails. Without it the reference's default holds, and `args` reach
    // numi.
    let rates = ".numinance/policy/rates.yaml";
    project.write(rates, RATE_PLAYBOOK)?;
    expect_run(
        &project,
        false,
        "a Playbook qualification rate is at most 10000 basis points",
    )?;
    project.remove("numi.toml")?;
    expect_run(&project, true, "Passed")?;
    let strict = config.replace(
        "        require_serial: true\n",
        "        require_serial: true\n        args: [--strict]\n",
    );
    project.write(".pre-commit-config.yaml", &strict)?;
    expect_run(
        &project,
        false,
        "a Playbook qualification rate is at most 10000 basis points",
    )?;
    Ok(())
}
