//! numi's integration tests, one module per subject, in one test binary:
//! mostly whole runs of the built `numi`, as a user runs it. The tests that
//! need a tool besides numi are in tests/tools/.

#[path = "../common/mod.rs"]
mod common;

mod autocontext;
mod cli;
mod config;
mod distribution;
mod docs;
mod evals_events;
mod explain;
mod fix;
mod formats;
mod hostile;
mod layers;
mod lsp;
mod output;
mod package;
mod pretty;
mod process;
mod properties;
mod secrets;
mod selection;
mod slug;
mod strict;
mod suggestions;
mod suppression;
mod verified_runs;
mod walk;
mod writes;
