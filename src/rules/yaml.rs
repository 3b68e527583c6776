//! Rules of the `yaml:` stage: one UTF-8 YAML document with a mapping root
//! that JSON can hold.

use super::RuleDoc;
use crate::diagnostic::Stage;

pub const YAML: &[RuleDoc] = &[
    RuleDoc {
        id: "yaml/syntax",
        stage: Stage::Yaml,
        summary: "The file is well-formed YAML.",
        explanation: "numi parses each file with a YAML 1.2 parser and reports the parser's \
message with the line and column where it stopped: an unclosed quote or bracket, a tab used \
for indentation, an alias with no anchor, a key at the wrong indentation.\n\n\
Fix the text at the position shown; the problem often starts a little before it, where a \
quote or bracket was opened.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix
spec: {change_type: bugfix}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "yaml/duplicate-key",
        stage: Stage::Yaml,
        summary: "No mapping holds the same key twice.",
        explanation: "YAML forbids duplicate keys, but many tools silently keep the last \
one, so the value a reviewer reads may not be the value a program uses. numi refuses them at \
any depth and names the second occurrence.\n\n\
Keep one of the two entries.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata:
  name: bugfix
  name: bugfix-bounded
spec: {change_type: bugfix}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata:
  name: bugfix-bounded
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "yaml/multiple-documents",
        stage: Stage::Yaml,
        summary: "A file holds exactly one YAML document.",
        explanation: "Each file is one Numinance document, named by its path in every report. \
A `---` line that starts a second document would hide it from that name.\n\n\
Put each document in a file of its own.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
---
apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: hotfix}
spec: {change_type: hotfix}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "yaml/empty",
        stage: Stage::Yaml,
        summary: "The file holds a document, not only whitespace, comments or a null.",
        explanation: "An empty file is almost always a mistake (a truncated write, a \
placeholder), and it has no kind to check.\n\n\
Write the document, or delete the file.",
        failing: "# the bugfix playbook goes here\n",
        passing: r#"# the bugfix playbook
apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "yaml/root-not-mapping",
        stage: Stage::Yaml,
        summary: "The document root is a mapping.",
        explanation: "Every Numinance document is a mapping with `apiVersion`, `kind` and the \
kind's fields. A sequence or a scalar at the root is not a document numi can check.\n\n\
Remove the leading `- ` (one document per file), or wrap the value in its kind's fields.",
        failing: r#"- apiVersion: numinance.dev/v1
  kind: Playbook
  metadata: {name: bugfix}
  spec: {change_type: bugfix}
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "yaml/encoding",
        stage: Stage::Yaml,
        summary: "The file is UTF-8 without a byte-order mark.",
        explanation: "numi reads UTF-8 only, so every tool in a pipeline sees the same \
characters. It refuses UTF-16 and UTF-32 (with or without a byte-order mark), a UTF-8 \
byte-order mark, and bytes that are not valid UTF-8 (naming the byte offset of the first).\n\n\
Save the file as UTF-8 without a byte-order mark (in most editors: \"UTF-8\", not \
\"UTF-8 with BOM\").",
        failing: "",
        passing: "",
    },
    RuleDoc {
        id: "yaml/tag",
        stage: Stage::Yaml,
        summary: "Values carry no custom tags, and a core tag fits its value.",
        explanation: "Tags such as `!include` or `!!python/object` ask a loader to run code or \
read other files; numi resolves none of them, so a document means the same in every tool. \
The core tags `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, `!!seq` and `!!map` are \
accepted when the value fits them (`!!int abc` does not).\n\n\
Write the value itself instead of the tag.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: !include bugfix-spec.yaml
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
"#,
    },
    RuleDoc {
        id: "yaml/not-json",
        stage: Stage::Yaml,
        summary: "Every number is finite, so the document can be held as JSON.",
        explanation: "Numinance documents are checked against JSON Schemas and exchanged as \
JSON, which has no infinity and no NaN. YAML's `.inf` and `.nan` have no JSON value.\n\n\
Write a finite number, or quote the text if a string is meant.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: .inf
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
  max_repair_attempts: 2
"#,
    },
    RuleDoc {
        id: "yaml/complex-key",
        stage: Stage::Yaml,
        summary: "Every mapping key is a string: not a sequence, a mapping or null.",
        explanation: "YAML allows a sequence or a mapping as a key (`? [a, b]`), JSON does not, \
and no Numinance field has such a key. A null key (an empty key, `~`, `null`, `!!null`) is not \
a string either: read as `\"\"` or `\"~\"` it would stand for, and collide with, the string \
key written that way.\n\n\
Use a plain string key; quote it (`\"~\": x`) if the text is meant.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  ? [change_type]
  : bugfix
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec:
  change_type: bugfix
"#,
    },
    RuleDoc {
        id: "yaml/too-deep",
        stage: Stage::Yaml,
        summary: "Collections nest at most 128 levels deep, aliases expanded.",
        explanation: "No Numinance document nests deeply; a file that does is hostile or \
generated by mistake, and checking it would cost unbounded stack. The limit counts \
collections inside aliases too, and flow collections stop at 255 levels in the parser.\n\n\
Flatten the structure.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
extensions:
  a: &a [[[[[[[[[[x]]]]]]]]]]
  b: &b [[[[[[[[[[*a]]]]]]]]]]
  c: &c [[[[[[[[[[*b]]]]]]]]]]
  d: &d [[[[[[[[[[*c]]]]]]]]]]
  e: &e [[[[[[[[[[*d]]]]]]]]]]
  f: &f [[[[[[[[[[*e]]]]]]]]]]
  g: &g [[[[[[[[[[*f]]]]]]]]]]
  h: &h [[[[[[[[[[*g]]]]]]]]]]
  i: &i [[[[[[[[[[*h]]]]]]]]]]
  j: &j [[[[[[[[[[*i]]]]]]]]]]
  k: &k [[[[[[[[[[*j]]]]]]]]]]
  l: &l [[[[[[[[[[*k]]]]]]]]]]
  m: &m [[[[[[[[[[*l]]]]]]]]]]
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
extensions:
  a: &a [[[[[[[[[[x]]]]]]]]]]
  b: &b [[[[[[[[[[*a]]]]]]]]]]
"#,
    },
    RuleDoc {
        id: "yaml/too-many-nodes",
        stage: Stage::Yaml,
        summary: "The document holds at most 100,000 nodes, aliases expanded.",
        explanation: "Aliases let a few lines expand into billions of values (the \"billion \
laughs\" attack). numi counts every node an alias copies and stops before the copy that \
passes the budget, so such a file costs nothing to refuse.\n\n\
Write the values out, or use fewer nested aliases.",
        failing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
extensions:
  a: &a [x, x, x, x, x, x, x, x, x, x]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
  g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
"#,
        passing: r#"apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix}
spec: {change_type: bugfix}
extensions:
  a: &a [x, x, x, x, x, x, x, x, x, x]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
"#,
    },
    RuleDoc {
        id: "yaml/too-much-text",
        stage: Stage::Yaml,
        summary: "The document holds at most 64 MiB of key and scalar text, aliases expanded.",
        explanation: "An alias of one long string copies all of its text, so a small file can \
expand into gigabytes within the node budget. numi counts the text each node and each alias \
copy adds, and stops before the copy that passes 64 MiB, so memory stays bounded.\n\n\
Write the text out once, or refer to it fewer times.",
        failing: "",
        passing: "",
    },
];
