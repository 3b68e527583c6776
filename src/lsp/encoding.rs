//! Positions as the client counts them. LSP columns are UTF-16 code units
//! unless the client offers UTF-8 at initialization; findings carry byte
//! ranges, so every range crosses here, through the loader's line index.

use lsp_types::Position;

use crate::yaml::{Column, LineIndex};

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

    fn column(self) -> Column {
        match self {
            Encoding::Utf8 => Column::Utf8,
            Encoding::Utf16 => Column::Utf16,
        }
    }

    /// The client position of a byte offset of the indexed text; an offset
    /// inside a character counts as the character's start, one past the
    /// text as its end.
    pub fn position(self, lines: &LineIndex<'_>, offset: usize) -> Position {
        let (line, character) = lines.line_column(offset, self.column());
        Position { line, character }
    }

    /// The byte offset of a client position: a column past its line's end
    /// (or inside a character) lands on the nearest character boundary
    /// before it, as the protocol asks; a line past the text is its end.
    pub fn offset(self, text: &str, position: Position) -> usize {
        LineIndex::new(text).offset_at(position.line, position.character, self.column())
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
        assert_eq!(Encoding::Utf16.position(&LineIndex::new(text), x), at(0, 7));
        assert_eq!(Encoding::Utf8.position(&LineIndex::new(text), x), at(0, 10));
        assert_eq!(Encoding::Utf16.offset(text, at(0, 7)), x);
        assert_eq!(Encoding::Utf8.offset(text, at(0, 10)), x);
        let b = text.find('b').unwrap_or_default();
        assert_eq!(Encoding::Utf16.position(&LineIndex::new(text), b), at(1, 0));
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
        assert_eq!(
            Encoding::Utf16.position(&LineIndex::new(text), 999),
            at(1, 1)
        );
        assert_eq!(Encoding::Utf16.position(&LineIndex::new(text), 4), at(0, 3));
    }

    #[test]
    fn every_line_end_starts_a_line_as_the_client_counts() {
        for text in ["a: 1\nbé: x\n", "a: 1\r\nbé: x\r\n", "a: 1\rbé: x\r"] {
            let x = text.find('x').unwrap_or_default();
            let lines = LineIndex::new(text);
            assert_eq!(Encoding::Utf16.position(&lines, x), at(1, 4), "{text:?}");
            assert_eq!(Encoding::Utf16.offset(text, at(1, 4)), x, "{text:?}");
        }
    }
}
