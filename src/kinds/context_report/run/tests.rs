#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use crate::diagnostic::{Severity, address};
use crate::location::{DEFAULT_MAX_FILE_SIZE, Location};
use crate::validate::{Checked, Mode, validate_at, validate_bytes};
use crate::yaml::Limits;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/kinds/context_report/run/examples/x.yaml")
}

fn check(text: &str) -> Checked {
    let path = examples();
    validate_at(
        text.as_bytes(),
        Mode::Files,
        &Limits::default(),
        Location::file(&path, DEFAULT_MAX_FILE_SIZE),
    )
}

fn rules(checked: &Checked) -> Vec<&'static str> {
    checked.diagnostics.iter().map(|d| d.rule.id).collect()
}

const BASE: &str = "contextReportRun: v0.1
subjects: [{id: agents, path: tree/AGENTS.md, kind: instruction-file}]
target: {name: claude-code}
models: []
arms: {nPerArm: 1}
out: reports
";

#[test]
fn a_document_with_the_version_key_is_a_run_manifest() {
    let checked = check(BASE);
    assert_eq!(checked.kind, Some("ContextReportRun"));
    assert_eq!(checked.name, None);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
}

#[test]
fn the_schema_refuses_unknown_keys_and_a_missing_base_url() {
    let checked = check(&BASE.replace("out: reports", "out: reports\nextra: 1"));
    assert_eq!(rules(&checked), ["schema/additionalProperties"]);
    let checked = check(&BASE.replace(
        "models: []",
        "models: [{provider: openai-compatible, id: m}]\ntasks: tree/tasks.json",
    ));
    assert_eq!(rules(&checked), ["schema/required"]);
    let checked = check(&BASE.replace("models: []", "models: [{provider: anthropic, id: m}]"));
    assert_eq!(
        rules(&checked),
        ["schema/required"],
        "tasks is required with models"
    );
    let checked = check(&BASE.replace("nPerArm: 1", "nPerArm: 2.0"));
    assert_eq!(
        rules(&checked),
        ["contextreport/whole-number"],
        "an integral float is no integer"
    );
}

#[test]
fn a_default_id_counts_for_uniqueness() {
    let text = BASE.replace(
        "subjects: [{id: agents, path: tree/AGENTS.md, kind: instruction-file}]",
        "subjects: [{path: tree/AGENTS.md, kind: instruction-file}, {id: AGENTS.md, path: tree/skill, kind: skill}]",
    );
    assert_eq!(rules(&check(&text)), ["contextreport/subject-id-unique"]);
}

#[test]
fn out_equal_to_or_around_a_subject_is_refused() {
    for out in ["tree/AGENTS.md", "tree", ".", "tree/../tree/"] {
        let text = BASE.replace("out: reports", &format!("out: '{out}'"));
        assert_eq!(
            rules(&check(&text)),
            ["contextreport/out-overlaps-subject"],
            "{out}"
        );
    }
    let text = BASE.replace("out: reports", "out: tree/reports");
    assert!(rules(&check(&text)).is_empty());
}

#[test]
fn a_task_file_that_is_no_task_list_is_named_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("AGENTS.md"), "- Never commit secrets.\n").unwrap();
    std::fs::write(
        dir.path().join("tasks.json"),
        "{\"tasks\": [\n  {\"id\": \"t\"}\n]}\n",
    )
    .unwrap();
    let manifest = dir.path().join("run.yaml");
    let text = BASE
        .replace("tree/AGENTS.md", "AGENTS.md")
        .replace("models: []", "models: []\ntasks: tasks.json");
    let checked = validate_at(
        text.as_bytes(),
        Mode::Files,
        &Limits::default(),
        Location::file(&manifest, DEFAULT_MAX_FILE_SIZE),
    );
    let messages: Vec<&str> = checked
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "tasks names a task file or an eval case folder: \"tasks.json\" is no task list: line 2: required (violations: 1)"
        ]
    );
}

#[test]
fn rule_ids_of_a_plugin_and_a_shared_task() {
    let text = BASE
        .replace(
            "subjects: [{id: agents, path: tree/AGENTS.md, kind: instruction-file}]",
            "subjects: [{id: agents, path: tree/AGENTS.md, kind: instruction-file}, {path: tree/plugin, kind: plugin}]",
        )
        .replace(
            "models: []",
            "models: []\ntasks: {tasks: [{id: a, prompt: p, subjects: [plugin], rules: [prefer-small-functions-with-one-purpose, always-read-the-whole-diff-before]}, {id: b, prompt: p, rules: [never-commit-secrets-to-the-repository]}, {id: c, prompt: p, subjects: [plugin], rules: [never-commit-secrets-to-the-repository]}]}",
        );
    let checked = check(&text);
    assert_eq!(rules(&checked), ["contextreport/rule-id"]);
    assert_eq!(
        checked.diagnostics[0].address,
        Some(address!["tasks", "tasks", 2, "rules", 0])
    );
}

#[test]
fn secrets_are_recorded_and_never_in_a_message() {
    let key = "sk-ant-api03-EXAMPLE00000000000000000000";
    let text = BASE.replace(
        "models: []",
        &format!("models: [{{provider: openai-compatible, id: m, baseUrl: 'https://u:{key}@example.com/v1?key=abc', apiKeyEnv: {key}}}]\njudge: null\ntasks: {{tasks: [{{id: t, prompt: 'use {key}', criteria: {{x: '{key}'}}}}]}}"),
    );
    let checked = check(&text);
    assert_eq!(
        rules(&checked),
        [
            "contextreport/credential",
            "contextreport/credential",
            "contextreport/credential",
            "contextreport/credential-in-prompt",
            "contextreport/credential-in-prompt",
        ]
    );
    for diagnostic in &checked.diagnostics {
        assert!(!diagnostic.secrets.is_empty(), "{diagnostic:?}");
        assert!(!diagnostic.message.contains("EXAMPLE0"), "{diagnostic:?}");
        assert!(!diagnostic.message.contains("abc"), "{diagnostic:?}");
    }
    let warnings: Vec<Severity> = checked.warnings().map(|d| d.severity).collect();
    assert_eq!(warnings.len(), 2);
}

#[test]
fn a_manifest_without_a_folder_warns_that_its_paths_are_unchecked() {
    let checked = validate_bytes(BASE.as_bytes(), Mode::Files, &Limits::default());
    assert_eq!(rules(&checked), ["contextreport/paths-unchecked"]);
    assert_eq!(checked.errors().count(), 0);
}

#[test]
fn a_fifo_as_a_subject_is_refused_without_opening_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("AGENTS.md");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        return;
    }
    let manifest = dir.path().join("run.yaml");
    let text = BASE.replace("tree/AGENTS.md", "AGENTS.md");
    let checked = validate_at(
        text.as_bytes(),
        Mode::Files,
        &Limits::default(),
        Location::file(&manifest, DEFAULT_MAX_FILE_SIZE),
    );
    assert_eq!(rules(&checked), ["contextreport/subject-path"]);
}

#[test]
fn the_producer_side_examples_warn_and_fail_once_promoted() {
    let rule = crate::rules::find("contextreport/credential-in-prompt").unwrap();
    let failing = check(rule.failing);
    assert_eq!(rules(&failing), [rule.id]);
    let mut promoted = failing.clone();
    promoted.promote_warnings();
    assert_eq!(promoted.errors().count(), 1);
    assert!(check(rule.passing).diagnostics.is_empty());
}

#[test]
fn the_task_list_schema_is_the_inline_one() {
    let kind: serde_json::Value = serde_json::from_str(super::KIND.schema).unwrap();
    let tasks: serde_json::Value = serde_json::from_str(include_str!("tasks.schema.json")).unwrap();
    assert_eq!(kind["$defs"]["task"], tasks["$defs"]["task"]);
    assert_eq!(
        kind["$defs"]["inlineTasks"]["properties"],
        tasks["properties"]
    );
}

/// A manifest whose one task's prompt is `prompt`.
fn with_prompt(prompt: &str) -> String {
    BASE.replace(
        "models: []",
        &format!("models: []\njudge: null\ntasks: {{tasks: [{{id: t, prompt: '{prompt}'}}]}}"),
    )
}

#[test]
fn every_credential_shape_in_a_prompt_is_a_warning_and_its_near_miss_passes() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N";
    let cases = [
        ("AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPL"),
        ("ghp_16C7e42F292c6912E7710c838347Ae178B4a", "ghp_16C7e42F29"),
        ("xoxb-123456789012-abcdefABCDEF", "xoxb-1234"),
        ("sk-proj-4f3a9c2e7b1d8a6f5e0c3b9a", "sk-live-4f3a"),
        ("AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "AIzaSyA1b2C3d4"),
        (jwt, "eyJhbGciOiJIUzI1NiJ9"),
        (
            "https://bot:hunter2@wiki.example.com/a",
            "https://wiki.example.com/a",
        ),
        ("bot:hunter2@wiki.example.com", "bot@wiki.example.com"),
        (
            "https://x.example.com/a?signature=f00d",
            "https://x.example.com/a?page=2",
        ),
    ];
    for (credential, near_miss) in cases {
        let checked = check(&with_prompt(&format!("please use {credential} now")));
        assert_eq!(
            rules(&checked),
            ["contextreport/credential-in-prompt"],
            "{credential}"
        );
        let diagnostic = &checked.diagnostics[0];
        assert!(
            diagnostic
                .secrets
                .iter()
                .all(|secret| credential.contains(secret.as_str())),
            "{credential}: {:?}",
            diagnostic.secrets
        );
        let masked = crate::secrets::mask(credential, &diagnostic.secrets);
        assert_ne!(masked, credential, "{credential}");
        assert!(!diagnostic.message.contains(credential));
        let passed = check(&with_prompt(&format!("please use {near_miss} now")));
        assert_eq!(rules(&passed), Vec::<&str>::new(), "{near_miss}");
    }
}

/// A temporary tree: an `AGENTS.md` subject, a plugin subject, and the
/// files given, with the manifest `text` at `run.json`; what numi says.
fn in_tree(text: &str, files: &[(&str, &str)]) -> Checked {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("AGENTS.md"),
        "- Never commit secrets.\n- Run the tests before every push.\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("plugin/rules")).unwrap();
    std::fs::write(
        dir.path().join("plugin/rules/style.md"),
        "- Prefer small functions.\n",
    )
    .unwrap();
    for (path, contents) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    let manifest = dir.path().join("run.json");
    validate_at(
        text.as_bytes(),
        Mode::Files,
        &Limits::default(),
        Location::file(&manifest, DEFAULT_MAX_FILE_SIZE),
    )
}

fn messages(checked: &Checked) -> Vec<String> {
    checked
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.rule.id, d.message))
        .collect()
}

const TWO_SUBJECTS: &str = r#"{"contextReportRun": "v0.1",
 "subjects": [{"id": "agents", "path": "AGENTS.md", "kind": "instruction-file"},
              {"path": "plugin", "kind": "plugin"}],
 "target": {"name": "claude-code"}, "models": [], "arms": {"nPerArm": 1},
 "out": "reports", "tasks": TASKS}"#;

fn with_tasks(tasks: &str) -> String {
    TWO_SUBJECTS.replace("TASKS", tasks)
}

#[test]
fn a_tasks_rules_are_within_its_named_subjects_even_named_twice() {
    // The spec's rule, where 0.1.0's `len(subjects) == 1` shortcut lets a
    // repeated name reach another subject's blocks.
    let twice = with_tasks(
        r#"{"tasks": [{"id": "t", "prompt": "p", "subjects": ["agents", "agents"], "rules": ["prefer-small-functions"]}]}"#,
    );
    assert_eq!(
        messages(&in_tree(&twice, &[])),
        [
            "contextreport/rule-id: a task's rule ids name blocks of its subject's text (spec 003): task \"t\" names \"prefer-small-functions\", which subject \"agents\" does not have; its ids are \"never-commit-secrets\", \"run-the-tests-before-every-push\""
        ]
    );
    let both = with_tasks(
        r#"{"tasks": [{"id": "t", "prompt": "p", "subjects": ["agents", "plugin"], "rules": ["prefer-small-functions", "never-commit-secrets"]}]}"#,
    );
    assert!(in_tree(&both, &[]).diagnostics.is_empty());
    let none_named = with_tasks(
        r#"{"tasks": [{"id": "t", "prompt": "p", "rules": ["prefer-small-functions", "nowhere"]}]}"#,
    );
    assert_eq!(
        messages(&in_tree(&none_named, &[])),
        [
            "contextreport/rule-id: a task's rule ids name blocks of its subjects' text: task \"t\" names \"nowhere\", which no subject has"
        ]
    );
}

#[test]
fn a_json_manifest_or_tasks_file_is_strict_json() {
    let strict = with_tasks(r#""tasks.json""#);
    let tasks = r#"{"tasks": [{"id": "t", "prompt": "p"}]}"#;
    assert!(
        in_tree(&strict, &[("tasks.json", tasks)])
            .diagnostics
            .is_empty()
    );
    let trailing = strict.replace(r#""tasks.json"}"#, r#""tasks.json",}"#);
    let checked = in_tree(&trailing, &[("tasks.json", tasks)]);
    assert_eq!(rules(&checked), ["yaml/json-syntax"]);
    assert_eq!(checked.kind, Some("ContextReportRun"));
    let position = checked.diagnostics[0].position.unwrap();
    assert_eq!(
        (position.line, position.column),
        (5, 42),
        "at the closing brace"
    );
    for bad in [
        "{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\"},]}",
        "# tasks\n{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\"}]}",
        "\u{feff}{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\"}]}",
        "{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\", \"runs\": 03}]}",
    ] {
        let found = messages(&in_tree(&strict, &[("tasks.json", bad)]));
        assert_eq!(found.len(), 1, "{bad:?}: {found:?}");
        assert!(
            found[0].starts_with("contextreport/tasks-file: tasks names a task file or an eval case folder: \"tasks.json\" is not strict JSON, as context-report reads a .json file: line "),
            "{found:?}"
        );
    }
    // The same text as YAML is read as YAML: numi reads both.
    let yaml = strict.replace("tasks.json", "tasks.yaml");
    assert!(
        in_tree(
            &yaml,
            &[("tasks.yaml", "# tasks\ntasks: [{id: t, prompt: p},]\n")]
        )
        .diagnostics
        .is_empty()
    );
}

#[test]
fn whole_numbers_are_judged_as_python_reads_them() {
    let arms = |n: &str| BASE.replace("nPerArm: 1", &format!("nPerArm: {n}"));
    for whole in ["100000000000000000000", "0x7777777777777777777777", "5"] {
        assert!(check(&arms(whole)).diagnostics.is_empty(), "{whole}");
    }
    let found = messages(&check(&arms("1e2")));
    assert_eq!(
        found,
        [
            "contextreport/whole-number: arms.nPerArm is written \"1e2\", which context-report reads as a float: a run counts its trials with it, and Python's range() refuses a float; write 100"
        ]
    );
    // A seed is only recorded: the schema's integer, judged by value.
    for seed in ["7.0", "1E+1", "-0.0", "7"] {
        let found = messages(&check(
            &BASE.replace("nPerArm: 1}", &format!("nPerArm: 1, seed: {seed}}}")),
        ));
        assert!(found.is_empty(), "{seed}: {found:?}");
    }
    let found = messages(&check(
        &BASE.replace("nPerArm: 1}", "nPerArm: 1, seed: 7.5}"),
    ));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("schema/"), "{found:?}");
}

fn case(front_matter: &str) -> Vec<String> {
    let manifest = with_tasks(r#""evals""#);
    let prompt = format!("---\n{front_matter}---\nCommit the key.\n");
    messages(&in_tree(&manifest, &[("evals/case/prompt.md", &prompt)]))
}

#[test]
fn front_matter_is_read_as_pyyaml_reads_it() {
    for passing in [
        "tags: ['yes', \"1:30\"]\n",
        "tags: [1e3, 0o17, 09, y]\n",
        "tags: no\n",
        "tags: [rule:never-commit-secrets]\nruns: yes\n",
        "plugins: [../../plugin]\n",
    ] {
        assert_eq!(case(passing), Vec::<String>::new(), "{passing:?}");
    }
    assert_eq!(
        case("tags: [yes, no]\n"),
        [
            "contextreport/eval-case: an eval case compiles into a task: \"evals/case/prompt.md\" has a tags entry on line 2 that PyYAML, which context-report reads front matter with, takes as the boolean true rather than text (YAML 1.1): quote it"
        ]
    );
    assert_eq!(
        case("runs: 1\ntags:\n  - 1:30\n").len(),
        1,
        "a sexagesimal integer"
    );
    assert!(case("plugins: [2024-01-01]\n")[0].contains("plugins entry on line 2 that PyYAML, which context-report reads front matter with, takes as a date"));
    assert!(case("tags: [=]\n")[0].contains("has front matter PyYAML cannot read, as context-report reads it: line 2 holds YAML 1.1's value tag; quote it"));
    assert_eq!(case("tags: [true]\n").len(), 1, "no text to either reader");

    // A YAML 1.1 set, which PyYAML's safe loader builds: its keys are the
    // entries, in any order.
    for set in [
        "tags: !!set {rule:never-commit-secrets, urgent}\n",
        "tags: !!set\n  ? rule:never-commit-secrets\n  ? urgent\n",
        "tags: !<tag:yaml.org,2002:set> {urgent}\n",
    ] {
        assert_eq!(case(set), Vec::<String>::new(), "{set:?}");
    }
    assert_eq!(
        case("tags: !!set {rule:never-commit}\n"),
        case("tags: [rule:never-commit]\n"),
        "a set's rule tag is checked as a list's"
    );
    assert_eq!(case("tags: !!set {rule:never-commit}\n").len(), 1);
    // A tab between tokens, which PyYAML's scanner refuses.
    assert_eq!(
        case("tags: [\turgent]\n"),
        [
            "contextreport/eval-case: an eval case compiles into a task: \"evals/case/prompt.md\" has front matter PyYAML cannot read, as context-report reads it: line 2 holds a tab at column 8, where PyYAML's scanner takes spaces alone; use spaces"
        ]
    );
    assert_eq!(case("tags: ['a\tb'] # a\ttab\n"), Vec::<String>::new());
}

#[test]
fn a_plugins_entry_that_matches_no_subject_is_named() {
    assert_eq!(
        case("plugins: [../../plugin, ../../elsewhere]\n"),
        [
            "contextreport/task-subject: a task's subjects are subject ids: plugins entry 1 of \"evals/case/prompt.md\", \"../../elsewhere\", resolves to no subject's path"
        ]
    );
}

#[test]
fn a_grader_is_judged_on_pyyaml_values() {
    let manifest = with_tasks(r#""evals""#);
    let prompt = (
        "evals/case/prompt.md",
        "---\ntags: []\n---\nCommit the key.\n",
    );
    let grader = |text: &'static str| {
        messages(&in_tree(
            &manifest,
            &[prompt, ("evals/case/graders/judge.md", text)],
        ))
    };
    assert_eq!(
        grader("---\ntype: llm\ncriteria: 'no'\n---\n"),
        Vec::<String>::new()
    );
    assert_eq!(
        grader("---\ntype: llm\ncriteria: no\n---\n"),
        [
            "contextreport/eval-case: an eval case compiles into a task: \"evals/case/graders/judge.md\" is an llm grader without criteria"
        ]
    );
}

#[test]
fn a_folder_where_the_tool_reads_a_file_is_refused() {
    let manifest = with_tasks(r#"{"tasks": [{"id": "t", "prompt": "p"}]}"#);
    assert!(in_tree(&manifest, &[]).diagnostics.is_empty());
    for folder in [
        "plugin/rules/old.md/x.txt",
        "plugin/skills/a/SKILL.md/x.txt",
        "plugin/hooks/hooks.json/x",
    ] {
        let found = messages(&in_tree(&manifest, &[(folder, "x")]));
        assert_eq!(found.len(), 1, "{folder}: {found:?}");
        assert!(
            found[0].contains(
                "is a folder where context-report reads a file: its run fails reading it"
            ),
            "{found:?}"
        );
    }
    // A hooks file is read for its rule ids, as the tool reads it.
    let hooks = with_tasks(
        r#"{"tasks": [{"id": "t", "prompt": "p", "subjects": ["plugin"], "rules": ["run-the-linter-on-save"]}]}"#,
    );
    assert!(
        in_tree(
            &hooks,
            &[("plugin/hooks/hooks.json", "Run the linter on save.\n")]
        )
        .diagnostics
        .is_empty()
    );
}

#[test]
fn front_matter_numbers_json_cannot_hold_are_read_as_pyyaml_reads_them() {
    // PyYAML reads each of these; numi's loader alone would call the front
    // matter not YAML.
    let huge = "9".repeat(400);
    for passing in [
        "weight: .inf\n".to_owned(),
        "weight: 1e400\n".to_owned(),
        format!("weight: {huge}\n"),
        "weights: [.nan, -.inf, 1e400]\n".to_owned(),
        "tags: ['.inf']\n".to_owned(),
    ] {
        assert_eq!(case(&passing), Vec::<String>::new(), "{passing:?}");
    }
    // Read as PyYAML reads it: `1e400` is text to it, `.inf` a float.
    assert_eq!(case("tags: [1e400]\n"), Vec::<String>::new());
    assert_eq!(
        case("tags: [.inf]\n").len(),
        1,
        "a float where text is read"
    );
}

#[test]
fn base_url_and_api_key_env_are_an_openai_compatible_models_alone() {
    let models = |models: &str| {
        BASE.replace(
            "models: []",
            &format!("models: {models}\ntasks: tree/tasks.json"),
        )
    };
    let openai = "{provider: openai-compatible, id: m, baseUrl: 'https://h/v1', apiKeyEnv: KEY}";
    assert!(
        check(&models(&format!("[{openai}]")))
            .diagnostics
            .is_empty()
    );
    for (model, field, provider) in [
        (
            "{provider: anthropic, id: m, baseUrl: 'https://h/v1'}",
            "baseUrl",
            "anthropic",
        ),
        (
            "{provider: claude-cli, id: sonnet, apiKeyEnv: KEY}",
            "apiKeyEnv",
            "claude-cli",
        ),
        // A provider spelled otherwise has no backend, and no use for them.
        (
            "{provider: openai_compatible, id: m, baseUrl: 'https://h/v1'}",
            "baseUrl",
            "openai_compatible",
        ),
    ] {
        assert_eq!(
            messages(&check(&models(&format!("[{model}]")))),
            [format!(
                "contextreport/openai-compatible-fields: {field} is given to an openai-compatible model alone (spec 003), and this one's provider is \"{provider}\""
            )],
            "{model}"
        );
    }
    // The judge too.
    let judged = BASE.replace(
        "models: []",
        "models: []\njudge: {provider: anthropic, id: m, apiKeyEnv: KEY}",
    );
    assert_eq!(
        messages(&check(&judged)),
        [
            "contextreport/openai-compatible-fields: apiKeyEnv is given to an openai-compatible model alone (spec 003), and this one's provider is \"anthropic\""
        ]
    );
}

#[test]
fn front_matter_pyyaml_types_but_cannot_build_is_refused() {
    for (front_matter, line) in [
        ("tags: [2001-13-45]\n", 2),
        ("runs: 1\nwhen: 2024-02-30\n", 3),
        ("at: 2001-12-14 25:00:00\n", 2),
        ("mask: 0b_\n", 2),
    ] {
        let found = case(front_matter);
        assert_eq!(found.len(), 1, "{front_matter:?}: {found:?}");
        assert!(
            found[0].contains(&format!(
                "has front matter PyYAML cannot read, as context-report reads it: line {line} holds"
            )),
            "{front_matter:?}: {found:?}"
        );
    }
    // A date that exists is a date, as before.
    assert_eq!(case("when: 2024-02-29\n"), Vec::<String>::new());
}

#[test]
fn a_tasks_file_holding_nan_or_an_infinity_is_json_to_pythons_json_loads() {
    let strict = with_tasks(r#""tasks.json""#);
    for text in [
        "{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\"}], \"weight\": NaN}",
        "{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\"}], \"weight\": -Infinity}",
    ] {
        let found = messages(&in_tree(&strict, &[("tasks.json", text)]));
        assert!(
            found
                .iter()
                .all(|message| !message.contains("not strict JSON")),
            "{text:?}: {found:?}"
        );
    }
    // What json.loads refuses is still refused.
    let found = messages(&in_tree(
        &strict,
        &[("tasks.json", "{\"tasks\": [], \"weight\": nan}")],
    ));
    assert!(found[0].contains("not strict JSON"), "{found:?}");
}

#[test]
fn a_judge_is_of_the_same_two_providers() {
    let judge = |judge: &str| BASE.replace("models: []", &format!("models: []\njudge: {judge}"));
    for passing in [
        "null",
        "{provider: anthropic, id: m}",
        "{provider: claude-cli, id: opus}",
    ] {
        assert!(check(&judge(passing)).diagnostics.is_empty(), "{passing}");
    }
    for failing in [
        "{provider: openai-compatible, id: m, baseUrl: 'https://h/v1'}",
        "{provider: openai, id: m}",
    ] {
        let found = messages(&check(&judge(failing)));
        assert_eq!(found.len(), 1, "{failing}: {found:?}");
        assert!(
            found[0].starts_with("contextreport/judge-provider: the judge's provider is one of the same two providers as a subject model's (spec 003): anthropic or claude-cli"),
            "{found:?}"
        );
    }
}
