//! The documentation cannot drift: the pages users read (README.md,
//! CONTRIBUTING.md and `docs/*.md`) are checked against the program.
//!
//! Conventions the pages follow:
//!
//! - **Commands.** In a fenced block marked `sh`, `bash` or `shell` every
//!   line is a shell line; in a `console` or `text` block, the lines that
//!   start with `$ ` are. A shell line is cut into simple commands at
//!   unquoted `|`, `||`, `&&`, `;` and `&`; redirections (`> FILE`, `< FILE`,
//!   `2>&1`) and comments are dropped. A command that starts with `numi` (or
//!   `cargo run ... -- ARGS`, which runs numi with ARGS) must parse with
//!   numi's own clap command. A synopsis is shown, not run, and is passed
//!   over: a line holding a placeholder in angle brackets (`<id>`) or a word
//!   holding `...` or in square brackets (`PATH...`, `[DIR]`), and so is a
//!   command with a shell variable (`"$kind"`), whose value the page leaves
//!   to the shell. Upper-case
//!   words such as `RULE` or `DIR` are ordinary arguments and must parse.
//!   YAML blocks (`run:` steps, hook entries) are configuration, not
//!   command lines, and are not read.
//! - **Outputs.** A `console` or `text` block directly after the line
//!   `<!-- numi-output -->` is run: each `$ numi ARGS` line runs the built
//!   binary from the repository's root, and the lines up to the next `$ `
//!   line must be what it prints, exactly: its standard output, then its
//!   standard error (as a terminal shows a run's summary after its lines).
//!   A line `...` stands for any number of lines, and a summary's time
//!   (`(in 0.01s)`) for any time; a line `(exit N)` is the exit status, and
//!   blank lines before the next `$ ` line separate examples. After
//!   `<!-- numi-output in FOLDER -->` (a folder of the repository, such as
//!   `tests/docs/fix`) the block's commands run one after another in a copy
//!   of it (the files the page names), and after `<!-- numi-output in a new folder -->` in
//!   an empty one, so an example that writes (`numi fix`, `numi init`)
//!   changes nothing of the checkout. Every `$ numi` line of a `console` or
//!   `text` block is in a marked block: an output example cannot drift.
//! - **Links.** Every relative link and `#anchor` resolves: the file or
//!   folder exists, and the anchor is a heading of the target page by
//!   GitHub's rules (lower case, spaces to `-`, punctuation dropped except
//!   `-` and `_`; a repeated heading gets `-1`, `-2`, ...). Links inside code
//!   are not links.

#![allow(clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages users read, relative to the repository's root.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md"), PathBuf::from("CONTRIBUTING.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| Path::new("docs").join(path.file_name().expect("a file name")))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

fn read(page: &Path) -> String {
    std::fs::read_to_string(root().join(page)).expect("a page is readable")
}

// --- fenced blocks

/// A fenced code block: its info string, its lines with their line
/// numbers (from 1), and the output marker that stands right before it.
#[derive(Debug)]
struct Block {
    info: String,
    lines: Vec<(usize, String)>,
    marked: Option<RunIn>,
}

/// Where the commands of a marked block run.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RunIn {
    /// The repository's root, read only.
    Checkout,
    /// A copy of this folder of the repository.
    CopyOf(PathBuf),
    /// An empty folder.
    NewFolder,
}

/// The marker of a block whose output is checked, as `line` holds it.
fn output_marker(line: &str) -> Option<RunIn> {
    let inner = line
        .trim()
        .strip_prefix("<!-- numi-output")?
        .strip_suffix("-->")?
        .trim();
    match inner {
        "" => Some(RunIn::Checkout),
        "in a new folder" => Some(RunIn::NewFolder),
        _ => inner
            .strip_prefix("in ")
            .map(|folder| RunIn::CopyOf(PathBuf::from(folder))),
    }
}

/// The fenced blocks of a page, and its other lines (the prose, for links).
fn split(markdown: &str) -> (Vec<Block>, Vec<(usize, String)>) {
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    let mut open: Option<(String, Block)> = None;
    let mut previous = "";
    for (index, line) in markdown.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        match open.take() {
            Some((fence, mut block)) => {
                if trimmed.starts_with(&fence)
                    && trimmed.trim_start_matches(&*fence).trim().is_empty()
                {
                    blocks.push(block);
                } else {
                    block.lines.push((number, line.to_owned()));
                    open = Some((fence, block));
                }
            }
            None => {
                let fence: String = trimmed
                    .chars()
                    .take_while(|c| *c == '`' || *c == '~')
                    .collect();
                if fence.len() >= 3
                    && fence
                        .chars()
                        .all(|c| c == fence.chars().next().unwrap_or('`'))
                {
                    let info = trimmed[fence.len()..].trim().to_owned();
                    let marked = output_marker(previous);
                    open = Some((
                        fence,
                        Block {
                            info,
                            lines: Vec::new(),
                            marked,
                        },
                    ));
                } else {
                    prose.push((number, line.to_owned()));
                }
            }
        }
        previous = line;
    }
    (blocks, prose)
}

// --- shell lines

#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    /// `|`, `||`, `&&`, `;`, `&`: ends a simple command.
    Separator,
    /// `>`, `>>`, `<`, `2>`, `>&`: the next word is not an argument.
    Redirection,
}

/// Cuts a shell line into words and operators: quotes and backslashes as a
/// POSIX shell reads them, `#` at the start of a word starts a comment.
fn tokens(line: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let end_word = |tokens: &mut Vec<Token>, word: &mut String, in_word: &mut bool| {
        if *in_word {
            tokens.push(Token::Word(std::mem::take(word)));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if chars
                            .peek()
                            .is_some_and(|n| matches!(n, '"' | '\\' | '$' | '`')) =>
                        {
                            word.extend(chars.next());
                        }
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => end_word(&mut tokens, &mut word, &mut in_word),
            '|' | ';' | '&' => {
                end_word(&mut tokens, &mut word, &mut in_word);
                if chars.peek().is_some_and(|n| *n == c) {
                    chars.next();
                }
                tokens.push(Token::Separator);
            }
            '>' | '<' => {
                // A file descriptor number before `>` belongs to it.
                if in_word && word.bytes().all(|b| b.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                end_word(&mut tokens, &mut word, &mut in_word);
                while chars.peek().is_some_and(|n| matches!(n, '>' | '&')) {
                    chars.next();
                }
                tokens.push(Token::Redirection);
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    end_word(&mut tokens, &mut word, &mut in_word);
    tokens
}

/// The simple commands of a shell line, each as its argument words.
fn simple_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut redirected = false;
    for token in tokens(line) {
        match token {
            Token::Separator => commands.push(Vec::new()),
            Token::Redirection => redirected = true,
            Token::Word(word) if redirected => {
                drop(word);
                redirected = false;
            }
            Token::Word(word) => commands
                .last_mut()
                .expect("one command at least")
                .push(word),
        }
    }
    commands.retain(|command| !command.is_empty());
    commands
}

/// Whether a line is a synopsis rather than a command: it holds `<name>`.
fn has_angle_placeholder(line: &str) -> bool {
    line.split('<').skip(1).any(|after| {
        let name: String = after.chars().take_while(|c| *c != '>').collect();
        after.len() > name.len()
            && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && !name.contains(char::is_whitespace)
    })
}

fn is_placeholder_word(word: &str) -> bool {
    word.contains("...") || word.contains('$') || (word.starts_with('[') && word.ends_with(']'))
}

/// numi's arguments (the program name first) of a command, if it runs numi.
fn numi_arguments(command: &[String]) -> Option<Vec<String>> {
    let start = command
        .iter()
        .position(|word| !matches!(word.as_str(), "do" | "then" | "!") && !word.contains('='))?;
    let command = &command[start..];
    match command.first()?.as_str() {
        "numi" => Some(command.to_vec()),
        "cargo" if command.get(1).is_some_and(|word| word == "run") => {
            let dashes = command.iter().position(|word| word == "--")?;
            let mut arguments = vec!["numi".to_owned()];
            arguments.extend(command[dashes + 1..].iter().cloned());
            Some(arguments)
        }
        _ => None,
    }
}

/// A numi command shown on a page: its line and its arguments.
#[derive(Debug, PartialEq)]
struct Shown {
    line: usize,
    arguments: Vec<String>,
}

/// Every numi command the code blocks of a page show, synopses aside.
fn shown_commands(markdown: &str) -> Vec<Shown> {
    let (blocks, _) = split(markdown);
    let mut shown = Vec::new();
    for block in blocks {
        let language = block.info.split_whitespace().next().unwrap_or_default();
        let prompted = match language {
            "sh" | "bash" | "shell" => false,
            "console" | "text" => true,
            _ => continue,
        };
        let mut pending = String::new();
        for (number, line) in &block.lines {
            let line = if prompted {
                match line.strip_prefix("$ ") {
                    Some(command) => command,
                    None => continue,
                }
            } else {
                line.as_str()
            };
            if let Some(continued) = line.strip_suffix('\\') {
                pending.push_str(continued);
                pending.push(' ');
                continue;
            }
            let line = std::mem::take(&mut pending) + line;
            if has_angle_placeholder(&line) {
                continue;
            }
            for command in simple_commands(&line) {
                let Some(arguments) = numi_arguments(&command) else {
                    continue;
                };
                if arguments.iter().any(|word| is_placeholder_word(word)) {
                    continue;
                }
                shown.push(Shown {
                    line: *number,
                    arguments,
                });
            }
        }
    }
    shown
}

/// The commands of a page numi's command line refuses, as messages.
fn unparsable_commands(page: &str, markdown: &str) -> Vec<String> {
    shown_commands(markdown)
        .into_iter()
        .filter_map(|shown| {
            let parsed = numi::cli::command().try_get_matches_from(&shown.arguments);
            match parsed {
                Ok(_) => None,
                Err(error)
                    if matches!(
                        error.kind(),
                        clap::error::ErrorKind::DisplayHelp
                            | clap::error::ErrorKind::DisplayVersion
                    ) =>
                {
                    None
                }
                Err(error) => Some(format!(
                    "{page}:{}: `{}` does not parse: {}",
                    shown.line,
                    shown.arguments.join(" "),
                    error.kind()
                )),
            }
        })
        .collect()
}

// --- shown outputs

/// A command a marked block runs and the standard output it shows.
#[derive(Debug, PartialEq)]
struct Example {
    line: usize,
    arguments: Vec<String>,
    output: Vec<String>,
    /// The exit status shown, `(exit N)`, if any.
    exit: Option<i32>,
    /// Which marked block of the page it is in, and where that runs.
    block: usize,
    run_in: RunIn,
}

/// The examples of the marked blocks of a page; a marked block whose
/// commands are not plain numi commands is an error.
fn marked_examples(page: &str, markdown: &str) -> Result<Vec<Example>, String> {
    let (blocks, _) = split(markdown);
    let mut examples: Vec<Example> = Vec::new();
    let marked = blocks
        .into_iter()
        .filter_map(|block| block.marked.clone().map(|run_in| (block, run_in)));
    for (index, (block, run_in)) in marked.enumerate() {
        let mut block_examples = 0;
        for (number, line) in &block.lines {
            if let Some(command) = line.strip_prefix("$ ") {
                let tokens = tokens(command);
                let arguments: Vec<String> = tokens
                    .iter()
                    .filter_map(|token| match token {
                        Token::Word(word) => Some(word.clone()),
                        _ => None,
                    })
                    .collect();
                if arguments.len() != tokens.len()
                    || arguments.first().is_none_or(|word| word != "numi")
                {
                    return Err(format!(
                        "{page}:{number}: a marked block runs plain numi commands: {command}"
                    ));
                }
                examples.push(Example {
                    line: *number,
                    arguments,
                    output: Vec::new(),
                    exit: None,
                    block: index,
                    run_in: run_in.clone(),
                });
                block_examples += 1;
            } else if block_examples == 0 {
                return Err(format!(
                    "{page}:{number}: a marked block starts with a `$ numi` line"
                ));
            } else if let Some(example) = examples.last_mut() {
                let exit = line
                    .strip_prefix("(exit ")
                    .and_then(|rest| rest.strip_suffix(')'))
                    .and_then(|status| status.parse().ok());
                match exit {
                    Some(status) => example.exit = Some(status),
                    None => example.output.push(line.clone()),
                }
            }
        }
        for example in examples.iter_mut().filter(|example| example.block == index) {
            while example
                .output
                .last()
                .is_some_and(|line| line.trim().is_empty())
            {
                example.output.pop();
            }
        }
        if block_examples == 0 {
            return Err(format!("{page}: a marked block runs nothing"));
        }
    }
    Ok(examples)
}

/// `(in 0.01s)` and the like, the one part of an output that differs run to run.
fn without_time(line: &str) -> String {
    match line.rfind(" (in ") {
        Some(at) if line.ends_with("s)") => format!("{} (in T)", &line[..at]),
        _ => line.to_owned(),
    }
}

/// Whether `actual` is what `shown` shows, a line `...` standing for any
/// number of lines.
fn output_matches(shown: &[String], actual: &[String]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(line, after)| {
            without_time(first) == without_time(line) && output_matches(rest, after)
        }),
    }
}

// --- links

/// GitHub's anchor of a heading's text.
fn github_anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings, repeats numbered as GitHub numbers them.
fn anchors(markdown: &str) -> Vec<String> {
    let (_, prose) = split(markdown);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = Vec::new();
    for (_, line) in prose {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        let Some(text) = line.get(hashes..).and_then(|rest| rest.strip_prefix(' ')) else {
            continue;
        };
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let base = github_anchor(text.trim_end_matches('#'));
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.push(if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// The link targets of a line of prose, code spans left out.
fn link_targets(line: &str) -> Vec<String> {
    let prose: String = line
        .split('`')
        .enumerate()
        .map(|(index, part)| if index % 2 == 0 { part } else { "" })
        .collect::<Vec<_>>()
        .join(" ");
    prose
        .split("](")
        .skip(1)
        .filter_map(|after| {
            let target = after.split(')').next()?;
            let target = target.split_whitespace().next()?;
            Some(
                target
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_owned(),
            )
        })
        .collect()
}

/// The relative links and anchors of `page` (a path under `root`) that do
/// not resolve, as messages.
fn broken_links(root: &Path, page: &Path) -> Vec<String> {
    let markdown = std::fs::read_to_string(root.join(page)).expect("the page is readable");
    let (_, prose) = split(&markdown);
    let mut broken = Vec::new();
    for (number, line) in prose {
        for target in link_targets(&line) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                page.to_path_buf()
            } else {
                page.parent().unwrap_or(Path::new("")).join(path)
            };
            let where_ = format!("{}:{number}: {target}", page.display());
            if !root.join(&linked).exists() {
                broken.push(format!("{where_}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let headings = std::fs::read_to_string(root.join(&linked))
                .map(|text| anchors(&text))
                .unwrap_or_default();
            if !headings.iter().any(|heading| heading == anchor) {
                broken.push(format!("{where_}: no heading with this anchor"));
            }
        }
    }
    broken
}

// --- the pages

#[test]
fn every_numi_command_shown_parses() {
    let mut unparsable = Vec::new();
    let mut count = 0;
    for page in pages() {
        let markdown = read(&page);
        count += shown_commands(&markdown).len();
        unparsable.extend(unparsable_commands(&page.display().to_string(), &markdown));
    }
    assert!(unparsable.is_empty(), "{}", unparsable.join("\n"));
    // The README's quick start and the manual's examples are found.
    assert!(count >= 30, "only {count} commands found");
}

/// A copy of the repository's folder `from` in `to`, files and folders.
fn copy_folder(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("a docs fixture folder is readable") {
        let entry = entry.expect("a fixture entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).expect("a folder is made");
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a fixture is copied");
        }
    }
}

#[test]
fn every_marked_output_is_what_numi_prints() {
    let mut stale = Vec::new();
    let mut count = 0;
    for page in pages() {
        let name = page.display().to_string();
        let examples =
            marked_examples(&name, &read(&page)).unwrap_or_else(|error| panic!("{error}"));
        // The folder each block runs in, made when its first command runs.
        let mut folders: BTreeMap<usize, tempfile::TempDir> = BTreeMap::new();
        for example in examples {
            count += 1;
            let folder = match &example.run_in {
                RunIn::Checkout => root(),
                RunIn::CopyOf(_) | RunIn::NewFolder => folders
                    .entry(example.block)
                    .or_insert_with(|| {
                        let folder = tempfile::tempdir().expect("a temporary folder");
                        if let RunIn::CopyOf(from) = &example.run_in {
                            copy_folder(&root().join(from), folder.path());
                        }
                        folder
                    })
                    .path()
                    .to_path_buf(),
            };
            let run = Command::new(env!("CARGO_BIN_EXE_numi"))
                .args(&example.arguments[1..])
                .current_dir(&folder)
                .output()
                .expect("numi runs");
            let printed = [run.stdout, run.stderr].concat();
            let actual: Vec<String> = String::from_utf8_lossy(&printed)
                .lines()
                .map(str::to_owned)
                .collect();
            let status_right = example
                .exit
                .is_none_or(|shown| run.status.code() == Some(shown));
            if !output_matches(&example.output, &actual) || !status_right {
                stale.push(format!(
                    "{name}:{}: `{}` prints (exit {:?}):\n{}\n",
                    example.line,
                    example.arguments.join(" "),
                    run.status.code(),
                    actual.join("\n")
                ));
            }
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
    assert!(count >= 5, "only {count} marked examples found");
}

#[test]
fn every_output_example_is_marked() {
    let mut unmarked = Vec::new();
    for page in pages() {
        let (blocks, _) = split(&read(&page));
        for block in blocks {
            let shows_a_run = matches!(block.info.as_str(), "console" | "text")
                && block
                    .lines
                    .iter()
                    .any(|(_, line)| line.starts_with("$ numi "));
            if shows_a_run && block.marked.is_none() {
                let line = block.lines.first().map_or(0, |(number, _)| *number);
                unmarked.push(format!("{}:{line}", page.display()));
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "output examples no test runs (mark them `<!-- numi-output -->`): {unmarked:?}"
    );
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let broken: Vec<String> = pages()
        .iter()
        .flat_map(|page| broken_links(&root(), page))
        .collect();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_readme_is_read_in_two_minutes() {
    let readme = read(Path::new("README.md"));
    let lines: Vec<&str> = readme.lines().collect();
    assert!(lines.len() <= 300, "README.md has {} lines", lines.len());
    for heading in ["## Install", "## Quick start"] {
        let at = lines.iter().position(|line| *line == heading);
        assert!(
            at.is_some_and(|at| at < 80),
            "{heading} is not in the first 80 lines"
        );
    }
    let rule_ids = numi::rules::all()
        .filter(|rule| readme.contains(rule.id))
        .count();
    assert!(rule_ids <= 10, "README.md names {rule_ids} rule ids");
}

#[test]
fn the_manual_index_links_every_page() {
    let index = read(Path::new("docs/README.md"));
    let linked: Vec<String> = split(&index)
        .1
        .iter()
        .flat_map(|(_, line)| link_targets(line))
        .collect();
    for page in pages().iter().filter(|page| page.starts_with("docs")) {
        let name = page
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        if name != "README.md" {
            assert!(
                linked.contains(&name),
                "docs/README.md does not link {name}"
            );
        }
    }
}

// --- the checkers themselves

#[test]
fn commands_are_found_in_shell_and_prompted_blocks_only() {
    let page = "\
text `numi not-in-a-block`

```sh
numi validate --files a.yaml | jq . > out.json   # a comment
for kind in A B; do numi schema \"$kind\" > \"$kind.json\"; done
for kind in A B; do numi schema --list; done
cargo run --release -- validate --files examples
numi completions zsh > \"${fpath[1]}/_numi\"
numi validate --files PATH...
numi explain <id>
numi fix [DIR]
```

```console
$ numi --version
numi 0.1.0
```

```yaml
- run: numi validate --format sarif
```
";
    let shown: Vec<Vec<String>> = shown_commands(page)
        .into_iter()
        .map(|shown| shown.arguments)
        .collect();
    let words = |line: &str| -> Vec<String> { line.split(' ').map(str::to_owned).collect() };
    assert_eq!(
        shown,
        vec![
            words("numi validate --files a.yaml"),
            words("numi schema --list"),
            words("numi validate --files examples"),
            words("numi completions zsh"),
            words("numi --version"),
        ]
    );
}

#[test]
fn a_command_numi_refuses_is_reported_and_one_it_takes_is_not() {
    let page = "```sh\nnumi validate --formt json\nnumi validate --format json --files a.yaml\nnumi nonsense\n```\n";
    let refused = unparsable_commands("page.md", page);
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(
        refused[0].starts_with("page.md:2: `numi validate --formt json`"),
        "{refused:?}"
    );
    assert!(
        refused[1].starts_with("page.md:4: `numi nonsense`"),
        "{refused:?}"
    );
    assert!(
        unparsable_commands(
            "page.md",
            "```sh\nnumi --version\nnumi explain --list\n```\n"
        )
        .is_empty()
    );
}

#[test]
fn marked_outputs_are_read_and_matched_with_ellipses() {
    let page = "\
<!-- numi-output -->
```console
$ numi slug \"Never commit.\"
never-commit
$ numi explain x
first
...
last
```

```console
$ numi not-marked
anything
```
";
    let examples = marked_examples("page.md", page).expect("a well-formed page");
    assert_eq!(examples.len(), 2);
    assert_eq!(examples[0].arguments, ["numi", "slug", "Never commit."]);
    assert_eq!(examples[0].output, ["never-commit"]);
    let lines = |text: &str| -> Vec<String> { text.lines().map(str::to_owned).collect() };
    assert!(output_matches(&examples[1].output, &lines("first\nlast")));
    assert!(output_matches(
        &examples[1].output,
        &lines("first\na\nb\nlast")
    ));
    assert!(!output_matches(
        &examples[1].output,
        &lines("first\nlast\nmore")
    ));
    assert!(!output_matches(
        &examples[0].output,
        &lines("never-commit-2")
    ));
    assert!(output_matches(
        &lines("1 document: 1 ok (in 0.01s)"),
        &lines("1 document: 1 ok (in 1.25s)")
    ));
    let piped = "<!-- numi-output -->\n```console\n$ numi validate | jq .\n```\n";
    assert!(marked_examples("page.md", piped).is_err());
}

#[test]
fn anchors_follow_githubs_rules() {
    let page = "# numi\n## Output formats\n### `evalset/cases-sorted`\n## --strict\n## Notes\n## Notes\n```sh\n# not a heading\n```\n";
    assert_eq!(
        anchors(page),
        [
            "numi",
            "output-formats",
            "evalsetcases-sorted",
            "--strict",
            "notes",
            "notes-1"
        ]
    );
}

#[test]
fn a_broken_link_or_anchor_is_reported_and_a_good_one_is_not() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(dir.path().join("docs")).expect("docs/");
    std::fs::write(dir.path().join("docs/other.md"), "# Other\n## A section\n").expect("a page");
    std::fs::write(
        dir.path().join("docs/page.md"),
        "# Page\n\
         [good](other.md), [good anchor](other.md#a-section), [here](#page), [up](../docs/)\n\
         [web](https://example.com/x#y) `[in code](missing.md)`\n\
         [missing](nothing.md) and [bad anchor](other.md#no-section)\n\
         [bad here](#nowhere)\n\
         ```md\n[in a block](missing.md)\n```\n",
    )
    .expect("a page");
    let broken = broken_links(dir.path(), Path::new("docs/page.md"));
    assert_eq!(
        broken,
        [
            "docs/page.md:4: nothing.md: no such file",
            "docs/page.md:4: other.md#no-section: no heading with this anchor",
            "docs/page.md:5: #nowhere: no heading with this anchor",
        ]
    );
    assert!(broken_links(dir.path(), Path::new("docs/other.md")).is_empty());
}
