//! The schema files of the model: what the pages say of each file as a whole (its `$id`,
//! title, description and version, and whether it holds conventions), read once here rather
//! than from the raw document by each renderer.

use serde_json::Value;

use super::{Constraint, Layer};
use crate::corpus::{Corpus, Schema};

/// One schema file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaModel {
    /// Path under `schemas/`, e.g. `mission/task_graph.json`.
    pub file: String,
    /// The schema's `$id`.
    pub id: String,
    /// The root's `title`, trimmed, if it has a non-empty one.
    pub title: Option<String>,
    /// The root's `description`, trimmed, if it has a non-empty one.
    pub description: Option<String>,
    /// The version of the documents it describes: the envelope's from its file name
    /// (`session_context/v1.1.0.json`), a mission artifact's from its `schema_version` constant;
    /// none for the others, which carry no version of their own.
    pub version: Option<String>,
    /// Whether any of its constraints is a convention (the project's own, beyond the seeds).
    pub conventions: bool,
}

/// The model of every schema file of `corpus`, in the corpus's order; `constraints` are the
/// model's (see [`super::constraints`]).
pub fn schemas(corpus: &Corpus, constraints: &[Constraint]) -> Vec<SchemaModel> {
    corpus
        .schemas
        .iter()
        .map(|schema| SchemaModel {
            file: schema.path.clone(),
            id: schema.id.clone(),
            title: text(&schema.document, "title"),
            description: text(&schema.document, "description"),
            version: version(schema),
            conventions: constraints.iter().any(|c| c.schema == schema.path && c.layer == Layer::Convention),
        })
        .collect()
}

/// A root annotation's text, trimmed, if it is a non-empty string.
fn text(document: &Value, keyword: &str) -> Option<String> {
    document.get(keyword).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned)
}

/// See [`SchemaModel::version`].
fn version(schema: &Schema) -> Option<String> {
    if let Some(file) = schema.path.strip_prefix("session_context/") {
        return Some(file.trim_end_matches(".json").trim_start_matches('v').to_owned());
    }
    if schema.path.starts_with("mission/") {
        return schema.document.pointer("/properties/schema_version/const").and_then(Value::as_str).map(str::to_owned);
    }
    None
}
