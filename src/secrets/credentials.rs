//! The one credential detector: every check that refuses a credential in
//! a document's text (a ContextBundle's refs, a run manifest's keys, URLs
//! and prompts) asks [`credentials`]. A finding names what was found by its
//! public shape alone and carries the text to mask.

// The bytes the scans of the last `credentials` call read, counted in
// tests only: the hostile-input tests bound the work per byte of text.
#[cfg(test)]
thread_local! {
    static EXAMINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
fn examined(bytes: usize) {
    EXAMINED.with(|count| count.set(count.get().saturating_add(bytes)));
}

#[cfg(not(test))]
fn examined(_bytes: usize) {}

/// The longest first line of a PEM block numi looks at:
/// `-----BEGIN ENCRYPTED PRIVATE KEY-----` is 37 bytes. Looking no further
/// keeps a text of many would-be headers on one line linear.
const PEM_HEADER_MAX: usize = 80;

/// One credential found in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Credential<'t> {
    /// What it is, in words and by its public prefix where it has one:
    /// "what looks like a GitHub token (ghp_)".
    pub what: &'static str,
    /// The credential itself, for renderers to mask.
    pub secret: &'t str,
}

/// A token known by its prefix: the prefix, the words for it, how many
/// token characters must follow (a prompt may quote `sk-live-4f3a`, too
/// short to be a real key), and for a token of fixed length, the
/// characters it is made of.
struct Prefixed {
    prefix: &'static str,
    what: &'static str,
    minimum: usize,
    exactly_of: Option<fn(char) -> bool>,
}

const fn at_least(prefix: &'static str, what: &'static str, minimum: usize) -> Prefixed {
    Prefixed {
        prefix,
        what,
        minimum,
        exactly_of: None,
    }
}

/// Every token shape known by its prefix, longer prefixes before the
/// shorter ones they begin with.
const PREFIXED: [Prefixed; 18] = [
    at_least(
        "sk-ant-",
        "what looks like an Anthropic API key (sk-ant-)",
        20,
    ),
    at_least("sk-", "what looks like an API key (sk-)", 20),
    at_least(
        "github_pat_",
        "what looks like a GitHub token (github_pat_)",
        20,
    ),
    at_least("ghp_", "what looks like a GitHub token (ghp_)", 20),
    at_least("gho_", "what looks like a GitHub token (gho_)", 20),
    at_least("ghs_", "what looks like a GitHub token (ghs_)", 20),
    at_least("ghu_", "what looks like a GitHub token (ghu_)", 20),
    at_least("ghr_", "what looks like a GitHub token (ghr_)", 20),
    at_least("xoxa-", "what looks like a Slack token (xoxa-)", 10),
    at_least("xoxb-", "what looks like a Slack token (xoxb-)", 10),
    at_least("xoxp-", "what looks like a Slack token (xoxp-)", 10),
    at_least("xoxr-", "what looks like a Slack token (xoxr-)", 10),
    at_least("xoxs-", "what looks like a Slack token (xoxs-)", 10),
    // A Google API key is `AIza` and 35 more characters.
    Prefixed {
        prefix: "AIza",
        what: "what looks like a Google API key (AIza)",
        minimum: 35,
        exactly_of: Some(is_token_character),
    },
    // An AWS access key id is the prefix and exactly 16 more.
    Prefixed {
        prefix: "AKIA",
        what: "what looks like an AWS access key id (AKIA)",
        minimum: 16,
        exactly_of: Some(is_key_id_character),
    },
    Prefixed {
        prefix: "ASIA",
        what: "what looks like an AWS access key id (ASIA)",
        minimum: 16,
        exactly_of: Some(is_key_id_character),
    },
    at_least("eyJ", JSON_WEB_TOKEN, 0),
    at_least("-----BEGIN ", PRIVATE_KEY, 0),
];

const JSON_WEB_TOKEN: &str = "what looks like a JSON Web Token";
const PRIVATE_KEY: &str = "a private key block";
const USERINFO: &str = "URL userinfo (user:pass@)";
const QUERY_SECRET: &str = "a secret in a query string";

/// Query parameters that carry a secret by their name, compared without
/// regard to case.
const SECRET_PARAMETERS: [&str; 18] = [
    "key",
    "api_key",
    "apikey",
    "api-key",
    "token",
    "access_token",
    "refresh_token",
    "id_token",
    "auth",
    "password",
    "passwd",
    "secret",
    "client_secret",
    "signature",
    "sig",
    "x-amz-signature",
    "x-amz-credential",
    "x-goog-signature",
];

/// Every credential in `text`, in the order they start; a credential
/// found by its shape inside one found by its place (a key in a URL's
/// userinfo) is reported once, by its place.
pub(crate) fn credentials(text: &str) -> Vec<Credential<'_>> {
    let mut found = Vec::new();
    for word in text.split(char::is_whitespace) {
        examined(word.len());
        found.extend(in_url(word));
    }
    // Where each credential found by its place stands, in text order: a
    // token inside one of them is that credential, not another.
    let places: Vec<(usize, usize)> = found
        .iter()
        .map(|known: &Credential<'_>| {
            let start = offset_in(text, known.secret);
            (start, start + known.secret.len())
        })
        .collect();
    let covered = |start: usize, end: usize| {
        let before = places.partition_point(|&(place_start, _)| place_start <= start);
        places
            .get(..before)
            .and_then(<[(usize, usize)]>::last)
            .is_some_and(|&(_, place_end)| end <= place_end)
    };
    let mut reported = std::collections::HashSet::new();
    let mut previous: Option<char> = None;
    let mut resume_at = 0;
    for (start, c) in text.char_indices() {
        let at_boundary = previous.is_none_or(|p| !is_token_character(p));
        previous = Some(c);
        if start < resume_at || !at_boundary {
            continue;
        }
        let Some(rest) = text.get(start..) else {
            continue;
        };
        if let Some((what, length)) = token_at(rest) {
            let end = start + length;
            if let Some(secret) = text.get(start..end) {
                // A token written twice is one credential, reported once.
                if !covered(start, end) && reported.insert(secret) {
                    found.push(Credential { what, secret });
                }
            }
            resume_at = end;
        }
    }
    found.sort_by_key(|credential| offset_in(text, credential.secret));
    found
}

/// Where `part`, a slice of `text`, starts in it.
fn offset_in(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

fn is_token_character(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

fn is_key_id_character(c: char) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit()
}

/// Whether a byte starts one of the [`PREFIXED`] shapes: a word that
/// starts with any other byte is passed over without comparing prefixes.
// Evaluated when numi is built: an index out of bounds (an empty prefix)
// would fail the build, never a run.
#[allow(clippy::indexing_slicing)]
const STARTS_A_SHAPE: [bool; 256] = {
    let mut starts = [false; 256];
    let mut shape = 0;
    while shape < PREFIXED.len() {
        let first = PREFIXED[shape].prefix.as_bytes()[0];
        starts[first as usize] = true;
        shape += 1;
    }
    starts
};

/// The credential that starts `text` by its shape, and its length in bytes.
fn token_at(text: &str) -> Option<(&'static str, usize)> {
    let first = *text.as_bytes().first()?;
    if !STARTS_A_SHAPE
        .get(usize::from(first))
        .copied()
        .unwrap_or(false)
    {
        return None;
    }
    let shape = PREFIXED
        .iter()
        .find(|shape| text.starts_with(shape.prefix))?;
    match shape.what {
        JSON_WEB_TOKEN => json_web_token(text).map(|length| (JSON_WEB_TOKEN, length)),
        PRIVATE_KEY => private_key_block(text).map(|length| (PRIVATE_KEY, length)),
        what => {
            let after = text.get(shape.prefix.len()..)?;
            let run = after
                .find(|c| !is_token_character(c))
                .unwrap_or(after.len());
            examined(shape.prefix.len() + run);
            let fits = match shape.exactly_of {
                Some(of) => {
                    let length = after.find(|c| !of(c)).unwrap_or(after.len());
                    length == shape.minimum && run == shape.minimum
                }
                None => run >= shape.minimum,
            };
            fits.then_some((what, shape.prefix.len() + run))
        }
    }
}

/// `eyJ<header>.eyJ<payload>.<signature>`: base64url JSON header and
/// payload, as every JSON Web Token starts; its length.
fn json_web_token(text: &str) -> Option<usize> {
    let base64url = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let part = |text: &str| text.find(|c| !base64url(c)).unwrap_or(text.len());
    let header = part(text);
    examined(header);
    let payload_text = text.get(header..)?.strip_prefix('.')?;
    let payload = part(payload_text);
    examined(payload);
    if header < 7 || payload < 7 || !payload_text.starts_with("eyJ") {
        return None;
    }
    let signature_text = payload_text.get(payload..)?.strip_prefix('.')?;
    let signature = part(signature_text);
    examined(signature);
    Some(header + 1 + payload + 1 + signature)
}

/// `-----BEGIN ... PRIVATE KEY-----`, to its END line or the end of the
/// text; its length.
fn private_key_block(text: &str) -> Option<usize> {
    let head = text.get(..PEM_HEADER_MAX.min(text.len())).unwrap_or(text);
    let line_end = head.find('\n').unwrap_or(head.len());
    examined(line_end);
    let header = head.get(..line_end)?;
    if !(header.contains("PRIVATE KEY") && header.trim_end().ends_with("-----")) {
        return None;
    }
    const END: &str = "-----END ";
    let end = match text.find(END) {
        Some(at) => {
            let rest = text.get(at + END.len()..)?;
            let close = rest.find("-----").map_or(rest.len(), |close| close + 5);
            at + END.len() + close
        }
        None => text.len(),
    };
    examined(end);
    Some(end)
}

/// What a URL-shaped word holds: its userinfo (`scheme://user@host`, or
/// `user:pass@host` without a scheme) and each query parameter named for a
/// secret.
fn in_url(word: &str) -> Vec<Credential<'_>> {
    let mut found = Vec::new();
    // Userinfo ends at an `@`, a query starts at a `?`: a word with
    // neither holds no credential by its place, and most words have
    // neither.
    if memchr::memchr2(b'@', b'?', word.as_bytes()).is_none() {
        return found;
    }
    let word = word.trim_matches(|c: char| matches!(c, '"' | '\'' | '<' | '>' | '(' | ')' | ','));
    let (after_scheme, has_scheme) = match word.split_once("://") {
        Some((scheme, rest)) if !scheme.is_empty() && scheme.chars().all(is_scheme_character) => {
            (rest, true)
        }
        _ => (word, false),
    };
    let authority_end = after_scheme
        .find(['/', '?', '#'])
        .unwrap_or(after_scheme.len());
    let authority = after_scheme.get(..authority_end).unwrap_or_default();
    if let Some((userinfo, host)) = authority.rsplit_once('@') {
        let is_userinfo =
            !userinfo.is_empty() && !host.is_empty() && (has_scheme || has_password(userinfo));
        if is_userinfo {
            found.push(Credential {
                what: USERINFO,
                secret: userinfo,
            });
        }
    }
    let before_fragment = word.split('#').next().unwrap_or_default();
    if let Some((_, query)) = before_fragment.split_once('?') {
        for parameter in query.split('&') {
            let Some((name, value)) = parameter.split_once('=') else {
                continue;
            };
            let named_for_secret = SECRET_PARAMETERS
                .iter()
                .any(|secret| name.eq_ignore_ascii_case(secret));
            if named_for_secret && !value.is_empty() {
                found.push(Credential {
                    what: QUERY_SECRET,
                    secret: value,
                });
            }
        }
    }
    found
}

/// Address-field names written before an email address (`to:a@b.example`),
/// compared without regard to case: the address is no password.
const ADDRESS_FIELDS: [&str; 9] = [
    "mailto", "to", "cc", "bcc", "from", "reply-to", "email", "e-mail", "re",
];

/// Whether the userinfo of a URL without a scheme holds a password: without
/// a scheme, `name@host` is an address and `host:path` with `git@` before
/// it is an SCP-like path, so only `user:password@` is a credential. A
/// field name before an address (`cc:bob@host`) and a clock time or ratio
/// (`10:30@room`) are not.
fn has_password(userinfo: &str) -> bool {
    let Some((user, password)) = userinfo.split_once(':') else {
        return false;
    };
    let numeric = |part: &str| part.chars().all(|c| c.is_ascii_digit());
    let address_field = ADDRESS_FIELDS
        .iter()
        .any(|field| user.eq_ignore_ascii_case(field));
    let clock = numeric(user) && numeric(password);
    !user.is_empty() && !password.is_empty() && !address_field && !clock
}

fn is_scheme_character(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
}

/// [`credentials`] of `text`, and the bytes its scans read.
#[cfg(test)]
pub(crate) fn examined_by(text: &str) -> (usize, Vec<Credential<'_>>) {
    EXAMINED.with(|count| count.set(0));
    let found = credentials(text);
    (EXAMINED.with(std::cell::Cell::get), found)
}

#[cfg(test)]
mod tests;
