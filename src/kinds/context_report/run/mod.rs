//! ContextReportRun: the run manifest of context-report (v0.1, spec 003),
//! the input of `context-report run`, which spends money on model calls.
//! Everything `context-report run --dry-run` refuses before the first call
//! is checked here, relative to the manifest's folder, so that a wrong
//! manifest fails in the editor and in CI, every problem at once.

mod catalogue;
mod keys;
mod manifest;
mod paths;
mod pyyaml;
mod tasks;

#[cfg(test)]
mod tests;

use serde_json::Value;

use super::super::{Kind, Role, Subject};
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::checks::rule_fails;
use crate::secrets::credentials;
use crate::text::{quote, shorten};
use manifest::ModelEntry;

pub(crate) const KIND: Kind = Kind {
    name: "ContextReportRun",
    api_version: None,
    role: Role::Configuration,
    inferred: false,
    schema: include_str!("../../../../schemas/ContextReportRun.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/ContextReportRun.schema.json"),
    display_name: super::super::no_name,
    rules,
    producer_checks,
    catalogue: catalogue::RULES,
    fixes: &[],
};

/// The only provider whose model works in a folder: the local claude CLI.
const CLAUDE_CLI: &str = "claude-cli";

/// The provider of an OpenAI chat-completions server, the one that takes a
/// `baseUrl` and an `apiKeyEnv`.
const OPENAI_COMPATIBLE: &str = "openai-compatible";

/// The providers a judge may name: spec 003's judge line, "(same two
/// providers)", which context-report 0.1.0 holds to as well.
const JUDGE_PROVIDERS: [&str; 2] = ["anthropic", CLAUDE_CLI];

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let document = subject.value;
    let location = &subject.location;
    let models = manifest::models(document);
    let judge = manifest::judge(document);
    let mut found = Vec::new();
    let subjects = paths::resolve_subjects(manifest::subjects(document), location, &mut found);
    found.extend(unique_subject_ids(&subjects));
    found.extend(workdir_needs_claude_cli(&subjects, &models));
    found.extend(paths::out_overlaps(document, &subjects, location));
    let tasks = tasks::load(document, location, &subjects, &mut found);
    found.extend(tasks::unique_ids(&tasks));
    found.extend(tasks::known_subjects(&tasks, &subjects));
    found.extend(tasks::known_rule_ids(&tasks, &subjects));
    found.extend(whole_numbers(subject));
    found.extend(leave_one_out(document));
    found.extend(judge.as_ref().and_then(judge_provider));
    for model in models.iter().chain(judge.as_ref()) {
        found.extend(openai_compatible_fields(model));
        found.extend(model_credentials(model));
    }
    // A prompt may quote a key to tempt a violation; a real one is worth a
    // warning, never a refusal.
    for task in &tasks {
        for (text, address, what) in &task.texts {
            for credential in credentials(text) {
                found.push(
                    rule_fails(
                        &catalogue::CREDENTIAL_IN_PROMPT,
                        &format!(
                            "a task's prompt and criteria hold no real credential: the {what} of {} holds {}",
                            task.named, credential.what
                        ),
                        address.clone(),
                    )
                    .with_secret(credential.secret),
                );
            }
        }
    }
    found
}

/// A manifest without a folder (standard input) cannot have its paths
/// checked: say so rather than pass them silently.
fn producer_checks(subject: &Subject<'_>) -> Vec<Diagnostic> {
    if subject.location.folder().is_some() {
        return Vec::new();
    }
    vec![Diagnostic::new(&catalogue::PATHS_UNCHECKED,
        "a manifest read from standard input has no folder: its subject, workdir, out and tasks paths are not checked",
    )
    .at(address!["subjects"])]
}

fn unique_subject_ids(subjects: &[paths::Resolved<'_>]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for (index, subject) in subjects.iter().enumerate() {
        let Some(first) = subjects
            .iter()
            .take(index)
            .find(|earlier| earlier.id == subject.id)
        else {
            continue;
        };
        let address = match subject.entry.id {
            Some(_) => subject.entry.address().key("id"),
            None => subject.entry.address().key("path"),
        };
        found.push(rule_fails(
            &catalogue::SUBJECT_ID_UNIQUE,
            &format!(
                "subject ids are unique, an id defaulted from the path's last name included: {} is the id of {} too",
                quote(&shorten(&subject.id)),
                first.entry.address()
            ),
            address,
        ));
    }
    found
}

fn workdir_needs_claude_cli(
    subjects: &[paths::Resolved<'_>],
    models: &[ModelEntry<'_>],
) -> Option<Diagnostic> {
    let with_workdir: Vec<&paths::Resolved<'_>> = subjects
        .iter()
        .filter(|subject| subject.entry.workdir.is_some())
        .collect();
    let without_folder: Vec<String> = models
        .iter()
        .filter(|model| model.provider != CLAUDE_CLI)
        .map(|model| quote(&shorten(&model.qualified())))
        .collect();
    let first = with_workdir.first()?;
    if without_folder.is_empty() {
        return None;
    }
    let named: Vec<String> = with_workdir
        .iter()
        .map(|subject| quote(&shorten(&subject.id)))
        .collect();
    Some(rule_fails(
        &catalogue::WORKDIR_PROVIDER,
        &format!(
            "a workdir is honoured by claude-cli models only (an API has no filesystem): subjects {} set one, and models {} are not claude-cli",
            named.join(", "),
            without_folder.join(", ")
        ),
        first.entry.address().key("workdir"),
    ))
}

/// `nPerArm` as written. JSON Schema judges `integer` by value, so `2.0`,
/// `1e2` and `100000000000000000000` all pass the schema; but
/// context-report reads the first two with `json.loads` as floats, and a
/// run counts its trials with `range(nPerArm)`, which refuses a float. A
/// whole number of any size written without a fraction or an exponent is
/// an integer to Python and passes. `seed` is the schema's integer alone
/// (`3.0`, `1E+1` and `-0.0` are whole numbers): the run only records it.
fn whole_numbers(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let Some(arms) = subject.value.get("arms") else {
        return Vec::new();
    };
    ["nPerArm"]
        .into_iter()
        .filter_map(|field| {
            let number = arms.get(field).filter(|n| n.is_f64())?;
            let address = address!["arms", field];
            let written = crate::yaml::written_at(subject.source, address.steps());
            if written.is_some_and(is_integer_literal) {
                return None;
            }
            let shown = written.map_or_else(|| number.to_string(), str::to_owned);
            let consequence =
                "a run counts its trials with it, and Python's range() refuses a float";
            let instead = number
                .as_f64()
                .filter(|value| value.abs() < 9_007_199_254_740_992.0)
                .map_or_else(
                    || "write it without a fraction or an exponent".to_owned(),
                    |value| format!("write {value:.0}"),
                );
            Some(rule_fails(
                &catalogue::WHOLE_NUMBER,
                &format!(
                    "arms.{field} is written {}, which context-report reads as a float: {consequence}; {instead}",
                    quote(&shorten(&shown))
                ),
                address,
            ))
        })
        .collect()
}

/// An integer as JSON, Python and YAML's core schema write one: digits
/// with an optional sign, or YAML's `0x`/`0o` forms.
fn is_integer_literal(written: &str) -> bool {
    let digits = written.strip_prefix(['-', '+']).unwrap_or(written);
    let (digits, radix) = if let Some(hex) = digits.strip_prefix("0x") {
        (hex, 16)
    } else if let Some(octal) = digits.strip_prefix("0o") {
        (octal, 8)
    } else {
        (digits, 10)
    };
    !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
}

fn leave_one_out(document: &Value) -> Option<Diagnostic> {
    let mode = document.get("arms")?.get("mode")?.as_str()?;
    (mode == "leave-one-out").then(|| {
        rule_fails(
            &catalogue::LEAVE_ONE_OUT,
            "arms.mode is isolated: context-report v0.1 has nothing that runs leave-one-out",
            address!["arms", "mode"],
        )
    })
}

fn judge_provider(judge: &ModelEntry<'_>) -> Option<Diagnostic> {
    (!JUDGE_PROVIDERS.contains(&judge.provider)).then(|| {
        rule_fails(
            &catalogue::JUDGE_PROVIDER,
            &format!(
                "the judge's provider is one of the same two providers as a subject model's (spec 003): anthropic or claude-cli, and {} is not",
                quote(&shorten(judge.provider))
            ),
            address!["judge", "provider"],
        )
    })
}

/// `baseUrl` and `apiKeyEnv` are an openai-compatible model's alone
/// (spec 003's `{provider: "openai-compatible", id, baseUrl, apiKeyEnv?}`).
fn openai_compatible_fields(model: &ModelEntry<'_>) -> Vec<Diagnostic> {
    if model.provider == OPENAI_COMPATIBLE {
        return Vec::new();
    }
    [
        ("baseUrl", model.base_url),
        ("apiKeyEnv", model.api_key_env),
    ]
    .into_iter()
    .filter(|(_, value)| value.is_some())
    .map(|(field, _)| {
        rule_fails(
            &catalogue::OPENAI_COMPATIBLE_FIELDS,
            &format!(
                "{field} is given to an openai-compatible model alone (spec 003), and this \
                     one's provider is {}",
                quote(&shorten(model.provider))
            ),
            model.address.clone().key(field),
        )
    })
    .collect()
}

/// `apiKeyEnv` is a variable's name, never the key; a `baseUrl` carries no
/// credential. The secret is recorded for the renderers to mask, and named
/// by its public prefix alone.
fn model_credentials(model: &ModelEntry<'_>) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    if let Some(name) = model.api_key_env {
        let address = model.address.clone().key("apiKeyEnv");
        let held = credentials(name);
        if let Some(credential) = held.first() {
            found.push(
                rule_fails(
                    &catalogue::CREDENTIAL,
                    &format!(
                        "a manifest holds no credential: apiKeyEnv names the variable that holds the key, and this one holds {}",
                        credential.what
                    ),
                    address,
                )
                .with_secret(name),
            );
        } else if !keys::is_variable_name(name) {
            // Not a name: possibly a key of a shape numi does not know.
            found.push(
                rule_fails(
                    &catalogue::API_KEY_ENV,
                    "apiKeyEnv is the name of an environment variable ([A-Za-z_][A-Za-z0-9_]*)",
                    address,
                )
                .with_secret(name),
            );
        }
    }
    if let Some(url) = model.base_url {
        for credential in credentials(url) {
            found.push(
                rule_fails(
                    &catalogue::CREDENTIAL,
                    &format!(
                        "a manifest holds no credential: a baseUrl holds {}",
                        credential.what
                    ),
                    model.address.clone().key("baseUrl"),
                )
                .with_secret(credential.secret),
            );
        }
    }
    found
}
