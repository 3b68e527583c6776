//! Credentials in a run manifest. `apiKeyEnv` names the variable that holds
//! a key; the key itself never belongs in the manifest, nor in a URL's
//! userinfo or query. Findings name what was found by its public prefix
//! alone and record the secret for the renderers to mask.

/// A key-shaped run of text: where it stands and what it looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key<'a> {
    pub secret: &'a str,
    /// What it looks like, in words and by its public prefix.
    pub looks_like: &'static str,
}

/// Prefixes of well-known API keys and tokens, the words for each, and how
/// many key characters must follow before a run counts as a real key (a
/// prompt may quote `sk-live-4f3a`, which is too short to be one).
const PREFIXES: [(&str, &str, usize); 13] = [
    ("sk-ant-", "an Anthropic API key (sk-ant-)", 20),
    ("sk-", "an API key (sk-)", 20),
    ("github_pat_", "a GitHub token (github_pat_)", 20),
    ("ghp_", "a GitHub token (ghp_)", 20),
    ("gho_", "a GitHub token (gho_)", 20),
    ("ghs_", "a GitHub token (ghs_)", 20),
    ("ghu_", "a GitHub token (ghu_)", 20),
    ("ghr_", "a GitHub token (ghr_)", 20),
    ("xoxb-", "a Slack token (xoxb-)", 10),
    ("xoxp-", "a Slack token (xoxp-)", 10),
    ("AIza", "a Google API key (AIza)", 30),
    ("AKIA", "an AWS access key id (AKIA)", 16),
    ("ASIA", "an AWS access key id (ASIA)", 16),
];

fn is_key_character(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Every key-shaped run in `text`, in order. A run starts at a word
/// boundary with a known prefix followed by enough key characters.
pub fn keys(text: &str) -> Vec<Key<'_>> {
    let mut found = Vec::new();
    let mut previous: Option<char> = None;
    let mut resume_at = 0;
    for (start, c) in text.char_indices() {
        let at_boundary = previous.is_none_or(|p| !is_key_character(p));
        previous = Some(c);
        if start < resume_at || !at_boundary {
            continue;
        }
        let Some(rest) = text.get(start..) else {
            continue;
        };
        for (prefix, looks_like, minimum) in PREFIXES {
            let Some(after) = rest.strip_prefix(prefix) else {
                continue;
            };
            let length = after
                .find(|c: char| !is_key_character(c))
                .unwrap_or(after.len());
            if length >= minimum {
                let end = start + prefix.len() + length;
                if let Some(secret) = text.get(start..end) {
                    found.push(Key { secret, looks_like });
                }
                resume_at = end;
            }
            break;
        }
    }
    found
}

/// `[A-Za-z_][A-Za-z0-9_]*`: what an environment variable's name looks
/// like on every shell.
pub fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Query parameters that carry a key by name (`?key=` is how Gemini's
/// compatibility endpoint takes one).
const KEY_PARAMETERS: [&str; 7] = [
    "key",
    "api_key",
    "apikey",
    "api-key",
    "token",
    "access_token",
    "auth",
];

/// What in a `baseUrl` is a credential: its userinfo (`user:pass@`), a
/// query parameter named for a key, or a key-shaped value in the query.
/// Each with the text to mask.
pub fn in_url(url: &str) -> Vec<(&'static str, &str)> {
    let mut found = Vec::new();
    let Some((_, after_scheme)) = url.split_once("://") else {
        return found;
    };
    let authority_end = after_scheme
        .find(['/', '?', '#'])
        .unwrap_or(after_scheme.len());
    let authority = after_scheme.get(..authority_end).unwrap_or_default();
    if let Some((userinfo, _host)) = authority.rsplit_once('@') {
        found.push(("URL userinfo (user:pass@)", userinfo));
    }
    let before_fragment = url.split('#').next().unwrap_or_default();
    if let Some((_, query)) = before_fragment.split_once('?') {
        for parameter in query.split('&') {
            let (name, value) = parameter.split_once('=').unwrap_or((parameter, ""));
            if value.is_empty() {
                continue;
            }
            let named_for_key = KEY_PARAMETERS
                .iter()
                .any(|key| name.eq_ignore_ascii_case(key));
            if named_for_key {
                found.push(("a key in the query string", value));
            } else {
                for key in keys(value) {
                    found.push((key.looks_like, key.secret));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_keys_are_found_short_ones_are_not() {
        let anthropic = format!("sk-ant-api03-{}", "a1B2".repeat(6));
        let text = format!("use {anthropic} now");
        let found = keys(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(found.first().map(|k| k.secret), Some(anthropic.as_str()));
        assert_eq!(
            found.first().map(|k| k.looks_like),
            Some("an Anthropic API key (sk-ant-)")
        );
        // The spec's tempting fake key is too short to be a real one.
        assert!(keys("the API key sk-live-4f3a never lands").is_empty());
        // Inside a word is no key.
        assert!(keys(&format!("xsk-{}", "a".repeat(30))).is_empty());
        assert_eq!(keys("AKIAIOSFODNN7EXAMPLE").len(), 1);
    }

    #[test]
    fn variable_names() {
        for good in ["OPENAI_API_KEY", "_X", "a1"] {
            assert!(is_variable_name(good), "{good}");
        }
        for bad in ["", "1A", "A-B", "A B", "é"] {
            assert!(!is_variable_name(bad), "{bad}");
        }
    }

    #[test]
    fn urls() {
        assert!(in_url("https://api.openai.com/v1").is_empty());
        assert!(in_url("http://localhost:11434/v1?stream=true").is_empty());
        assert_eq!(
            in_url("https://me:hunter2@example.com/v1"),
            [("URL userinfo (user:pass@)", "me:hunter2")]
        );
        assert_eq!(
            in_url("https://example.com/v1?key=abc123"),
            [("a key in the query string", "abc123")]
        );
        let key = format!("sk-{}", "x".repeat(24));
        assert_eq!(
            in_url(&format!("https://example.com/v1?x={key}")),
            [("an API key (sk-)", key.as_str())]
        );
    }
}
