//! Hostile input (issue 4): numi runs in CI on files anyone can write, so
//! whatever a file holds, or whatever a path is, the built binary must answer
//! within bounded time with one clear line and the right exit status, never
//! panic, hang or die by a signal, and one bad file must never hide the
//! results of the others.
//!
//! Small hostile files are committed under tests/hostile/; the big ones
//! (deep nesting, 1 MiB lines, files past --max-file-size) are written into a
//! temporary folder at run time. Every expected output is an insta snapshot
//! under tests/integration/snapshots/.

// Test helpers may fail loudly: clippy allows this inside #[test] functions
// but not in the helpers beside them.
#![allow(clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use std::fmt::Write as _;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

/// Far above what any run here needs (a debug build checks the alias bomb in
/// a few seconds); past it the run counts as hung.
const HANG: Duration = Duration::from_secs(120);

/// Lines longer than this are shortened in snapshots.
const LONG_LINE: usize = 1024;

/// What one run printed and how it exited.
struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

impl Run {
    /// The command, exit status and stdout; a line longer than
    /// [`LONG_LINE`] bytes shows its start and its length, so a snapshot
    /// stays readable and small.
    fn transcript(&self, args: &[&str]) -> String {
        let mut text = format!("$ numi {}\nexit: {}\n", args.join(" "), self.code);
        for line in self.stdout.lines() {
            if line.len() > LONG_LINE {
                let start: String = line.chars().take(120).collect();
                let _ = writeln!(text, "{start}[… a line of {} bytes]", line.len());
            } else {
                let _ = writeln!(text, "{line}");
            }
        }
        if !self.stderr.is_empty() {
            let _ = write!(text, "--- stderr\n{}", self.stderr);
        }
        common::without_times(&text)
    }
}

/// Runs `numi ARGS` in `cwd`, feeding `stdin`; fails the test if numi hangs,
/// dies by a signal, panics, or prints anything but UTF-8.
fn numi_with_stdin(cwd: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("numi starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    // numi may stop reading early (a file past the size limit): ignore EPIPE.
    let writer = thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let stdout = thread::spawn(move || {
        let mut bytes = Vec::new();
        out.read_to_end(&mut bytes).map(|_| bytes)
    });
    let stderr = thread::spawn(move || {
        let mut bytes = Vec::new();
        err.read_to_end(&mut bytes).map(|_| bytes)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("numi can be waited for") {
            break status;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("numi {args:?} hung for more than {HANG:?}");
        }
        thread::sleep(Duration::from_millis(5));
    };
    let _ = writer.join();
    let stdout = stdout.join().expect("reader").expect("stdout");
    let stderr = stderr.join().expect("reader").expect("stderr");
    let stdout = String::from_utf8(stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8(stderr).expect("stderr is UTF-8");
    let code = status
        .code()
        .unwrap_or_else(|| panic!("numi {args:?} died by a signal: {status:?}\n{stderr}"));
    assert!(
        !stderr.contains("panicked"),
        "numi {args:?} panicked:\n{stderr}"
    );
    Run {
        stdout,
        stderr,
        code,
    }
}

fn numi(cwd: &Path, args: &[&str]) -> Run {
    numi_with_stdin(cwd, args, b"")
}

fn hostile_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

fn example(name: &str) -> Vec<u8> {
    fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name),
    )
    .expect("the example exists")
}

/// Every output line is a revision line or a status line: nothing a file
/// holds can split a line or forge another one.
fn assert_well_formed(run: &Run) {
    let mut lines = run.stdout.lines();
    assert!(
        matches!(
            lines.next(),
            Some("revision: \"files\"" | "revision: \"worktree\"")
        ),
        "{}",
        run.stdout
    );
    for line in lines {
        assert!(
            [
                "ok       file \"",
                "invalid  file \"",
                "error    file \"",
                "ok       repo \"",
                "invalid  repo \"",
                "error    repo \""
            ]
            .iter()
            .any(|head| line.starts_with(head)),
            "not a status line: {line:?}"
        );
    }
}

/// The exit status the contract derives from the status words printed.
fn expected_code(stdout: &str) -> i32 {
    let lines: Vec<&str> = stdout.lines().skip(1).collect();
    if lines.is_empty() || lines.iter().any(|line| line.starts_with("error ")) {
        1
    } else if lines.iter().any(|line| line.starts_with("invalid ")) {
        3
    } else {
        0
    }
}

/// The committed files, in byte order of their names.
fn committed_files() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(hostile_folder())
        .expect("tests/hostile exists")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .into_string()
                .expect("UTF-8 name")
        })
        .collect();
    names.sort();
    names
}

/// Each committed hostile file alone: its exact line and exit status.
#[test]
fn committed_hostile_files_one_by_one() {
    let folder = hostile_folder();
    let mut table = String::new();
    for name in committed_files() {
        let args = ["validate", "--files", name.as_str()];
        let run = numi(&folder, &args);
        assert_well_formed(&run);
        assert_eq!(run.stdout.lines().count(), 2, "{name}: {}", run.stdout);
        assert_eq!(run.code, expected_code(&run.stdout), "{name}");
        assert_eq!(run.code, 3, "{name}: every committed file is invalid");
        let _ = writeln!(table, "{}", run.transcript(&args));
    }
    insta::assert_snapshot!(table);
}

/// The whole folder at once prints the same lines, in byte order of the
/// names, whatever order the workers checked them in.
#[test]
fn committed_hostile_folder_reports_every_file_in_order() {
    let folder = hostile_folder();
    let run = numi(&folder, &["validate", "--files", "."]);
    assert_well_formed(&run);
    assert_eq!(run.code, 3);
    let names: Vec<String> = run
        .stdout
        .lines()
        .skip(1)
        .map(|line| line.split('"').nth(1).expect("a quoted name").to_owned())
        .collect();
    assert_eq!(names, committed_files());
}

/// The hazards too big to commit, written at run time.
fn generated_hazards(folder: &Path) -> Vec<(&'static str, Vec<u8>)> {
    // Indented block nesting grows quadratically (100,000 levels would be
    // 5 GB, far past --max-file-size), so it goes as deep as a few MB allow;
    // `- - - x` nests block sequences 100,000 deep on one line.
    let mut block_mappings = String::new();
    for level in 0..4_000 {
        block_mappings.push_str(&" ".repeat(level));
        block_mappings.push_str("a:\n");
    }
    let mut block_sequences = String::new();
    for level in 0..2_000 {
        block_sequences.push_str(&" ".repeat(level * 2));
        block_sequences.push_str("-\n");
    }
    let mib = 1 << 20;
    let hazards = vec![
        (
            "flow-sequences-100000-closed.yaml",
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        ),
        ("flow-sequences-100000-open.yaml", "[".repeat(100_000)),
        (
            "flow-mappings-100000-closed.yaml",
            format!("{}1{}", "{a: ".repeat(100_000), "}".repeat(100_000)),
        ),
        ("flow-mappings-100000-open.yaml", "{a: ".repeat(100_000)),
        (
            "flow-under-a-key-100000.yaml",
            format!("kind: Playbook\nspec: {}\n", "[{a: ".repeat(50_000)),
        ),
        (
            "block-sequences-100000-one-line.yaml",
            format!("{}x\n", "- ".repeat(100_000)),
        ),
        ("block-sequences-2000-indented.yaml", block_sequences),
        ("block-mappings-4000-indented.yaml", block_mappings),
        ("key-of-1-mib.yaml", format!("{}: 1\n", "k".repeat(mib))),
        (
            "tag-of-1-mib.yaml",
            format!("kind: !{}%0A Playbook\n", "t".repeat(mib)),
        ),
        (
            "quoted-key-of-1-mib.yaml",
            format!("\"{}\": 1\n", "k".repeat(mib)),
        ),
        (
            "value-of-1-mib.yaml",
            format!(
                "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {{name: {}}}\n",
                "n".repeat(mib)
            ),
        ),
        (
            "kind-of-1-mib.yaml",
            format!("apiVersion: numinance.dev/v1\nkind: {}\n", "K".repeat(mib)),
        ),
        (
            "integer-of-100000-digits.yaml",
            format!(
                "apiVersion: numinance.dev/v1\nkind: Playbook\nspec: {{max_repair_attempts: {}}}\n",
                "9".repeat(100_000)
            ),
        ),
        ("comment-of-1-mib.yaml", format!("# {}\n", "#".repeat(mib))),
        (
            "one-line-of-1-mib-flow.yaml",
            format!("a: [{}0]\n", "0, ".repeat(mib / 3)),
        ),
    ];
    let mut written: Vec<(&'static str, Vec<u8>)> = hazards
        .into_iter()
        .map(|(name, text)| (name, text.into_bytes()))
        .collect();
    written.push(("good.yaml", example("playbook-bugfix-bounded.yaml")));
    for (name, bytes) in &written {
        fs::write(folder.join(name), bytes).expect("write a hazard");
    }
    written
}

/// Each generated hazard alone, then all of them in one run beside a good
/// file: the good file is still reported, every line in argument order.
#[test]
fn generated_hazards_one_by_one_and_together() {
    let temp = tempfile::tempdir().expect("tempdir");
    let hazards = generated_hazards(temp.path());
    let mut table = String::new();
    for (name, _) in &hazards {
        let args = ["validate", "--files", name];
        let run = numi(temp.path(), &args);
        assert_well_formed(&run);
        assert_eq!(run.code, expected_code(&run.stdout), "{name}");
        let _ = writeln!(table, "{}", run.transcript(&args));
    }
    insta::assert_snapshot!("generated_hazards_one_by_one", table);

    let mut args = vec!["validate", "--files", "good.yaml"];
    args.extend(hazards.iter().map(|(name, _)| *name));
    args.push("good.yaml");
    let together = numi(temp.path(), &args);
    assert_well_formed(&together);
    assert_eq!(together.code, 3);
    let lines: Vec<&str> = together.stdout.lines().collect();
    let first = lines.get(1).copied().unwrap_or_default();
    let last = lines.last().copied().unwrap_or_default();
    assert_eq!(
        first,
        r#"ok       file "good.yaml" Playbook "bugfix-bounded""#
    );
    assert_eq!(last, first);
    assert_eq!(lines.len(), args.len() - 2 + 1);
    // The same line for each file as when it ran alone.
    for (name, _) in &hazards {
        let alone = numi(temp.path(), &["validate", "--files", name]);
        let line = alone.stdout.lines().nth(1).expect("a status line");
        assert!(lines.contains(&line), "{name}: {line}");
    }
}

/// A mapping with very many keys, each failing the schema: the schema stage
/// stays near-linear, and the line lists the first violations with the true
/// count. 45,000 keys (90,000 nodes) stay inside the node budget. A key
/// lookup by linear scan made this quadratic (6 s for 40,000 keys in a
/// release build); linear, a debug build needs about a second, so the bound
/// below is generous yet catches a regression.
#[test]
fn many_unexpected_keys_are_reported_in_bounded_time() {
    let temp = tempfile::tempdir().expect("tempdir");
    let mut text = String::from_utf8(example("playbook-bugfix-bounded.yaml")).expect("UTF-8");
    for i in 0..45_000 {
        let _ = writeln!(text, "x{i}: 0");
    }
    fs::write(temp.path().join("keys.yaml"), text).expect("write");
    let started = Instant::now();
    let run = numi(temp.path(), &["validate", "--files", "keys.yaml"]);
    let elapsed = started.elapsed();
    assert_eq!(run.code, 3);
    let line = run.stdout.lines().nth(1).expect("a status line");
    let head = "invalid  file \"keys.yaml\": kind: does not match the kind schema: \
                schema: value does not match (violations: 45000): \
                \\\"/x0\\\": additionalProperties; \\\"/x1\\\": additionalProperties; ";
    assert!(line.starts_with(head), "{line:.300}");
    assert!(
        line.ends_with("\\\"/x99\\\": additionalProperties; and 44900 more"),
        "{line:.300}"
    );
    assert_eq!(line.matches("additionalProperties").count(), 100);
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

/// Every value of a big EvalSet fails the schema: the line lists the first
/// 100 violations and counts the rest, instead of printing a line of
/// megabytes.
#[test]
fn violations_past_the_cap_are_counted_not_listed() {
    let temp = tempfile::tempdir().expect("tempdir");
    let mut text = String::from(
        "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {name: big}\nspec:\n  cases:\n",
    );
    for _ in 0..50_000 {
        text.push_str("  - {}\n");
    }
    fs::write(temp.path().join("big.yaml"), &text).expect("write");
    // A few violations are listed whole, as before the cap.
    fs::write(
        temp.path().join("few.yaml"),
        "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {name: few}\nspec:\n  cases:\n  - {}\n",
    )
    .expect("write");
    let args = ["validate", "--files", "few.yaml", "big.yaml"];
    let run = numi(temp.path(), &args);
    assert_eq!(run.code, 3);
    let longest = run.stdout.lines().map(str::len).max().unwrap_or_default();
    assert!(longest < 8 * 1024, "a line of {longest} bytes");
    let big = run.stdout.lines().nth(2).expect("a line for big.yaml");
    assert_eq!(big.matches(": required").count(), 100, "{big}");
    assert!(big.ends_with("; and 149901 more"), "{big}");
    insta::assert_snapshot!(run.transcript(&args));
}

/// No output line echoes a long input value whole: the YAML stage quotes
/// at most 64 characters, the schema stage 200.
#[test]
fn an_unknown_kind_is_not_echoed_whole() {
    let temp = tempfile::tempdir().expect("tempdir");
    let text = format!(
        "apiVersion: numinance.dev/v1\nkind: {}\n",
        "K".repeat(1 << 20)
    );
    fs::write(temp.path().join("kind.yaml"), text).expect("write");
    let run = numi(temp.path(), &["validate", "--files", "kind.yaml"]);
    assert_eq!(run.code, 3);
    let longest = run.stdout.lines().map(str::len).max().unwrap_or_default();
    assert!(longest < LONG_LINE, "a line of {longest} bytes");
}

/// Sizes: a file past --max-file-size is refused, a sparse 64 GiB file is
/// refused at once (it is never read whole), and a file of exactly the limit
/// is read.
#[test]
fn files_past_the_size_limit_are_refused_without_reading_them() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path();
    let mut big = example("playbook-bugfix-bounded.yaml");
    big.resize(2048, b'\n');
    fs::write(dir.join("big.yaml"), &big).expect("write");
    let mut exact = example("playbook-bugfix-bounded.yaml");
    exact.resize(1024, b'\n');
    fs::write(dir.join("exact.yaml"), &exact).expect("write");
    let args = [
        "validate",
        "--files",
        "exact.yaml",
        "big.yaml",
        "exact.yaml",
        "--max-file-size",
        "1024",
    ];
    let run = numi(dir, &args);
    assert_well_formed(&run);
    insta::assert_snapshot!("max_file_size", run.transcript(&args));

    let sparse = fs::File::create(dir.join("sparse.yaml")).expect("create");
    if sparse.set_len(64 << 30).is_ok() {
        drop(sparse);
        let started = Instant::now();
        let run = numi(dir, &["validate", "--files", "sparse.yaml", "exact.yaml"]);
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(
            run.stdout,
            "revision: \"files\"\n\
             error    file \"sparse.yaml\": read: the file is larger than 16 MiB (--max-file-size)\n\
             ok       file \"exact.yaml\" Playbook \"bugfix-bounded\"\n"
        );
        assert_eq!(run.code, 1);
    }

    // Standard input is cut at the limit too.
    let run = numi_with_stdin(
        dir,
        &["validate", "--files", "-", "--max-file-size", "1024"],
        &big,
    );
    assert_eq!(
        run.stdout,
        "revision: \"files\"\n\
         error    file \"-\": read: the file is larger than 1 KiB (--max-file-size)\n"
    );
    assert_eq!(run.code, 1);
}

/// Hostile bytes on standard input get the same answer as in a file.
#[test]
fn hostile_standard_input() {
    let folder = hostile_folder();
    let mut table = String::new();
    for name in [
        "alias-bomb.yaml",
        "invalid-utf8.yaml",
        "utf16le-bom.yaml",
        "nul-byte.yaml",
    ] {
        let bytes = fs::read(folder.join(name)).expect("read");
        let args = ["validate", "--files", "-"];
        let run = numi_with_stdin(&folder, &args, &bytes);
        assert_well_formed(&run);
        let _ = writeln!(table, "< {name}\n{}", run.transcript(&args));
    }
    insta::assert_snapshot!(table);
}

/// `-` given twice: standard input is read once, for the first `-`; the
/// second is an error line, and the files around them are still reported.
#[test]
fn standard_input_given_twice_is_read_once() {
    let temp = tempfile::tempdir().expect("tempdir");
    fs::write(
        temp.path().join("good.yaml"),
        example("playbook-bugfix-bounded.yaml"),
    )
    .expect("write");
    let args = ["validate", "--files", "-", "good.yaml", "-"];
    let run = numi_with_stdin(
        temp.path(),
        &args,
        &example("autonomy-policy-org-default.yaml"),
    );
    assert_eq!(
        run.stdout,
        "revision: \"files\"\n\
         ok       file \"-\" AutonomyPolicy \"org-default\"\n\
         ok       file \"good.yaml\" Playbook \"bugfix-bounded\"\n\
         error    file \"-\": read: standard input is read once (- is given more than once)\n"
    );
    assert_eq!(run.code, 1);

    // Alone, one `-` reads the document and succeeds.
    let run = numi_with_stdin(
        temp.path(),
        &["validate", "--files", "-"],
        &example("autonomy-policy-org-default.yaml"),
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
}

/// A configuration tree full of hostile files: every file is reported, in
/// order, beside the good one.
#[test]
fn hostile_configuration_tree() {
    let temp = tempfile::tempdir().expect("tempdir");
    let tree = temp.path().join(".numinance");
    fs::create_dir_all(tree.join("policy")).expect("mkdir");
    fs::write(
        tree.join("policy/playbook.yaml"),
        example("playbook-bugfix-bounded.yaml"),
    )
    .expect("write");
    for name in [
        "alias-bomb.yaml",
        "two-documents.yaml",
        "utf8-bom.yaml",
        "forged-output-line.yaml",
    ] {
        fs::copy(hostile_folder().join(name), tree.join(name)).expect("copy");
    }
    fs::write(
        tree.join("deep.yml"),
        format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
    )
    .expect("write");
    let args = ["validate", "."];
    let run = numi(temp.path(), &args);
    assert_well_formed(&run);
    insta::assert_snapshot!(run.transcript(&args));
}

#[cfg(unix)]
mod paths {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};
    use std::os::unix::net::UnixListener;

    fn mkfifo(path: &Path) -> bool {
        Command::new("mkfifo")
            .arg(path)
            .status()
            .is_ok_and(|status| status.success())
    }

    /// Paths that are not readable files, mixed with good files, as
    /// arguments and inside a folder: each gets its line, none blocks, the
    /// good files are still reported, all in order.
    #[test]
    fn paths_that_cannot_be_read_do_not_hide_the_others() {
        let temp = tempfile::tempdir().expect("tempdir");
        let dir = temp.path();
        let good = example("playbook-bugfix-bounded.yaml");
        fs::write(dir.join("good.yaml"), &good).expect("write");
        fs::write(dir.join("bad.yaml"), "kind: [\n").expect("write");
        assert!(mkfifo(&dir.join("fifo.yaml")), "mkfifo works");
        let _socket = UnixListener::bind(dir.join("socket.yaml")).expect("bind");
        symlink("nowhere.yaml", dir.join("dangling.yaml")).expect("symlink");
        symlink("fifo.yaml", dir.join("link-to-fifo.yaml")).expect("symlink");
        let mut big = good.clone();
        big.resize(4096, b'\n');
        fs::write(dir.join("big.yaml"), &big).expect("write");

        // The same hazards inside a folder, with a folder loop and links.
        let folder = dir.join("folder");
        fs::create_dir_all(folder.join("sub")).expect("mkdir");
        fs::write(folder.join("a-good.yaml"), &good).expect("write");
        fs::write(folder.join("z-good.yml"), &good).expect("write");
        fs::write(folder.join("big.yaml"), &big).expect("write");
        fs::write(folder.join("not-yaml.txt"), "kind: [\n").expect("write");
        assert!(mkfifo(&folder.join("fifo.yaml")));
        assert!(mkfifo(&folder.join("fifo.txt")));
        let _inner_socket = UnixListener::bind(folder.join("socket.yml")).expect("bind");
        symlink("nowhere.yaml", folder.join("dangling.yaml")).expect("symlink");
        symlink("nowhere.txt", folder.join("dangling.txt")).expect("symlink");
        symlink("..", folder.join("sub/loop")).expect("symlink");
        symlink("../good.yaml", folder.join("link-to-good.yaml")).expect("symlink");

        let args = [
            "validate",
            "--files",
            "good.yaml",
            "missing.yaml",
            "fifo.yaml",
            "socket.yaml",
            "dangling.yaml",
            "link-to-fifo.yaml",
            "big.yaml",
            "bad.yaml",
            "folder",
            "missing-folder/",
            "good.yaml",
            "--max-file-size",
            "2048",
        ];
        let started = Instant::now();
        let run = numi(dir, &args);
        assert!(started.elapsed() < Duration::from_secs(30));
        assert_well_formed(&run);
        assert_eq!(run.code, 1);
        insta::assert_snapshot!(run.transcript(&args));
    }

    /// Runs `numi ARGS` in `cwd` and fails the test if it takes more than
    /// a few seconds: a blocked open or an endless read would.
    fn numi_quickly(cwd: &Path, args: &[&str]) -> Run {
        let started = Instant::now();
        let run = numi(cwd, args);
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "numi {args:?} took {:?}",
            started.elapsed()
        );
        run
    }

    /// Every command reads a file the same way: a FIFO (which would block
    /// the open) and a device (which would never end) are refused at once,
    /// by `digest`, by `--config` and by `validate --files`; a regular
    /// file is still read by each.
    #[test]
    fn fifos_and_devices_are_refused_at_once_by_every_command() {
        let temp = tempfile::tempdir().expect("tempdir");
        let dir = temp.path();
        let good = example("playbook-bugfix-bounded.yaml");
        fs::write(dir.join("good.yaml"), &good).expect("write");
        fs::write(dir.join("numi.toml"), "strict = true\n").expect("write");
        assert!(mkfifo(&dir.join("fifo.yaml")), "mkfifo works");
        assert!(mkfifo(&dir.join("fifo.toml")), "mkfifo works");

        for path in ["fifo.yaml", "/dev/zero"] {
            let run = numi_quickly(dir, &["digest", path]);
            assert_eq!(run.code, 1, "{path}");
            assert_eq!(run.stdout, "", "{path}");
            assert_eq!(
                run.stderr,
                format!("numi: {path}: read: not a regular file\n")
            );

            let run = numi_quickly(dir, &["validate", "--files", path]);
            assert_eq!(run.code, 1, "{path}");
            assert!(
                run.stdout.contains("\": read: not a regular file"),
                "{}",
                run.stdout
            );
        }
        for config in ["fifo.toml", "/dev/zero"] {
            let run = numi_quickly(
                dir,
                &["validate", "--files", "good.yaml", "--config", config],
            );
            assert_eq!(run.code, 2, "{config}: {}", run.stderr);
            assert_eq!(run.stdout, "");
            assert_eq!(run.stderr, format!("numi: {config}: not a regular file\n"));
        }

        // The same commands read a regular file.
        let run = numi_quickly(dir, &["digest", "good.yaml"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.ends_with("  good.yaml\n"), "{}", run.stdout);
        let run = numi_quickly(
            dir,
            &["validate", "--files", "good.yaml", "--config", "numi.toml"],
        );
        assert_eq!(run.code, 0, "{}", run.stdout);
        // And keep the size limit: digest refuses what validate refuses.
        let run = numi_quickly(dir, &["digest", "--max-file-size", "16", "good.yaml"]);
        assert_eq!(run.code, 1);
        assert_eq!(
            run.stderr,
            "numi: good.yaml: read: the file is larger than 16 bytes (--max-file-size)\n"
        );
    }

    /// A `numi.toml` that is there but cannot be read (a link to nothing, a
    /// link loop, a folder, a FIFO) fails the run naming it, where passing
    /// over it would drop `strict = true` and pass a failing document.
    #[test]
    fn a_configuration_file_that_cannot_be_read_fails_loudly() {
        let failing =
            include_str!("../../src/kinds/playbook/examples/min-runs.failing.yaml").as_bytes();
        type Make = fn(&Path);
        let cases: [(&str, Make, &str); 4] = [
            (
                "dangling",
                |path| symlink("nowhere.toml", path).expect("symlink"),
                "no such file or directory",
            ),
            (
                "loop",
                |path| symlink("numi.toml", path).expect("symlink"),
                "too many levels of symbolic links",
            ),
            (
                "folder",
                |path| fs::create_dir(path).expect("mkdir"),
                "is a directory",
            ),
            (
                "fifo",
                |path| assert!(mkfifo(path), "mkfifo works"),
                "not a regular file",
            ),
        ];
        for (name, make, reason) in cases {
            let temp = tempfile::tempdir().expect("tempdir");
            let repo = temp.path();
            fs::create_dir(repo.join(".git")).expect("mkdir");
            fs::create_dir(repo.join(".numinance")).expect("mkdir");
            fs::write(repo.join(".numinance/playbook.yaml"), failing).expect("write");
            let run = numi_quickly(repo, &["validate"]);
            assert_eq!(run.code, 0, "{name}: without a configuration it passes");
            make(&repo.join("numi.toml"));
            let run = numi_quickly(repo, &["validate"]);
            assert_eq!(run.code, 2, "{name}: {}", run.stderr);
            assert_eq!(run.stdout, "", "{name}");
            assert!(
                run.stderr.starts_with("numi: ")
                    && run.stderr.contains("numi.toml: ")
                    && run.stderr.ends_with(&format!("{reason}\n")),
                "{name}: {}",
                run.stderr
            );
        }
    }

    /// A file that says it is empty and is not (as under /proc) is read up
    /// to the limit, not trusted.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_limit_holds_whatever_the_file_says_its_size_is() {
        let temp = tempfile::tempdir().expect("tempdir");
        let dir = temp.path();
        assert_eq!(
            fs::metadata("/proc/self/maps")
                .expect("Linux has /proc")
                .len(),
            0
        );
        let run = numi_quickly(dir, &["digest", "--max-file-size", "64", "/proc/self/maps"]);
        assert_eq!(run.code, 1);
        assert_eq!(
            run.stderr,
            "numi: /proc/self/maps: read: the file is larger than 64 bytes (--max-file-size)\n"
        );
    }

    /// A file and a folder without read permission. Root reads them anyway,
    /// so the check runs only when the test cannot read them itself.
    #[test]
    fn unreadable_file_and_folder() {
        let temp = tempfile::tempdir().expect("tempdir");
        let dir = temp.path();
        let good = example("playbook-bugfix-bounded.yaml");
        fs::write(dir.join("good.yaml"), &good).expect("write");
        fs::write(dir.join("secret.yaml"), &good).expect("write");
        fs::set_permissions(dir.join("secret.yaml"), fs::Permissions::from_mode(0o000))
            .expect("chmod");
        fs::create_dir(dir.join("closed")).expect("mkdir");
        fs::write(dir.join("closed/inside.yaml"), &good).expect("write");
        fs::set_permissions(dir.join("closed"), fs::Permissions::from_mode(0o000)).expect("chmod");
        let args = [
            "validate",
            "--files",
            "good.yaml",
            "secret.yaml",
            "closed",
            "good.yaml",
        ];
        let run = numi(dir, &args);
        let readable = fs::read(dir.join("secret.yaml")).is_ok();
        fs::set_permissions(dir.join("closed"), fs::Permissions::from_mode(0o755))
            .expect("chmod back");
        assert_well_formed(&run);
        if readable {
            // Running as root: permissions do not stop a read.
            assert_eq!(run.code, 0, "{}", run.stdout);
            return;
        }
        assert_eq!(
            run.stdout,
            "revision: \"files\"\n\
             ok       file \"good.yaml\" Playbook \"bugfix-bounded\"\n\
             error    file \"secret.yaml\": read: permission denied\n\
             error    file \"closed\": read: permission denied\n\
             ok       file \"good.yaml\" Playbook \"bugfix-bounded\"\n"
        );
        assert_eq!(run.code, 1);
    }
}

#[cfg(target_os = "linux")]
mod unreadable_as_root {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A regular file whose read fails for root too: /proc/self/mem is a
    /// regular file that opens, but reading its first page (never mapped)
    /// fails with EIO. Reached through a link named `*.yaml` given as an
    /// argument: the error line names the path and the reason, and the
    /// files beside it are still reported. Inside a folder the same link
    /// leads out of the folder and is refused unread.
    #[test]
    fn a_file_whose_read_fails_is_an_error_line() {
        let temp = tempfile::tempdir().expect("tempdir");
        let dir = temp.path();
        assert!(fs::metadata("/proc/self/mem").is_ok(), "Linux has /proc");
        let good = example("playbook-bugfix-bounded.yaml");
        fs::write(dir.join("good.yaml"), &good).expect("write");
        symlink("/proc/self/mem", dir.join("memory.yaml")).expect("symlink");
        fs::create_dir(dir.join("folder")).expect("mkdir");
        fs::write(dir.join("folder/a-good.yaml"), &good).expect("write");
        symlink("/proc/self/mem", dir.join("folder/b-memory.yaml")).expect("symlink");
        fs::write(dir.join("folder/c-good.yaml"), &good).expect("write");
        let args = [
            "validate",
            "--files",
            "good.yaml",
            "memory.yaml",
            "folder",
            "good.yaml",
        ];
        let run = numi(dir, &args);
        assert_well_formed(&run);
        assert_eq!(
            run.stdout,
            "revision: \"files\"\n\
             ok       file \"good.yaml\" Playbook \"bugfix-bounded\"\n\
             error    file \"memory.yaml\": read: input/output error\n\
             ok       file \"a-good.yaml\" Playbook \"bugfix-bounded\"\n\
             error    file \"b-memory.yaml\": read: the link leads outside the folder given\n\
             ok       file \"c-good.yaml\" Playbook \"bugfix-bounded\"\n\
             ok       file \"good.yaml\" Playbook \"bugfix-bounded\"\n"
        );
        assert_eq!(run.code, 1);
    }
}

#[cfg(unix)]
mod links_outside_the_repository {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A repository whose configuration tree links to files and folders
    /// inside and outside it, and a configuration tree that is itself a link
    /// out of its repository.
    fn layout(root: &Path) {
        let good = example("playbook-bugfix-bounded.yaml");
        let outside = root.join("outside");
        fs::create_dir_all(outside.join("deeper")).expect("mkdir");
        fs::write(outside.join("secret.yaml"), &good).expect("write");
        fs::write(outside.join("deeper/also-secret.yaml"), &good).expect("write");

        let tree = root.join("repo/.numinance");
        fs::create_dir_all(tree.join("real")).expect("mkdir");
        fs::write(tree.join("good.yaml"), &good).expect("write");
        fs::write(tree.join("real/inside.yaml"), &good).expect("write");
        fs::write(root.join("repo/elsewhere.yaml"), &good).expect("write");
        // Inside the repository: followed.
        symlink("real", tree.join("linked-folder")).expect("symlink");
        symlink("../elsewhere.yaml", tree.join("linked-file.yaml")).expect("symlink");
        // Outside: reported, never read.
        symlink("../../outside", tree.join("out-folder")).expect("symlink");
        symlink("../../outside/secret.yaml", tree.join("out-file.yaml")).expect("symlink");
        symlink("/proc/self/mem", tree.join("out-absolute.yaml")).expect("symlink");
        // A link to outside whose name is not YAML is skipped like any file.
        symlink("../../outside/secret.yaml", tree.join("out-file.txt")).expect("symlink");

        // A repository whose whole configuration tree is a link out of it.
        fs::create_dir_all(root.join("borrowed")).expect("mkdir");
        symlink("../outside", root.join("borrowed/.numinance")).expect("symlink");
    }

    #[test]
    fn repository_mode_reports_links_that_leave_the_repository() {
        let temp = tempfile::tempdir().expect("tempdir");
        layout(temp.path());
        let args = ["validate", "repo"];
        let run = numi(temp.path(), &args);
        assert_well_formed(&run);
        assert_eq!(
            run.stdout,
            "revision: \"worktree\"\n\
             ok       repo \".numinance/good.yaml\" Playbook \"bugfix-bounded\"\n\
             ok       repo \".numinance/linked-file.yaml\" Playbook \"bugfix-bounded\"\n\
             ok       repo \".numinance/linked-folder/inside.yaml\" Playbook \"bugfix-bounded\"\n\
             error    repo \".numinance/out-absolute.yaml\": read: the link leads outside the repository\n\
             error    repo \".numinance/out-file.yaml\": read: the link leads outside the repository\n\
             error    repo \".numinance/out-folder\": read: the link leads outside the repository\n\
             ok       repo \".numinance/real/inside.yaml\" Playbook \"bugfix-bounded\"\n"
        );
        assert_eq!(run.code, 1);

        let run = numi(temp.path(), &["validate", "borrowed"]);
        assert_eq!(
            run.stdout,
            "revision: \"worktree\"\n\
             error    repo \".numinance\": read: the link leads outside the repository\n"
        );
        assert_eq!(run.code, 1);
    }

    /// A folder named with `--files` is walked without leaving it: a link
    /// out of it (to a file or a folder, `/proc/self/mem` too) is refused
    /// with one error line, as in a repository, and never read, whatever
    /// the format (`pretty` would print its content). A link inside the
    /// folder is followed, and a file named on the command line is read as
    /// named, wherever its link leads.
    #[test]
    fn a_folder_walk_never_follows_a_link_out_of_the_folder() {
        let temp = tempfile::tempdir().expect("tempdir");
        layout(temp.path());
        symlink(
            "real/inside.yaml",
            temp.path().join("repo/.numinance/alias.yaml"),
        )
        .expect("symlink");
        let args = [
            "validate",
            "--files",
            "repo/.numinance",
            "borrowed/.numinance",
            "repo/.numinance/out-file.yaml",
        ];
        let run = numi(temp.path(), &args);
        assert_well_formed(&run);
        assert_eq!(
            run.stdout,
            "revision: \"files\"\n\
             ok       file \"alias.yaml\" Playbook \"bugfix-bounded\"\n\
             ok       file \"good.yaml\" Playbook \"bugfix-bounded\"\n\
             error    file \"linked-file.yaml\": read: the link leads outside the folder given\n\
             ok       file \"linked-folder/inside.yaml\" Playbook \"bugfix-bounded\"\n\
             error    file \"out-absolute.yaml\": read: the link leads outside the folder given\n\
             error    file \"out-file.yaml\": read: the link leads outside the folder given\n\
             error    file \"out-folder\": read: the link leads outside the folder given\n\
             ok       file \"real/inside.yaml\" Playbook \"bugfix-bounded\"\n\
             ok       file \"deeper/also-secret.yaml\" Playbook \"bugfix-bounded\"\n\
             ok       file \"secret.yaml\" Playbook \"bugfix-bounded\"\n\
             ok       file \"out-file.yaml\" Playbook \"bugfix-bounded\"\n"
        );
        assert_eq!(run.code, 1);

        // A link to the environment of the process that runs numi, in a
        // folder a pull request adds: never shown.
        let folder = temp.path().join("pull-request");
        fs::create_dir(&folder).expect("mkdir");
        symlink("/proc/self/environ", folder.join("environ.yaml")).expect("symlink");
        let run = numi(
            temp.path(),
            &["validate", "--files", "pull-request", "--format", "pretty"],
        );
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert!(
            run.stdout
                .contains("the link leads outside the folder given"),
            "{}",
            run.stdout
        );
        assert!(!run.stdout.contains("PATH="), "{}", run.stdout);
    }
}

/// What a file looks like from outside: content, modification time, mode.
fn fingerprint(root: &Path) -> Vec<(PathBuf, Vec<u8>, SystemTime, u32)> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in fs::read_dir(&folder).expect("read_dir") {
            let path = entry.expect("entry").path();
            let metadata = fs::symlink_metadata(&path).expect("metadata");
            #[cfg(unix)]
            let mode = std::os::unix::fs::PermissionsExt::mode(&metadata.permissions());
            #[cfg(not(unix))]
            let mode = u32::from(metadata.permissions().readonly());
            let modified = metadata.modified().expect("mtime");
            if metadata.is_dir() {
                stack.push(path.clone());
                found.push((path, Vec::new(), modified, mode));
            } else {
                let content = fs::read(&path).expect("read");
                found.push((path, content, modified, mode));
            }
        }
    }
    found.sort();
    found
}

/// numi never writes: after runs in both modes over good and hostile files,
/// every file and folder has the same content, mtime and mode, and no file
/// was added.
#[test]
fn inputs_are_never_modified() {
    let temp = tempfile::tempdir().expect("tempdir");
    let tree = temp.path().join(".numinance");
    fs::create_dir_all(&tree).expect("mkdir");
    fs::write(
        tree.join("playbook.yaml"),
        example("playbook-bugfix-bounded.yaml"),
    )
    .expect("write");
    fs::write(tree.join("core-replay.yaml"), example("core-replay.yaml")).expect("write");
    for name in committed_files() {
        fs::copy(hostile_folder().join(&name), tree.join(&name)).expect("copy");
    }
    // Old timestamps make any rewrite visible, whatever the clock resolution.
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    for entry in fs::read_dir(&tree).expect("read_dir") {
        let file = fs::File::options()
            .append(true)
            .open(entry.expect("entry").path())
            .expect("open");
        file.set_modified(old).expect("set mtime");
    }
    let before = fingerprint(temp.path());
    let files = numi(temp.path(), &["validate", "--files", ".numinance"]);
    assert_eq!(files.code, 3);
    let repo = numi(temp.path(), &["validate", ".", "--enable-alpha"]);
    assert_eq!(repo.code, 3);
    assert_eq!(fingerprint(temp.path()), before);
}
