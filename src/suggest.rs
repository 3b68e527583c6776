//! "Did you mean" hints: the known word nearest to one a user wrote.

/// How alike two words must be, by Jaro-Winkler similarity ignoring case,
/// before one is offered for the other. High on purpose: a wrong hint costs
/// more than none.
const THRESHOLD: f64 = 0.88;

/// The candidate nearest to `word`, if one is near enough. Case is ignored,
/// and a short form that ends a candidate after `_` counts as near
/// (`repo` for `SCOPE_REPO`). Ties go to the earlier candidate.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    if word.is_empty() {
        return None;
    }
    let suffix = format!("_{word}");
    let mut best: Option<(f64, &str)> = None;
    for candidate in candidates {
        let lower = candidate.to_lowercase();
        if lower == word {
            return Some(candidate);
        }
        let mut score = strsim::jaro_winkler(&word, &lower);
        if lower.ends_with(&suffix) {
            score = score.max(0.95);
        }
        if score >= THRESHOLD && best.is_none_or(|(top, _)| score > top) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::nearest;

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
}
