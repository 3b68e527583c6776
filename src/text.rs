//! Text helpers every layer shares: user text quoted and shortened for
//! one-line messages, and sizes as people read them. Quoting and sizes are
//! the YAML front end's, which its own messages need.

pub use numi_yaml::shown::{escaped_unseen, human_size, is_invisible_format, quote, quote_into};

/// User text cut to a length fit for a one-line message. A credential in it
/// is masked first: a cut inside one could leave a part the detector no
/// longer recognises when a renderer masks the message.
pub fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 64;
    let none: [&str; 0] = [];
    let text = crate::secrets::mask(text, &none);
    let mut shown: String = text.chars().take(MAX_CHARS).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

/// A YAML error's message as every output shows it: the user's text in it
/// shortened (and a credential masked) as in every other message.
pub fn yaml_message(error: &numi_yaml::YamlError) -> String {
    error.message_shortening(shorten)
}

/// `text` with each of its lines filled to `width` columns and broken only
/// between tokens: at a space, or after a comma, never inside a value in
/// double quotes or backticks. A token wider than `width` stays whole, on
/// a line of its own; line breaks already in `text` are kept.
pub fn wrap(text: &str, width: usize) -> String {
    let mut wrapped = String::with_capacity(text.len() + text.len() / width.max(1));
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            wrapped.push('\n');
        }
        let mut column = 0;
        for (n, (gap, token)) in tokens(line).into_iter().enumerate() {
            let (gap_width, token_width) = (columns(gap), columns(token));
            if n > 0 && column + gap_width + token_width > width {
                wrapped.push('\n');
                column = 0;
            } else {
                wrapped.push_str(gap);
                column += gap_width;
            }
            wrapped.push_str(token);
            column += token_width;
        }
    }
    wrapped
}

/// How many columns `text` takes on a terminal.
pub fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// The tokens of one line, each with the spaces before it: a line may
/// break before any of them. A comma followed by anything but a space
/// ends a token too (`["A","B"]` breaks after `"A",`). A quote that
/// nothing closes on the line is an ordinary character.
fn tokens(line: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    let mut gap_start = 0;
    let mut token_start: Option<usize> = None;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut chars = line.char_indices().peekable();
    let piece = |from: usize, to: usize| line.get(from..to).unwrap_or_default();
    while let Some((at, c)) = chars.next() {
        if let Some(open) = quote {
            if escaped {
                escaped = false;
            } else if open == '"' && c == '\\' {
                escaped = true;
            } else if c == open {
                quote = None;
            }
            continue;
        }
        if c == ' ' {
            if let Some(start) = token_start.take() {
                found.push((piece(gap_start, start), piece(start, at)));
                gap_start = at;
            }
            continue;
        }
        let start = *token_start.get_or_insert(at);
        let rest = line.get(at + c.len_utf8()..).unwrap_or_default();
        if matches!(c, '"' | '`') && closes(rest, c) {
            quote = Some(c);
        } else if c == ',' {
            if let Some(&(next, following)) = chars.peek() {
                if following != ' ' {
                    found.push((piece(gap_start, start), piece(start, next)));
                    gap_start = next;
                    token_start = None;
                }
            }
        }
    }
    if let Some(start) = token_start {
        found.push((piece(gap_start, start), piece(start, line.len())));
    }
    found
}

/// Whether `rest` holds the quote `quote` that closes one just opened.
fn closes(rest: &str, quote: char) -> bool {
    let mut escaped = false;
    for c in rest.chars() {
        if escaped {
            escaped = false;
        } else if quote == '"' && c == '\\' {
            escaped = true;
        } else if c == quote {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{shorten, wrap};

    #[test]
    fn wrapping_breaks_at_spaces_and_after_commas_to_the_width() {
        assert_eq!(wrap("one two three four", 9), "one two\nthree\nfour");
        // An enum list without spaces breaks between its values.
        assert_eq!(
            wrap(r#"one of ["SCOPE_ORG","SCOPE_TEAM","SCOPE_REPO"]"#, 24),
            "one of [\"SCOPE_ORG\",\n\"SCOPE_TEAM\",\n\"SCOPE_REPO\"]"
        );
        // Text that fits, and the line breaks it has, are kept as they are.
        assert_eq!(wrap("a, b\nc  d", 80), "a, b\nc  d");
        // Columns, not bytes.
        assert_eq!(wrap("ünïcödé ünïcödé", 15), "ünïcödé ünïcödé");
    }

    #[test]
    fn wrapping_never_breaks_inside_a_quoted_value_or_a_token() {
        // Spaces and commas inside quotes or backticks are no break.
        assert_eq!(
            wrap(r#"got "a b, c" and `x y`"#, 6),
            "got\n\"a b, c\"\nand\n`x y`"
        );
        assert_eq!(wrap(r#"say "a \" b" now"#, 4), "say\n\"a \\\" b\"\nnow");
        // A token wider than the line stays whole.
        let long = "EVAL_ACCEPTANCE_ACCEPTED";
        assert_eq!(wrap(&format!("x {long} y"), 10), format!("x\n{long}\ny"));
        // A quote nothing closes is an ordinary character.
        assert_eq!(wrap("it's a b", 4), "it's\na b");
        assert_eq!(wrap("\"a b", 2), "\"a\nb");
        // A comma before a space or at the end is no break of its own.
        assert_eq!(wrap("a,", 1), "a,");
    }

    #[test]
    fn shortening_never_cuts_a_credential_into_an_unrecognisable_part() {
        let password = "p".repeat(70);
        let url = format!("https://bot:{password}@wiki.example.com/x");
        let shown = shorten(&url);
        assert!(shown.starts_with("https://****"), "{shown}");
        assert!(!shown.contains("ppp"), "{shown}");
        let plain = "a".repeat(70);
        assert_eq!(shorten(&plain), format!("{}…", "a".repeat(64)));
    }
}
