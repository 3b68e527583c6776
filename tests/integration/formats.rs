//! Every `--format` on one fixture set (tests/fixtures/formats/: schema
//! violations and rule failures, several per file, in block and flow style,
//! an ok document, a YAML error and a name that needs escaping) plus a path
//! that does not exist. JSON and SARIF outputs are checked against their
//! schemas, JUnit against an XML parser.

#![allow(
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used
)]

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{Run, fixtures, numi};
use serde_json::Value;

/// The fixture folder and a path that cannot be read, from tests/fixtures,
/// so every path in the output is relative.
const ARGS: &[&str] = &["--files", "formats", "missing.yaml"];

fn run_format(format: &str) -> Run {
    let mut args = vec!["validate", "--format", format];
    args.extend_from_slice(ARGS);
    numi(&fixtures(), &args)
}

/// The output with this build's version replaced, so snapshots outlive a release.
fn stable(text: &str) -> String {
    text.replace(
        &format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")),
        "\"version\": \"[version]\"",
    )
}

fn schema_errors(schema: &Value, instance: &Value) -> Vec<String> {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the schema compiles");
    validator
        .iter_errors(instance)
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

fn report_schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/report.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("report schema")).expect("JSON")
}

/// The SARIF 2.1.0 schema as serde-sarif ships it. Its two `language`
/// patterns hold a stray `]` that jsonschema's strict regex check refuses at
/// compile time; they are replaced by the pattern they mean. numi writes no
/// `language`, so nothing it writes is checked by them.
fn sarif_schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(path).expect("SARIF schema");
    let text = text.replace(
        r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#,
        r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#,
    );
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn text_is_the_default_and_unchanged() {
    let default = numi(&fixtures(), &[&["validate"], ARGS].concat());
    let text = run_format("text");
    assert_eq!(default.stdout, text.stdout);
    assert_eq!(default.code, text.code);
    insta::assert_snapshot!("text", text.transcript());
}

#[test]
fn json_report() {
    let run = run_format("json");
    assert_eq!(run.code, 1, "a path that cannot be read");
    insta::assert_snapshot!("json", run.transcript());
}

#[test]
fn json_report_matches_its_schema() {
    let report: Value =
        serde_json::from_str(&run_format("json").stdout).expect("one JSON document");
    assert_eq!(
        schema_errors(&report_schema(), &report),
        Vec::<String>::new()
    );
}

#[test]
fn the_report_schema_refuses_a_diagnostic_without_its_position_fields() {
    let mut report: Value = serde_json::from_str(&run_format("json").stdout).expect("JSON");
    let diagnostic = report["results"][0]["diagnostics"][0]
        .as_object_mut()
        .expect("a diagnostic");
    diagnostic.remove("line");
    diagnostic.insert("severity".into(), "fatal".into());
    let errors = schema_errors(&report_schema(), &report);
    assert_eq!(errors.len(), 2, "{errors:?}");
}

#[test]
fn every_diagnostic_of_a_document_has_a_line_and_column() {
    let report: Value = serde_json::from_str(&run_format("json").stdout).expect("JSON");
    for result in report["results"].as_array().expect("results") {
        for diagnostic in result["diagnostics"].as_array().expect("diagnostics") {
            let has_position = diagnostic["line"].is_u64() && diagnostic["column"].is_u64();
            let is_read = diagnostic["stage"] == "read";
            assert_eq!(has_position, !is_read, "{result}");
        }
    }
}

/// SARIF with the rule descriptions checked against the catalogue and then
/// replaced, so the snapshot holds while the catalogue grows.
fn sarif_with_descriptions_checked(stdout: &str) -> Value {
    let mut log: Value = serde_json::from_str(stdout).expect("one JSON document");
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array_mut()
        .expect("rules");
    for rule in rules {
        let id = rule["id"].as_str().expect("id").to_owned();
        let doc = numi::rules::find(&id);
        let short = doc.map_or(id.as_str(), |doc| doc.summary);
        let full = doc.map_or(id.as_str(), |doc| doc.explanation);
        assert_eq!(rule["shortDescription"]["text"], short, "{id}");
        assert_eq!(rule["fullDescription"]["text"], full, "{id}");
        rule["shortDescription"]["text"] = "[catalogue summary]".into();
        rule["fullDescription"]["text"] = "[catalogue explanation]".into();
    }
    log
}

#[test]
fn sarif_log() {
    let run = run_format("sarif");
    assert_eq!(run.code, 1);
    let log = sarif_with_descriptions_checked(&run.stdout);
    let pretty = serde_json::to_string_pretty(&log).expect("JSON");
    insta::assert_snapshot!("sarif", stable(&pretty));
}

#[test]
fn sarif_log_matches_the_sarif_2_1_0_schema() {
    let log: Value = serde_json::from_str(&run_format("sarif").stdout).expect("JSON");
    assert_eq!(schema_errors(&sarif_schema(), &log), Vec::<String>::new());
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"].as_array().map(Vec::len), Some(1));
}

#[test]
fn the_sarif_schema_refuses_a_result_without_a_message() {
    let mut log: Value = serde_json::from_str(&run_format("sarif").stdout).expect("JSON");
    let result = log["runs"][0]["results"][0]
        .as_object_mut()
        .expect("a result");
    result.remove("message");
    assert_eq!(schema_errors(&sarif_schema(), &log).len(), 1);
}

#[test]
fn sarif_rule_indexes_point_at_their_rules() {
    let log: Value = serde_json::from_str(&run_format("sarif").stdout).expect("JSON");
    let run = &log["runs"][0];
    let results = run["results"].as_array().expect("results");
    assert!(results.len() > 10, "several problems per file");
    for result in results {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(
            run["tool"]["driver"]["rules"][index]["id"],
            result["ruleId"]
        );
    }
}

#[test]
fn sarif_uris_in_a_repository_are_relative_to_it() {
    let cwd = fixtures().join("verified");
    let run = numi(&cwd, &["validate", "--format", "sarif", "repo-with-bundle"]);
    assert_eq!(run.code, 3);
    let log: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        ".numinance/policy/implement-stage.yaml"
    );
    assert_eq!(location["region"]["startLine"], 2);
    assert_eq!(location["region"]["startColumn"], 7);
    assert_eq!(log["runs"][0]["results"][0]["ruleId"], "kind/produced");
}

#[test]
fn github_workflow_commands() {
    let run = run_format("github");
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("github", run.transcript());
}

#[test]
fn github_prints_nothing_for_valid_documents() {
    let run = numi(
        &fixtures(),
        &[
            "validate",
            "--format",
            "github",
            "--files",
            "formats/ok.yaml",
        ],
    );
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
}

#[test]
fn junit_report() {
    let run = run_format("junit");
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("junit", run.transcript());
}

#[test]
fn junit_report_is_well_formed_xml_with_one_testcase_per_document() {
    let run = run_format("junit");
    let xml = roxmltree::Document::parse(&run.stdout).expect("well-formed XML");
    let suites: Vec<_> = xml
        .descendants()
        .filter(|node| node.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 1);
    let suite = suites[0];
    assert_eq!(suite.attribute("tests"), Some("8"));
    assert_eq!(suite.attribute("failures"), Some("6"));
    assert_eq!(suite.attribute("errors"), Some("1"));
    let cases: Vec<_> = suite
        .children()
        .filter(|node| node.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 8);
    let odd = cases
        .iter()
        .find(|case| case.attribute("name") == Some("odd name, 50% & more.yaml"))
        .expect("the name survives escaping");
    let failure = odd
        .children()
        .find(|node| node.has_tag_name("failure"))
        .expect("a failure");
    assert_eq!(failure.attribute("type"), Some("kind/unknown"));
    assert!(
        failure
            .attribute("message")
            .is_some_and(|message| message.starts_with(r#"unknown kind: "Play<\"book\">""#)),
        "{failure:?}"
    );
}

#[test]
fn standard_input_has_no_file_to_point_at() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(["validate", "--format", "github", "--files", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("numi runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"apiVersion: numinance.dev/v1\nkind: Nope\n")
            .expect("write");
    }
    let output = child.wait_with_output().expect("numi exits");
    assert_eq!(
        String::from_utf8(output.stdout).expect("UTF-8"),
        "::error line=2,col=7,endLine=2,endColumn=11,title=kind/unknown::unknown kind: \"Nope\" \
         (this build knows AutonomyPolicy, ContextBundle, EvalSet, OutcomeCorrected, OutcomeRecorded, Playbook, PromotionDecided, PromotionProposed, QualificationUpdated)\n"
    );
}

/// Many files checked in parallel come out in the same order, byte for
/// byte, whatever the number of threads.
#[test]
fn output_is_the_same_whatever_the_parallelism() {
    let temp = tempfile::tempdir().expect("tempdir");
    let sources: Vec<String> = std::fs::read_dir(fixtures().join("formats"))
        .expect("fixtures")
        .map(|entry| std::fs::read_to_string(entry.expect("entry").path()).expect("read"))
        .collect();
    for i in 0..120 {
        let source = &sources[i % sources.len()];
        std::fs::write(temp.path().join(format!("doc-{i:03}.yaml")), source).expect("write");
    }
    for format in ["text", "json", "sarif", "github", "gitlab", "junit"] {
        let outputs: Vec<Vec<u8>> = ["1", "2", "8"]
            .iter()
            .map(|threads| {
                Command::new(env!("CARGO_BIN_EXE_numi"))
                    .args(["validate", "--format", format, "--files", "."])
                    .current_dir(temp.path())
                    .env("NUMI_THREADS", threads)
                    .output()
                    .expect("numi runs")
                    .stdout
            })
            .collect();
        assert!(!outputs[0].is_empty(), "{format}");
        assert!(
            outputs.windows(2).all(|pair| pair[0] == pair[1]),
            "{format}"
        );
    }
}

#[test]
fn an_unknown_format_is_a_usage_error() {
    let run = numi(
        &fixtures(),
        &["validate", "--format", "xml", "--files", "formats"],
    );
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .contains("possible values: text, pretty, concise, json, sarif, github, gitlab, junit"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_run_that_finds_nothing_is_still_one_valid_document() {
    let temp = tempfile::tempdir().expect("tempdir");
    let json = numi(
        temp.path(),
        &["validate", "--format", "json", "--files", "."],
    );
    assert_eq!(json.code, 1);
    assert_eq!(json.stderr, "numi: nothing found to validate\n");
    let report: Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(report["results"], serde_json::json!([]));
    assert_eq!(
        schema_errors(&report_schema(), &report),
        Vec::<String>::new()
    );
    let sarif = numi(
        temp.path(),
        &["validate", "--format", "sarif", "--files", "."],
    );
    let log: Value = serde_json::from_str(&sarif.stdout).expect("JSON");
    assert_eq!(schema_errors(&sarif_schema(), &log), Vec::<String>::new());
    assert_eq!(
        log["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
    let junit = numi(
        temp.path(),
        &["validate", "--format", "junit", "--files", "."],
    );
    roxmltree::Document::parse(&junit.stdout).expect("well-formed XML");
}

/// Warnings (from `--strict` rules) as each format carries them: beside the
/// status, never deciding it.
#[test]
fn warnings_in_every_format() {
    use numi::report::Reporter;
    use numi::results::{FileResult, Origin, Summary};
    use numi::rules::RuleDoc;
    use numi::{Address, Checked, Diagnostic, Position, Severity, Stage};

    // A warning of no real rule, so the output shows only the warning's shape.
    static EXAMPLE_WARNING: RuleDoc = RuleDoc {
        id: "evalset/example-warning",
        stage: Stage::Rule,
        severity: Severity::Warning,
        summary: "An example warning.",
        explanation: "",
        failing: "",
        passing: "",
    };
    let cases_sorted = numi::rules::find("evalset/cases-sorted").expect("a declared rule");
    let warning = Diagnostic::new(&EXAMPLE_WARNING, "a warning, 50%: a, b")
        .as_warning()
        .at(Address::root().key("spec"))
        .at_position(Position { line: 4, column: 3 });
    let error = Diagnostic::new(cases_sorted, "an error")
        .at(Address::root().key("spec").key("cases").index(1))
        .at_position(Position { line: 9, column: 7 })
        .with_note("case \"a\" should come first");
    let results = [
        FileResult {
            origin: Origin::Repo,
            display_name: ".numinance/warned.yaml".into(),
            path: ".numinance/warned.yaml".into(),
            read_from: None,
            checked: Checked {
                kind: Some("EvalSet"),
                name: Some("warned".into()),
                diagnostics: vec![warning.clone()],
                ..Checked::default()
            },
            source: None,
        },
        FileResult {
            origin: Origin::Repo,
            display_name: ".numinance/both.yaml".into(),
            path: ".numinance/both.yaml".into(),
            read_from: None,
            checked: Checked {
                kind: Some("EvalSet"),
                name: Some("both".into()),
                diagnostics: vec![warning, error],
                ..Checked::default()
            },
            source: None,
        },
    ];
    let summary = Summary {
        ok: 1,
        invalid: 1,
        error: 0,
        warnings: 2,
        suppressed: 0,
    };
    let render = |reporter: &mut dyn Reporter| {
        let mut out = Vec::new();
        reporter.begin(&mut out, "worktree").expect("write");
        for result in &results {
            reporter.result(&mut out, result).expect("write");
        }
        reporter.end(&mut out, &summary).expect("write");
        String::from_utf8(out).expect("UTF-8")
    };
    let json = render(&mut numi::report::json::JsonReporter::default());
    let report: Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        schema_errors(&report_schema(), &report),
        Vec::<String>::new()
    );
    assert_eq!(report["results"][0]["status"], "ok");
    assert_eq!(report["summary"]["diagnostics"]["warning"], 2);
    let sarif = render(&mut numi::report::sarif::SarifReporter::default());
    let log: Value = serde_json::from_str(&sarif).expect("JSON");
    assert_eq!(schema_errors(&sarif_schema(), &log), Vec::<String>::new());
    let levels: Vec<&Value> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| &result["level"])
        .collect();
    assert_eq!(levels, ["warning", "warning", "error"]);
    let github = render(&mut numi::report::github::GithubReporter);
    let junit = render(&mut numi::report::junit::JunitReporter::default());
    roxmltree::Document::parse(&junit).expect("well-formed XML");
    insta::assert_snapshot!(
        "warnings",
        format!("--- github\n{github}--- junit\n{junit}")
    );
}

/// An EvalSet with one finding, a misspelt acceptance after a non-ASCII
/// name, on its ninth line; `{eol}` stands for each line end.
const ONE_TYPO: &str = "apiVersion: numinance.dev/v1alpha1{eol}kind: EvalSet{eol}metadata: {name: core}{eol}spec:{eol}  version: \"1.0.0\"{eol}  cases:{eol}    - name: bugfix-ünï{eol}      outcome: {value: \"sha256:70fd102e81fe47531de6d7921cbb496665bfa88fcc83f211129b4e76fe53b8ed\"}{eol}      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTD, merged: true, severe: false}{eol}";

/// The one finding of [`ONE_TYPO`] written with `eol`, in `format`.
fn one_typo(format: &str, eol: &str) -> Run {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("evals.yaml");
    std::fs::write(&path, ONE_TYPO.replace("{eol}", eol)).expect("written");
    numi(
        folder.path(),
        &["validate", "--format", format, "--files", "evals.yaml"],
    )
}

#[test]
fn every_line_end_puts_a_finding_at_the_same_line_and_column() {
    let column = "      expect: {acceptance: ".chars().count() + 1;
    for eol in ["\n", "\r\n", "\r"] {
        let json: Value = serde_json::from_str(&one_typo("json", eol).stdout).expect("JSON");
        let diagnostics = &json["results"][0]["diagnostics"];
        assert_eq!(diagnostics.as_array().map(Vec::len), Some(1), "{eol:?}");
        let finding = &diagnostics[0];
        assert_eq!(finding["rule"], "schema/enum", "{eol:?}");
        assert_eq!(
            (&finding["line"], &finding["column"]),
            (&9.into(), &column.into())
        );
        let end = column + "EVAL_ACCEPTANCE_ACCEPTD".len();
        assert_eq!(
            finding["end"],
            serde_json::json!({"line": 9, "column": end}),
            "{eol:?}"
        );
        assert_eq!(schema_errors(&report_schema(), &json), Vec::<String>::new());

        let concise = one_typo("concise", eol);
        assert!(
            concise
                .stdout
                .starts_with(&format!("evals.yaml:9:{column}: error[schema/enum]")),
            "{eol:?}: {}",
            concise.stdout
        );

        let sarif: Value = serde_json::from_str(&one_typo("sarif", eol).stdout).expect("SARIF");
        let region = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            *region,
            serde_json::json!({"startLine": 9, "startColumn": column, "endLine": 9, "endColumn": end}),
            "{eol:?}"
        );

        let github = one_typo("github", eol);
        assert!(
            github.stdout.contains(&format!(
                "line=9,col={column},endLine=9,endColumn={end},title=schema/enum"
            )),
            "{eol:?}: {}",
            github.stdout
        );
    }
}

/// A file name holding ESC, BEL, CR, LF and the characters workflow
/// commands and URIs reserve, in every format: no raw control byte reaches
/// the output, no line starts with the name's tail, and each format writes
/// the name as its own escaping says.
#[test]
fn every_format_escapes_a_hostile_file_name() {
    let temp = tempfile::tempdir().expect("tempdir");
    let name = "odd\u{1b}[31m\u{7}\r\n%:,tail.yaml";
    std::fs::write(temp.path().join(name), "a: [unclosed\n").expect("write");
    let shown_in = |format: &str| {
        let run = numi(
            temp.path(),
            &[
                "validate", "--files", name, "--format", format, "--color", "never",
            ],
        );
        assert_eq!(run.code, 3, "{format}: {}", run.stderr);
        for byte in ['\u{1b}', '\u{7}', '\r'] {
            assert!(
                !run.stdout.contains(byte) && !run.stderr.contains(byte),
                "{format} writes {byte:?} raw:\n{run:?}"
            );
        }
        assert!(
            !run.stdout.lines().any(|line| line.starts_with("%:,tail")),
            "{format} breaks the line at the name's LF:\n{}",
            run.stdout
        );
        run.stdout
    };
    let quoted = "\"odd\\u{001b}[31m\\u{0007}\\r\\n%:,tail.yaml\"";
    assert!(
        shown_in("text").contains(&format!("invalid  file {quoted}: yaml: ")),
        "text"
    );
    assert!(
        shown_in("concise").starts_with(&format!("{quoted}:2:1:")),
        "concise"
    );
    assert!(shown_in("pretty").contains(quoted), "pretty");
    let json: Value = serde_json::from_str(&shown_in("json")).expect("JSON");
    assert_eq!(json["results"][0]["path"], name);
    let gitlab: Value = serde_json::from_str(&shown_in("gitlab")).expect("JSON");
    assert_eq!(gitlab[0]["location"]["path"], name);
    let sarif: Value = serde_json::from_str(&shown_in("sarif")).expect("JSON");
    assert_eq!(
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "odd%1B%5B31m%07%0D%0A%25%3A%2Ctail.yaml"
    );
    let junit = shown_in("junit");
    let xml = roxmltree::Document::parse(&junit).expect("well-formed XML");
    let testcase = xml
        .descendants()
        .find(|node| node.has_tag_name("testcase"))
        .expect("a testcase");
    assert!(junit.contains(&format!("{quoted}:2:1:")), "junit listing");
    assert_eq!(
        testcase.attribute("file"),
        Some("odd\\u{001b}[31m\\u{0007}\r\n%:,tail.yaml")
    );
    assert!(
        shown_in("github")
            .starts_with("::error file=odd\\u{001b}[31m\\u{0007}%0D%0A%25%3A%2Ctail.yaml,line=2,"),
        "github"
    );
}

#[test]
fn gitlab_is_a_code_quality_report_of_every_diagnostic() {
    let run = numi(
        &fixtures(),
        &["validate", "--format", "gitlab", "--files", "formats"],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let issues: Value = serde_json::from_str(&run.stdout).expect("a JSON array");
    let issues = issues.as_array().expect("an array");
    let json = numi(
        &fixtures(),
        &["validate", "--format", "json", "--files", "formats"],
    );
    let json: Value = serde_json::from_str(&json.stdout).expect("JSON");
    let diagnostics: usize = json["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| result["diagnostics"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(issues.len(), diagnostics);
    for issue in issues {
        let fingerprint = issue["fingerprint"].as_str().expect("a fingerprint");
        assert_eq!(fingerprint.len(), 64, "{issue}");
        assert!(
            matches!(issue["severity"].as_str(), Some("major" | "minor")),
            "{issue}"
        );
        assert!(
            issue["check_name"]
                .as_str()
                .is_some_and(|id| id.contains('/')),
            "{issue}"
        );
        assert!(
            issue["location"]["lines"]["begin"]
                .as_u64()
                .is_some_and(|line| line >= 1),
            "{issue}"
        );
        assert!(
            issue["location"]["path"]
                .as_str()
                .is_some_and(|path| path.starts_with("formats/")),
            "{issue}"
        );
    }
    let valid = numi(
        &fixtures(),
        &[
            "validate",
            "--format",
            "gitlab",
            "--files",
            "formats/ok.yaml",
        ],
    );
    assert_eq!((valid.code, valid.stdout.as_str()), (0, "[]\n"));
}

/// A configuration tree with two Playbooks named `same` (the second named
/// on a later line), one named `same-2`, and two of distinct names.
fn repository_with_a_duplicate_name(root: &Path) {
    let write = |relative: &str, text: &str| {
        let path = root.join(".numinance").join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let playbook = |name: &str| {
        format!(
            "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata:\n  name: {name}\nspec: {{change_type: bugfix}}\n"
        )
    };
    write("a.yaml", &playbook("same"));
    write("b.yaml", &playbook("same-2"));
    write("c.yaml", &format!("# the second\n{}", playbook("same")));
    write("d.yaml", &playbook("other"));
}

#[test]
fn a_duplicate_name_points_at_both_documents_with_a_free_name() {
    let temp = tempfile::tempdir().unwrap();
    repository_with_a_duplicate_name(temp.path());
    let concise = numi(
        temp.path(),
        &["validate", "--format", "concise", "--summary", "never"],
    );
    insta::assert_snapshot!(concise.transcript(), @r#"
    exit: 0
    --- stdout
    .numinance/c.yaml:5:9: warning[repo/duplicate-name] documents of one kind have distinct names: Playbook "same" is already defined in ".numinance/a.yaml" (rename this one or ".numinance/a.yaml", or merge them: no Playbook is named `same-3` yet)
    "#);
    let pretty = numi(
        temp.path(),
        &[
            "validate",
            "--format",
            "pretty",
            "--color",
            "never",
            "--quiet",
            "--summary",
            "never",
        ],
    );
    insta::assert_snapshot!(pretty.stdout, @r#"
    ok       repo ".numinance/c.yaml" Playbook "same": 1 problem
    repo/duplicate-name

      ⚠ documents of one kind have distinct names: Playbook "same" is already
      │ defined in ".numinance/a.yaml"
       ╭─[.numinance/c.yaml:5:9]
     4 │ metadata:
     5 │   name: same
       ·         ──┬─
       ·           ╰── "/metadata/name"
     6 │ spec: {change_type: bugfix}
       ╰────
      help: rename this one or ".numinance/a.yaml", or merge them: no Playbook is
            named `same-3` yet
            the first Playbook named "same": .numinance/a.yaml:4:9
            `numi explain repo/duplicate-name` shows a failing and a passing example
    "#);

    let json: Value =
        serde_json::from_str(&numi(temp.path(), &["validate", "--format", "json"]).stdout).unwrap();
    assert_eq!(schema_errors(&report_schema(), &json), Vec::<String>::new());
    let diagnostics: Vec<&Value> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|result| result["diagnostics"].as_array().unwrap())
        .collect();
    insta::assert_snapshot!(serde_json::to_string_pretty(&diagnostics).unwrap(), @r#"
    [
      {
        "stage": "rule",
        "rule": "repo/duplicate-name",
        "severity": "warning",
        "message": "documents of one kind have distinct names: Playbook \"same\" is already defined in \".numinance/a.yaml\"",
        "note": "rename this one or \".numinance/a.yaml\", or merge them: no Playbook is named `same-3` yet",
        "pointer": "/metadata/name",
        "line": 5,
        "column": 9,
        "end": {
          "line": 5,
          "column": 13
        },
        "related": [
          {
            "path": ".numinance/a.yaml",
            "display_name": ".numinance/a.yaml",
            "pointer": "/metadata/name",
            "message": "the first Playbook named \"same\"",
            "line": 4,
            "column": 9,
            "end": {
              "line": 4,
              "column": 13
            }
          }
        ]
      }
    ]
    "#);

    let sarif: Value =
        serde_json::from_str(&numi(temp.path(), &["validate", "--format", "sarif"]).stdout)
            .unwrap();
    assert_eq!(schema_errors(&sarif_schema(), &sarif), Vec::<String>::new());
    let result = &sarif["runs"][0]["results"][0];
    let places = serde_json::json!([result["locations"], result["relatedLocations"]]);
    insta::assert_snapshot!(serde_json::to_string_pretty(&places).unwrap(), @r#"
    [
      [
        {
          "physicalLocation": {
            "artifactLocation": {
              "uri": ".numinance/c.yaml"
            },
            "region": {
              "endColumn": 13,
              "endLine": 5,
              "startColumn": 9,
              "startLine": 5
            }
          }
        }
      ],
      [
        {
          "id": 1,
          "message": {
            "text": "the first Playbook named \"same\""
          },
          "physicalLocation": {
            "artifactLocation": {
              "uri": ".numinance/a.yaml"
            },
            "region": {
              "endColumn": 13,
              "endLine": 4,
              "startColumn": 9,
              "startLine": 4
            }
          }
        }
      ]
    ]
    "#);

    // Distinct names: no finding in any format, and nothing related.
    std::fs::remove_file(temp.path().join(".numinance/c.yaml")).unwrap();
    let json = numi(temp.path(), &["validate", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.transcript());
    assert!(!json.stdout.contains("related"), "{}", json.stdout);
    let sarif = numi(temp.path(), &["validate", "--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&sarif.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn gitlab_fingerprints_survive_a_line_added_above_and_are_unique_when_a_file_is_named_twice() {
    let temp = tempfile::tempdir().unwrap();
    let text = "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: a, name: b}\nspec: {change_type: bugfix, change_type: docs}\n";
    std::fs::write(temp.path().join("twice.yaml"), text).unwrap();
    let issues = |files: &[&str]| -> Vec<Value> {
        let mut args = vec!["validate", "--format", "gitlab", "--files"];
        args.extend_from_slice(files);
        let run = numi(temp.path(), &args);
        assert_eq!(run.code, 3, "{}", run.stderr);
        let issues: Value = serde_json::from_str(&run.stdout).expect("a JSON array");
        issues.as_array().expect("an array").clone()
    };
    let before = issues(&["twice.yaml"]);
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(
        before[0]["description"],
        "duplicate key \"name\" at line 3 column 21"
    );
    // A line added above: the message names line 4, the finding is the same.
    std::fs::write(
        temp.path().join("twice.yaml"),
        format!("# a comment\n{text}"),
    )
    .unwrap();
    let after = issues(&["twice.yaml"]);
    assert_eq!(
        after[0]["description"],
        "duplicate key \"name\" at line 4 column 21"
    );
    assert_eq!(after[0]["location"]["lines"]["begin"], 4);
    assert_eq!(after[0]["fingerprint"], before[0]["fingerprint"]);
    // Another key is another finding.
    std::fs::write(
        temp.path().join("other.yaml"),
        text.replace(
            "{name: a, name: b}",
            "{name: a, scope: SCOPE_REPO, scope: SCOPE_ORG}",
        ),
    )
    .unwrap();
    let other = issues(&["other.yaml"]);
    assert_ne!(other[0]["fingerprint"], before[0]["fingerprint"]);
    // The same file named twice, as given and with `./`: four issues, each
    // its own fingerprint; the first naming keeps the fingerprints of a run
    // that names it once.
    let named = issues(&["twice.yaml", "other.yaml", "./twice.yaml", "twice.yaml"]);
    let fingerprints: Vec<&str> = named
        .iter()
        .map(|issue| issue["fingerprint"].as_str().expect("a fingerprint"))
        .collect();
    assert_eq!(fingerprints.len(), 4);
    let distinct: std::collections::BTreeSet<&str> = fingerprints.iter().copied().collect();
    assert_eq!(distinct.len(), 4, "{fingerprints:?}");
    assert_eq!(named[0]["fingerprint"], after[0]["fingerprint"]);
    assert_eq!(named[1]["fingerprint"], other[0]["fingerprint"]);
}

#[test]
fn the_json_example_of_formats_md_is_what_numi_writes() {
    let page =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md")).unwrap();
    let section = &page[page.find("## json").unwrap()..];
    let start = section.find("```json\n").unwrap() + "```json\n".len();
    let example: serde_json::Value =
        serde_json::from_str(&section[start..start + section[start..].find("```").unwrap()])
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("conf")).unwrap();
    fs::write(
        dir.path().join("conf/playbook.yaml"),
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: \"\", scope: SCOPE_REPO}\nspec: {change_type: bugfix, max_repair_attempts: 2}\n",
    )
    .unwrap();
    let run = numi(
        dir.path(),
        &[
            "validate",
            "--format",
            "json",
            "--files",
            "conf/playbook.yaml",
        ],
    );
    let written: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(written, example, "{}", run.stdout);
}
