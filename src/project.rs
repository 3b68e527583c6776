//! The configuration that holds for a place: `--config FILE`, or the
//! `numi.toml` found from it upward, its rule ids checked against the rule
//! catalogue, and the settings it comes to with the flags of a run.
//! `numi validate`, `numi fix` and `numi lsp` resolve their settings here
//! alone, so a rule turned off for one is off for all, and `strict = true`
//! makes a warning an error in each of them.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::config::{self, Config, ConfigError, Policy, PolicyError, RuleSelection};
use crate::diagnostic::Stage;
use crate::rules;
use crate::text::{quote, shorten};
use crate::verdict::Verdict;

/// What the command line (or an editor's `initializationOptions`) asks of
/// a run, before `numi.toml` has its say. A flag can only turn a setting
/// on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    /// `--enable-alpha`: alpha kinds (EvalSet) in a configuration tree.
    pub enable_alpha: bool,
    /// `--strict`: producer-side findings are errors.
    pub strict: bool,
}

/// Which configuration file a run reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ConfigFile<'a> {
    /// `--no-config`: none, the defaults hold.
    None,
    /// `--config FILE`.
    Named(&'a Path),
    /// The `numi.toml` found from the run's base upward, if any.
    Found,
}

impl<'a> ConfigFile<'a> {
    /// The file the options `--no-config` and `--config FILE` choose.
    pub(crate) fn from_options(no_config: bool, named: Option<&'a Path>) -> Self {
        match (no_config, named) {
            (true, _) => ConfigFile::None,
            (false, Some(path)) => ConfigFile::Named(path),
            (false, None) => ConfigFile::Found,
        }
    }
}

/// What holds for a run: its flags over `numi.toml` over the defaults.
#[derive(Debug, Clone, Default)]
pub(crate) struct Settings {
    pub enable_alpha: bool,
    pub strict: bool,
    /// The configuration's rule levels, rule selection and excluded paths.
    pub policy: Policy,
    /// The baseline `numi.toml` names, resolved against its folder.
    pub baseline: Option<PathBuf>,
}

impl Settings {
    /// The settings of a run whose paths are relative to `base` (the
    /// repository, or the current folder with `--files`), its configuration
    /// read from `file`; a configuration that does not load, or names a
    /// rule that cannot be configured, is refused with the reason.
    pub(crate) fn resolve(
        flags: Flags,
        file: ConfigFile<'_>,
        base: &Path,
    ) -> Result<Self, SettingsError> {
        let config = match file {
            ConfigFile::None => Config::default(),
            ConfigFile::Named(path) => configuration(Some(path), base)?,
            ConfigFile::Found => configuration(None, base)?,
        };
        Ok(Settings {
            enable_alpha: flags.enable_alpha || config.enable_alpha == Some(true),
            strict: flags.strict || config.strict == Some(true),
            policy: config.policy(base)?,
            baseline: config
                .baseline
                .as_ref()
                .map(|baseline| config.root.join(baseline)),
        })
    }

    /// These settings with the command line's `--select` and `--ignore`
    /// over the file's, each selector checked against the catalogue.
    pub(crate) fn with_selection(mut self, layer: RuleSelection) -> Result<Self, SettingsError> {
        let keyed = [
            ("--select", layer.select.as_deref().unwrap_or_default()),
            ("--ignore", &layer.ignore),
        ];
        for (option, selectors) in keyed {
            for selector in distinct(selectors) {
                check_selector(selector)
                    .map_err(|reason| SettingsError::OptionSelector { option, reason })?;
            }
        }
        self.policy.select(layer);
        Ok(self)
    }

    /// How the findings of a document are weighed under these settings.
    pub(crate) fn verdict(&self) -> Verdict<'_> {
        Verdict {
            policy: &self.policy,
            strict: self.strict,
        }
    }
}

/// Why the settings of a run cannot be made: its configuration does not
/// load, or names what cannot be configured or selected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SettingsError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Policy(#[from] PolicyError),
    /// A rule the file sets a level for that is not of the rule stage.
    #[error(
        "{}: {} is not a rule of the rule stage: only those can be configured",
        .path.display(),
        quote(.id)
    )]
    NotConfigurable { path: PathBuf, id: String },
    /// A rule id the file sets a level for that no rule has.
    #[error("{}: unknown rule id {}{}", .path.display(), quote(&shorten(.id)), did_you_mean(*.near))]
    UnknownRule {
        path: PathBuf,
        id: String,
        near: Option<&'static str>,
    },
    /// A selector of the file's `select` or `ignore` (`key`).
    #[error("{}: {key}: {reason}", .path.display())]
    FileSelector {
        path: PathBuf,
        key: &'static str,
        reason: SelectorError,
    },
    /// A selector of `--select` or `--ignore` (`option`).
    #[error("{option}: {reason}")]
    OptionSelector {
        option: &'static str,
        reason: SelectorError,
    },
}

/// Why a selector of `select` or `ignore` selects nothing it may.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SelectorError {
    /// A rule, or a family with no rule, of another stage than the rule
    /// stage.
    #[error(
        "{} is not of the rule stage: a document that fails before its rules run is reported whatever the selection",
        quote(&shorten(.0))
    )]
    NotOfTheRuleStage(String),
    #[error("unknown rule id or family {}{}", quote(&shorten(.selector)), did_you_mean(*.near))]
    Unknown {
        selector: String,
        near: Option<&'static str>,
    },
}

/// The hint that ends a message about an unknown word, if there is one.
fn did_you_mean(near: Option<&str>) -> String {
    near.map(|near| format!(" (did you mean {}?)", quote(near)))
        .unwrap_or_default()
}

/// The configuration in `file`, or the `numi.toml` found from `base`
/// upward, its rule ids checked against the catalogue: only rules of the
/// rule stage can be configured. No file found gives the defaults.
fn configuration(file: Option<&Path>, base: &Path) -> Result<Config, SettingsError> {
    let path = match file.map(Path::to_path_buf) {
        Some(path) => path,
        None => match config::discover(base) {
            Some(path) => path,
            None => return Ok(Config::default()),
        },
    };
    let config = config::load(&path)?;
    for id in config.rule_ids() {
        match rules::find(id) {
            Some(doc) if doc.stage == Stage::Rule => {}
            Some(_) => {
                return Err(SettingsError::NotConfigurable {
                    path,
                    id: id.to_owned(),
                });
            }
            None => {
                return Err(SettingsError::UnknownRule {
                    near: rules::nearest(id),
                    path,
                    id: id.to_owned(),
                });
            }
        }
    }
    let selection = &config.selection;
    let keyed = [
        ("select", selection.select.as_deref().unwrap_or_default()),
        ("ignore", &selection.ignore),
    ];
    for (key, selectors) in keyed {
        for selector in distinct(selectors) {
            check_selector(selector).map_err(|reason| SettingsError::FileSelector {
                path: path.clone(),
                key,
                reason,
            })?;
        }
    }
    Ok(config)
}

/// Each of `selectors` once, in order: a list that repeats a selector is
/// checked against the catalogue once per selector it names.
fn distinct<'a>(selectors: impl IntoIterator<Item = &'a String>) -> impl Iterator<Item = &'a str> {
    let mut seen = HashSet::new();
    selectors
        .into_iter()
        .map(String::as_str)
        .filter(move |selector| seen.insert(*selector))
}

/// Checks a selector of `select` or `ignore`: a rule of the rule stage, or
/// a family that has one. Findings of the other stages (a file that cannot
/// be read, YAML, its kind, its schema) mean the document was not checked,
/// so no selection can hide them.
fn check_selector(selector: &str) -> Result<(), SelectorError> {
    let not_selectable = || SelectorError::NotOfTheRuleStage(selector.to_owned());
    if let Some(doc) = rules::find(selector) {
        return if doc.stage == Stage::Rule {
            Ok(())
        } else {
            Err(not_selectable())
        };
    }
    let family = selector.strip_suffix('/').unwrap_or(selector);
    let family_of = |doc: &&rules::RuleDoc| doc.id.split_once('/').map(|(own, _)| own);
    if !family.is_empty() && !family.contains('/') {
        let mut stages = rules::all()
            .filter(|doc| family_of(doc) == Some(family))
            .map(|doc| doc.stage)
            .peekable();
        if stages.peek().is_some() {
            return if stages.any(|stage| stage == Stage::Rule) {
                Ok(())
            } else {
                Err(not_selectable())
            };
        }
    }
    let named = |doc: &&rules::RuleDoc| {
        doc.id
            .split_once('/')
            .is_some_and(|(_, name)| name == family)
    };
    let near = if family.contains('/') {
        rules::nearest(selector)
    } else if let Some(doc) = rules::all().find(named) {
        Some(doc.id)
    } else {
        rules::nearest_family(family).or_else(|| rules::nearest(selector))
    };
    Err(SelectorError::Unknown {
        selector: selector.to_owned(),
        near,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn why_settings_cannot_be_made_reads_as_before() {
        let path = PathBuf::from("repo/numi.toml");
        assert_eq!(
            SettingsError::NotConfigurable {
                path: path.clone(),
                id: "yaml/syntax".to_owned(),
            }
            .to_string(),
            "repo/numi.toml: \"yaml/syntax\" is not a rule of the rule stage: only those can be configured"
        );
        assert_eq!(
            SettingsError::UnknownRule {
                path: path.clone(),
                id: "playbook/min-run".to_owned(),
                near: Some("playbook/min-runs"),
            }
            .to_string(),
            "repo/numi.toml: unknown rule id \"playbook/min-run\" (did you mean \"playbook/min-runs\"?)"
        );
        assert_eq!(
            SettingsError::UnknownRule {
                path: path.clone(),
                id: "x".repeat(100),
                near: None,
            }
            .to_string(),
            format!(
                "repo/numi.toml: unknown rule id {}",
                quote(&shorten(&"x".repeat(100)))
            )
        );
        let stage = SelectorError::NotOfTheRuleStage("yaml".to_owned());
        assert_eq!(
            SettingsError::FileSelector {
                path,
                key: "select",
                reason: stage.clone(),
            }
            .to_string(),
            "repo/numi.toml: select: \"yaml\" is not of the rule stage: a document that fails before its rules run is reported whatever the selection"
        );
        assert_eq!(
            SettingsError::OptionSelector {
                option: "--ignore",
                reason: SelectorError::Unknown {
                    selector: "playbok".to_owned(),
                    near: Some("playbook"),
                },
            }
            .to_string(),
            "--ignore: unknown rule id or family \"playbok\" (did you mean \"playbook\"?)"
        );
        assert_eq!(check_selector("yaml"), Err(stage));
    }
}
