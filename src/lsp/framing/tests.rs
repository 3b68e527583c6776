use std::io::{BufReader, Cursor};

use super::*;

/// Everything read off `input` until its end.
fn all(input: impl Read) -> Vec<Incoming> {
    let mut reader = Reader::new(BufReader::new(input));
    let mut read = Vec::new();
    while let Some(incoming) = reader.read().unwrap() {
        read.push(incoming);
    }
    read
}

fn framed(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

/// What each message read was: a method, or a rejection's code.
fn shapes(read: &[Incoming]) -> Vec<String> {
    read.iter()
        .map(|incoming| match incoming {
            Incoming::Message(Message::Notification(n)) => n.method.clone(),
            Incoming::Message(Message::Request(r)) => format!("{} {}", r.id, r.method),
            Incoming::Message(Message::Response(r)) => format!("response {}", r.id),
            Incoming::Rejected(rejected) => format!("{} {}", rejected.code, rejected.id),
        })
        .collect()
}

#[test]
fn messages_are_read_one_after_the_other() {
    let stream = format!(
        "{}\r\n{}Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n{}",
        framed(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#),
        framed(r#"{"jsonrpc":"2.0","id":"a","result":null}"#),
        framed(EXIT),
    );
    assert_eq!(
        shapes(&all(stream.as_bytes())),
        ["1 initialize", "response \"a\"", "exit"]
    );
}

#[test]
fn line_feeds_alone_end_header_lines_too() {
    let stream = format!("content-length: {}\n\n{EXIT}", EXIT.len());
    assert_eq!(shapes(&all(stream.as_bytes())), ["exit"]);
}

#[test]
fn a_malformed_message_gets_a_parse_error_and_the_next_is_read() {
    let malformed = [
        framed("{\"jsonrpc\":"),
        framed("[1, 2"),
        "Content-Length: 3\r\n\r\n\u{0}\u{0}\u{0}".to_owned(),
        "Content-Length: -3\r\n\r\n".to_owned(),
        "Content-Length: 0x10\r\n\r\n".to_owned(),
        "Content-Length 10\r\n\r\n0123456789".to_owned(),
        format!(
            "X-Long: {}\r\nContent-Length: 2\r\n\r\n{{}}",
            "y".repeat(2000)
        ),
        // No length: the body runs into the next message's header line.
        "Content-Type: a\r\n\r\n{\"id\": 1, \"method\": \"shutdown\"}".to_owned(),
    ];
    for shape in malformed {
        let stream = format!("{shape}{}", framed(EXIT));
        assert_eq!(
            shapes(&all(stream.as_bytes())),
            ["-32700 null", "exit"],
            "{shape:?}"
        );
    }
    let not_utf8 = [
        &b"Content-Length: 2\r\n\r\n\xff\xfe"[..],
        framed(EXIT).as_bytes(),
    ]
    .concat();
    let read = all(&not_utf8[..]);
    assert_eq!(shapes(&read), ["-32700 null", "exit"]);
}

#[test]
fn the_error_response_is_json_rpc_s() {
    let read = all(framed("{").as_bytes());
    let [Incoming::Rejected(rejected)] = &read[..] else {
        panic!("{read:?}");
    };
    assert_eq!(
        rejected.response(),
        json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": -32700, "message": "invalid JSON: EOF while parsing an object at line 1 column 1"},
        })
    );
    // JSON, but no message numi reads: an invalid request, with its id.
    let read = all(framed(r#"{"jsonrpc":"2.0","id":"x","method":7}"#).as_bytes());
    let [Incoming::Rejected(rejected)] = &read[..] else {
        panic!("{read:?}");
    };
    assert_eq!((rejected.code, &rejected.id), (-32600, &json!("x")));
}

#[test]
fn a_huge_length_is_refused_before_its_body_is_read() {
    for length in [
        "18446744073709551615",
        "1000000000",
        "184467440737095516150",
    ] {
        // A stream that would take minutes to read whole: the refusal
        // comes first.
        let header = format!("Content-Length: {length}\r\n\r\n");
        let endless = Cursor::new(header).chain(io::repeat(b' '));
        let mut reader = Reader::new(BufReader::new(endless));
        let Some(Incoming::Rejected(rejected)) = reader.read().unwrap() else {
            panic!("{length} is refused");
        };
        assert_eq!((rejected.code, rejected.id), (-32700, Value::Null));
        assert!(
            rejected.message.contains("more than"),
            "{}",
            rejected.message
        );
    }
}

#[test]
fn a_body_over_the_limit_is_dropped_and_the_next_message_read() {
    let header = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1);
    let stream = Cursor::new(header)
        .chain(io::repeat(b' ').take(MAX_MESSAGE + 1))
        .chain(Cursor::new(framed(EXIT)));
    assert_eq!(shapes(&all(stream)), ["-32700 null", "exit"]);
    // At the limit, it is read.
    let padded = format!("{EXIT}{}", " ".repeat(100));
    assert_eq!(shapes(&all(framed(&padded).as_bytes())), ["exit"]);
}

#[test]
fn a_stream_that_ends_inside_a_message_ends_the_reading() {
    for cut in [
        "Content-Len",
        "Content-Length: 10\r\n",
        "Content-Length: 10\r\n\r\n{}",
    ] {
        assert!(all(cut.as_bytes()).is_empty(), "{cut:?}");
    }
}

#[test]
fn a_lone_surrogate_reads_as_a_replacement_character() {
    let text = |body: &str| match decode(body.as_bytes()) {
        Incoming::Message(Message::Notification(n)) => {
            n.params["text"].as_str().unwrap().to_owned()
        }
        other => panic!("{other:?}"),
    };
    let with = |escaped: &str| format!(r#"{{"method":"m","params":{{"text":"a{escaped}b"}}}}"#);
    assert_eq!(text(&with(r"\ud800")), "a\u{fffd}b");
    assert_eq!(text(&with(r"\uDC00\ud800")), "a\u{fffd}\u{fffd}b");
    assert_eq!(text(&with(r"\ud800\u0041")), "a\u{fffd}Ab");
    // A pair is one character; an escaped backslash escapes nothing after it.
    assert_eq!(text(&with(r"\ud83d\ude00\ud800")), "a😀\u{fffd}b");
    assert_eq!(text(&with(r"\\ud800")), r"a\ud800b");
    assert_eq!(without_lone_surrogates(r#""\ud83d\ude00 \\ud800""#), None);
}

#[test]
fn a_message_is_written_with_its_length() {
    let mut out = Vec::new();
    write(&mut out, br#"{"id":null}"#).unwrap();
    assert_eq!(out, b"Content-Length: 11\r\n\r\n{\"id\":null}");
}

#[test]
fn a_request_with_an_id_the_protocol_does_not_allow_is_answered_with_it() {
    let ids = [
        "1.5",
        "true",
        "null",
        "[1]",
        "{}",
        "2147483648",
        "-2147483649",
    ];
    let mut stream = String::new();
    for id in ids {
        stream.push_str(&framed(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"shutdown"}}"#
        )));
    }
    // The allowed ids, at the edges of 32 bits, are requests.
    for id in ["2147483647", "-2147483648", "\"x\""] {
        stream.push_str(&framed(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"shutdown"}}"#
        )));
    }
    let read = all(stream.as_bytes());
    let mut expected: Vec<String> = ids.iter().map(|id| format!("-32600 {id}")).collect();
    expected.extend(
        ["2147483647", "-2147483648", "\"x\""]
            .iter()
            .map(|id| format!("{id} shutdown")),
    );
    // The id is echoed as it was written (serde_json writes `{}` and `[1]`
    // as they are).
    assert_eq!(shapes(&read), expected);
}

#[test]
fn a_long_body_without_a_length_loses_no_following_message() {
    // The body runs on into the next header on one line, far past the
    // longest header line.
    let body = format!(r#"{{"jsonrpc":"2.0","method":"{}"}}"#, "x".repeat(4096));
    let stream = format!("Content-Type: text/plain\r\n\r\n{body}{}", framed(EXIT));
    assert_eq!(shapes(&all(stream.as_bytes())), ["-32700 null", "exit"]);
}

#[test]
fn two_different_lengths_lose_no_following_message() {
    let stream = format!(
        "Content-Length: 3\r\nContent-Length: {}\r\n\r\n{EXIT}{}",
        EXIT.len(),
        framed(EXIT)
    );
    assert_eq!(shapes(&all(stream.as_bytes())), ["-32700 null", "exit"]);
    // The same length said twice is one length.
    let stream = format!(
        "Content-Length: {0}\r\nContent-Length: {0}\r\n\r\n{EXIT}{1}",
        EXIT.len(),
        framed(EXIT)
    );
    assert_eq!(shapes(&all(stream.as_bytes())), ["exit", "exit"]);
}

#[test]
fn a_header_line_of_the_longest_length_is_read_and_a_longer_one_refused() {
    let header = |length: usize| {
        let prefix = "X-Padding: ";
        format!("{prefix}{}\r\n", "p".repeat(length - prefix.len()))
    };
    let at_limit = format!("{}{}", header(MAX_HEADER_LINE), framed(EXIT));
    assert_eq!(shapes(&all(at_limit.as_bytes())), ["exit"]);
    let over = format!(
        "{}{}{}",
        header(MAX_HEADER_LINE + 1),
        framed(EXIT),
        framed(EXIT)
    );
    assert_eq!(shapes(&all(over.as_bytes())), ["-32700 null", "exit"]);
}

#[test]
fn values_are_counted_outside_strings_only() {
    assert!(!values_beyond(br#"{"a":[1,2,{"b":null}]}"#, 8));
    assert!(values_beyond(br#"{"a":[1,2,{"b":null}]}"#, 7));
    // Brackets, commas and colons in a string are text, escaped quotes too.
    assert!(!values_beyond(br#"["[,:{\"]},:"]"#, 2));
    assert!(values_beyond(br#"["a",1]"#, 2));
    let many = format!("[{}]", vec!["{}"; MAX_VALUES].join(","));
    assert!(matches!(decode(many.as_bytes()), Incoming::Rejected(_)));
    let few = format!(
        r#"{{"jsonrpc":"2.0","method":"x","params":[{}]}}"#,
        vec!["0"; 1000].join(",")
    );
    assert!(matches!(decode(few.as_bytes()), Incoming::Message(_)));
}

#[test]
fn each_rejection_says_what_it_said_before_its_reasons_were_typed() {
    let rejected = |input: &str| -> Vec<(i32, String)> {
        all(Cursor::new(input.to_owned()))
            .into_iter()
            .filter_map(|incoming| match incoming {
                Incoming::Rejected(rejected) => Some((rejected.code, rejected.message)),
                Incoming::Message(_) => None,
            })
            .collect()
    };
    let parse = ErrorCode::ParseError as i32;
    let invalid = ErrorCode::InvalidRequest as i32;
    let cases: Vec<(String, (i32, String))> = vec![
        (
            format!(
                "X-Long: {}\r\nContent-Length: 2\r\n\r\n{{}}",
                "a".repeat(2000)
            ),
            (parse, "a header line longer than 1024 bytes".to_owned()),
        ),
        (
            "no colon\r\nContent-Length: 2\r\n\r\n{}".to_owned(),
            (parse, "a malformed header line: \"no colon\"".to_owned()),
        ),
        (
            "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}".to_owned(),
            (parse, "two different Content-Length headers".to_owned()),
        ),
        (
            "Content-Length: two\r\n\r\n{}".to_owned(),
            (
                parse,
                "a Content-Length that is not a number: \"two\"".to_owned(),
            ),
        ),
        (
            "X-Other: 1\r\n\r\n{}".to_owned(),
            (
                parse,
                "a message without a Content-Length header".to_owned(),
            ),
        ),
        (
            format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1),
            (
                parse,
                format!(
                    "a message of {} bytes, more than the {MAX_MESSAGE} bytes numi reads",
                    MAX_MESSAGE + 1
                ),
            ),
        ),
        (
            framed("[1,"),
            (
                parse,
                format!(
                    "invalid JSON: {}",
                    serde_json::from_str::<Value>("[1,").unwrap_err()
                ),
            ),
        ),
        (
            framed(r#"{"jsonrpc":"2.0","id":1.5,"method":"hover"}"#),
            (
                invalid,
                "a request id must be a string or an integer of 32 bits; got 1.5".to_owned(),
            ),
        ),
        (
            framed(r#"{"jsonrpc":"2.0","id":1}"#),
            (
                invalid,
                format!(
                    "not a JSON-RPC message numi reads: {}",
                    serde_json::from_value::<Message>(json!({"jsonrpc": "2.0", "id": 1}))
                        .unwrap_err()
                ),
            ),
        ),
    ];
    for (input, expected) in cases {
        let shown = format!("{expected:?}");
        assert_eq!(rejected(&input), [expected], "{shown}");
    }
    // What no stream of text can hold, decoded as a body.
    let body = |incoming: Incoming| match incoming {
        Incoming::Rejected(rejected) => (rejected.code, rejected.message),
        Incoming::Message(message) => panic!("read {message:?}"),
    };
    assert_eq!(
        body(decode(b"\"\xff\"")),
        (parse, "the message is not UTF-8".to_owned())
    );
    let many = format!("[{}0]", "0,".repeat(MAX_VALUES));
    assert_eq!(
        body(decode(many.as_bytes())),
        (
            parse,
            format!("a message of more than {MAX_VALUES} JSON values, more than numi reads")
        )
    );
}
