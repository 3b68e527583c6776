//! The official YAML test suite (`tests/data/yaml-test-suite/`, release
//! `data-2022-01-17`), every case of it: an invalid case
//! is refused as a YAML error, a case of one document with a JSON value loads
//! to exactly that value (its root need not be a mapping here), a case of
//! several documents is refused as such and one of none as empty. The cases
//! numi refuses by design are listed, each with the rule it refuses them by
//! and why, in `tests/yaml-suite/refusals.txt`; every other case must agree.
//! Wherever the fast path takes a case, it is held to the same answer, and to
//! saphyr's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Limits, Positions, YamlError, decode, fast, fast_path_disagreement, load_any_root};

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/yaml-test-suite");
const REFUSALS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/yaml-suite/refusals.txt");

/// Valid cases of one document that the suite gives no JSON for, with the
/// value their `test.event` describes.
const WITHOUT_JSON: &[(&str, &str)] = &[
    // `{unquoted : "separate", http://foo.com, omitted value:,}`
    (
        "4ABK",
        r#"{"unquoted": "separate", "http://foo.com": null, "omitted value": null}"#,
    ),
    // `!`: the non-specific tag on an empty scalar, a string.
    ("UKK6/02", r#""""#),
];

struct Case {
    /// The folder, with its sub-folder when it has one: `229Q`, `SM9W/01`.
    id: String,
    input: Vec<u8>,
    invalid: bool,
    documents: usize,
    /// The JSON value of each document, when the case has them.
    values: Option<Vec<Value>>,
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn folders(path: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(path).unwrap_or_else(|error| {
        panic!(
            "the YAML test suite is missing at {}: {error}",
            path.display()
        )
    });
    let mut folders: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap_or_else(|error| panic!("{error}")).path())
        .filter(|path| path.is_dir())
        .collect();
    folders.sort();
    folders
}

fn case(id: String, folder: &Path) -> Case {
    let events = String::from_utf8(read(&folder.join("test.event")))
        .unwrap_or_else(|error| panic!("{id}: test.event: {error}"));
    let json = folder.join("in.json");
    let values = json.exists().then(|| {
        serde_json::Deserializer::from_slice(&read(&json))
            .into_iter::<Value>()
            .collect::<Result<Vec<_>, _>>()
            .unwrap_or_else(|error| panic!("{id}: in.json: {error}"))
    });
    Case {
        input: read(&folder.join("in.yaml")),
        invalid: folder.join("error").exists(),
        documents: events
            .lines()
            .filter(|line| line.starts_with("+DOC"))
            .count(),
        values,
        id,
    }
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for folder in folders(Path::new(SUITE)) {
        let Some(name) = folder.file_name().and_then(|name| name.to_str()) else {
            continue;
        };
        // `name/` and `tags/` only link to the cases.
        let is_case = name.len() == 4
            && name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
        if !is_case {
            continue;
        }
        if folder.join("in.yaml").exists() {
            cases.push(case(name.to_owned(), &folder));
            continue;
        }
        for sub in folders(&folder) {
            let sub_name = sub.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            cases.push(case(format!("{name}/{sub_name}"), &sub));
        }
    }
    cases
}

/// `ID  rule  reason` lines; `#` starts a comment line.
fn refusals() -> BTreeMap<String, String> {
    let text = String::from_utf8(read(Path::new(REFUSALS))).unwrap_or_default();
    let mut refusals = BTreeMap::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(id), Some(rule), Some(_reason)) = (words.next(), words.next(), words.next())
        else {
            panic!("refusals.txt: {line:?} is not `ID  rule  reason`");
        };
        if refusals.insert(id.to_owned(), rule.to_owned()).is_some() {
            panic!("refusals.txt: {id} is listed twice");
        }
    }
    refusals
}

fn describe(outcome: &Result<Value, YamlError>) -> String {
    match outcome {
        Ok(value) => format!("loads {value}"),
        Err(error) => format!("refuses it: {} {}", error.problem.id(), error.message()),
    }
}

/// What is wrong with numi's answer to `case`, if anything.
fn disagreement(case: &Case, refused_by: Option<&String>) -> Option<String> {
    let limits = Limits::default();
    let outcome = decode(&case.input).and_then(|text| load_any_root(text, &limits));
    let refused_with = |rule: &str| match &outcome {
        Err(error) if error.problem.id() == rule => None,
        _ => Some(format!(
            "should be refused by {rule}, {}",
            describe(&outcome)
        )),
    };
    if let Some(rule) = refused_by {
        if case.invalid {
            return Some("is listed, but is invalid YAML: refused anyway".to_owned());
        }
        return refused_with(rule);
    }
    if case.invalid {
        return match &outcome {
            Err(error) if error.problem.id().starts_with("yaml/") => None,
            _ => Some(format!("is invalid, but numi {}", describe(&outcome))),
        };
    }
    match (case.documents, &case.values) {
        (0, _) => refused_with("yaml/empty"),
        (1, Some(values)) => match (&outcome, values.as_slice()) {
            (Ok(value), [expected]) if value == expected => None,
            _ => Some(format!(
                "should load {values:?}, numi {}",
                describe(&outcome)
            )),
        },
        (1, None) => match WITHOUT_JSON.iter().find(|(id, _)| *id == case.id) {
            Some((_, expected)) => match (&outcome, serde_json::from_str::<Value>(expected)) {
                (Ok(value), Ok(expected)) if *value == expected => None,
                _ => Some(format!(
                    "should load {expected}, numi {}",
                    describe(&outcome)
                )),
            },
            None => Some(format!("has no JSON value, numi {}", describe(&outcome))),
        },
        _ => refused_with("yaml/multiple-documents"),
    }
}

/// The fast path takes only what it loads as saphyr does, and as expected.
fn fast_path_disagreement_on(case: &Case) -> Option<String> {
    let text = std::str::from_utf8(&case.input).ok()?;
    let fast = fast::load(text, &Limits::default(), Positions::Record).ok()?;
    if case.invalid {
        return Some(format!(
            "is invalid, but the fast path loads {}",
            fast.value
        ));
    }
    if let Some(difference) = fast_path_disagreement(text) {
        return Some(format!("fast path and saphyr disagree: {difference}"));
    }
    match case.values.as_deref() {
        Some([expected]) if *expected == fast.value => None,
        _ => Some(format!(
            "the fast path loads {}, expected {:?}",
            fast.value, case.values
        )),
    }
}

#[test]
fn every_case_of_the_yaml_test_suite_agrees_or_is_a_listed_refusal() {
    let cases = cases();
    assert!(cases.len() > 350, "only {} cases", cases.len());
    let refusals = refusals();
    let mut problems = Vec::new();
    for id in refusals.keys() {
        if !cases.iter().any(|case| case.id == *id) {
            problems.push(format!("{id}: listed, but no such case"));
        }
    }
    let mut fast_path_cases = 0;
    for case in &cases {
        let refused_by = refusals.get(&case.id);
        if let Some(problem) = disagreement(case, refused_by) {
            problems.push(format!("{}: {problem}", case.id));
        }
        let text = std::str::from_utf8(&case.input).unwrap_or_default();
        if fast::load(text, &Limits::default(), Positions::Skip).is_ok() {
            fast_path_cases += 1;
        }
        if let Some(problem) = fast_path_disagreement_on(case) {
            problems.push(format!("{}: {problem}", case.id));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} cases disagree:\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
    // The fast path is held to the suite only where it takes a case.
    assert!(fast_path_cases > 10, "the fast path took {fast_path_cases}");
}

/// Every case's comments are where saphyr's values say they are: a mark
/// written into each one changes no value, and one written after any other
/// `#` that could start a comment changes some (see
/// [`super::comments::disagreement`]).
#[test]
fn every_comment_of_the_yaml_test_suite_is_found_and_nothing_else() {
    let cases = cases();
    assert!(cases.len() > 350, "only {} cases", cases.len());
    let mut with_comments = 0;
    let mut problems = Vec::new();
    for case in &cases {
        let Ok(text) = std::str::from_utf8(&case.input) else {
            continue;
        };
        if super::comments::comments(text).is_some_and(|found| !found.is_empty()) {
            with_comments += 1;
        }
        if let Some(problem) = super::comments::disagreement(text) {
            problems.push(format!("{}: {problem}", case.id));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        with_comments > 50,
        "only {with_comments} cases with comments"
    );
}
