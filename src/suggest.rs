//! "Did you mean" hints: the known word nearest to one a user wrote.
//!
//! The word may be anything a user (or an attacker) wrote: a selector of a
//! megabyte in `numi.toml`, thousands of rule ids in suppression comments.
//! What one hint costs is bounded by the candidates alone, whatever the
//! word: the candidates are prepared once ([`Candidates`]: lower-cased,
//! duplicates dropped), a word too long to be near any of them is answered
//! after reading a bounded prefix of it, and a candidate whose length alone
//! keeps it below the threshold is passed over without computing the
//! similarity.

use std::collections::HashSet;

/// How alike two words must be, by Jaro-Winkler similarity ignoring case,
/// before one is offered for the other. High on purpose: a wrong hint costs
/// more than none.
const THRESHOLD: f64 = 0.88;

/// Whether two words of `shorter` and `longer` characters can be alike
/// enough for a hint. Jaro similarity is `(m/a + m/b + (m-t)/m) / 3` with
/// `m`, the characters matched, at most `shorter`: at most
/// `(2 + shorter/longer) / 3`. Winkler's bonus for a common prefix of at
/// most 4 characters, 0.1 each, raises it to at most `0.4 + 0.6 * jaro`.
/// Reaching [`THRESHOLD`] (0.88) takes a Jaro similarity of 0.8, so
/// `shorter/longer` of at least 0.4: `5 * shorter >= 2 * longer`.
fn lengths_may_match(shorter: usize, longer: usize) -> bool {
    shorter.saturating_mul(5) >= longer.saturating_mul(2)
}

/// The most characters a word may have and still be near a candidate of
/// `longest` characters (by [`lengths_may_match`]); a short form that ends
/// a candidate is shorter than it.
fn longest_word(longest: usize) -> usize {
    longest.saturating_mul(5) / 2
}

// The characters the Jaro-Winkler comparisons of a thread's hints could
// read (the product of the two lengths, which bounds strsim's work), and
// the characters of the words read; counted in tests only: the tests bound
// the work of a hint by its candidates, whatever the word.
#[cfg(test)]
thread_local! {
    static WORK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
fn worked(units: usize) {
    WORK.with(|work| work.set(work.get().saturating_add(units)));
}

#[cfg(not(test))]
fn worked(_units: usize) {}

/// The work counted on this thread since the last call.
#[cfg(test)]
pub(crate) fn take_work() -> usize {
    WORK.with(|work| work.replace(0))
}

/// One candidate: the word as offered, lower-cased, and its length.
#[derive(Debug)]
struct Candidate<'a> {
    shown: &'a str,
    lower: String,
    chars: usize,
}

/// Known words, prepared once for any number of hints: lower-cased, each
/// kept once (the first of those equal but for case, which a tie would
/// give anyway), in the order given.
#[derive(Debug)]
pub(crate) struct Candidates<'a> {
    entries: Vec<Candidate<'a>>,
    /// The characters of the longest, lower-cased.
    longest: usize,
}

impl<'a> Candidates<'a> {
    pub(crate) fn new(candidates: impl IntoIterator<Item = &'a str>) -> Self {
        let mut seen = HashSet::new();
        let mut entries = Vec::new();
        let mut longest = 0;
        for shown in candidates {
            let lower = shown.to_lowercase();
            if !seen.insert(lower.clone()) {
                continue;
            }
            let chars = lower.chars().count();
            longest = longest.max(chars);
            entries.push(Candidate {
                shown,
                lower,
                chars,
            });
        }
        Candidates { entries, longest }
    }

    /// How many candidates are kept, duplicates dropped.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The candidate nearest to `word`, if one is near enough. Case is
    /// ignored, and a short form that ends a candidate after `_` counts as
    /// near (`repo` for `SCOPE_REPO`). Ties go to the earlier candidate.
    pub(crate) fn nearest(&self, word: &str) -> Option<&'a str> {
        // A word longer than any candidate can be near is known to be so
        // from a prefix of it: lower-casing never shortens a word.
        let most = longest_word(self.longest);
        let read = word.chars().take(most.saturating_add(1)).count();
        worked(read);
        if read == 0 || read > most {
            return None;
        }
        let word = word.to_lowercase();
        let chars = word.chars().count();
        let suffix = format!("_{word}");
        let mut best: Option<(f64, &'a str)> = None;
        for candidate in &self.entries {
            if candidate.lower == word {
                return Some(candidate.shown);
            }
            let mut score = 0.0;
            let (shorter, longer) = if chars < candidate.chars {
                (chars, candidate.chars)
            } else {
                (candidate.chars, chars)
            };
            if lengths_may_match(shorter, longer) {
                worked(chars.saturating_mul(candidate.chars));
                score = strsim::jaro_winkler(&word, &candidate.lower);
            }
            if candidate.lower.ends_with(&suffix) {
                score = f64::max(score, 0.95);
            }
            if score >= THRESHOLD && best.is_none_or(|(top, _)| score > top) {
                best = Some((score, candidate.shown));
            }
        }
        best.map(|(_, candidate)| candidate)
    }
}

/// The candidate nearest to `word`, if one is near enough: see
/// [`Candidates::nearest`]. Candidates asked often are better prepared once
/// with [`Candidates::new`].
pub(crate) fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    Candidates::new(candidates).nearest(word)
}

#[cfg(test)]
mod tests {
    use super::{Candidates, THRESHOLD, lengths_may_match, nearest, take_work};

    const ACCEPTANCES: [&str; 3] = [
        "EVAL_ACCEPTANCE_ACCEPTED",
        "EVAL_ACCEPTANCE_REJECTED",
        "EVAL_ACCEPTANCE_ABANDONED",
    ];

    #[test]
    fn near_misses_find_their_word() {
        let cases = [
            ("EVAL_ACCEPTANCE_ACCEPTD", "EVAL_ACCEPTANCE_ACCEPTED"),
            ("eval_acceptance_rejected", "EVAL_ACCEPTANCE_REJECTED"),
            ("abandoned", "EVAL_ACCEPTANCE_ABANDONED"),
        ];
        for (word, expected) in cases {
            assert_eq!(nearest(word, ACCEPTANCES), Some(expected), "{word}");
        }
        let scopes = ["SCOPE_ORG", "SCOPE_TEAM", "SCOPE_REPO"];
        assert_eq!(nearest("SCOPE_REPOSITORY", scopes), Some("SCOPE_REPO"));
        let fields = ["change_type", "max_repair_attempts", "qualification"];
        assert_eq!(
            nearest("max_repair_attempt", fields),
            Some("max_repair_attempts")
        );
        assert_eq!(
            nearest("PlayBook", ["Playbook", "EvalSet"]),
            Some("Playbook")
        );
    }

    #[test]
    fn unrelated_words_get_no_hint() {
        for word in ["", "merged", "TRUST_CLASS_KERNEL", "x"] {
            assert_eq!(nearest(word, ACCEPTANCES), None, "{word}");
        }
        let rules = ["evalset/version", "evalset/case-name", "bundle/digest"];
        assert_eq!(nearest("evalset/x1", rules), None);
    }

    #[test]
    fn duplicates_are_kept_once_and_ties_go_to_the_first() {
        let candidates = Candidates::new(["playbook", "evalset", "playbook", "PLAYBOOK", "bundle"]);
        assert_eq!(candidates.len(), 3);
        assert_eq!(candidates.nearest("playbok"), Some("playbook"));
        assert_eq!(candidates.nearest("PLAYBOOK"), Some("playbook"));
        assert_eq!(nearest("ab", ["ab", "AB"]), Some("ab"));
        take_work();
        // Each candidate is compared once, duplicates or not.
        let many = Candidates::new(std::iter::repeat_n("playbook", 900));
        assert_eq!(many.len(), 1);
        assert_eq!(many.nearest("playbokk"), Some("playbook"));
        assert_eq!(take_work(), 8 + 8 * 8);
    }

    #[test]
    fn the_length_bound_holds_where_it_prunes() {
        // Two words whose lengths the bound says cannot match score below
        // the threshold at their most alike: the shorter a prefix of the
        // longer (the most Winkler's bonus gives), every character matched.
        for shorter in 1..60usize {
            for longer in shorter..200 {
                if lengths_may_match(shorter, longer) {
                    continue;
                }
                let a = "a".repeat(shorter);
                let b = "a".repeat(longer);
                let score = strsim::jaro_winkler(&a, &b);
                assert!(score < THRESHOLD, "{shorter} {longer}: {score}");
            }
        }
        // And the bound is tight: at 2 to 5 the best case reaches it.
        let score = strsim::jaro_winkler(&"a".repeat(4), &"a".repeat(10));
        assert!(score >= THRESHOLD, "{score}");
    }

    #[test]
    fn a_long_word_costs_a_bounded_prefix_of_it_and_no_comparison() {
        let rules = Candidates::new(["evalset/version", "evalset/case-name", "bundle/digest"]);
        let longest = "evalset/case-name".len();
        take_work();
        let word = "evalset/case-name".repeat(60_000);
        assert_eq!(rules.nearest(&word), None);
        // Read: the characters up to the bound, and not one comparison.
        assert_eq!(take_work(), longest * 5 / 2 + 1);
        // A word just inside the bound is still compared, with the
        // candidates its length can match only, and may be near one.
        let word = format!("evalset/case-name{}", "x".repeat(longest * 3 / 2 - 1));
        assert_eq!(word.len(), longest * 5 / 2 - 1);
        assert_eq!(rules.nearest(&word), Some("evalset/case-name"));
        let work = take_work();
        assert_eq!(work, word.len() + word.len() * longest);
    }
}
