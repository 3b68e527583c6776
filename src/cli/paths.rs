//! What to tell a user whose paths found nothing to check: a DIR that does
//! not exist, a file or a folder of documents given where a repository was
//! expected, a tree that holds no `*.yaml` or `*.yml`. The hints go into the
//! read error's note (never the text line, which stays the reference's) and,
//! for the text format, onto standard error.

use std::fs;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::config;
use crate::inputs::CONFIGURATION_TREE;
use crate::text::quote;

/// Most skipped file names a message lists.
const MAX_NAMED: usize = 5;

/// Most entries looked at when telling whether a folder holds documents or
/// what a tree skipped, so a hint costs little on a huge folder.
const MAX_LOOKED_AT: usize = 10_000;

/// The repository `numi validate` checks: DIR as given, but a DIR that is
/// a configuration tree itself (`numi validate .numinance`) stands for the
/// folder that holds it. Without DIR, the current folder, or, when it holds
/// no `.numinance/`, the nearest folder above it that does, as git finds its
/// repository from a subfolder; the search stops at the top of a git
/// repository. A folder found above is named relatively (`../..`), so that
/// the documents keep their names from the repository's top.
pub(super) fn repository_root(given: Option<&Path>) -> PathBuf {
    if let Some(dir) = given {
        let path = dir.to_path_buf();
        let names_a_tree = path
            .file_name()
            .is_some_and(|name| name == CONFIGURATION_TREE);
        if names_a_tree && path.is_dir() && !path.join(CONFIGURATION_TREE).is_dir() {
            return match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                _ => PathBuf::from("."),
            };
        }
        return path;
    }
    let here = PathBuf::from(".");
    if here.join(CONFIGURATION_TREE).is_dir() {
        return here;
    }
    let Ok(current) = std::env::current_dir() else {
        return here;
    };
    found_above(&current).unwrap_or(here)
}

/// The nearest folder above `folder` holding a configuration tree, as a
/// path relative to `folder`, among the folders settings may come from
/// ([`config::folders_upward`]): none past the top of a git repository,
/// and none above a folder outside one.
fn found_above(folder: &Path) -> Option<PathBuf> {
    let mut up = PathBuf::new();
    for ancestor in config::folders_upward(folder).skip(1) {
        up.push("..");
        if ancestor.join(CONFIGURATION_TREE).is_dir() {
            return Some(up);
        }
    }
    None
}

/// Why `numi validate DIR` found no configuration tree, and what to run
/// instead; `None` when DIR holds a `.numinance/` folder.
pub(super) fn repository_hint(root: &Path) -> Option<String> {
    let shown = quote(&root.to_string_lossy());
    let tree = root.join(CONFIGURATION_TREE);
    if tree.is_dir() {
        return None;
    }
    let Ok(metadata) = fs::metadata(root) else {
        return Some(format!("the folder {shown} does not exist"));
    };
    if !metadata.is_dir() {
        return Some(format!(
            "{shown} is a file, not a repository; to check it, use `numi validate --files {}`",
            root.display()
        ));
    }
    if tree.exists() {
        return Some(format!("{shown} holds a .numinance that is not a folder"));
    }
    let init = format!("`numi init {}` starts one", root.display());
    if holds_documents(root) {
        Some(format!(
            "{shown} has no .numinance/ folder, but it holds YAML documents: `numi validate --files {}` checks them; {init}",
            root.display()
        ))
    } else {
        Some(format!("{shown} has no .numinance/ folder; {init}"))
    }
}

/// Whether `folder` holds a `*.yaml` or `*.yml` file anywhere below it.
fn holds_documents(folder: &Path) -> bool {
    WalkDir::new(folder)
        .into_iter()
        .take(MAX_LOOKED_AT)
        .filter_map(Result::ok)
        .any(|entry| entry.file_type().is_file() && is_yaml_name(entry.path()))
}

/// What a run that found nothing skipped under `folders`: files that are
/// not `*.yaml` or `*.yml`, counted, the first few named. `None` when there
/// were none.
pub(super) fn skipped_files(folders: &[&Path]) -> Option<String> {
    let mut names = Vec::new();
    let mut count = 0usize;
    for folder in folders {
        let files = WalkDir::new(folder)
            .sort_by_file_name()
            .into_iter()
            .take(MAX_LOOKED_AT)
            .filter_map(Result::ok)
            .filter(|entry| !entry.file_type().is_dir() && !is_yaml_name(entry.path()));
        for entry in files {
            count += 1;
            if names.len() < MAX_NAMED {
                let relative = entry.path().strip_prefix(folder).unwrap_or(entry.path());
                names.push(quote(&relative.to_string_lossy()));
            }
        }
    }
    if count == 0 {
        return None;
    }
    let files = if count == 1 { "file" } else { "files" };
    let more = count.saturating_sub(names.len());
    let listed = if more > 0 {
        format!("{} and {more} more", names.join(", "))
    } else {
        names.join(", ")
    };
    Some(format!(
        "skipped {count} {files} not named *.yaml or *.yml: {listed}"
    ))
}

fn is_yaml_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension == "yaml" || extension == "yml")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used, clippy::unwrap_used)]

    use std::fs;

    use super::*;

    #[test]
    fn a_tree_is_found_above_up_to_the_top_of_a_git_repository() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("repo/a/b");
        fs::create_dir_all(&deep).unwrap();
        assert_eq!(found_above(&deep), None);
        fs::create_dir(dir.path().join("repo/.numinance")).unwrap();
        // Outside a git repository, nothing above the folder counts.
        assert_eq!(found_above(&deep), None);
        fs::create_dir(dir.path().join("repo/.git")).unwrap();
        assert_eq!(found_above(&deep), Some(PathBuf::from("../..")));
        fs::remove_dir(dir.path().join("repo/.git")).unwrap();
        // A git repository's top ends the search, found or not.
        fs::create_dir(dir.path().join("repo/a/.git")).unwrap();
        assert_eq!(found_above(&deep), None);
        assert_eq!(found_above(&dir.path().join("repo/a")), None);
        fs::create_dir(dir.path().join("repo/.git")).unwrap();
        fs::remove_dir(dir.path().join("repo/a/.git")).unwrap();
        assert_eq!(found_above(&deep), Some(PathBuf::from("../..")));
    }

    #[test]
    fn a_dir_that_is_a_tree_stands_for_its_repository() {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("repo/.numinance");
        fs::create_dir_all(&tree).unwrap();
        assert_eq!(repository_root(Some(&tree)), dir.path().join("repo"));
        let repo = dir.path().join("repo");
        assert_eq!(repository_root(Some(&repo)), repo);
        // A tree inside a folder named `.numinance` is that folder's own.
        fs::create_dir(tree.join(".numinance")).unwrap();
        assert_eq!(repository_root(Some(&tree)), tree);
    }

    #[test]
    fn a_repository_with_a_tree_needs_no_hint() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join(".numinance")).unwrap();
        assert_eq!(repository_hint(dir.path()), None);
    }

    #[test]
    fn each_missing_tree_gets_its_hint() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope");
        assert!(
            repository_hint(&missing)
                .unwrap()
                .ends_with("does not exist")
        );
        let file = dir.path().join("doc.yaml");
        fs::write(&file, "kind: Playbook\n").unwrap();
        assert!(
            repository_hint(&file)
                .unwrap()
                .contains("is a file, not a repository")
        );
        assert!(repository_hint(&file).unwrap().contains("--files"));
        let empty = dir.path().join("empty");
        fs::create_dir(&empty).unwrap();
        let hint = repository_hint(&empty).unwrap();
        assert!(
            hint.contains("numi init") && !hint.contains("--files"),
            "{hint}"
        );
        assert!(repository_hint(dir.path()).unwrap().contains("--files"));
    }

    #[test]
    fn skipped_files_are_counted_and_the_first_named() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(skipped_files(&[dir.path()]), None);
        for name in [
            "a.json", "b.json", "c.txt", "d.json", "e.json", "f.json", "g.yaml",
        ] {
            fs::write(dir.path().join(name), "{}").unwrap();
        }
        assert_eq!(
            skipped_files(&[dir.path()]).unwrap(),
            r#"skipped 6 files not named *.yaml or *.yml: "a.json", "b.json", "c.txt", "d.json", "e.json" and 1 more"#
        );
    }
}
