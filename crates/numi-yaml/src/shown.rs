//! User text shown on one line of a message, and sizes as people read
//! them: what this crate's messages, and those of its callers, are made of.

/// User text in double quotes on one line: quotes, backslashes, control and
/// bidirectional formatting characters escaped, so no input can forge or break
/// an output line.
pub fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quote_into(&mut quoted, text);
    quoted
}

/// [`quote`], appended to `out`.
pub fn quote_into(out: &mut String, text: &str) {
    out.push('"');
    // Nearly every name and path is printable ASCII with nothing to escape:
    // it is copied whole. Every byte is looked at, without an early stop,
    // so that the look is made many bytes at a time.
    let plain = text.bytes().fold(true, |plain, b| {
        plain & (b' '..=b'~').contains(&b) & (b != b'"') & (b != b'\\')
    });
    if plain {
        out.push_str(text);
        out.push('"');
        return;
    }
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => match escaped_unseen(c) {
                Some(escape) => out.push_str(&escape),
                None => out.push(c),
            },
        }
    }
    out.push('"');
}

/// A character that would not show as itself (a tab, a control or an
/// invisible formatting character) as [`quote`] writes it: `\t`,
/// `\u{001b}`; `None` for any other.
pub fn escaped_unseen(c: char) -> Option<String> {
    match c {
        '\t' => Some("\\t".to_owned()),
        c if c.is_control() || is_invisible_format(c) => {
            Some(format!("\\u{{{:04x}}}", u32::from(c)))
        }
        _ => None,
    }
}

/// Format characters that change how text reads without showing themselves
/// (Trojan Source and friends).
pub fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'
    )
}

/// `16 MiB`, `512 KiB`, `100 bytes`.
pub fn human_size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes % KIB == 0 {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::{human_size, quote, quote_into};

    #[test]
    fn quoting_keeps_output_on_one_line() {
        assert_eq!(quote("doc.yaml"), "\"doc.yaml\"");
        assert_eq!(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quote("a\nb\tc\u{7}"), "\"a\\nb\\tc\\u{0007}\"");
        assert_eq!(quote("x\u{202E}y"), "\"x\\u{202e}y\"");
        assert_eq!(quote("café"), "\"café\"");
        assert_eq!(quote("a\u{7f}"), "\"a\\u{007f}\"");
        assert_eq!(quote(""), "\"\"");
    }

    #[test]
    fn quoting_appends_to_what_is_there() {
        let mut line = "ok ".to_owned();
        quote_into(&mut line, "policy/a.yaml");
        line.push(' ');
        quote_into(&mut line, "x\\y");
        assert_eq!(line, "ok \"policy/a.yaml\" \"x\\\\y\"");
    }

    #[test]
    fn sizes_read_in_the_largest_whole_unit() {
        assert_eq!(human_size(16 * 1024 * 1024), "16 MiB");
        assert_eq!(human_size(512 * 1024), "512 KiB");
        assert_eq!(human_size(100), "100 bytes");
        assert_eq!(human_size(1025), "1025 bytes");
    }
}
