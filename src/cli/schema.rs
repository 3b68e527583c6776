//! `numi schema`: the kinds' JSON Schemas, as embedded in this build, for
//! editors and other tools.

use std::fmt::Write as _;
use std::io::Write;

use clap::Args;
use clap::builder::PossibleValuesParser;

use crate::config;
use crate::kinds::{self, Role};
use crate::results::Exit;

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The kind whose JSON Schema is printed.
    #[arg(
        value_name = "KIND",
        required_unless_present_any = ["list", "config"],
        conflicts_with_all = ["list", "config"],
        value_parser = PossibleValuesParser::new(kinds::names())
    )]
    pub kind: Option<String>,

    /// List the kinds with their apiVersion and role instead (and `inferred`
    /// for a schema inferred from the spec's prose).
    #[arg(long, conflicts_with = "config")]
    pub list: bool,

    /// Print the JSON Schema of the configuration file, numi.toml, instead.
    #[arg(long)]
    pub config: bool,
}

pub(super) fn execute(args: &SchemaArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let text = match (&args.kind, args.list) {
        _ if args.config => with_final_newline(config::SCHEMA),
        (Some(name), false) => match kinds::find(name) {
            Some(kind) => with_final_newline(kind.schema),
            None => {
                // The value parser admits only known kinds; kept for safety.
                let _ = writeln!(stderr, "numi: unknown kind {name:?}");
                return Exit::Usage;
            }
        },
        _ => kind_table(),
    };
    match stdout.write_all(text.as_bytes()) {
        Ok(()) => Exit::Valid,
        Err(_) => Exit::Incomplete,
    }
}

/// One line per kind: name, apiVersion and role, in aligned columns, and
/// `inferred` after a kind whose schema numi infers from the spec's prose.
pub(super) fn kind_table() -> String {
    let mut listed: Vec<&kinds::Kind> = kinds::all().collect();
    listed.sort_unstable_by_key(|kind| kind.name);
    let name_width = listed.iter().map(|kind| kind.name.len()).max().unwrap_or(0);
    let version_of = |kind: &kinds::Kind| kind.api_version.unwrap_or("-");
    let version_width = listed
        .iter()
        .map(|kind| version_of(kind).len())
        .max()
        .unwrap_or(0);
    let role_width = listed
        .iter()
        .map(|kind| role_name(kind.role).len())
        .max()
        .unwrap_or(0);
    let mut table = String::new();
    for kind in listed {
        let row = format!(
            "{:name_width$}  {:version_width$}  {:role_width$}  {}",
            kind.name,
            version_of(kind),
            role_name(kind.role),
            if kind.inferred { "inferred" } else { "" }
        );
        let _ = writeln!(table, "{}", row.trim_end());
    }
    table
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Configuration => "configuration",
        Role::Alpha => "alpha",
        Role::Produced => "produced",
    }
}

fn with_final_newline(text: &str) -> String {
    let mut owned = text.to_owned();
    if !owned.ends_with('\n') {
        owned.push('\n');
    }
    owned
}
