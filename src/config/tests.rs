use std::path::Path;

use super::*;

const FULL: &str = r#"
enable-alpha = true
strict = true
exclude = ["drafts/**"]
select = ["playbook", "evalset/"]
ignore = ["evalset/version"]
baseline = "numi-baseline.json"

[rules]
"evalset/cases-sorted" = "warning"
"playbook/min-runs" = "off"

[[overrides]]
paths = [".numinance/legacy/**"]
rules = { "evalset/cases-sorted" = "off", "playbook/min-runs" = "error" }
"#;

/// What `parse` says of `text`: nothing, or the message a user reads.
fn refusal(text: &str) -> Result<(), String> {
    parse(text).map(|_| ()).map_err(|error| error.to_string())
}

#[test]
fn a_full_configuration_is_read() {
    let config = parse(FULL).expect("valid");
    assert_eq!(config.enable_alpha, Some(true));
    assert_eq!(config.strict, Some(true));
    assert_eq!(config.exclude, ["drafts/**"]);
    assert_eq!(
        config.selection,
        RuleSelection {
            select: Some(vec!["playbook".to_owned(), "evalset/".to_owned()]),
            ignore: vec!["evalset/version".to_owned()],
        }
    );
    assert_eq!(config.baseline.as_deref(), Some("numi-baseline.json"));
    assert_eq!(
        config.rules,
        [
            ("evalset/cases-sorted".to_owned(), Level::Warning),
            ("playbook/min-runs".to_owned(), Level::Off)
        ]
    );
    let ids: Vec<&str> = config.rule_ids().collect();
    assert_eq!(
        ids,
        [
            "evalset/cases-sorted",
            "playbook/min-runs",
            "evalset/cases-sorted",
            "playbook/min-runs"
        ]
    );
}

#[test]
fn an_empty_file_sets_nothing() {
    let config = parse("").expect("valid");
    assert_eq!(config.enable_alpha, None);
    assert_eq!(config.strict, None);
    assert!(config.policy(Path::new(".")).expect("compiles").is_empty());
}

#[test]
fn unknown_keys_are_refused_with_the_nearest_known_one() {
    assert_eq!(
        refusal("strcit = true"),
        Err("unknown key \"strcit\" (did you mean \"strict\"?) at line 1 column 1".to_owned())
    );
    assert_eq!(
        refusal("[[overrides]]\npath = [\"a\"]"),
        Err(
            "unknown key \"overrides[0].path\" (did you mean \"overrides[0].paths\"?) at line 2 column 1"
                .to_owned()
        )
    );
    assert_eq!(
        refusal("colour = 1"),
        Err("unknown key \"colour\" at line 1 column 1".to_owned())
    );
}

#[test]
fn wrong_values_are_refused_with_where_they_are() {
    assert_eq!(
        refusal("strict = \"yes\""),
        Err(
            "strict: invalid type: string \"yes\", expected a boolean at line 1 column 10"
                .to_owned()
        )
    );
    assert_eq!(
        refusal("[rules]\n\"a/b\" = \"loud\""),
        Err(
            "rules.a/b: unknown variant `loud`, expected one of `off`, `warning`, `error` at line 2 column 9"
                .to_owned()
        )
    );
    assert_eq!(
        refusal("exclude = [\"a/{b\"]").map_err(|e| e.starts_with("exclude[0]: \"a/{b\"")),
        Err(true)
    );
    assert_eq!(
        refusal("[[overrides]]\nrules = {}"),
        Err("overrides[0]: missing field `paths` at line 1 column 1".to_owned())
    );
    let syntax = refusal("strict = ").expect_err("not TOML");
    assert!(syntax.ends_with("at line 1 column 10"), "{syntax}");
}

#[test]
fn patterns_are_bounded_in_number_and_length() {
    let at_most: Vec<String> = (0..MAX_PATTERNS).map(|i| format!("\"a{i}\"")).collect();
    let text = format!("exclude = [{}]", at_most.join(","));
    assert!(parse(&text).is_ok());
    // The count holds for the file: exclude and overrides together.
    let text = format!("{text}\n[[overrides]]\npaths = [\"b\"]");
    assert_eq!(
        refusal(&text),
        Err(format!(
            "overrides[0].paths[0]: more than {MAX_PATTERNS} patterns in the file (exclude and overrides' paths together)"
        ))
    );
    let long = "a".repeat(MAX_PATTERN_LENGTH);
    assert!(parse(&format!("exclude = [\"{long}\"]")).is_ok());
    assert_eq!(
        refusal(&format!("exclude = [\"x\", \"{long}b\"]")),
        Err(format!(
            "exclude[1]: a pattern of {} bytes, longer than the {MAX_PATTERN_LENGTH} a pattern may have",
            MAX_PATTERN_LENGTH + 1
        ))
    );
}

#[test]
fn levels_follow_rules_then_the_overrides_of_the_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join(FILE_NAME);
    std::fs::write(&file, FULL).expect("write");
    let config = load(&file).expect("valid");
    let policy = config.policy(dir.path()).expect("compiles");
    let legacy = Path::new(".numinance/legacy/old.yaml");
    let current = Path::new(".numinance/policy/new.yaml");
    assert_eq!(
        policy.level("evalset/cases-sorted", current),
        Some(Level::Warning)
    );
    assert_eq!(
        policy.level("evalset/cases-sorted", legacy),
        Some(Level::Off)
    );
    assert_eq!(policy.level("playbook/min-runs", current), Some(Level::Off));
    assert_eq!(
        policy.level("playbook/min-runs", legacy),
        Some(Level::Error)
    );
    assert_eq!(policy.level("evalset/case-name", legacy), None);
    assert!(policy.excludes(Path::new("drafts/a.yaml")));
    assert!(policy.excludes(Path::new("./drafts/deep/b.yaml")));
    assert!(!policy.excludes(current));
    // A path outside the configuration's folder matches no glob.
    assert!(!policy.excludes(Path::new("../drafts/a.yaml")));
}

#[test]
fn the_file_is_found_upward_and_not_past_the_repository_root() {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    let deep = repo.join("a/b");
    std::fs::create_dir_all(&deep).expect("mkdir");
    std::fs::create_dir(repo.join(".git")).expect("mkdir");
    assert_eq!(discover(&deep), None);
    // Above the repository root: not the repository's.
    std::fs::write(dir.path().join(FILE_NAME), "").expect("write");
    assert_eq!(discover(&deep), None);
    std::fs::write(repo.join(FILE_NAME), "").expect("write");
    let found = discover(&deep).expect("found");
    assert_eq!(
        std::fs::canonicalize(found).expect("exists"),
        std::fs::canonicalize(repo.join(FILE_NAME)).expect("exists")
    );
}

#[test]
fn outside_a_git_repository_only_the_folder_itself_is_read() {
    // A file planted in a shared parent (a temporary folder) decides
    // nothing for the folders below it.
    let dir = tempfile::tempdir().expect("temp dir");
    let deep = dir.path().join("project/a");
    std::fs::create_dir_all(&deep).expect("mkdir");
    std::fs::write(dir.path().join(FILE_NAME), "select = []\n").expect("write");
    std::fs::write(dir.path().join("project").join(FILE_NAME), "").expect("write");
    assert_eq!(discover(&deep), None);
    assert_eq!(
        discover(&dir.path().join("project")).map(|found| found.ends_with("project/numi.toml")),
        Some(true)
    );
    let folders: Vec<&Path> = folders_upward(&deep).collect();
    assert_eq!(folders, [deep.as_path()]);
}

#[test]
fn the_shipped_schema_accepts_what_the_reader_accepts() {
    let schema: serde_json::Value = serde_json::from_str(SCHEMA).expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("compiles");
    let full: toml::Table = FULL.parse().expect("TOML");
    let as_json = serde_json::to_value(&full).expect("converts");
    assert!(validator.is_valid(&as_json));
    let typo: toml::Table = "strcit = true".parse().expect("TOML");
    assert!(!validator.is_valid(&serde_json::to_value(&typo).expect("converts")));
    // Every key may be left out.
    for text in ["", "ignore = [\"playbook\"]", "baseline = \"b.json\""] {
        let file: toml::Table = text.parse().expect("TOML");
        let as_json = serde_json::to_value(&file).expect("converts");
        assert!(validator.is_valid(&as_json), "{text}");
        assert!(parse(text).is_ok(), "{text}");
    }
}

fn selection(select: Option<&[&str]>, ignore: &[&str]) -> RuleSelection {
    let owned = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    RuleSelection {
        select: select.map(owned),
        ignore: owned(ignore),
    }
}

#[test]
fn a_selector_names_a_rule_by_its_id_or_its_family() {
    let only = |selector: &str| selection(Some(&[selector]), &[]);
    for selector in ["playbook/min-runs", "playbook", "playbook/"] {
        assert!(only(selector).runs("playbook/min-runs", true), "{selector}");
        assert!(!only(selector).runs("evalset/version", true), "{selector}");
    }
    // A family is the whole part before the `/`, never a prefix of it.
    assert!(!only("play").runs("playbook/min-runs", true));
    assert!(!only("playbook/min").runs("playbook/min-runs", true));
    assert!(!only("").runs("playbook/min-runs", true));
}

#[test]
fn the_more_specific_selector_wins_and_an_ignore_at_equal_specificity() {
    let rule = "playbook/min-runs";
    assert!(selection(Some(&["playbook/min-runs"]), &["playbook"]).runs(rule, true));
    assert!(!selection(Some(&["playbook"]), &["playbook/min-runs"]).runs(rule, true));
    assert!(!selection(Some(&["playbook"]), &["playbook"]).runs(rule, true));
    assert!(!selection(None, &["playbook"]).runs(rule, true));
    assert!(selection(None, &["evalset"]).runs(rule, true));
}

#[test]
fn a_layer_with_select_replaces_those_below_and_one_without_refines_them() {
    let rule = "playbook/min-runs";
    // What the layers below decided holds where a layer says nothing.
    assert!(!selection(None, &["evalset"]).runs(rule, false));
    assert!(RuleSelection::default().runs(rule, true));
    // A layer with select decides alone.
    assert!(selection(Some(&["playbook"]), &[]).runs(rule, false));
    assert!(!selection(Some(&["evalset"]), &[]).runs(rule, true));
}

#[test]
fn select_and_ignore_in_the_file_hold_under_the_command_line() {
    let config = parse("select = [\"playbook\", \"evalset\"]\nignore = [\"evalset/version\"]\n")
        .expect("valid");
    let mut policy = config.policy(Path::new(".")).expect("compiles");
    assert!(!policy.is_empty());
    let at = Path::new("a.yaml");
    assert_eq!(policy.level("playbook/min-runs", at), None);
    assert_eq!(policy.level("evalset/version", at), Some(Level::Off));
    assert_eq!(
        policy.level("bundle/context-generation", at),
        Some(Level::Off)
    );
    // --ignore refines the file's selection.
    let mut ignoring = policy.clone();
    ignoring.select(selection(None, &["playbook"]));
    assert_eq!(ignoring.level("playbook/min-runs", at), Some(Level::Off));
    assert_eq!(ignoring.level("evalset/cases-sorted", at), None);
    // --select replaces it, the file's ignore with it.
    policy.select(selection(Some(&["evalset"]), &[]));
    assert_eq!(policy.level("evalset/version", at), None);
    assert_eq!(policy.level("playbook/min-runs", at), Some(Level::Off));
}

#[test]
fn an_ignored_rule_is_off_whatever_level_the_file_sets() {
    let config = parse("ignore = [\"playbook\"]\n[rules]\n\"playbook/min-runs\" = \"error\"\n")
        .expect("valid");
    let policy = config.policy(Path::new(".")).expect("compiles");
    assert_eq!(
        policy.level("playbook/min-runs", Path::new("a.yaml")),
        Some(Level::Off)
    );
}

#[test]
fn a_path_pattern_means_the_same_as_an_exclude_and_as_an_override() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join(FILE_NAME);
    std::fs::write(
        &file,
        "exclude = [\".numinance/legacy/*.yaml\"]\n\n[[overrides]]\npaths = [\".numinance/legacy/*.yaml\"]\nrules = { \"playbook/min-runs\" = \"off\" }\n",
    )
    .expect("write");
    let policy = load(&file)
        .expect("valid")
        .policy(dir.path())
        .expect("compiles");
    for (path, matched) in [
        (".numinance/legacy/a.yaml", true),
        // `*` stays within one folder in both.
        (".numinance/legacy/a/b.yaml", false),
        (".numinance/other/a.yaml", false),
    ] {
        let path = Path::new(path);
        assert_eq!(policy.excludes(path), matched, "{path:?}");
        assert_eq!(
            policy.level("playbook/min-runs", path) == Some(Level::Off),
            matched,
            "{path:?}"
        );
    }
}

#[test]
fn the_resolved_selection_agrees_with_the_layers_read_one_by_one() {
    // Every combination of up to two layers drawn from these selectors,
    // on rules named by id, by family, by neither, and odd names.
    let selectors = [
        "playbook",
        "playbook/",
        "playbook/min-runs",
        "evalset",
        "evalset/version",
        "",
        "/",
        "play",
        "playbook/min",
    ];
    let rules = [
        "playbook/min-runs",
        "playbook/rate-bound",
        "evalset/version",
        "evalset/cases-sorted",
        "bundle/digest",
        "playbook",
        "/x",
        "x",
        "",
    ];
    // A small deterministic generator: the same layers on every run.
    let state = std::cell::Cell::new(0x9e37_79b9_7f4a_7c15_u64);
    let next = || {
        state.set(
            state
                .get()
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407),
        );
        state.get() >> 33
    };
    let pick = |n: u64| -> Vec<String> {
        (0..next() % n)
            .map(|_| selectors[(next() % selectors.len() as u64) as usize].to_owned())
            .collect()
    };
    for _ in 0..5_000 {
        let layers: Vec<RuleSelection> = (0..next() % 3)
            .map(|_| RuleSelection {
                select: (next() % 2 == 0).then(|| pick(4)),
                ignore: pick(4),
            })
            .filter(|layer| !layer.is_empty())
            .collect();
        let resolved = Selected::new(&layers);
        for rule in rules {
            let read = layers
                .iter()
                .fold(true, |below, layer| layer.runs(rule, below));
            assert_eq!(resolved.runs(rule), read, "{rule} under {layers:?}");
        }
    }
}

#[test]
fn a_finding_costs_one_look_whatever_the_number_of_selectors() {
    // 90,000 ignore entries: 90 families and 1,000 ids, named over and over.
    let ignore: Vec<String> = (0..90_000)
        .map(|i| {
            if i % 2 == 0 {
                format!("family{}", (i / 2) % 90)
            } else {
                let id = (i / 2) % 1_000;
                format!("family{}/rule{id}", id % 90)
            }
        })
        .collect();
    let distinct = ignore.iter().collect::<HashSet<_>>().len();
    assert_eq!(distinct, 1_090);
    let config = Config {
        selection: RuleSelection {
            select: None,
            ignore,
        },
        ..Config::default()
    };
    take_looks();
    let mut policy = config.policy(Path::new(".")).expect("compiles");
    // Made once: a look for each distinct id and each family named (a
    // family's name counts as an id too), and one for the rest.
    let made = 1_000 + 2 * 90 + 1;
    assert_eq!(take_looks(), made);
    let at = Path::new("a.yaml");
    for _ in 0..2_000 {
        assert_eq!(policy.level("playbook/min-runs", at), None);
        assert_eq!(policy.level("family7/x", at), Some(Level::Off));
    }
    assert_eq!(take_looks(), 4_000);
    // A layer added over it: the table is made again, for both layers.
    policy.select(RuleSelection {
        select: Some(vec!["family7".to_owned()]),
        ignore: Vec::new(),
    });
    assert_eq!(take_looks(), 2 * made);
    assert_eq!(policy.level("family7/x", at), None);
    assert_eq!(policy.level("playbook/min-runs", at), Some(Level::Off));
    assert_eq!(take_looks(), 2);
}

#[test]
fn a_configuration_refused_reads_as_before() {
    let path = std::path::PathBuf::from("conf/numi.toml");
    let error = |problem| {
        ConfigError {
            path: path.clone(),
            problem,
        }
        .to_string()
    };
    assert_eq!(
        error(Problem::TooLarge(MAX_CONFIG_SIZE)),
        "conf/numi.toml: the file is larger than 1 MiB, the most a configuration may hold"
    );
    assert_eq!(
        error(Problem::NotUtf8),
        "conf/numi.toml: the file is not UTF-8"
    );
    assert_eq!(
        error(Problem::Unreadable("Is a directory".to_owned())),
        "conf/numi.toml: Is a directory"
    );
    assert_eq!(
        error(Problem::Parse(parse("colour = 1").unwrap_err())),
        "conf/numi.toml: unknown key \"colour\" at line 1 column 1"
    );
    let reason = PathPatterns::check("a[").unwrap_err();
    let refused = |file: Option<std::path::PathBuf>| {
        PolicyError {
            file,
            at: "exclude[2]".to_owned(),
            reason: reason.clone(),
        }
        .to_string()
    };
    assert_eq!(
        refused(Some(path.clone())),
        format!("conf/numi.toml: exclude[2]: {}", reason.reason)
    );
    assert_eq!(refused(None), format!("exclude[2]: {}", reason.reason));
    // Through `load`, the file named as it was given.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join(FILE_NAME);
    std::fs::write(&file, b"strict = \xff").expect("write");
    assert_eq!(
        load(&file).expect_err("not UTF-8").to_string(),
        format!("{}: the file is not UTF-8", file.display())
    );
}
