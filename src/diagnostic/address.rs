//! Where in a document a finding is: the steps from the root to its node,
//! each a key of a mapping or an index of a sequence, as the rule that
//! found it walked them. Every stage that follows the address (placing the
//! finding in the source, ordering findings, fixing them) takes the steps
//! as they are; the JSON pointer (RFC 6901) is only how an output writes it.

use std::fmt::{self, Write as _};

use serde_json::Value;

pub use crate::yaml::PathSegment;

/// The steps from a document's root to a node of it. A key that reads as a
/// number is a key: only a step into a sequence is an index, so an address
/// never depends on guessing from the document which one a step is.
///
/// Built at a rule site with [`address!`](crate::diagnostic::address), or
/// step by step: `Address::root().key("trials").index(0).key("seed")`.
/// Shown, it is the JSON pointer `/trials/0/seed`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Address {
    steps: Vec<PathSegment>,
}

impl Address {
    /// The document itself: no step, written as the empty pointer.
    pub fn root() -> Self {
        Address { steps: Vec::new() }
    }

    /// This address, then the key `name` of the mapping it reaches.
    #[must_use]
    pub fn key(mut self, name: impl Into<String>) -> Self {
        self.steps.push(PathSegment::Key(name.into()));
        self
    }

    /// This address, then the item `index` of the sequence it reaches.
    #[must_use]
    pub fn index(mut self, index: usize) -> Self {
        self.steps.push(PathSegment::Index(index));
        self
    }

    /// This address, then `step`: a string is a key, a `usize` an index.
    #[must_use]
    pub fn step(mut self, step: impl Into<PathSegment>) -> Self {
        self.steps.push(step.into());
        self
    }

    /// This address, then the steps of `rest`: `rest` taken as relative
    /// to this one.
    #[must_use]
    pub fn join(mut self, rest: Address) -> Self {
        self.steps.extend(rest.steps);
        self
    }

    /// Goes one step further in place.
    pub fn push(&mut self, step: impl Into<PathSegment>) {
        self.steps.push(step.into());
    }

    /// Goes back one step in place, returning it; `None` at the root.
    pub fn pop(&mut self) -> Option<PathSegment> {
        self.steps.pop()
    }

    /// The steps, from the root.
    pub fn steps(&self) -> &[PathSegment] {
        &self.steps
    }

    /// The last step; `None` at the root.
    pub fn last(&self) -> Option<&PathSegment> {
        self.steps.last()
    }

    /// Whether this is the address of the document itself.
    pub fn is_root(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether this address is `ancestor` or a node inside it.
    pub fn starts_with(&self, ancestor: &Address) -> bool {
        self.steps.starts_with(&ancestor.steps)
    }

    /// The node of `value` at this address, following each step as it is
    /// typed: a key only into a mapping, an index only into a sequence.
    pub fn find<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.steps
            .iter()
            .try_fold(value, |node, step| match (step, node) {
                (PathSegment::Key(name), Value::Object(map)) => map.get(name),
                (PathSegment::Index(index), Value::Array(items)) => items.get(*index),
                _ => None,
            })
    }

    /// [`Address::find`], for changing the node.
    pub fn find_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        self.steps
            .iter()
            .try_fold(value, |node, step| match (step, node) {
                (PathSegment::Key(name), Value::Object(map)) => map.get_mut(name),
                (PathSegment::Index(index), Value::Array(items)) => items.get_mut(*index),
                _ => None,
            })
    }
}

impl From<Vec<PathSegment>> for Address {
    fn from(steps: Vec<PathSegment>) -> Self {
        Address { steps }
    }
}

impl From<&[PathSegment]> for Address {
    fn from(steps: &[PathSegment]) -> Self {
        Address {
            steps: steps.to_vec(),
        }
    }
}

impl FromIterator<PathSegment> for Address {
    fn from_iter<I: IntoIterator<Item = PathSegment>>(steps: I) -> Self {
        Address {
            steps: steps.into_iter().collect(),
        }
    }
}

/// The JSON pointer of the address (RFC 6901): `/` before each step, `~`
/// in a key written `~0` and `/` written `~1`; the root is the empty text.
impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.steps {
            f.write_char('/')?;
            match step {
                PathSegment::Key(name) if name.contains(['~', '/']) => {
                    for c in name.chars() {
                        match c {
                            '~' => f.write_str("~0")?,
                            '/' => f.write_str("~1")?,
                            c => f.write_char(c)?,
                        }
                    }
                }
                PathSegment::Key(name) => f.write_str(name)?,
                PathSegment::Index(index) => write!(f, "{index}")?,
            }
        }
        Ok(())
    }
}

/// Serialized as the JSON pointer it shows as.
impl serde::Serialize for Address {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// An [`Address`] from its steps, each a string-like key or a `usize`
/// index: `address!["trials", index, "seed"]`; `address![]` is the root.
macro_rules! address {
    ($($step:expr),* $(,)?) => {
        $crate::diagnostic::Address::root()$(.step($step))*
    };
}
pub(crate) use address;

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::yaml::{Limits, load};

    #[test]
    fn shows_as_the_json_pointer_with_its_escapes() {
        assert_eq!(Address::root().to_string(), "");
        assert_eq!(address!["trials", 0, "seed"].to_string(), "/trials/0/seed");
        assert_eq!(address!["a/b", "c~d", "~1"].to_string(), "/a~1b/c~0d/~01");
        assert_eq!(address!["", ""].to_string(), "//");
        assert_eq!(address!["x", "0"].to_string(), "/x/0");
        assert_eq!(address!["x", 0].to_string(), "/x/0");
        let name = String::from("weird/~name");
        assert_eq!(
            address![&name, "/", "~"].to_string(),
            "/weird~1~0name/~1/~0"
        );
        assert_eq!(
            serde_json::to_string(&address!["a/b", 3]).ok().as_deref(),
            Some("\"/a~1b/3\"")
        );
    }

    #[test]
    fn a_key_that_reads_as_a_number_is_not_an_index() {
        assert_eq!(address!["x", "0"], Address::root().key("x").key("0"));
        assert_eq!(address!["x", 0], Address::root().key("x").index(0));
        assert_ne!(address!["x", "0"], address!["x", 0]);
        assert_eq!(address!["x", 0].to_string(), address!["x", "0"].to_string());
        assert!(address!["x", 0, "y"].starts_with(&address!["x", 0]));
        assert!(address!["x", 0].starts_with(&Address::root()));
        assert!(!address!["x", 0].starts_with(&address!["x", "0"]));
        assert!(!address!["x"].starts_with(&address!["x", 0]));
    }

    #[test]
    fn each_step_is_followed_as_it_is_typed() {
        let value = json!({"map": {"0": "key"}, "seq": ["item"]});
        assert_eq!(address!["map", "0"].find(&value), Some(&json!("key")));
        assert_eq!(address!["map", 0].find(&value), None);
        assert_eq!(address!["seq", 0].find(&value), Some(&json!("item")));
        assert_eq!(address!["seq", "0"].find(&value), None);
        assert_eq!(Address::root().find(&value), Some(&value));
    }

    #[test]
    fn a_key_0_and_an_index_0_locate_differently() {
        let text = "map:\n  \"0\": key\nseq:\n  - item\n";
        let Ok(document) = load(text, &Limits::default()) else {
            panic!("the document loads");
        };
        let at = |address: &Address| {
            let located = document.locate(address.steps());
            let node = text.get(located.node.start()..located.node.end());
            (located.exists, node.map(str::to_owned))
        };
        assert_eq!(at(&address!["map", "0"]), (true, Some("key".to_owned())));
        assert_eq!(at(&address!["seq", 0]), (true, Some("item".to_owned())));
        // The other step stops at the collection that lacks it.
        let (exists, node) = at(&address!["map", 0]);
        assert!(!exists);
        assert_eq!(node.as_deref(), Some("\"0\": key"));
        let (exists, node) = at(&address!["seq", "0"]);
        assert!(!exists);
        assert_eq!(node.as_deref(), Some("- item"));
    }
}
