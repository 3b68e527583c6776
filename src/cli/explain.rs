//! `numi explain`: what a rule checks, why, and a failing and a passing
//! example, from the rule catalogue.

use std::io::Write;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory};

use super::Cli;
use crate::results::Exit;
use crate::rules::{self, RuleDoc};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The rule id, as diagnostics show it (`evalset/cases-sorted`).
    #[arg(
        value_name = "RULE",
        required_unless_present = "list",
        conflicts_with = "list"
    )]
    pub rule: Option<String>,

    /// List every rule id with its summary.
    #[arg(long)]
    pub list: bool,
}

pub(super) fn execute(args: &ExplainArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let text = match &args.rule {
        None => list(),
        Some(id) => match rules::find(id) {
            Some(doc) => explain(doc),
            None => return unknown(id, stderr),
        },
    };
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Exit::Valid,
        Err(_) => Exit::Incomplete,
    }
}

/// Every id with its summary, ids aligned in one column.
fn list() -> String {
    let width = rules::all().map(|doc| doc.id.len()).max().unwrap_or(0);
    rules::all()
        .map(|doc| format!("{:<width$}  {}\n", doc.id, doc.summary))
        .collect()
}

/// The whole entry of one rule: blocks of text with a blank line between.
fn explain(doc: &RuleDoc) -> String {
    let mut blocks = vec![format!("{}  (stage: {})\n", doc.id, doc.stage.name())];
    for paragraph in std::iter::once(doc.summary).chain(doc.explanation.split("\n\n")) {
        blocks.push(wrap(paragraph.trim()));
    }
    if let Some(repair) = rules::fix_of(doc.id) {
        blocks.push(wrap(&repair.describe()));
    }
    for (title, example) in [("Fails:", doc.failing), ("Passes:", doc.passing)] {
        if !example.is_empty() {
            blocks.push(format!("{title}\n"));
            blocks.push(indent(example));
        }
    }
    blocks.join("\n")
}

/// An example, indented four spaces so it stands apart from the prose.
fn indent(example: &str) -> String {
    example
        .lines()
        .map(|line| match line {
            "" => "\n".to_owned(),
            line => format!("    {line}\n"),
        })
        .collect()
}

/// An unknown id is a usage error, worded and formatted as clap words its own.
fn unknown(id: &str, stderr: &mut dyn Write) -> Exit {
    let mut message = format!(
        "unknown rule id {}",
        crate::text::quote(&crate::text::shorten(id))
    );
    if let Some(near) = rules::nearest(id) {
        message.push_str(&format!("\n\n  tip: did you mean '{near}'?"));
    }
    message.push_str("\n  tip: 'numi explain --list' lists every rule id");
    let mut command = Cli::command();
    // Building names the subcommand `numi explain` in the usage line.
    command.build();
    let error = match command.find_subcommand_mut("explain") {
        Some(explain) => explain.error(ErrorKind::InvalidValue, message),
        None => command.error(ErrorKind::InvalidValue, message),
    };
    match stderr.write_all(error.render().to_string().as_bytes()) {
        Ok(()) => Exit::Usage,
        Err(_) => Exit::Incomplete,
    }
}

/// Prose is wrapped for a terminal; examples never are.
const WIDTH: usize = 80;

/// `paragraph` filled to [`WIDTH`] columns, its line breaks made spaces,
/// with a blank line after it.
fn wrap(paragraph: &str) -> String {
    let words: Vec<&str> = paragraph.split_whitespace().collect();
    let mut wrapped = crate::text::wrap(&words.join(" "), WIDTH);
    wrapped.push('\n');
    wrapped
}
