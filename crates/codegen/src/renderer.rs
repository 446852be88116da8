//! What the renderers of the contract types in other languages (Python's [`crate::python`],
//! TypeScript's [`crate::typescript`]) share: the findings of a rendering (problems, and the
//! sites where a schema leaves a value open), a schema place as text, a type's summary, word
//! wrapping, and the registry name of each type.

use std::collections::BTreeMap;

use crate::corpus::Problem;
use crate::model::{AnyValue, TypeModel};

/// What a rendering found: the problems (each a construct the language cannot spell, with its
/// schema file and pointer), and every value a schema leaves open, which the language's open type
/// stands for (commented at its site and listed in the file's header).
pub(crate) struct Findings {
    /// The renderer, named in each problem (`Python types`).
    renderer: &'static str,
    /// The language's type of any JSON value (`Any`, `unknown`).
    open: &'static str,
    /// How a comment line starts (`#`, `//`).
    comment: &'static str,
    /// The problems found.
    pub(crate) problems: Vec<Problem>,
    /// Comments for the item being written: the open values found in its types.
    notes: Vec<String>,
    /// Every open value of the file, for its header.
    pub(crate) fallbacks: Vec<String>,
}

impl Findings {
    pub(crate) fn new(renderer: &'static str, open: &'static str, comment: &'static str) -> Self {
        Findings { renderer, open, comment, problems: Vec::new(), notes: Vec::new(), fallbacks: Vec::new() }
    }

    /// Records a problem at `file` and `pointer`; the open type stands in for the place.
    pub(crate) fn problem(&mut self, file: &str, pointer: &str, message: impl Into<String>) -> String {
        self.problems.push(Problem::new(file, pointer, format!("{}: {}", self.renderer, message.into())));
        self.open.to_owned()
    }

    /// Records a value the schema leaves open; the open type.
    pub(crate) fn fallback(&mut self, any: &AnyValue) -> String {
        let note = format!("{}: {} {}", self.open, site(&any.file, &any.pointer), any.reason);
        self.notes.push(note.clone());
        self.fallbacks.push(note);
        self.open.to_owned()
    }

    /// The comment lines of the open values found since the last call.
    pub(crate) fn take_notes(&mut self) -> String {
        let comment = self.comment;
        self.notes.drain(..).map(|n| format!("{comment} {n}\n")).collect()
    }
}

/// `schemas/FILE` or `schemas/FILE#POINTER`.
pub(crate) fn site(file: &str, pointer: &str) -> String {
    if pointer.is_empty() { format!("schemas/{file}") } else { format!("schemas/{file}#{pointer}") }
}

/// A type's summary: its title and the first paragraph of its description (when it differs).
pub(crate) fn summary(ty: &TypeModel) -> Vec<String> {
    let mut paragraphs = Vec::new();
    if let Some(title) = &ty.title {
        paragraphs.push(title.clone());
    }
    if let Some(description) = &ty.description {
        let first = description.split("\n\n").next().unwrap_or(description).trim();
        if !paragraphs.iter().any(|p| p == first) {
            paragraphs.push(first.to_owned());
        }
    }
    paragraphs
}

/// The words of `text` in lines of at most 96 characters after `indent` columns.
pub(crate) fn wrap(text: &str, indent: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent + line.len() + 1 + word.len() > 96 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// Each registry name of a type (`NAME` for a schema's root, `NAME#/definitions/DEF` for a
/// definition) and the flat name of its type, by name.
pub(crate) fn by_schema(types: &[TypeModel]) -> BTreeMap<String, String> {
    let mut by_schema = BTreeMap::new();
    for def in types {
        let stem = def.file.strip_suffix(".json").unwrap_or(&def.file);
        let definition =
            def.pointer.strip_prefix("/definitions/").is_some_and(|rest| !rest.is_empty() && !rest.contains('/'));
        if def.pointer.is_empty() {
            by_schema.insert(stem.to_owned(), def.flat.clone());
        } else if definition {
            by_schema.insert(format!("{stem}#{}", def.pointer), def.flat.clone());
        }
    }
    by_schema
}
