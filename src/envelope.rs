//! The typed handoff envelope: an [`AnySessionContext`] of either supported version whose payload is
//! typed — one of the 16 agent outputs, chosen by `payload_schema_ref` and else by the payload's
//! `agent_id`, or the generic payload — and [`Handoff<P>`] for callers who know their payload type.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Validate;
use crate::session_context::{v1_0, v1_1};
use crate::validation::{Report, codes, record};
use crate::versions::{self, VersionError};

impl v1_1::SessionContext {
    /// A v1.1 handoff of `payload` from `source_agent` to `target_agent` in session
    /// `session_id`, sent now: `schema_version` is `1.1.0`, `timestamp` the current time (UTC)
    /// and `payload_schema_ref` the payload agent's output schema (`agents/ps/researcher_output.json`;
    /// absent for a generic payload). Optional fields are absent; set them as fields.
    ///
    /// ```
    /// use jerry_contracts::agents::ps::{ResearcherFinding, ResearcherFindingCategory, ResearcherOutput};
    /// use jerry_contracts::common::{AgentId, ConfidenceScore, FindingId};
    /// use jerry_contracts::session_context::v1_0::{AgentFamily, AgentReference, SessionId};
    /// use jerry_contracts::session_context::v1_1::SessionContext;
    ///
    /// let finding = ResearcherFinding::new(FindingId::new("F-001")?, "Typed handoffs catch drift", ResearcherFindingCategory::Insight);
    /// let mut confidence = ConfidenceScore::new(0.8);
    /// confidence.reasoning = Some("Two independent sources agree".to_owned());
    /// let output = ResearcherOutput::new("Handoff contracts", vec![finding], vec![], confidence);
    /// let from = AgentReference::new(AgentId::new("ps-researcher")?, AgentFamily::Ps);
    /// let to = AgentReference::new(AgentId::new("nse-requirements")?, AgentFamily::Nse);
    /// let handoff = SessionContext::new(SessionId::from("sess-1".to_owned()), from, to, output);
    /// handoff.validate().into_result()?;
    /// assert_eq!(handoff.payload_schema_ref.as_deref(), Some("agents/ps/researcher_output.json"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        session_id: v1_0::SessionId,
        source_agent: v1_0::AgentReference,
        target_agent: v1_0::AgentReference,
        payload: impl Into<v1_1::Payload>,
    ) -> Self {
        let payload = payload.into();
        let payload_schema_ref =
            payload.agent_id().and_then(crate::registry::by_agent).map(|schema| schema.path.to_owned());
        v1_1::SessionContext {
            payload,
            payload_schema_ref,
            schema_version: latest_version(),
            session_id,
            source_agent,
            target_agent,
            timestamp: crate::formats::DateTime::now(),
            trace: None,
            workflow_id: None,
            workflow_state: None,
            extra: crate::Extra::new(),
        }
    }
}

/// `1.1.0` as the checked version type.
fn latest_version() -> v1_0::SchemaVersion {
    match v1_0::SchemaVersion::new(versions::LATEST) {
        Ok(version) => version,
        // Not reached: tests/typed_api.rs builds and validates a handoff with this version.
        Err(_) => unreachable!("{} matches the envelope version pattern", versions::LATEST),
    }
}

/// Why a document could not be read as an envelope.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EnvelopeError {
    /// Not JSON.
    #[error("malformed JSON at line {line} column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A version this crate does not read.
    #[error(transparent)]
    Version(#[from] VersionError),
    /// `payload_schema_ref` names no agent output schema.
    #[error("payload_schema_ref {0:?} names no agent output schema")]
    UnknownPayloadSchema(String),
    /// The document does not have the envelope's (or the payload's) shape, or breaks a
    /// constraint of it: the schema layer's report, as validating the bytes gives it.
    #[error("{0}")]
    Shape(Report),
}

/// A handoff envelope of a supported version.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AnySessionContext {
    /// A 1.0.x envelope (generic payload).
    V1_0(Box<v1_0::SessionContext>),
    /// A 1.1.x envelope (typed payload).
    V1_1(Box<v1_1::SessionContext>),
}

impl garde::Validate for AnySessionContext {
    type Context = ();
    fn validate_into(&self, ctx: &(), parent: &mut dyn FnMut() -> garde::Path, report: &mut garde::Report) {
        match self {
            Self::V1_0(envelope) => envelope.validate_into(ctx, parent, report),
            Self::V1_1(envelope) => envelope.validate_into(ctx, parent, report),
        }
    }
}

/// The gate on the envelope of either version (see [`Validate`]).
impl Validate for AnySessionContext {
    fn validate(&self) -> Report {
        match self {
            Self::V1_0(envelope) => envelope.validate(),
            Self::V1_1(envelope) => envelope.validate(),
        }
    }

    fn validate_schema(&self) -> Report {
        match self {
            Self::V1_0(envelope) => envelope.validate_schema(),
            Self::V1_1(envelope) => envelope.validate_schema(),
        }
    }
}

impl AnySessionContext {
    /// The gate's report on the envelope written as JSON: every layer, default options
    /// ([`Validate::validate`]; no import needed).
    pub fn validate(&self) -> Report {
        <Self as Validate>::validate(self)
    }

    /// The schema layer alone ([`Validate::validate_schema`]).
    pub fn validate_schema(&self) -> Report {
        <Self as Validate>::validate_schema(self)
    }

    /// Reads an envelope from JSON bytes: a scan for `schema_version` and `payload_schema_ref`
    /// (every other member skipped), then one typed read of the version's type, the payload typed
    /// by its `agent_id`. Only when `payload_schema_ref` names another agent than the payload's
    /// own, or when the document is refused, is it read as a `Value` first, as
    /// [`Self::from_value`] does, so that the error says what and where.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, EnvelopeError> {
        /// The two members that choose the type.
        #[derive(Deserialize)]
        struct Scan {
            schema_version: Option<Value>,
            payload_schema_ref: Option<Value>,
        }
        let slow = || {
            let value: Value = crate::__private::read::value_from_slice(bytes).map_err(|err| EnvelopeError::Json {
                line: crate::__private::read::place(bytes, &err).0,
                column: crate::__private::read::place(bytes, &err).1,
                message: crate::__private::read::malformed(bytes, &err),
            })?;
            Self::from_value(&value)
        };
        let Ok(scan) = crate::__private::read::from_bytes::<Scan>(bytes) else { return slow() };
        let mut head = serde_json::Map::new();
        if let Some(version) = scan.schema_version {
            head.insert("schema_version".to_owned(), version);
        }
        let version = versions::envelope_version(&Value::Object(head))?;
        // A document the typed read refuses takes the `Value` path, which reports malformed
        // JSON (recursion limit, a repeated member) as such and shape errors at their place.
        if version.minor == 0 {
            return crate::__private::read::from_bytes(bytes).map(|c| Self::V1_0(Box::new(c))).or_else(|_| slow());
        }
        let Ok(context) = crate::__private::read::from_bytes::<v1_1::SessionContext>(bytes) else { return slow() };
        match scan.payload_schema_ref {
            None => Ok(Self::V1_1(Box::new(context))),
            Some(Value::String(reference)) => {
                let agent = crate::registry::lookup(&reference).and_then(|s| s.agent_id.as_deref());
                if agent.is_some() && agent == context.payload.agent_id() {
                    Ok(Self::V1_1(Box::new(context)))
                } else {
                    slow()
                }
            }
            Some(_) => slow(),
        }
    }

    /// Reads an envelope: the version from `schema_version` (2.x refused), the payload's type
    /// from `payload_schema_ref` when present, else from the payload's `agent_id`.
    pub fn from_value(value: &Value) -> Result<Self, EnvelopeError> {
        let version = versions::envelope_version(value)?;
        if version.minor == 0 {
            return crate::typed::deserialize(value).map(|c| Self::V1_0(Box::new(c))).map_err(EnvelopeError::Shape);
        }
        let Some(reference) = value.get("payload_schema_ref").and_then(Value::as_str) else {
            return crate::typed::deserialize(value).map(|c| Self::V1_1(Box::new(c))).map_err(EnvelopeError::Shape);
        };
        let agent = crate::registry::lookup(reference)
            .and_then(|s| s.agent_id.clone())
            .ok_or_else(|| EnvelopeError::UnknownPayloadSchema(reference.to_owned()))?;
        // Read the envelope with its payload held aside, then the payload as the named agent's.
        let mut without_payload = value.clone();
        let payload = without_payload.as_object_mut().and_then(|o| o.remove("payload"));
        let payload = payload.ok_or_else(|| {
            let mut report = Report::default();
            report.push(record(&codes::SCH_MISSING_REQUIRED, "", "the member `payload` is missing"));
            EnvelopeError::Shape(report)
        })?;
        let typed_payload = v1_1::Payload::from_agent(Some(&agent), &payload)
            .ok_or_else(|| EnvelopeError::UnknownPayloadSchema(reference.to_owned()))?
            .map_err(|report| at_payload(EnvelopeError::Shape(report)))?;
        let mut context: v1_1::SessionContext = crate::typed::deserialize(value).map_err(EnvelopeError::Shape)?;
        context.payload = typed_payload;
        Ok(Self::V1_1(Box::new(context)))
    }

    /// The envelope's `schema_version`.
    pub fn schema_version(&self) -> &str {
        match self {
            Self::V1_0(c) => &c.schema_version,
            Self::V1_1(c) => &c.schema_version,
        }
    }

    /// The agent that produced the handoff.
    pub fn source_agent(&self) -> &v1_0::AgentReference {
        match self {
            Self::V1_0(c) => &c.source_agent,
            Self::V1_1(c) => &c.source_agent,
        }
    }

    /// The agent the handoff is for.
    pub fn target_agent(&self) -> &v1_0::AgentReference {
        match self {
            Self::V1_0(c) => &c.target_agent,
            Self::V1_1(c) => &c.target_agent,
        }
    }
}

/// A v1.1 envelope whose payload type the caller knows (`Handoff<ResearcherOutput>`). The
/// envelope's fields are typed as in [`v1_1::SessionContext`]; unknown members are kept in
/// [`HandoffEnvelope::extra`] as their exact text. Reading is one pass over the members (no
/// buffering); a member named twice is an error.
#[derive(Debug, Clone, PartialEq)]
pub struct Handoff<P> {
    /// The envelope without its payload.
    pub envelope: HandoffEnvelope,
    /// The payload.
    pub payload: P,
}

/// The fields of a v1.1 envelope other than `payload` (see [`Handoff`]).
#[derive(Debug, Clone, PartialEq)]
pub struct HandoffEnvelope {
    /// Schema version (1.x.y).
    pub schema_version: v1_0::SchemaVersion,
    /// Session identifier.
    pub session_id: v1_0::SessionId,
    /// Agent producing the context.
    pub source_agent: v1_0::AgentReference,
    /// Intended recipient agent.
    pub target_agent: v1_0::AgentReference,
    /// When the context was produced.
    pub timestamp: crate::formats::DateTime,
    /// URI reference to the payload's agent output schema.
    pub payload_schema_ref: Option<String>,
    /// Workflow identifier.
    pub workflow_id: Option<v1_1::WorkflowId>,
    /// Cross-pollination workflow state.
    pub workflow_state: Option<v1_1::WorkflowState>,
    /// Trace of the handoff chain.
    pub trace: Option<v1_0::Trace>,
    /// Members the schema does not declare, kept as written.
    pub extra: crate::Extra,
}

impl<P: crate::Contract> Handoff<P> {
    /// Reads a handoff whose payload must be a `P`. The document is read and validated as a
    /// [`v1_1::SessionContext`] first (`validate_schema()`: every pattern, range, length and
    /// count of the v1.1.0 schema, payload included), so nothing that type refuses gets through, and then
    /// read as a `Handoff<P>`, whose payload is validated as a `P`.
    pub fn from_value(value: &Value) -> Result<Self, EnvelopeError> {
        versions::envelope_version(value)?;
        let context: v1_1::SessionContext = crate::typed::deserialize(value).map_err(EnvelopeError::Shape)?;
        check(&context)?;
        let handoff: Self = crate::__private::typed::read_value(value).map_err(first_error)?;
        check(&handoff.payload).map_err(at_payload)?;
        Ok(handoff)
    }

    /// [`Handoff::from_value`] from JSON bytes, without building a `Value`.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, EnvelopeError> {
        let context: v1_1::SessionContext = crate::typed::from_slice(bytes).map_err(EnvelopeError::Shape)?;
        check(&context)?;
        let handoff: Self = crate::__private::typed::read_slice(bytes).map_err(first_error)?;
        check(&handoff.payload).map_err(at_payload)?;
        Ok(handoff)
    }
}

/// The schema layer's report on `value` (what a reader checks), as an error when it is not
/// valid.
fn check<T: Validate>(value: &T) -> Result<(), EnvelopeError> {
    value.validate_schema().into_result().map(drop).map_err(EnvelopeError::Shape)
}

/// The first shape error of a read as a `Handoff<P>` (the envelope read before it was clean, so
/// this is the payload's shape as `P`): one record at its place.
fn first_error(violation: crate::__private::typed::Violation) -> EnvelopeError {
    let mut report = Report::default();
    report.push(record(&codes::SCH_WRONG_TYPE, &violation.pointer, violation.message));
    EnvelopeError::Shape(report)
}

/// A report on the payload, with every place under `/payload`.
fn at_payload(error: EnvelopeError) -> EnvelopeError {
    match error {
        EnvelopeError::Shape(mut report) => {
            for found in &mut report.records {
                found.path = Some(format!("/payload{}", found.path.as_deref().unwrap_or("")));
            }
            EnvelopeError::Shape(report)
        }
        other => other,
    }
}

impl<P: Serialize> Serialize for Handoff<P> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let e = &self.envelope;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("schema_version", &e.schema_version)?;
        map.serialize_entry("session_id", &e.session_id)?;
        map.serialize_entry("source_agent", &e.source_agent)?;
        map.serialize_entry("target_agent", &e.target_agent)?;
        map.serialize_entry("timestamp", &e.timestamp)?;
        if let Some(v) = &e.payload_schema_ref {
            map.serialize_entry("payload_schema_ref", v)?;
        }
        if let Some(v) = &e.workflow_id {
            map.serialize_entry("workflow_id", v)?;
        }
        if let Some(v) = &e.workflow_state {
            map.serialize_entry("workflow_state", v)?;
        }
        if let Some(v) = &e.trace {
            map.serialize_entry("trace", v)?;
        }
        map.serialize_entry("payload", &self.payload)?;
        for (name, raw) in e.extra.iter() {
            map.serialize_entry(name, &crate::__private::raw::Written(raw))?;
        }
        map.end()
    }
}

impl<'de, P: Deserialize<'de>> Deserialize<'de> for Handoff<P> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct HandoffVisitor<P>(std::marker::PhantomData<P>);

        /// Reads `slot` once; a second occurrence is a duplicate member.
        fn once<'de, A: serde::de::MapAccess<'de>, T: Deserialize<'de>>(
            map: &mut A,
            slot: &mut Option<T>,
            name: &str,
        ) -> Result<(), A::Error> {
            if slot.is_some() {
                return crate::__private::read::duplicate(map, name);
            }
            *slot = Some(map.next_value()?);
            Ok(())
        }

        impl<'de, P: Deserialize<'de>> serde::de::Visitor<'de> for HandoffVisitor<P> {
            type Value = Handoff<P>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a v1.1 session-context envelope")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Handoff<P>, A::Error> {
                let (mut version, mut session, mut source, mut target, mut time) = (None, None, None, None, None);
                let (mut reference, mut workflow, mut state, mut trace, mut payload) = (None, None, None, None, None);
                let mut extra = crate::Extra::new();
                while let Some(key) = map.next_key::<crate::__private::read::Key<'de>>()? {
                    match key.0.as_ref() {
                        "schema_version" => once(&mut map, &mut version, "schema_version")?,
                        "session_id" => once(&mut map, &mut session, "session_id")?,
                        "source_agent" => once(&mut map, &mut source, "source_agent")?,
                        "target_agent" => once(&mut map, &mut target, "target_agent")?,
                        "timestamp" => once(&mut map, &mut time, "timestamp")?,
                        "payload_schema_ref" => once(&mut map, &mut reference, "payload_schema_ref")?,
                        "workflow_id" => once(&mut map, &mut workflow, "workflow_id")?,
                        "workflow_state" => once(&mut map, &mut state, "workflow_state")?,
                        "trace" => once(&mut map, &mut trace, "trace")?,
                        "payload" => once(&mut map, &mut payload, "payload")?,
                        _ => crate::__private::read::unknown(&mut map, &mut extra, key)?,
                    }
                }
                Ok(Handoff {
                    envelope: HandoffEnvelope {
                        schema_version: version.ok_or_else(|| crate::__private::read::missing("schema_version"))?,
                        session_id: session.ok_or_else(|| crate::__private::read::missing("session_id"))?,
                        source_agent: source.ok_or_else(|| crate::__private::read::missing("source_agent"))?,
                        target_agent: target.ok_or_else(|| crate::__private::read::missing("target_agent"))?,
                        timestamp: time.ok_or_else(|| crate::__private::read::missing("timestamp"))?,
                        payload_schema_ref: reference,
                        workflow_id: workflow,
                        workflow_state: state,
                        trace,
                        extra,
                    },
                    payload: payload.ok_or_else(|| crate::__private::read::missing("payload"))?,
                })
            }
        }

        deserializer.deserialize_map(HandoffVisitor(std::marker::PhantomData))
    }
}

impl crate::validation::Document for AnySessionContext {
    fn schema_path(&self) -> &'static str {
        match self {
            Self::V1_0(envelope) => envelope.schema_path(),
            Self::V1_1(envelope) => envelope.schema_path(),
        }
    }
    fn subject(&self) -> crate::__validation::Subject<'_> {
        match self {
            Self::V1_0(envelope) => envelope.subject(),
            Self::V1_1(envelope) => envelope.subject(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::ps::ResearcherOutput;
    use serde_json::json;

    fn handoff(payload_ref: Option<&str>) -> Value {
        let mut value = json!({
            "schema_version": "1.1.0", "session_id": "sess-1",
            "source_agent": {"id": "ps-researcher", "family": "ps"},
            "target_agent": {"id": "nse-requirements", "family": "nse"},
            "timestamp": "2026-01-10T14:30:00Z",
            "workflow_state": {"phase": "research"},
            "payload": {"agent_id": "ps-researcher", "research_topic": "t", "sources": [],
                "findings": [{"id": "F-001", "summary": "s", "category": "gap"}], "confidence": {"overall": 0.5}}
        });
        if let Some(reference) = payload_ref {
            value["payload_schema_ref"] = json!(reference);
        }
        value
    }

    #[test]
    fn the_payload_is_typed_by_its_schema_ref_then_by_its_agent_id() {
        let by_id = AnySessionContext::from_value(&handoff(None)).expect("reads");
        assert!(matches!(&by_id, AnySessionContext::V1_1(c) if c.payload.agent_id() == Some("ps-researcher")));
        let by_ref = AnySessionContext::from_value(&handoff(Some("agents/ps/researcher_output.json"))).expect("reads");
        assert_eq!(by_ref, by_id.clone().with_ref("agents/ps/researcher_output.json"));
        // The ref names another agent: the payload must be that agent's output.
        let err = AnySessionContext::from_value(&handoff(Some("agents/ps/analyst_output.json"))).unwrap_err();
        assert!(
            matches!(err, EnvelopeError::Shape(ref r) if r.records.iter().all(|f| f.path.as_deref().is_some_and(|p| p.starts_with("/payload")))),
            "{err}"
        );
        let err = AnySessionContext::from_value(&handoff(Some("agents/ps/critic_output.json"))).unwrap_err();
        assert_eq!(err, EnvelopeError::UnknownPayloadSchema("agents/ps/critic_output.json".into()));
        let mut future = handoff(None);
        future["schema_version"] = json!("2.0.0");
        assert!(matches!(AnySessionContext::from_value(&future), Err(EnvelopeError::Version(_))));
    }

    impl AnySessionContext {
        fn with_ref(self, reference: &str) -> Self {
            match self {
                Self::V1_1(mut c) => {
                    c.payload_schema_ref = Some(reference.to_owned());
                    Self::V1_1(c)
                }
                other => other,
            }
        }
    }

    #[test]
    fn a_handoff_of_a_known_payload_type_round_trips() {
        let value = handoff(None);
        let typed: Handoff<ResearcherOutput> = Handoff::from_value(&value).expect("reads");
        assert_eq!(typed.payload.findings.len(), 1);
        assert_eq!(serde_json::to_value(&typed).ok(), Some(value.clone()));
        let bytes = serde_json::to_vec(&value).unwrap_or_default();
        assert_eq!(Handoff::<ResearcherOutput>::from_slice(&bytes).ok(), Some(typed));
    }

    #[test]
    fn a_handoff_checks_what_the_schema_checks() {
        // A finding id breaking its pattern: the typed read alone would let it through.
        let mut value = handoff(None);
        value["payload"]["findings"][0]["id"] = json!("F-1");
        let err = Handoff::<ResearcherOutput>::from_value(&value).unwrap_err();
        assert!(
            matches!(&err, EnvelopeError::Shape(r) if r.records[0].path.as_deref() == Some("/payload/findings/0/id")),
            "{err}"
        );
        let bytes = serde_json::to_vec(&value).unwrap_or_default();
        assert!(Handoff::<ResearcherOutput>::from_slice(&bytes).is_err());
        // An agent id that breaks its pattern, in the envelope.
        let mut value = handoff(None);
        value["source_agent"]["id"] = json!("Researcher");
        let err = Handoff::<ResearcherOutput>::from_value(&value).unwrap_err();
        assert!(
            matches!(&err, EnvelopeError::Shape(r) if r.records[0].path.as_deref() == Some("/source_agent/id")),
            "{err}"
        );
        // An empty session id: the seeds do not forbid it (non-empty is a convention, D-10).
        let mut value = handoff(None);
        value["session_id"] = json!("");
        assert!(Handoff::<ResearcherOutput>::from_value(&value).is_ok());
        // A member named twice.
        let text = r#"{"schema_version": "1.1.0", "schema_version": "1.1.0"}"#;
        let err = Handoff::<ResearcherOutput>::from_slice(text.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("duplicate member"), "{err}");
    }

    #[test]
    fn a_1_0_consumer_reads_and_relays_a_1_1_envelope() {
        // A 1.1 envelope with a generic payload, read as 1.0: the new fields are kept.
        let mut value = handoff(None);
        value["payload"] = json!({"key_findings": [], "confidence": {"overall": 0.9, "reasoning": "r"}});
        let old: v1_0::SessionContext = crate::__private::typed::read_value(&value).expect("a 1.0 consumer reads 1.1");
        assert!(old.extra.contains_key("workflow_state"));
        assert_eq!(serde_json::to_value(&old).ok(), Some(value));
    }
}
