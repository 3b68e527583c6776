//! Differential: whenever the YAML fast path takes a text, it must load the
//! same value, at the same positions, as saphyr does; and a JSON object
//! must load as JSON reads it, whichever path takes it.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(difference) = numi::yaml::fast_path_disagreement(text) {
        panic!("{difference} for {text:?}");
    }
    if let Some(difference) = numi::yaml::json_disagreement(text) {
        panic!("{difference} for {text:?}");
    }
});
