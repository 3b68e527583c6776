//! The repository's configuration file, `numi.toml`: what a repository says
//! once instead of on every command line (alpha kinds, `--strict`, paths to
//! leave out, a rule's severity, per-path overrides). Found from the folder
//! a run starts in, upward to the repository root; read strictly (an
//! unknown key is refused, with the nearest known one) into [`File`],
//! whose types also write the file's JSON Schema.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

use schemars::JsonSchema;
use serde::Deserialize;

use crate::diagnostic::Severity;
use crate::inputs::{BadPattern, PathPatterns};
use crate::location::{ReadError, read_regular};
use crate::suggest::nearest;
use crate::text::{human_size, quote, shorten};

/// The file numi looks for.
pub const FILE_NAME: &str = "numi.toml";

/// The largest configuration file read: a `numi.toml` is a few lines, and
/// one far larger is a mistake or an attack on the machine that runs numi.
pub const MAX_CONFIG_SIZE: u64 = 1024 * 1024;

/// The most patterns (`exclude` and every `overrides` entry's `paths`
/// together) a configuration may hold: each is compiled, so their number
/// bounds the memory a run spends on them.
pub const MAX_PATTERNS: usize = 1000;

/// The longest pattern, in bytes.
pub const MAX_PATTERN_LENGTH: usize = 1024;

/// The JSON Schema of the file, as committed for editors and printed by
/// `numi schema --config`; `tests/integration/config.rs` fails when it is
/// not [`schema`]'s output.
pub const SCHEMA: &str = include_str!("../schemas/numi.toml.schema.json");

/// What a configuration can make of a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
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

/// numi's configuration file, at the repository root. Paths are relative to
/// the file's folder.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "numi.toml")]
pub struct File {
    /// Read alpha kinds (EvalSet) in the configuration tree, as
    /// --enable-alpha does.
    // TOML has no null: a key left out is how a setting is left unset, and
    // the schema requires none.
    #[serde(default)]
    #[schemars(with = "bool", transform = without_default)]
    pub enable_alpha: Option<bool>,
    /// Producer-side findings fail the document, as --strict does.
    #[serde(default)]
    #[schemars(with = "bool", transform = without_default)]
    pub strict: Option<bool>,
    /// Gitignore-style patterns of paths left out when folders are walked,
    /// as --exclude takes them. A file named on the command line is always
    /// read.
    #[serde(default)]
    #[schemars(extend("maxItems" = MAX_PATTERNS), inner(length(max = MAX_PATTERN_LENGTH)))]
    pub exclude: Vec<String>,
    /// The level of a rule: off (it does not run), warning or error. Rules
    /// of the rule stage and producer-side checks only.
    #[serde(default)]
    pub rules: BTreeMap<String, Level>,
    /// Levels for the paths matching globs; a later override wins over an
    /// earlier one and over rules.
    #[serde(default)]
    pub overrides: Vec<FileOverride>,
    /// The rules that run, as --select takes them: full rule ids or a
    /// family (`playbook` or `playbook/`); every rule of the rule stage
    /// when left out.
    #[serde(default)]
    #[schemars(with = "Vec<String>", transform = without_default)]
    pub select: Option<Vec<String>>,
    /// Rules that do not run, as --ignore takes them; the more specific of
    /// a select and an ignore wins, an ignore at equal specificity.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// A baseline file (written by --write-baseline) whose findings are not
    /// reported, as --baseline names it; relative to this file's folder.
    #[serde(default)]
    #[schemars(with = "String", transform = without_default)]
    pub baseline: Option<String>,
}

/// A key TOML leaves unset by leaving it out has no default to show: its
/// `null` is not a TOML value.
fn without_default(schema: &mut schemars::Schema) {
    schema.remove("default");
}

/// One `[[overrides]]` entry.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileOverride {
    /// Globs of the paths the levels hold for.
    #[schemars(extend("maxItems" = MAX_PATTERNS), inner(length(max = MAX_PATTERN_LENGTH)))]
    pub paths: Vec<String>,
    /// The levels of rules for those paths.
    #[serde(default)]
    pub rules: BTreeMap<String, Level>,
}

/// The JSON Schema of `numi.toml`, written from the types that read it.
pub fn schema() -> String {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<File>();
    schema.insert(
        "$id".to_owned(),
        "https://numinance.dev/schemas/numi.toml.schema.json".into(),
    );
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
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
    /// The file's `select` and `ignore`.
    pub selection: RuleSelection,
    /// The file's `baseline`, relative to its folder.
    pub baseline: Option<String>,
}

/// One layer of rule selection (`numi.toml`'s `select` and `ignore`, or
/// the command line's): the rules that run, as ruff's `select` and
/// `ignore` say it. A selector is a full rule id or a family, the part
/// of an id before its `/` (`playbook` or `playbook/`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleSelection {
    /// The rules that run, when given: the layers below no longer count.
    pub select: Option<Vec<String>>,
    /// Rules that do not run.
    pub ignore: Vec<String>,
}

impl RuleSelection {
    /// Whether the layer says nothing.
    pub fn is_empty(&self) -> bool {
        self.select.is_none() && self.ignore.is_empty()
    }

    /// Whether `rule` runs under this layer, given whether it ran under the
    /// layers below: the most specific selector naming it decides (a full
    /// id over a family), an ignore over a select of the same specificity;
    /// a layer with `select` that names it in neither list turns it off.
    pub fn runs(&self, rule: &str, below: bool) -> bool {
        let most_specific = |selectors: &[String]| {
            selectors
                .iter()
                .filter_map(|selector| specificity(selector, rule))
                .max()
        };
        let selected = self.select.as_deref().and_then(most_specific);
        match (selected, most_specific(&self.ignore)) {
            (Some(selected), Some(ignored)) => selected > ignored,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => below && self.select.is_none(),
        }
    }
}

/// How closely `selector` names `rule`: 2 for the rule's id, 1 for its
/// family, `None` when it does not name it.
fn specificity(selector: &str, rule: &str) -> Option<u8> {
    if selector == rule {
        return Some(2);
    }
    let family = selector.strip_suffix('/').unwrap_or(selector);
    let (own, _) = rule.split_once('/')?;
    (!family.is_empty() && own == family).then_some(1)
}

/// The family a selector names, if it can name one: the selector without
/// a trailing `/`, neither empty nor holding another `/`.
fn family_named(selector: &str) -> Option<&str> {
    Some(selector.strip_suffix('/').unwrap_or(selector))
        .filter(|family| !family.is_empty() && !family.contains('/'))
}

/// The family of a rule: its id before the first `/`.
fn family_of(rule: &str) -> Option<&str> {
    rule.split_once('/').map(|(family, _)| family)
}

/// The selectors of one list, as sets: a rule is named by its id or by
/// its family in one look each, however long the list.
#[derive(Debug, Default)]
struct Named<'a> {
    ids: HashSet<&'a str>,
    families: HashSet<&'a str>,
}

impl<'a> Named<'a> {
    fn new(selectors: &'a [String]) -> Self {
        Named {
            ids: selectors.iter().map(String::as_str).collect(),
            families: selectors.iter().filter_map(|s| family_named(s)).collect(),
        }
    }

    /// [`specificity`] of the most specific selector of the list for
    /// `rule`, or for a rule of `family` that no selector names by id
    /// when `rule` is `None`.
    fn specificity(&self, rule: Option<&str>, family: Option<&str>) -> Option<u8> {
        if rule.is_some_and(|rule| self.ids.contains(rule)) {
            return Some(2);
        }
        family
            .filter(|family| !family.is_empty() && self.families.contains(family))
            .map(|_| 1)
    }
}

/// The layers of rule selection resolved once, when the configuration is
/// made: whether a rule runs is then a lookup, however many selectors the
/// layers hold. Only the ids and families the selectors name can differ
/// from the rest, so the table holds those and what holds otherwise.
#[derive(Debug, Clone)]
struct Selected {
    /// Each id a selector names, and whether that rule runs.
    ids: HashMap<String, bool>,
    /// Each family a selector names, and whether a rule of it that no
    /// selector names by id runs.
    families: HashMap<String, bool>,
    /// Whether a rule no selector names, by id or family, runs.
    otherwise: bool,
}

impl Default for Selected {
    fn default() -> Self {
        Selected::new(&[])
    }
}

impl Selected {
    fn new(layers: &[RuleSelection]) -> Self {
        let named: Vec<(Option<Named<'_>>, Named<'_>)> = layers
            .iter()
            .map(|layer| {
                (
                    layer.select.as_deref().map(Named::new),
                    Named::new(&layer.ignore),
                )
            })
            .collect();
        // RuleSelection::runs, each layer's lists looked up instead of read.
        let runs = |rule: Option<&str>, family: Option<&str>| {
            named
                .iter()
                .zip(layers)
                .fold(true, |below, ((select, ignore), layer)| {
                    count_look();
                    let selected = select
                        .as_ref()
                        .and_then(|select| select.specificity(rule, family));
                    match (selected, ignore.specificity(rule, family)) {
                        (Some(selected), Some(ignored)) => selected > ignored,
                        (Some(_), None) => true,
                        (None, Some(_)) => false,
                        (None, None) => below && layer.select.is_none(),
                    }
                })
        };
        let mut ids = HashMap::new();
        let mut families = HashMap::new();
        for selector in layers
            .iter()
            .flat_map(|layer| layer.select.iter().flatten().chain(&layer.ignore))
        {
            if !ids.contains_key(selector.as_str()) {
                let runs = runs(Some(selector), family_of(selector));
                ids.insert(selector.clone(), runs);
            }
            if let Some(family) = family_named(selector) {
                if !families.contains_key(family) {
                    families.insert(family.to_owned(), runs(None, Some(family)));
                }
            }
        }
        Selected {
            ids,
            families,
            otherwise: runs(None, None),
        }
    }

    /// Whether `rule` runs.
    fn runs(&self, rule: &str) -> bool {
        count_look();
        if let Some(&runs) = self.ids.get(rule) {
            return runs;
        }
        family_of(rule)
            .and_then(|family| self.families.get(family))
            .copied()
            .unwrap_or(self.otherwise)
    }
}

// The looks into the selection this thread made (a layer weighed for one
// name while the table is made, or a rule looked up in it), counted in
// tests only: the tests bound what a finding costs, whatever the number
// of selectors.
#[cfg(test)]
thread_local! {
    static LOOKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
fn count_look() {
    LOOKS.with(|looks| looks.set(looks.get().saturating_add(1)));
}

#[cfg(not(test))]
fn count_look() {}

/// The looks counted on this thread since the last call.
#[cfg(test)]
fn take_looks() -> usize {
    LOOKS.with(|looks| looks.replace(0))
}

#[derive(Debug, Clone)]
pub struct Override {
    pub paths: Vec<String>,
    pub rules: Vec<(String, Level)>,
}

/// Why a configuration file cannot be used: the file, and what is wrong
/// with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {problem}", .path.display())]
pub struct ConfigError {
    pub path: PathBuf,
    pub problem: Problem,
}

/// What is wrong with a configuration file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// It holds more than this many bytes.
    #[error("the file is larger than {}, the most a configuration may hold", human_size(*.0))]
    TooLarge(u64),
    /// It cannot be opened or read, or is not a regular file: the reason
    /// as people read it.
    #[error("{0}")]
    Unreadable(String),
    #[error("the file is not UTF-8")]
    NotUtf8,
    #[error(transparent)]
    Parse(#[from] ParseError),
}

/// Why the text of a configuration file cannot be used. `at` names the
/// pattern a variant is about: `exclude[0]`, `overrides[1].paths[2]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Not TOML, or a key or a value the file does not take: what is
    /// wrong, the key it is about (an unknown one with the nearest known
    /// one) and where it stands.
    #[error("{0}")]
    Toml(String),
    #[error(
        "{at}: more than {MAX_PATTERNS} patterns in the file (exclude and overrides' paths together)"
    )]
    TooManyPatterns { at: String },
    #[error(
        "{at}: a pattern of {length} bytes, longer than the {MAX_PATTERN_LENGTH} a pattern may have"
    )]
    LongPattern { at: String, length: usize },
    #[error("{at}: {}: {reason}", quote(.pattern))]
    Pattern {
        at: String,
        pattern: String,
        reason: BadPattern,
    },
}

/// A pattern of a configuration that does not compile into its policy:
/// the file it is in (none for the defaults), where it stands in the file
/// (`exclude[0]`, `overrides[1].paths[2]`), and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{at}: {reason}", in_file(.file.as_deref()))]
pub struct PolicyError {
    pub file: Option<PathBuf>,
    pub at: String,
    pub reason: BadPattern,
}

/// The file a message is about, as the message starts: `path: `.
fn in_file(file: Option<&Path>) -> String {
    file.map(|path| format!("{}: ", path.display()))
        .unwrap_or_default()
}

/// The nearest `numi.toml` among the [`folders_upward`] of `start`. Whatever
/// stands at that name counts, a link to nothing or a folder too: reading it
/// then fails loudly, where passing over it would silently drop the
/// settings it was meant to hold.
pub fn discover(start: &Path) -> Option<PathBuf> {
    let start = fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    folders_upward(&start)
        .map(|folder| folder.join(FILE_NAME))
        .find(|candidate| fs::symlink_metadata(candidate).is_ok())
}

/// Where settings for `start` may come from, nearest first: `start`, and,
/// when `start` lies inside a git repository, each folder above it up to
/// the repository's top (the folder that holds `.git`), never past it.
/// Outside a git repository, `start` alone: a `numi.toml` or a
/// `.numinance/` planted in a parent that others can write to (a shared
/// temporary folder) never decides a run, as git refuses a repository it
/// does not trust.
pub fn folders_upward(start: &Path) -> impl Iterator<Item = &Path> {
    let is_top = |folder: &Path| folder.join(".git").exists();
    let top = start.ancestors().position(is_top);
    start.ancestors().take(top.map_or(1, |top| top + 1))
}

/// Reads and checks the configuration file at `path`: a regular file of at
/// most [`MAX_CONFIG_SIZE`] bytes, read as documents are.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let fail = |problem: Problem| ConfigError {
        path: path.to_path_buf(),
        problem,
    };
    let bytes = read_regular(path, MAX_CONFIG_SIZE).map_err(|error| {
        fail(match error {
            ReadError::TooLarge(limit) => Problem::TooLarge(limit),
            ReadError::Unreadable(reason) => Problem::Unreadable(reason),
        })
    })?;
    let text = String::from_utf8(bytes).map_err(|_| fail(Problem::NotUtf8))?;
    let root = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let root = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut config = parse(&text).map_err(|error| fail(Problem::Parse(error)))?;
    config.path = Some(path.to_path_buf());
    config.root = root;
    Ok(config)
}

/// Parses the text of a configuration file.
pub fn parse(text: &str) -> Result<Config, ParseError> {
    let file: File = serde_path_to_error::deserialize(
        toml::Deserializer::parse(text)
            .map_err(|error| ParseError::Toml(toml_reason(text, "", &error)))?,
    )
    .map_err(|error| {
        ParseError::Toml(toml_reason(text, &error.path().to_string(), error.inner()))
    })?;
    let mut patterns = 0usize;
    let mut check = |key: &str, globs: &[String]| {
        for (index, glob) in globs.iter().enumerate() {
            let at = || format!("{key}[{index}]");
            patterns = patterns.saturating_add(1);
            if patterns > MAX_PATTERNS {
                return Err(ParseError::TooManyPatterns { at: at() });
            }
            if glob.len() > MAX_PATTERN_LENGTH {
                return Err(ParseError::LongPattern {
                    at: at(),
                    length: glob.len(),
                });
            }
            PathPatterns::check(glob).map_err(|reason| ParseError::Pattern {
                at: at(),
                pattern: glob.clone(),
                reason,
            })?;
        }
        Ok(())
    };
    check("exclude", &file.exclude)?;
    for (index, entry) in file.overrides.iter().enumerate() {
        check(&format!("overrides[{index}].paths"), &entry.paths)?;
    }
    Ok(Config {
        path: None,
        root: PathBuf::new(),
        enable_alpha: file.enable_alpha,
        strict: file.strict,
        exclude: file.exclude,
        rules: file.rules.into_iter().collect(),
        overrides: file
            .overrides
            .into_iter()
            .map(|entry| Override {
                paths: entry.paths,
                rules: entry.rules.into_iter().collect(),
            })
            .collect(),
        selection: RuleSelection {
            select: file.select,
            ignore: file.ignore,
        },
        baseline: file.baseline,
    })
}

/// A TOML or shape error as a line of the configuration's error: the key
/// it is about, an unknown key with the nearest known one, and where it is.
fn toml_reason(text: &str, path: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end();
    let mut reason = match unknown_field(message) {
        Some((key, expected)) => {
            let full = |name: &str| {
                if path.is_empty() || path == "." {
                    name.to_owned()
                } else {
                    let parent = path.strip_suffix(&format!(".{key}")).unwrap_or(path);
                    if parent == key {
                        name.to_owned()
                    } else {
                        format!("{parent}.{name}")
                    }
                }
            };
            let hint = nearest(key, expected.iter().copied())
                .map(|near| format!(" (did you mean {}?)", quote(&full(near))))
                .unwrap_or_default();
            format!("unknown key {}{hint}", quote(&shorten(&full(key))))
        }
        None if path.is_empty() || path == "." => message.to_owned(),
        None => format!("{path}: {message}"),
    };
    if let Some(span) = error.span() {
        let (line, column) = line_column(text, span.start);
        reason = format!("{reason} at line {line} column {column}");
    }
    reason
}

/// The key and the expected keys of serde's "unknown field `key`, expected
/// `a` or `b`" message, the names between backquotes.
fn unknown_field(message: &str) -> Option<(&str, Vec<&str>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (key, rest) = rest.split_once('`')?;
    let expected = rest.split('`').skip(1).step_by(2).collect();
    Some((key, expected))
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
    pub fn policy(&self, base: &Path) -> Result<Policy, PolicyError> {
        let refused = |at: String, reason: BadPattern| PolicyError {
            file: self.path.clone(),
            at,
            reason,
        };
        let mut overrides = Vec::new();
        for (index, entry) in self.overrides.iter().enumerate() {
            let paths = PathPatterns::new(&entry.paths).map_err(|reason| {
                refused(
                    format!("overrides[{index}].paths[{}]", reason.index),
                    reason,
                )
            })?;
            overrides.push((paths, entry.rules.clone()));
        }
        let base = fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
        let selection: Vec<RuleSelection> = [self.selection.clone()]
            .into_iter()
            .filter(|layer| !layer.is_empty())
            .collect();
        Ok(Policy {
            base,
            root: self.root.clone(),
            rules: self.rules.clone(),
            overrides,
            selected: Selected::new(&selection),
            selection,
            exclude: PathPatterns::new(&self.exclude)
                .map_err(|reason| refused(format!("exclude[{}]", reason.index), reason))?,
        })
    }
}

/// A configuration's severities, ready for the findings of a run.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    base: PathBuf,
    root: PathBuf,
    rules: Vec<(String, Level)>,
    overrides: Vec<(PathPatterns, Vec<(String, Level)>)>,
    exclude: PathPatterns,
    /// The layers of rule selection, the file's first, the command line's
    /// over it.
    selection: Vec<RuleSelection>,
    /// The layers resolved: whether each rule runs.
    selected: Selected,
}

impl Policy {
    /// Whether the policy changes anything.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
            && self.overrides.is_empty()
            && self.exclude.is_empty()
            && self.selection.is_empty()
    }

    /// Adds a layer of rule selection over those already there, and
    /// resolves the layers again.
    pub fn select(&mut self, layer: RuleSelection) {
        if !layer.is_empty() {
            self.selection.push(layer);
            self.selected = Selected::new(&self.selection);
        }
    }

    /// Whether `rule` runs under the layers of selection: every rule does
    /// unless one says otherwise. A lookup in the table the layers were
    /// resolved to when they were set.
    pub fn selects(&self, rule: &str) -> bool {
        self.selected.runs(rule)
    }

    /// The level the configuration sets for `rule` on the file at `path`
    /// (as given: relative to the run's base, or absolute), if it sets one;
    /// a rule the selection leaves out is off.
    pub fn level(&self, rule: &str, path: &Path) -> Option<Level> {
        if !self.selects(rule) {
            return Some(Level::Off);
        }
        let mut level = find_level(&self.rules, rule);
        if self.overrides.is_empty() {
            return level;
        }
        let relative = self.relative(path);
        for (paths, rules) in &self.overrides {
            if relative.as_deref().is_some_and(|path| paths.matches(path)) {
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
                .is_some_and(|relative| self.exclude.matches(&relative))
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
