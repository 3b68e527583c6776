//! The baseline: the findings a repository had when it adopted numi,
//! written once (`--write-baseline`) and left out of later runs
//! (`--baseline`), so that only new findings are reported. A finding is
//! known by its [`fingerprint`], which a line move leaves alone, and the
//! baseline counts each fingerprint: two identical findings baselined and a
//! third found, the third is new.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{FileResult, fingerprint, repository_path};
use crate::config::{Level, Policy};
use crate::diagnostic::Stage;
use crate::location::{ReadError, read_regular};
use crate::text::human_size;

/// The version of the file's shape, its `version` field.
pub const VERSION: u32 = 1;

/// The largest baseline read: a finding is one line of about 150 bytes.
pub const MAX_BASELINE_SIZE: u64 = 64 * 1024 * 1024;

/// One line of the file: a finding and how many times it stands in its
/// file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub path: String,
    pub rule: String,
    pub fingerprint: String,
    pub count: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    findings: Vec<Entry>,
}

/// Why a baseline cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The file holds more than this many bytes.
    #[error("the file is larger than {}, the most a baseline may hold", human_size(*.0))]
    TooLarge(u64),
    /// It cannot be opened or read, or is not a regular file: the reason
    /// as people read it.
    #[error("{0}")]
    Unreadable(String),
    #[error("not a numi baseline: {0}")]
    NotABaseline(serde_json::Error),
    /// The version the file says it is.
    #[error("a baseline of version {0}, where numi reads version {VERSION}")]
    Version(u32),
}

/// A baseline's findings, by fingerprint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baseline {
    entries: BTreeMap<String, Entry>,
}

impl Baseline {
    /// Reads the baseline at `path`; the reason when it cannot be read or
    /// is not a baseline of this version.
    pub fn load(path: &Path) -> Result<Self, BaselineError> {
        let bytes = read_regular(path, MAX_BASELINE_SIZE).map_err(|error| match error {
            ReadError::TooLarge(limit) => BaselineError::TooLarge(limit),
            ReadError::Unreadable(reason) => BaselineError::Unreadable(reason),
        })?;
        Self::parse(&bytes)
    }

    /// Reads a baseline's text.
    pub fn parse(bytes: &[u8]) -> Result<Self, BaselineError> {
        let file: File = serde_json::from_slice(bytes).map_err(BaselineError::NotABaseline)?;
        if file.version != VERSION {
            return Err(BaselineError::Version(file.version));
        }
        let mut entries = BTreeMap::new();
        for entry in file.findings {
            match entries.get_mut(&entry.fingerprint) {
                Some(Entry { count, .. }) => *count = entry.count.saturating_add(*count),
                None => {
                    entries.insert(entry.fingerprint.clone(), entry);
                }
            }
        }
        Ok(Baseline { entries })
    }

    /// The file's text: one finding a line, sorted by path, rule and
    /// fingerprint, so a change to the baseline reads as a small diff.
    pub fn to_json(&self) -> String {
        let mut entries: Vec<&Entry> = self.entries.values().collect();
        entries.sort_by(|a, b| {
            (&a.path, &a.rule, &a.fingerprint).cmp(&(&b.path, &b.rule, &b.fingerprint))
        });
        let mut text = format!("{{\n  \"version\": {VERSION},\n  \"findings\": [");
        for (index, entry) in entries.iter().enumerate() {
            let separator = if index == 0 { "\n" } else { ",\n" };
            let line = serde_json::to_string(entry).unwrap_or_default();
            let _ = write!(text, "{separator}    {line}");
        }
        text.push_str(if entries.is_empty() {
            "]\n}\n"
        } else {
            "\n  ]\n}\n"
        });
        text
    }

    /// How many findings the baseline holds.
    pub fn findings(&self) -> usize {
        self.entries.values().map(|entry| entry.count).sum()
    }
}

/// What a run does with a baseline: leave out the findings it holds, or
/// record every finding to write a new one. Either way the findings it
/// covers are left out, so a run that writes a baseline reports what the
/// next run with it will.
///
/// A finding of the baseline is the run's to judge only when the run
/// checked it: its document was read and reached the rule stage, and its
/// rule runs there (selected, not off). Of the others, the run says
/// nothing: they are never stale, and a baseline written again keeps them.
#[derive(Debug)]
pub struct Ledger {
    /// What is left of the baseline read, or what was recorded.
    baseline: Baseline,
    /// When recording: the baseline the new one replaces, whose findings
    /// the run did not check are kept.
    previous: Baseline,
    recording: bool,
    /// The paths of the run's results, for the stale count, and whether
    /// each document reached the rule stage.
    seen: BTreeMap<String, bool>,
    /// Which rules run on which paths.
    policy: Policy,
    baselined: usize,
}

impl Ledger {
    /// Leaves out the findings `baseline` holds; `policy` says which rules
    /// the run runs where.
    pub fn compare(baseline: Baseline, policy: Policy) -> Self {
        Ledger {
            baseline,
            previous: Baseline::default(),
            recording: false,
            seen: BTreeMap::new(),
            policy,
            baselined: 0,
        }
    }

    /// Records every finding a baseline can hold, to replace `previous`
    /// (empty when there is none).
    pub fn record(previous: Baseline, policy: Policy) -> Self {
        Ledger {
            previous,
            recording: true,
            ..Self::compare(Baseline::default(), policy)
        }
    }

    /// Takes from `result` the findings the baseline covers. Only findings
    /// of the rule stage can be baselined: a document that cannot be read
    /// or fails its YAML, kind or schema was not checked, and says so
    /// whatever the baseline holds.
    pub fn apply(&mut self, result: &mut FileResult) {
        let path = repository_path(&result.path).to_owned();
        let diagnostics = std::mem::take(&mut result.checked.diagnostics);
        let reached_rules = diagnostics.iter().all(|d| d.stage() == Stage::Rule);
        for diagnostic in diagnostics {
            if diagnostic.stage() != Stage::Rule {
                result.checked.diagnostics.push(diagnostic);
                continue;
            }
            let key = fingerprint(&path, &diagnostic);
            if self.recording {
                let entry = self
                    .baseline
                    .entries
                    .entry(key.clone())
                    .or_insert_with(|| Entry {
                        path: path.clone(),
                        rule: diagnostic.rule.id.to_owned(),
                        fingerprint: key,
                        count: 0,
                    });
                entry.count = entry.count.saturating_add(1);
                self.baselined += 1;
                continue;
            }
            match self.baseline.entries.get_mut(&key) {
                Some(entry) if entry.count > 0 => {
                    entry.count -= 1;
                    self.baselined += 1;
                }
                _ => result.checked.diagnostics.push(diagnostic),
            }
        }
        let reached = self.seen.entry(path).or_insert(reached_rules);
        *reached &= reached_rules;
    }

    /// How many findings were left out.
    pub fn baselined(&self) -> usize {
        self.baselined
    }

    /// Whether the run judged `entry`: its file was read, its document
    /// reached the rule stage and its rule runs there; or, in a run of the
    /// whole tree (`whole_tree`), its file is gone from the tree.
    fn judged(&self, entry: &Entry, whole_tree: bool) -> bool {
        match self.seen.get(&entry.path) {
            Some(reached_rules) => {
                *reached_rules
                    && self.policy.level(&entry.rule, Path::new(&entry.path)) != Some(Level::Off)
            }
            None => whole_tree,
        }
    }

    /// How many findings of the baseline the run judged and did not find
    /// again. A run of a few files, of a few rules, or that left a
    /// document unchecked (an alpha kind without `--enable-alpha`) says
    /// nothing of the others.
    pub fn stale(&self, whole_tree: bool) -> usize {
        if self.recording {
            return 0;
        }
        self.baseline
            .entries
            .values()
            .filter(|entry| self.judged(entry, whole_tree))
            .map(|entry| entry.count)
            .sum()
    }

    /// The baseline to write: what the run found, and the findings of the
    /// baseline it replaces that the run did not judge, kept as they were.
    pub fn recorded(&self, whole_tree: bool) -> Baseline {
        let mut baseline = self.baseline.clone();
        for (key, entry) in &self.previous.entries {
            if !self.judged(entry, whole_tree) {
                baseline
                    .entries
                    .entry(key.clone())
                    .or_insert_with(|| entry.clone());
            }
        }
        baseline
    }
}

#[cfg(test)]
mod tests;
