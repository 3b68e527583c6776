//! Credentials: finding them in a document's text ([`credentials`], the
//! one detector every check asks), and masking what no output may show. A
//! diagnostic about a credential carries the credential's text in
//! `Diagnostic::secrets`; every renderer that shows source text or a
//! message passes it through [`mask`] first.

mod credentials;

use std::borrow::Cow;

#[cfg(test)]
pub(crate) use credentials::examined_by;
pub use credentials::{Credential, credentials};

/// What stands in for each character of a secret: one for one, so columns
/// and underlines still fall where they did.
pub const MASK: char = '*';

/// `text` with every occurrence of every secret replaced, character for
/// character, by [`MASK`]. Longer secrets go first, so a secret that holds a
/// shorter one is masked whole.
pub fn mask<'t, S: AsRef<str>>(text: &'t str, secrets: &[S]) -> Cow<'t, str> {
    let mut ordered: Vec<&str> = secrets
        .iter()
        .map(AsRef::as_ref)
        .filter(|secret| !secret.is_empty() && text.contains(*secret))
        .collect();
    if ordered.is_empty() {
        return Cow::Borrowed(text);
    }
    ordered.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
    let mut masked = text.to_owned();
    for secret in ordered {
        let stars: String = secret.chars().map(|_| MASK).collect();
        masked = masked.replace(secret, &stars);
    }
    Cow::Owned(masked)
}

#[cfg(test)]
mod tests {
    use super::mask;

    #[test]
    fn each_occurrence_is_masked_character_for_character() {
        let text = "ref: https://x.example/a?token=ghp_abc and ghp_abc again";
        let masked = mask(text, &["ghp_abc"]);
        assert_eq!(
            masked,
            "ref: https://x.example/a?token=******* and ******* again"
        );
        assert_eq!(masked.chars().count(), text.chars().count());
    }

    #[test]
    fn text_without_a_secret_is_returned_as_is() {
        let none: [&str; 0] = [];
        assert_eq!(mask("plain", &none), "plain");
        assert_eq!(mask("plain", &["", "other"]), "plain");
    }

    #[test]
    fn a_secret_holding_another_is_masked_whole() {
        assert_eq!(mask("a=bé:pw@h", &["bé", "bé:pw"]), "a=*****@h");
    }
}
