//! Any bytes as what a client sends `numi lsp` after `initialize`: they go
//! through the framing reader, then whatever it reads through the server's
//! dispatch (documents opened and changed, hover, completion, code actions,
//! shutdown, exit). Fails when the server panics, aborts, hangs past the
//! timeout or allocates past the memory limit.

#![no_main]

use std::io::{BufReader, Cursor};
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use numi::lsp::framing::{Incoming, Reader};
use numi::lsp::{FixEngine, Flags, serve_stream};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#;

fuzz_target!(|data: &[u8]| {
    // The reader alone: every message read, none past the limit.
    let mut reader = Reader::new(BufReader::new(data));
    while let Ok(Some(incoming)) = reader.read() {
        if let Incoming::Rejected(rejected) = incoming {
            assert!(rejected.response()["error"]["code"].is_i64());
        }
    }
    // The whole server.
    let mut input = format!("Content-Length: {}\r\n\r\n{INITIALIZE}", INITIALIZE.len()).into_bytes();
    input.extend_from_slice(data);
    let _ = serve_stream(
        Cursor::new(input),
        std::io::sink(),
        Flags::default(),
        Arc::new(FixEngine),
    );
});
