//! Where a record points in the source text (issue 31, item 1): the line, column and byte
//! offset of the value at a JSON Pointer, found in one pass over the text for every pointer of
//! a report. A pointer that does not resolve (a missing member, an index past the end) gets the
//! place of the deepest value it does reach: for a missing member, the object that lacks it.
//!
//! The pass follows only the members and items some pointer names; every other value is skipped
//! by a bracket count that respects strings, without reading it. Lines are counted by `\n` (a
//! `\r\n` ends one line); columns count Unicode scalar values from 1, as SARIF's
//! `unicodeCodePoints` column kind does. The text need not be valid JSON: the pass stops where
//! it cannot go on, and what it found until then stands.

use std::collections::HashMap;

/// A place in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in Unicode scalar values.
    pub column: usize,
    /// The byte offset from the start of the text.
    pub offset: usize,
}

impl Position {
    /// The position of byte `offset` of `text`.
    pub fn of(text: &[u8], offset: usize) -> Position {
        places(text, &[offset]).pop().unwrap_or(Position { line: 1, column: 1, offset: 0 })
    }
}

/// The positions of `offsets` in `text`, in their order, found in one pass over the text from
/// the smallest offset to the largest, so that many records on one long line cost one count of
/// that line, not one each.
fn places(text: &[u8], offsets: &[usize]) -> Vec<Position> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets.get(i).copied().unwrap_or(0));
    let mut out = vec![Position { line: 1, column: 1, offset: 0 }; offsets.len()];
    // Where the pass stands: its byte, its line, and the column of that byte.
    let (mut at, mut line, mut column) = (0usize, 1usize, 1usize);
    // A UTF-8 continuation byte (10xxxxxx) starts no scalar value.
    let scalars = |bytes: &[u8]| bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    for i in order {
        let offset = offsets.get(i).copied().unwrap_or(0).min(text.len());
        let between = text.get(at..offset).unwrap_or_default();
        match memchr::memrchr(b'\n', between) {
            Some(last) => {
                line += memchr::memchr_iter(b'\n', between).count();
                column = 1 + scalars(between.get(last + 1..).unwrap_or_default());
            }
            None => column += scalars(between),
        }
        at = offset;
        if let Some(place) = out.get_mut(i) {
            *place = Position { line, column, offset };
        }
    }
    out
}

/// The deepest the pass follows a pointer: deeper tokens place the record at this depth.
const MAX_TOKENS: usize = 512;

/// One node of the trie of the pointers' tokens.
#[derive(Default)]
struct Node {
    children: HashMap<String, usize>,
    /// Where the value at this node's path starts, once found.
    found: Option<usize>,
}

/// The positions of the values at `pointers` (RFC 6901) in the JSON `text`, in the pointers'
/// order; each the place of the deepest value its pointer reaches (the root's, `1:1` after any
/// leading space, when not even the root is a value).
pub fn positions(text: &[u8], pointers: &[&str]) -> Vec<Position> {
    let mut nodes = vec![Node::default()];
    let mut paths: Vec<Vec<usize>> = Vec::with_capacity(pointers.len());
    for pointer in pointers {
        let mut path = vec![0];
        let mut at = 0;
        for token in tokens(pointer).take(MAX_TOKENS) {
            let next = nodes.len();
            let Some(node) = nodes.get_mut(at) else { break };
            let child = *node.children.entry(token).or_insert(next);
            if child == next {
                nodes.push(Node::default());
            }
            path.push(child);
            at = child;
        }
        paths.push(path);
    }
    Scan { text, at: 0, nodes: &mut nodes }.value(0);
    let root = nodes.first().and_then(|n| n.found).unwrap_or_else(|| skip_space(text, 0));
    let offsets: Vec<usize> = paths
        .iter()
        .map(|path| path.iter().rev().find_map(|&n| nodes.get(n).and_then(|node| node.found)).unwrap_or(root))
        .collect();
    places(text, &offsets)
}

/// A pointer's reference tokens, unescaped (`~1` is `/`, `~0` is `~`); none for `""`.
fn tokens(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer.split('/').skip(1).map(|token| token.replace("~1", "/").replace("~0", "~"))
}

/// The offset of the first byte at or after `at` that is not JSON whitespace.
fn skip_space(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

struct Scan<'t, 'n> {
    text: &'t [u8],
    at: usize,
    nodes: &'n mut Vec<Node>,
}

impl Scan<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// Reads the value at `self.at` whose path is trie node `node`: records where it starts,
    /// and follows its members or items that some pointer names. False when the text ends or
    /// stops being JSON.
    fn value(&mut self, node: usize) -> bool {
        self.at = skip_space(self.text, self.at);
        if self.peek().is_none() {
            return false;
        }
        if let Some(n) = self.nodes.get_mut(node) {
            n.found = Some(self.at);
        }
        let wanted = self.nodes.get(node).is_some_and(|n| !n.children.is_empty());
        match self.peek() {
            Some(b'{') if wanted => self.object(node),
            Some(b'[') if wanted => self.array(node),
            Some(_) => self.skip(),
            None => false,
        }
    }

    /// The members of the object at `self.at`, following those the trie names.
    fn object(&mut self, node: usize) -> bool {
        self.at += 1;
        loop {
            self.at = skip_space(self.text, self.at);
            match self.peek() {
                Some(b'}') => {
                    self.at += 1;
                    return true;
                }
                Some(b'"') => {}
                _ => return false,
            }
            let start = self.at;
            if !self.skip_string() {
                return false;
            }
            let name: Option<String> = self.text.get(start..self.at).and_then(|raw| serde_json::from_slice(raw).ok());
            self.at = skip_space(self.text, self.at);
            if self.peek() != Some(b':') {
                return false;
            }
            self.at += 1;
            let child = name.and_then(|name| self.nodes.get(node).and_then(|n| n.children.get(&name).copied()));
            let read = match child {
                Some(child) => self.value(child),
                None => {
                    self.at = skip_space(self.text, self.at);
                    self.skip()
                }
            };
            if !read || !self.after_item(b'}') {
                return false;
            }
        }
    }

    /// The items of the array at `self.at`, following those the trie names.
    fn array(&mut self, node: usize) -> bool {
        self.at += 1;
        let mut index = 0usize;
        loop {
            self.at = skip_space(self.text, self.at);
            if self.peek() == Some(b']') {
                self.at += 1;
                return true;
            }
            let child = self.nodes.get(node).and_then(|n| n.children.get(&index.to_string()).copied());
            let read = match child {
                Some(child) => self.value(child),
                None => self.skip(),
            };
            if !read || !self.after_item(b']') {
                return false;
            }
            index += 1;
        }
    }

    /// After a member or item: a comma (the next one follows), or the closing `close` left for
    /// the caller to read.
    fn after_item(&mut self, close: u8) -> bool {
        self.at = skip_space(self.text, self.at);
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                true
            }
            Some(b) if b == close => true,
            _ => false,
        }
    }

    /// Skips the string at `self.at` (its opening quote): true when it closes.
    fn skip_string(&mut self) -> bool {
        let mut at = self.at + 1;
        loop {
            match memchr::memchr2(b'"', b'\\', self.text.get(at..).unwrap_or_default()) {
                Some(found) if self.text.get(at + found) == Some(&b'\\') => at += found + 2,
                Some(found) => {
                    self.at = at + found + 1;
                    return true;
                }
                None => return false,
            }
        }
    }

    /// Skips the value at `self.at` without reading it: a string, or a scalar, or an object or
    /// array by counting its brackets (strings respected). False when the text ends first.
    fn skip(&mut self) -> bool {
        match self.peek() {
            Some(b'"') => self.skip_string(),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                loop {
                    match self.peek() {
                        Some(b'"') => {
                            if !self.skip_string() {
                                return false;
                            }
                            continue;
                        }
                        Some(b'{' | b'[') => depth += 1,
                        Some(b'}' | b']') => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                self.at += 1;
                                return true;
                            }
                        }
                        Some(_) => {}
                        None => return false,
                    }
                    self.at += 1;
                }
            }
            Some(_) => {
                // A number, `true`, `false` or `null`: up to the next delimiter.
                while self.peek().is_some_and(|b| !matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')) {
                    self.at += 1;
                }
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, pointer: &str) -> (usize, usize) {
        let found = positions(text.as_bytes(), &[pointer]);
        (found[0].line, found[0].column)
    }

    #[test]
    fn members_items_and_what_is_missing() {
        let text = "{\n  \"a\": {\"b\": [10, {\"c\": \"x\"}]},\n  \"d/e\": 1,\n  \"é\": \"ü\", \"f\": 2\n}";
        assert_eq!(at(text, ""), (1, 1));
        assert_eq!(at(text, "/a"), (2, 8));
        assert_eq!(at(text, "/a/b/1/c"), (2, 25));
        assert_eq!(at(text, "/d~1e"), (3, 10));
        // Columns count characters, not bytes: "é" and "ü" are two bytes each.
        assert_eq!(at(text, "/f"), (4, 18));
        // A missing member: the object that lacks it; an index past the end: the array.
        assert_eq!(at(text, "/a/b/1/missing"), (2, 19));
        assert_eq!(at(text, "/a/b/7"), (2, 14));
        assert_eq!(positions(text.as_bytes(), &["/a/b/1/c"])[0].offset, text.find("\"x\"").unwrap());
    }

    #[test]
    fn many_pointers_in_one_pass_and_text_that_is_not_json() {
        let text = r#"[{"k": 1}, {"k": "two"}, {"k": [3]}]"#;
        let found: Vec<usize> =
            positions(text.as_bytes(), &["/2/k/0", "/0/k", "/1"]).iter().map(|p| p.column).collect();
        assert_eq!(found, vec![33, 8, 12]);
        // Cut short: what was found before the end stands; the rest is placed at the root.
        assert_eq!(at(r#"{"a": {"b": "#, "/a/b"), (1, 7));
        assert_eq!(at("", "/a"), (1, 1));
        assert_eq!(at("  nul", "/x"), (1, 3));
        // Escapes in member names, and brackets inside strings when skipping.
        assert_eq!(at(r#"{"s": "]}", "n\"q": 5}"#, "/n\"q"), (1, 21));
    }

    #[test]
    fn many_records_on_one_long_line_are_placed_in_one_pass() {
        let items: Vec<String> = (0..2_000).map(|n| format!("\"é{n}\"")).collect();
        let text = format!("[{}]", items.join(","));
        let pointers: Vec<String> = (0..2_000).rev().map(|n| format!("/{n}")).collect();
        let pointers: Vec<&str> = pointers.iter().map(String::as_str).collect();
        let found = positions(text.as_bytes(), &pointers);
        for (pointer, place) in pointers.iter().zip(&found) {
            let at = text.find(&format!("\"é{}\"", &pointer[1..])).unwrap();
            assert_eq!((place.line, place.column, place.offset), (1, text[..at].chars().count() + 1, at), "{pointer}");
        }
        assert_eq!(Position::of(b"ab\ncd", 4), Position { line: 2, column: 2, offset: 4 });
    }

    #[test]
    fn deep_text_is_skipped_without_recursion() {
        let deep = format!("{{\"x\": {}{}, \"y\": 1}}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(at(&deep, "/y"), (1, 200_014));
    }
}
