//! What a manifest's paths name, resolved against the manifest's folder as
//! `context-report` resolves them: the subjects, their workdirs and text,
//! and the output folder. Only what a check needs is looked at, through
//! the document's [`Location`]; nothing but rule ids is taken from the
//! files read.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::manifest::SubjectEntry;
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::checks::rule_fails;
use crate::kinds::context_report::slug::block_ids;
use crate::location::{Entry, Location};
use crate::text::{quote, shorten};

/// Deepest folder a plugin's text is looked for in, and most entries
/// looked at: a link loop or a huge tree costs no more than this.
const MAX_DEPTH: usize = 16;
const MAX_ENTRIES: usize = 10_000;

/// A subject as the run sees it.
#[derive(Debug, Clone)]
pub(super) struct Resolved<'a> {
    pub entry: SubjectEntry<'a>,
    /// As written, or the last name of the resolved path.
    pub id: String,
    /// The path with its links resolved; `None` without a folder.
    pub real: Option<PathBuf>,
    /// The ids of every block of the text the subject's kind injects;
    /// `None` when that text could not be read or there is no folder.
    pub rule_ids: Option<Vec<String>>,
}

/// Every subject resolved, with what is wrong with its path, workdir or
/// text.
pub(super) fn resolve_subjects<'a>(
    entries: Vec<SubjectEntry<'a>>,
    location: &Location<'_>,
    found: &mut Vec<Diagnostic>,
) -> Vec<Resolved<'a>> {
    entries
        .into_iter()
        .map(|entry| {
            let Some(path) = location.resolve(entry.path) else {
                return Resolved {
                    id: entry.lexical_id(),
                    entry,
                    real: None,
                    rule_ids: None,
                };
            };
            let real = location.real_path(&path);
            let id = entry.id.map_or_else(
                || {
                    real.file_name().map_or_else(
                        || entry.lexical_id(),
                        |name| name.to_string_lossy().into_owned(),
                    )
                },
                str::to_owned,
            );
            if let Some(workdir) = entry.workdir {
                found.extend(check_workdir(&entry, workdir, location));
            }
            let rule_ids = match check_path(&entry, &path, location) {
                Some(problem) => {
                    found.push(problem);
                    None
                }
                None => read_rule_ids(&entry, &path, location, found),
            };
            Resolved {
                entry,
                id,
                real: Some(real),
                rule_ids,
            }
        })
        .collect()
}

fn path_fails(entry: &SubjectEntry<'_>, reason: &str) -> Diagnostic {
    rule_fails(
        &super::catalogue::SUBJECT_PATH,
        &format!(
            "a subject's path exists and fits its kind: {} {reason}",
            quote(&shorten(entry.path))
        ),
        entry.address().key("path"),
    )
}

/// What is wrong with what stands at a subject's path, if anything.
fn check_path(
    entry: &SubjectEntry<'_>,
    path: &Path,
    location: &Location<'_>,
) -> Option<Diagnostic> {
    match (location.entry(path), entry.kind) {
        (Entry::Missing, _) => Some(path_fails(entry, "does not exist")),
        (Entry::Other(reason), _) => Some(path_fails(entry, &format!("cannot be used: {reason}"))),
        (Entry::Folder, "instruction-file" | "subagent") => Some(path_fails(
            entry,
            &format!("is a folder, and an {} subject is a file", entry.kind),
        )),
        (Entry::File(_), "skill") => Some(path_fails(
            entry,
            "is a file, and a skill subject is a folder holding SKILL.md",
        )),
        (Entry::Folder, "skill") => match location.entry(&path.join("SKILL.md")) {
            Entry::File(_) => None,
            _ => Some(path_fails(entry, "holds no SKILL.md file")),
        },
        _ => None,
    }
}

fn check_workdir(
    entry: &SubjectEntry<'_>,
    workdir: &str,
    location: &Location<'_>,
) -> Option<Diagnostic> {
    let path = location.resolve(workdir)?;
    let reason = match location.entry(&path) {
        Entry::Folder => return None,
        Entry::File(_) => "is a file".to_owned(),
        Entry::Missing => "does not exist".to_owned(),
        Entry::Other(reason) => format!("cannot be used: {reason}"),
    };
    Some(rule_fails(
        &super::catalogue::WORKDIR,
        &format!(
            "a subject's workdir is an existing folder: {} {reason}",
            quote(&shorten(workdir))
        ),
        entry.address().key("workdir"),
    ))
}

/// The hooks files a plugin's text includes when they exist, one per
/// target layout context-report 0.1.0 knows (`bundle-layout-v0.1.json`).
const PLUGIN_HOOKS_FILES: [&str; 2] = ["hooks/hooks.json", "com.github.copilot/hooks/hooks.json"];

/// The files whose text a subject of `kind` injects, as context-report
/// reads them: instruction-file and subagent the file; skill `SKILL.md`
/// and the other top-level `*.md`; plugin `skills/**/SKILL.md`,
/// `rules/**/*.md` and its hooks file; mcp-server the top-level `*.json`;
/// hook nothing. Like Python's `glob`, a pattern takes whatever entry
/// matches its name, a folder too: context-report then fails to read it,
/// and so does [`read_rule_ids`], naming it.
fn injected_files(kind: &str, path: &Path, location: &Location<'_>) -> Vec<PathBuf> {
    let top_level = |accept: &dyn Fn(&str) -> bool| -> Vec<PathBuf> {
        location
            .list(path)
            .unwrap_or_default()
            .into_iter()
            .filter(|name| accept(name))
            .map(|name| path.join(name))
            .collect()
    };
    match kind {
        "instruction-file" | "subagent" => vec![path.to_path_buf()],
        "skill" => {
            let mut files = vec![path.join("SKILL.md")];
            files.extend(top_level(&|name| {
                name.ends_with(".md") && name != "SKILL.md"
            }));
            files
        }
        "plugin" => {
            let mut files = Vec::new();
            let mut budget = MAX_ENTRIES;
            walk(
                location,
                &path.join("skills"),
                0,
                &|name| name == "SKILL.md",
                &mut files,
                &mut budget,
            );
            walk(
                location,
                &path.join("rules"),
                0,
                &|name| name.ends_with(".md"),
                &mut files,
                &mut budget,
            );
            files.extend(
                PLUGIN_HOOKS_FILES
                    .iter()
                    .map(|hooks| path.join(hooks))
                    .filter(|hooks| location.entry(hooks) != Entry::Missing),
            );
            files
        }
        "mcp-server" => top_level(&|name| name.ends_with(".json")),
        _ => Vec::new(),
    }
}

/// The entries under `folder` whose name `accept`s, depth and entries
/// bounded. A folder is searched below, and taken too when its name
/// matches, as Python's `rglob` takes it.
fn walk(
    location: &Location<'_>,
    folder: &Path,
    depth: usize,
    accept: &dyn Fn(&str) -> bool,
    files: &mut Vec<PathBuf>,
    budget: &mut usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for name in location.list(folder).unwrap_or_default() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let path = folder.join(&name);
        let entry = location.entry(&path);
        if accept(&name) {
            files.push(path.clone());
        }
        if entry == Entry::Folder {
            walk(location, &path, depth + 1, accept, files, budget);
        }
    }
}

/// The block ids of a subject's text, or `None` (and why) when a file of
/// it cannot be read as UTF-8 text within the size limit.
fn read_rule_ids(
    entry: &SubjectEntry<'_>,
    path: &Path,
    location: &Location<'_>,
    found: &mut Vec<Diagnostic>,
) -> Option<Vec<String>> {
    let mut ids = Vec::new();
    let mut readable = true;
    for file in injected_files(entry.kind, path, location) {
        let text = match location.entry(&file) {
            Entry::Folder => Err(
                "is a folder where context-report reads a file: its run fails reading it"
                    .to_owned(),
            ),
            _ => location
                .read(&file)
                .map_err(|reason| reason.to_string())
                .and_then(|bytes| {
                    String::from_utf8(bytes).map_err(|_| "is not UTF-8 text".to_owned())
                }),
        };
        match text {
            // Repeats are numbered within one file, as context-report does.
            Ok(text) => ids.extend(block_ids(&text)),
            Err(reason) => {
                readable = false;
                let shown = file
                    .strip_prefix(location.folder().unwrap_or(Path::new("")))
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                found.push(rule_fails(
                    &super::catalogue::SUBJECT_TEXT,
                    &format!(
                        "a subject's text can be read: {}: {reason}",
                        quote(&shorten(&shown))
                    ),
                    entry.address().key("path"),
                ));
            }
        }
    }
    readable.then_some(ids)
}

/// `out` is neither a subject's path nor inside or around one: writing
/// there would change the subject's digest during the run measuring it.
pub(super) fn out_overlaps(
    document: &Value,
    subjects: &[Resolved<'_>],
    location: &Location<'_>,
) -> Vec<Diagnostic> {
    let Some(raw) = document.get("out").and_then(Value::as_str) else {
        return Vec::new();
    };
    let Some(out) = location.resolve(raw).map(|path| location.real_path(&path)) else {
        return Vec::new();
    };
    subjects
        .iter()
        .filter(|subject| {
            subject
                .real
                .as_ref()
                .is_some_and(|real| out.starts_with(real) || real.starts_with(&out))
        })
        .map(|subject| {
            rule_fails(
                &super::catalogue::OUT_OVERLAPS_SUBJECT,
                &format!(
                    "out is neither a subject's path nor inside or around one: {} overlaps subject {}",
                    quote(&shorten(raw)),
                    quote(&shorten(&subject.id))
                ),
                address!["out"],
            )
        })
        .collect()
}
