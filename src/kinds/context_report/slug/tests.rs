use super::*;

#[test]
fn the_spec_example() {
    assert_eq!(
        slug("Never commit secrets to the repository."),
        "never-commit-secrets-to-the-repository"
    );
}

#[test]
fn six_words_48_characters_no_trailing_dash() {
    assert_eq!(
        slug("one two three four five six seven"),
        "one-two-three-four-five-six"
    );
    let long = "abcdefghijklmnopqrstuvwx abcdefghijklmnopqrstuvw abc";
    // 24 + 1 + 23 = 48 characters end with a word; one more would be `-`.
    assert_eq!(
        slug(long),
        "abcdefghijklmnopqrstuvwx-abcdefghijklmnopqrstuvw"
    );
    let cut_at_dash = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstu x";
    assert_eq!(
        slug(cut_at_dash),
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstu"
    );
}

#[test]
fn empty_gives_rule_and_unicode_lowercases() {
    assert_eq!(slug(""), "rule");
    assert_eq!(slug("!!! ---"), "rule");
    assert_eq!(slug("Ünïcode ÉTÉ"), "n-code-t");
    // The Kelvin sign lower-cases to an ASCII k.
    assert_eq!(slug("\u{212a}eep it"), "keep-it");
    assert_eq!(slug("Use `cargo` 2x"), "use-cargo-2x");
}

#[test]
fn repeats_are_numbered() {
    assert_eq!(
        numbered(["Do X.", "Do Y.", "do x", "DO X!"]),
        ["do-x", "do-y", "do-x-2", "do-x-3"]
    );
}

#[test]
fn blocks_follow_the_extractor() {
    let text = "# Title\n\nNever commit secrets.\nEver.\n- Run the *tests* first\n  before pushing.\n\
1. Use `rg`.\n2) Second item\n| table | row |\n> a quote\n```\n- not a block\n```\n<!-- c -->\n\
####### seven hashes\n-no space\n";
    assert_eq!(
        blocks(text),
        [
            "Never commit secrets. Ever.",
            "Run the tests first before pushing.",
            "Use rg.",
            "Second item",
            "####### seven hashes -no space",
        ]
    );
}

#[test]
fn lines_break_as_python_does() {
    assert_eq!(
        lines("a\r\nb\rc\n\nd\u{2028}e"),
        ["a", "b", "c", "", "d", "e"]
    );
    assert_eq!(lines("a\n"), ["a"]);
    assert!(lines("").is_empty());
}

#[test]
fn block_ids_number_repeats() {
    assert_eq!(
        block_ids("- Keep it short.\n- keep it short\n\nOther text here"),
        ["keep-it-short", "keep-it-short-2", "other-text-here"]
    );
}

#[test]
fn a_numbered_item_counts_digits_of_any_script() {
    // Arabic-Indic one, Devanagari two, fullwidth three: Python's `\d`.
    for item in [
        "\u{661}. Never release on a Friday.",
        "\u{968}) Never release on a Friday.",
        "\u{ff13}. Never release on a Friday.",
        "12. Never release on a Friday.",
    ] {
        assert_eq!(
            blocks(&format!("Intro line.\n{item}\n")),
            ["Intro line.", "Never release on a Friday."],
            "{item:?}"
        );
    }
    // Other numerals are no digits: a Roman numeral, a superscript two, a
    // circled one; the line joins the block above it.
    for text in ["\u{2160}. Never", "\u{b2}. Never", "\u{2460}. Never"] {
        assert_eq!(
            blocks(&format!("Intro line.\n{text}\n")).len(),
            1,
            "{text:?}"
        );
    }
    assert!(is_decimal_digit('9') && is_decimal_digit('\u{1fbf9}'));
    assert!(!is_decimal_digit('/') && !is_decimal_digit(':') && !is_decimal_digit('\u{1fbfa}'));
}

#[test]
fn only_blocks_read_as_rules_are_numbered() {
    // The first is a rule; the second is too short, passed over, and keeps
    // its own slug, as context-report's candidates do.
    assert_eq!(
        block_ids("- Never push.!!!!!!\n\nNever push\n"),
        ["never-push", "never-push"]
    );
    assert_eq!(
        block_ids("- Never push.!!!!!!\n- Never push!!!!!!!\n"),
        ["never-push", "never-push-2"]
    );
    // Rules first, numbered among themselves; passed-over blocks after.
    assert_eq!(
        block_ids("The build is green today.\n\n- Keep it short.\n- keep it short\n"),
        [
            "keep-it-short",
            "keep-it-short-2",
            "the-build-is-green-today"
        ]
    );
}

#[test]
fn a_rule_is_imperative_and_of_rule_length() {
    for rule in [
        "Never commit secrets to the repository.",
        "Run the tests before every push.",
        "Don't: push on Fridays.",
        "Use, if you can, small commits.",
        "Tests must pass before a merge.",
        "A release is not allowed on Friday.",
        "The scripts should not print keys.",
        "Commits (always) carry a ticket number.",
    ] {
        assert!(reads_as_rule(rule), "{rule:?}");
    }
    for passed_over in [
        "Never push",
        "The build is green today.",
        // A phrase inside a longer word is no phrase: `\b` on both sides.
        "You mustn't skip a review.",
        "Trustmusts are not a thing here.",
        "Preferences live in the settings file.",
    ] {
        assert!(!reads_as_rule(passed_over), "{passed_over:?}");
    }
    assert!(!reads_as_rule(&format!("Never {}", "x".repeat(400))));
    assert!(reads_as_rule(&format!("Never {}", "x".repeat(394))));
}
