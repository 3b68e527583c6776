//! The SARIF of the format fixtures (every stage, a read error, a name that
//! needs escaping) and of the credential fixtures, checked by Microsoft's
//! SARIF validator, `sarif-multitool validate`, with its default rules and
//! with GitHub's (`--rule-kind "Gh;Ghas"`, what code scanning requires): no
//! error and no warning. `.ci/run` installs the validator (npm
//! `@microsoft/sarif-multitool-linux`, pinned) into target/sarif-multitool;
//! `NUMI_SARIF_MULTITOOL` names another binary.

use std::path::{Path, PathBuf};

use crate::common::{fixtures, numi};
use crate::{Program, Tool};

pub const TOOL: Tool = Tool {
    name: "sarif-multitool",
    install: ".ci/run installs @microsoft/sarif-multitool-linux@5.7.0 with npm into target/sarif-multitool",
    locate,
    tests: &[(
        "sarif_multitool::the_validator_finds_no_error_and_no_warning",
        the_validator_finds_no_error_and_no_warning,
    )],
};

fn locate() -> Option<Program> {
    let path = std::env::var_os("NUMI_SARIF_MULTITOOL")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join(
                "target/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool",
            )
        });
    path.is_file().then(|| Program::new(path))
}

/// The validator's findings on `log`: each line that reports an error or
/// a warning.
fn findings(tool: &Program, log: &Path, extra: &[&str]) -> Vec<String> {
    let output = tool
        .command()
        .arg("validate")
        .arg(log)
        .args(extra)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .output()
        .expect("sarif-multitool runs");
    let console = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(
        console.contains("Analysis completed successfully"),
        "the validator ran to the end:\n{console}"
    );
    console
        .lines()
        .filter(|line| line.contains(": error ") || line.contains(": warning "))
        .map(str::to_owned)
        .collect()
}

fn the_validator_finds_no_error_and_no_warning(tool: &Program) {
    let dir = tempfile::tempdir().expect("tempdir");
    let runs: [(&str, &[&str]); 2] = [
        ("formats", &["--files", "formats", "missing.yaml"]),
        ("secrets", &["--files", "secrets", "pretty"]),
    ];
    for (name, args) in runs {
        let mut all = vec!["validate", "--format", "sarif"];
        all.extend_from_slice(args);
        let run = numi(&fixtures(), &all);
        assert!(run.stdout.contains("\"runs\""), "{}", run.stderr);
        let log = dir.path().join(format!("{name}.sarif"));
        std::fs::write(&log, &run.stdout).expect("write the log");
        for extra in [&[][..], &["--rule-kind", "Gh;Ghas"][..]] {
            assert_eq!(
                findings(tool, &log, extra),
                Vec::<String>::new(),
                "{name} {extra:?}"
            );
        }
    }
}
