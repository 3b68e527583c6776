//! A plain scalar as PyYAML's `safe_load` reads it: context-report reads
//! eval-case front matter that way, by YAML 1.1's implicit types (PyYAML's
//! `resolver.py`), where numi reads YAML 1.2's core schema. `yes` is a
//! boolean to the tool and a string to numi; `1:30` is the integer 90;
//! `1e3` is a string to the tool and a number to numi.

use serde_json::{Number, Value};

/// What PyYAML makes of a plain scalar.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Reading {
    Text,
    Bool(bool),
    /// An integer of any base PyYAML knows, sexagesimal included.
    Int(Value),
    Float(f64),
    Null,
    /// A date or a timestamp: a `datetime` object, no string.
    Date,
    /// A value PyYAML's safe loader has no constructor for (`=`, or `<<`
    /// as a value): it refuses the whole document.
    Unreadable(&'static str),
    /// A value PyYAML's resolver types but its constructor cannot build
    /// (a date no calendar holds, `0b_`): it fails on the whole document.
    Unbuildable(&'static str),
}

impl Reading {
    /// The value the tool works with, as JSON holds it (a date as its
    /// text, which is no string to the tool all the same).
    pub(super) fn value(&self, text: &str) -> Value {
        match self {
            Reading::Text | Reading::Date | Reading::Unreadable(_) | Reading::Unbuildable(_) => {
                Value::String(text.to_owned())
            }
            Reading::Bool(flag) => Value::Bool(*flag),
            Reading::Int(number) => number.clone(),
            // NaN and the infinities are true to Python, as any non-empty text.
            Reading::Float(float) => Number::from_f64(*float)
                .map_or_else(|| Value::String(text.to_owned()), Value::Number),
            Reading::Null => Value::Null,
        }
    }

    /// What the value is, for a message: `the boolean true`.
    pub(super) fn described(&self) -> String {
        match self {
            Reading::Text => "text".to_owned(),
            Reading::Bool(flag) => format!("the boolean {flag}"),
            Reading::Int(number) => format!("the integer {number}"),
            Reading::Float(float) => format!("the float {float}"),
            Reading::Null => "null".to_owned(),
            Reading::Date => "a date".to_owned(),
            Reading::Unreadable(tag) => format!("YAML 1.1's {tag} tag"),
            Reading::Unbuildable(what) => (*what).to_owned(),
        }
    }
}

/// PyYAML's reading of the plain scalar `text`.
pub(super) fn read_plain(text: &str) -> Reading {
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        return Reading::Null;
    }
    match text {
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Reading::Bool(true);
        }
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Reading::Bool(false);
        }
        "=" => return Reading::Unreadable("value"),
        "<<" => return Reading::Unreadable("merge"),
        _ => {}
    }
    if is_int_without_digits(text) {
        return Reading::Unbuildable("an integer with no digit (`int()` of nothing)");
    }
    if let Some(number) = int(text) {
        return Reading::Int(number);
    }
    if let Some(float) = float(text) {
        return Reading::Float(float);
    }
    match timestamp(text) {
        Some(stamp) if stamp.builds() => Reading::Date,
        Some(_) => Reading::Unbuildable("a date or a time no calendar holds"),
        None => Reading::Text,
    }
}

/// `[-+]?0b[_]+` or `[-+]?0x[_]+`: PyYAML's resolver takes it for an
/// integer, and its constructor, the underscores dropped, asks `int()` of
/// nothing.
fn is_int_without_digits(text: &str) -> bool {
    let (_, unsigned) = sign(text);
    unsigned
        .strip_prefix("0b")
        .or_else(|| unsigned.strip_prefix("0x"))
        .is_some_and(|digits| !digits.is_empty() && all(digits, |b| b == b'_'))
}

fn sign(text: &str) -> (f64, &str) {
    match text.as_bytes().first() {
        Some(b'-') => (-1.0, text.get(1..).unwrap_or_default()),
        Some(b'+') => (1.0, text.get(1..).unwrap_or_default()),
        _ => (1.0, text),
    }
}

fn all(text: &str, accept: impl Fn(u8) -> bool) -> bool {
    text.bytes().all(accept)
}

/// The digits of `text` in `radix`, underscores skipped, as an exact
/// integer when it fits 64 bits, else the nearest float.
fn in_radix(negative: bool, digits: &str, radix: u32) -> Option<Value> {
    let mut exact: Option<i128> = Some(0);
    let mut float = 0.0_f64;
    for digit in digits.chars().filter(|&c| c != '_') {
        let digit = digit.to_digit(radix)?;
        exact = exact
            .and_then(|n| n.checked_mul(i128::from(radix)))
            .and_then(|n| n.checked_add(i128::from(digit)));
        float = float * f64::from(radix) + f64::from(digit);
    }
    let signed = exact.map(|n| if negative { -n } else { n });
    if let Some(small) = signed.and_then(|n| i64::try_from(n).ok()) {
        return Some(Value::from(small));
    }
    #[allow(clippy::cast_precision_loss)] // the nearest float is the point
    let float = signed.map_or(if negative { -float } else { float }, |n| n as f64);
    // Python's integers have no bound; past a float's range JSON holds
    // the number only as its digits.
    Some(Number::from_f64(float).map_or_else(
        || {
            let sign = if negative { "-" } else { "" };
            Value::String(format!("{sign}{}", digits.replace('_', "")))
        },
        Value::Number,
    ))
}

/// `[-+]?0b[01_]+ | [-+]?0[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+
/// | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`
fn int(text: &str) -> Option<Value> {
    let (factor, unsigned) = sign(text);
    let negative = factor < 0.0;
    let bytes = unsigned.as_bytes();
    if let Some(binary) = unsigned.strip_prefix("0b") {
        return (!binary.is_empty() && all(binary, |b| matches!(b, b'0' | b'1' | b'_')))
            .then(|| in_radix(negative, binary, 2))
            .flatten();
    }
    if let Some(hex) = unsigned.strip_prefix("0x") {
        return (!hex.is_empty() && all(hex, |b| b.is_ascii_hexdigit() || b == b'_'))
            .then(|| in_radix(negative, hex, 16))
            .flatten();
    }
    if unsigned == "0" {
        return Some(Value::from(0));
    }
    if let Some(octal) = unsigned.strip_prefix('0') {
        return (!octal.is_empty() && all(octal, |b| matches!(b, b'0'..=b'7' | b'_')))
            .then(|| in_radix(negative, octal, 8))
            .flatten();
    }
    if !matches!(bytes.first(), Some(b'1'..=b'9')) {
        return None;
    }
    let mut parts = unsigned.split(':');
    let first = parts.next()?;
    if !all(first, |b| b.is_ascii_digit() || b == b'_') {
        return None;
    }
    let rest: Vec<&str> = parts.collect();
    if rest.is_empty() {
        return in_radix(negative, first, 10);
    }
    if !rest.iter().all(|part| is_sexagesimal_digit(part)) {
        return None;
    }
    // PyYAML: each part times 60 to its place, the first part's
    // underscores dropped.
    let mut total = in_radix(false, first, 10)?.as_f64()?;
    for part in rest {
        total = total * 60.0 + part.parse::<f64>().ok()?;
    }
    let total = if negative { -total } else { total };
    Some(if total.abs() < 9_007_199_254_740_992.0 {
        #[allow(clippy::cast_possible_truncation)] // a whole number below 2^53
        Value::from(total as i64)
    } else {
        Number::from_f64(total).map_or(Value::Null, Value::Number)
    })
}

/// `[0-5]?[0-9]`
fn is_sexagesimal_digit(part: &str) -> bool {
    match part.as_bytes() {
        [b] => b.is_ascii_digit(),
        [a, b] => matches!(a, b'0'..=b'5') && b.is_ascii_digit(),
        _ => false,
    }
}

/// `[-+]?([0-9][0-9_]*)\.[0-9_]*([eE][-+][0-9]+)? | \.[0-9][0-9_]*([eE][-+][0-9]+)?
/// | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)`
fn float(text: &str) -> Option<f64> {
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(f64::NAN);
    }
    let (factor, unsigned) = sign(text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(factor * f64::INFINITY);
    }
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (unsigned.get(..at)?, Some(unsigned.get(at + 1..)?)),
        None => (unsigned, None),
    };
    if let Some(exponent) = exponent {
        let digits = exponent.strip_prefix(['-', '+'])?;
        if digits.is_empty() || !all(digits, |b| b.is_ascii_digit()) {
            return None;
        }
    }
    let (whole, fraction) = mantissa.split_once('.')?;
    if !all(fraction, |b| b.is_ascii_digit() || b == b'_') {
        return None;
    }
    let unsigned_dot = whole.is_empty();
    if unsigned_dot {
        // `\.[0-9][0-9_]*`: no sign, and a digit after the dot.
        if text.starts_with(['-', '+']) || !fraction.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
    } else if whole.contains(':') {
        if exponent.is_some() {
            return None;
        }
        let mut parts = whole.split(':');
        let first = parts.next()?;
        if first.is_empty()
            || !first.starts_with(|c: char| c.is_ascii_digit())
            || !all(first, |b| b.is_ascii_digit() || b == b'_')
            || !parts.all(is_sexagesimal_digit)
        {
            return None;
        }
        let mut total = 0.0;
        for part in whole.split(':') {
            total = total * 60.0 + part.replace('_', "").parse::<f64>().ok()?;
        }
        let fraction: f64 = format!("0.{}", fraction.replace('_', ""))
            .parse()
            .unwrap_or(0.0);
        return Some(factor * (total + fraction));
    } else if !whole.starts_with(|c: char| c.is_ascii_digit())
        || !all(whole, |b| b.is_ascii_digit() || b == b'_')
    {
        return None;
    }
    let cleaned = unsigned.replace('_', "");
    let cleaned = if cleaned.starts_with('.') {
        format!("0{cleaned}")
    } else {
        cleaned
    };
    cleaned.parse::<f64>().ok().map(|value| factor * value)
}

/// A timestamp as PyYAML's resolver matches it: `YYYY-MM-DD`, or
/// `YYYY-M-D(T| +)H:MM:SS(.f)?( *(Z|±H(:MM)?))?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Timestamp {
    year: u32,
    month: u32,
    day: u32,
    /// Hour, minute and second, for a timestamp with a time.
    time: Option<(u32, u32, u32)>,
    /// The zone's offset in minutes, for one with a signed zone.
    zone_minutes: Option<u32>,
}

impl Timestamp {
    /// Whether PyYAML's constructor builds it: `datetime.date` takes years
    /// 1 to 9999, months 1 to 12 and the days of the month; a time takes
    /// hours below 24 and minutes and seconds below 60; a zone is less
    /// than a day.
    fn builds(self) -> bool {
        let leap = self.year % 4 == 0 && (self.year % 100 != 0 || self.year % 400 == 0);
        let days = match self.month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => 0,
        };
        (1..=9999).contains(&self.year)
            && (1..=days).contains(&self.day)
            && self
                .time
                .is_none_or(|(hour, minute, second)| hour < 24 && minute < 60 && second < 60)
            && self.zone_minutes.is_none_or(|minutes| minutes < 24 * 60)
    }
}

fn timestamp(text: &str) -> Option<Timestamp> {
    let bytes = text.as_bytes();
    let digits = |range: &[u8]| range.iter().all(u8::is_ascii_digit);
    let number = |part: &str| part.parse::<u32>().ok();
    if bytes.len() == 10
        && digits(bytes.get(..4).unwrap_or_default())
        && bytes.get(4) == Some(&b'-')
        && digits(bytes.get(5..7).unwrap_or_default())
        && bytes.get(7) == Some(&b'-')
        && digits(bytes.get(8..10).unwrap_or_default())
    {
        return Some(Timestamp {
            year: number(text.get(..4)?)?,
            month: number(text.get(5..7)?)?,
            day: number(text.get(8..10)?)?,
            time: None,
            zone_minutes: None,
        });
    }
    let mut rest = text;
    let take_digits = |rest: &mut &str, least: usize, most: usize| -> Option<u32> {
        let count = rest.bytes().take_while(u8::is_ascii_digit).count();
        if count < least || count > most {
            return None;
        }
        let taken = rest.get(..count)?;
        *rest = rest.get(count..)?;
        // A fraction of any length is matched, not read.
        Some(taken.parse::<u32>().unwrap_or(0))
    };
    let year = take_digits(&mut rest, 4, 4)?;
    rest = rest.strip_prefix('-')?;
    let month = take_digits(&mut rest, 1, 2)?;
    rest = rest.strip_prefix('-')?;
    let day = take_digits(&mut rest, 1, 2)?;
    rest = match rest.strip_prefix(['T', 't']) {
        Some(after) => after,
        None => {
            let trimmed = rest.trim_start_matches([' ', '\t']);
            if trimmed.len() == rest.len() {
                return None;
            }
            trimmed
        }
    };
    let hour = take_digits(&mut rest, 1, 2)?;
    rest = rest.strip_prefix(':')?;
    let minute = take_digits(&mut rest, 2, 2)?;
    rest = rest.strip_prefix(':')?;
    let second = take_digits(&mut rest, 2, 2)?;
    if let Some(after) = rest.strip_prefix('.') {
        rest = after;
        take_digits(&mut rest, 0, usize::MAX)?;
    }
    let stamp = Timestamp {
        year,
        month,
        day,
        time: Some((hour, minute, second)),
        zone_minutes: None,
    };
    let zone = rest.trim_start_matches([' ', '\t']);
    if (zone.is_empty() && rest.is_empty()) || zone == "Z" {
        return Some(stamp);
    }
    let mut zone = zone.strip_prefix(['-', '+'])?;
    let zone_hour = take_digits(&mut zone, 1, 2)?;
    let mut zone_minute = 0;
    if let Some(after) = zone.strip_prefix(':') {
        zone = after;
        zone_minute = take_digits(&mut zone, 2, 2)?;
    }
    zone.is_empty().then_some(Timestamp {
        zone_minutes: Some(zone_hour * 60 + zone_minute),
        ..stamp
    })
}

/// The first tab of a YAML text that PyYAML's scanner stops at, as its
/// line and column (from 1): it skips spaces alone between tokens, and
/// takes a tab only inside a quoted scalar, a comment, or a block scalar's
/// content past its indentation (`while scanning for the next token: found
/// character '\t' that cannot start any token`). `None` when every tab
/// stands where PyYAML takes it, or the text does not parse (the loader
/// says why).
pub(super) fn stray_tab(text: &str) -> Option<(usize, usize)> {
    if !text.contains('\t') {
        return None;
    }
    let extents = crate::yaml::comments::quoted_and_block_extents(text)?;
    let comments = crate::yaml::comments::comments(text)?;
    let line_start = |at: usize| {
        text.get(..at)
            .and_then(|head| head.rfind(['\n', '\r']))
            .map_or(0, |newline| newline + 1)
    };
    let column = |at: usize| {
        text.get(line_start(at)..at)
            .map_or(0, |head| head.chars().count())
    };
    let taken = |at: usize| {
        comments
            .iter()
            .any(|comment| (comment.offset..comment.offset + comment.text.len()).contains(&at))
            || extents.iter().any(|&(start, end, block)| {
                if !(start..end).contains(&at) {
                    return false;
                }
                if !block {
                    return true;
                }
                // A block scalar's indentation is the spaces before its
                // first content line; a tab within it ends the scalar.
                let first = line_start(start);
                let indent = text
                    .get(first..)
                    .map_or(0, |line| line.bytes().take_while(|&b| b == b' ').count());
                column(at) >= indent
            })
    };
    text.char_indices()
        .filter(|&(at, c)| c == '\t' && !taken(at))
        .map(|(at, _)| {
            let line = text.get(..at).map_or(0, |head| {
                head.matches('\n').count() + head.matches('\r').count()
                    - head.matches("\r\n").count()
            });
            (line + 1, column(at) + 1)
        })
        .next()
}

#[cfg(test)]
mod tests;
