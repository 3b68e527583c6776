#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

/// The names in `folder`, sorted.
pub(crate) fn files_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_committed_file_replaces_the_old_one_whole() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("report.json");
    fs::write(&path, "old").unwrap();
    let mut staged = Staged::beside(&path).unwrap();
    staged.write_all(b"new ").unwrap();
    // Until the commit, the old file is all a reader sees.
    assert_eq!(fs::read_to_string(&path).unwrap(), "old");
    staged.write_all(b"report").unwrap();
    staged.commit().unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "new report");
    assert_eq!(files_in(folder.path()), ["report.json"]);
}

#[test]
fn a_write_abandoned_leaves_the_old_file_and_nothing_beside_it() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("baseline.json");
    fs::write(&path, "committed baseline").unwrap();
    {
        let mut staged = Staged::beside(&path).unwrap();
        staged.write_all(b"half a").unwrap();
        // Dropped, as on an error before the commit.
    }
    assert_eq!(fs::read_to_string(&path).unwrap(), "committed baseline");
    assert_eq!(files_in(folder.path()), ["baseline.json"]);
}

#[test]
fn the_new_file_is_never_one_a_walk_reads() {
    let folder = tempfile::tempdir().unwrap();
    let staged = Staged::beside(&folder.path().join("report.yaml")).unwrap();
    let name = staged
        .temporary_path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with(".report.yaml.numi-new."), "{name}");
    for claimed in [".yaml", ".yml", ".json"] {
        assert!(!name.ends_with(claimed), "{name}");
    }
}

#[cfg(unix)]
#[test]
fn the_new_file_has_the_permissions_of_the_old_before_its_first_byte() {
    use std::os::unix::fs::PermissionsExt;
    let folder = tempfile::tempdir().unwrap();
    for mode in [0o600, 0o640, 0o664, 0o400] {
        let permissions = Permissions::from_mode(mode);
        let (path, file) = create_beside(folder.path(), "x.yaml", Some(&permissions)).unwrap();
        let metadata = file.metadata().unwrap();
        assert_eq!(metadata.len(), 0);
        assert_eq!(metadata.permissions().mode() & 0o777, mode, "{mode:o}");
        fs::remove_file(path).unwrap();
    }
    // Two files made at once never share a name.
    let permissions = Permissions::from_mode(0o600);
    let (first, _) = create_beside(folder.path(), "x.yaml", Some(&permissions)).unwrap();
    let (second, _) = create_beside(folder.path(), "x.yaml", Some(&permissions)).unwrap();
    assert_ne!(first, second);
}

#[test]
fn a_new_file_is_put_only_where_none_is() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("playbook.yaml");
    let mut staged = Staged::beside(&path).unwrap();
    staged.write_all(b"first").unwrap();
    staged.commit_new().unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "first");

    let mut staged = Staged::beside(&path).unwrap();
    staged.write_all(b"second").unwrap();
    let error = staged.commit_new().unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
    assert_eq!(fs::read_to_string(&path).unwrap(), "first");
    assert_eq!(files_in(folder.path()), ["playbook.yaml"]);
}

#[test]
fn a_file_is_replaced_only_while_it_holds_what_was_read() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("x.yaml");
    fs::write(&path, "kind: b\n").unwrap();
    let mut staged = Staged::beside(&path).unwrap();
    staged.write_all(b"kind: fixed\n").unwrap();
    staged.commit_if_unchanged(b"kind: b\n").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "kind: fixed\n");

    // Edited after it was read: the edit stays, the new text is not put.
    fs::write(&path, "kind: edited\n").unwrap();
    for read in [&b"kind: fixed\n"[..], b"kind: edited\nmore", b"kind: edit"] {
        let mut staged = Staged::beside(&path).unwrap();
        staged.write_all(b"kind: again\n").unwrap();
        assert!(matches!(
            staged.commit_if_unchanged(read),
            Err(Refusal::Changed)
        ));
        assert_eq!(fs::read_to_string(&path).unwrap(), "kind: edited\n");
    }
    assert_eq!(files_in(folder.path()), ["x.yaml"], "no new file is left");
}

#[cfg(target_os = "linux")]
#[test]
fn an_edit_is_kept_by_the_same_file_not_a_copy_of_it() {
    use std::os::unix::fs::MetadataExt;
    // Refused after the exchange and the exchange back, the edited file
    // is the one a writer holds open: its identity is unchanged.
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("x.yaml");
    fs::write(&path, "kind: edited\n").unwrap();
    let before = fs::metadata(&path).unwrap().ino();
    let mut staged = Staged::beside(&path).unwrap();
    staged.write_all(b"kind: fixed\n").unwrap();
    assert!(matches!(
        staged.commit_if_unchanged(b"kind: b\n"),
        Err(Refusal::Changed)
    ));
    assert_eq!(fs::metadata(&path).unwrap().ino(), before);
    assert_eq!(fs::read_to_string(&path).unwrap(), "kind: edited\n");
}

#[cfg(unix)]
#[test]
fn a_link_resolves_to_the_file_it_leads_to() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("real.json");
    fs::write(&file, "old").unwrap();
    let link = folder.path().join("link.json");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let target = resolved(&link);
    replace(&target, b"new").unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "new");
    // A path that is no link is its own.
    assert_eq!(resolved(&file), file);
}

#[cfg(target_os = "linux")]
#[test]
fn an_edit_made_while_the_fix_is_put_in_place_is_kept() {
    // An editor that holds the file open writes its edit just as numi puts
    // the fix in place: the exchange leaves the edited file out, the
    // comparison sees the edit, and the file is exchanged back.
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("x.yaml");
    fs::write(&path, "kind: b\n").unwrap();
    let mut editor = OpenOptions::new().write(true).open(&path).unwrap();
    let mut staged = Staged::beside(&path).unwrap();
    staged.write_all(b"kind: fixed\n").unwrap();
    let refusal = staged.commit_if_unchanged_after(b"kind: b\n", || {
        editor.write_all(b"kind: e\n").unwrap();
        editor.sync_all().unwrap();
    });
    assert!(matches!(refusal, Err(Refusal::Changed)));
    assert_eq!(fs::read_to_string(&path).unwrap(), "kind: e\n");
    assert_eq!(files_in(folder.path()), ["x.yaml"]);
}
