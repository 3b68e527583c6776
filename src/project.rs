//! The configuration that holds for a place: `--config FILE`, or the
//! `numi.toml` found from it upward, its rule ids checked against the rule
//! catalogue. `numi validate`, `numi fix` and `numi lsp` read it the same
//! way, so a rule turned off for one is off for all.

use std::path::Path;

use crate::config::{self, Config};
use crate::diagnostic::Stage;
use crate::rules;
use crate::text::quote;

/// The configuration in `file`, or the `numi.toml` found from `base`
/// upward, its rule ids checked against the catalogue: only rules of the
/// rule stage can be configured. No file found gives the defaults.
pub fn configuration(file: Option<&Path>, base: &Path) -> Result<Config, String> {
    let path = match file.map(Path::to_path_buf) {
        Some(path) => path,
        None => match config::discover(base) {
            Some(path) => path,
            None => return Ok(Config::default()),
        },
    };
    let config = config::load(&path).map_err(|error| error.to_string())?;
    for id in config.rule_ids() {
        match rules::find(id) {
            Some(doc) if doc.stage == Stage::Rule => {}
            Some(_) => {
                return Err(format!(
                    "{}: {} is not a rule of the rule stage: only those can be configured",
                    path.display(),
                    quote(id)
                ));
            }
            None => {
                let hint = rules::nearest(id)
                    .map(|near| format!(" (did you mean {}?)", quote(near)))
                    .unwrap_or_default();
                return Err(format!(
                    "{}: unknown rule id {}{hint}",
                    path.display(),
                    quote(id)
                ));
            }
        }
    }
    Ok(config)
}
