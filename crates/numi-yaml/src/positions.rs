//! Where each node of a loaded document stands in its source, kept beside the
//! JSON value so that a path of typed steps can be turned into the bytes of
//! its node; [`super::LineIndex`] turns those into lines and columns.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::Span;

/// The positions of one node and, for a collection, of its children in the
/// order they appear (for a mapping, the order of its keys).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodePositions {
    /// The node's bytes, as the parser reports them: a scalar with its
    /// quotes (a block scalar from its first line of content to its last),
    /// a collection from its first token to its last, an alias its `*name`.
    pub(crate) at: Span,
    /// For a mapping: the bytes of each key.
    pub(crate) keys: Vec<Span>,
    pub(crate) children: Vec<NodePositions>,
}

/// One step of a path into a document: a key of a mapping, or an index of
/// a sequence. A key that reads as a number is still a key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathSegment {
    Key(String),
    Index(usize),
}

/// A key.
impl From<&str> for PathSegment {
    fn from(key: &str) -> Self {
        PathSegment::Key(key.to_owned())
    }
}

/// A key.
impl From<&String> for PathSegment {
    fn from(key: &String) -> Self {
        PathSegment::Key(key.clone())
    }
}

/// A key.
impl From<String> for PathSegment {
    fn from(key: String) -> Self {
        PathSegment::Key(key)
    }
}

/// An index.
impl From<usize> for PathSegment {
    fn from(index: usize) -> Self {
        PathSegment::Index(index)
    }
}

/// What a path resolves to in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located {
    /// The deepest node on the path that exists: the node itself when it
    /// exists, else the collection that lacks the rest of the path.
    pub node: Span,
    /// When the last step is a key that exists: where that key stands.
    pub key: Option<Span>,
    /// Whether the whole path exists.
    pub exists: bool,
}

/// Finds the place of a key among the keys of its mapping. A small mapping is
/// scanned; a large one is indexed on its first lookup, so that looking up
/// every key of a mapping stays linear in its size. Keep one index for all
/// the lookups into one document.
#[derive(Debug, Default)]
pub struct KeyIndex<'v> {
    mappings: HashMap<*const Map<String, Value>, HashMap<&'v str, usize>>,
}

impl<'v> KeyIndex<'v> {
    /// Mappings with at most this many keys are scanned, never indexed.
    const SCAN: usize = 32;

    /// The place of `key` among the keys of `map`, in source order.
    pub fn place(&mut self, map: &'v Map<String, Value>, key: &str) -> Option<usize> {
        if map.len() <= Self::SCAN {
            return map.keys().position(|k| k == key);
        }
        self.mappings
            .entry(std::ptr::from_ref(map))
            .or_insert_with(|| {
                map.keys()
                    .enumerate()
                    .map(|(place, k)| (k.as_str(), place))
                    .collect()
            })
            .get(key)
            .copied()
    }

    /// How many mappings have been indexed.
    pub fn indexed(&self) -> usize {
        self.mappings.len()
    }
}

impl NodePositions {
    /// The node's bytes.
    pub fn span(&self) -> Span {
        self.at
    }

    /// For a mapping: the bytes of each key, in source order.
    pub fn keys(&self) -> &[Span] {
        &self.keys
    }

    /// The positions of a collection's children, in source order.
    pub fn children(&self) -> &[NodePositions] {
        &self.children
    }

    pub(crate) fn leaf(at: Span) -> Self {
        NodePositions {
            at,
            keys: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Follows `path` through `value` and these positions side by side.
    pub fn locate<'v>(
        &self,
        value: &'v Value,
        path: &[PathSegment],
        keys: &mut KeyIndex<'v>,
    ) -> Located {
        let mut node = self;
        let mut value = value;
        let mut key = None;
        for segment in path {
            let step = match (segment, value) {
                (PathSegment::Key(name), Value::Object(map)) => {
                    keys.place(map, name).and_then(|i| {
                        map.get(name)
                            .map(|child| (i, child, node.keys.get(i).copied()))
                    })
                }
                (PathSegment::Index(i), Value::Array(items)) => {
                    items.get(*i).map(|child| (*i, child, None))
                }
                _ => None,
            };
            let Some((index, child_value, child_key)) = step else {
                return Located {
                    node: node.at,
                    key: None,
                    exists: false,
                };
            };
            let Some(child) = node.children.get(index) else {
                return Located {
                    node: node.at,
                    key: None,
                    exists: false,
                };
            };
            node = child;
            value = child_value;
            key = child_key;
        }
        Located {
            node: node.at,
            key,
            exists: true,
        }
    }
}

/// Splits an RFC 6901 JSON pointer into its segments; numeric segments are
/// array indexes only where the value at that step is an array. For tests
/// alone: a path is built from typed steps, never parsed back from text.
#[cfg(test)]
pub(crate) fn parse_pointer(value: &Value, pointer: &str) -> Vec<PathSegment> {
    let mut segments = Vec::new();
    let mut current = Some(value);
    for raw in pointer.split('/').skip(1) {
        // Most steps hold no escape, and are taken as they are.
        let name = if raw.contains('~') {
            raw.replace("~1", "/").replace("~0", "~")
        } else {
            raw.to_owned()
        };
        let segment = match (current, name.parse::<usize>()) {
            (Some(Value::Array(_)), Ok(index)) => PathSegment::Index(index),
            _ => PathSegment::Key(name),
        };
        current = match (&segment, current) {
            (PathSegment::Key(k), Some(Value::Object(map))) => map.get(k),
            (PathSegment::Index(i), Some(Value::Array(items))) => items.get(*i),
            _ => None,
        };
        segments.push(segment);
    }
    segments
}

/// The place of `path` in document order: the index of each step among its
/// siblings. Comparing two keys orders nodes as they stand in the source; a
/// missing property sorts after its existing siblings, where it would be added.
pub fn document_order(value: &Value, path: &[PathSegment]) -> Vec<usize> {
    document_order_with(value, path, &mut KeyIndex::default())
}

/// [`document_order`] for many paths into one document, sharing `keys`.
pub fn document_order_with<'v>(
    value: &'v Value,
    path: &[PathSegment],
    keys: &mut KeyIndex<'v>,
) -> Vec<usize> {
    let mut order = Vec::with_capacity(path.len());
    let mut current = Some(value);
    for segment in path {
        let (index, next) = match (segment, current) {
            (PathSegment::Key(name), Some(Value::Object(map))) => match keys.place(map, name) {
                Some(i) => (i, map.get(name)),
                None => (map.len(), None),
            },
            (PathSegment::Index(i), Some(Value::Array(items))) => (*i, items.get(*i)),
            _ => (usize::MAX, None),
        };
        order.push(index);
        current = next;
    }
    order
}

/// Writes segments as an RFC 6901 JSON pointer. For tests alone: numi's
/// `Address` writes itself.
#[cfg(test)]
pub(crate) fn format_pointer(path: &[PathSegment]) -> String {
    let mut pointer = String::new();
    for segment in path {
        pointer.push('/');
        match segment {
            PathSegment::Key(name) => {
                pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
            }
            PathSegment::Index(index) => pointer.push_str(&index.to_string()),
        }
    }
    pointer
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_round_trip_with_escapes() {
        let value = json!({"a/b": {"c~d": [1, 2]}});
        let path = parse_pointer(&value, "/a~1b/c~0d/1");
        assert_eq!(
            path,
            vec![
                PathSegment::Key("a/b".into()),
                PathSegment::Key("c~d".into()),
                PathSegment::Index(1)
            ]
        );
        assert_eq!(format_pointer(&path), "/a~1b/c~0d/1");
    }

    #[test]
    fn document_order_follows_the_source_and_puts_missing_keys_last() {
        let value = json!({"b": [1, 2], "a": {"x": 1}});
        let key = |p: &str| document_order(&value, &parse_pointer(&value, p));
        assert!(key("/b/1") < key("/a"));
        assert!(key("/b") < key("/b/0"));
        assert!(key("/a/x") < key("/a/missing"));
        assert!(key("/b/9") < key("/b/10"));
    }

    #[test]
    fn large_mappings_are_indexed_once_and_agree_with_a_scan() {
        let mut map = Map::new();
        for i in (0..1000).rev() {
            map.insert(format!("k{i}"), Value::from(i));
        }
        let value = json!({"small": {"b": 1, "a": 2}, "large": Value::Object(map)});
        let mut keys = KeyIndex::default();
        for i in 0..1000 {
            let path = parse_pointer(&value, &format!("/large/k{i}"));
            assert_eq!(
                document_order_with(&value, &path, &mut keys),
                vec![1, 999 - i]
            );
        }
        let missing = parse_pointer(&value, "/large/zzz");
        assert_eq!(
            document_order_with(&value, &missing, &mut keys),
            vec![1, 1000]
        );
        let small = parse_pointer(&value, "/small/a");
        assert_eq!(document_order_with(&value, &small, &mut keys), vec![0, 1]);
        // One index for the large mapping; the root and the small one are scanned.
        assert_eq!(keys.indexed(), 1);

        let positions = NodePositions::default();
        let located = positions.locate(&value, &missing, &mut keys);
        assert!(!located.exists);
        assert_eq!(keys.indexed(), 1);
    }

    #[test]
    fn numeric_keys_of_mappings_stay_keys() {
        let value = json!({"7": true});
        assert_eq!(
            parse_pointer(&value, "/7"),
            vec![PathSegment::Key("7".into())]
        );
    }
}
