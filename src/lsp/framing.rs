//! The base protocol of LSP on a byte stream, bounded: headers, then a body
//! of `Content-Length` bytes holding one JSON-RPC message.
//!
//! Nothing a client sends ends the server or makes it allocate more than a
//! message's real size: a header line is read at most `MAX_HEADER_LINE`
//! bytes at a time, a body longer than `MAX_MESSAGE` is never held (it is
//! answered with an error, then read and dropped in small chunks), and a
//! message that cannot be read is answered with the JSON-RPC error it
//! deserves, after which reading goes on.

use std::io::{self, BufRead, Read, Write};

use lsp_server::{ErrorCode, Message};
use serde_json::{Value, json};

use crate::location::DEFAULT_MAX_FILE_SIZE;
use crate::yaml::strict_json::outside_strings;

/// The longest message body read: four times the largest document numi
/// reads by default, so a document at that limit fits in a `didOpen` even
/// when JSON doubles its line breaks and quotes into escapes.
pub const MAX_MESSAGE: u64 = 4 * DEFAULT_MAX_FILE_SIZE;

/// The longest header line kept; a longer one is malformed.
const MAX_HEADER_LINE: usize = 1024;

const CONTENT_LENGTH: &[u8] = b"content-length:";

/// What the next message on the stream is.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// A message that cannot be served, and the error response it gets.
    Rejected(Rejected),
}

/// A message the server cannot read, as JSON-RPC 2.0 answers it: with the
/// request's id where it could be read, else `null`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejected {
    pub id: Value,
    pub code: i32,
    pub message: String,
}

/// Why a message cannot be served: the message of its error response.
#[derive(Debug, thiserror::Error)]
enum Unreadable {
    #[error("a header line longer than {MAX_HEADER_LINE} bytes")]
    LongHeaderLine,
    /// The line, as read (lossily UTF-8).
    #[error("a malformed header line: {}", crate::text::quote(.0))]
    MalformedHeaderLine(String),
    #[error("two different Content-Length headers")]
    TwoLengths,
    /// The value, as written.
    #[error("a Content-Length that is not a number: {}", crate::text::quote(.0))]
    LengthNotANumber(String),
    #[error("a message without a Content-Length header")]
    NoLength,
    /// The length the header says.
    #[error("a message of {0} bytes, more than the {MAX_MESSAGE} bytes numi reads")]
    TooLarge(u64),
    #[error("the message is not UTF-8")]
    NotUtf8,
    #[error("a message of more than {MAX_VALUES} JSON values, more than numi reads")]
    TooManyValues,
    #[error("invalid JSON: {0}")]
    NotJson(serde_json::Error),
    /// The id, as written.
    #[error("a request id must be a string or an integer of 32 bits; got {0}")]
    RequestId(Value),
    #[error("not a JSON-RPC message numi reads: {0}")]
    NotAMessage(serde_json::Error),
}

impl Unreadable {
    /// The JSON-RPC error code the answer carries: a message that could
    /// not be read is a parse error, one read but not a request the
    /// protocol allows an invalid request.
    fn code(&self) -> ErrorCode {
        match self {
            Unreadable::RequestId(_) | Unreadable::NotAMessage(_) => ErrorCode::InvalidRequest,
            _ => ErrorCode::ParseError,
        }
    }
}

impl Rejected {
    fn new(id: Value, why: &Unreadable) -> Self {
        Rejected {
            id,
            code: why.code() as i32,
            message: why.to_string(),
        }
    }

    fn parse(why: &Unreadable) -> Self {
        Rejected::new(Value::Null, why)
    }

    /// The error response, as written to the client.
    pub fn response(&self) -> Value {
        json!({
            "jsonrpc": "2.0",
            "id": self.id,
            "error": {"code": self.code, "message": self.message},
        })
    }
}

/// Reads messages off a stream of the base protocol.
pub struct Reader<R> {
    input: R,
    /// Bytes of a refused body still to drop before the next message.
    skip: u64,
    /// The last message had no length, so where the next one starts is
    /// unknown: it is found by its `Content-Length` header.
    lost: bool,
}

/// One header line.
enum Line {
    Text(Vec<u8>),
    /// A line longer than a header may be, with its last
    /// `MAX_HEADER_LINE` bytes: where the body of a message without a
    /// length ran on into the next message's header, that header is there.
    TooLong(Vec<u8>),
    End,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Self {
        Reader {
            input,
            skip: 0,
            lost: false,
        }
    }

    /// The next message; `None` once the stream ends. An error is one of
    /// the stream itself, not of what it carries.
    pub fn read(&mut self) -> io::Result<Option<Incoming>> {
        if self.skip > 0 {
            let wanted = std::mem::take(&mut self.skip);
            let dropped = io::copy(&mut (&mut self.input).take(wanted), &mut io::sink())?;
            if dropped < wanted {
                return Ok(None);
            }
        }
        let mut length: Option<Result<u64, Unreadable>> = None;
        let mut fault: Option<Unreadable> = None;
        let mut headers = 0usize;
        loop {
            let mut line = match self.line()? {
                Line::End => return Ok(None),
                Line::TooLong(tail) if self.lost => tail,
                Line::TooLong(_) => {
                    fault.get_or_insert(Unreadable::LongHeaderLine);
                    headers += 1;
                    continue;
                }
                Line::Text(line) => line,
            };
            if self.lost {
                // The body of the message without a length ran on into
                // the next message's first line.
                let Some(at) = find_ignoring_case(&line, CONTENT_LENGTH) else {
                    continue;
                };
                line.drain(..at);
                self.lost = false;
            }
            if line.is_empty() {
                if headers == 0 {
                    // A blank line between messages.
                    continue;
                }
                break;
            }
            headers += 1;
            match header(&line) {
                Some((name, value)) if name.eq_ignore_ascii_case("content-length") => {
                    let value = content_length(value);
                    match (&length, &value) {
                        (None, _) => length = Some(value),
                        // Said twice alike: one length.
                        (Some(Ok(said)), Ok(again)) if said == again => {}
                        // A length that is no number, said twice alike:
                        // still the first reason.
                        (
                            Some(Err(Unreadable::LengthNotANumber(said))),
                            Err(Unreadable::LengthNotANumber(again)),
                        ) if said == again => {}
                        // Two lengths: where the body ends is unknown.
                        (Some(_), _) => length = Some(Err(Unreadable::TwoLengths)),
                    }
                }
                Some(_) => {}
                None => {
                    fault.get_or_insert_with(|| {
                        Unreadable::MalformedHeaderLine(String::from_utf8_lossy(&line).into_owned())
                    });
                }
            }
        }
        let length = match length {
            None => {
                self.lost = true;
                let why = fault.unwrap_or(Unreadable::NoLength);
                return Ok(Some(Incoming::Rejected(Rejected::parse(&why))));
            }
            Some(Err(why)) => {
                self.lost = true;
                return Ok(Some(Incoming::Rejected(Rejected::parse(&why))));
            }
            Some(Ok(length)) => length,
        };
        if let Some(why) = fault {
            self.skip = length;
            return Ok(Some(Incoming::Rejected(Rejected::parse(&why))));
        }
        if length > MAX_MESSAGE {
            // Answered at once, then dropped as it arrives: never held.
            self.skip = length;
            return Ok(Some(Incoming::Rejected(Rejected::parse(
                &Unreadable::TooLarge(length),
            ))));
        }
        let mut body = Vec::new();
        (&mut self.input).take(length).read_to_end(&mut body)?;
        if (body.len() as u64) < length {
            return Ok(None);
        }
        Ok(Some(decode(&body)))
    }

    /// The next line, without its line break (`\r\n`, or `\n` alone, which
    /// is taken too). A line of more than `MAX_HEADER_LINE` bytes (its
    /// line break left out) is read to its end, and only its last
    /// `MAX_HEADER_LINE` bytes kept.
    fn line(&mut self) -> io::Result<Line> {
        // Room for the carriage return of a line of the longest length.
        const KEPT: usize = MAX_HEADER_LINE + 1;
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                return Ok(Line::End);
            }
            let (part, ends) = match memchr::memchr(b'\n', available) {
                Some(at) => (available.get(..at).unwrap_or_default(), Some(at + 1)),
                None => (available, None),
            };
            if line.len() + part.len() > KEPT {
                too_long = true;
                // Keep the last bytes only: what a tail can hold.
                let from_part = part.len().min(KEPT);
                let from_line = KEPT - from_part;
                line.drain(..line.len().saturating_sub(from_line));
                line.extend_from_slice(part.get(part.len() - from_part..).unwrap_or_default());
            } else {
                line.extend_from_slice(part);
            }
            let used = ends.unwrap_or(available.len());
            self.input.consume(used);
            if ends.is_some() {
                break;
            }
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if too_long || line.len() > MAX_HEADER_LINE {
            if line.len() > MAX_HEADER_LINE {
                line.drain(..line.len() - MAX_HEADER_LINE);
            }
            return Ok(Line::TooLong(line));
        }
        Ok(Line::Text(line))
    }
}

/// A header line's name and value: `Name: value`.
fn header(line: &[u8]) -> Option<(&str, &str)> {
    let line = std::str::from_utf8(line).ok()?;
    let (name, value) = line.split_once(':')?;
    let valid = !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic());
    valid.then(|| (name, value.trim()))
}

/// A `Content-Length` value: decimal digits. One too large for 64 bits is
/// larger than any message read, and is skipped to the stream's end.
fn content_length(value: &str) -> Result<u64, Unreadable> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Unreadable::LengthNotANumber(value.to_owned()));
    }
    Ok(value.parse().unwrap_or(u64::MAX))
}

fn find_ignoring_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

/// The most JSON values a message may hold. A value in a tree costs far
/// more than its text (an empty `{}` of 3 bytes takes over 100 as a
/// `serde_json::Value`), so a body of small values would make the server
/// hold 40 to 70 times its size; LSP's messages hold a few hundred values
/// (a document's text is one), and an `initialize` with every capability a
/// few thousand. A tree of at most this many values is a few MiB.
pub const MAX_VALUES: usize = 100_000;

/// A body read whole: one JSON-RPC message.
pub fn decode(body: &[u8]) -> Incoming {
    let Ok(text) = std::str::from_utf8(body) else {
        return Incoming::Rejected(Rejected::parse(&Unreadable::NotUtf8));
    };
    if values_beyond(body, MAX_VALUES) {
        return Incoming::Rejected(Rejected::parse(&Unreadable::TooManyValues));
    }
    let value = match serde_json::from_str::<Value>(text) {
        Ok(value) => value,
        // A lone surrogate is what `JSON.stringify` writes for a string
        // holding one; serde_json refuses it. Read as U+FFFD, the rest of
        // the text still gets checked.
        Err(error) => match without_lone_surrogates(text)
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        {
            Some(value) => value,
            None => {
                return Incoming::Rejected(Rejected::parse(&Unreadable::NotJson(error)));
            }
        },
    };
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    // A request whose id the protocol does not allow (a fraction, a
    // boolean, null, an array, an object, an integer beyond 32 bits) is
    // still a request: answered with the id as it came, never taken for
    // a notification and left unanswered.
    if value.get("method").is_some() {
        if let Some(written) = value.get("id").filter(|id| !is_request_id(id)) {
            return Incoming::Rejected(Rejected::new(
                written.clone(),
                &Unreadable::RequestId(written.clone()),
            ));
        }
    }
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(error) => Incoming::Rejected(Rejected::new(id, &Unreadable::NotAMessage(error))),
    }
}

/// Whether the JSON text `body` holds more than `limit` values, counted
/// in one pass without building them: each value but the first follows a
/// `,`, a `:` or an opening bracket outside a string (a key counts as a
/// value too, so this counts at most twice what a tree holds).
fn values_beyond(body: &[u8], limit: usize) -> bool {
    let mut values = 1usize;
    outside_strings(body).any(|(_, byte)| {
        if matches!(byte, b',' | b':' | b'[' | b'{') {
            values += 1;
        }
        values > limit
    })
}

/// An id LSP's requests may carry: `integer` (32 bits) or `string`.
fn is_request_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(number) => number
            .as_i64()
            .is_some_and(|number| i32::try_from(number).is_ok()),
        _ => false,
    }
}

/// `text` with each `\u` escape of a lone UTF-16 surrogate written as
/// `\ufffd`; `None` when it has none.
fn without_lone_surrogates(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut fixed = String::new();
    let mut copied = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'\\', bytes.get(at..).unwrap_or_default()) {
        let escape = at + found;
        let unit = surrogate_at(bytes, escape);
        at = match unit {
            Some(0xD800..=0xDBFF)
                if matches!(surrogate_at(bytes, escape + 6), Some(0xDC00..=0xDFFF)) =>
            {
                escape + 12
            }
            Some(_) => {
                fixed.push_str(text.get(copied..escape).unwrap_or_default());
                fixed.push_str("\\ufffd");
                copied = escape + 6;
                escape + 6
            }
            // Any other escape is two characters or more: `\\` is passed
            // over whole, so the backslash it writes starts nothing.
            None => escape + 2,
        };
    }
    if copied == 0 {
        return None;
    }
    fixed.push_str(text.get(copied..).unwrap_or_default());
    Some(fixed)
}

/// The surrogate code unit written by a `\uXXXX` escape at `at`, if that is
/// what is there.
fn surrogate_at(bytes: &[u8], at: usize) -> Option<u16> {
    let escape = bytes.get(at..at + 6)?;
    let hex = escape.strip_prefix(b"\\u")?;
    let unit = u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
    (0xD800..=0xDFFF).contains(&unit).then_some(unit)
}

/// Writes one message body with its header.
pub fn write(out: &mut impl Write, body: &[u8]) -> io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n", body.len())?;
    out.write_all(body)?;
    out.flush()
}

#[cfg(test)]
mod tests;
