//! The SARIF of the format fixtures (every stage, a read error, a name that
//! needs escaping), of the credential fixtures and of a configuration tree
//! with a duplicate name (a result with a related location), checked by Microsoft's
//! SARIF validator, `sarif-multitool validate`, with its default rules and
//! with GitHub's (`--rule-kind "Gh;Ghas"`, what code scanning requires): no
//! error and no warning. `.ci/run` installs the validator (npm
//! `@microsoft/sarif-multitool-linux`, pinned) into target/sarif-multitool;
//! `NUMI_SARIF_MULTITOOL` names another binary.

use std::path::{Path, PathBuf};

use crate::common::{fixtures, numi};
use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
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
    let repository = tempfile::tempdir().expect("tempdir");
    let tree = repository.path().join(".numinance");
    std::fs::create_dir(&tree).expect("mkdir");
    for file in ["a.yaml", "b.yaml"] {
        let playbook = "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: same}\nspec: {change_type: bugfix}\n";
        std::fs::write(tree.join(file), playbook).expect("write");
    }
    let mut logs: Vec<(&str, String)> = runs
        .into_iter()
        .map(|(name, args)| {
            let mut all = vec!["validate", "--format", "sarif"];
            all.extend_from_slice(args);
            (name, numi(&fixtures(), &all).stdout)
        })
        .collect();
    let duplicate = numi(repository.path(), &["validate", "--format", "sarif"]).stdout;
    assert!(duplicate.contains("relatedLocations"), "{duplicate}");
    logs.push(("duplicate-name", duplicate));
    for (name, stdout) in logs {
        assert!(stdout.contains("\"runs\""), "{name}: {stdout}");
        let log = dir.path().join(format!("{name}.sarif"));
        std::fs::write(&log, &stdout).expect("write the log");
        for extra in [&[][..], &["--rule-kind", "Gh;Ghas"][..]] {
            assert_eq!(
                findings(tool, &log, extra),
                Vec::<String>::new(),
                "{name} {extra:?}"
            );
        }
    }
}
