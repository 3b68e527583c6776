//! Any text through the fix loop of `numi fix`: fixing is idempotent, and
//! a fixed text loads to the original's value but for what the fixes may
//! change (the order of the entries of a sequence, the case of a digest).

#![no_main]

use libfuzzer_sys::fuzz_target;
use numi::Mode;
use numi::fix::fix_document;
use numi::location::{DEFAULT_MAX_FILE_SIZE, Location};
use numi::verdict::Verdict;
use numi::yaml::{Limits, load};
use serde_json::Value;

/// `value` with what a fix may change made the same on both sides: every
/// sequence in one order, every `sha256:` digest in lower case.
fn normalized(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut items: Vec<Value> = items.iter().map(normalized).collect();
            items.sort_by_key(Value::to_string);
            Value::Array(items)
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), normalized(value)))
                .collect(),
        ),
        Value::String(text) if text.starts_with("sha256:") => Value::String(text.to_lowercase()),
        other => other.clone(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let fix = |text: &str| {
        fix_document(
            text,
            Mode::Files,
            Location::detached(DEFAULT_MAX_FILE_SIZE),
            Verdict::unconfigured(),
        )
    };
    let Ok(fixed) = fix(text) else {
        return;
    };
    if fixed.text == text {
        assert!(fixed.applied.is_empty(), "a fix changed nothing: {text:?}");
        return;
    }
    let again = fix(&fixed.text).unwrap_or_else(|refused| {
        panic!("the fixed text is refused ({refused}): {:?}", fixed.text)
    });
    assert_eq!(again.text, fixed.text, "fixing twice changes more");
    assert!(again.applied.is_empty(), "{:?}", again.applied);

    let limits = Limits::default();
    let before = load(text, &limits).unwrap_or_else(|_| panic!("a fixed text loaded: {text:?}"));
    let after = load(&fixed.text, &limits)
        .unwrap_or_else(|error| panic!("the fixed text does not load ({}): {:?}", error.message(), fixed.text));
    assert_eq!(
        normalized(&before.value),
        normalized(&after.value),
        "{text:?} fixed as {:?}",
        fixed.text
    );
});
