//! The rule ids of the ContextReportRun kind, in the order numi checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[
    SUBJECT_ID_UNIQUE,
    SUBJECT_PATH,
    SUBJECT_TEXT,
    WORKDIR,
    WORKDIR_PROVIDER,
    OUT_OVERLAPS_SUBJECT,
    TASKS_FILE,
    EVAL_CASE,
    TASK_ID_UNIQUE,
    TASK_SUBJECT,
    RULE_ID,
    WHOLE_NUMBER,
    LEAVE_ONE_OUT,
    JUDGE_PROVIDER,
    OPENAI_COMPATIBLE_FIELDS,
    CREDENTIAL,
    API_KEY_ENV,
    CREDENTIAL_IN_PROMPT,
    PATHS_UNCHECKED,
];

pub(super) const SUBJECT_ID_UNIQUE: RuleDoc = RuleDoc {
    id: "contextreport/subject-id-unique",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Subject ids are unique within a run manifest, counting an id defaulted from the path's last name.",
    explanation: "A task names the subjects it exercises by id, and context-report writes one statement per subject id: two subjects with one id cannot be told apart. A subject without an `id` goes by the last name of its resolved path, so `plugin` and a subject whose path ends in `/plugin` collide.\n\nGive one of the subjects an `id` of its own.",
    failing: include_str!("examples/subject-id-unique.failing.yaml"),
    passing: include_str!("examples/subject-id-unique.passing.yaml"),
};

pub(super) const SUBJECT_PATH: RuleDoc = RuleDoc {
    id: "contextreport/subject-path",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A subject's path exists, relative to the manifest, and fits its kind: an instruction-file or subagent is a file, a skill a folder holding SKILL.md.",
    explanation: "context-report resolves every subject path against the manifest's folder and reads the text the subject injects before any model is called; a missing path, or a folder where a file is read, stops the run.\n\nFix the path (it is relative to the manifest, not to where the run starts), or the subject's kind.",
    failing: include_str!("examples/subject-path.failing.yaml"),
    passing: include_str!("examples/subject-path.passing.yaml"),
};

pub(super) const SUBJECT_TEXT: RuleDoc = RuleDoc {
    id: "contextreport/subject-text",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "The text a subject injects can be read: UTF-8, within the file size limit, a regular file.",
    explanation: "Rule ids are taken from the subject's text (instruction-file and subagent: the file; skill: SKILL.md and the other top-level `*.md`; plugin: `skills/**/SKILL.md` and `rules/**/*.md`), which context-report reads as UTF-8. numi reads it within `--max-file-size` and never opens a FIFO or a device.\n\nSave the file as UTF-8, or point the subject at the text the agent reads.",
    failing: include_str!("examples/subject-text.failing.yaml"),
    passing: include_str!("examples/subject-text.passing.yaml"),
};

pub(super) const WORKDIR: RuleDoc = RuleDoc {
    id: "contextreport/workdir",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A subject's workdir is an existing folder, relative to the manifest.",
    explanation: "The subject model works in the workdir for the subject's tasks; context-report refuses a manifest whose workdir is missing or is a file before any call.\n\nCreate the folder, or fix its path (relative to the manifest).",
    failing: include_str!("examples/workdir.failing.yaml"),
    passing: include_str!("examples/workdir.passing.yaml"),
};

pub(super) const WORKDIR_PROVIDER: RuleDoc = RuleDoc {
    id: "contextreport/workdir-provider",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A subject with a workdir is measured by claude-cli models only: no model of another provider may be listed beside it.",
    explanation: "Only the local claude CLI works in a folder. An API (anthropic, openai-compatible) has no filesystem, so a task that needs the checkout would be answered, not performed, and the measurement would not be what the manifest says. Spec 003 rejects the combination before any call.\n\nUse claude-cli models for the manifest, or drop the workdir.",
    failing: include_str!("examples/workdir-provider.failing.yaml"),
    passing: include_str!("examples/workdir-provider.passing.yaml"),
};

pub(super) const OUT_OVERLAPS_SUBJECT: RuleDoc = RuleDoc {
    id: "contextreport/out-overlaps-subject",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "The output folder `out` is neither a subject's path nor inside or around one.",
    explanation: "A run writes its output under `out`. Written into a subject, it would change the subject's digest during the very run that is measuring it; around a subject, the same. Paths are compared resolved, links followed, as context-report compares them.\n\nMove `out` beside the subjects, for example `reports`.",
    failing: include_str!("examples/out-overlaps-subject.failing.yaml"),
    passing: include_str!("examples/out-overlaps-subject.passing.yaml"),
};

pub(super) const TASKS_FILE: RuleDoc = RuleDoc {
    id: "contextreport/tasks-file",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "When `tasks` is a path, it names an existing tasks file holding a valid task list, or an eval case folder.",
    explanation: "A tasks file is the compiled form of the tasks: `{tasks: [{id, prompt, subjects?, rules?, criteria?}, ...]}`, at least one task, no other key. numi reads it as JSON or YAML; context-report 0.1.0 reads JSON only. A message names the file and the line of the first violation, never its contents.\n\nFix the path (relative to the manifest) or the file.",
    failing: include_str!("examples/tasks-file.failing.yaml"),
    passing: include_str!("examples/tasks-file.passing.yaml"),
};

pub(super) const EVAL_CASE: RuleDoc = RuleDoc {
    id: "contextreport/eval-case",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Every case folder of an eval case `tasks` folder compiles into a task.",
    explanation: "Every folder but `mocks/` is a case: it holds a `prompt.md` whose front matter (between a first line `---` and the next `---`) is a YAML mapping and whose body is the prompt, not empty. Each `graders/*.md` has front matter naming its `type` (llm, regex, tool_used, tool_order, file_exists or baseline); an llm grader names its `criteria`. context-report refuses a manifest whose case does not compile before any call.\n\nFix the file the message names.",
    failing: include_str!("examples/eval-case.failing.yaml"),
    passing: include_str!("examples/eval-case.passing.yaml"),
};

pub(super) const TASK_ID_UNIQUE: RuleDoc = RuleDoc {
    id: "contextreport/task-id-unique",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Task ids are unique within a run manifest.",
    explanation: "Transcripts and scores are keyed by task id; two tasks with one id would overwrite each other's records. An eval case's id is its folder name.\n\nRename one of the tasks.",
    failing: include_str!("examples/task-id-unique.failing.yaml"),
    passing: include_str!("examples/task-id-unique.passing.yaml"),
};

pub(super) const TASK_SUBJECT: RuleDoc = RuleDoc {
    id: "contextreport/task-subject",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Every subject a task names is a subject id of the manifest, and every `plugins` entry of an eval case resolves to a subject's path.",
    explanation: "A task's `subjects` picks the subjects it exercises by id (an absent or empty list means all of them); an eval case names them by path in its front matter's `plugins`, resolved from the case folder. A name that matches no subject is refused before any call.\n\nUse one of the ids the message lists, or fix the path.",
    failing: include_str!("examples/task-subject.failing.yaml"),
    passing: include_str!("examples/task-subject.passing.yaml"),
};

pub(super) const RULE_ID: RuleDoc = RuleDoc {
    id: "contextreport/rule-id",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Every rule id a task names (its `rules`, or an eval case's `rule:<id>` tags) is the id of a block of its subject's text.",
    explanation: "Rule ids are derived from the rule's own text (`numi slug` prints them): lower-cased, the first six runs of `[a-z0-9]`, joined by `-`, at most 48 characters; a repeat in one file gets `-2`, `-3`. A task may name any block of the text, even one the extractor did not read as a rule. An id that matches no block is an error reported for every task at once. A task's rules are within its named subjects (spec 003): a task that names subjects may name a block of one of them, and a task that names none a block of any subject. context-report 0.1.0 is looser, letting a task that names two or more subjects (even one subject twice) name a block of any subject; numi follows the spec.\n\nUse one of the ids the message lists, or `numi slug` on the rule's text.",
    failing: include_str!("examples/rule-id.failing.yaml"),
    passing: include_str!("examples/rule-id.passing.yaml"),
};

pub(super) const WHOLE_NUMBER: RuleDoc = RuleDoc {
    id: "contextreport/whole-number",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "`arms.nPerArm` is written as an integer, not as `2.0` or `1e2`.",
    explanation: "JSON Schema judges `integer` by value, so `2.0`, `1e2` and `100000000000000000000` all pass the schema and `context-report run --dry-run`. But context-report reads a number written with a fraction or an exponent as a Python float, and a run counts its trials with `range(nPerArm)`, which refuses a float. A whole number written with digits alone is an integer of any size, and passes. `arms.seed` is only recorded: a whole number written `3.0` passes.\n\nWrite `2`, not `2.0` or `2e0`.",
    failing: include_str!("examples/whole-number.failing.yaml"),
    passing: include_str!("examples/whole-number.passing.yaml"),
};

pub(super) const LEAVE_ONE_OUT: RuleDoc = RuleDoc {
    id: "contextreport/leave-one-out",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "`arms.mode` is `isolated`: context-report v0.1 accepts `leave-one-out` in its schema but has nothing that runs it.",
    explanation: "A run in leave-one-out mode is refused before any call, so the manifest cannot run as written.\n\nUse `mode: isolated`, or leave `mode` out.",
    failing: include_str!("examples/leave-one-out.failing.yaml"),
    passing: include_str!("examples/leave-one-out.passing.yaml"),
};

pub(super) const JUDGE_PROVIDER: RuleDoc = RuleDoc {
    id: "contextreport/judge-provider",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A judge's provider is anthropic or claude-cli, the same two providers as a subject model's (spec 003's judge line).",
    explanation: "The judge grades every transcript of the run. Spec 003 gives it \"the same two providers\", anthropic and claude-cli, and context-report 0.1.0 refuses any other before any call; an openai-compatible server, which the spec adds for subject models, is not one of them.\n\nName anthropic or claude-cli, or set `judge: null` to grade by code only.",
    failing: include_str!("examples/judge-provider.failing.yaml"),
    passing: include_str!("examples/judge-provider.passing.yaml"),
};

pub(super) const OPENAI_COMPATIBLE_FIELDS: RuleDoc = RuleDoc {
    id: "contextreport/openai-compatible-fields",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "`baseUrl` and `apiKeyEnv` are given to an `openai-compatible` model alone.",
    explanation: "Spec 003 gives the server's root and the variable holding its key to the openai-compatible backend: `{provider: \"openai-compatible\", id, baseUrl, apiKeyEnv?}`; an anthropic or claude-cli model, or a provider spelled otherwise (which has no backend), has no use for them, and context-report refuses them before any call. A manifest that sets them on another provider most likely meant an openai-compatible server, or spells it otherwise.\n\nSet `provider: openai-compatible`, or remove `baseUrl` and `apiKeyEnv`.",
    failing: include_str!("examples/openai-compatible-fields.failing.yaml"),
    passing: include_str!("examples/openai-compatible-fields.passing.yaml"),
};

pub(super) const CREDENTIAL: RuleDoc = RuleDoc {
    id: "contextreport/credential",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A run manifest holds no credential: `apiKeyEnv` is never a key, and a `baseUrl` carries none in its userinfo or query.",
    explanation: "The key of an openai-compatible server stays in the environment: `apiKeyEnv` names the variable that holds it, and context-report reads it from there. A key in the manifest is committed with it. A message names what was found by its public prefix alone (`sk-`, `ghp_`, ...); the key is never printed.\n\nMove the key to an environment variable, name the variable in `apiKeyEnv`, and rotate the key: it has been written down.",
    failing: include_str!("examples/credential.failing.yaml"),
    passing: include_str!("examples/credential.passing.yaml"),
};

pub(super) const API_KEY_ENV: RuleDoc = RuleDoc {
    id: "contextreport/api-key-env",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "`apiKeyEnv` is the name of an environment variable: `[A-Za-z_][A-Za-z0-9_]*`.",
    explanation: "`apiKeyEnv` names the variable that holds the bearer key. A value that is no variable name cannot be looked up, and may be a key of a shape numi does not know, so it is never printed.\n\nWrite the variable's name, for example `OPENAI_API_KEY`.",
    failing: include_str!("examples/api-key-env.failing.yaml"),
    passing: include_str!("examples/api-key-env.passing.yaml"),
};

pub(super) const CREDENTIAL_IN_PROMPT: RuleDoc = RuleDoc {
    id: "contextreport/credential-in-prompt",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "A task's prompt and criteria hold nothing shaped like a real credential.",
    explanation: "A prompt may quote a fake key on purpose, to tempt the agent into committing it: spec 003's example uses `sk-live-4f3a`, too short to be a real key, and numi says nothing about it. Something shaped like a real key (an `sk-` key of 20 characters or more, a GitHub or Slack token, an AWS access key id) is sent to every model the run calls and kept in every transcript. A warning, an error under `--strict`; the key is never printed.\n\nReplace the key with a short fake one.",
    failing: include_str!("examples/credential-in-prompt.failing.yaml"),
    passing: include_str!("examples/credential-in-prompt.passing.yaml"),
};

pub(super) const PATHS_UNCHECKED: RuleDoc = RuleDoc {
    id: "contextreport/paths-unchecked",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "A run manifest read from standard input has no folder, so its paths are not checked.",
    explanation: "Subject paths, workdirs, `out` and a `tasks` path are relative to the manifest's folder; a manifest read from `-` has none, so numi checks its schema and the rules that need no file, and warns. A warning, an error under `--strict`.\n\nValidate the manifest by its path to have every check.",
    failing: "",
    passing: "",
};
