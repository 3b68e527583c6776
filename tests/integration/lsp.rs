//! `numi lsp` over the protocol: JSON-RPC messages in, the server's replies
//! as snapshots.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use numi::diagnostic::Diagnostic;
use numi::lsp::{ByteEdit, Ended, Fix, Fixer, Flags, NoFixes, Scope, serve};
use serde_json::{Value, json};

const BROKEN: &str = include_str!("../fixtures/lsp/broken-evalset.yaml");
const URI: &str = "file:///numi-lsp-test/evals/broken.yaml";

/// Stands in for the fix engine: a misspelt `apiVersion` becomes the
/// EvalSet's own.
struct ApiVersionFix;

impl Fixer for ApiVersionFix {
    fn fixes(&self, text: &str, _scope: Scope<'_>, diagnostic: &Diagnostic) -> Vec<Fix> {
        if diagnostic.rule != "kind/api-version" {
            return Vec::new();
        }
        let Some(start) = text.find("apiVersion:").map(|at| at + "apiVersion: ".len()) else {
            return Vec::new();
        };
        let end = start + text[start..].find('\n').unwrap_or(0);
        vec![Fix {
            title: "set apiVersion to numinance.dev/v1alpha1".to_owned(),
            edits: vec![ByteEdit {
                range: start..end,
                replacement: "numinance.dev/v1alpha1".to_owned(),
            }],
        }]
    }

    fn fix_all(&self, text: &str, _scope: Scope<'_>) -> Option<String> {
        let fixed = text.replacen(
            "apiVersion: numinance.dev/v1\n",
            "apiVersion: numinance.dev/v1alpha1\n",
            1,
        );
        (fixed != text).then_some(fixed)
    }
}

/// A client connected to a server running on a thread of its own.
struct Client {
    connection: Connection,
    server: Option<JoinHandle<Result<(), Ended>>>,
    next_id: i32,
}

impl Client {
    fn start(fixer: Arc<dyn Fixer>) -> Self {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || serve(&server, Flags::default(), fixer));
        Client {
            connection: client,
            server: Some(handle),
            next_id: 0,
        }
    }

    /// Started and initialized, with the client capabilities given.
    fn initialized(fixer: Arc<dyn Fixer>, capabilities: Value) -> (Self, Value) {
        let mut client = Client::start(fixer);
        let reply = client.request("initialize", json!({"capabilities": capabilities}));
        client.notify("initialized", json!({}));
        (client, reply)
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_owned(), params);
        self.connection.sender.send(request.into()).unwrap();
        match self.receive() {
            Message::Response(response) if response.id == id => {
                serde_json::to_value(response).unwrap()
            }
            other => panic!("expected the response to {method}, got {other:?}"),
        }
    }

    fn notify(&self, method: &str, params: Value) {
        let notification = Notification::new(method.to_owned(), params);
        self.connection.sender.send(notification.into()).unwrap();
    }

    fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers")
    }

    /// The next publishDiagnostics, as sent.
    fn published(&self) -> Value {
        match self.receive() {
            Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => {
                serde_json::to_value(n).unwrap()
            }
            other => panic!("expected diagnostics, got {other:?}"),
        }
    }

    /// Publications until the one of `version`; none of a later version
    /// may come before it, and none of an earlier one after.
    fn published_for(&self, version: i64) -> Value {
        loop {
            let published = self.published();
            let got = published["params"]["version"].as_i64();
            assert!(got <= Some(version), "{published}");
            if got == Some(version) {
                return published;
            }
        }
    }

    fn open(&self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": version, "text": text}}),
        );
    }

    fn change(&self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn shutdown(mut self) -> Value {
        let reply = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let outcome = self.server.take().unwrap().join().unwrap();
        assert!(outcome.is_ok(), "{outcome:?}");
        reply
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap()
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

#[test]
fn initialize_announces_what_the_server_does() {
    let (client, reply) = Client::initialized(Arc::new(NoFixes), json!({}));
    let mut reply = reply;
    reply["result"]["serverInfo"]["version"] = json!("[version]");
    insta::assert_snapshot!("initialize", pretty(&reply));
    insta::assert_snapshot!("shutdown", pretty(&client.shutdown()));
}

#[test]
fn diagnostics_are_published_on_open_and_change_and_cleared_on_close() {
    let (client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    client.open(URI, 1, BROKEN);
    insta::assert_snapshot!("did_open_utf16", pretty(&client.published_for(1)));
    let fixed = BROKEN.replace("\"1.0\"", "\"1.0.0\"");
    client.change(URI, 2, &fixed);
    let published = client.published_for(2);
    let rules: Vec<&str> = published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["evalset/outcome-digest", "evalset/cases-sorted"]);
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": URI}}),
    );
    insta::assert_snapshot!("did_close", pretty(&client.published()));
    client.shutdown();
}

/// The severity and rule of each diagnostic of a publication.
fn severities(published: &Value) -> Vec<(i64, String)> {
    published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["severity"].as_i64().unwrap(),
                d["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn strict_in_the_numi_toml_makes_a_producer_warning_an_error_as_in_validate() {
    let playbook = std::fs::read_to_string(
        crate::common::fixtures().join("verified/playbook-rate-20000/pb.yaml"),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pb.yaml");
    std::fs::write(&file, &playbook).unwrap();
    let uri = format!("file://{}", file.display());
    let (client, _) = Client::initialized(Arc::new(NoFixes), json!({}));

    // LSP severities: 1 is an error, 2 a warning.
    client.open(&uri, 1, &playbook);
    assert_eq!(
        severities(&client.published_for(1)),
        [(2, "playbook/rate-bound".to_owned())]
    );
    let validated = crate::common::numi(dir.path(), &["validate", "--files", "pb.yaml"]);
    assert_eq!(validated.code, 0, "{}", validated.stderr);

    std::fs::write(dir.path().join("numi.toml"), "strict = true\n").unwrap();
    client.change(&uri, 2, &playbook);
    assert_eq!(
        severities(&client.published_for(2)),
        [(1, "playbook/rate-bound".to_owned())]
    );
    let validated = crate::common::numi(dir.path(), &["validate", "--files", "pb.yaml"]);
    assert_eq!(validated.code, 3, "{}", validated.stdout);
    client.shutdown();
}

#[test]
fn utf8_columns_when_the_client_offers_them() {
    let capabilities = json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}});
    let (client, reply) = Client::initialized(Arc::new(NoFixes), capabilities);
    assert_eq!(reply["result"]["capabilities"]["positionEncoding"], "utf-8");
    client.open(URI, 1, BROKEN);
    let published = client.published_for(1);
    let digest = &published["params"]["diagnostics"][1];
    assert_eq!(digest["code"], "evalset/outcome-digest");
    // `"sha256:ünï"` is 12 characters and 14 bytes; UTF-16 counts 12.
    let start = digest["range"]["start"]["character"].as_u64().unwrap();
    let end = digest["range"]["end"]["character"].as_u64().unwrap();
    assert_eq!(end - start, 14, "{digest}");
    client.shutdown();
}

#[test]
fn hover_explains_a_finding_and_a_field() {
    let (mut client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    client.open(URI, 1, BROKEN);
    client.published_for(1);
    let on_finding = client.request("textDocument/hover", at(URI, 4, 12));
    insta::assert_snapshot!("hover_finding", pretty(&on_finding));
    let on_key = client.request("textDocument/hover", at(URI, 7, 8));
    insta::assert_snapshot!("hover_key", pretty(&on_key));
    client.shutdown();
}

const PLAYBOOK: &str = include_str!("../../examples/playbook-bugfix-bounded.yaml");
const PLAYBOOK_URI: &str = "file:///numi-lsp-test/policy/playbook-bugfix-bounded.yaml";

/// The line and UTF-16 column of the first `needle` in an ASCII `text`.
fn position_of(text: &str, needle: &str) -> (u32, u32) {
    let offset = text.find(needle).unwrap();
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let column = offset - before.rfind('\n').map_or(0, |at| at + 1);
    (line as u32, column as u32)
}

/// The keys of the spec's playbook, as `numi init` writes it (flow
/// mappings for `metadata` and `qualification`), each hovered in the middle.
const PLAYBOOK_KEYS: [&str; 4] = ["max_rework_rate", "change_type", "scope", "name"];

fn hover_text(reply: &Value) -> String {
    reply["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("a hover: {reply}"))
        .to_owned()
}

/// Each of four keys gets a text of its own that says more than its type:
/// what the key means, its unit or allowed values, and what checks it.
#[test]
fn hover_explains_each_key_beyond_its_type() {
    let (mut client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    client.open(PLAYBOOK_URI, 1, PLAYBOOK);
    client.published_for(1);
    let texts: Vec<String> = PLAYBOOK_KEYS
        .iter()
        .map(|key| {
            let (line, column) = position_of(PLAYBOOK, &format!("{key}:"));
            let reply = client.request("textDocument/hover", at(PLAYBOOK_URI, line, column + 2));
            hover_text(&reply)
        })
        .collect();
    for (i, text) in texts.iter().enumerate() {
        for other in &texts[i + 1..] {
            assert_ne!(text, other);
        }
        // The first line names the key and its type; the explanation follows.
        let (first, rest) = text.split_once("\n\n").unwrap();
        assert!(
            first.starts_with(&format!("**{}** (`", PLAYBOOK_KEYS[i])),
            "{text}"
        );
        assert!(rest.len() > 80, "{text}");
    }
    let [rate, change_type, scope, name] = &texts[..] else {
        unreachable!()
    };
    assert!(
        rate.contains("in basis points: 1000 is 10 percent, 10000 is every run"),
        "{rate}"
    );
    assert!(rate.contains("[`playbook/rate-bound`]("), "{rate}");
    assert!(
        change_type.contains("AutonomyPolicy rules grant a level to a change type"),
        "{change_type}"
    );
    assert!(
        scope.contains("- `SCOPE_ORG`: set for the whole organisation"),
        "{scope}"
    );
    assert!(
        scope.contains("- `SCOPE_REPO`: set for one repository"),
        "{scope}"
    );
    assert!(name.contains("have distinct names"), "{name}");
    assert!(name.contains("[`repo/duplicate-name`]("), "{name}");
    insta::assert_snapshot!("hover_playbook_keys", texts.join("\n\n=====\n\n"));
    // On a value of an enum: what the value means.
    let (line, column) = position_of(PLAYBOOK, "SCOPE_REPO");
    let value = client.request("textDocument/hover", at(PLAYBOOK_URI, line, column + 3));
    assert_eq!(
        hover_text(&value),
        "**SCOPE_REPO** (a value of `metadata.scope`): set for one repository, the narrowest scope, within what its team and organisation set."
    );
    client.shutdown();
}

/// Where a finding stands, its explanation first, as before; on a key inside
/// the finding's node, the key's explanation after it.
#[test]
fn hover_on_a_key_under_a_finding_shows_the_finding_then_the_key() {
    let (mut client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    client.open(URI, 1, BROKEN);
    client.published_for(1);
    // The second case is out of order: its finding spans the whole case.
    let (line, column) = position_of(BROKEN, "{name: bugfix-clean");
    let both = hover_text(&client.request("textDocument/hover", at(URI, line, column + 2)));
    let parts: Vec<&str> = both.split("\n\n---\n\n").collect();
    assert_eq!(parts.len(), 2, "{both}");
    assert!(parts[0].starts_with("**"), "{both}");
    assert!(parts[0].contains("[`evalset/cases-sorted`]("), "{both}");
    assert!(
        parts[1].starts_with("**name** (`spec.cases[].name`): string, required\n\nThe case's name"),
        "{both}"
    );
    client.shutdown();
}

#[test]
fn completion_offers_properties_and_enum_values() {
    let (mut client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    let text = "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nspec:\n  cases:\n    - expect:\n        acceptance: \n      \n";
    client.open(URI, 1, text);
    client.published_for(1);
    let values = client.request("textDocument/completion", at(URI, 5, 20));
    insta::assert_snapshot!("completion_enum", pretty(&values));
    let properties = client.request("textDocument/completion", at(URI, 6, 6));
    let labels: Vec<&str> = properties["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["name", "outcome", "category", "seeded"]);
    client.shutdown();
}

#[test]
fn code_actions_offer_the_fix_under_the_cursor_and_fix_all() {
    let (mut client, _) = Client::initialized(Arc::new(ApiVersionFix), json!({}));
    let wrong = BROKEN.replace("numinance.dev/v1alpha1", "numinance.dev/v1");
    client.open(URI, 1, &wrong);
    client.published_for(1);
    let range = json!({"start": {"line": 0, "character": 14}, "end": {"line": 0, "character": 14}});
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": range, "context": {"diagnostics": []}}),
    );
    insta::assert_snapshot!("code_action", pretty(&actions));
    // Away from the finding only "fix all in file" is offered.
    let range = json!({"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}});
    let elsewhere = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": range, "context": {"diagnostics": []}}),
    );
    let titles: Vec<&str> = elsewhere["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, [numi::lsp::FIX_ALL_TITLE]);
    client.shutdown();
}

#[test]
fn the_server_keeps_answering_whatever_it_is_sent() {
    let (mut client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    // A request about a document that is not open.
    let closed = client.request("textDocument/hover", at("file:///never/opened.yaml", 0, 0));
    assert_eq!(closed["result"], Value::Null);
    // Parameters that are not the method's.
    let invalid = client.request("textDocument/hover", json!({"nonsense": true}));
    assert_eq!(invalid["error"]["code"], -32602, "{invalid}");
    let unknown = client.request("numi/unknown", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // An alias bomb, then edits faster than checks: only the last is published.
    let bomb = "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f]\n";
    client.open(URI, 1, bomb);
    for version in 2..=20 {
        client.change(
            URI,
            version,
            &BROKEN.replace("1.0", &format!("1.{version}")),
        );
    }
    let last = client.published_for(20);
    assert_eq!(last["params"]["diagnostics"].as_array().unwrap().len(), 3);
    // A change in the middle of a check, then a close: the clearing is last.
    client.change(URI, 21, bomb);
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": URI}}),
    );
    let cleared = client.published();
    let cleared = if cleared["params"]["version"] == 21 {
        client.published()
    } else {
        cleared
    };
    assert_eq!(cleared["params"]["diagnostics"], json!([]), "{cleared}");
    let after_close = client.request("textDocument/hover", at(URI, 0, 0));
    assert_eq!(after_close["result"], Value::Null);
    client.shutdown();
}

/// An EvalSet with one finding, a misspelt acceptance on its ninth line
/// after a non-ASCII name; `{eol}` stands for each line end.
const ONE_TYPO: &str = "apiVersion: numinance.dev/v1alpha1{eol}kind: EvalSet{eol}metadata: {name: core}{eol}spec:{eol}  version: \"1.0.0\"{eol}  cases:{eol}    - name: bugfix-ünï{eol}      outcome: {value: \"sha256:70fd102e81fe47531de6d7921cbb496665bfa88fcc83f211129b4e76fe53b8ed\"}{eol}      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTD, merged: true, severe: false}{eol}";

#[test]
fn every_line_end_puts_a_finding_on_the_same_line_and_covers_its_token() {
    let (client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    for (version, eol) in [(1, "\n"), (2, "\r\n"), (3, "\r")] {
        let uri = format!("file:///numi-lsp-test/evals/line-ends-{version}.yaml");
        client.open(&uri, version, &ONE_TYPO.replace("{eol}", eol));
        let published = client.published_for(i64::from(version));
        let diagnostics = published["params"]["diagnostics"].as_array().unwrap();
        assert_eq!(diagnostics.len(), 1, "{eol:?}: {published}");
        assert_eq!(diagnostics[0]["code"], "schema/enum");
        let column = "      expect: {acceptance: ".len();
        let end = column + "EVAL_ACCEPTANCE_ACCEPTD".len();
        assert_eq!(
            diagnostics[0]["range"],
            json!({"start": {"line": 8, "character": column}, "end": {"line": 8, "character": end}}),
            "{eol:?}"
        );
    }
    client.shutdown();
}

#[test]
fn a_near_miss_carries_its_suggestion_to_the_editor() {
    let near_misses = [
        (
            include_str!("../fixtures/suggestions/enum-typo.yaml"),
            "schema/enum",
            "did you mean `SCOPE_REPO`?",
        ),
        (
            include_str!("../fixtures/suggestions/unknown-key.yaml"),
            "schema/additionalProperties",
            "did you mean `max_repair_attempts`?",
        ),
        (
            include_str!("../fixtures/suggestions/misspelt-kind.yaml"),
            "kind/unknown",
            "did you mean `Playbook`?",
        ),
        (
            include_str!("../fixtures/suggestions/misplaced-key.yaml"),
            "schema/additionalProperties",
            "did you mean to put it under `/spec/qualification`?",
        ),
    ];
    let (client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    for (version, (text, rule, hint)) in (1..).zip(near_misses) {
        if version == 1 {
            client.open(URI, version, text);
        } else {
            client.change(URI, version, text);
        }
        let published = client.published_for(i64::from(version));
        let diagnostic = &published["params"]["diagnostics"][0];
        assert_eq!(diagnostic["code"], rule, "{published}");
        let related = &diagnostic["relatedInformation"][0];
        assert_eq!(related["message"], hint, "{published}");
        assert_eq!(related["location"]["range"], diagnostic["range"]);
    }
    // Far from every allowed value: no guess.
    let far = include_str!("../fixtures/suggestions/enum-typo.yaml")
        .replace("SCOPE_REPOSITORY", "nothing-like-it");
    client.change(URI, 5, &far);
    let published = client.published_for(5);
    let diagnostic = &published["params"]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "schema/enum", "{published}");
    assert_eq!(diagnostic.get("relatedInformation"), None, "{published}");
    client.shutdown();
}

#[test]
fn long_unknown_suppression_ids_reach_the_editor_shortened_and_near_misses_hinted() {
    // 400 unknown ids of 5,000 characters (2 MB), then a near miss.
    let long = |i: usize| format!("playbook/min-runz{}{i}", "q".repeat(5_000));
    let mut text: String = (0..400)
        .map(|i| format!("# numi: ignore[{}] why\n", long(i)))
        .collect();
    text.push_str("# numi: ignore[playbook/min-run] why\n");
    text.push_str(include_str!("../../examples/playbook-bugfix-bounded.yaml"));
    let (client, _) = Client::initialized(Arc::new(NoFixes), json!({}));
    client.open(URI, 1, &text);
    let published = client.published_for(1);
    let diagnostics = published["params"]["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 401);
    for (i, diagnostic) in diagnostics[..400].iter().enumerate() {
        let start: String = long(i).chars().take(64).collect();
        assert_eq!(
            diagnostic["message"],
            format!("a suppression names a rule: \"{start}…\" is no rule id"),
        );
        assert_eq!(diagnostic.get("relatedInformation"), None);
    }
    assert_eq!(
        diagnostics[400]["message"],
        "a suppression names a rule: \"playbook/min-run\" is no rule id (did you mean \"playbook/min-runs\"?)"
    );
    client.shutdown();
}

/// A case of an EvalSet whose verification failures are `failures`.
fn replay_case(name: &str, digest: &str, failures: &str) -> String {
    format!(
        "    - name: {name}\n      outcome: {{value: \"sha256:{digest}\"}}\n      expect:\n        acceptance: EVAL_ACCEPTANCE_REJECTED\n        merged: false\n        severe: false\n        verification_failures: [{failures}]\n"
    )
}

/// Each edit of the one file of a workspace edit, applied as a client
/// applies them (UTF-16 columns, the last edit first).
fn apply_workspace_edit(text: &str, edit: &Value) -> String {
    let edits = edit["changes"][URI].as_array().unwrap();
    let offset = |position: &Value| {
        let line = position["line"].as_u64().unwrap() as usize;
        let character = position["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let rest = &text[start..];
        let mut units = 0;
        for (at, c) in rest.char_indices() {
            if units >= character {
                return start + at;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut ranges: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|edit| {
            (
                offset(&edit["range"]["start"]),
                offset(&edit["range"]["end"]),
                edit["newText"].as_str().unwrap(),
            )
        })
        .collect();
    ranges.sort_by_key(|range| std::cmp::Reverse(range.0));
    let mut result = text.to_owned();
    for (start, end, new_text) in ranges {
        result.replace_range(start..end, new_text);
    }
    result
}

#[test]
fn fix_all_applies_what_numi_fix_writes() {
    const HEX: &str = "0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242";
    const UNSORTED: &str = "{layer: tests, count: 1}, {layer: lint, count: 1}";
    let evalset = |cases: [String; 2]| {
        format!(
            "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {{name: core}}\nspec:\n  version: 1.0.0\n  cases:\n{}",
            cases.concat()
        )
    };
    // An upper-case digest in a case and the sort of the cases: two rounds
    // of `numi fix`. Two unsorted lists: two fixes of one rule.
    let two_rounds = evalset([
        replay_case("b", &HEX.to_uppercase(), ""),
        replay_case("a", HEX, ""),
    ]);
    let two_lists = evalset([
        replay_case("a", HEX, UNSORTED),
        replay_case("b", HEX, UNSORTED),
    ]);
    for text in [two_rounds, two_lists] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x.yaml"), &text).unwrap();
        let run = crate::common::numi(dir.path(), &["fix", "--files", "x.yaml"]);
        assert_eq!(run.code, 0, "{}", run.transcript());
        let written = std::fs::read_to_string(dir.path().join("x.yaml")).unwrap();
        assert_ne!(written, text);

        let (mut client, _) = Client::initialized(Arc::new(numi::lsp::FixEngine), json!({}));
        client.open(URI, 1, &text);
        client.published_for(1);
        let range =
            json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}});
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": URI}, "range": range, "context": {"diagnostics": []}}),
        );
        let fix_all = actions["result"]
            .as_array()
            .unwrap()
            .iter()
            .find(|action| action["kind"] == "source.fixAll")
            .unwrap_or_else(|| panic!("fix all is offered: {actions}"));
        assert_eq!(apply_workspace_edit(&text, &fix_all["edit"]), written);

        // The fixed text offers no action.
        client.change(URI, 2, &written);
        client.published_for(2);
        let after = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": URI}, "range": range, "context": {"diagnostics": []}}),
        );
        assert_eq!(after["result"], json!([]), "{after}");
        client.shutdown();
    }
}
#[test]
fn fixes_follow_the_numi_toml_that_holds_for_the_file() {
    const HEX: &str = "0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242";
    let unsorted = format!(
        "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {{name: core}}\nspec:\n  version: 1.0.0\n  cases:\n{}{}",
        replay_case("b", HEX, ""),
        replay_case("a", HEX, "")
    );
    for (config, fixed) in [
        ("[rules]\n\"evalset/cases-sorted\" = \"off\"\n", false),
        ("ignore = [\"evalset/cases-sorted\"]\n", false),
        ("select = [\"playbook\"]\n", false),
        ("", true),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("numi.toml"), config).unwrap();
        let uri = format!("file://{}/x.yaml", dir.path().display());
        let (mut client, _) = Client::initialized(Arc::new(numi::lsp::FixEngine), json!({}));
        client.open(&uri, 1, &unsorted);
        let published = client.published_for(1);
        let shown = published["params"]["diagnostics"].to_string();
        assert_eq!(
            shown.contains("evalset/cases-sorted"),
            fixed,
            "{config}: {shown}"
        );
        // The whole document, so every finding's quick fix is asked for.
        let range =
            json!({"start": {"line": 0, "character": 0}, "end": {"line": 40, "character": 0}});
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range, "context": {"diagnostics": []}}),
        );
        let offered = actions["result"].as_array().unwrap();
        let fix_all = offered
            .iter()
            .find(|action| action["kind"] == "source.fixAll");
        assert_eq!(fix_all.is_some(), fixed, "{config}: {actions}");
        assert_eq!(
            offered.iter().any(|action| action["kind"] == "quickfix"),
            fixed,
            "{config}: {actions}"
        );
        client.shutdown();
    }
}

/// `numi lsp` as an editor runs it, fed raw bytes on its standard input.
struct Process {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    replies: std::sync::mpsc::Receiver<Value>,
}

impl Process {
    fn start() -> Self {
        use std::io::{BufRead, Read};
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_numi"))
            .arg("lsp")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("numi lsp starts");
        let stdin = child.stdin.take();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let (sender, replies) = std::sync::mpsc::channel();
        // The client's side of the framing, as simple as a test may be.
        std::thread::spawn(move || {
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(value) = line.strip_prefix("Content-Length: ") {
                        length = value.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                stdout.read_exact(&mut body).unwrap();
                if sender.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Process {
            child,
            stdin,
            replies,
        }
    }

    fn initialized() -> Self {
        let mut process = Process::start();
        process.send(&frame(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
        ));
        assert_eq!(process.next()["id"], 0);
        process
    }

    fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn next(&self) -> Value {
        self.replies
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers")
    }

    /// The next message that is not a publication of diagnostics.
    fn answer(&self) -> Value {
        loop {
            let reply = self.next();
            if reply["method"] != "textDocument/publishDiagnostics" {
                return reply;
            }
        }
    }

    fn hover(&mut self, id: i32) {
        self.send(&frame(&json!({
            "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": at(URI, 0, 0),
        })));
    }

    /// The most memory the server has held, in KiB.
    fn peak_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status
            .lines()
            .find(|line| line.starts_with("VmHWM:"))
            .unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// Its standard input closed, how it exits.
    fn exit_code(mut self) -> i32 {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        status
            .code()
            .expect("numi lsp exits, never killed by a signal")
    }
}

/// The binary as an editor runs it answers the same four hovers as the
/// server driven in memory.
#[test]
fn the_executable_explains_the_same_keys() {
    let mut server = Process::initialized();
    server.send(&frame(&json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": PLAYBOOK_URI, "languageId": "yaml", "version": 1, "text": PLAYBOOK}},
    })));
    let mut texts = Vec::new();
    for (id, key) in (1..).zip(PLAYBOOK_KEYS) {
        let (line, column) = position_of(PLAYBOOK, &format!("{key}:"));
        server.send(&frame(&json!({
            "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": at(PLAYBOOK_URI, line, column + 2),
        })));
        let reply = server.answer();
        assert_eq!(reply["id"], id, "{reply}");
        texts.push(hover_text(&reply));
    }
    insta::assert_snapshot!("hover_playbook_keys", texts.join("\n\n=====\n\n"));
    assert_eq!(server.exit_code(), 1, "no exit: the stream closed");
}

fn frame(message: &Value) -> Vec<u8> {
    framed(&serde_json::to_vec(message).unwrap())
}

fn framed(body: &[u8]) -> Vec<u8> {
    let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

fn parse_error(reply: &Value) {
    assert_eq!(reply["id"], Value::Null, "{reply}");
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
}

#[test]
fn a_malformed_message_is_answered_with_an_error_and_the_server_goes_on() {
    let mut server = Process::initialized();
    let shutdown = br#"{"jsonrpc":"2.0","id":99,"method":"shutdown"}"#;
    let malformed: [(&str, Vec<u8>); 5] = [
        ("invalid JSON", framed(b"{\"jsonrpc\": \"2.0\", \"id\": 1,")),
        ("a body not UTF-8", framed(b"{\"jsonrpc\": \"2.0\xff\"}")),
        (
            "a header without a length, its body running into the next header",
            [&b"Content-Type: application/json\r\n\r\n"[..], shutdown].concat(),
        ),
        (
            "a length that is no number",
            b"Content-Length: ten\r\n\r\n".to_vec(),
        ),
        (
            "a header line of 4 KiB",
            [
                format!("X-{}: y\r\n", "a".repeat(4096)).as_bytes(),
                &framed(shutdown),
            ]
            .concat(),
        ),
    ];
    for (id, (shape, bytes)) in (1..).zip(malformed) {
        server.send(&bytes);
        server.hover(id);
        let reply = server.answer();
        assert_eq!(reply["error"]["code"], -32700, "{shape}: {reply}");
        assert_eq!(reply["id"], Value::Null, "{shape}: {reply}");
        let hover = server.answer();
        assert_eq!(hover["id"], id, "{shape}: {hover}");
        assert_eq!(hover["result"], Value::Null, "{shape}: {hover}");
    }
    // JSON that is no JSON-RPC message: an invalid request, with its id.
    server.send(&frame(&json!({"jsonrpc": "2.0", "id": 7.5, "method": 3})));
    let reply = server.answer();
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    assert_eq!(reply["id"], 7.5, "{reply}");
    // Line feeds alone end header lines as well.
    let body = r#"{"jsonrpc":"2.0","id":42,"method":"numi/unknown","params":{}}"#;
    server.send(format!("Content-Length: {}\n\n{body}", body.len()).as_bytes());
    let reply = server.answer();
    assert_eq!(
        (reply["id"].clone(), reply["error"]["code"].clone()),
        (json!(42), json!(-32601)),
        "{reply}"
    );
    // None of it was the shutdown buried in a malformed message.
    server.hover(100);
    assert_eq!(server.answer()["result"], Value::Null);
}

#[test]
fn every_request_is_answered_whatever_its_id() {
    let mut server = Process::initialized();
    for id in [
        json!(1.5),
        json!(true),
        Value::Null,
        json!([1]),
        json!({}),
        json!(2_147_483_648_i64),
    ] {
        server.send(&frame(
            &json!({"jsonrpc": "2.0", "id": id, "method": "shutdown"}),
        ));
        let reply = server.answer();
        assert_eq!(reply["error"]["code"], -32600, "{id}: {reply}");
        assert_eq!(reply["id"], id, "{id}: {reply}");
    }
    // None of them was taken for the shutdown it named.
    server.hover(5);
    assert_eq!(server.answer()["result"], Value::Null);
}

#[test]
fn no_message_is_lost_after_a_malformed_header_block() {
    let mut server = Process::initialized();
    let hover = |id: i32| {
        frame(&json!({
            "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": at(URI, 0, 0),
        }))
    };
    // A body of 2 KiB without a length, running on into the next header.
    let long_body = format!(r#"{{"jsonrpc":"2.0","method":"{}"}}"#, "x".repeat(2048));
    server.send(&[b"X-Kind: none\r\n\r\n", long_body.as_bytes(), &hover(1)].concat());
    parse_error(&server.answer());
    assert_eq!(server.answer()["id"], 1);
    // Two lengths that differ.
    let body = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
    server.send(
        &[
            format!(
                "Content-Length: 3\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .as_bytes(),
            body,
            &hover(2),
        ]
        .concat(),
    );
    parse_error(&server.answer());
    assert_eq!(server.answer()["id"], 2);
    // A header line of exactly 1,024 bytes is one numi reads.
    let padding = format!("X-Padding: {}\r\n", "p".repeat(1024 - "X-Padding: ".len()));
    server.send(&[padding.as_bytes(), &hover(3)].concat());
    let reply = server.answer();
    assert_eq!(reply["id"], 3, "{reply}");
    assert_eq!(reply["result"], Value::Null, "{reply}");
}

#[test]
fn a_lone_surrogate_in_a_change_reads_as_a_replacement_character() {
    let mut server = Process::initialized();
    server.send(&frame(&json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": URI, "languageId": "yaml", "version": 1, "text": "apiVersion: numinance.dev/v1\nkind: Playbok\n"}},
    })));
    assert_eq!(server.next()["params"]["version"], 1);
    // What `JSON.stringify` writes for a buffer holding half a pair.
    let change = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{URI}","version":2}},"contentChanges":[{{"text":"apiVersion: numinance.dev/v1\nkind: Playbok\ud800\n"}}]}}}}"#
    );
    server.send(&framed(change.as_bytes()));
    let published = server.next();
    assert_eq!(published["params"]["version"], 2, "{published}");
    let message = published["params"]["diagnostics"][0]["message"]
        .as_str()
        .unwrap();
    assert!(message.contains("Playbok\u{fffd}"), "{message}");
}

#[test]
fn a_huge_content_length_is_answered_never_allocated() {
    for length in [
        "18446744073709551615",
        "1000000000",
        "99999999999999999999999",
    ] {
        let mut server = Process::initialized();
        server.send(format!("Content-Length: {length}\r\n\r\n").as_bytes());
        server.send(&[b'x'; 1 << 20]);
        parse_error(&server.answer());
        let peak = server.peak_kib();
        assert!(peak < 64 * 1024, "{length}: {peak} KiB");
        // Its body is dropped as it comes, to the end of the stream.
        assert_eq!(server.exit_code(), 1, "{length}");
    }
}

#[test]
fn a_message_over_the_limit_is_skipped_and_the_next_one_served() {
    let mut server = Process::initialized();
    let length = numi::lsp::framing::MAX_MESSAGE + 1;
    server.send(format!("Content-Length: {length}\r\n\r\n").as_bytes());
    let chunk = vec![b' '; 1 << 20];
    let mut left = length;
    while left > 0 {
        let part = left.min(chunk.len() as u64) as usize;
        server.send(&chunk[..part]);
        left -= part as u64;
    }
    parse_error(&server.answer());
    server.hover(1);
    assert_eq!(server.answer()["id"], 1);
    assert!(server.peak_kib() < 64 * 1024, "{} KiB", server.peak_kib());
}

#[test]
fn after_shutdown_requests_are_refused_and_exit_ends_well() {
    let mut server = Process::start();
    server.hover(1);
    let early = server.answer();
    assert_eq!(early["error"]["code"], -32002, "{early}");
    server.send(&frame(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"capabilities": {}}}),
    ));
    assert_eq!(server.answer()["id"], 2);
    // A second handshake is refused as a request out of turn.
    server.send(&frame(
        &json!({"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {"capabilities": {}}}),
    ));
    let again = server.answer();
    assert_eq!(again["id"], 5, "{again}");
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert_eq!(
        again["error"]["message"],
        "the server is already initialized"
    );
    server.send(&frame(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
    ));
    assert_eq!(
        server.answer(),
        json!({"jsonrpc": "2.0", "id": 3, "result": null})
    );
    server.hover(4);
    let refused = server.answer();
    assert_eq!(refused["id"], 4, "{refused}");
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    server.send(&frame(&json!({"jsonrpc": "2.0", "method": "exit"})));
    assert_eq!(server.exit_code(), 0);
}

#[test]
fn exit_without_shutdown_or_a_closed_stream_ends_with_1() {
    let mut server = Process::initialized();
    server.send(&frame(&json!({"jsonrpc": "2.0", "method": "exit"})));
    assert_eq!(server.exit_code(), 1);
    assert_eq!(Process::initialized().exit_code(), 1);
}

#[test]
fn a_message_of_many_small_values_is_refused_before_they_are_built() {
    // 12 MiB of empty objects would take some 500 MiB as a JSON tree.
    let mut server = Process::initialized();
    let objects = vec!["{}"; 4_000_000].join(",");
    let body = format!(r#"{{"jsonrpc":"2.0","method":"numi/unknown","params":[{objects}]}}"#);
    server.send(&framed(body.as_bytes()));
    parse_error(&server.answer());
    server.hover(1);
    assert_eq!(server.answer()["id"], 1);
    let peak = server.peak_kib();
    let body_kib = (body.len() / 1024) as u64;
    assert!(
        peak < 4 * body_kib,
        "{peak} KiB for a body of {body_kib} KiB"
    );
    // A document of the same size in one string is read and checked.
    let text = format!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {{name: x, scope: SCOPE_REPO}}\nspec: {{change_type: \"{}\"}}\n",
        "a".repeat(12 << 20)
    );
    server.send(&frame(&json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": URI, "languageId": "yaml", "version": 1, "text": text}},
    })));
    let published = server.next();
    assert_eq!(published["params"]["version"], 1, "{published}");
}
