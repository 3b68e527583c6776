//! Which files a run reads, under which display names, in which order.
//! Nothing here reads a file's content.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::autocontext_store;
use crate::location::io_reason;

/// The folder that holds a repository's configuration tree.
pub const CONFIGURATION_TREE: &str = ".numinance";

/// Where a document comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Path(PathBuf),
    Stdin,
}

/// One entry of a run, in report order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub display_name: String,
    /// The path as given, `/` separated: with `--files`, the argument (joined
    /// with the path inside a folder argument); in a repository, the path
    /// relative to DIR. Machine formats locate files by it.
    pub path: String,
    /// The file to read, or why there is none to read.
    pub source: Result<Source, String>,
}

/// The inputs of `numi validate --files PATH...`: arguments in the order
/// given; within a folder, by display name in byte order.
pub fn from_arguments(arguments: &[String]) -> Vec<Input> {
    let mut inputs = Vec::new();
    let mut stdin_taken = false;
    for argument in arguments {
        if argument == "-" {
            // Standard input holds one document and can be read only once.
            let source = if stdin_taken {
                Err(STDIN_ALREADY_READ.to_owned())
            } else {
                Ok(Source::Stdin)
            };
            stdin_taken = true;
            inputs.push(Input {
                display_name: "-".to_owned(),
                path: "-".to_owned(),
                source,
            });
            continue;
        }
        let path = Path::new(argument);
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                inputs.extend(walk(path, path, Some(argument), None))
            }
            Ok(metadata) => inputs.push(file_input(
                file_display_name(path),
                slashed(argument),
                path,
                &metadata,
            )),
            Err(error) => inputs.push(Input {
                display_name: file_display_name(path),
                path: slashed(argument),
                source: Err(io_reason(&error)),
            }),
        }
    }
    inputs
}

/// Why a second `-` is not read.
pub const STDIN_ALREADY_READ: &str = "standard input is read once (- is given more than once)";

/// Why a link in the configuration tree is not followed.
pub const OUTSIDE_THE_REPOSITORY: &str = "the link leads outside the repository";

/// The inputs of `numi validate [DIR]`: the configuration tree
/// `DIR/.numinance/`, with display names relative to DIR. Links are followed
/// only while they stay inside DIR: a pull request must not make numi read
/// files elsewhere on the machine that runs it.
pub fn from_repository(root: &Path) -> Vec<Input> {
    let tree = root.join(CONFIGURATION_TREE);
    let confine = fs::canonicalize(root).ok();
    match fs::metadata(&tree) {
        Ok(metadata) if metadata.is_dir() => walk(&tree, root, None, confine.as_deref()),
        Ok(_) => vec![Input {
            display_name: CONFIGURATION_TREE.to_owned(),
            path: CONFIGURATION_TREE.to_owned(),
            source: Err("not a directory".to_owned()),
        }],
        Err(error) => vec![Input {
            display_name: CONFIGURATION_TREE.to_owned(),
            path: CONFIGURATION_TREE.to_owned(),
            source: Err(io_reason(&error)),
        }],
    }
}

/// Every `*.yaml` and `*.yml` under `folder`, and the JSON files numi
/// verifies in an autocontext store there (following links to folders,
/// with loops reported), named relative to `base`; paths as given start
/// with `argument` when the folder was one. With `confine`, a link that
/// resolves outside that (canonical) folder is reported, not followed.
fn walk(folder: &Path, base: &Path, argument: Option<&str>, confine: Option<&Path>) -> Vec<Input> {
    let given = |display_name: &str| match argument {
        Some(argument) => join_given(argument, display_name),
        None => display_name.to_owned(),
    };
    let mut inputs = Vec::new();
    let mut entries = WalkDir::new(folder).follow_links(true).into_iter();
    while let Some(entry) = entries.next() {
        match entry {
            Ok(entry) => {
                let is_dir = entry.file_type().is_dir();
                if !is_dir
                    && !is_yaml_name(entry.path())
                    && !autocontext_store::is_verified_store_file(entry.path())
                {
                    continue;
                }
                if let Some(root) = confine {
                    if (entry.depth() == 0 || entry.path_is_symlink())
                        && leads_outside(entry.path(), root)
                    {
                        if is_dir {
                            entries.skip_current_dir();
                        }
                        let display_name = relative_name(entry.path(), base);
                        inputs.push(Input {
                            path: given(&display_name),
                            display_name,
                            source: Err(OUTSIDE_THE_REPOSITORY.to_owned()),
                        });
                        continue;
                    }
                }
                if is_dir {
                    continue;
                }
                let display_name = relative_name(entry.path(), base);
                let path = given(&display_name);
                match entry.metadata() {
                    Ok(metadata) => {
                        inputs.push(file_input(display_name, path, entry.path(), &metadata));
                    }
                    Err(error) => inputs.push(Input {
                        display_name,
                        path,
                        source: Err(walk_reason(&error)),
                    }),
                }
            }
            Err(error) => {
                let Some(path) = error.path() else { continue };
                if is_dangling_other(&error, path) {
                    continue;
                }
                let display_name = relative_name(path, base);
                inputs.push(Input {
                    path: given(&display_name),
                    display_name,
                    source: Err(walk_reason(&error)),
                });
            }
        }
    }
    inputs.sort_by(|a, b| a.display_name.as_bytes().cmp(b.display_name.as_bytes()));
    inputs
}

/// Whether `path`, links resolved, lies outside `root` (already canonical).
fn leads_outside(path: &Path, root: &Path) -> bool {
    fs::canonicalize(path).is_ok_and(|resolved| !resolved.starts_with(root))
}

/// A link to nothing whose name is not a YAML name: were it there, it would
/// be skipped like any other file, so its absence does not fail the run.
fn is_dangling_other(error: &walkdir::Error, path: &Path) -> bool {
    error.loop_ancestor().is_none()
        && !is_yaml_name(path)
        && error
            .io_error()
            .is_some_and(|io_error| io_error.kind() == io::ErrorKind::NotFound)
        && fs::symlink_metadata(path).is_ok_and(|metadata| metadata.file_type().is_symlink())
}

fn file_input(display_name: String, given: String, path: &Path, metadata: &fs::Metadata) -> Input {
    let source = if metadata.is_file() {
        Ok(Source::Path(path.to_path_buf()))
    } else {
        Err("not a regular file".to_owned())
    };
    Input {
        display_name,
        path: given,
        source,
    }
}

fn is_yaml_name(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}

/// A file argument shows its own file name.
fn file_display_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string_lossy().into_owned())
}

/// A folder argument joined with a `/` separated path inside it.
fn join_given(argument: &str, inside: &str) -> String {
    let argument = slashed(argument);
    if argument.is_empty() || argument.ends_with('/') {
        format!("{argument}{inside}")
    } else {
        format!("{argument}/{inside}")
    }
}

/// A path as typed, with the platform's separators written as `/`.
fn slashed(path: &str) -> String {
    if std::path::MAIN_SEPARATOR == '/' {
        path.to_owned()
    } else {
        path.replace(std::path::MAIN_SEPARATOR, "/")
    }
}

/// `path` relative to `base`, with `/` separators.
fn relative_name(path: &Path, base: &Path) -> String {
    let relative = path.strip_prefix(base).unwrap_or(path);
    let parts: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

fn walk_reason(error: &walkdir::Error) -> String {
    if error.loop_ancestor().is_some() {
        return "too many levels of symbolic links (a folder loop)".to_owned();
    }
    match error.io_error() {
        Some(io_error) => io_reason(io_error),
        None => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(inputs: &[Input]) -> Vec<(&str, &str)> {
        inputs
            .iter()
            .map(|input| (input.display_name.as_str(), input.path.as_str()))
            .collect()
    }

    #[test]
    fn paths_as_given_keep_the_argument_and_join_the_path_inside_a_folder() {
        let temp = tempfile::tempdir().expect("tempdir");
        let folder = temp.path().join("conf");
        fs::create_dir_all(folder.join("sub")).expect("mkdir");
        fs::write(folder.join("sub/a.yaml"), "").expect("write");
        fs::write(folder.join("b.yml"), "").expect("write");
        let folder_argument = folder.to_string_lossy().into_owned();
        let file_argument = folder.join("b.yml").to_string_lossy().into_owned();
        let inputs = from_arguments(&[
            folder_argument.clone(),
            format!("{folder_argument}/"),
            file_argument.clone(),
            "missing.yaml".to_owned(),
            "-".to_owned(),
        ]);
        let in_folder = |name: &str| format!("{folder_argument}/{name}");
        assert_eq!(
            paths(&inputs),
            vec![
                ("b.yml", in_folder("b.yml").as_str()),
                ("sub/a.yaml", in_folder("sub/a.yaml").as_str()),
                ("b.yml", in_folder("b.yml").as_str()),
                ("sub/a.yaml", in_folder("sub/a.yaml").as_str()),
                ("b.yml", file_argument.as_str()),
                ("missing.yaml", "missing.yaml"),
                ("-", "-"),
            ]
        );
    }

    #[test]
    fn paths_in_a_repository_are_relative_to_it() {
        let temp = tempfile::tempdir().expect("tempdir");
        let tree = temp.path().join(CONFIGURATION_TREE).join("policy");
        fs::create_dir_all(&tree).expect("mkdir");
        fs::write(tree.join("p.yaml"), "").expect("write");
        let inputs = from_repository(temp.path());
        assert_eq!(
            paths(&inputs),
            vec![(".numinance/policy/p.yaml", ".numinance/policy/p.yaml")]
        );
        let missing = from_repository(&temp.path().join("nowhere"));
        assert_eq!(paths(&missing), vec![(".numinance", ".numinance")]);
    }

    #[test]
    fn a_folder_argument_joins_with_one_slash() {
        assert_eq!(join_given("conf", "a.yaml"), "conf/a.yaml");
        assert_eq!(join_given("conf/", "a.yaml"), "conf/a.yaml");
        assert_eq!(join_given(".", "a.yaml"), "./a.yaml");
    }
}
