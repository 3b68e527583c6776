//! Rules of a run that could not check a file: reading it, and numi's own
//! defects. They have no example document: no document can show them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub const READ: &[RuleDoc] = &[IO];

pub const IO: RuleDoc = RuleDoc {
    id: "read/io",
    stage: Stage::Read,
    severity: Severity::Error,
    summary: "The file can be read: it exists, is a regular file, is readable and is not larger than \
--max-file-size.",
    explanation: "numi reports a path it cannot read as an `error` line and exits 1, because the run did \
not check everything it was asked to. The reason names the cause: `no such file or \
directory`, `permission denied`, `not a regular file` (sockets, FIFOs and devices are \
never opened), `too many levels of symbolic links (a folder loop)`, or `the file is \
larger than 16 MiB (--max-file-size)`.\n\nFix the path, the permissions or the link, or \
raise --max-file-size if the file is meant to be that large.",
    failing: "",
    passing: "",
};

pub const INTERNAL: &[RuleDoc] = &[SHAPE, PANIC];

pub const SHAPE: RuleDoc = RuleDoc {
    id: "internal/shape",
    stage: Stage::Internal,
    severity: Severity::Error,
    summary: "A document the kind's schema accepts can be read by the kind's rules.",
    explanation: "The semantic rules read a typed view of a document that passed its schema. If the two \
disagree, numi has a defect, not the input: the document is reported as an `error` and \
the run exits 1. Please report it with the document that shows it.",
    failing: "",
    passing: "",
};

pub const PANIC: RuleDoc = RuleDoc {
    id: "internal/panic",
    stage: Stage::Internal,
    severity: Severity::Error,
    summary: "numi checks a file without failing itself.",
    explanation: "A failure inside numi while checking one file becomes an `error` for that file alone; \
the other files are still checked and reported, and the run exits 1. Please report it \
with the file that shows it.",
    failing: "",
    passing: "",
};
