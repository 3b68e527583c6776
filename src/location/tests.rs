#![allow(clippy::expect_used)]

use std::path::Path;

use super::{
    Entry, Location, ReadError, folders_stay_within, folders_stay_within_by_steps, read_regular,
    stays_within,
};

#[test]
fn a_location_resolves_beside_its_file() {
    let location = Location::file(Path::new("conf/run.json"), 10);
    assert_eq!(location.folder(), Some(Path::new("conf")));
    assert_eq!(
        location.resolve("a/b.md"),
        Some(Path::new("conf/a/b.md").to_path_buf())
    );
    let bare = Location::file(Path::new("run.json"), 10);
    assert_eq!(bare.folder(), Some(Path::new(".")));
    let detached = Location::detached(10);
    assert_eq!(detached.resolve("a"), None);
}

#[test]
fn entries_are_told_without_opening_and_reads_keep_the_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("small.txt");
    std::fs::write(&file, "12345").expect("write");
    let location = Location::file(&file, 4);
    assert_eq!(location.entry(&file), Entry::File(5));
    assert_eq!(location.entry(dir.path()), Entry::Folder);
    assert_eq!(location.entry(&dir.path().join("nope")), Entry::Missing);
    assert_eq!(
        location.read(&file).map_err(|error| error.to_string()),
        Err("the file is larger than 4 bytes (--max-file-size)".to_owned())
    );
    assert_eq!(
        Location::file(&file, 5).read(&file).as_deref(),
        Ok(&b"12345"[..])
    );
    assert_eq!(
        location.read(dir.path()).map_err(|error| error.to_string()),
        Err("is a directory".to_owned())
    );
}

#[test]
fn a_file_is_read_whole_and_an_empty_one_as_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("doc.yaml");
    let text = "kind: Playbook\n".repeat(1000);
    std::fs::write(&file, &text).expect("write");
    assert_eq!(read_regular(&file, 1 << 20).as_deref(), Ok(text.as_bytes()));
    let empty = dir.path().join("empty.yaml");
    std::fs::write(&empty, "").expect("write");
    assert_eq!(read_regular(&empty, 1 << 20).as_deref(), Ok(&b""[..]));
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_the_system_sizes_as_empty_is_read_to_its_end() {
    // /proc files report no size and hold text all the same.
    let read = read_regular(Path::new("/proc/self/status"), 1 << 20).expect("readable");
    assert!(
        read.starts_with(b"Name:"),
        "{:?}",
        String::from_utf8_lossy(&read)
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_being_opened() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let location = Location::file(&fifo, 1024);
    assert_eq!(
        location.entry(&fifo),
        Entry::Other("not a regular file".to_owned())
    );
    // Opening a FIFO with no writer would block: the read returns at once.
    assert_eq!(
        location.read(&fifo).map_err(|error| error.to_string()),
        Err("not a regular file".to_owned())
    );
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_root_is_not_read() {
    let outside = tempfile::tempdir().expect("temp dir");
    let secret = outside.path().join("secret.json");
    std::fs::write(&secret, "{}").expect("write");
    let store = tempfile::tempdir().expect("temp dir");
    let link = store.path().join("bundle.json");
    std::os::unix::fs::symlink(&secret, &link).expect("symlink");
    let inside = store.path().join("inside.json");
    std::fs::write(&inside, "{}").expect("write");
    let location = Location::file(&inside, 1024);
    assert_eq!(
        location
            .read_within(store.path(), &link)
            .map_err(|error| error.to_string()),
        Err("leads outside its store".to_owned())
    );
    assert_eq!(
        location.read_within(store.path(), &inside).as_deref(),
        Ok(&b"{}".to_vec())
    );
    assert!(!stays_within(store.path(), &store.path().join("../x")));
    assert!(stays_within(
        store.path(),
        &store.path().join("missing/x.json")
    ));
}

#[cfg(unix)]
#[test]
fn a_linked_folder_inside_the_root_is_judged_by_where_it_leads() {
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("b.json"), "{}").expect("write");
    let store = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(store.path().join("real")).expect("mkdir");
    std::fs::write(store.path().join("real/b.json"), "{}").expect("write");
    std::os::unix::fs::symlink(outside.path(), store.path().join("bundles")).expect("symlink");
    std::os::unix::fs::symlink(store.path().join("real"), store.path().join("alias"))
        .expect("symlink");
    assert!(!stays_within(
        store.path(),
        &store.path().join("bundles/b.json")
    ));
    assert!(stays_within(
        store.path(),
        &store.path().join("alias/b.json")
    ));
    assert!(stays_within(
        store.path(),
        &store.path().join("real/b.json")
    ));

    // A root that is itself a link: what is below it stays where it leads.
    let linked_root = outside.path().join("store-link");
    std::os::unix::fs::symlink(store.path(), &linked_root).expect("symlink");
    assert!(stays_within(&linked_root, &linked_root.join("real/b.json")));
    assert!(!stays_within(
        &linked_root,
        &linked_root.join("bundles/b.json")
    ));
}

/// A path spelt as its root and plain names is told from its bytes as its
/// steps tell it, whatever the spelling, links and missing folders.
#[cfg(unix)]
#[test]
fn folders_are_told_from_the_spelling_as_from_the_steps() {
    let outside = tempfile::tempdir().expect("temp dir");
    let store = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(store.path().join("candidates/d")).expect("mkdir");
    std::os::unix::fs::symlink(outside.path(), store.path().join("bundles")).expect("symlink");
    std::fs::write(store.path().join("file.json"), "{}").expect("write");
    let root = store.path().to_str().expect("UTF-8").to_owned();
    let roots = [
        root.clone(),
        format!("{root}/"),
        format!("{root}/."),
        format!("{root}//candidates/.."),
    ];
    let rests = [
        "file.json",
        "candidates/d/record.json",
        "candidates//d/record.json",
        "candidates/./d/record.json",
        "candidates/../file.json",
        "candidates/d/",
        "candidates/missing/record.json",
        "bundles/x.json",
        "file.json/x.json",
        "",
        "..",
    ];
    for root in &roots {
        for rest in rests {
            for path in [format!("{root}/{rest}"), format!("{root}{rest}")] {
                let (root, path) = (Path::new(root), Path::new(&path));
                let unit = super::unit::Unit::default();
                for unit in [None, Some(&unit)] {
                    assert_eq!(
                        folders_stay_within(root, path, unit),
                        folders_stay_within_by_steps(root, path, unit),
                        "{root:?} {path:?}"
                    );
                }
            }
        }
    }
}

/// In a unit, a file's own open tells whether its last step is a link: a
/// plain file read is known to stay inside, a link read is judged by where
/// it leads, and a link out that is not the unit's is refused unopened (a
/// FIFO outside would otherwise be opened).
#[cfg(unix)]
#[test]
fn in_a_unit_the_open_tells_a_link_in_the_last_step() {
    let outside = tempfile::tempdir().expect("temp dir");
    let fifo = outside.path().join("pipe.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    std::fs::write(outside.path().join("secret.json"), "{}").expect("write");
    let store = tempfile::tempdir().expect("temp dir");
    let plain = store.path().join("plain.json");
    std::fs::write(&plain, "{\"a\": 1}").expect("write");
    let alias = store.path().join("alias.json");
    std::os::unix::fs::symlink(&plain, &alias).expect("symlink");
    let out = store.path().join("out.json");
    std::os::unix::fs::symlink(outside.path().join("secret.json"), &out).expect("symlink");
    let to_fifo = store.path().join("to-fifo.json");
    std::os::unix::fs::symlink(&fifo, &to_fifo).expect("symlink");

    let unit = super::unit::Unit::new(
        [plain.clone(), alias.clone(), out.clone()],
        &super::unit::Learning::default(),
    );
    let location = Location::file(&plain, 1024).in_unit(&unit);
    let read = |path: &Path| {
        unit.read(path, 1024)
            .expect("in the unit")
            .map(|(bytes, _)| bytes)
    };
    assert_eq!(read(&plain).as_deref(), Ok(&b"{\"a\": 1}".to_vec()));
    assert!(location.stays_within(store.path(), &plain));
    assert_eq!(
        location.read_within(store.path(), &alias).as_deref(),
        Ok(&b"{\"a\": 1}".to_vec())
    );
    assert!(location.stays_within(store.path(), &alias));
    // Read as a document (links followed), then asked: still outside.
    assert_eq!(read(&out).as_deref(), Ok(&b"{}".to_vec()));
    assert!(!location.stays_within(store.path(), &out));
    assert!(!stays_within(store.path(), &out));
    assert_eq!(
        location
            .read_within(store.path(), &out)
            .map_err(|error| error.to_string()),
        Err("leads outside its store".to_owned())
    );
    assert_eq!(
        location
            .read_within(store.path(), &to_fifo)
            .map_err(|error| error.to_string()),
        Err("leads outside its store".to_owned())
    );
}

/// The descriptor opened is what is checked: a FIFO opens without waiting
/// for a writer and is refused, a device is refused, a regular file is read.
#[cfg(unix)]
#[test]
fn only_a_regular_file_is_read_and_nothing_waits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|status| status.success());
    assert!(made, "mkfifo works");
    let refused = Err(ReadError::Unreadable("not a regular file".to_owned()));
    assert_eq!(read_regular(&fifo, 10), refused);
    assert_eq!(read_regular(Path::new("/dev/zero"), 10), refused);
    assert_eq!(
        read_regular(dir.path(), 10),
        Err(ReadError::Unreadable("is a directory".to_owned()))
    );
    let file = dir.path().join("file");
    std::fs::write(&file, "12345").expect("write");
    assert_eq!(read_regular(&file, 5).as_deref(), Ok(&b"12345"[..]));
    assert_eq!(read_regular(&file, 4), Err(ReadError::TooLarge(4)));
}

/// A file whose metadata says 0 bytes (as under /proc) is still held to
/// the limit by what is read.
#[cfg(target_os = "linux")]
#[test]
fn the_limit_does_not_trust_the_size_the_file_reports() {
    let maps = Path::new("/proc/self/maps");
    assert_eq!(std::fs::metadata(maps).expect("Linux has /proc").len(), 0);
    assert_eq!(read_regular(maps, 16), Err(ReadError::TooLarge(16)));
    assert!(read_regular(maps, 1 << 24).is_ok_and(|bytes| bytes.len() > 16));
}
