//! Rules of the `yaml:` stage: one UTF-8 YAML document with a mapping root
//! that JSON can hold.

use numi_yaml::Problem;

use crate::diagnostic::{RuleDoc, Severity, Stage};

/// The rule a problem of the YAML front end is reported under.
pub fn rule_of(problem: Problem) -> &'static RuleDoc {
    match problem {
        Problem::Syntax => &SYNTAX,
        Problem::DuplicateKey => &DUPLICATE_KEY,
        Problem::MultipleDocuments => &MULTIPLE_DOCUMENTS,
        Problem::Empty => &EMPTY,
        Problem::RootNotMapping => &ROOT_NOT_MAPPING,
        Problem::Encoding => &ENCODING,
        Problem::Tag => &TAG,
        Problem::NotJson => &NOT_JSON,
        Problem::ComplexKey => &COMPLEX_KEY,
        Problem::TooDeep => &TOO_DEEP,
        Problem::TooManyNodes => &TOO_MANY_NODES,
        Problem::TooMuchText => &TOO_MUCH_TEXT,
        Problem::JsonSyntax => &JSON_SYNTAX,
    }
}

pub const YAML: &[RuleDoc] = &[
    SYNTAX,
    DUPLICATE_KEY,
    MULTIPLE_DOCUMENTS,
    EMPTY,
    ROOT_NOT_MAPPING,
    ENCODING,
    TAG,
    NOT_JSON,
    COMPLEX_KEY,
    TOO_DEEP,
    TOO_MANY_NODES,
    TOO_MUCH_TEXT,
    JSON_SYNTAX,
];

pub const SYNTAX: RuleDoc = RuleDoc {
    id: "yaml/syntax",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "The file is well-formed YAML.",
    explanation: "numi parses each file with a YAML 1.2 parser and reports the parser's message with the \
line and column where it stopped: an unclosed quote or bracket, a tab used for \
indentation, an alias with no anchor, a key at the wrong indentation, a control character \
written as it is, a `|` or `>` starting a plain scalar in a flow collection.\n\nFix the \
text at the position shown; the problem often starts a little before it, where a quote \
or bracket was opened. Write a control character as an escape in a double-quoted string \
(`\"\\x02\"`), and quote text that starts with an indicator (`{a: \"|\"}`).",
    failing: include_str!("examples/yaml/syntax.failing.yaml"),
    passing: include_str!("examples/yaml/syntax.passing.yaml"),
};

pub const DUPLICATE_KEY: RuleDoc = RuleDoc {
    id: "yaml/duplicate-key",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "No mapping holds the same key twice.",
    explanation: "YAML forbids duplicate keys, but many tools silently keep the last one, so the value a \
reviewer reads may not be the value a program uses. numi refuses them at any depth and \
names the second occurrence.\n\nKeep one of the two entries.",
    failing: include_str!("examples/yaml/duplicate-key.failing.yaml"),
    passing: include_str!("examples/yaml/duplicate-key.passing.yaml"),
};

pub const MULTIPLE_DOCUMENTS: RuleDoc = RuleDoc {
    id: "yaml/multiple-documents",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "A file holds exactly one YAML document.",
    explanation: "Each file is one Numinance document, named by its path in every report. A `---` line \
that starts a second document would hide it from that name.\n\nPut each document in a \
file of its own.",
    failing: include_str!("examples/yaml/multiple-documents.failing.yaml"),
    passing: include_str!("examples/yaml/multiple-documents.passing.yaml"),
};

pub const EMPTY: RuleDoc = RuleDoc {
    id: "yaml/empty",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "The file holds a document, not only whitespace, comments or a null.",
    explanation: "An empty file is almost always a mistake (a truncated write, a placeholder), and it has \
no kind to check.\n\nWrite the document, or delete the file.",
    failing: include_str!("examples/yaml/empty.failing.yaml"),
    passing: include_str!("examples/yaml/empty.passing.yaml"),
};

pub const ROOT_NOT_MAPPING: RuleDoc = RuleDoc {
    id: "yaml/root-not-mapping",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "The document root is a mapping.",
    explanation: "Every Numinance document is a mapping with `apiVersion`, `kind` and the kind's fields. A \
sequence or a scalar at the root is not a document numi can check.\n\nRemove the leading \
`- ` (one document per file), or wrap the value in its kind's fields.",
    failing: include_str!("examples/yaml/root-not-mapping.failing.yaml"),
    passing: include_str!("examples/yaml/root-not-mapping.passing.yaml"),
};

pub const ENCODING: RuleDoc = RuleDoc {
    id: "yaml/encoding",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "The file is UTF-8 without a byte-order mark.",
    explanation: "numi reads UTF-8 only, so every tool in a pipeline sees the same characters. It refuses \
UTF-16 and UTF-32 (with or without a byte-order mark), a UTF-8 byte-order mark, and \
bytes that are not valid UTF-8 (naming the byte offset of the first).\n\nSave the file \
as UTF-8 without a byte-order mark (in most editors: \"UTF-8\", not \"UTF-8 with BOM\").",
    failing: "",
    passing: "",
};

pub const TAG: RuleDoc = RuleDoc {
    id: "yaml/tag",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "Values carry no custom tags, and a core tag fits its value.",
    explanation: "Tags such as `!include` or `!!python/object` ask a loader to run code or read other \
files; numi resolves none of them, so a document means the same in every tool. The core \
tags `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, `!!seq` and `!!map` are accepted \
when the value fits them (`!!int abc` does not).\n\nWrite the value itself instead of \
the tag.",
    failing: include_str!("examples/yaml/tag.failing.yaml"),
    passing: include_str!("examples/yaml/tag.passing.yaml"),
};

pub const NOT_JSON: RuleDoc = RuleDoc {
    id: "yaml/not-json",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "Every number is finite, so the document can be held as JSON.",
    explanation: "Numinance documents are checked against JSON Schemas and exchanged as JSON, which has no \
infinity and no NaN. YAML's `.inf` and `.nan` have no JSON value.\n\nWrite a finite \
number, or quote the text if a string is meant.",
    failing: include_str!("examples/yaml/not-json.failing.yaml"),
    passing: include_str!("examples/yaml/not-json.passing.yaml"),
};

pub const COMPLEX_KEY: RuleDoc = RuleDoc {
    id: "yaml/complex-key",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "Every mapping key is a string: not a sequence, a mapping or null.",
    explanation: "YAML allows a sequence or a mapping as a key (`? [a, b]`), JSON does not, \
and no Numinance field has such a key. A null key (an empty key, `~`, `null`, `!!null`) is not \
a string either: read as `\"\"` or `\"~\"` it would stand for, and collide with, the string \
key written that way.\n\n\
Use a plain string key; quote it (`\"~\": x`) if the text is meant.",
    failing: include_str!("examples/yaml/complex-key.failing.yaml"),
    passing: include_str!("examples/yaml/complex-key.passing.yaml"),
};

pub const TOO_DEEP: RuleDoc = RuleDoc {
    id: "yaml/too-deep",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "Collections nest at most 128 levels deep, aliases expanded.",
    explanation: "No Numinance document nests deeply; a file that does is hostile or generated by mistake, \
and checking it would cost unbounded stack. The limit counts collections inside aliases \
too, and flow collections stop at 255 levels in the parser.\n\nFlatten the structure.",
    failing: include_str!("examples/yaml/too-deep.failing.yaml"),
    passing: include_str!("examples/yaml/too-deep.passing.yaml"),
};

pub const TOO_MANY_NODES: RuleDoc = RuleDoc {
    id: "yaml/too-many-nodes",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "The document holds at most 100,000 nodes, aliases expanded.",
    explanation: "Aliases let a few lines expand into billions of values (the \"billion laughs\" attack). \
numi counts every node an alias copies and stops before the copy that passes the budget, \
so such a file costs nothing to refuse.\n\nWrite the values out, or use fewer nested \
aliases.",
    failing: include_str!("examples/yaml/too-many-nodes.failing.yaml"),
    passing: include_str!("examples/yaml/too-many-nodes.passing.yaml"),
};

pub const TOO_MUCH_TEXT: RuleDoc = RuleDoc {
    id: "yaml/too-much-text",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "The document holds at most 64 MiB of key and scalar text, aliases expanded.",
    explanation: "An alias of one long string copies all of its text, so a small file can expand into \
gigabytes within the node budget. numi counts the text each node and each alias copy \
adds, and stops before the copy that passes 64 MiB, so memory stays bounded.\n\nWrite \
the text out once, or refer to it fewer times.",
    failing: "",
    passing: "",
};

pub const JSON_SYNTAX: RuleDoc = RuleDoc {
    id: "yaml/json-syntax",
    stage: Stage::Yaml,
    severity: Severity::Error,
    summary: "A `.json` file that its family's tools read as JSON is strict JSON (RFC 8259).",
    explanation: "numi reads every document as YAML, which takes comments, trailing commas, \
leading zeros, single quotes and unquoted keys. context-report reads its run manifests and \
tasks files with Python's `json.loads`, and autocontext its store files with `json.loads` \
and `JSON.parse`: they refuse such a file before they start. So a `.json` file of those \
families is checked as strict JSON too, and the finding stands where a JSON parser stops: \
`{\"nPerArm\": 5,}` fails at its `}`, `# note` at its `#`, `{\"seed\": 07}` at its number. \
A byte-order mark is refused as for every file (`yaml/encoding`).\n\nRemove the comment or \
the trailing comma, quote keys and strings with `\"`, write numbers without leading zeros; or \
name the file `.yaml` if a YAML manifest is meant (numi reads one; context-report does not).",
    failing: "",
    passing: "",
};

#[cfg(test)]
mod tests {
    use numi_yaml::Problem;

    use super::{YAML, rule_of};

    #[test]
    fn each_problem_is_reported_under_the_rule_of_its_id_and_each_rule_has_one() {
        for problem in Problem::ALL {
            assert_eq!(rule_of(problem).id, problem.id());
        }
        let ids: Vec<&str> = YAML.iter().map(|rule| rule.id).collect();
        let problems: Vec<&str> = Problem::ALL.iter().map(|p| p.id()).collect();
        assert_eq!(ids, problems);
    }
}
