//! `numi lsp`: a language server on the same pipeline as `numi validate`.
//!
//! The main loop only reads messages, keeps the open documents and answers
//! from what it holds; checks run on a worker thread, which drops a
//! document's older versions unchecked and publishes only the findings of
//! the version still open, so a slow document never blocks an answer.

mod actions;
mod completion;
mod diagnostics;
mod encoding;
pub mod framing;
mod hover;
mod outline;
mod place;
mod store;

use std::io::{BufRead, Write};
use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit, Notification as _,
};
use lsp_types::request::{
    CodeActionRequest, Completion, HoverRequest, Initialize, Request as _, Shutdown,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    CompletionOptions, CompletionParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, Hover, HoverContents, HoverParams, HoverProviderCapability,
    InitializeParams, MarkupContent, MarkupKind, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind,
};
use serde_json::Value;

pub use crate::project::Flags;
pub use actions::{ByteEdit, FIX_ALL_TITLE, Fix, FixEngine, Fixer, NoFixes, Scope};
pub use encoding::Encoding;
use store::{Job, Store};

/// Serves one client speaking the base protocol on `input` and `output`
/// (standard input and output for `numi lsp`) until it exits; as
/// [`serve`] ends.
pub fn serve_stream<R, W>(
    input: R,
    output: W,
    flags: Flags,
    fixer: Arc<dyn Fixer>,
) -> Result<(), Ended>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let output = Arc::new(Mutex::new(output));
    let (to_server, from_client) = crossbeam_channel::bounded::<Message>(0);
    let (to_client, from_server) = crossbeam_channel::unbounded::<Message>();
    let writer = {
        let output = Arc::clone(&output);
        std::thread::Builder::new()
            .name("numi-lsp-write".to_owned())
            .spawn(move || {
                for message in from_server {
                    let mut out = output.lock().unwrap_or_else(PoisonError::into_inner);
                    if message.write(&mut *out).is_err() {
                        break;
                    }
                }
            })?
    };
    // Not joined: once the server is done, the process may end with the
    // reader still waiting on a client that keeps its end open.
    std::thread::Builder::new()
        .name("numi-lsp-read".to_owned())
        .spawn(move || {
            let mut reader = framing::Reader::new(input);
            while let Ok(Some(incoming)) = reader.read() {
                match incoming {
                    framing::Incoming::Message(message) => {
                        let exit = matches!(&message, Message::Notification(n) if n.method == Exit::METHOD);
                        if to_server.send(message).is_err() || exit {
                            break;
                        }
                    }
                    framing::Incoming::Rejected(rejected) => {
                        let body = serde_json::to_vec(&rejected.response()).unwrap_or_default();
                        let mut out = output.lock().unwrap_or_else(PoisonError::into_inner);
                        if framing::write(&mut *out, &body).is_err() {
                            break;
                        }
                    }
                }
            }
        })?;
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    let served = serve(&connection, flags, fixer);
    drop(connection);
    // Every answer is written before the server ends.
    let _ = writer.join();
    served
}

/// Serves one client on `connection` until it exits, checking with
/// `flags` (the client's `initializationOptions` may turn them on too)
/// and offering the fixes of `fixer`. It ends well after `shutdown` then
/// `exit`; on `exit` without `shutdown`, or when the client goes away
/// first, it ends with an error.
pub fn serve(connection: &Connection, flags: Flags, fixer: Arc<dyn Fixer>) -> Result<(), Ended> {
    let (id, params) = initialize_start(connection)?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let encoding = Encoding::negotiate(
        params
            .capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_deref()),
    );
    let flags = with_options(flags, params.initialization_options.as_ref());
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": ServerInfo {
            name: "numi".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        },
    });
    let _ = connection.sender.send(Response::new_ok(id, result).into());

    let store = Arc::new(Store::new(encoding));
    let (jobs, queue) = mpsc::channel::<Job>();
    let worker = {
        let store = Arc::clone(&store);
        let sender = connection.sender.clone();
        std::thread::Builder::new()
            .name("numi-lsp-check".to_owned())
            .spawn(move || store::work(&queue, &store, &sender, flags))?
    };
    let server = Server {
        connection,
        store: &store,
        jobs,
        fixer,
        flags,
    };
    let outcome = server.run();
    drop(server);
    // The worker ends once the job queue is closed.
    let _ = worker.join();
    outcome
}

/// Waits for `initialize`, answering every other request with the error the
/// protocol says (`ServerNotInitialized`) and dropping notifications.
fn initialize_start(connection: &Connection) -> Result<(RequestId, Value), Ended> {
    for message in &connection.receiver {
        match message {
            Message::Request(request) if request.method == Initialize::METHOD => {
                return Ok((request.id, request.params));
            }
            Message::Request(request) => {
                let refused = Response::new_err(
                    request.id,
                    ErrorCode::ServerNotInitialized as i32,
                    format!("{} before initialize", request.method),
                );
                let _ = connection.sender.send(refused.into());
            }
            Message::Notification(notification) if notification.method == Exit::METHOD => {
                return Err(Ended::NotShutDown);
            }
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
    Err(Ended::Gone)
}

/// Why the server ended other than after `shutdown` then `exit`.
#[derive(Debug, thiserror::Error)]
pub enum Ended {
    #[error("the client sent exit without shutdown")]
    NotShutDown,
    #[error("the client closed the connection without exit")]
    Gone,
    /// A thread of the server could not be started.
    #[error(transparent)]
    Thread(#[from] std::io::Error),
}

/// Flags the client passes as `initializationOptions`
/// (`{"enableAlpha": true, "strict": true}`), added to those of the command line.
fn with_options(mut flags: Flags, options: Option<&Value>) -> Flags {
    let option = |name: &str| {
        options
            .and_then(|options| options.get(name))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    flags.enable_alpha |= option("enableAlpha");
    flags.strict |= option("strict");
    flags
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".to_owned(), " ".to_owned()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::SOURCE_FIX_ALL,
            ]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

struct Server<'a> {
    connection: &'a Connection,
    store: &'a Store,
    jobs: mpsc::Sender<Job>,
    fixer: Arc<dyn Fixer>,
    /// The flags the checks run with, which the fixes follow too.
    flags: Flags,
}

impl Server<'_> {
    fn run(&self) -> Result<(), Ended> {
        let mut shut_down = false;
        for message in &self.connection.receiver {
            match message {
                Message::Request(request) if shut_down => {
                    let response = Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        format!("{} after shutdown", request.method),
                    );
                    self.send(response.into());
                }
                // The handshake is over: a second one is not the client's to ask.
                Message::Request(request) if request.method == Initialize::METHOD => {
                    let response = Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        "the server is already initialized".to_owned(),
                    );
                    self.send(response.into());
                }
                Message::Request(request) if request.method == Shutdown::METHOD => {
                    shut_down = true;
                    self.send(Response::new_ok(request.id, Value::Null).into());
                }
                Message::Request(request) => {
                    let response = self.answer(request);
                    self.send(response.into());
                }
                Message::Notification(notification) if notification.method == Exit::METHOD => {
                    return if shut_down {
                        Ok(())
                    } else {
                        Err(Ended::NotShutDown)
                    };
                }
                // After shutdown, notifications are dropped.
                Message::Notification(_) if shut_down => {}
                Message::Notification(notification) => self.notified(notification),
                Message::Response(_) => {}
            }
        }
        Err(Ended::Gone)
    }

    fn send(&self, message: Message) {
        // A closed channel means the client is gone; the loop ends with it.
        let _ = self.connection.sender.send(message);
    }

    fn notified(&self, notification: Notification) {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(params) = from::<DidOpenTextDocumentParams>(notification.params) {
                    let document = params.text_document;
                    self.opened(document.uri.as_str(), document.version, document.text);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(params) = from::<DidChangeTextDocumentParams>(notification.params) {
                    // Full sync: the last change holds the whole text.
                    if let Some(change) = params.content_changes.into_iter().last() {
                        let document = params.text_document;
                        self.opened(document.uri.as_str(), document.version, change.text);
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(params) = from::<DidCloseTextDocumentParams>(notification.params) {
                    self.store
                        .close(params.text_document.uri.as_str(), &self.connection.sender);
                }
            }
            _ => {}
        }
    }

    fn opened(&self, uri: &str, version: i32, text: String) {
        let text: Arc<str> = Arc::from(text);
        self.store.update(uri, version, Arc::clone(&text));
        let _ = self.jobs.send(Job {
            uri: uri.to_owned(),
            version,
            text,
        });
    }

    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let answered = match request.method.as_str() {
            HoverRequest::METHOD => from::<HoverParams>(request.params).map(|params| {
                let at = params.text_document_position_params;
                self.hover(at.text_document.uri.as_str(), at.position)
            }),
            Completion::METHOD => from::<CompletionParams>(request.params).map(|params| {
                let at = params.text_document_position;
                self.complete(at.text_document.uri.as_str(), at.position)
            }),
            CodeActionRequest::METHOD => {
                from::<CodeActionParams>(request.params).map(|params| self.code_actions(&params))
            }
            _ => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("numi does not serve {}", request.method),
                );
            }
        };
        match answered {
            Ok(result) => Response::new_ok(id, result),
            Err(error) => Response::new_err(id, ErrorCode::InvalidParams as i32, error.to_string()),
        }
    }

    fn hover(&self, uri: &str, position: lsp_types::Position) -> Value {
        let Some(open) = self.store.get(uri) else {
            return Value::Null;
        };
        let offset = self.store.encoding().offset(&open.text, position);
        let findings = open.current_findings();
        match hover::hover(&open.text, findings, offset) {
            Some(markdown) => to_value(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: markdown,
                }),
                range: None,
            }),
            None => Value::Null,
        }
    }

    fn complete(&self, uri: &str, position: lsp_types::Position) -> Value {
        let Some(open) = self.store.get(uri) else {
            return Value::Null;
        };
        let offset = self.store.encoding().offset(&open.text, position);
        to_value(completion::complete(&open.text, offset))
    }

    fn code_actions(&self, params: &CodeActionParams) -> Value {
        let uri = &params.text_document.uri;
        let Some(open) = self.store.get(uri.as_str()) else {
            return Value::Null;
        };
        let encoding = self.store.encoding();
        let wanted = encoding.offset(&open.text, params.range.start)
            ..encoding.offset(&open.text, params.range.end);
        let Ok(uri) = lsp_types::Uri::from_str(uri.as_str()) else {
            return Value::Null;
        };
        let path = store::file_path(uri.as_str());
        let scope = actions::Scope {
            path: path.as_deref(),
            flags: self.flags,
        };
        to_value(actions::actions(
            self.fixer.as_ref(),
            scope,
            &uri,
            &open.text,
            open.current_findings(),
            wanted,
            encoding,
        ))
    }
}

fn from<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, InvalidParams> {
    serde_json::from_value(params).map_err(InvalidParams)
}

/// Params a request's method cannot read, answered with `InvalidParams`.
#[derive(Debug, thiserror::Error)]
#[error("invalid params: {0}")]
struct InvalidParams(serde_json::Error);

fn to_value(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn why_the_server_ended_and_why_params_are_refused_read_as_before() {
        assert_eq!(
            Ended::NotShutDown.to_string(),
            "the client sent exit without shutdown"
        );
        assert_eq!(
            Ended::Gone.to_string(),
            "the client closed the connection without exit"
        );
        let error = serde_json::from_value::<HoverParams>(Value::Null).unwrap_err();
        assert_eq!(
            from::<HoverParams>(Value::Null).unwrap_err().to_string(),
            format!("invalid params: {error}")
        );
    }
}
