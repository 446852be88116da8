//! The constraints of the corpus, read once: every cited keyword of every schema object (each
//! required property, pattern, enum, const, range, length, count, uniqueness, format and closed
//! object), in the schema layer or in an `x-convention`, with its value, its place and its
//! source. The constraint table, the inventory the boundary fixtures are kept against and the
//! convention checks are views of this list.

use std::fmt;

use serde_json::{Map, Value};

use super::Keyword;
use crate::corpus::Corpus;

/// How deep the walk goes into nested schemas (the corpus nests a few levels; the loader
/// refuses deeper documents long before this).
const MAX_DEPTH: usize = 64;

/// One constraint of the corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    /// Schema file under `schemas/`.
    pub schema: String,
    /// JSON Pointer of the schema object that holds the keyword; a convention's ends in
    /// `/x-convention`.
    pub pointer: String,
    /// The keyword.
    pub keyword: Keyword,
    /// The keyword's value; for `required`, the name of the required property.
    pub value: Value,
    /// The layer that applies it.
    pub layer: Layer,
    /// Where it comes from, as the schema's `x-source` records it.
    pub source: Option<Source>,
}

/// The layer a constraint belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    /// A rule the seeds state: a document that breaks it is invalid.
    Schema,
    /// The project's own choice: a warning (`CNV-*`), an error only in strict mode.
    Convention,
}

/// Where a constraint comes from: the `x-source` entry, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `seed …`: the seed lines or sections that state it (`000:412`, `004 §15`), as written
    /// after `seed `.
    Seed(String),
    /// `convention …`: the decision that makes it a convention (`D-74`, and any note), as
    /// written after `convention `.
    Convention(String),
    /// Anything else (a problem the corpus checks name).
    Other(String),
}

impl Source {
    /// Reads an `x-source` text.
    pub fn parse(text: &str) -> Self {
        if let Some(rest) = text.strip_prefix("seed ") {
            Source::Seed(rest.to_owned())
        } else if let Some(rest) = text.strip_prefix("convention ") {
            Source::Convention(rest.to_owned())
        } else {
            Source::Other(text.to_owned())
        }
    }

    /// The decision a convention cites (`D-74`), if it cites one first.
    pub fn decision(&self) -> Option<&str> {
        let Source::Convention(rest) = self else { return None };
        let digits = rest.strip_prefix("D-")?.bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0).then(|| &rest[..2 + digits])
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Seed(rest) => write!(f, "seed {rest}"),
            Source::Convention(rest) => write!(f, "convention {rest}"),
            Source::Other(text) => f.write_str(text),
        }
    }
}

impl Constraint {
    /// Stable id: `file#pointer/keyword`, and for `required` `file#pointer/required/name`.
    pub fn id(&self) -> String {
        match (self.keyword, &self.value) {
            (Keyword::Required, Value::String(name)) => {
                format!("{}#{}/required/{}", self.schema, self.pointer, jerry_contracts_pointer::escape(name))
            }
            _ => format!("{}#{}/{}", self.schema, self.pointer, self.keyword),
        }
    }

    /// Whether it is a convention (a warning, an error only in strict mode).
    pub fn is_convention(&self) -> bool {
        self.layer == Layer::Convention
    }

    /// What is wrong with the source, if anything: missing, or of the wrong kind (a schema
    /// constraint must cite a seed line, a convention its decision).
    pub fn source_problem(&self) -> Option<String> {
        let id = self.id();
        match (&self.source, self.layer) {
            (None, _) => Some(format!("{id}: no source (x-source)")),
            (Some(Source::Seed(_)), Layer::Schema) => None,
            (Some(source), Layer::Schema) => Some(format!(
                "{id}: a constraint of the schema layer must cite a seed line, not {:?}; a convention belongs in x-convention",
                source.to_string()
            )),
            (Some(source), Layer::Convention) if source.decision().is_none() => Some(format!(
                "{id}: a convention must cite its decision (\"convention D-NN\"), not {:?}",
                source.to_string()
            )),
            (Some(_), Layer::Convention) => None,
        }
    }
}

/// Every constraint of the corpus, in file order, within a file in document order, and within
/// one schema object in [`Keyword::cited`]'s order; an object's conventions follow its own
/// constraints. `uniqueItems: false` and an `additionalProperties` other than `false` assert
/// nothing and are left out; so is everything under `if` (a condition, not an assertion) and
/// under the annotations `examples` and `default`.
pub fn constraints(corpus: &Corpus) -> Vec<Constraint> {
    let mut out = Vec::new();
    for schema in &corpus.schemas {
        walk(&schema.path, "", &schema.document, Layer::Schema, &mut out, 0);
    }
    out
}

fn walk(file: &str, pointer: &str, node: &Value, layer: Layer, out: &mut Vec<Constraint>, depth: usize) {
    let Some(map) = node.as_object() else { return };
    if depth > MAX_DEPTH {
        return;
    }
    own_constraints(file, pointer, map, layer, out);
    if layer == Layer::Convention {
        return;
    }
    if let Some(inner) = map.get(Keyword::XConvention.as_str()) {
        walk(file, &format!("{pointer}/x-convention"), inner, Layer::Convention, out, depth + 1);
    }
    for key in [Keyword::Properties, Keyword::Definitions] {
        for (name, sub) in map.get(key.as_str()).and_then(Value::as_object).into_iter().flatten() {
            let at = format!("{pointer}/{key}/{}", jerry_contracts_pointer::escape(name));
            walk(file, &at, sub, Layer::Schema, out, depth + 1);
        }
    }
    for key in ["items", "additionalProperties", "then", "else", "not"] {
        if let Some(sub) = map.get(key) {
            walk(file, &format!("{pointer}/{key}"), sub, Layer::Schema, out, depth + 1);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (i, sub) in map.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
            walk(file, &format!("{pointer}/{key}/{i}"), sub, Layer::Schema, out, depth + 1);
        }
    }
}

/// The cited keywords of one schema object, each with its source.
fn own_constraints(file: &str, pointer: &str, map: &Map<String, Value>, layer: Layer, out: &mut Vec<Constraint>) {
    let sources = map.get(Keyword::XSource.as_str());
    for keyword in Keyword::cited() {
        let Some(value) = map.get(keyword.as_str()) else { continue };
        let asserts = match keyword {
            Keyword::UniqueItems => value != &Value::Bool(false),
            Keyword::AdditionalProperties => value == &Value::Bool(false),
            _ => true,
        };
        if !asserts {
            continue;
        }
        let cited = sources.and_then(|s| s.get(keyword.as_str()));
        let push = |out: &mut Vec<Constraint>, value: &Value, source: Option<&str>| {
            out.push(Constraint {
                schema: file.to_owned(),
                pointer: pointer.to_owned(),
                keyword,
                value: value.clone(),
                layer,
                source: source.map(Source::parse),
            });
        };
        match (keyword, value) {
            (Keyword::Required, Value::Array(names)) => {
                for name in names {
                    // One source for every name, or one per name.
                    let source = match cited {
                        Some(Value::Object(per_name)) => {
                            name.as_str().and_then(|n| per_name.get(n)).and_then(Value::as_str)
                        }
                        other => other.and_then(Value::as_str),
                    };
                    push(out, name, source);
                }
            }
            _ => push(out, value, cited.and_then(Value::as_str)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_is_read_as_a_seed_place_or_a_decision() {
        assert_eq!(Source::parse("seed 000:412"), Source::Seed("000:412".into()));
        let convention = Source::parse("convention D-74 (004 §5.1 \"…\")");
        assert_eq!(convention.decision(), Some("D-74"));
        assert_eq!(convention.to_string(), "convention D-74 (004 §5.1 \"…\")");
        assert_eq!(Source::parse("convention ours").decision(), None);
        assert_eq!(Source::parse("ours"), Source::Other("ours".into()));
    }
}
