//! Which schema a document follows, when the caller does not say: the envelope by its
//! `schema_version` and agents, a mission artifact by its `schema_name`, an agent output by its
//! `agent_id`; and the envelope's version policy (seed 001's compatibility matrix).

use serde_json::Value;

use super::{codes, record};
use crate::common::ErrorRecord;
use crate::registry::{self, SchemaInfo};

/// What identifies a document's schema: the fields [`detect`] looks at.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct Signals<'a> {
    #[serde(borrow, default)]
    schema_version: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    schema_name: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    agent_id: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    source_agent: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    target_agent: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    session_id: Option<serde::de::IgnoredAny>,
}

impl<'a> Signals<'a> {
    /// The signals of a parsed document (`None` when it is not an object).
    pub(crate) fn of(value: &'a Value) -> Option<Self> {
        let object = value.as_object()?;
        let text = |key: &str| object.get(key).and_then(Value::as_str).map(std::borrow::Cow::Borrowed);
        let present = |key: &str| object.contains_key(key).then_some(serde::de::IgnoredAny);
        Some(Self {
            schema_version: text("schema_version"),
            schema_name: text("schema_name"),
            agent_id: text("agent_id"),
            source_agent: present("source_agent"),
            target_agent: present("target_agent"),
            session_id: present("session_id"),
        })
    }

    /// The signals read straight from JSON bytes, skipping everything else (`None` when the bytes
    /// are not a JSON object with string-valued signals).
    pub(crate) fn probe(bytes: &'a [u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }

    /// The envelope's `schema_version`, if the document has one.
    pub(crate) fn schema_version(&self) -> Option<&str> {
        self.schema_version.as_deref()
    }
}

/// The schema a document with these signals follows, or an SCH-011 record saying why none could
/// be told.
pub(crate) fn detect(signals: Option<&Signals<'_>>) -> Result<&'static SchemaInfo, Box<ErrorRecord>> {
    let Some(signals) = signals else {
        return Err(Box::new(record(&codes::SCH_UNKNOWN_SCHEMA, "", "a contract document is a JSON object")));
    };
    let envelope = signals.source_agent.is_some() || signals.target_agent.is_some() || signals.session_id.is_some();
    if envelope {
        let version = signals.schema_version().unwrap_or("1.1.0");
        let name = if version.starts_with("1.0.") { "session_context/v1.0.0" } else { "session_context/v1.1.0" };
        return registry::lookup(name).ok_or_else(|| Box::new(record(&codes::SCH_UNKNOWN_SCHEMA, "", name)));
    }
    if let Some(name) = signals.schema_name.as_deref() {
        return registry::schemas().iter().find(|s| s.schema_name.as_deref() == Some(name)).ok_or_else(|| {
            Box::new(record(
                &codes::SCH_UNKNOWN_SCHEMA,
                "/schema_name",
                format!("no mission artifact is named {:?}", brief(name)),
            ))
        });
    }
    if let Some(agent) = signals.agent_id.as_deref() {
        return registry::by_agent(agent).ok_or_else(|| {
            Box::new(record(
                &codes::SCH_UNKNOWN_SCHEMA,
                "/agent_id",
                format!("no output schema for agent {:?}", brief(agent)),
            ))
        });
    }
    Err(Box::new(record(
        &codes::SCH_UNKNOWN_SCHEMA,
        "",
        "cannot tell which schema the document follows (no schema_version, schema_name or agent_id); name it",
    )))
}

/// At most 80 characters of a value quoted in a message (a hostile document may hold megabytes).
fn brief(text: &str) -> String {
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text.to_owned()
    }
}

/// Seed 001 "Version Compatibility": a 1.x envelope is read (a 1.0 consumer ignores what 1.1
/// adds); any other major version is refused before the schema is applied.
pub(crate) fn version_check(info: &SchemaInfo, version: Option<&str>) -> Option<ErrorRecord> {
    if !info.path.starts_with("session_context/") {
        return None;
    }
    let version = version?;
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
