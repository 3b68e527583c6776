//! The last line of a run for people: how many documents were checked, how
//! they fared, how many warnings and suppressed findings there were, and how
//! long it took. `text` writes it on standard error (its standard output is
//! the reference's), `concise` and `pretty` at the end of their output.

use std::time::Duration;

use crate::results::Summary;

/// `N documents: N ok, N invalid, N error; N warnings, N suppressed (in 0.01s)`.
pub fn line(summary: &Summary, elapsed: Duration) -> String {
    let documents = match summary.total() {
        1 => "1 document".to_owned(),
        n => format!("{n} documents"),
    };
    let warnings = match summary.warnings {
        1 => "1 warning".to_owned(),
        n => format!("{n} warnings"),
    };
    format!(
        "{documents}: {} ok, {} invalid, {} error; {warnings}, {} suppressed (in {:.2}s)",
        summary.ok,
        summary.invalid,
        summary.error,
        summary.suppressed,
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::line;
    use crate::results::Summary;

    #[test]
    fn every_count_and_the_time_are_named() {
        let summary = Summary {
            ok: 3,
            invalid: 2,
            error: 1,
            warnings: 4,
            suppressed: 0,
        };
        assert_eq!(
            line(&summary, Duration::from_millis(1234)),
            "6 documents: 3 ok, 2 invalid, 1 error; 4 warnings, 0 suppressed (in 1.23s)"
        );
    }

    #[test]
    fn one_document_and_one_warning_are_singular() {
        let summary = Summary {
            ok: 1,
            warnings: 1,
            ..Summary::default()
        };
        assert_eq!(
            line(&summary, Duration::ZERO),
            "1 document: 1 ok, 0 invalid, 0 error; 1 warning, 0 suppressed (in 0.00s)"
        );
    }
}
