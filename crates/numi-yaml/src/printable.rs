//! The characters a YAML 1.2 stream may hold (`c-printable`): tab, line
//! feed, carriage return, and every other character but the C0 and C1
//! control characters (U+0085, NEL, is allowed), DEL and the
//! noncharacters U+FFFE and U+FFFF. For JSON's sake a quoted scalar may
//! also hold DEL, the C1 controls and the two noncharacters, as a JSON
//! string may; a C0 control can only be written as an escape in a
//! double-quoted scalar. saphyr takes most of them as text anywhere, even
//! as spacing (`{\x02"a": 1}` loads), so the loader looks for them itself.

/// The characters of `text` outside `c-printable`, with their byte offsets.
pub(super) fn unprintable(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    const CHUNK: usize = 64;
    text.as_bytes()
        .chunks(CHUNK)
        .enumerate()
        // Each chunk is decided whole, without an early exit, so that this
        // runs on vectors; a chunk with a byte that may start such a
        // character is then read character by character.
        .filter(|(_, chunk)| {
            chunk
                .iter()
                .fold(false, |any, &b| any | may_start_unprintable(b))
        })
        .flat_map(move |(index, chunk)| {
            let from = index * CHUNK;
            (from..from + chunk.len()).filter_map(move |at| {
                // Nothing inside a character: it started before `at`.
                let c = text.get(at..)?.chars().next()?;
                (!is_printable(c)).then_some((at, c))
            })
        })
}

/// Whether `c`, outside `c-printable`, may stand in a quoted scalar: all
/// but the C0 controls may, as in a JSON string.
pub(super) fn allowed_quoted(c: char) -> bool {
    !matches!(c, '\0'..='\u{1F}')
}

/// Whether `byte` may start a character outside `c-printable`: a C0
/// control other than tab and the line breaks, DEL, the lead byte of
/// U+0080..U+00BF (the C1 controls among them), and that of
/// U+F000..U+FFFF (the noncharacters U+FFFE and U+FFFF among them).
fn may_start_unprintable(byte: u8) -> bool {
    (byte < b' ' && !matches!(byte, b'\t' | b'\n' | b'\r'))
        | (byte == 0x7F)
        | (byte == 0xC2)
        | (byte == 0xEF)
}

/// YAML 1.2's `c-printable`.
fn is_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_unprintable(text: &str) -> Option<(usize, char)> {
        unprintable(text).next()
    }

    #[test]
    fn every_character_outside_c_printable_is_found_at_its_offset() {
        let forbidden = ('\0'..='\u{8}')
            .chain(['\u{B}', '\u{C}'])
            .chain('\u{E}'..='\u{1F}')
            .chain('\u{7F}'..='\u{84}')
            .chain('\u{86}'..='\u{9F}')
            .chain(['\u{FFFE}', '\u{FFFF}']);
        for c in forbidden {
            // Past the first chunk, and at the very start.
            let text = format!("{}é: {c}", "a".repeat(70));
            assert_eq!(first_unprintable(&text), Some((74, c)), "{c:?}");
            assert_eq!(first_unprintable(&format!("{c}a")), Some((0, c)), "{c:?}");
        }
    }

    #[test]
    fn every_character_of_c_printable_passes() {
        let text: String = [
            '\t', '\n', '\r', ' ', 'a', '~', '\u{85}', '\u{A0}', '\u{BF}',
        ]
        .into_iter()
        .chain([
            'é', '\u{D7FF}', '\u{E000}', '\u{F000}', '\u{FEFF}', '\u{FFFD}',
        ])
        .chain(['\u{10000}', '😀', '\u{10FFFF}'])
        .collect();
        // At every alignment to the chunks.
        for pad in 0..64 {
            let padded = format!("{}{text}", " ".repeat(pad));
            assert_eq!(first_unprintable(&padded), None, "{pad}");
        }
    }

    #[test]
    fn every_one_is_found_and_the_c0_controls_are_told_apart() {
        let found: Vec<(usize, char)> = unprintable("\u{1}a\u{7f}\u{80}\u{85}\u{fffe}").collect();
        assert_eq!(
            found,
            [(0, '\u{1}'), (2, '\u{7f}'), (3, '\u{80}'), (7, '\u{fffe}')]
        );
        let quoted: Vec<bool> = found.iter().map(|&(_, c)| allowed_quoted(c)).collect();
        assert_eq!(quoted, [false, true, true, true]);
    }

    #[test]
    fn a_character_split_across_two_chunks_is_read_whole() {
        // U+FFFF is three bytes: its lead byte ends the first chunk.
        let text = format!("{}\u{FFFF}", "a".repeat(63));
        assert_eq!(first_unprintable(&text), Some((63, '\u{FFFF}')));
        let text = format!("{}\u{FFFD}\u{1}", "a".repeat(63));
        assert_eq!(first_unprintable(&text), Some((66, '\u{1}')));
    }
}
