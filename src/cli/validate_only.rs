//! `numi validate ...` parsed with its own subcommand alone. Building the
//! whole command line (every subcommand, and `--version`'s table of kinds)
//! is the larger part of what a one-file run computes itself, the pre-commit
//! case. Whatever this parse does not take (help, a version, any error)
//! falls to the full parse, so what numi prints is the same.

use std::ffi::OsString;

use clap::{Args, FromArgMatches};

use super::validate::{self, ValidateArgs};

/// The arguments of `numi validate`, when they parse; `None` sends the
/// command line to the full parse.
pub(super) fn parse(arguments: &[OsString]) -> Option<ValidateArgs> {
    if arguments.get(1)?.to_str()? != "validate" {
        return None;
    }
    let subcommand = ValidateArgs::augment_args(clap::Command::new("validate"));
    let matches = clap::Command::new("numi")
        .subcommand(subcommand)
        .try_get_matches_from(arguments)
        .ok()?;
    let ("validate", matches) = matches.subcommand()? else {
        return None;
    };
    let mut args = ValidateArgs::from_arg_matches(matches).ok()?;
    validate::paths_in_order(&mut args, matches);
    Some(args)
}

#[cfg(test)]
mod tests {
    use clap::FromArgMatches;

    use super::*;
    use crate::cli::{Cli, Command, command};

    fn full(arguments: &[OsString]) -> Option<String> {
        let matches = command().try_get_matches_from(arguments).ok()?;
        let Ok(Cli {
            command: Command::Validate(mut args),
        }) = Cli::from_arg_matches(&matches)
        else {
            return None;
        };
        if let Some(("validate", validate_matches)) = matches.subcommand() {
            validate::paths_in_order(&mut args, validate_matches);
        }
        Some(format!("{args:?}"))
    }

    fn words(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn the_short_parse_reads_validate_as_the_full_one_does() {
        for line in [
            "numi validate",
            "numi validate repo",
            "numi validate --files a.yaml b.yml",
            "numi validate --files --strict a.yaml b.yaml",
            "numi validate --format json --quiet --summary never --files - a.yaml",
            "numi validate --only .numinance/a.yaml --enable-alpha --exclude drafts/",
            "numi validate --no-config --max-file-size 10 --color always .",
        ] {
            let arguments = words(line);
            let short = parse(&arguments).map(|args| format!("{args:?}"));
            assert!(short.is_some(), "{line}");
            assert_eq!(short, full(&arguments), "{line}");
        }
    }

    #[test]
    fn help_versions_errors_and_other_commands_go_to_the_full_parse() {
        for line in [
            "numi",
            "numi --version",
            "numi fix --files a.yaml",
            "numi validate --help",
            "numi validate --version",
            "numi validate --format nonsense",
            "numi validate --files a.yaml --only",
            "numi validate --config a.toml --no-config",
        ] {
            assert!(parse(&words(line)).is_none(), "{line}");
        }
    }
}
