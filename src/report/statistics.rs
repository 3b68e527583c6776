//! `--statistics`: how many findings of each rule a run made, most first,
//! instead of the findings themselves; to see where a tree stands before
//! adopting numi or tightening it (ruff's `--statistics`).

use std::collections::BTreeMap;
use std::io;

use super::Reporter;
use crate::diagnostic::{RuleDoc, Severity};
use crate::results::{FileResult, Summary};

/// Findings counted by rule and severity, kept in the order of the rule's
/// id.
#[derive(Debug, Default)]
pub struct StatisticsReporter {
    counts: BTreeMap<(&'static str, Severity), (&'static RuleDoc, usize)>,
}

impl Reporter for StatisticsReporter {
    fn begin(&mut self, _out: &mut dyn io::Write, _revision: &str) -> io::Result<()> {
        Ok(())
    }

    fn result(&mut self, _out: &mut dyn io::Write, result: &FileResult) -> io::Result<()> {
        for diagnostic in &result.checked.diagnostics {
            self.counts
                .entry((diagnostic.rule.id, diagnostic.severity))
                .or_insert((diagnostic.rule, 0))
                .1 += 1;
        }
        Ok(())
    }

    /// One line per rule and severity, `count  severity  rule  summary`,
    /// the most frequent first, then by rule id.
    fn end(&mut self, out: &mut dyn io::Write, _summary: &Summary) -> io::Result<()> {
        let mut rows: Vec<(Severity, &'static RuleDoc, usize)> = self
            .counts
            .iter()
            .map(|(&(_, severity), &(rule, count))| (severity, rule, count))
            .collect();
        // Sorting is stable: equal counts keep the order of their ids.
        rows.sort_by(|(_, _, count), (_, _, other)| other.cmp(count));
        let count_width = rows
            .first()
            .map_or(1, |(_, _, count)| count.to_string().len());
        let id_width = rows
            .iter()
            .map(|(_, rule, _)| rule.id.len())
            .max()
            .unwrap_or(0);
        for (severity, rule, count) in rows {
            writeln!(
                out,
                "{count:>count_width$}  {:<7}  {:<id_width$}  {}",
                severity.name(),
                rule.id,
                rule.summary
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostic;
    use crate::diagnostic::stages::yaml::{DUPLICATE_KEY, SYNTAX};
    use crate::results::Origin;
    use crate::validate::Checked;

    fn result(diagnostics: Vec<Diagnostic>) -> FileResult {
        FileResult {
            origin: Origin::File,
            display_name: "a.yaml".to_owned(),
            path: "a.yaml".to_owned(),
            read_from: None,
            checked: Checked {
                diagnostics,
                ..Checked::default()
            },
            source: None,
        }
    }

    #[test]
    fn counts_by_rule_most_first() {
        let mut reporter = StatisticsReporter::default();
        let mut out = Vec::new();
        let syntax = || Diagnostic::new(&SYNTAX, "x");
        let duplicate = || Diagnostic::new(&DUPLICATE_KEY, "x");
        for diagnostics in [
            vec![duplicate()],
            vec![syntax(), syntax()],
            vec![],
            vec![syntax(), duplicate().as_warning()],
        ] {
            reporter.result(&mut out, &result(diagnostics)).unwrap();
        }
        reporter.end(&mut out, &Summary::default()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "3  error    yaml/syntax         The file is well-formed YAML.\n\
             1  error    yaml/duplicate-key  No mapping holds the same key twice.\n\
             1  warning  yaml/duplicate-key  No mapping holds the same key twice.\n"
        );
    }
}
