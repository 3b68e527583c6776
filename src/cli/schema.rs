//! `numi schema`: the kinds' JSON Schemas, as embedded in this build, for
//! editors and other tools.

use std::fmt::Write as _;
use std::io::Write;

use clap::Args;
use clap::builder::PossibleValuesParser;

use crate::kinds::{self, Role};
use crate::run::Exit;

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The kind whose JSON Schema is printed.
    #[arg(
        value_name = "KIND",
        required_unless_present = "list",
        conflicts_with = "list",
        value_parser = PossibleValuesParser::new(kinds::names())
    )]
    pub kind: Option<String>,

    /// List the kinds with their apiVersion and role instead.
    #[arg(long)]
    pub list: bool,
}

pub fn execute(args: &SchemaArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let text = match (&args.kind, args.list) {
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

/// One line per kind: name, apiVersion and role, in aligned columns.
pub fn kind_table() -> String {
    let name_width = kinds::names().map(str::len).max().unwrap_or(0);
    let version_width = kinds::KINDS
        .iter()
        .map(|kind| kind.api_version.len())
        .max()
        .unwrap_or(0);
    let mut table = String::new();
    for kind in &kinds::KINDS {
        let _ = writeln!(
            table,
            "{:name_width$}  {:version_width$}  {}",
            kind.name,
            kind.api_version,
            role_name(kind.role)
        );
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
