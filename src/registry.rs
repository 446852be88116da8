//! The schema registry: every schema of the corpus, embedded in the library, looked up by name
//! (`agents/ps/researcher_output`), by `$id`, by a `payload_schema_ref`
//! (`agents/ps/researcher_output.json`), by an agent's id (`ps-researcher`) or by a mission
//! artifact's `schema_name` (`worker_result`).

use std::sync::OnceLock;

use serde_json::Value;

use crate::__private::EmbeddedSchema;

/// One schema of the registry.
#[derive(Debug, Clone)]
pub struct SchemaInfo {
    /// Name: the path under `schemas/` without `.json` (`agents/ps/researcher_output`).
    pub name: &'static str,
    /// Path under `schemas/` (`agents/ps/researcher_output.json`).
    pub path: &'static str,
    /// The schema's `$id`.
    pub id: &'static str,
    /// The schema's `title`, if it has one.
    pub title: Option<String>,
    /// The contract version the schema describes: the envelope's version from its file name,
    /// a mission artifact's `schema_version` constant, otherwise none.
    pub version: Option<String>,
    /// The agent whose output it describes (its `agent_id` constant), if any.
    pub agent_id: Option<String>,
    /// A mission artifact's `schema_name` constant, if any.
    pub schema_name: Option<String>,
    /// The parsed schema.
    pub document: Value,
}

/// Every schema of the corpus, parsed once.
pub fn schemas() -> &'static [SchemaInfo] {
    static SCHEMAS: OnceLock<Vec<SchemaInfo>> = OnceLock::new();
    SCHEMAS.get_or_init(|| crate::EMBEDDED_SCHEMAS.iter().filter_map(info).collect())
}

/// The registry entry of an embedded schema; `None` when the text is not JSON.
pub(crate) fn info(embedded: &EmbeddedSchema) -> Option<SchemaInfo> {
    // The build checked every file; a file that does not parse cannot have been embedded.
    let document: Value = serde_json::from_str(embedded.text).ok()?;
    let constant = |property: &str| {
        document.pointer(&format!("/properties/{property}/const")).and_then(Value::as_str).map(str::to_owned)
    };
    let name = embedded.path.strip_suffix(".json").unwrap_or(embedded.path);
    let version = if let Some(file) = embedded.path.strip_prefix("session_context/v") {
        file.strip_suffix(".json").map(str::to_owned)
    } else {
        constant("schema_version")
    };
    Some(SchemaInfo {
        name,
        path: embedded.path,
        id: embedded.id,
        title: document.get("title").and_then(Value::as_str).map(str::to_owned),
        version,
        agent_id: constant("agent_id"),
        schema_name: constant("schema_name"),
        document,
    })
}

/// Looks a schema up by any of its names: registry name, path, `$id`, a `payload_schema_ref`
/// (a path relative to `schemas/`, optionally starting with `./`), an agent id, or a mission
/// `schema_name`.
pub fn lookup(key: &str) -> Option<&'static SchemaInfo> {
    lookup_in(schemas(), key)
}

/// [`lookup`] in another set of schemas.
pub(crate) fn lookup_in(schemas: &'static [SchemaInfo], key: &str) -> Option<&'static SchemaInfo> {
    let key = key.trim();
    let relative = key.strip_prefix("./").unwrap_or(key);
    let relative = relative.strip_prefix(crate::SCHEMA_ID_BASE).unwrap_or(relative);
    schemas.iter().find(|s| {
        s.name == relative
            || s.path == relative
            || s.id == key
            || s.agent_id.as_deref() == Some(key)
            || s.schema_name.as_deref() == Some(key)
    })
}

/// The schema of an agent's output, by agent id (`nse-risk`).
pub fn by_agent(agent_id: &str) -> Option<&'static SchemaInfo> {
    schemas().iter().find(|s| s.agent_id.as_deref() == Some(agent_id))
}

/// Resolves a `$ref` written in schema `file` to the schema and the (percent-decoded) JSON
/// Pointer it names: relative paths against the file's directory, absolute ones under
/// [`crate::SCHEMA_ID_BASE`].
pub fn resolve(file: &'static SchemaInfo, reference: &str) -> Result<(&'static SchemaInfo, String), String> {
    resolve_in(schemas(), file, reference)
}

/// [`resolve`] in another set of schemas.
pub(crate) fn resolve_in(
    schemas: &'static [SchemaInfo],
    file: &'static SchemaInfo,
    reference: &str,
) -> Result<(&'static SchemaInfo, String), String> {
    let (target, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let info = if target.is_empty() {
        file
    } else {
        let path = match target.strip_prefix(crate::SCHEMA_ID_BASE) {
            Some(path) => path.to_owned(),
            None => join(file.path, target),
        };
        lookup_in(schemas, &path)
            .ok_or_else(|| format!("$ref {reference:?} names {path}, which is not in the registry"))?
    };
    let pointer = jerry_contracts_pointer::fragment_pointer(fragment)
        .map_err(|err| format!("$ref {reference:?} has a fragment that is not a JSON Pointer: {err}"))?;
    Ok((info, pointer.into_owned()))
}

/// `relative` resolved against the directory of `base` (both paths under `schemas/`).
fn join(base: &str, relative: &str) -> String {
    let mut segments: Vec<&str> = base.split('/').collect();
    segments.pop();
    for segment in relative.split('/') {
        match segment {
            ".." => {
                segments.pop();
            }
            "." | "" => {}
            segment => segments.push(segment),
        }
    }
    segments.join("/")
}

/// The name of the schema at `pointer` in `info`'s file, `NAME#POINTER`
/// (`session_context/v1.0.0#/definitions/agent_reference`), as a `'static` string for
/// [`crate::validation::Report::schema`]; the root (`""`) is the file's own name. Each name is
/// made once per process; the registry's files hold a fixed number of subschemas, so the names
/// made are bounded by the corpus.
pub fn fragment_name(info: &'static SchemaInfo, pointer: &str) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, PoisonError};
    static NAMES: OnceLock<Mutex<HashMap<(&'static str, String), &'static str>>> = OnceLock::new();
    if pointer.is_empty() || info.document.pointer(pointer).is_none() {
        return info.name;
    }
    let mut names = NAMES.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner);
    names
        .entry((info.name, pointer.to_owned()))
        .or_insert_with(|| Box::leak(format!("{}#{pointer}", info.name).into_boxed_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_is_embedded_and_found_by_each_of_its_names() {
        assert!(schemas().len() >= 48);
        let researcher = lookup("agents/ps/researcher_output").expect("by name");
        assert_eq!(fragment_name(researcher, ""), "agents/ps/researcher_output", "the root is the file's name");
        let envelope = lookup("session_context/v1.0.0").expect("by name");
        assert_eq!(
            fragment_name(envelope, "/definitions/agent_reference"),
            "session_context/v1.0.0#/definitions/agent_reference"
        );
        assert_eq!(researcher.path, "agents/ps/researcher_output.json");
        for key in [
            "agents/ps/researcher_output.json",
            "./agents/ps/researcher_output.json",
            "https://jerry.dev/schemas/agents/ps/researcher_output.json",
            "ps-researcher",
        ] {
            assert_eq!(lookup(key).map(|s| s.path), Some(researcher.path), "{key}");
        }
        assert_eq!(lookup("worker_result").map(|s| s.path), Some("mission/worker_result.json"));
        assert_eq!(lookup("session_context/v1.1.0").and_then(|s| s.version.as_deref()), Some("1.1.0"));
        assert_eq!(lookup("mission/worker_result").and_then(|s| s.version.as_deref()), Some("v1"));
        assert_eq!(by_agent("nse-risk").map(|s| s.path), Some("agents/nse/risk_output.json"));
        assert!(lookup("agents/ps/critic_output").is_none());
        assert_eq!(schemas().iter().filter(|s| s.agent_id.is_some()).count(), 16);
    }

    #[test]
    fn references_resolve_relative_to_their_file() {
        assert_eq!(join("session_context/v1.1.0.json", "../agents/ps/x.json"), "agents/ps/x.json");
        assert_eq!(join("session_context/v1.1.0.json", "v1.0.0.json"), "session_context/v1.0.0.json");
        let envelope = lookup("session_context/v1.1.0").expect("v1.1.0");
        let (_, pointer) = resolve(envelope, "v1.0.0.json#/definitions/a%20b").expect("decodes");
        assert_eq!(pointer, "/definitions/a b");
        // `%+F` is not an escape (a decoder on `u8::from_str_radix` read it as 0x0F).
        assert!(resolve(envelope, "v1.0.0.json#/definitions/a%+F").is_err());
        let envelope = lookup("session_context/v1.1.0").expect("v1.1.0");
        let (target, pointer) = resolve(envelope, "v1.0.0.json#/definitions/trace").expect("resolves");
        assert_eq!((target.path, pointer.as_str()), ("session_context/v1.0.0.json", "/definitions/trace"));
        assert!(resolve(envelope, "../agents/ps/critic_output.json").is_err());
    }
}
