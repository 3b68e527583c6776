//! End to end with a real editor: Neovim's built-in LSP client, headless,
//! on numi's server (Neovim 0.7 to 0.10: see tests/editor/nvim-diagnostics.lua).

use std::path::Path;

use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "nvim",
    install: ".ci/run installs the distribution's neovim package with apt-get",
    locate,
    tests: &[
        (
            "editor::neovim_applies_the_fix_all_code_action",
            neovim_applies_the_fix_all_code_action,
        ),
        (
            "editor::neovim_receives_the_diagnostics_at_their_lines_and_columns",
            neovim_receives_the_diagnostics_at_their_lines_and_columns,
        ),
        (
            "editor::a_workflow_beside_a_policy_gets_no_diagnostics",
            a_workflow_beside_a_policy_gets_no_diagnostics,
        ),
    ],
};

fn locate() -> Option<Program> {
    let nvim = Program::new("nvim");
    nvim.answers(&["--version"]).then_some(nvim)
}

/// Runs the Lua script in headless Neovim on a copy of `fixture`; with
/// `apply`, it also applies "fix all in file". Returns what it wrote.
fn run_neovim(nvim: &Program, fixture: &str, apply: bool) -> String {
    run_neovim_beside(nvim, fixture, apply, None)
}

/// [`run_neovim`], with `beside` (a name and its text) opened first in the
/// same editor and server.
fn run_neovim_beside(
    nvim: &Program,
    fixture: &str,
    apply: bool,
    beside: Option<(&str, &str)>,
) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().expect("a temporary folder");
    let file = scratch.path().join("editor-evalset.yaml");
    std::fs::copy(root.join("tests/fixtures/lsp").join(fixture), &file)
        .expect("the fixture is copied");
    let out = scratch.path().join("diagnostics.txt");
    let mut command = nvim.command();
    command
        .args(["--headless", "--clean", "-n", "-u", "NONE", "-c"])
        .arg(format!(
            "luafile {}",
            root.join("tests/editor/nvim-diagnostics.lua").display()
        ))
        .stdin(std::process::Stdio::null())
        .env("NUMI_LSP_BIN", env!("CARGO_BIN_EXE_numi"))
        .env("NUMI_LSP_FILE", &file)
        .env("NUMI_LSP_OUT", &out)
        .env("XDG_STATE_HOME", scratch.path())
        .env("XDG_DATA_HOME", scratch.path());
    if apply {
        command.env("NUMI_LSP_APPLY", "1");
    }
    if let Some((name, text)) = beside {
        let path = scratch.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("the folder is made");
        std::fs::write(&path, text).expect("the file beside is written");
        command.env("NUMI_LSP_BESIDE", &path);
    }
    let status = command.status().expect("nvim runs");
    let written = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(status.success(), "nvim failed ({status}): {written}");
    written
}

fn neovim_applies_the_fix_all_code_action(nvim: &Program) {
    let written = run_neovim(nvim, "editor-fixable.yaml", true);
    // The cases end up sorted, each with its own comment above it.
    insta::assert_snapshot!(written);
}

fn neovim_receives_the_diagnostics_at_their_lines_and_columns(nvim: &Program) {
    let written = run_neovim(nvim, "editor-evalset.yaml", false);
    // Line 7 holds "ünïcödé" before the case name: Neovim finds the name at
    // byte column 53 only if the server counted UTF-16 units (49).
    insta::assert_snapshot!(written, @r#"
    5:11 evalset/version `spec.version` must be a strict version: MAJOR.MINOR.PATCH, three numbers without leading zeros or suffix; got "1.0"
    7:24 evalset/outcome-digest `spec.cases[0].outcome.value` must be `sha256:` followed by 64 lowercase hex digits; got "sha256:ünïcödé"
    7:53 evalset/case-name `spec.cases[0].name` must be 1 to 64 characters of a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit; got "Bad_Name"
    hover: evalset/version
    "#);
}

fn a_workflow_beside_a_policy_gets_no_diagnostics(nvim: &Program) {
    let workflow = "name: ci\non: [push]\njobs:\n  test: {runs-on: ubuntu-latest, steps: []}\n";
    let written = run_neovim_beside(
        nvim,
        "editor-evalset.yaml",
        false,
        Some((".github/workflows/ci.yml", workflow)),
    );
    // The policy's findings arrived, and the workflow had none.
    assert!(
        written.contains("5:11 evalset/version") && written.contains("beside: 0 diagnostics\n"),
        "{written}"
    );
}
