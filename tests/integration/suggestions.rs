//! A near miss carries its suggestion in every format: a misspelt kind, an
//! unknown key near an allowed one, a key written outside the one mapping
//! that takes it and an enum value near an allowed one
//! (tests/fixtures/suggestions/), each made where the finding is.

#![allow(
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used
)]

use serde_json::Value;

use crate::common::{fixtures, numi};

/// Each fixture, its rule and the suggestion it must carry.
const NEAR_MISSES: [(&str, &str, &str); 4] = [
    (
        "enum-typo.yaml",
        "schema/enum",
        "did you mean `SCOPE_REPO`?",
    ),
    (
        "unknown-key.yaml",
        "schema/additionalProperties",
        "did you mean `max_repair_attempts`?",
    ),
    (
        "misspelt-kind.yaml",
        "kind/unknown",
        "did you mean `Playbook`?",
    ),
    (
        "misplaced-key.yaml",
        "schema/additionalProperties",
        "did you mean to put it under `/spec/qualification`?",
    ),
];

fn output(format: &str) -> String {
    let run = numi(
        &fixtures(),
        &["validate", "--format", format, "--files", "suggestions"],
    );
    assert_eq!(run.code, 3, "every document is invalid: {}", run.stderr);
    run.stdout
}

/// The line of `output` that names `file`.
fn line_of<'a>(output: &'a str, file: &str) -> &'a str {
    output
        .lines()
        .find(|line| line.contains(file))
        .unwrap_or_else(|| panic!("no line names {file} in\n{output}"))
}

#[test]
fn json_carries_the_suggestion_as_the_note() {
    let report: Value = serde_json::from_str(&output("json")).unwrap();
    for (file, rule, hint) in NEAR_MISSES {
        let result = report["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|result| result["path"].as_str().unwrap().ends_with(file))
            .unwrap_or_else(|| panic!("no result for {file}"));
        let diagnostic = &result["diagnostics"][0];
        assert_eq!(diagnostic["rule"], rule, "{file}");
        assert_eq!(diagnostic["note"], hint, "{file}");
    }
}

#[test]
fn sarif_carries_the_suggestion_in_the_message() {
    let log: Value = serde_json::from_str(&output("sarif")).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    for (file, rule, hint) in NEAR_MISSES {
        let result = results
            .iter()
            .find(|result| {
                result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .ends_with(file)
            })
            .unwrap_or_else(|| panic!("no result for {file}"));
        assert_eq!(result["ruleId"], rule, "{file}");
        let text = result["message"]["text"].as_str().unwrap();
        assert!(text.ends_with(&format!(" ({hint})")), "{file}: {text}");
    }
}

#[test]
fn concise_and_github_carry_the_suggestion_on_the_line() {
    let concise = output("concise");
    let github = output("github");
    for (file, rule, hint) in NEAR_MISSES {
        let line = line_of(&concise, file);
        assert!(line.contains(&format!("[{rule}]")), "{line}");
        assert!(line.ends_with(&format!(" ({hint})")), "{line}");
        let line = line_of(&github, file);
        assert!(line.contains(&format!("title={rule}::")), "{line}");
        assert!(line.ends_with(&format!(" ({hint})")), "{line}");
    }
}

#[test]
fn pretty_and_junit_carry_the_suggestion() {
    let pretty = output("pretty");
    let junit = output("junit");
    for (file, _, hint) in NEAR_MISSES {
        assert!(
            pretty.contains(&format!("help: {hint}")),
            "{file}: {pretty}"
        );
        assert!(junit.contains(hint), "{file}: {junit}");
    }
}

#[test]
fn text_never_shows_the_suggestion() {
    let text = output("text");
    assert!(!text.contains("did you mean"), "{text}");
}

#[test]
fn a_key_with_no_single_home_keeps_the_advice_of_its_mapping() {
    let temp = tempfile::tempdir().unwrap();
    // `name` is taken by the metadata and by every case: no one place.
    let evalset = "apiVersion: numinance.dev/v1alpha1
kind: EvalSet
metadata: {name: core-replay}
spec:
  version: 1.0.0
  name: replay
  cases: []
";
    std::fs::write(temp.path().join("evalset.yaml"), evalset).unwrap();
    // `kind` outside the top level has one home; `colour` has none.
    let playbook = "apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix, kind: Playbook}
spec: {change_type: bugfix, colour: red}
";
    std::fs::write(temp.path().join("playbook.yaml"), playbook).unwrap();
    let run = numi(
        temp.path(),
        &[
            "validate",
            "--format",
            "concise",
            "--summary",
            "never",
            "--files",
            "evalset.yaml",
            "playbook.yaml",
        ],
    );
    insta::assert_snapshot!(run.stdout, @r#"
    evalset.yaml:6:3: error[schema/additionalProperties] unexpected property "name" (remove it; this mapping takes `version`, `cases`)
    playbook.yaml:3:26: error[schema/additionalProperties] unexpected property "kind" (did you mean to put it at the top level of the document?)
    playbook.yaml:4:29: error[schema/additionalProperties] unexpected property "colour" (remove it; this mapping takes `change_type`, `max_repair_attempts`, `qualification`)
    "#);
}

/// The start of `word` as a message quotes it: 64 characters and `…`.
fn shortened(word: &str) -> String {
    let start: String = word.chars().take(64).collect();
    format!("\"{start}…\"")
}

/// The start of an output, for a failing assertion's message.
fn start(text: &str) -> String {
    text.chars().take(300).collect()
}

/// A folder with `.git`, a `numi.toml` and the given files.
fn project(config: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join("numi.toml"), config).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn a_megabyte_unknown_word_in_numi_toml_is_refused_quoting_its_start() {
    // Near the largest numi.toml read (1 MiB): a selector, a rule id and a
    // key, each an unknown word of a megabyte. Each is refused with the
    // start of the word, as a near miss is refused with its hint.
    let word = "playbook".repeat(130_000);
    let configs = [
        (
            format!("ignore = [\"{word}\"]\n"),
            "ignore: unknown rule id or family ",
        ),
        (
            format!("[rules]\n\"{word}\" = \"off\"\n"),
            "unknown rule id ",
        ),
        (format!("{word} = true\n"), "unknown key "),
    ];
    for (config, refusal) in configs {
        let dir = project(&config, &[]);
        let run = numi(dir.path(), &["validate", "--files", "."]);
        assert_eq!(run.code, 2, "{refusal}: {}", start(&run.stderr));
        assert!(
            run.stderr
                .contains(&format!("{refusal}{}", shortened(&word))),
            "{}",
            start(&run.stderr)
        );
        assert!(!run.stderr.contains("did you mean"), "{refusal}");
        // The input quoted: the start of the word, not the megabyte.
        assert!(run.stderr.len() < 400, "{} bytes", run.stderr.len());
    }
    // A near miss in the same places keeps its hint.
    let near = [
        (
            "ignore = [\"playbok\"]\n",
            "ignore: unknown rule id or family \"playbok\" (did you mean \"playbook\"?)",
        ),
        (
            "[rules]\n\"playbook/min-run\" = \"off\"\n",
            "unknown rule id \"playbook/min-run\" (did you mean \"playbook/min-runs\"?)",
        ),
        (
            "stict = true\n",
            "unknown key \"stict\" (did you mean \"strict\"?)",
        ),
    ];
    for (config, refusal) in near {
        let dir = project(config, &[]);
        let run = numi(dir.path(), &["validate", "--files", "."]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(refusal), "{}", run.stderr);
    }
}

#[test]
fn a_long_unknown_word_on_the_command_line_is_quoted_shortened() {
    // Linux takes an argument of at most 128 KiB.
    let word = "evalset/".repeat(12_000);
    let dir = project("", &[]);
    let run = numi(dir.path(), &["validate", "--ignore", &word, "--files", "."]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(&format!(
            "--ignore: unknown rule id or family {}",
            shortened(&word)
        )),
        "{}",
        start(&run.stderr)
    );
    assert!(run.stderr.len() < 400, "{} bytes", run.stderr.len());
    let run = numi(dir.path(), &["explain", &word]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains(&format!("unknown rule id {}", shortened(&word))),
        "{}",
        start(&run.stderr)
    );
    assert!(!run.stderr.contains("did you mean"));
    assert!(run.stderr.len() < 600, "{} bytes", run.stderr.len());
}

#[test]
fn long_unknown_suppression_ids_and_keys_are_reported_with_their_start() {
    // 400 suppression comments of 5,000-character unknown ids (2 MB), one
    // near miss among them, and a 100,000-character unknown key.
    let long = |i: usize| format!("playbook/min-runz{}{i}", "q".repeat(5_000));
    let mut text: String = (0..400)
        .map(|i| format!("# numi: ignore[{}] why\n", long(i)))
        .collect();
    text.push_str("# numi: ignore[playbook/min-run] why\n");
    text.push_str(include_str!("../../examples/playbook-bugfix-bounded.yaml"));
    let key = "max_repair_attempts".repeat(5_000);
    let unknown_key = format!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {{name: keyed, scope: SCOPE_REPO}}\nspec: {{change_type: bugfix, {key}: 1}}\n"
    );
    let dir = project("", &[("ids.yaml", &text), ("key.yaml", &unknown_key)]);
    let run = numi(
        dir.path(),
        &[
            "validate",
            "--format",
            "concise",
            "--summary",
            "never",
            "--files",
            "ids.yaml",
            "key.yaml",
        ],
    );
    assert_eq!(run.code, 3, "{}", &run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 402, "{}", start(&run.stdout));
    for (i, line) in lines[..400].iter().enumerate() {
        assert_eq!(
            *line,
            format!(
                "ids.yaml:{}:1: warning[suppression/unknown-rule] a suppression names a rule: {} is no rule id",
                i + 1,
                shortened(&long(i))
            )
        );
    }
    assert_eq!(
        lines[400],
        "ids.yaml:401:1: warning[suppression/unknown-rule] a suppression names a rule: \"playbook/min-run\" is no rule id (did you mean \"playbook/min-runs\"?)"
    );
    assert!(
        lines[401].starts_with(&format!(
            "key.yaml:4:29: error[schema/additionalProperties] unexpected property {} (remove it; this mapping takes",
            shortened(&key)
        )),
        "{}",
        start(lines[401])
    );
    // The input quoted: the start of each word, not 2 MB.
    assert!(run.stdout.len() < 100_000, "{} bytes", run.stdout.len());
}
