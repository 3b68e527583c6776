//! What a run learns of a store beyond its single files, by the digest of
//! a bundle and of its candidate: what the store's other files read of the
//! bundle (its [`Listing`]), and what one of the candidate's files computed
//! that another asks again (what its matched trials replay to, its
//! evaluator plan's digest, its manifest diff's digest). Every candidate's
//! files read its bundle and its parent, and a promotion reads them again
//! with the trials, long after the bundles' own lines, in another unit; the
//! units of a run keep what they learned, together, whichever worker checks
//! them (`location::unit::Learning`), for at most [`DIGESTS`] digests of a
//! store, about a KiB each, so memory stays bounded whatever the store's
//! size. Outside a run's unit (the language server, a single check)
//! nothing is kept.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError};

use serde_json::Value;

use super::comparison::{self, Policy, Replay};
use super::manifest::Listing;
use crate::canonical::Refusal;
use crate::location::Location;

/// How many digests of one store a run keeps (about a KiB each): a
/// store's every bundle and candidate up to this many, some 170 rounds of
/// autocontext's three candidates. Past it nothing more is learned of the
/// store, and what the others need is read again, as every file once was:
/// a store's files are read in the order of their digests phase after
/// phase, so letting the first go for the next would keep what no later
/// phase asks for before it goes.
const DIGESTS: usize = 512;

/// How many stores a run keeps what it learned of: the last ones read.
const STORES: usize = 4;

/// Where a run keeps what it learned of a digest: the store folder and the
/// digest (64 lowercase hex).
pub(super) type Key<'k> = (&'k Path, &'k str);

/// What a run learned, store by store (by the store folder's path as
/// spelt), digest by digest.
#[derive(Default)]
pub(super) struct Learned {
    stores: Vec<(PathBuf, HashMap<Digest, Facts>)>,
}

/// A digest (64 lowercase hex) as its text's bytes.
type Digest = [u8; 64];

/// `text` as a [`Digest`], when it is as long as one.
fn key_of(text: &str) -> Option<Digest> {
    text.as_bytes().try_into().ok()
}

/// What was learned of one digest.
#[derive(Default)]
struct Facts {
    /// `bundles/<digest>.json`, once read.
    listing: Option<Arc<Listing>>,
    /// What the candidate's files computed (apart: a bundle's own digest
    /// has none until its candidate's files are read).
    computed: Option<Box<Computed>>,
}

/// What one of a candidate's files computed that another asks again.
#[derive(Default)]
struct Computed {
    /// What `matched_trials.json` replays to, under the policy it was first
    /// replayed under.
    replay: Option<(Policy, Replay)>,
    /// The digest of `evaluator_plan.json`'s plan.
    plan_digest: Option<Computation>,
    /// The digest of the bundle's manifest diff against the bundle of the
    /// first digest, its parent.
    diff_digest: Option<(Digest, Computation)>,
}

/// A digest numi computed, or why the value has none.
type Computation = Result<Digest, Box<Refusal>>;

/// `computed` as kept; `None` for a text that is no digest (never one numi
/// computed).
fn kept(computed: &Result<String, Refusal>) -> Option<Computation> {
    match computed {
        Ok(text) => key_of(text).map(Ok),
        Err(refusal) => Some(Err(Box::new(refusal.clone()))),
    }
}

/// A kept computation as computed.
fn computed(kept: &Computation) -> Result<String, Refusal> {
    match kept {
        Ok(bytes) => Ok(String::from_utf8_lossy(bytes).into_owned()),
        Err(refusal) => Err((**refusal).clone()),
    }
}

/// `read` on what the run learned of `digest` (64 lowercase hex) in the
/// store at `root`, if it learned anything; `None` outside a run.
fn known<T>(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    read: impl FnOnce(&Facts) -> Option<T>,
) -> Option<T> {
    let digest = key_of(digest)?;
    let learned = location.learned::<Learned>()?;
    let learned = learned.lock().unwrap_or_else(PoisonError::into_inner);
    let (_, facts) = learned
        .stores
        .iter()
        .find(|(at, _)| at.as_os_str() == root.as_os_str())?;
    facts.get(&digest).and_then(read)
}

/// `learn` on what the run keeps of `digest` in the store at `root`.
fn learn(location: &Location<'_>, root: &Path, digest: &str, learn: impl FnOnce(&mut Facts)) {
    let (Some(digest), Some(learned)) = (key_of(digest), location.learned::<Learned>()) else {
        return;
    };
    let mut learned = learned.lock().unwrap_or_else(PoisonError::into_inner);
    let stores = &mut learned.stores;
    let at = match stores
        .iter()
        .position(|(at, _)| at.as_os_str() == root.as_os_str())
    {
        Some(at) => at,
        None => {
            if stores.len() >= STORES {
                stores.remove(0);
            }
            stores.push((root.to_path_buf(), HashMap::new()));
            stores.len() - 1
        }
    };
    let Some((_, facts)) = stores.get_mut(at) else {
        return;
    };
    if facts.len() >= DIGESTS && !facts.contains_key(&digest) {
        return;
    }
    learn(facts.entry(digest).or_default());
}

/// The listing of the stored bundle `digest`, when the run read it.
pub(super) fn listing(location: &Location<'_>, root: &Path, digest: &str) -> Option<Arc<Listing>> {
    known(location, root, digest, |facts| facts.listing.clone())
}

/// Keeps the listing of the stored bundle `digest`.
pub(super) fn keep_listing(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    listing: &Arc<Listing>,
) {
    learn(location, root, digest, |facts| {
        facts.listing = Some(listing.clone())
    });
}

/// Keeps the listing `list` makes of the stored bundle `digest`, unless
/// one is kept, or the run keeps no more of the store: made only then.
pub(super) fn learn_listing(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    list: impl FnOnce() -> Listing,
) {
    learn(location, root, digest, |facts| {
        if facts.listing.is_none() {
            facts.listing = Some(Arc::new(list()));
        }
    });
}

/// `read` on what candidate `digest`'s files computed, if any.
fn known_computed<T>(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    read: impl FnOnce(&Computed) -> Option<T>,
) -> Option<T> {
    known(location, root, digest, |facts| {
        facts.computed.as_deref().and_then(read)
    })
}

/// `learn` on what candidate `digest`'s files computed.
fn compute(location: &Location<'_>, root: &Path, digest: &str, learn: impl FnOnce(&mut Computed)) {
    self::learn(location, root, digest, |facts| {
        learn(facts.computed.get_or_insert_with(Box::default));
    });
}

/// What the matched trials of candidate `digest` replay to under `policy`,
/// when the run replayed them under it.
pub(super) fn replay(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    policy: &Policy,
) -> Option<Replay> {
    known_computed(location, root, digest, |computed| {
        computed
            .replay
            .as_ref()
            .filter(|(kept, _)| kept.is(policy))
            .map(|(_, replay)| replay.clone())
    })
}

/// Keeps what the matched trials of candidate `digest` replay to under
/// `policy`, unless they were replayed under another policy first (only an
/// edited file binds two).
pub(super) fn keep_replay(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    policy: &Policy,
    replay: &Replay,
) {
    compute(location, root, digest, |computed| {
        if computed.replay.is_none() {
            computed.replay = Some((*policy, replay.clone()));
        }
    });
}

/// The replay of candidate `kept`'s matched trials under `policy`, when
/// the run keeps one (the file was read, and replayed under that policy,
/// before).
pub(super) fn kept_replay(
    location: &Location<'_>,
    kept: Key<'_>,
    policy: &Value,
) -> Option<Replay> {
    let (root, digest) = kept;
    replay(location, root, digest, &Policy::from_value(policy).ok()?)
}

/// [`comparison::replay`] of `evidence` (a matched-trials file) under `policy`; when
/// `evidence` is the trials file the run read for candidate `kept`, once
/// per run for that policy. (A policy autocontext refuses is replayed each
/// time: the refusal is its own.)
pub(super) fn replayed(
    location: &Location<'_>,
    evidence: &Value,
    policy: &Value,
    kept: Option<Key<'_>>,
) -> Replay {
    let (trials, _) = comparison::evidence_parts(evidence);
    let (Some((root, digest)), Ok(policy)) = (kept, Policy::from_value(policy)) else {
        return comparison::replay(trials, policy);
    };
    if let Some(known) = replay(location, root, digest, &policy) {
        return known;
    }
    let replayed = comparison::replay_under(trials, &policy);
    keep_replay(location, root, digest, &policy, &replayed);
    replayed
}

/// The digest of candidate `digest`'s evaluator plan, when the run
/// computed it.
pub(super) fn plan_digest(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
) -> Option<Result<String, Refusal>> {
    known_computed(location, root, digest, |computed| {
        computed.plan_digest.as_ref().map(self::computed)
    })
}

/// Keeps the digest of candidate `digest`'s evaluator plan.
pub(super) fn keep_plan_digest(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    plan_digest: &Result<String, Refusal>,
) {
    let Some(plan_digest) = kept(plan_digest) else {
        return;
    };
    compute(location, root, digest, |computed| {
        computed.plan_digest = Some(plan_digest);
    });
}

/// The digest of the manifest diff of bundle `digest` against bundle
/// `against`, when the run computed it.
pub(super) fn diff_digest(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    against: &str,
) -> Option<Result<String, Refusal>> {
    let against = key_of(against)?;
    known_computed(location, root, digest, |computed| {
        computed
            .diff_digest
            .as_ref()
            .filter(|(kept, _)| *kept == against)
            .map(|(_, diff_digest)| self::computed(diff_digest))
    })
}

/// Keeps the digest of the manifest diff of bundle `digest` against bundle
/// `against`, unless one against another bundle was kept first.
pub(super) fn keep_diff_digest(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    against: &str,
    diff_digest: &Result<String, Refusal>,
) {
    let (Some(against), Some(diff_digest)) = (key_of(against), kept(diff_digest)) else {
        return;
    };
    compute(location, root, digest, |computed| {
        if computed.diff_digest.is_none() {
            computed.diff_digest = Some((against, diff_digest));
        }
    });
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;
    use crate::canonical::Reason;
    use crate::location::unit::{Learning, Unit};

    #[test]
    fn what_a_run_learns_is_kept_by_store_and_digest_while_it_lasts() {
        let root = Path::new("k/demo/context_bundles");
        let digest = "0123456789abcdef".repeat(4);
        let other = "fedcba9876543210".repeat(4);
        let bundle = Arc::new(Listing::of(&json!({ "digest": digest })));
        let path = root.join("active.json");
        let alone = Location::file(&path, 1024);
        keep_listing(&alone, root, &digest, &bundle);
        assert!(
            listing(&alone, root, &digest).is_none(),
            "nothing is kept outside a run"
        );

        let learning = Learning::default();
        let unit = Unit::new([path.clone()], &learning);
        let location = Location::file(&path, 1024).in_unit(&unit);
        let in_unit = &location;
        keep_listing(in_unit, root, &digest, &bundle);
        assert!(Arc::ptr_eq(
            &listing(in_unit, root, &digest).unwrap(),
            &bundle
        ));
        assert!(listing(in_unit, Path::new("k/other/context_bundles"), &digest).is_none());
        assert!(listing(in_unit, root, &other).is_none());
        // Not a digest: nothing to keep it by.
        keep_listing(in_unit, root, "x", &bundle);
        assert!(listing(in_unit, root, "x").is_none());

        let computed = Ok(other.clone());
        keep_plan_digest(in_unit, root, &digest, &computed);
        assert_eq!(plan_digest(in_unit, root, &digest), Some(computed.clone()));
        let refused = Err(Refusal {
            reason: Reason::UnsafeNumber,
            pointer: "/plan/units/0/seed".to_owned(),
            message: "too large".to_owned(),
        });
        keep_plan_digest(in_unit, root, &other, &refused);
        assert_eq!(plan_digest(in_unit, root, &other), Some(refused));

        // A diff's digest, against the bundle it was computed against only.
        keep_diff_digest(in_unit, root, &digest, &other, &computed);
        assert_eq!(
            diff_digest(in_unit, root, &digest, &other),
            Some(computed.clone())
        );
        assert_eq!(diff_digest(in_unit, root, &digest, &digest), None);
        keep_diff_digest(in_unit, root, &digest, &digest, &Ok(digest.clone()));
        assert_eq!(diff_digest(in_unit, root, &digest, &digest), None);

        // Past the bound, nothing more is learned of the store; what was
        // is kept.
        let numbered = |index: usize| format!("{index:064x}");
        for index in 0..DIGESTS {
            keep_listing(in_unit, root, &numbered(index), &bundle);
        }
        assert!(listing(in_unit, root, &numbered(DIGESTS - 3)).is_some());
        assert!(listing(in_unit, root, &numbered(DIGESTS - 2)).is_none());
        assert!(listing(in_unit, root, &digest).is_some());
        assert_eq!(plan_digest(in_unit, root, &digest), Some(computed));

        // Another unit of the run learns with this one.
        let other_unit = Unit::new([], &learning);
        let beside = Location::file(&path, 1024).in_unit(&other_unit);
        assert!(listing(&beside, root, &digest).is_some());
    }
}
