//! The repository's configuration file, `numi.toml`: what a repository says
//! once instead of on every command line (alpha kinds, `--strict`, paths to
//! leave out, a rule's severity, per-path overrides). Found from the folder
//! a run starts in, upward to the repository root; read strictly (an
//! unknown key is refused, with the nearest known one).

use std::fmt;
use std::fs;
use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use toml::{Table, Value};

use crate::diagnostic::Severity;
use crate::inputs::ExcludePatterns;
use crate::location::io_reason;
use crate::suggest::nearest;
use crate::text::quote;

/// The file numi looks for.
pub const FILE_NAME: &str = "numi.toml";

/// The JSON Schema of the file, as `numi schema numi.toml` prints it.
pub const SCHEMA: &str = include_str!("../schemas/numi.toml.schema.json");

/// What a configuration can make of a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The rule does not run: its findings are dropped.
    Off,
    Warning,
    Error,
}

impl Level {
    /// The severity a finding gets, or `None` when the rule is off.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Off => None,
            Level::Warning => Some(Severity::Warning),
            Level::Error => Some(Severity::Error),
        }
    }
}

/// A configuration file, read and checked.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The file it was read from; `None` for the defaults.
    pub path: Option<PathBuf>,
    /// The folder its paths are relative to.
    pub root: PathBuf,
    pub enable_alpha: Option<bool>,
    pub strict: Option<bool>,
    /// Paths left out of folder walks: gitignore-style patterns, as
    /// `--exclude` takes them, relative to the configuration's folder.
    pub exclude: Vec<String>,
    /// Severities by rule id.
    pub rules: Vec<(String, Level)>,
    /// Severities by rule id for the paths matching globs, later overrides
    /// winning.
    pub overrides: Vec<Override>,
}

#[derive(Debug, Clone)]
pub struct Override {
    pub paths: Vec<String>,
    pub rules: Vec<(String, Level)>,
}

/// Why a configuration cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// The nearest `numi.toml` from `start` upward, stopping at the folder that
/// holds `.git` (the repository root) or at the filesystem root.
pub fn discover(start: &Path) -> Option<PathBuf> {
    let start = fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    for folder in start.ancestors() {
        let candidate = folder.join(FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        if folder.join(".git").exists() {
            return None;
        }
    }
    None
}

/// Reads and checks the configuration file at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let fail = |message: String| ConfigError {
        path: path.to_path_buf(),
        message,
    };
    let text = fs::read_to_string(path).map_err(|error| fail(io_reason(&error)))?;
    let root = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let root = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut config = parse(&text).map_err(fail)?;
    config.path = Some(path.to_path_buf());
    config.root = root;
    Ok(config)
}

const TOP_KEYS: &[&str] = &["enable-alpha", "strict", "exclude", "rules", "overrides"];
const OVERRIDE_KEYS: &[&str] = &["paths", "rules"];

/// Parses the text of a configuration file.
pub fn parse(text: &str) -> Result<Config, String> {
    let table: Table = text.parse().map_err(|error: toml::de::Error| {
        let mut message = error.message().to_owned();
        if let Some(span) = error.span() {
            let (line, column) = line_column(text, span.start);
            message = format!("{message} at line {line} column {column}");
        }
        message
    })?;
    known_keys(&table, TOP_KEYS, "")?;
    let mut config = Config::default();
    if let Some(value) = table.get("enable-alpha") {
        config.enable_alpha = Some(boolean(value, "enable-alpha")?);
    }
    if let Some(value) = table.get("strict") {
        config.strict = Some(boolean(value, "strict")?);
    }
    if let Some(value) = table.get("exclude") {
        config.exclude = exclude_patterns(value)?;
    }
    if let Some(value) = table.get("rules") {
        config.rules = levels(value, "rules")?;
    }
    if let Some(value) = table.get("overrides") {
        let Value::Array(entries) = value else {
            return Err("overrides is a list of tables ([[overrides]])".to_owned());
        };
        for (i, entry) in entries.iter().enumerate() {
            let at = format!("overrides[{i}]");
            let Value::Table(entry) = entry else {
                return Err(format!("{at} is a table"));
            };
            known_keys(entry, OVERRIDE_KEYS, &format!("{at}."))?;
            let paths = match entry.get("paths") {
                Some(value) => globs(value, &format!("{at}.paths"))?,
                None => return Err(format!("{at} needs paths")),
            };
            let rules = match entry.get("rules") {
                Some(value) => levels(value, &format!("{at}.rules"))?,
                None => Vec::new(),
            };
            config.overrides.push(Override { paths, rules });
        }
    }
    Ok(config)
}

fn known_keys(table: &Table, known: &[&str], prefix: &str) -> Result<(), String> {
    for key in table.keys() {
        if !known.contains(&key.as_str()) {
            let hint = nearest(key, known.iter().copied())
                .map(|near| format!(" (did you mean {}?)", quote(&format!("{prefix}{near}"))))
                .unwrap_or_default();
            return Err(format!(
                "unknown key {}{hint}",
                quote(&format!("{prefix}{key}"))
            ));
        }
    }
    Ok(())
}

fn boolean(value: &Value, key: &str) -> Result<bool, String> {
    value
        .as_bool()
        .ok_or_else(|| format!("{key} is true or false"))
}

fn globs(value: &Value, key: &str) -> Result<Vec<String>, String> {
    let Value::Array(items) = value else {
        return Err(format!("{key} is a list of globs"));
    };
    items
        .iter()
        .map(|item| {
            let glob = item
                .as_str()
                .ok_or_else(|| format!("{key} is a list of globs"))?;
            Glob::new(glob).map_err(|error| format!("{key}: {}: {}", quote(glob), error.kind()))?;
            Ok(glob.to_owned())
        })
        .collect()
}

/// The `exclude` patterns, gitignore-style as `--exclude` takes them.
fn exclude_patterns(value: &Value) -> Result<Vec<String>, String> {
    let Value::Array(items) = value else {
        return Err("exclude is a list of gitignore-style patterns".to_owned());
    };
    let patterns = items
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_owned)
                .ok_or_else(|| "exclude is a list of gitignore-style patterns".to_owned())
        })
        .collect::<Result<Vec<String>, String>>()?;
    ExcludePatterns::new(&patterns)?;
    Ok(patterns)
}

fn levels(value: &Value, key: &str) -> Result<Vec<(String, Level)>, String> {
    let Value::Table(table) = value else {
        return Err(format!(
            "{key} is a table of rule ids and \"off\", \"warning\" or \"error\""
        ));
    };
    table
        .iter()
        .map(|(rule, level)| {
            let level = match level.as_str() {
                Some("off") => Level::Off,
                Some("warning") => Level::Warning,
                Some("error") => Level::Error,
                _ => {
                    return Err(format!(
                        "{key}.{}: the level is \"off\", \"warning\" or \"error\"",
                        quote(rule)
                    ));
                }
            };
            Ok((rule.clone(), level))
        })
        .collect()
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map_or(0, |last| last.chars().count())
        + 1;
    (line, column)
}

impl Config {
    /// Every rule id the configuration names, for the caller to check
    /// against the catalogue.
    pub fn rule_ids(&self) -> impl Iterator<Item = &str> {
        self.rules
            .iter()
            .chain(self.overrides.iter().flat_map(|o| o.rules.iter()))
            .map(|(rule, _)| rule.as_str())
    }

    /// The severities to apply, compiled for matching paths; the paths of
    /// a run are relative to `base` (the repository in repository mode, the
    /// current folder with `--files`).
    pub fn policy(&self, base: &Path) -> Result<Policy, String> {
        let mut overrides = Vec::new();
        for entry in &self.overrides {
            overrides.push((glob_set(&entry.paths)?, entry.rules.clone()));
        }
        let base = fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
        Ok(Policy {
            base,
            root: self.root.clone(),
            rules: self.rules.clone(),
            overrides,
            exclude: ExcludePatterns::new(&self.exclude)?,
        })
    }
}

fn glob_set(globs: &[String]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for glob in globs {
        builder.add(Glob::new(glob).map_err(|error| error.to_string())?);
    }
    builder.build().map_err(|error| error.to_string())
}

/// A configuration's severities, ready for the findings of a run.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    base: PathBuf,
    root: PathBuf,
    rules: Vec<(String, Level)>,
    overrides: Vec<(GlobSet, Vec<(String, Level)>)>,
    exclude: ExcludePatterns,
}

impl Policy {
    /// Whether the policy changes anything.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.overrides.is_empty() && self.exclude.is_empty()
    }

    /// The level the configuration sets for `rule` on the file at `path`
    /// (as given: relative to the run's base, or absolute), if it sets one.
    pub fn level(&self, rule: &str, path: &Path) -> Option<Level> {
        let mut level = find_level(&self.rules, rule);
        if self.overrides.is_empty() {
            return level;
        }
        let relative = self.relative(path);
        for (paths, rules) in &self.overrides {
            if relative.as_deref().is_some_and(|path| paths.is_match(path)) {
                level = find_level(rules, rule).or(level);
            }
        }
        level
    }

    /// Whether a path found by walking a folder is left out.
    pub fn excludes(&self, path: &Path) -> bool {
        // Every file of a walk asks: without patterns, no path is worked out.
        !self.exclude.is_empty()
            && self
                .relative(path)
                .is_some_and(|relative| self.exclude.excludes(&relative))
    }

    /// `path` relative to the configuration's folder, `/` separated; `None`
    /// for a path outside it.
    fn relative(&self, path: &Path) -> Option<String> {
        let absolute = normalise(&self.base.join(path));
        let rest = absolute.strip_prefix(&self.root).ok()?;
        let words: Vec<&str> = rest
            .components()
            .filter_map(|component| match component {
                Component::Normal(word) => word.to_str(),
                _ => None,
            })
            .collect();
        Some(words.join("/"))
    }
}

fn find_level(rules: &[(String, Level)], rule: &str) -> Option<Level> {
    rules
        .iter()
        .rev()
        .find(|(id, _)| id == rule)
        .map(|(_, level)| *level)
}

/// `path` without `.` steps, and `..` steps taken back, by its words.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests;
