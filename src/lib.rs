//! numi validates Numinance documents: one YAML parse per file, kind gates,
//! each kind's strict JSON Schema, then the kind's semantic rules, reported
//! in numi's byte-compatible text format with numi's exit statuses.
//!
//! The binary is a thin shell over [`cli::main`].

pub mod canonical;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod digest;
pub mod fix;
pub mod init;
pub(crate) mod inputs;
pub mod kinds;
pub mod location;
pub mod lsp;
pub(crate) mod project;
pub(crate) mod repair;
pub mod report;
pub mod results;
pub mod rules;
pub(crate) mod run;
pub(crate) mod schema;
pub(crate) mod secrets;
pub(crate) mod suggest;
pub mod text;
pub mod validate;
pub mod verdict;
pub(crate) mod whole_file;
pub use numi_yaml as yaml;

pub use diagnostic::{Address, Diagnostic, Position, Severity, Stage};
pub use validate::{Checked, Mode, validate_bytes};
