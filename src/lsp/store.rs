//! The open documents, shared by the main loop (which updates them) and the
//! checking worker (which records each version's findings), and the worker.

use std::collections::HashMap;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use crossbeam_channel::Sender;
use lsp_server::{Message, Notification};
use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{PublishDiagnosticsParams, Uri};

use super::diagnostics::{Finding, check, to_lsp_all};
use super::encoding::Encoding;
use crate::project::Flags;

/// A version of a document to check.
#[derive(Debug, Clone)]
pub(super) struct Job {
    pub uri: String,
    pub version: i32,
    pub text: Arc<str>,
}

/// One open document: its latest text and the findings of the version they
/// were checked on.
#[derive(Debug, Clone)]
pub(super) struct Open {
    pub version: i32,
    pub text: Arc<str>,
    checked: Option<(i32, Arc<Vec<Finding>>)>,
}

impl Open {
    /// The findings of the text as it is now; none while its check runs.
    pub(super) fn current_findings(&self) -> &[Finding] {
        match &self.checked {
            Some((version, findings)) if *version == self.version => findings,
            _ => &[],
        }
    }
}

pub(super) struct Store {
    encoding: Encoding,
    open: Mutex<HashMap<String, Open>>,
}

impl Store {
    pub(super) fn new(encoding: Encoding) -> Self {
        Store {
            encoding,
            open: Mutex::new(HashMap::new()),
        }
    }

    pub(super) fn encoding(&self) -> Encoding {
        self.encoding
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Open>> {
        // A panic elsewhere never leaves a half-written entry: every update
        // is one insert or remove.
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn update(&self, uri: &str, version: i32, text: Arc<str>) {
        let mut open = self.lock();
        let checked = open.remove(uri).and_then(|previous| previous.checked);
        open.insert(
            uri.to_owned(),
            Open {
                version,
                text,
                checked,
            },
        );
    }

    pub(super) fn get(&self, uri: &str) -> Option<Open> {
        self.lock().get(uri).cloned()
    }

    fn is_current(&self, uri: &str, version: i32) -> bool {
        self.lock()
            .get(uri)
            .is_some_and(|open| open.version == version)
    }

    /// Forgets a document and clears its diagnostics. The clearing is sent
    /// under the lock, so no check of the closed document can publish after it.
    pub(super) fn close(&self, uri: &str, sender: &Sender<Message>) {
        let mut open = self.lock();
        open.remove(uri);
        if let Ok(parsed) = Uri::from_str(uri) {
            publish(sender, parsed, Vec::new(), None);
        }
    }

    /// Records the findings of `job` and publishes them, if its version is
    /// still the open one; a stale result is dropped.
    fn finish(&self, job: &Job, findings: Vec<Finding>, sender: &Sender<Message>) {
        let mut open = self.lock();
        let Some(entry) = open.get_mut(&job.uri) else {
            return;
        };
        if entry.version != job.version {
            return;
        }
        let Ok(uri) = Uri::from_str(&job.uri) else {
            return;
        };
        let diagnostics = to_lsp_all(&findings, &job.text, self.encoding, &uri);
        entry.checked = Some((job.version, Arc::new(findings)));
        publish(sender, uri, diagnostics, Some(job.version));
    }
}

fn publish(
    sender: &Sender<Message>,
    uri: Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) {
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    };
    let notification = Notification::new(PublishDiagnostics::METHOD.to_owned(), params);
    // A closed channel means the client is gone; the main loop ends with it.
    let _ = sender.send(notification.into());
}

/// The worker: checks jobs until the queue closes. Of the jobs waiting, only
/// each document's latest is checked; a job whose version was replaced
/// while it waited or ran is dropped.
pub(super) fn work(
    queue: &mpsc::Receiver<Job>,
    store: &Store,
    sender: &Sender<Message>,
    flags: Flags,
) {
    while let Ok(first) = queue.recv() {
        let mut waiting = vec![first];
        waiting.extend(queue.try_iter());
        let mut latest: Vec<Job> = Vec::new();
        for job in waiting {
            latest.retain(|kept| kept.uri != job.uri);
            latest.push(job);
        }
        for job in latest {
            if !store.is_current(&job.uri, job.version) {
                continue;
            }
            let path = file_path(&job.uri);
            let findings = check(&job.text, path.as_deref(), flags);
            store.finish(&job, findings, sender);
        }
    }
}

/// The local path of a `file:` URI, percent-decoded; none for any other
/// scheme (an unsaved buffer), which is then checked without neighbours.
pub(super) fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only the local host is a path here.
    let path = match rest.strip_prefix("localhost") {
        Some(path) => path,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let mut bytes = Vec::with_capacity(path.len());
    let mut raw = path.bytes();
    while let Some(byte) = raw.next() {
        if byte == b'%' {
            let high = raw.next().and_then(|b| char::from(b).to_digit(16));
            let low = raw.next().and_then(|b| char::from(b).to_digit(16));
            let (high, low) = high.zip(low)?;
            bytes.push(u8::try_from(high * 16 + low).ok()?);
        } else {
            bytes.push(byte);
        }
    }
    let path = String::from_utf8(bytes).ok()?;
    // Windows paths arrive as `/C:/...`.
    let path = match path.get(2..3) {
        Some(":") if cfg!(windows) => path.get(1..).unwrap_or_default().to_owned(),
        _ => path,
    };
    Some(PathBuf::from(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths_and_others_none() {
        assert_eq!(
            file_path("file:///repo/.numinance/a%20b.yaml"),
            Some(PathBuf::from("/repo/.numinance/a b.yaml"))
        );
        assert_eq!(
            file_path("file://localhost/x.yaml"),
            Some(PathBuf::from("/x.yaml"))
        );
        assert_eq!(file_path("untitled:Untitled-1"), None);
        assert_eq!(file_path("file:///bad%zz"), None);
        assert_eq!(file_path("file://server/share/x"), None);
    }

    #[test]
    fn stale_findings_are_not_current() {
        let store = Store::new(Encoding::Utf16);
        let (sender, receiver) = crossbeam_channel::unbounded();
        store.update("file:///a.yaml", 1, Arc::from("a: 1\n"));
        let job = Job {
            uri: "file:///a.yaml".to_owned(),
            version: 1,
            text: Arc::from("a: 1\n"),
        };
        store.update("file:///a.yaml", 2, Arc::from("a: 2\n"));
        store.finish(&job, Vec::new(), &sender);
        assert!(
            receiver.try_recv().is_err(),
            "a stale version publishes nothing"
        );
        let job = Job { version: 2, ..job };
        store.finish(&job, Vec::new(), &sender);
        assert!(receiver.try_recv().is_ok());
        store.close("file:///a.yaml", &sender);
        store.finish(&job, Vec::new(), &sender);
        assert!(receiver.try_recv().is_ok(), "closing clears");
        assert!(
            receiver.try_recv().is_err(),
            "a closed document publishes nothing"
        );
    }
}
