//! What the contracts know about each agent with an output schema, generated from the schemas:
//! the [`AgentOutput`] trait every agent output type implements, and [`AgentInfo`], one entry
//! per agent. The rule layers read agents only through these, so an agent added as a schema
//! under `schemas/agents/<family>/` gets every rule that applies to its family and fields.

use std::any::Any;
use std::fmt;

use crate::common::{ArtifactReference, ConfidenceScore};
use crate::session_context::v1_0::AgentFamily;

/// One agent with an output schema: what its schema says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct AgentInfo {
    /// The agent's id, the `agent_id` constant of its output schema (`nse-risk`).
    pub id: &'static str,
    /// The agent's family: the directory of its schema (`schemas/agents/nse/…`).
    pub family: AgentFamily,
    /// Whether its outputs must state `disclaimer_included: true` (P-043, seed 000:2432: every
    /// nse-* agent).
    pub disclaimer_required: bool,
    /// The path of its output schema under `schemas/`.
    pub schema: &'static str,
}

impl AgentInfo {
    /// Every agent with an output schema, in schema order.
    pub fn all() -> &'static [AgentInfo] {
        crate::generated::AGENTS
    }

    /// The agent with id `id`, if it has an output schema.
    pub fn find(id: &str) -> Option<&'static AgentInfo> {
        Self::all().iter().find(|agent| agent.id == id)
    }
}

/// Whether a requirement id in an output is the id of a requirement the output defines, or a
/// reference to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdRole {
    /// The `id` of a record in a list (nse-requirements `requirements[].id`).
    Defines,
    /// Any other field of a requirement-id type (a trace, an allocation, a verification).
    References,
}

/// One requirement id in an agent output, as [`AgentOutput::requirement_ids`] visits it.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct IdUse<'a, 'p> {
    /// Whether the output defines the id or refers to it.
    pub role: IdRole,
    /// The id as written.
    pub id: &'a str,
    /// The JSON Pointer of the id in the output, made on demand (most visits never need it).
    pub pointer: &'p dyn Fn() -> String,
}

impl fmt::Debug for IdUse<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdUse")
            .field("role", &self.role)
            .field("id", &self.id)
            .field("pointer", &(self.pointer)())
            .finish()
    }
}

/// The agent an output type belongs to, known from the type (generated beside
/// [`AgentOutput`]; the table of single-agent rules is keyed by it). Not part of the API.
#[doc(hidden)]
pub trait AgentId {
    /// The `agent_id` constant of the output schema (`nse-risk`).
    const AGENT_ID: &'static str;
}

/// An agent's output: what every rule that applies to all agents reads of it. Generated for
/// every schema under `schemas/agents/` whose root has a constant `agent_id`.
pub trait AgentOutput: Any + Send + Sync + fmt::Debug {
    /// The agent whose output this is.
    fn agent(&self) -> &'static AgentInfo;
    /// The output's confidence, if its schema has one and it is given.
    fn confidence(&self) -> Option<&ConfidenceScore>;
    /// The artifacts it lists, `None` when `artifacts` is absent (or its schema has none).
    fn artifacts(&self) -> Option<&[ArtifactReference]>;
    /// Whether it states `disclaimer_included` (always `false` when its schema has no such field).
    fn disclaimer_included(&self) -> bool;
    /// Calls `visit` with every requirement id in the output (fields in the order of the type).
    fn requirement_ids<'s>(&'s self, visit: &mut dyn FnMut(IdUse<'s, '_>));
    /// The output as [`Any`], to reach the rules of one agent.
    fn as_any(&self) -> &dyn Any;
}

impl dyn AgentOutput {
    /// The output as the type `T`, if it is one.
    pub fn downcast_ref<T: AgentOutput>(&self) -> Option<&T> {
        self.as_any().downcast_ref::<T>()
    }
}

/// How the rule layers read the standalone output of one agent (generated, one per agent).
pub(crate) struct AgentReader {
    /// The agent.
    pub(crate) info: &'static AgentInfo,
    /// The output read from a parsed document, if it is schema-valid as this agent's output.
    pub(crate) value: fn(&serde_json::Value) -> Option<Box<dyn AgentOutput>>,
    /// The same, from JSON bytes.
    pub(crate) bytes: fn(&[u8]) -> Option<Box<dyn AgentOutput>>,
    /// Skims the output of the agent named first from JSON bytes into the context
    /// ([`crate::__private::skim`]); `false` unless it skims clean.
    pub(crate) skim: for<'de> fn(&'static str, &'de [u8], &mut crate::__private::skim::Cx<'de>) -> bool,
    /// Whether its output defines requirement ids (a run learns them).
    pub(crate) defines_requirements: bool,
    /// Whether its output refers to requirement ids (REF-002 judges them).
    pub(crate) references_requirements: bool,
}

impl AgentReader {
    /// The reader of agent `id`.
    pub(crate) fn find(id: &str) -> Option<&'static AgentReader> {
        crate::generated::AGENT_READERS.iter().find(|reader| reader.info.id == id)
    }
}

/// [`AgentReader::value`] for the output type `T`.
pub(crate) fn read_value<T>(value: &serde_json::Value) -> Option<Box<dyn AgentOutput>>
where
    T: AgentOutput + serde::de::DeserializeOwned + garde::Validate<Context = ()>,
{
    // Straight into the agent's type: the dispatch enum would copy the whole value first, which
    // a hostile, deeply nested document turns into a stack overflow.
    let output: T = crate::__private::typed::read_value(value).ok()?;
    garde::Validate::validate(&output).ok()?;
    Some(Box::new(output))
}

/// [`AgentReader::bytes`] for the output type `T`.
pub(crate) fn read_bytes<T>(bytes: &[u8]) -> Option<Box<dyn AgentOutput>>
where
    T: AgentOutput + serde::de::DeserializeOwned + garde::Validate<Context = ()>,
{
    let output: T = crate::__private::read::from_bytes(bytes).ok()?;
    garde::Validate::validate(&output).ok()?;
    Some(Box::new(output))
}

/// [`AgentReader::skim`] for the output type `T`.
pub(crate) fn skim_bytes<'de, T>(
    agent: &'static str,
    bytes: &'de [u8],
    cx: &mut crate::__private::skim::Cx<'de>,
) -> bool
where
    T: AgentOutput + crate::__private::skim::Skim + serde::de::DeserializeOwned + garde::Validate<Context = ()>,
{
    let Ok(text) = simdutf8::basic::from_utf8(bytes) else { return false };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    crate::__private::skim::output::<T, Box<dyn AgentOutput>, _>(&mut deserializer, cx, Some(agent), |output| {
        Box::new(output)
    })
    .is_ok()
        && deserializer.end().is_ok()
}
