//! Positions as the client counts them. LSP columns are UTF-16 code units
//! unless the client offers UTF-8 at initialization; numi's loader counts
//! characters and its text helpers bytes, so every range crosses here.

use lsp_types::Position;

/// The code units a client counts columns in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it (no conversion, the cheapest), else
    /// the protocol's default UTF-16.
    pub fn negotiate(offered: Option<&[lsp_types::PositionEncodingKind]>) -> Self {
        let utf8 = lsp_types::PositionEncodingKind::UTF8;
        if offered.is_some_and(|kinds| kinds.contains(&utf8)) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub fn kind(self) -> lsp_types::PositionEncodingKind {
        match self {
            Encoding::Utf8 => lsp_types::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp_types::PositionEncodingKind::UTF16,
        }
    }

    fn units(self, c: char) -> u32 {
        let units = match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        };
        u32::try_from(units).unwrap_or(u32::MAX)
    }

    /// The client position of a byte offset; an offset inside a character
    /// counts as the character's start, one past the text as its end.
    pub fn position(self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let before = text.get(..offset).unwrap_or_else(|| {
            let start = (0..offset).rev().find(|&at| text.is_char_boundary(at));
            text.get(..start.unwrap_or(0)).unwrap_or_default()
        });
        let line_start = before.rfind('\n').map_or(0, |at| at + 1);
        let line = before.matches('\n').count();
        let column = before
            .get(line_start..)
            .unwrap_or_default()
            .chars()
            .fold(0u32, |sum, c| sum.saturating_add(self.units(c)));
        Position {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            character: column,
        }
    }

    /// The byte offset of a client position: a column past its line's end
    /// (or inside a character) lands on the nearest character boundary
    /// before it, as the protocol asks; a line past the text is its end.
    pub fn offset(self, text: &str, position: Position) -> usize {
        let line_index = usize::try_from(position.line).unwrap_or(usize::MAX);
        let mut starts = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1));
        let Some(line_start) = starts.nth(line_index) else {
            return text.len();
        };
        let line = text.get(line_start..).unwrap_or_default();
        let line = line.split('\n').next().unwrap_or_default();
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut counted = 0u32;
        for (at, c) in line.char_indices() {
            let next = counted.saturating_add(self.units(c));
            if next > position.character {
                return line_start + at;
            }
            counted = next;
        }
        line_start + line.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf8_is_chosen_only_when_offered() {
        let both = [
            lsp_types::PositionEncodingKind::UTF16,
            lsp_types::PositionEncodingKind::UTF8,
        ];
        assert_eq!(Encoding::negotiate(Some(&both)), Encoding::Utf8);
        let utf16 = [lsp_types::PositionEncodingKind::UTF16];
        assert_eq!(Encoding::negotiate(Some(&utf16)), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
    }

    #[test]
    fn non_ascii_columns_count_in_the_negotiated_units() {
        // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" is 4 bytes and 2 units.
        let text = "a: é𝄞 x\nb: 1\n";
        let x = text.find('x').unwrap_or_default();
        assert_eq!(Encoding::Utf16.position(text, x), at(0, 7));
        assert_eq!(Encoding::Utf8.position(text, x), at(0, 10));
        assert_eq!(Encoding::Utf16.offset(text, at(0, 7)), x);
        assert_eq!(Encoding::Utf8.offset(text, at(0, 10)), x);
        let b = text.find('b').unwrap_or_default();
        assert_eq!(Encoding::Utf16.position(text, b), at(1, 0));
        assert_eq!(Encoding::Utf16.offset(text, at(1, 0)), b);
    }

    #[test]
    fn positions_past_a_line_or_inside_a_character_stay_in_the_text() {
        let text = "a: 𝄞\nb";
        // Inside the surrogate pair: the character's start.
        assert_eq!(Encoding::Utf16.offset(text, at(0, 4)), 3);
        // Past the line's end: the end of the line, never the next line.
        assert_eq!(Encoding::Utf16.offset(text, at(0, 99)), 7);
        assert_eq!(Encoding::Utf16.offset(text, at(9, 0)), text.len());
        assert_eq!(Encoding::Utf16.position(text, 999), at(1, 1));
        assert_eq!(Encoding::Utf16.position(text, 4), at(0, 3));
    }
}
