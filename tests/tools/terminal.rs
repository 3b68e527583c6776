//! `--format pretty` on a real terminal: util-linux's `script` runs numi on
//! a pseudo-terminal of a set size, so the width numi reads is the
//! terminal's own, as on a user's screen.

use crate::common::fixtures;
use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "script",
    install: "util-linux's script, in the essential bsdutils package of Debian and Ubuntu",
    locate,
    tests: &[(
        "terminal::pretty_wraps_to_the_width_of_the_terminal",
        pretty_wraps_to_the_width_of_the_terminal,
    )],
};

fn locate() -> Option<Program> {
    let script = Program::new("script");
    script.answers(&["--version"]).then_some(script)
}

/// What numi prints with `--format pretty` on `evalset-flow.yaml` in a
/// terminal of `columns` columns, line ends as the terminal writes them
/// made `\n`.
fn pretty_in_a_terminal(script: &Program, columns: usize) -> String {
    let command = format!(
        "stty rows 40 cols {columns}; '{}' validate --format pretty --color never --files evalset-flow.yaml",
        env!("CARGO_BIN_EXE_numi")
    );
    let output = script
        .command()
        .args(["-qec", &command, "/dev/null"])
        .current_dir(fixtures().join("pretty"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    String::from_utf8_lossy(&output.stdout).replace("\r\n", "\n")
}

const HEADLINE: &str =
    r#"  × "/metadata/scope": expected one of ["SCOPE_ORG","SCOPE_TEAM","SCOPE_REPO"]"#;

fn pretty_wraps_to_the_width_of_the_terminal(script: &Program) {
    let narrow = pretty_in_a_terminal(script, 60);
    assert!(narrow.contains("schema/enum"), "{narrow}");
    // 78 columns at 60: the list breaks after a value.
    assert!(
        narrow.contains("  × \"/metadata/scope\": expected one of [\"SCOPE_ORG\",\n  │ \"SCOPE_TEAM\",\"SCOPE_REPO\"]"),
        "{narrow}"
    );
    for line in narrow.lines().filter(|line| line.starts_with("  help: ")) {
        assert!(numi::text::columns(line) <= 60, "{line}\n{narrow}");
    }
    // A terminal wide enough leaves it on one line.
    let wide = pretty_in_a_terminal(script, 120);
    assert!(wide.lines().any(|line| line == HEADLINE), "{wide}");
}
