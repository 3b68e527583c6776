//! The tasks of a manifest, wherever they are written: inline, in a tasks
//! file, or as a folder of eval cases that context-report compiles into
//! the same list. A file that cannot be read or compiled is named with its
//! line; its contents are never quoted.

use std::path::Path;

use serde_json::Value;

use super::paths::Resolved;
use super::pyyaml::{self, Reading};
use crate::diagnostic::{Address, Diagnostic, address};
use crate::kinds::checks::{items, rule_fails};
use crate::location::{Entry, Location, ReadError, io_reason};
use crate::schema::{self, CompiledSchema};
use crate::text::{quote, shorten};
use crate::yaml::plain::{self, plain_scalars};
use crate::yaml::{self, Limits, LineIndex, strict_json};

/// The `{tasks: [...]}` shape of a tasks file: the same definition as the
/// inline form in `schemas/ContextReportRun.schema.json`.
static TASK_LIST: CompiledSchema =
    crate::schema::compiled_schema!("src/kinds/context_report/run/tasks.schema.json");

/// Grader types context-report 0.1 knows; any other is a manifest error.
const GRADER_TYPES: [&str; 6] = [
    "llm",
    "regex",
    "tool_used",
    "tool_order",
    "file_exists",
    "baseline",
];

/// One task, with where each part of it stands.
#[derive(Debug, Clone)]
pub(super) struct Task {
    pub id: String,
    /// The task in the manifest (`/tasks/tasks/N`), or `/tasks` for one
    /// read from a file.
    pub address: Address,
    /// How messages name the task: `task "x"`, with its file when it has one.
    pub named: String,
    /// Subject ids with their addresses; `None` means every subject.
    pub subjects: Option<Vec<(String, Address)>>,
    pub rules: Vec<(String, Address)>,
    /// Prompt and criteria texts, with their addresses and what they are.
    pub texts: Vec<(String, Address, &'static str)>,
}

/// Every task the manifest names, with what is wrong with a tasks file or
/// an eval case folder.
pub(super) fn load(
    document: &Value,
    location: &Location<'_>,
    subjects: &[Resolved<'_>],
    found: &mut Vec<Diagnostic>,
) -> Vec<Task> {
    match document.get("tasks") {
        Some(Value::Object(inline)) => {
            from_list(&Value::Object(inline.clone()), &address!["tasks"], None)
        }
        Some(Value::String(raw)) => {
            let Some(path) = location.resolve(raw) else {
                return Vec::new();
            };
            match location.entry(&path) {
                Entry::Folder => eval_cases(raw, &path, location, subjects, found),
                Entry::File(_) => task_file(raw, &path, location, found),
                Entry::Missing => {
                    found.push(tasks_fail(raw, "does not exist"));
                    Vec::new()
                }
                Entry::Other(reason) => {
                    found.push(tasks_fail(raw, &format!("cannot be read: {reason}")));
                    Vec::new()
                }
            }
        }
        _ => Vec::new(),
    }
}

fn tasks_fail(raw: &str, reason: &str) -> Diagnostic {
    rule_fails(
        &super::catalogue::TASKS_FILE,
        &format!(
            "tasks names a task file or an eval case folder: {} {reason}",
            quote(&shorten(raw))
        ),
        address!["tasks"],
    )
}

/// The tasks of a `{tasks: [...]}` value. `file` is the shown name of the
/// file it was read from, if any: then every address is `base`, `/tasks`.
fn from_list(list: &Value, base: &Address, file: Option<&str>) -> Vec<Task> {
    items(list, "tasks")
        .map(|(index, task)| {
            let address = match file {
                None => base.clone().key("tasks").index(index),
                Some(_) => base.clone(),
            };
            // A part of the task, at `within` the task.
            let at = |within: Address| match file {
                None => address.clone().join(within),
                Some(_) => base.clone(),
            };
            let id = task
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let strings = |field: &str| -> Vec<(String, Address)> {
                items(task, field)
                    .filter_map(|(i, value)| {
                        value
                            .as_str()
                            .map(|text| (text.to_owned(), at(address![field, i])))
                    })
                    .collect()
            };
            // An empty list means every subject, as context-report reads it.
            let subjects = Some(strings("subjects")).filter(|named| !named.is_empty());
            let mut texts = Vec::new();
            if let Some(prompt) = task.get("prompt").and_then(Value::as_str) {
                texts.push((prompt.to_owned(), at(address!["prompt"]), "prompt"));
            }
            if let Some(criteria) = task.get("criteria").and_then(Value::as_object) {
                for (rule, text) in criteria {
                    if let Some(text) = text.as_str() {
                        texts.push((text.to_owned(), at(address!["criteria", rule]), "criteria"));
                    }
                }
            }
            Task {
                named: match file {
                    None => format!("task {}", quote(&shorten(&id))),
                    Some(shown) => format!(
                        "task {} of {}",
                        quote(&shorten(&id)),
                        quote(&shorten(shown))
                    ),
                },
                id,
                address: address.clone(),
                subjects,
                rules: strings("rules"),
                texts,
            }
        })
        .collect()
}

/// Why a file beside the manifest has no text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Unread {
    /// It cannot be opened or read.
    #[error(transparent)]
    Read(ReadError),
    #[error("is not UTF-8 text")]
    NotUtf8,
}

/// The text of a file beside the manifest, or why it cannot be read.
fn read_text(location: &Location<'_>, path: &Path) -> Result<String, Unread> {
    let bytes = location.read(path).map_err(Unread::Read)?;
    String::from_utf8(bytes).map_err(|_| Unread::NotUtf8)
}

fn task_file(
    raw: &str,
    path: &Path,
    location: &Location<'_>,
    found: &mut Vec<Diagnostic>,
) -> Vec<Task> {
    let text = match read_text(location, path) {
        Ok(text) => text,
        Err(reason) => {
            found.push(tasks_fail(raw, &format!("cannot be read: {reason}")));
            return Vec::new();
        }
    };
    if let Some((what, position)) = strict_json::is_json_file(path)
        .then(|| strict_json::problem_for(&text, crate::kinds::context_report::JSON_READER))
        .flatten()
    {
        found.push(tasks_fail(
            raw,
            &format!(
                "is not strict JSON, as context-report reads a .json file: line {}: {what}",
                position.line
            ),
        ));
        return Vec::new();
    }
    let document = match yaml::load(&text, &Limits::default()) {
        Ok(document) => document,
        Err(error) => {
            let at = error
                .position
                .map(|position| format!(" at line {}", position.line))
                .unwrap_or_default();
            found.push(tasks_fail(
                raw,
                &format!("is not JSON or YAML ({}{at})", error.problem),
            ));
            return Vec::new();
        }
    };
    let violations = schema::check(&TASK_LIST, &document.value);
    if let Some(first) = violations.listed.first() {
        let steps = first.address.as_ref().map(Address::steps);
        let node = document.locate(steps.unwrap_or_default()).node;
        let line = LineIndex::new(&text).position(node.start()).line;
        let keyword = first
            .rule
            .id
            .strip_prefix("schema/")
            .unwrap_or(first.rule.id);
        let count = violations.listed.len() + violations.unlisted;
        found.push(tasks_fail(
            raw,
            &format!("is no task list: line {line}: {keyword} (violations: {count})"),
        ));
        return Vec::new();
    }
    from_list(&document.value, &address!["tasks"], Some(raw))
}

fn case_fails(shown: &str, reason: impl std::fmt::Display) -> Diagnostic {
    rule_fails(
        &super::catalogue::EVAL_CASE,
        &format!(
            "an eval case compiles into a task: {} {reason}",
            quote(&shorten(shown))
        ),
        address!["tasks"],
    )
}

/// `block` with each plain scalar that numi's loader reads as a number no
/// JSON can hold (`.inf`, `.nan`, `1e400`, 400 digits) in single quotes,
/// every other byte where it stood.
fn with_unheld_numbers_as_text(block: &str) -> String {
    let lines = LineIndex::new(block);
    let mut quoted = block.to_owned();
    let mut unheld: Vec<usize> = plain_scalars(block)
        .into_iter()
        .filter(|scalar| {
            yaml::load(&scalar.text, &Limits::default())
                .is_err_and(|error| error.problem == yaml::Problem::NotJson)
        })
        .map(|scalar| lines.offset(scalar.position))
        .filter(|&start| {
            block
                .get(start..)
                .is_some_and(|rest| !rest.starts_with(['\'', '"']))
        })
        .collect();
    unheld.sort_unstable();
    for start in unheld.into_iter().rev() {
        let end = block
            .get(start..)
            .and_then(|rest| rest.find([',', ']', '}', '\n', '#', ' ']))
            .map_or(block.len(), |length| start + length);
        if let Some(scalar) = block.get(start..end) {
            quoted.replace_range(start..end, &format!("'{scalar}'"));
        }
    }
    quoted
}

/// An eval case file's front matter as context-report reads it, and the
/// body after it.
struct FrontMatter<'t> {
    /// The mapping, each plain scalar as PyYAML reads it.
    meta: Value,
    body: &'t str,
    /// The plain scalars numi reads as text and PyYAML as something else.
    misread: Vec<Misread>,
}

/// Why an eval case does not compile into a task as context-report
/// compiles it. Each message follows the name of the case's `prompt.md`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
enum Uncompiled {
    #[error("has no front matter (a first line `---`)")]
    NoOpening,
    #[error("has no front matter (no closing `---`)")]
    NoClosing,
    /// The line and the column of the tab, from 1.
    #[error(
        "has front matter PyYAML cannot read, as context-report reads it: line {line} holds a tab \
         at column {column}, where PyYAML's scanner takes spaces alone; use spaces"
    )]
    Tab { line: usize, column: usize },
    #[error("has front matter that is not a YAML mapping")]
    NotAMapping,
    /// What the loader says, and the line (from 1) where it stopped.
    #[error("has front matter that is not YAML ({problem}{})", at_line(*.line))]
    NotYaml {
        problem: yaml::Problem,
        line: Option<u32>,
    },
    /// A plain scalar PyYAML cannot read or build, on its line (from 1).
    #[error(
        "has front matter PyYAML cannot read, as context-report reads it: line {line} holds {}; quote it",
        .reading.described()
    )]
    Unreadable { line: u32, reading: Reading },
    /// An entry of `field` (from 1) that PyYAML reads as no text.
    #[error(
        "has a {field} entry on line {line} that PyYAML, which context-report reads front matter with, takes as {} rather than text (YAML 1.1): quote it",
        .reading.described()
    )]
    Misread {
        field: &'static str,
        line: u32,
        reading: Reading,
    },
    #[error("has {0} that are not a list of strings")]
    NotStrings(&'static str),
}

/// Where a loader's message stands, as the message ends: ` at line N`.
fn at_line(line: Option<u32>) -> String {
    line.map(|line| format!(" at line {line}"))
        .unwrap_or_default()
}

/// A plain scalar that is text to YAML 1.2 and no text to PyYAML.
struct Misread {
    address: Address,
    /// The line of the file it stands on.
    line: u32,
    reading: Reading,
}

/// The YAML mapping between the first two `---` lines of `text`, and the
/// body after it; or why there is none. The front matter starts at line 2.
/// context-report reads it with PyYAML's `safe_load`, YAML 1.1: each
/// plain scalar is taken as PyYAML takes it (`no` is false, `1:30` is 90),
/// and a value PyYAML cannot build fails the case, as it fails the run.
fn front_matter(text: &str) -> Result<FrontMatter<'_>, Uncompiled> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or(Uncompiled::NoOpening)?;
    // The block ends at the first `---` that starts a line.
    let end = rest.find("\n---").ok_or(Uncompiled::NoClosing)?;
    let block = rest.get(..end).unwrap_or_default();
    let block = block.strip_suffix('\r').unwrap_or(block);
    let after = rest.get(end + 4..).unwrap_or_default();
    let after = after.strip_prefix('\r').unwrap_or(after);
    let body = after.strip_prefix('\n').unwrap_or(after);
    let empty = || FrontMatter {
        meta: Value::Object(serde_json::Map::new()),
        body,
        misread: Vec::new(),
    };
    if block.trim().is_empty()
        || block
            .lines()
            .all(|line| line.trim_start().starts_with('#') || line.trim().is_empty())
    {
        return Ok(empty());
    }
    // PyYAML's scanner takes no tab between tokens, where YAML 1.2 does.
    if let Some((line, column)) = pyyaml::stray_tab(block) {
        return Err(Uncompiled::Tab {
            line: line + 1,
            column,
        });
    }
    // A YAML 1.1 set (`!!set {a, b}`), which PyYAML's safe loader builds
    // and numi's YAML 1.2 loader does not know: loaded as the mapping it
    // is written as, then taken as the list of its keys.
    let sets = plain::tagged_sets(block);
    let loadable = if sets.is_empty() {
        std::borrow::Cow::Borrowed(block)
    } else {
        let mut blanked = block.to_owned();
        for set in &sets {
            let (start, end) = set.tag;
            if end <= blanked.len()
                && blanked.is_char_boundary(start)
                && blanked.is_char_boundary(end)
            {
                blanked.replace_range(start..end, &" ".repeat(end - start));
            }
        }
        std::borrow::Cow::Owned(blanked)
    };
    let loaded = match yaml::load(&loadable, &Limits::default()) {
        // PyYAML reads `.inf`, `1e400` (text in YAML 1.1) and integers of
        // any size, which numi's loader refuses as no JSON can hold them:
        // read again with those scalars as text, which PyYAML's reading of
        // each plain scalar below then replaces.
        Err(error) if error.problem == yaml::Problem::NotJson => {
            yaml::load(&with_unheld_numbers_as_text(&loadable), &Limits::default())
        }
        loaded => loaded,
    };
    let mut meta = match loaded {
        Ok(document) => document.value,
        Err(error) if error.problem == yaml::Problem::Empty => {
            return Ok(empty());
        }
        Err(error) if error.problem == yaml::Problem::RootNotMapping => {
            return Err(Uncompiled::NotAMapping);
        }
        Err(error) => {
            return Err(Uncompiled::NotYaml {
                problem: error.problem,
                line: error.position.map(|position| position.line + 1),
            });
        }
    };
    for path in sets.iter().filter_map(|set| set.path.clone()) {
        if let Some(slot) = Address::from(path).find_mut(&mut meta) {
            if let Value::Object(members) = slot {
                let keys = members.keys().cloned().map(Value::String).collect();
                *slot = Value::Array(keys);
            }
        }
    }
    let mut misread = Vec::new();
    for scalar in plain_scalars(block) {
        let reading = pyyaml::read_plain(&scalar.text);
        let line = scalar.position.line + 1;
        if let Reading::Unreadable(_) | Reading::Unbuildable(_) = reading {
            return Err(Uncompiled::Unreadable { line, reading });
        }
        let address = Address::from(scalar.path);
        let Some(slot) = address.find_mut(&mut meta) else {
            continue;
        };
        if slot.is_string() && reading != Reading::Text {
            misread.push(Misread {
                address,
                line,
                reading: reading.clone(),
            });
        }
        *slot = reading.value(&scalar.text);
    }
    Ok(FrontMatter {
        meta,
        body,
        misread,
    })
}

/// Whether Python takes `value` as true: what context-report asks of a
/// field before it uses it.
fn truthy(value: Option<&Value>) -> bool {
    value.is_some_and(|value| match value {
        Value::Null | Value::Bool(false) => false,
        Value::String(text) => !text.is_empty(),
        Value::Array(list) => !list.is_empty(),
        Value::Object(map) => !map.is_empty(),
        Value::Number(number) => number.as_f64() != Some(0.0),
        Value::Bool(true) => true,
    })
}

/// A case folder's name relative to the manifest's folder, for messages.
fn shown(raw: &str, parts: &[&str]) -> String {
    let mut shown = raw.trim_end_matches('/').to_owned();
    for part in parts {
        shown.push('/');
        shown.push_str(part);
    }
    shown
}

fn eval_cases(
    raw: &str,
    folder: &Path,
    location: &Location<'_>,
    subjects: &[Resolved<'_>],
    found: &mut Vec<Diagnostic>,
) -> Vec<Task> {
    let names = match location.list(folder) {
        Ok(names) => names,
        Err(reason) => {
            found.push(tasks_fail(
                raw,
                &format!("cannot be listed: {}", io_reason(&reason)),
            ));
            return Vec::new();
        }
    };
    let mut tasks = Vec::new();
    for name in names {
        let case = folder.join(&name);
        if name == "mocks" || location.entry(&case) != Entry::Folder {
            continue;
        }
        if let Some(task) = eval_case(raw, &name, &case, location, subjects, found) {
            tasks.push(task);
        }
    }
    tasks
}

fn eval_case(
    raw: &str,
    name: &str,
    case: &Path,
    location: &Location<'_>,
    subjects: &[Resolved<'_>],
    found: &mut Vec<Diagnostic>,
) -> Option<Task> {
    let prompt_shown = shown(raw, &[name, "prompt.md"]);
    let prompt_path = case.join("prompt.md");
    if !matches!(location.entry(&prompt_path), Entry::File(_)) {
        found.push(case_fails(&shown(raw, &[name]), "has no prompt.md file"));
        return None;
    }
    let text = read_text(location, &prompt_path)
        .map_err(|reason| {
            found.push(case_fails(
                &prompt_shown,
                format!("cannot be read: {reason}"),
            ))
        })
        .ok()?;
    let meta = front_matter(&text)
        .map_err(|reason| found.push(case_fails(&prompt_shown, reason)))
        .ok()?;
    let body = meta.body;
    if body.trim().is_empty() {
        found.push(case_fails(&prompt_shown, "has an empty prompt body"));
        return None;
    }
    let named = format!(
        "task {} of {}",
        quote(&shorten(name)),
        quote(&shorten(&prompt_shown))
    );
    // context-report takes `list(meta.get(field) or [])`: a false value
    // is no entry.
    let strings = |field: &'static str| -> Result<Vec<String>, Uncompiled> {
        let value = meta.meta.get(field);
        if !truthy(value) {
            return Ok(Vec::new());
        }
        let entry = |index: usize, item: &Value| match meta
            .misread
            .iter()
            .find(|misread| misread.address == address![field, index])
        {
            Some(misread) => Err(Uncompiled::Misread {
                field,
                line: misread.line,
                reading: misread.reading.clone(),
            }),
            None => item
                .as_str()
                .map(str::to_owned)
                .ok_or(Uncompiled::NotStrings(field)),
        };
        match value {
            Some(Value::Array(list)) => list
                .iter()
                .enumerate()
                .map(|(index, item)| entry(index, item))
                .collect(),
            _ => Err(Uncompiled::NotStrings(field)),
        }
    };
    let tags = match strings("tags") {
        Ok(tags) => tags,
        Err(reason) => {
            found.push(case_fails(&prompt_shown, reason));
            return None;
        }
    };
    let plugins = match strings("plugins") {
        Ok(plugins) => plugins,
        Err(reason) => {
            found.push(case_fails(&prompt_shown, reason));
            return None;
        }
    };
    let rules: Vec<(String, Address)> = tags
        .iter()
        .filter_map(|tag| tag.strip_prefix("rule:"))
        .filter(|id| !id.is_empty() && !id.contains('\n'))
        .map(|id| (id.to_owned(), address!["tasks"]))
        .collect();
    let mut task_subjects = Vec::new();
    for (index, plugin) in plugins.iter().enumerate() {
        let real = location.real_path(&case.join(plugin));
        match subjects
            .iter()
            .find(|subject| subject.real.as_ref() == Some(&real))
        {
            Some(subject) => task_subjects.push((subject.id.clone(), address!["tasks"])),
            None => {
                found.push(rule_fails(
                    &super::catalogue::TASK_SUBJECT,
                    &format!(
                        "a task's subjects are subject ids: plugins entry {index} of {}, {}, resolves to no subject's path",
                        quote(&shorten(&prompt_shown)),
                        quote(&shorten(plugin))
                    ),
                    address!["tasks"],
                ));
                return None;
            }
        }
    }
    let mut texts = vec![(body.to_owned(), address!["tasks"], "prompt")];
    let graders = case.join("graders");
    if location.entry(&graders) == Entry::Folder {
        for grader in location.list(&graders).unwrap_or_default() {
            if !grader.ends_with(".md") {
                continue;
            }
            let grader_shown = shown(raw, &[name, "graders", &grader]);
            let text = read_text(location, &graders.join(&grader))
                .map_err(|reason| {
                    found.push(case_fails(
                        &grader_shown,
                        format!("cannot be read: {reason}"),
                    ))
                })
                .ok()?;
            let meta = front_matter(&text)
                .map_err(|reason| found.push(case_fails(&grader_shown, reason)))
                .ok()?
                .meta;
            let kind = meta.get("type");
            if !truthy(kind) {
                found.push(case_fails(&grader_shown, "has no type in its front matter"));
                return None;
            }
            let kind = kind.and_then(Value::as_str).unwrap_or_default();
            if !GRADER_TYPES.contains(&kind) {
                found.push(case_fails(
                    &grader_shown,
                    format!("has a type that is none of {}", GRADER_TYPES.join(", ")),
                ));
                return None;
            }
            if kind == "llm" {
                let criteria = meta.get("criteria");
                if !truthy(criteria) {
                    found.push(case_fails(
                        &grader_shown,
                        "is an llm grader without criteria",
                    ));
                    return None;
                }
                if let Some(text) = criteria.and_then(Value::as_str) {
                    texts.push((text.to_owned(), address!["tasks"], "criteria"));
                }
            }
        }
    }
    Some(Task {
        id: name.to_owned(),
        address: address!["tasks"],
        named,
        subjects: Some(task_subjects).filter(|named| !named.is_empty()),
        rules,
        texts,
    })
}

/// Task ids are unique within the manifest.
pub(super) fn unique_ids(tasks: &[Task]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for (index, task) in tasks.iter().enumerate() {
        if tasks
            .iter()
            .take(index)
            .any(|earlier| earlier.id == task.id)
        {
            let address = if task.address == address!["tasks"] {
                task.address.clone()
            } else {
                task.address.clone().key("id")
            };
            found.push(rule_fails(
                &super::catalogue::TASK_ID_UNIQUE,
                &format!(
                    "task ids are unique: {} is the id of two tasks",
                    quote(&shorten(&task.id))
                ),
                address,
            ));
        }
    }
    found
}

/// Every subject a task names is a subject id.
pub(super) fn known_subjects(tasks: &[Task], subjects: &[Resolved<'_>]) -> Vec<Diagnostic> {
    let ids: Vec<&str> = subjects.iter().map(|subject| subject.id.as_str()).collect();
    let mut found = Vec::new();
    for task in tasks {
        for (named, address) in task.subjects.iter().flatten() {
            if !ids.contains(&named.as_str()) {
                found.push(rule_fails(
                    &super::catalogue::TASK_SUBJECT,
                    &format!(
                        "a task's subjects are subject ids: {} names {}; the subject ids are {}",
                        task.named,
                        quote(&shorten(named)),
                        listed(ids.iter().copied())
                    ),
                    address.clone(),
                ));
            }
        }
    }
    found
}

/// Most ids a message lists.
const LISTED: usize = 12;

fn listed<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    let ids: Vec<String> = ids.map(|id| quote(&shorten(id))).collect();
    if ids.is_empty() {
        return "none".to_owned();
    }
    let more = ids.len().saturating_sub(LISTED);
    let mut text = ids.into_iter().take(LISTED).collect::<Vec<_>>().join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

/// Every rule id a task names is the id of a block of the text of one of
/// its named subjects, as spec 003 says ("which rule ids, within the named
/// subjects"); a task that names no subject may name a block of any.
/// context-report 0.1.0 lets a task of two or more subject names reach any
/// subject's blocks, even when the names repeat one subject: numi follows
/// the spec.
pub(super) fn known_rule_ids(tasks: &[Task], subjects: &[Resolved<'_>]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for task in tasks {
        let names_unknown = task
            .subjects
            .iter()
            .flatten()
            .any(|(id, _)| !subjects.iter().any(|subject| subject.id == *id));
        if names_unknown {
            // Reported as context-report/task-subject.
            continue;
        }
        let of_task: Vec<&Resolved<'_>> = match &task.subjects {
            None => subjects.iter().collect(),
            Some(named) => subjects
                .iter()
                .filter(|subject| named.iter().any(|(id, _)| *id == subject.id))
                .collect(),
        };
        if of_task.iter().any(|subject| subject.rule_ids.is_none()) {
            // A subject whose text cannot be read is reported on its own.
            continue;
        }
        for (rule, address) in &task.rules {
            let known = of_task
                .iter()
                .filter_map(|subject| subject.rule_ids.as_ref())
                .any(|ids| ids.contains(rule));
            if known {
                continue;
            }
            let message = match (of_task.as_slice(), &task.subjects) {
                ([subject], _) => format!(
                    "a task's rule ids name blocks of its subject's text (spec 003): {} names {}, which subject {} does not have; its ids are {}",
                    task.named,
                    quote(&shorten(rule)),
                    quote(&shorten(&subject.id)),
                    listed(subject.rule_ids.iter().flatten().map(String::as_str))
                ),
                (_, Some(_)) => format!(
                    "a task's rule ids name blocks of its subjects' text (spec 003: within the named subjects): {} names {}, which none of its subjects {} has",
                    task.named,
                    quote(&shorten(rule)),
                    listed(of_task.iter().map(|subject| subject.id.as_str()))
                ),
                (_, None) => format!(
                    "a task's rule ids name blocks of its subjects' text: {} names {}, which no subject has",
                    task.named,
                    quote(&shorten(rule))
                ),
            };
            found.push(rule_fails(
                &super::catalogue::RULE_ID,
                &message,
                address.clone(),
            ));
        }
    }
    found
}

#[cfg(test)]
mod error_tests {
    use super::{Uncompiled, Unread};
    use crate::location::ReadError;
    use crate::yaml::Problem;

    #[test]
    fn why_a_case_does_not_compile_reads_as_before() {
        let cases = [
            (
                Uncompiled::NoOpening,
                "has no front matter (a first line `---`)",
            ),
            (
                Uncompiled::NoClosing,
                "has no front matter (no closing `---`)",
            ),
            (
                Uncompiled::Tab { line: 3, column: 7 },
                "has front matter PyYAML cannot read, as context-report reads it: line 3 holds a tab at column 7, where PyYAML's scanner takes spaces alone; use spaces",
            ),
            (
                Uncompiled::NotAMapping,
                "has front matter that is not a YAML mapping",
            ),
            (
                Uncompiled::NotStrings("plugins"),
                "has plugins that are not a list of strings",
            ),
        ];
        for (reason, message) in cases {
            assert_eq!(reason.to_string(), message);
        }
        let problem = Problem::DuplicateKey;
        assert_eq!(
            Uncompiled::NotYaml {
                problem,
                line: Some(4)
            }
            .to_string(),
            "has front matter that is not YAML (yaml/duplicate-key at line 4)"
        );
        assert_eq!(
            Uncompiled::NotYaml {
                problem,
                line: None
            }
            .to_string(),
            "has front matter that is not YAML (yaml/duplicate-key)"
        );
        assert_eq!(Unread::NotUtf8.to_string(), "is not UTF-8 text");
        assert_eq!(
            Unread::Read(ReadError::Unreadable("no such file".to_owned())).to_string(),
            "no such file"
        );
    }
}
