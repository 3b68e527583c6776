//! The modules of the library stand in layers, each using only the layers
//! below it, so no two top-level modules import each other, directly or
//! round a cycle. This test reads every `crate::` path in the library's
//! non-test code and fails on a use that points up or sideways.

#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Bottom to top. A module may use the modules of lower layers only.
const LAYERS: &[&[&str]] = &[
    // The YAML front end, a crate of its own (`crates/numi-yaml`, seen here
    // as `crate::yaml`): below every module, and Cargo keeps it from using
    // any of them.
    &["yaml"],
    // The one credential detector, and masking secrets in shown text.
    &["secrets"],
    // Shared text helpers (shortening masks a credential before it cuts
    // one), "did you mean", and the diagnostic model.
    &["text", "suggest", "diagnostic"],
    // What a fix is, as kinds declare it: a rule and its repair.
    &["repair"],
    // The one way to read a file beside a document, and the documents a
    // run keeps loaded.
    &["location"],
    // Canonical JSON (RFC 8785, as autocontext computes digests), and every
    // file numi writes, written whole or not at all.
    &["canonical", "whole_file"],
    // Inputs from the command line, the schema stage, document digests,
    // the configuration file.
    &["inputs", "schema", "digest"],
    &["config"],
    // Families and kinds.
    &["kinds"],
    // The rule catalogue: the stages', every kind's, the project's.
    &["rules"],
    // One document.
    &["validate"],
    // What its findings come to: inline suppressions, configured levels.
    &["verdict"],
    // What a run found; the fix engine (one document at a time).
    &["results", "fix"],
    // Many documents, in parallel, in order.
    &["run"],
    // The configuration that holds for a place, checked against the rules.
    &["project"],
    // Renderers.
    &["report"],
    // Writing a starter configuration.
    &["init"],
    // The language server.
    &["lsp"],
    // The command line.
    &["cli"],
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The top-level modules `src/lib.rs` declares.
fn declared_modules() -> Vec<String> {
    let lib = fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs is readable");
    lib.lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("mod "))?;
            Some(rest.trim_end_matches(';').to_owned())
        })
        .collect()
}

/// The Rust files of a top-level module, test files left out.
fn files_of(module: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let single = src().join(format!("{module}.rs"));
    if single.is_file() {
        files.push(single);
    }
    let folder = src().join(module);
    if folder.is_dir() {
        collect(&folder, &mut files);
    }
    files.retain(|path| !is_test_file(path));
    files
}

/// The entries of a source folder, in byte order of their paths.
fn sorted_entries(folder: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(folder)
        .expect("a source folder is readable")
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    entries.sort();
    entries
}

fn collect(folder: &Path, files: &mut Vec<PathBuf>) {
    for path in sorted_entries(folder) {
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

fn is_test_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("");
    name == "tests.rs" || name.ends_with("_tests.rs")
}

/// The code of a file without its comments and its `#[cfg(test)]` items:
/// a test may reach across layers.
fn without_tests(text: &str) -> String {
    let mut kept = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        if line.trim() == "#[cfg(test)]" {
            // Skip the attribute's item: one line (`mod tests;`) or a block.
            let mut depth = 0i32;
            for item_line in lines.by_ref() {
                depth += item_line.matches('{').count() as i32;
                depth -= item_line.matches('}').count() as i32;
                if depth <= 0 && (item_line.trim_end().ends_with(';') || item_line.contains('}')) {
                    break;
                }
            }
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    kept
}

/// The top-level modules a piece of code names through `crate::`.
fn uses_in(code: &str) -> BTreeSet<String> {
    names_after(code, "crate::")
}

/// The first word of each path a piece of code names after `prefix` (a
/// path segment such as `kinds::`, matched at a word's start), grouped
/// uses included: `prefix{a, b::c, d::{e, f}}` names `a`, `b` and `d`.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let starts_a_word = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        rest = &rest[at + prefix.len()..];
        if !starts_a_word {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut entry_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        rest = &group[i..];
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => entry_start = true,
                    c if entry_start && (c.is_ascii_alphabetic() || c == '_') => {
                        let word: String = group[i..]
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        used.insert(word);
                        entry_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !word.is_empty() {
                used.insert(word);
            }
        }
    }
    used
}

#[test]
fn every_top_level_module_has_a_layer() {
    for module in declared_modules() {
        assert!(
            layer_of(&module).is_some(),
            "src/lib.rs declares `{module}`, which tests/integration/layers.rs places in no layer"
        );
    }
}

#[test]
fn modules_use_only_the_layers_below_them() {
    let modules = declared_modules();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for module in &modules {
        let Some(layer) = layer_of(module) else {
            continue;
        };
        for file in files_of(module) {
            let text = fs::read_to_string(&file).expect("source is UTF-8");
            for used in uses_in(&without_tests(&text)) {
                if &used == module || !modules.contains(&used) {
                    continue;
                }
                checked += 1;
                match layer_of(&used) {
                    Some(below) if below < layer => {}
                    _ => wrong.push(format!(
                        "{} uses crate::{used}, which is not below `{module}`",
                        file.strip_prefix(src()).unwrap_or(&file).display()
                    )),
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} uses found: the scan is broken"
    );
    assert!(
        wrong.is_empty(),
        "uses against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_scan_sees_grouped_and_nested_uses_and_skips_tests() {
    let code = "//! see crate::report\nuse crate::{text::quote, yaml::{self, Limits}};\nuse crate::kinds::Kind;\nlet x = crate::run::check();\n#[cfg(test)]\nmod tests {\n    use crate::cli;\n}\n";
    let used: Vec<String> = uses_in(&without_tests(code)).into_iter().collect();
    assert_eq!(used, ["kinds", "run", "text", "yaml"]);
}

/// The modules `src/kinds/mod.rs` declares for its families and kinds:
/// every one but `checks`, the helpers the run's checks across documents
/// share with the kinds.
fn family_modules() -> Vec<String> {
    let registry =
        fs::read_to_string(src().join("kinds/mod.rs")).expect("src/kinds/mod.rs is readable");
    without_tests(&registry)
        .lines()
        .filter_map(|line| {
            let (_, name) = line.trim().split_once("mod ")?;
            let name = name.strip_suffix(';')?;
            (name != "checks").then(|| name.to_owned())
        })
        .collect()
}

#[test]
fn the_family_scan_sees_paths_and_grouped_uses() {
    let code = "use crate::kinds::{self, evalset::catalogue, Kind};
let x = crate::kinds::autocontext::FAMILY;
let y = my_kinds::playbook;
#[cfg(test)]
mod tests {
    use crate::kinds::events;
}
";
    let named: Vec<String> = names_after(&without_tests(code), "kinds::")
        .into_iter()
        .collect();
    assert_eq!(named, ["Kind", "autocontext", "evalset", "self"]);
}

#[test]
fn no_family_module_is_named_outside_kinds_and_cli() {
    // Outside the registry and the command line, families are reached
    // through `kinds::FAMILIES` and what it exports, so a family's
    // knowledge stays in its folder.
    let families = family_modules();
    for expected in [
        "autocontext",
        "context_report",
        "context_bundle",
        "evalset",
        "events",
        "numinance",
        "playbook",
    ] {
        assert!(
            families.iter().any(|family| family == expected),
            "{expected} is not among the family modules read from src/kinds/mod.rs: {families:?}"
        );
    }
    let mut files = Vec::new();
    collect(&src(), &mut files);
    files.retain(|path| {
        !is_test_file(path)
            && !path.starts_with(src().join("kinds"))
            && !path.starts_with(src().join("cli"))
    });
    assert!(files.len() > 30, "only {} files scanned", files.len());
    let mut wrong = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("source is UTF-8");
        for named in names_after(&without_tests(&text), "kinds::") {
            if families.contains(&named) {
                wrong.push(format!(
                    "{} names kinds::{named}",
                    file.strip_prefix(src()).unwrap_or(file).display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "family modules named outside src/kinds/ and src/cli/:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_kind_is_named_outside_its_folder() {
    // A kind's name in a string literal outside its folder is a match or a
    // comparison that belongs in the folder.
    let mut files = Vec::new();
    collect(&src(), &mut files);
    files.retain(|path| !is_test_file(path));
    let mut wrong = Vec::new();
    let mut folders = 0;
    for kind in numi::kinds::all() {
        let literal = format!("\"{}\"", kind.name);
        let definition = format!("name: {literal},");
        let home: Vec<&PathBuf> = files
            .iter()
            .filter(|file| fs::read_to_string(file).is_ok_and(|text| text.contains(&definition)))
            .collect();
        let [home] = home.as_slice() else {
            panic!("{} is defined in {} files: {home:?}", kind.name, home.len());
        };
        let folder = home.parent().expect("a kind's file has a folder");
        folders += 1;
        for file in &files {
            if file.starts_with(folder) {
                continue;
            }
            let text = fs::read_to_string(file).expect("source is UTF-8");
            if without_tests(&text).contains(&literal) {
                wrong.push(format!("{} names {literal}", file.display()));
            }
        }
    }
    assert!(folders >= 4, "only {folders} kinds found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The YAML crate's folder.
fn yaml_crate() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/numi-yaml")
}

#[test]
fn the_yaml_crate_depends_on_no_other_member() {
    let manifest =
        fs::read_to_string(yaml_crate().join("Cargo.toml")).expect("its Cargo.toml is readable");
    let manifest: toml::Table = manifest.parse().expect("its Cargo.toml is TOML");
    let mut named = 0;
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(dependencies) = manifest.get(section).and_then(toml::Value::as_table) else {
            continue;
        };
        for (name, how) in dependencies {
            named += 1;
            let local = how
                .as_table()
                .is_some_and(|how| how.contains_key("path") || how.contains_key("workspace"));
            assert!(!local, "crates/numi-yaml depends on a member: {name}");
        }
    }
    assert!(named >= 3, "only {named} dependencies read");
}

#[test]
fn the_yaml_crate_names_no_family() {
    let mut files = Vec::new();
    collect(&yaml_crate().join("src"), &mut files);
    assert!(files.len() > 10, "only {} files scanned", files.len());
    // Every kind, by its schema's name, and the families' own words.
    let mut names: Vec<String> =
        fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas"))
            .expect("schemas/ is readable")
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                let kind = name.strip_suffix(".schema.json")?;
                // The schemas of numi's own files are no kind.
                kind.starts_with(char::is_uppercase)
                    .then(|| kind.to_owned())
            })
            .collect();
    assert!(names.len() > 10, "only {} kinds read", names.len());
    names.extend(
        [
            "autocontext",
            "context-report",
            "context_report",
            "numinance",
        ]
        .map(str::to_owned),
    );
    let mut wrong = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file)
            .expect("source is UTF-8")
            .to_lowercase();
        for name in &names {
            if text.contains(&name.to_lowercase()) {
                wrong.push(format!("{} names {name}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The modules of a folder of `src/kinds/` (a family's kinds and the
/// modules they share; a kind's own modules): each module's name, and the
/// non-test files that make it up, each with how deep it stands below the
/// folder (`a.rs` and `a/mod.rs` one, `a/b.rs` two).
fn modules_of_folder(folder: &Path) -> Vec<(String, Vec<(PathBuf, usize)>)> {
    let mut modules: Vec<(String, Vec<(PathBuf, usize)>)> = Vec::new();
    for path in sorted_entries(folder) {
        let Some(stem) = path.file_stem().and_then(|stem| stem.to_str()) else {
            continue;
        };
        let mut files = Vec::new();
        if path.is_dir() {
            let mut inside = Vec::new();
            collect(&path, &mut inside);
            for file in inside {
                let steps = file
                    .strip_prefix(&path)
                    .map_or(0, |rest| rest.components().count());
                let depth = if file.file_name().is_some_and(|name| name == "mod.rs") {
                    steps
                } else {
                    steps + 1
                };
                files.push((file, depth));
            }
        } else if path.extension().is_some_and(|ext| ext == "rs") && stem != "mod" {
            files.push((path.clone(), 1));
        }
        files.retain(|(file, _)| !is_test_file(file));
        if files.is_empty() {
            continue;
        }
        match modules.iter_mut().find(|(name, _)| name == stem) {
            Some((_, known)) => known.extend(files),
            None => modules.push((stem.to_owned(), files)),
        }
    }
    modules
}

/// A cycle among `uses` (each module with the modules it uses), if there
/// is one: the modules round it, the first repeated at the end.
fn a_cycle(uses: &[(String, BTreeSet<String>)]) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        uses: &[(String, BTreeSet<String>)],
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|seen| seen == module) {
            let mut cycle = path[at..].to_vec();
            cycle.push(module.to_owned());
            return Some(cycle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        let used = uses
            .iter()
            .find(|(name, _)| name == module)
            .map(|(_, used)| used.clone())
            .unwrap_or_default();
        for next in &used {
            if let Some(cycle) = visit(next, uses, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    uses.iter()
        .find_map(|(module, _)| visit(module, uses, &mut Vec::new(), &mut done))
}

#[test]
fn the_modules_of_a_family_use_each_other_without_a_cycle() {
    // Within a family (and within a kind), what several modules need
    // stands below them all: no two modules of one folder import each
    // other, directly or round a cycle.
    let kinds = src().join("kinds");
    let mut folders = vec![kinds.clone()];
    let mut found = 0;
    while let Some(folder) = folders.pop() {
        let modules = modules_of_folder(&folder);
        let names: BTreeSet<&str> = modules.iter().map(|(name, _)| name.as_str()).collect();
        let folder_path = folder
            .strip_prefix(src())
            .unwrap_or(&folder)
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("::");
        let mut uses = Vec::new();
        for (module, files) in &modules {
            let mut used = BTreeSet::new();
            for (file, depth) in files {
                let code = without_tests(&fs::read_to_string(file).expect("source is UTF-8"));
                for prefix in ["super::".repeat(*depth), format!("crate::{folder_path}::")] {
                    used.extend(
                        names_after(&code, &prefix)
                            .into_iter()
                            .filter(|name| name != module && names.contains(name.as_str())),
                    );
                }
            }
            found += used.len();
            uses.push((module.clone(), used));
            let inner = folder.join(module);
            if inner.is_dir() {
                folders.push(inner);
            }
        }
        if let Some(cycle) = a_cycle(&uses) {
            panic!(
                "the modules of src/{} use each other round a cycle: {}",
                folder.strip_prefix(src()).unwrap_or(&folder).display(),
                cycle.join(" -> ")
            );
        }
    }
    assert!(found > 50, "only {found} uses found: the scan is broken");
}
