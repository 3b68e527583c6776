//! `apiKeyEnv` names the variable that holds a key; the key itself never
//! belongs in the manifest (credentials are found by `crate::secrets`).

/// `[A-Za-z_][A-Za-z0-9_]*`: what an environment variable's name looks
/// like on every shell.
pub(super) fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variable_names() {
        for good in ["OPENAI_API_KEY", "_X", "a1"] {
            assert!(is_variable_name(good), "{good}");
        }
        for bad in ["", "1A", "A-B", "A B", "é"] {
            assert!(!is_variable_name(bad), "{bad}");
        }
    }
}
