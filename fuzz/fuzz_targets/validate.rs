//! Any bytes through the whole pipeline, in both modes: numi must answer
//! with one line, never panic, and only call a document valid when it
//! named a kind.

#![no_main]

use libfuzzer_sys::fuzz_target;
use numi::report::text::line;
use numi::results::{FileResult, Origin, Status};
use numi::yaml::Limits;
use numi::{Mode, Stage, validate_bytes};

fuzz_target!(|data: &[u8]| {
    // The default limits: their node budget keeps an alias bomb to
    // milliseconds even under the sanitizer.
    let limits = Limits::default();
    for (mode, origin) in [
        (Mode::Files, Origin::File),
        (
            Mode::Repository {
                enable_alpha: false,
            },
            Origin::Repo,
        ),
    ] {
        let checked = validate_bytes(data, mode, &limits);
        assert!(
            !checked.diagnostics.is_empty() || checked.kind.is_some(),
            "a valid document names its kind: {checked:?}"
        );
        for diagnostic in &checked.diagnostics {
            assert!(
                !matches!(diagnostic.stage(), Stage::Read | Stage::Internal),
                "input blamed on numi: {diagnostic:?}"
            );
        }
        let result = FileResult {
            origin,
            display_name: "fuzz.yaml".to_owned(),
            path: "fuzz.yaml".to_owned(),
            checked,
            source: None,
            read_from: None,
        };
        assert_ne!(result.status(), Status::Error);
        let text = line(&result);
        assert!(!text.contains(['\n', '\r']), "one line: {text:?}");
    }
});
