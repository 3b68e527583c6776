//! Differential: the comments numi finds in a text are exactly those
//! saphyr's values say are comments (see `numi::yaml::comments`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(difference) = numi::yaml::comments::disagreement(text) {
        panic!("{difference} for {text:?}");
    }
});
