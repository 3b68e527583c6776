use super::{Comment, comments, disagreement, misread};
use crate::{Limits, Positions, load_bytes_rooted, parse_pointer};

/// The comments of `text` as (line, alone, text), after checking them
/// against saphyr's values (see [`disagreement`]).
fn found(text: &str) -> Vec<(u32, bool, &str)> {
    assert_eq!(disagreement(text), None, "{text:?}");
    comments(text)
        .unwrap_or_else(|| panic!("saphyr reads {text:?}"))
        .iter()
        .map(|comment| (comment.line, comment.alone, comment.text))
        .collect()
}

#[test]
fn plain_scalars_end_where_a_comment_starts() {
    assert_eq!(
        found("a: value # real\nb: v#not\nc: x #\n"),
        [(1, false, "# real"), (3, false, "#")]
    );
}

#[test]
fn a_single_quoted_scalar_holds_its_hashes() {
    assert_eq!(
        found("a: 'x # not' # real\nb: 'it''s # not'  # real too\n"),
        [(1, false, "# real"), (2, false, "# real too")]
    );
}

#[test]
fn a_double_quoted_scalar_holds_its_hashes() {
    assert_eq!(
        found("a: \"x \\\" # not\" # real\nb: \"# not\"\n"),
        [(1, false, "# real")]
    );
}

#[test]
fn a_multi_line_plain_scalar_ends_at_a_comment() {
    assert_eq!(
        found("a: one#two\n  three#four # real\nb: 1\n"),
        [(2, false, "# real")]
    );
}

#[test]
fn multi_line_quoted_scalars_hold_hashes_on_every_line() {
    let text = "a: \"one\n  # not\n  two # not\" # real\nb: 'one\n\n  # not\n  ' # real\n";
    assert_eq!(found(text), [(3, false, "# real"), (7, false, "# real")]);
}

#[test]
fn literal_block_scalars_hold_their_lines_not_their_header_or_what_follows() {
    for header in ["|", "|-", "|+", "|2", "|-2"] {
        let text =
            format!("a: {header} # real\n  # not\n  text # not\n\n  # not\n # real\nb: 1 # real\n");
        assert_eq!(
            found(&text),
            [
                (1, false, "# real"),
                (6, true, "# real"),
                (7, false, "# real")
            ],
            "{header}"
        );
    }
}

#[test]
fn folded_block_scalars_hold_their_lines_not_their_header_or_what_follows() {
    for header in [">", ">-", ">+"] {
        let text = format!("- {header}\n    # not\n    text # not\n  # real\n- {header} # real\n");
        assert_eq!(
            found(&text),
            [(4, true, "# real"), (5, false, "# real")],
            "{header}"
        );
    }
}

#[test]
fn a_block_scalars_last_line_right_above_the_next_key_is_text() {
    let text = "q: |-\n  Does the new limit apply?\n  # numi: ignore[x/y] fine\nr: 1\n";
    assert_eq!(found(text), []);
}

#[test]
fn a_block_scalar_without_content_leaves_its_header_comment() {
    assert_eq!(found("a: | # real\n"), [(1, false, "# real")]);
    assert_eq!(
        found("a: >- # real\n\n# real\nb: 1\n"),
        [(1, false, "# real"), (3, true, "# real")]
    );
    assert_eq!(found("a: |+ # real\n\n\n"), [(1, false, "# real")]);
}

#[test]
fn properties_and_the_comments_between_them_and_their_scalar() {
    let text = "a: &x # real\n  \"# not\" # real\nb: !!str # real\n  | # real\n  # not\nc: !local#tag v # real\nd: !!str\ne: &y 'p # not'\n";
    assert_eq!(
        found(text),
        [
            (1, false, "# real"),
            (2, false, "# real"),
            (3, false, "# real"),
            (4, false, "# real"),
            (6, false, "# real")
        ]
    );
}

#[test]
fn flow_sequences_and_mappings() {
    let text =
        "a: [\"# not\", '# not', b # real\n  , c] # real\n{\"k # not\": \"v # not\", p: q}\n";
    assert_eq!(disagreement(text), None);
    assert_eq!(
        found("a: [\"# not\", '# not', b # real\n  , c] # real\n"),
        [(1, false, "# real"), (2, false, "# real")]
    );
    assert_eq!(
        found("{\"k # not\": \"v # not\", 's # not': [p, \"q # not\"]} # real\n"),
        [(1, false, "# real")]
    );
}

#[test]
fn keys_of_every_style() {
    let text = "\"k # not\": 1 # real\n'j # not': 2\n? |\n  key # not\n: v # real\n? \"multi\n  key # not\"\n: 3\n";
    assert_eq!(found(text), [(1, false, "# real"), (5, false, "# real")]);
}

#[test]
fn comments_alone_on_their_line_and_after_content() {
    assert_eq!(
        found("# top\n  # indented\na: 1 # after\n\t# after a tab\n# a # b\n"),
        [
            (1, true, "# top"),
            (2, true, "# indented"),
            (3, false, "# after"),
            (4, true, "# after a tab"),
            (5, true, "# a # b")
        ]
    );
}

#[test]
fn directives_and_document_markers_take_comments() {
    assert_eq!(
        found("%YAML 1.2 # real\n--- # real\na: 1\n... # real\n"),
        [
            (1, false, "# real"),
            (2, false, "# real"),
            (4, false, "# real")
        ]
    );
}

#[test]
fn offsets_are_bytes_and_text_before_counts_in_characters() {
    let text = "é: \"ü # not\" # real\nñ: |\n  ß # not\n# real\n";
    let comments = comments(text).unwrap();
    let offsets: Vec<usize> = comments.iter().map(|comment| comment.offset).collect();
    assert_eq!(
        offsets,
        [text.find("# real").unwrap(), text.rfind("# real").unwrap()]
    );
    assert_eq!(disagreement(text), None);
}

/// Every line ending YAML knows, with the line a loaded node gets beside the
/// comment's: the two must agree for a comment to cover a finding.
#[test]
fn crlf_and_lone_cr_end_lines_as_they_do_for_the_loader() {
    for end in ["\r\n", "\r", "\n"] {
        let text = [
            "a: 'x",
            "  # not' # real",
            "b: |",
            "  # not",
            "# real",
            "c: 1 # real",
            "",
        ]
        .join(end);
        assert_eq!(
            found(&text),
            [
                (2, false, "# real"),
                (5, true, "# real"),
                (6, false, "# real")
            ],
            "{end:?}"
        );
        let document = load_bytes_rooted(
            text.as_bytes(),
            &Limits::default(),
            Positions::Record,
            crate::Root::Mapping,
        )
        .unwrap();
        let lines = crate::LineIndex::new(&text);
        let line_of = |pointer: &str| {
            let node = document
                .locate(&parse_pointer(&document.value, pointer))
                .node;
            lines.position(node.start()).line
        };
        assert_eq!((line_of("/a"), line_of("/c")), (1, 6), "{end:?}");
    }
}

#[test]
fn a_text_saphyr_refuses_has_no_comments() {
    for text in [
        "a: [1, # c\n",
        "a: 'x # c\n",
        "a: \"\\ud83d # c\" # c\n",
        "a: b\n  c # c\n  d\n",
    ] {
        assert_eq!(comments(text), None, "{text:?}");
        assert_eq!(disagreement(text), None, "{text:?}");
    }
}

#[test]
fn a_surrogate_pair_escape_does_not_move_what_follows() {
    assert_eq!(
        found("a: \"\\ud83d\\ude00 # not\" # real\nb: x\n"),
        [(1, false, "# real")]
    );
}

/// The oracle itself on both sides: scalar text taken for a comment, and a
/// comment passed over, are both reported.
#[test]
fn the_oracle_catches_a_misread_either_way() {
    let text = "a: 'x # not' # real\n";
    let real = Comment {
        offset: 13,
        line: 1,
        alone: false,
        text: "# real",
    };
    let inside = Comment {
        offset: 6,
        text: "# not' # real",
        ..real
    };
    assert_eq!(misread(text, Some(vec![real])), None);
    assert!(
        misread(text, Some(vec![inside]))
            .is_some_and(|problem| problem.contains("a scalar holds it"))
    );
    assert!(misread(text, Some(Vec::new())).is_some_and(|problem| problem.contains("not found")));
    assert!(misread(text, None).is_some());
    assert!(misread("a: [\n", Some(Vec::new())).is_some());
}

/// A tab between a `:` and its value, which saphyr alone refuses, leaves
/// the comments readable; a `:` and a tab inside a scalar are its text.
#[test]
fn a_tab_after_a_colon_leaves_the_comments_readable() {
    assert_eq!(
        found("a: {\"a\":\t1} # real\nb:\ttrue # real\nc: 'k:\tv # not'\n"),
        [(1, false, "# real"), (2, false, "# real")]
    );
    assert_eq!(
        found("a:\t\"x:\tb # not\" # real\r# real\r"),
        [(1, false, "# real"), (2, true, "# real")]
    );
}

#[test]
fn a_comment_after_a_flow_mapping_with_a_key_alone_is_found() {
    // saphyr spans the empty value of a key written alone from the key to
    // the next token, over the `}` and the comment after it: an empty plain
    // scalar holds no text of the document.
    for (text, at) in [
        ("{ab}  # c\n", 6),
        ("m: {a:b}  # c\n", 10),
        ("m: {name:f low}  # c\n", 17),
        ("m: {a, b: c}  # c\n", 14),
    ] {
        let found = comments(text).unwrap_or_default();
        assert_eq!(
            found
                .iter()
                .map(|comment| comment.offset)
                .collect::<Vec<_>>(),
            [at],
            "{text:?}"
        );
        assert_eq!(crate::comments::disagreement(text), None, "{text:?}");
    }
}

#[test]
fn an_empty_document_after_a_directive_of_wide_characters_reads_its_comments() {
    // saphyr's span of the empty scalar lies past the end of this text.
    assert_eq!(disagreement("%\u{fffe}\n---"), None);
    assert_eq!(
        comments("%\u{fffe}\n--- # note\n").map(|found| found.len()),
        Some(1)
    );
}
#[test]
fn a_directive_of_wide_characters_leaves_every_later_span_where_it_stands() {
    assert_eq!(disagreement("%\u{fffe}\n--- a # c\n"), None);
    assert_eq!(
        comments("%\u{fffe}\n--- a # c\n").map(|found| found.len()),
        Some(1)
    );
    assert_eq!(
        disagreement(
            "%YAML 1.2\n%TAG ! tag:\u{e9},2000:\n--- # c\na: b\n...\n%\u{e9}\n--- d # e\n"
        ),
        None
    );
    // A `%` line inside a document is no directive, and is read as written.
    assert_eq!(disagreement("a: \"b\n %\u{e9} # c\"\n"), None);
}
