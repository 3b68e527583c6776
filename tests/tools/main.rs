//! The tests that drive a real tool: pre-commit, Neovim, a terminal,
//! context-report, Microsoft's SARIF validator, autocontext's producer,
//! check-jsonschema and zizmor. Each tool is looked for once, before any
//! test runs. A test whose tool is found runs. One whose tool is missing is
//! reported as ignored, with the tool named and how `.ci/run` installs it,
//! unless `CI=true`: there it fails, so CI never passes without having run
//! it. `cargo test -- --include-ignored` runs the ignored ones too, and they
//! fail saying what is missing.
//!
//! This target has its own harness (`libtest-mimic`), since the built-in one
//! decides what is ignored when the tests are compiled, not when they run.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::print_stderr
)]

#[path = "../common/mod.rs"]
mod common;

mod autocontext;
mod ci_schemas;
mod context_report;
mod editor;
mod pre_commit;
mod sarif_multitool;
mod strace;
mod terminal;
mod wheel;
mod zizmor;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

use libtest_mimic::{Arguments, Failed, Trial};

/// How to start a tool: the program and the arguments that come before a
/// test's own (`python3 -m pre_commit`).
#[derive(Debug, Clone)]
pub struct Program {
    pub path: PathBuf,
    pub leading: Vec<OsString>,
}

impl Program {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Program {
            path: path.into(),
            leading: Vec::new(),
        }
    }

    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.path);
        command.args(&self.leading);
        command
    }

    /// Whether the program starts and exits with success given `args`.
    pub fn answers(&self, args: &[&str]) -> bool {
        self.command()
            .args(args)
            .output()
            .is_ok_and(|output| output.status.success())
    }
}

/// A test that needs `Program`.
pub type Test = fn(&Program);

/// A tool, how to find it, how to get it, and the tests that drive it.
pub struct Tool {
    /// The tool's name, which labels each of its tests in the runner's list.
    pub name: &'static str,
    /// Where the tool comes from, for the message when it is missing.
    pub install: &'static str,
    pub locate: fn() -> Option<Program>,
    /// Each test, named as `module::function`.
    pub tests: &'static [(&'static str, Test)],
}

const TOOLS: [&Tool; 10] = [
    &pre_commit::TOOL,
    &editor::TOOL,
    &terminal::TOOL,
    &context_report::TOOL,
    &sarif_multitool::TOOL,
    &autocontext::TOOL,
    &wheel::TOOL,
    &ci_schemas::TOOL,
    &zizmor::TOOL,
    &strace::TOOL,
];

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| value == "true")
}

/// The trials of `tool`: run when it is found; when it is missing, failed
/// under CI and ignored elsewhere (failing if run anyway).
fn trials(tool: &'static Tool, ci: bool) -> Vec<Trial> {
    let found = (tool.locate)();
    if found.is_none() && !ci {
        eprintln!(
            "{} is not installed: its tests are ignored ({})",
            tool.name, tool.install
        );
    }
    tool.tests
        .iter()
        .map(|&(name, test)| {
            let trial = match found.clone() {
                Some(program) => Trial::test(name, move || {
                    test(&program);
                    Ok(())
                }),
                None => Trial::test(name, move || {
                    Err(Failed::from(format!(
                        "{} is not installed{}: {}",
                        tool.name,
                        if ci { ", and CI=true needs it" } else { "" },
                        tool.install
                    )))
                }),
            };
            trial
                .with_kind(tool.name)
                .with_ignored_flag(found.is_none() && !ci)
        })
        .collect()
}

fn main() {
    let arguments = Arguments::from_args();
    let ci = under_ci();
    let trials = TOOLS
        .into_iter()
        .flat_map(|tool| trials(tool, ci))
        .collect();
    libtest_mimic::run(&arguments, trials).exit();
}
