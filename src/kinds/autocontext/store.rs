//! Where a file stands in an autocontext context-bundle store, told by its
//! path: `<knowledge>/<scenario>/context_bundles/` holding
//! `bundles/<digest>.json`, `active.json`, `candidates/<digest>/*.json`
//! (its record, evidence files and stale marker),
//! `promotions/<id>.json`, `promotion-risk/<campaign>/false-promotion.json`
//! and `promotion-risk/<campaign>/reservation-artifacts/<digest>.json`.
//! The walk uses it to read a store's JSON files, and the autocontext
//! family to recognise them; nothing here opens a file. A path as typed
//! may not name the store's folders (`context_bundles/active.json` from
//! inside the scenario, `./active.json` from inside the store): then the
//! folder it stands in is resolved on disk, so the store is the same
//! whatever the current folder.

use std::cell::RefCell;
use std::path::{Component, Path, PathBuf};

use crate::location::Claim;

/// The folder name of a store.
pub const STORE_FOLDER: &str = "context_bundles";

/// The candidate files numi verifies.
pub const CANDIDATE_FILES: [&str; 7] = [
    "record.json",
    "manifest_diff.json",
    "matched_trials.json",
    "causal_attribution.json",
    "negative_result.json",
    "evaluator_plan.json",
    "stale_terminalization.json",
];

/// One file of a store that numi verifies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreFile {
    /// The store folder (`.../context_bundles`).
    pub root: PathBuf,
    /// The scenario folder's name.
    pub scenario: String,
    pub place: Place,
}

/// Which file of the store it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// `bundles/<name>.json`: the name as written, not yet checked as a digest.
    Bundle { name: String },
    /// `active.json`.
    Active,
    /// `candidates/<digest>/<file>`, one of [`CANDIDATE_FILES`].
    Candidate { digest: String, file: String },
    /// `promotions/<id>.json`: the id as written, not yet checked.
    Promotion { id: String },
    /// `promotion-risk/<folder>/false-promotion.json`: a campaign's state,
    /// in the folder autocontext names for its campaign id.
    Campaign { folder: String },
    /// `promotion-risk/<folder>/reservation-artifacts/<name>.json`: the copy
    /// of one terminal reservation, named by its candidate's digest (the
    /// name as written, not yet checked).
    ReservationArtifact { folder: String, name: String },
}

thread_local! {
    /// The last path asked whose answer its words alone gave, and that
    /// answer: a document's kind, each of its rules and the run ask again
    /// for the same path, and no look at the disk can change it.
    static LAST_TOLD: RefCell<Option<(PathBuf, Option<StoreFile>)>> = const { RefCell::new(None) };
}

/// What `path` is in a store, if it is a file numi verifies there.
pub fn store_file(path: &Path) -> Option<StoreFile> {
    // Every file a store holds is JSON: any other is answered from its
    // bytes alone, with nothing to remember.
    if !path.as_os_str().as_encoded_bytes().ends_with(b".json") {
        return None;
    }
    let told = LAST_TOLD.with(|last| {
        last.borrow()
            .as_ref()
            .filter(|(asked, _)| asked.as_os_str() == path.as_os_str())
            .map(|(_, answer)| answer.clone())
    });
    if let Some(answer) = told {
        return answer;
    }
    let remember = |answer: Option<StoreFile>| {
        LAST_TOLD.with(|last| *last.borrow_mut() = Some((path.to_path_buf(), answer.clone())));
        answer
    };
    let Some((root, place)) = place_in_store(path) else {
        return remember(None);
    };
    if let Some(scenario) = scenario_of(&root) {
        return remember(Some(StoreFile {
            root,
            scenario,
            place,
        }));
    }
    // The path as typed stops short of the scenario, or names the store by
    // `.` or `..`: the folder's real path says where it stands. A path whose
    // store folder is named otherwise is no store's, with no look at the disk.
    let resolvable = match root.components().next_back() {
        None | Some(Component::CurDir | Component::ParentDir) => true,
        Some(last) => last.as_os_str() == STORE_FOLDER,
    };
    if !resolvable {
        return None;
    }
    let folder = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root.as_path()
    };
    let resolved = std::fs::canonicalize(folder).ok()?;
    if resolved.file_name()? != STORE_FOLDER {
        return None;
    }
    let scenario = scenario_of(&resolved)?;
    Some(StoreFile {
        root: resolved,
        scenario,
        place,
    })
}

/// The scenario of the store folder `root`, when the path names both.
fn scenario_of(root: &Path) -> Option<String> {
    if root.file_name()? != STORE_FOLDER {
        return None;
    }
    Some(root.parent()?.file_name()?.to_str()?.to_owned())
}

/// The store folder `path` stands in, as typed, and its place there: by
/// the names below the store folder alone.
fn place_in_store(path: &Path) -> Option<(PathBuf, Place)> {
    if !path.file_name()?.to_str()?.ends_with(".json") {
        return None;
    }
    // A place is told by the last four steps at most, read from the end: a
    // step that is no name (`.`, `..`, the root) or no UTF-8 reads as "".
    let mut steps = path.components();
    let mut last = [""; 4];
    let mut count = 0;
    for slot in &mut last {
        let Some(step) = steps.next_back() else {
            break;
        };
        *slot = match step {
            Component::Normal(name) => name.to_str().unwrap_or(""),
            _ => "",
        };
        count += 1;
    }
    let (below, place) = match last.get(..count)? {
        ["active.json", ..] => (1, Place::Active),
        [file, "bundles", ..] => (
            2,
            Place::Bundle {
                name: file.strip_suffix(".json")?.to_owned(),
            },
        ),
        [file, "promotions", ..] => (
            2,
            Place::Promotion {
                id: file.strip_suffix(".json")?.to_owned(),
            },
        ),
        ["false-promotion.json", folder, "promotion-risk", ..] => (
            3,
            Place::Campaign {
                folder: (*folder).to_owned(),
            },
        ),
        [file, "reservation-artifacts", folder, "promotion-risk"] => (
            4,
            Place::ReservationArtifact {
                folder: (*folder).to_owned(),
                name: file.strip_suffix(".json")?.to_owned(),
            },
        ),
        [file, digest, "candidates", ..] if CANDIDATE_FILES.contains(file) => (
            3,
            Place::Candidate {
                digest: (*digest).to_owned(),
                file: (*file).to_owned(),
            },
        ),
        _ => return None,
    };
    Some((without_last_steps(path, below), place))
}

/// `path` without its last `count` steps, spelt as its steps collected
/// spell it (`a//b/./c` as `a/b/c`): copied as it stands when nothing in
/// it would be spelt otherwise, as a store's paths are.
fn without_last_steps(path: &Path, count: usize) -> PathBuf {
    let mut steps = path.components();
    for _ in 0..count {
        steps.next_back();
    }
    let rest = steps.as_path();
    if spelt_as_collected(rest) {
        rest.to_path_buf()
    } else {
        steps.collect()
    }
}

/// Whether collecting the steps of `path` spells it as it stands: no step
/// is empty or `.` but a leading `./`, and no separator ends it. Told on
/// Unix, where `/` alone separates steps.
fn spelt_as_collected(path: &Path) -> bool {
    if !cfg!(unix) {
        return false;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    let bytes = bytes
        .strip_prefix(b"./")
        .or_else(|| bytes.strip_prefix(b"/"))
        .unwrap_or(bytes);
    bytes.is_empty()
        || bytes
            .split(|&byte| byte == b'/')
            .all(|step| !matches!(step, b"" | b"."))
}

/// Whether the file at `path` may hold an array at its root: a store's
/// `matched_trials.json`, whose schema-1 form is the bare array of trials.
pub fn allows_sequence_root(path: &Path) -> bool {
    // Asked of every file a run reads: the bytes alone settle most.
    path.as_os_str().as_encoded_bytes().ends_with(b"matched_trials.json")
        && path.file_name().is_some_and(|name| name == "matched_trials.json")
        && store_file(path).is_some_and(|file| {
        matches!(&file.place, Place::Candidate { file, .. } if file == "matched_trials.json")
    })
}

/// Whether `path` is a file numi verifies: a store's, when the store holds
/// a `bundles/` folder (the mark of a store).
pub fn is_verified_store_file(path: &Path) -> Claim {
    match store_file(path) {
        Some(file) => Claim::IfFolder(file.root.join("bundles")),
        None => Claim::No,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    const D: &str = "16e8b5c5c5b7c4f1c0a8a3c5e2f9b6d8a7c6e5f4d3c2b1a09f8e7d6c5b4a3921";

    #[test]
    fn files_of_a_store_are_told_by_their_place() {
        let bundle = store_file(Path::new(&format!(
            "k/demo/context_bundles/bundles/{D}.json"
        )))
        .unwrap();
        assert_eq!(bundle.root, PathBuf::from("k/demo/context_bundles"));
        assert_eq!(bundle.scenario, "demo");
        assert_eq!(bundle.place, Place::Bundle { name: D.to_owned() });
        let active = store_file(Path::new("k/demo/context_bundles/active.json")).unwrap();
        assert_eq!(active.place, Place::Active);
        let record = store_file(Path::new(&format!(
            "k/demo/context_bundles/candidates/{D}/record.json"
        )))
        .unwrap();
        assert_eq!(
            record.place,
            Place::Candidate {
                digest: D.to_owned(),
                file: "record.json".to_owned()
            }
        );
        let trials = store_file(Path::new(&format!(
            "k/demo/context_bundles/candidates/{D}/matched_trials.json"
        )))
        .unwrap();
        assert_eq!(
            trials.place,
            Place::Candidate {
                digest: D.to_owned(),
                file: "matched_trials.json".to_owned()
            }
        );
        let marker = store_file(Path::new(&format!(
            "k/demo/context_bundles/candidates/{D}/stale_terminalization.json"
        )))
        .unwrap();
        assert_eq!(
            marker.place,
            Place::Candidate {
                digest: D.to_owned(),
                file: "stale_terminalization.json".to_owned()
            }
        );
        let promotion = store_file(Path::new("k/demo/context_bundles/promotions/p1.json")).unwrap();
        assert_eq!(
            promotion.place,
            Place::Promotion {
                id: "p1".to_owned()
            }
        );
        assert_eq!(promotion.root, PathBuf::from("k/demo/context_bundles"));
        let campaign = store_file(Path::new(
            "k/demo/context_bundles/promotion-risk/run-1/false-promotion.json",
        ))
        .unwrap();
        assert_eq!(
            campaign.place,
            Place::Campaign {
                folder: "run-1".to_owned()
            }
        );
        assert_eq!(campaign.root, PathBuf::from("k/demo/context_bundles"));
        let artifact = store_file(Path::new(&format!(
            "k/demo/context_bundles/promotion-risk/run-1/reservation-artifacts/{D}.json"
        )))
        .unwrap();
        assert_eq!(
            artifact.place,
            Place::ReservationArtifact {
                folder: "run-1".to_owned(),
                name: D.to_owned()
            }
        );
        assert_eq!(artifact.root, PathBuf::from("k/demo/context_bundles"));
    }

    #[test]
    fn only_matched_trials_may_be_an_array() {
        let trials = format!("k/demo/context_bundles/candidates/{D}/matched_trials.json");
        assert!(allows_sequence_root(Path::new(&trials)));
        let record = format!("k/demo/context_bundles/candidates/{D}/record.json");
        assert!(!allows_sequence_root(Path::new(&record)));
        assert!(!allows_sequence_root(Path::new("matched_trials.json")));
    }

    /// The store folder and place as every step of the path spells them.
    fn place_by_every_step(path: &Path) -> Option<(PathBuf, Place)> {
        if !path.file_name()?.to_str()?.ends_with(".json") {
            return None;
        }
        let names: Vec<&str> = path
            .components()
            .map(|part| match part {
                Component::Normal(name) => name.to_str().unwrap_or(""),
                _ => "",
            })
            .collect();
        let (below, place) = match names.as_slice() {
            [.., "active.json"] => (1, Place::Active),
            [.., "bundles", file] => (
                2,
                Place::Bundle {
                    name: file.strip_suffix(".json")?.to_owned(),
                },
            ),
            [.., "promotions", file] => (
                2,
                Place::Promotion {
                    id: file.strip_suffix(".json")?.to_owned(),
                },
            ),
            [.., "promotion-risk", folder, "false-promotion.json"] => (
                3,
                Place::Campaign {
                    folder: (*folder).to_owned(),
                },
            ),
            [.., "promotion-risk", folder, "reservation-artifacts", file] => (
                4,
                Place::ReservationArtifact {
                    folder: (*folder).to_owned(),
                    name: file.strip_suffix(".json")?.to_owned(),
                },
            ),
            [.., "candidates", digest, file] if CANDIDATE_FILES.contains(file) => (
                3,
                Place::Candidate {
                    digest: (*digest).to_owned(),
                    file: (*file).to_owned(),
                },
            ),
            _ => return None,
        };
        let root = path
            .components()
            .take(names.len().saturating_sub(below))
            .collect();
        Some((root, place))
    }

    #[test]
    fn a_place_is_told_from_the_last_steps_as_from_every_step() {
        let heads = [
            "", "/", "./", "../", "k/", "/k/", "k//", "./k/./", "k/../", "k/./", ".//k/", "k/demo/",
        ];
        let stores = [
            "",
            "context_bundles/",
            "demo/context_bundles/",
            "context_bundles//",
            "./",
        ];
        let tails = [
            "active.json".to_owned(),
            format!("bundles/{D}.json"),
            "bundles/.json".to_owned(),
            "promotions/p1.json".to_owned(),
            "promotion-risk/run-1/false-promotion.json".to_owned(),
            format!("promotion-risk/run-1/reservation-artifacts/{D}.json"),
            "promotion-risk/reservation-artifacts/d.json".to_owned(),
            format!("candidates/{D}/record.json"),
            format!("candidates/{D}//matched_trials.json"),
            "candidates/../record.json".to_owned(),
            "candidates/./record.json".to_owned(),
            "candidates/d/notes.json".to_owned(),
            "bundles/active.json".to_owned(),
            "record.json".to_owned(),
            "x.yaml".to_owned(),
        ];
        for head in heads {
            for store in stores {
                for tail in &tails {
                    let path = format!("{head}{store}{tail}");
                    let path = Path::new(&path);
                    assert_eq!(place_in_store(path), place_by_every_step(path), "{path:?}");
                }
            }
        }
        // A step that is no UTF-8 reads as "" both ways.
        #[cfg(unix)]
        for bytes in [
            &b"k/demo/context_bundles/candidates/\xff/record.json"[..],
            &b"k/demo/context_bundles/bundles/\xff.json"[..],
            &b"k/demo/\xff/active.json"[..],
        ] {
            use std::os::unix::ffi::OsStrExt;
            let path = Path::new(std::ffi::OsStr::from_bytes(bytes));
            assert_eq!(place_in_store(path), place_by_every_step(path), "{path:?}");
        }
    }

    #[test]
    fn other_files_are_not_store_files() {
        for path in [
            "k/demo/bundles/x.json",
            "k/demo/context_bundles/bundles/x.yaml",
            "k/demo/promotions/p.json",
            "k/demo/context_bundles/promotions/p.yaml",
            "k/demo/context_bundles/candidates/d/notes.json",
            "k/demo/context_bundles/promotion-risk/run-1/reservation-artifacts/d.yaml",
            "k/demo/context_bundles/promotion-risk/reservation-artifacts/d.json",
            "k/demo/promotion-risk/run-1/reservation-artifacts/d.json",
            "k/demo/promotion-risk/run-1/false-promotion.json",
            "active.json",
            "context_bundles/active.json",
        ] {
            assert_eq!(store_file(Path::new(path)), None, "{path}");
        }
    }
}
