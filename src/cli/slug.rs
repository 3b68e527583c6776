//! `numi slug`: the rule id context-report derives from a rule's text, so
//! a task can name a rule without running context-report.

use std::collections::HashMap;
use std::io::Write;

use clap::Args;

use crate::kinds::context_report::slug::slug;
use crate::results::Exit;

#[derive(Debug, Args)]
pub struct SlugArgs {
    /// The rule texts; each prints its id on a line of its own, a repeat
    /// within the call numbered `-2`, `-3`, ... as within one file.
    #[arg(value_name = "TEXT", required = true)]
    pub texts: Vec<String>,
}

pub(super) fn execute(args: &SlugArgs, stdout: &mut dyn Write, _stderr: &mut dyn Write) -> Exit {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut text = String::new();
    for rule in &args.texts {
        let base = slug(rule);
        let count = seen.entry(base.clone()).or_insert(0);
        *count += 1;
        if *count == 1 {
            text.push_str(&base);
        } else {
            text.push_str(&format!("{base}-{count}"));
        }
        text.push('\n');
    }
    match stdout.write_all(text.as_bytes()) {
        Ok(()) => Exit::Valid,
        Err(_) => Exit::Incomplete,
    }
}
