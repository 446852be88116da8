//! The module structure of `src/` (issue 28, item 4): the runtime the generated types call
//! (reading, captures, numbers, unknown members, the skim, constraint checks, agent knowledge)
//! is a floor below the SDK and the validator, and no modules import each other in a cycle.
//!
//! The graph is read from the source: every `crate::…` and `super::…` path, in `use` trees and in
//! code, is an edge to the deepest module it names. A module and its own ancestors or
//! descendants may use each other (a parent declares its children; a child uses what its parent
//! re-exports); the generated code (`crate::generated`, included from the build) is not a
//! module of `src/` and is left out. Comments and `#[cfg(test)] mod tests` are not read.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

/// Modules of the floor, by path prefix: what generated code calls, and nothing above it.
const FLOOR: &[&str] = &[
    "__private",
    "number",
    "extra",
    "pattern",
    "constant",
    "formats",
    "pointer",
    "shorten",
    "invalid",
    "contract",
    "agent",
];

/// Every module of `src/` and the text of its file.
fn modules() -> BTreeMap<Module, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    // `#[path = "dir/mod.rs"] pub mod name;`: a directory whose module has another name.
    let mut renamed = BTreeMap::new();
    let mut lines = lib.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(path) = line.trim().strip_prefix("#[path = \"").and_then(|rest| rest.split('"').next())
            && let Some(next) = lines.peek()
            && let Some(name) = next.trim().trim_end_matches(';').rsplit(' ').next()
        {
            let file = path.strip_suffix("/mod.rs").or_else(|| path.strip_suffix(".rs")).unwrap_or(path);
            renamed.insert(file.to_owned(), name.to_owned());
        }
    }
    let mut out = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap();
            let mut module: Module =
                relative.with_extension("").iter().map(|part| part.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|last| last == "mod" || last == "lib") {
                module.pop();
            }
            // A top-level module declared with `#[path]` (`private/…` is `__private`).
            let top = relative.iter().next().map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned());
            if let (Some(first), Some(top)) = (module.first_mut(), top)
                && let Some(name) = renamed.get(&top)
            {
                first.clone_from(name);
            }
            out.insert(module, std::fs::read_to_string(&path).unwrap());
        }
    }
    out
}

/// `text` without comments and without its unit tests.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// The paths of a `use` tree (`a::{b, c::{d as e}}` gives `a::b`, `a::c::d`).
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split("as").next().unwrap_or_default().to_owned()];
    };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())]);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).flat_map(expand).map(|p| format!("{prefix}{p}")).collect()
}

/// Every `crate::`/`super::`/`self::` path of `code`, as segments from the crate root.
fn paths(module: &[String], code: &str) -> Vec<Module> {
    let mut raw: Vec<String> = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let boundary = at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric() && rest.as_bytes()[at - 1] != b'_';
        let tail = &rest[at + 4..];
        let Some(end) = tail.find(';') else { break };
        if boundary {
            raw.extend(expand(&tail[..end]));
        }
        rest = &tail[end..];
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(start) {
            let at = from + found;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            raw.push(code[at..end].trim_end_matches(':').to_owned());
        }
    }
    let mut out = Vec::new();
    for path in raw {
        let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let base: Module = match segments.first().copied() {
            Some("crate") => {
                segments.remove(0);
                Vec::new()
            }
            Some("self") => {
                segments.remove(0);
                module.to_vec()
            }
            Some("super") => {
                // `super` of a file module is its parent; of a `mod.rs`, the directory's parent.
                let mut base: Module = module.to_vec();
                while segments.first() == Some(&"super") {
                    segments.remove(0);
                    base.pop();
                }
                base
            }
            _ => continue,
        };
        out.push(base.into_iter().chain(segments.into_iter().map(str::to_owned)).collect());
    }
    out
}

/// The edges of the graph: each module to the modules it names (see the module docs).
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, text) in &modules {
        let set = edges.entry(module.clone()).or_default();
        for path in paths(module, &code(text)) {
            // The deepest module the path names.
            let Some(target) = (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|m| modules.contains_key(m))
            else {
                continue;
            };
            let related = target.starts_with(module) || module.starts_with(&target);
            if !related && !target.is_empty() {
                set.insert(target);
            }
        }
    }
    edges
}

fn name(module: &[String]) -> String {
    if module.is_empty() { "crate".to_owned() } else { module.join("::") }
}

/// The cycles of `edges`: its strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Module) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.out
}

#[test]
fn no_modules_of_src_import_each_other_in_a_cycle() {
    let edges = graph();
    assert!(edges.len() > 40, "read only {} modules", edges.len());
    let found: Vec<String> = cycles(&edges)
        .iter()
        .map(|cycle| {
            let members: BTreeSet<&Module> = cycle.iter().collect();
            cycle
                .iter()
                .map(|m| {
                    let inside: Vec<String> =
                        edges[m].iter().filter(|t| members.contains(t)).map(|t| name(t)).collect();
                    format!("  {} -> {}", name(m), inside.join(", "))
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    assert!(found.is_empty(), "modules of src/ in an import cycle:\n{}", found.join("\n\n"));
}

#[test]
fn the_runtime_of_the_generated_types_is_a_floor() {
    let edges = graph();
    let in_floor = |module: &Module| module.first().is_some_and(|first| FLOOR.contains(&first.as_str()));
    let up: Vec<String> = edges
        .iter()
        .filter(|(module, _)| in_floor(module))
        .flat_map(|(module, targets)| {
            targets
                .iter()
                .filter(|t| !in_floor(t) && !t.is_empty())
                .map(move |t| format!("{} -> {}", name(module), name(t)))
        })
        .collect();
    assert!(up.is_empty(), "the floor uses what sits above it:\n{}", up.join("\n"));
}

/// The reading can fail: a cycle and an upward use are found where they are.
#[test]
fn the_reading_finds_uses_and_cycles() {
    assert_eq!(expand("crate::a::{b, c::{d as e, f}}"), ["crate::a::b", "crate::a::c::d", "crate::a::c::f"]);
    let module: Module = vec!["x".into(), "y".into()];
    let found = paths(&module, "use super::z::W; fn f() { crate::a::b(); self::q::r(); }");
    assert!(found.contains(&vec!["x".to_owned(), "z".to_owned(), "W".to_owned()]), "{found:?}");
    assert!(found.contains(&vec!["a".to_owned(), "b".to_owned()]), "{found:?}");
    assert!(found.contains(&vec!["x".to_owned(), "y".to_owned(), "q".to_owned(), "r".to_owned()]), "{found:?}");
    let (a, b, c): (Module, Module, Module) = (vec!["a".into()], vec!["b".into()], vec!["c".into()]);
    let edges = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b.clone(), BTreeSet::from([a.clone()])),
        (c.clone(), BTreeSet::from([a.clone()])),
    ]);
    assert_eq!(cycles(&edges), [vec![a, b]]);
}
