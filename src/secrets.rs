//! Credentials: finding them in a document's text ([`credentials`], the
//! one detector every check asks), and masking what no output may show.
//! Every renderer passes whatever text it shows of a document (the source,
//! a message, a note) through [`mask`], which masks every credential the
//! detector recognises in that text, whatever stage failed and whether or
//! not a rule reported it, and the secrets a diagnostic about a credential
//! carries in `Diagnostic::secrets` (which the text may hold written
//! otherwise, as a quoted scalar with escapes).

mod credentials;

use std::borrow::Cow;

pub(crate) use credentials::credentials;
#[cfg(test)]
pub(crate) use credentials::examined_by;

/// What stands in for each character of a secret: one for one, so columns
/// and underlines still fall where they did.
pub(crate) const MASK: char = '*';

/// `text` with every occurrence of every credential the detector finds in
/// it, and of every secret of `known`, replaced character for character by
/// [`MASK`]. Longer secrets go first, so a secret that holds a shorter one
/// is masked whole.
pub(crate) fn mask<'t, S: AsRef<str>>(text: &'t str, known: &[S]) -> Cow<'t, str> {
    let found = credentials(text);
    let mut ordered: Vec<&str> = known
        .iter()
        .map(AsRef::as_ref)
        .filter(|secret| text.contains(*secret))
        .chain(found.iter().map(|credential| credential.secret))
        .filter(|secret| !secret.is_empty())
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
    fn a_credential_no_finding_named_is_masked_too() {
        let none: [&str; 0] = [];
        assert_eq!(
            mask("ref: https://bot:hunter2@h.example/x [unclosed", &none),
            "ref: https://***********@h.example/x [unclosed"
        );
        assert_eq!(
            mask(
                "value \"ghp_abcdefghijklmnopqrstuvwxyz\" is not one of",
                &none
            ),
            "value \"******************************\" is not one of"
        );
    }

    #[test]
    fn a_secret_holding_another_is_masked_whole() {
        assert_eq!(
            mask("said bé:pw and bé", &["bé", "bé:pw"]),
            "said ***** and **"
        );
    }
}
