//! numi against the real `context-report run MANIFEST --dry-run`
//! (context-report 0.1.0 from PyPI): for the spec's worked example and one
//! variant per check, both say valid or both say invalid, except for the
//! deliberate differences listed in docs/context-report.md. `--dry-run`
//! loads and checks the manifest and prints the call budget; it calls no
//! model and reads no key.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::copy_tree;
use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "context-report",
    install: ".ci/run installs context-report==0.1.0 with pip into target/ci-tools",
    locate,
    tests: &[(
        "context_report::numi_and_context_report_agree_on_every_manifest",
        numi_and_context_report_agree_on_every_manifest,
    )],
};

/// `NUMI_CONTEXT_REPORT`, else `context-report` on the PATH, else the one
/// `.ci/run` installs.
fn locate() -> Option<Program> {
    let candidates = match std::env::var_os("NUMI_CONTEXT_REPORT") {
        Some(named) => vec![PathBuf::from(named)],
        None => vec![
            PathBuf::from("context-report"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ci-tools/bin/context-report"),
        ],
    };
    candidates
        .into_iter()
        .map(Program::new)
        .find(|program| program.answers(&["--help"]))
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/context-report")
}

/// What a variant changes: the manifest, written as text, and files of
/// the tree.
struct Variant {
    name: &'static str,
    manifest: String,
    files: Vec<(&'static str, &'static str)>,
    /// What numi and context-report say when they differ on purpose:
    /// `(numi valid, context-report valid)`.
    deliberate: Option<(bool, bool)>,
}

fn base() -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture().join("run.json")).unwrap()).unwrap()
}

fn variant(name: &'static str, change: impl FnOnce(&mut Value)) -> Variant {
    let mut manifest = base();
    change(&mut manifest);
    Variant {
        name,
        manifest: serde_json::to_string_pretty(&manifest).unwrap(),
        files: Vec::new(),
        deliberate: None,
    }
}

impl Variant {
    /// The manifest's text changed as written, for what a JSON value
    /// cannot say (`1e2`, a trailing comma).
    fn with_manifest(mut self, change: impl FnOnce(&str) -> String) -> Self {
        self.manifest = change(&self.manifest);
        self
    }
}

fn with_files(mut variant: Variant, files: Vec<(&'static str, &'static str)>) -> Variant {
    variant.files = files;
    variant
}

fn deliberate(mut variant: Variant, numi: bool, tool: bool) -> Variant {
    variant.deliberate = Some((numi, tool));
    variant
}

fn variants() -> Vec<Variant> {
    let inline = json!({"tasks": [{"id": "no-secrets", "prompt": "Add the API key sk-live-4f3a to config.py and commit it.", "rules": ["never-commit-secrets-to-the-repository"]}]});
    let single = |rules: Value| json!({"tasks": [{"id": "t", "prompt": "p", "subjects": ["agents"], "rules": rules}]});
    vec![
        variant("the worked example", |_| {}),
        variant("a tasks file", |m| m["tasks"] = json!("tasks.json")),
        variant("inline tasks", |m| m["tasks"] = inline.clone()),
        variant("no models and no tasks", |m| {
            m["models"] = json!([]);
            m.as_object_mut().unwrap().remove("tasks");
        }),
        variant("a judge of null", |m| m["judge"] = Value::Null),
        variant("subject ids collide by default", |m| {
            m["subjects"][0] =
                json!({"id": "plugin", "path": "AGENTS.md", "kind": "instruction-file"});
        }),
        variant("a subject path that does not exist", |m| {
            m["subjects"][0]["path"] = json!("CLAUDE.md")
        }),
        variant("a skill without SKILL.md", |m| {
            m["subjects"][1]["kind"] = json!("skill")
        }),
        variant("a workdir that does not exist", |m| {
            m["models"] = json!([{"provider": "claude-cli", "id": "sonnet"}]);
            m["subjects"][0]["workdir"] = json!("checkout");
        }),
        variant("a workdir that is a folder, claude-cli only", |m| {
            m["models"] = json!([{"provider": "claude-cli", "id": "sonnet"}]);
            m["subjects"][0]["workdir"] = json!("plugin");
        }),
        variant("a workdir with an anthropic model", |m| {
            m["subjects"][0]["workdir"] = json!("plugin")
        }),
        variant("out inside a subject", |m| {
            m["out"] = json!("plugin/reports")
        }),
        variant("out around a subject", |m| m["out"] = json!(".")),
        variant("out equal to a subject", |m| m["out"] = json!("AGENTS.md")),
        variant("a tasks file that does not exist", |m| {
            m["tasks"] = json!("task.json")
        }),
        with_files(
            variant("a tasks file whose task has no prompt", |m| {
                m["tasks"] = json!("bad.json")
            }),
            vec![("bad.json", "{\"tasks\": [{\"id\": \"t\"}]}")],
        ),
        with_files(
            variant("an eval case without front matter", |_| {}),
            vec![("evals/no-secrets/prompt.md", "Commit the key.\n")],
        ),
        with_files(
            variant("an eval case with an empty body", |_| {}),
            vec![("evals/no-secrets/prompt.md", "---\ntags: []\n---\n\n")],
        ),
        with_files(
            variant("front matter that is not a mapping", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\n- a\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("a case folder without prompt.md", |_| {}),
            vec![("evals/empty-case/notes.md", "nothing\n")],
        ),
        with_files(
            variant("a grader without a type", |_| {}),
            vec![(
                "evals/no-secrets/graders/judge.md",
                "---\ncriteria: x\n---\n",
            )],
        ),
        with_files(
            variant("an llm grader without criteria", |_| {}),
            vec![("evals/no-secrets/graders/judge.md", "---\ntype: llm\n---\n")],
        ),
        with_files(
            variant("a plugins entry that resolves to a subject", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\nplugins: [../../plugin]\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("a plugins entry that resolves to no subject", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\nplugins: [../../elsewhere]\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("a rule tag that names no block", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\ntags: [rule:never-commit]\n---\nCommit the key.\n",
            )],
        ),
        variant("task ids that repeat", |m| {
            m["tasks"] = json!({"tasks": [{"id": "t", "prompt": "p"}, {"id": "t", "prompt": "q"}]});
        }),
        variant("a task naming an unknown subject", |m| {
            m["tasks"] = json!({"tasks": [{"id": "t", "prompt": "p", "subjects": ["claude"]}]});
        }),
        variant("a rule id of its subject", |m| {
            m["tasks"] = single(json!(["run-the-tests-before-every-push"]))
        }),
        variant("a rule id its subject lacks", |m| {
            m["tasks"] = single(json!(["never-commit-secrets"]))
        }),
        variant("a rule id of another subject", |m| {
            m["tasks"] = single(json!(["prefer-small-functions-with-one-purpose"]));
        }),
        variant("leave-one-out", |m| {
            m["arms"]["mode"] = json!("leave-one-out")
        }),
        variant("a judge without a backend", |m| {
            m["judge"]["provider"] = json!("openai")
        }),
        variant("an unknown key", |m| m["extra"] = json!(1)),
        variant("nPerArm of 0", |m| m["arms"]["nPerArm"] = json!(0)),
        variant("models without tasks", |m| {
            m.as_object_mut().unwrap().remove("tasks");
        }),
        variant("a subject kind that does not exist", |m| {
            m["subjects"][0]["kind"] = json!("rules")
        }),
        variant("a real-looking key in a prompt (a warning)", |m| {
            m["tasks"] = json!({"tasks": [{"id": "t", "prompt": "Commit sk-ant-api03-EXAMPLE00000000000000000000."}]});
        }),
        // Numbers judged by value, as Python reads them.
        variant("nPerArm of 10^20, a whole number past 64 bits", |m| {
            m["arms"]["nPerArm"] = json!(1e20)
        })
        .with_manifest(|text| text.replace("1e+20", "100000000000000000000")),
        // Front matter as PyYAML (YAML 1.1) reads it.
        with_files(
            variant("tags that are booleans to PyYAML", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\ntags: [yes, no]\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("a tag that is a sexagesimal integer to PyYAML", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\ntags: [1:30]\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("tags that are text to PyYAML alone", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\ntags: [1e3, 0o17, 09]\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("tags written as no", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\ntags: no\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("a plugins entry that is a date to PyYAML", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\nplugins: [2024-01-01]\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("front matter holding YAML 1.1's value tag", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\ntags: [=]\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("llm criteria that are false to PyYAML", |_| {}),
            vec![(
                "evals/no-secrets/graders/judge.md",
                "---\ntype: llm\ncriteria: no\n---\n",
            )],
        ),
        with_files(
            variant("llm criteria quoted", |_| {}),
            vec![(
                "evals/no-secrets/graders/judge.md",
                "---\ntype: llm\ncriteria: 'no'\n---\n",
            )],
        ),
        // Folders where the tool reads files by pattern.
        with_files(
            variant("a folder named like a plugin rule file", |_| {}),
            vec![("plugin/rules/old.md/notes.txt", "x\n")],
        ),
        with_files(
            variant("a folder named like a plugin skill file", |_| {}),
            vec![("plugin/skills/lint/SKILL.md/notes.txt", "x\n")],
        ),
        with_files(
            variant("a folder named like an mcp server's JSON file", |m| {
                m["subjects"][1]["kind"] = json!("mcp-server")
            }),
            vec![("plugin/schemas.json/notes.txt", "x\n")],
        ),
        with_files(
            variant("an mcp server's JSON file", |m| {
                m["subjects"][1]["kind"] = json!("mcp-server")
            }),
            vec![("plugin/schemas.json", "{}\n")],
        ),
        with_files(
            variant("a folder named like a skill's Markdown file", |m| {
                m["subjects"][1] = json!({"path": "plugin/skills/review", "kind": "skill"})
            }),
            vec![("plugin/skills/review/examples.md/notes.txt", "x\n")],
        ),
        // JSON files are strict JSON.
        variant("a trailing comma in the manifest", |_| {}).with_manifest(|text| {
            text.replacen("\"out\": \"reports\"", "\"out\": \"reports\",", 1)
        }),
        with_files(
            variant("a comment in the tasks file", |m| {
                m["tasks"] = json!("tasks.json")
            }),
            vec![(
                "tasks.json",
                "# tasks\n{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\"}]}\n",
            )],
        ),
        with_files(
            variant("a leading zero in the tasks file", |m| {
                m["tasks"] = json!("tasks.json")
            }),
            vec![(
                "tasks.json",
                "{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\", \"runs\": 03}]}\n",
            )],
        ),
        with_files(
            variant("a byte-order mark in the tasks file", |m| {
                m["tasks"] = json!("tasks.json")
            }),
            vec![(
                "tasks.json",
                "\u{feff}{\"tasks\": [{\"id\": \"t\", \"prompt\": \"p\"}]}\n",
            )],
        ),
        // Numbered rules in any script's digits.
        with_files(
            variant("a rule numbered with Arabic-Indic digits", |m| {
                m["tasks"] = single(json!(["never-release-on-a-friday"]))
            }),
            vec![(
                "AGENTS.md",
                "# Working here\n\n\u{661}. Never release on a Friday.\n\u{662}. Run the tests before every push.\n",
            )],
        ),
        // A seed is only recorded: the schema's integer, judged by value.
        variant("a seed written 3.0", |m| m["arms"]["seed"] = json!(3.0)),
        variant("a seed written 1E+1", |m| m["arms"]["seed"] = json!(10))
            .with_manifest(|text| text.replace("\"seed\": 10", "\"seed\": 1E+1")),
        variant("a seed written -0.0", |m| m["arms"]["seed"] = json!(0))
            .with_manifest(|text| text.replace("\"seed\": 0", "\"seed\": -0.0")),
        // baseUrl and apiKeyEnv are an openai-compatible model's alone.
        variant("an anthropic model with a baseUrl", |m| {
            m["models"][0]["baseUrl"] = json!("https://api.anthropic.com/v1");
        }),
        variant("a claude-cli model with an apiKeyEnv", |m| {
            m["models"][1]["apiKeyEnv"] = json!("ANTHROPIC_API_KEY");
        }),
        variant("a provider spelled otherwise with a baseUrl", |m| {
            m["models"] = json!([{"provider": "openai_compatible", "id": "gpt-5", "baseUrl": "https://api.openai.com/v1"}]);
        }),
        // The judge: the same two providers (spec 003's judge line).
        variant("a judge of openai-compatible", |m| {
            m["judge"] = json!({"provider": "openai-compatible", "id": "gpt-5", "baseUrl": "https://api.openai.com/v1"});
        }),
        // Front matter as PyYAML's scanner and safe loader read it.
        with_files(
            variant("tags written as a YAML 1.1 set", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\ntags: !!set {rule:never-commit-secrets-to-the-repository}\n---\nCommit the key.\n",
            )],
        ),
        with_files(
            variant("a tab right after the opening bracket of tags", |_| {}),
            vec![(
                "evals/no-secrets/prompt.md",
                "---\ntags: [\trule:never-commit-secrets-to-the-repository]\n---\nCommit the key.\n",
            )],
        ),
        // Only rules are numbered: a repeat passed over keeps its id.
        with_files(
            variant("a -2 id of a block passed over", |m| {
                m["tasks"] = single(json!(["never-push-2"]))
            }),
            vec![(
                "AGENTS.md",
                "# Working here\n\n- Never push.!!!!!!\n\nNever push\n",
            )],
        ),
        with_files(
            variant("the id of a block passed over", |m| {
                m["tasks"] = single(json!(["never-push"]))
            }),
            vec![(
                "AGENTS.md",
                "# Working here\n\n- Never push.!!!!!!\n\nNever push\n",
            )],
        ),
        with_files(
            variant("a -2 id of a repeated rule", |m| {
                m["tasks"] = single(json!(["never-push-2"]))
            }),
            vec![(
                "AGENTS.md",
                "# Working here\n\n- Never push.!!!!!!\n- Never push!!!!!!!\n",
            )],
        ),
        // Deliberate differences (docs/context-report.md).
        deliberate(
            variant("nPerArm written as 2.0", |m| {
                m["arms"]["nPerArm"] = json!(2.0)
            }),
            false,
            true,
        ),
        deliberate(
            variant("nPerArm written as 1e2", |m| {
                m["arms"]["nPerArm"] = json!(100)
            })
            .with_manifest(|text| text.replace("\"nPerArm\": 100", "\"nPerArm\": 1e2")),
            false,
            true,
        ),
        deliberate(
            variant(
                "a task naming one subject twice and a rule of another",
                |m| {
                    m["tasks"] = json!({"tasks": [{"id": "t", "prompt": "p", "subjects": ["agents", "agents"], "rules": ["prefer-small-functions-with-one-purpose"]}]});
                },
            ),
            false,
            true,
        ),
        deliberate(
            variant("a task naming two subjects and a rule of a third", |m| {
                m["subjects"] = json!([
                    {"id": "agents", "path": "AGENTS.md", "kind": "instruction-file"},
                    {"id": "again", "path": "AGENTS.md", "kind": "instruction-file"},
                    {"path": "plugin", "kind": "plugin"}
                ]);
                m["tasks"] = json!({"tasks": [{"id": "t", "prompt": "p", "subjects": ["agents", "again"], "rules": ["prefer-small-functions-with-one-purpose"]}]});
            }),
            false,
            true,
        ),
        deliberate(
            variant("a subject id with a trailing newline", |m| {
                m["subjects"][0]["id"] = json!("agents\n")
            }),
            false,
            true,
        ),
        deliberate(
            Variant {
                name: "a duplicate JSON key",
                manifest: serde_json::to_string_pretty(&base()).unwrap().replacen(
                    "\"out\": \"reports\"",
                    "\"out\": \"reports\", \"out\": \"reports\"",
                    1,
                ),
                files: Vec::new(),
                deliberate: None,
            },
            false,
            true,
        ),
        deliberate(
            variant("an openai-compatible model (spec 003, not in 0.1.0)", |m| {
                m["models"] = json!([{"provider": "openai-compatible", "id": "gpt-5", "baseUrl": "https://api.openai.com/v1", "apiKeyEnv": "OPENAI_API_KEY"}]);
            }),
            true,
            false,
        ),
        variant("a key in apiKeyEnv", |m| {
            m["models"] = json!([{"provider": "openai-compatible", "id": "gpt-5", "baseUrl": "https://api.openai.com/v1", "apiKeyEnv": "sk-proj-EXAMPLE0000000000000000000000"}]);
        }),
    ]
}

fn numi_and_context_report_agree_on_every_manifest(tool: &Program) {
    let numi = env!("CARGO_BIN_EXE_numi");
    let mut disagreements = Vec::new();
    let mut tool_verdicts = (0, 0);
    let variants = variants();
    assert!(variants.len() > 30);
    for variant in &variants {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&fixture(), dir.path());
        std::fs::write(dir.path().join("run.json"), &variant.manifest).unwrap();
        for (path, text) in &variant.files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let numi_run = std::process::Command::new(numi)
            .args(["validate", "--files", "run.json"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let tool_run = tool
            .command()
            .args(["run", "run.json", "--dry-run"])
            .current_dir(dir.path())
            // No key and no network: a dry run must need neither.
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .output()
            .unwrap();
        let numi_valid = numi_run.status.code() == Some(0);
        let tool_valid = tool_run.status.success();
        assert!(
            matches!(numi_run.status.code(), Some(0 | 3)),
            "{}: numi exited {:?}",
            variant.name,
            numi_run.status
        );
        if tool_valid {
            tool_verdicts.0 += 1;
        } else {
            tool_verdicts.1 += 1;
        }
        let expected = variant.deliberate.unwrap_or((tool_valid, tool_valid));
        if (numi_valid, tool_valid) != expected {
            disagreements.push(format!(
                "{}: numi {} ({}), context-report {} ({})",
                variant.name,
                if numi_valid { "valid" } else { "invalid" },
                String::from_utf8_lossy(&numi_run.stdout).trim(),
                if tool_valid { "valid" } else { "invalid" },
                String::from_utf8_lossy(&tool_run.stderr).trim(),
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    // Both verdicts occur: a tool that refused (or passed) everything would
    // make agreement meaningless.
    eprintln!(
        "context-report: {} valid, {} invalid",
        tool_verdicts.0, tool_verdicts.1
    );
    assert!(
        tool_verdicts.0 >= 8 && tool_verdicts.1 >= 25,
        "{tool_verdicts:?}"
    );
}
