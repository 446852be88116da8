//! Which schema a document follows, when the caller does not say: the envelope by its
//! `schema_version` and agents, a mission artifact by its `schema_name`, an agent output by its
//! `agent_id`; and the envelope's version policy (seed 001's compatibility matrix).

use serde_json::Value;

use super::{codes, record};
use crate::common::ErrorRecord;
use crate::registry::{self, SchemaInfo};

/// The schema `value` follows, or an SCH-011 record saying why none could be told.
pub(crate) fn detect(value: &Value) -> Result<&'static SchemaInfo, Box<ErrorRecord>> {
    let Some(object) = value.as_object() else {
        return Err(Box::new(record(&codes::SCH_UNKNOWN_SCHEMA, "", "a contract document is a JSON object")));
    };
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    let envelope =
        object.contains_key("source_agent") || object.contains_key("target_agent") || object.contains_key("session_id");
    if envelope {
        let version = text("schema_version").unwrap_or("1.1.0");
        let name = if version.starts_with("1.0.") { "session_context/v1.0.0" } else { "session_context/v1.1.0" };
        return registry::lookup(name).ok_or_else(|| Box::new(record(&codes::SCH_UNKNOWN_SCHEMA, "", name)));
    }
    if let Some(name) = text("schema_name") {
        return registry::schemas().iter().find(|s| s.schema_name.as_deref() == Some(name)).ok_or_else(|| {
            Box::new(record(
                &codes::SCH_UNKNOWN_SCHEMA,
                "/schema_name",
                format!("no mission artifact is named {name:?}"),
            ))
        });
    }
    if let Some(agent) = text("agent_id") {
        return registry::by_agent(agent).ok_or_else(|| {
            Box::new(record(&codes::SCH_UNKNOWN_SCHEMA, "/agent_id", format!("no output schema for agent {agent:?}")))
        });
    }
    Err(Box::new(record(
        &codes::SCH_UNKNOWN_SCHEMA,
        "",
        "cannot tell which schema the document follows (no schema_version, schema_name or agent_id); name it",
    )))
}

/// Seed 001 "Version Compatibility": a 1.x envelope is read (a 1.0 consumer ignores what 1.1
/// adds); any other major version is refused before the schema is applied.
pub(crate) fn version_check(info: &SchemaInfo, value: &Value) -> Option<ErrorRecord> {
    if !info.path.starts_with("session_context/") {
        return None;
    }
    let version = value.get("schema_version")?.as_str()?;
    let major = version.split('.').next().unwrap_or_default();
    (major != "1" && major.chars().all(|c| c.is_ascii_digit()) && !major.is_empty()).then(|| {
        super::with_values(
            record(
                &codes::SCH_VERSION,
                "/schema_version",
                format!("version {version} is not 1.x; this consumer reads 1.0.x and 1.1.x envelopes"),
            ),
            Some(Value::from("1.x.y")),
            Some(Value::from(version)),
        )
    })
}
