//! What the rule layers read of a skimmed document ([`super`]): the v1.1.0 envelope's
//! version, agents, session, trace and workflow members, and its agent output's confidence,
//! artifacts and disclaimer: the agents, trace, confidence and artifacts skimmed with the fields
//! the rules read kept (`<Type>Kept`), the rest of these members read whole as their generated
//! types (and checked as the typed read and `garde` check them), the rest of the document only
//! checked. An output whose rules
//! read more (the validator says which: the generic payload, an agent with rules of its own or
//! requirement ids) is read whole and kept as a [`Payload`].

use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

use super::{Capture, Cx};
use crate::constant::True;
use crate::generated::{
    AgentReferenceKept, ArtifactReferenceKept, CheckedArtifactReferenceKept, ConfidenceScoreKept, TraceKept,
};
use crate::session_context::v1_1::{Payload, WorkflowState};

/// The members a skim keeps for the rule layers (see the module docs).
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct Facts<'de> {
    /// Whether the document is an envelope (its output sits at `/payload`), not an output.
    pub(crate) envelope: bool,
    pub(crate) schema_version: Option<Cow<'de, str>>,
    pub(crate) session_id: Option<Cow<'de, str>>,
    pub(crate) source_agent: Option<AgentReferenceKept<'de>>,
    pub(crate) target_agent: Option<AgentReferenceKept<'de>>,
    pub(crate) trace: Option<TraceKept<'de>>,
    pub(crate) payload_schema_ref: Option<Cow<'de, str>>,
    pub(crate) workflow_id: Option<Cow<'de, str>>,
    pub(crate) workflow_state: Option<WorkflowState>,
    /// The agent the output was dispatched to (`None`: the generic payload, or no output).
    pub(crate) agent: Option<&'static str>,
    pub(crate) confidence: Option<ConfidenceScoreKept<'de>>,
    pub(crate) artifacts: Option<Artifacts<'de>>,
    /// Whether `disclaimer_included` is there.
    pub(crate) disclaimer: bool,
    /// An output read whole: a [`Payload`].
    pub(crate) kept: Option<Arc<dyn Any + Send + Sync>>,
    /// Whether a payload member read ahead of `agent_id` was an array or an object, replayed by
    /// a reader whose depth limit started again (`skim::tag_first`).
    pub(crate) replayed_nesting: bool,
}

/// An output's artifact references, of either kind.
#[derive(Debug, Clone)]
pub(crate) enum Artifacts<'de> {
    /// The seed's references (`common/types.json`).
    Plain(Vec<ArtifactReferenceKept<'de>>),
    /// The path-checked references (`common/artifacts.json`).
    Checked(Vec<CheckedArtifactReferenceKept<'de>>),
}

impl<'de> Facts<'de> {
    /// What the rules read of `bytes` skimmed as a v1.1.0 envelope, with the payload's output read
    /// whole when `read_whole` says its agent's rules read more than facts hold; `None` unless it
    /// skims clean.
    pub(crate) fn of_envelope(bytes: &'de [u8], read_whole: fn(Option<&str>) -> bool) -> Option<Self> {
        let mut cx = Cx::for_rules(read_whole);
        if !super::document::<crate::session_context::v1_1::SessionContext>(bytes, &mut cx) {
            return None;
        }
        Some(Facts { envelope: true, ..cx.facts })
    }

    /// The output read whole, if it was.
    pub(crate) fn payload(&self) -> Option<&Payload> {
        self.kept.as_ref().and_then(|kept| kept.downcast_ref::<Payload>())
    }

    /// A standalone agent output read whole (an envelope's is in [`Facts::payload`]).
    pub(crate) fn standalone(&self) -> Option<&dyn crate::AgentOutput> {
        self.kept.as_ref().and_then(|kept| kept.downcast_ref::<Box<dyn crate::AgentOutput>>()).map(|output| &**output)
    }
}

impl<'de> Capture<'de> for Cow<'de, str> {
    fn capture(self, cx: &mut Cx<'de>, name: &'static str) {
        match name {
            "schema_version" => cx.facts.schema_version = Some(self),
            _ => cx.facts.session_id = Some(self),
        }
    }
}

impl<'de> Capture<'de> for Option<Cow<'de, str>> {
    fn capture(self, cx: &mut Cx<'de>, name: &'static str) {
        match name {
            "payload_schema_ref" => cx.facts.payload_schema_ref = self,
            _ => cx.facts.workflow_id = self,
        }
    }
}

impl<'de> Capture<'de> for AgentReferenceKept<'de> {
    fn capture(self, cx: &mut Cx<'de>, name: &'static str) {
        match name {
            "source_agent" => cx.facts.source_agent = Some(self),
            _ => cx.facts.target_agent = Some(self),
        }
    }
}

impl<'de> Capture<'de> for Option<TraceKept<'de>> {
    fn capture(self, cx: &mut Cx<'de>, _name: &'static str) {
        cx.facts.trace = self;
    }
}

impl<'de> Capture<'de> for Option<WorkflowState> {
    fn capture(self, cx: &mut Cx<'de>, _name: &'static str) {
        cx.facts.workflow_state = self;
    }
}

impl<'de> Capture<'de> for ConfidenceScoreKept<'de> {
    fn capture(self, cx: &mut Cx<'de>, _name: &'static str) {
        cx.facts.confidence = Some(self);
    }
}

impl<'de> Capture<'de> for Option<ConfidenceScoreKept<'de>> {
    fn capture(self, cx: &mut Cx<'de>, _name: &'static str) {
        cx.facts.confidence = self;
    }
}

impl<'de> Capture<'de> for Option<Vec<ArtifactReferenceKept<'de>>> {
    fn capture(self, cx: &mut Cx<'de>, _name: &'static str) {
        cx.facts.artifacts = self.map(Artifacts::Plain);
    }
}

impl<'de> Capture<'de> for Option<Vec<CheckedArtifactReferenceKept<'de>>> {
    fn capture(self, cx: &mut Cx<'de>, _name: &'static str) {
        cx.facts.artifacts = self.map(Artifacts::Checked);
    }
}

impl<'de> Capture<'de> for Option<True> {
    fn capture(self, cx: &mut Cx<'de>, _name: &'static str) {
        cx.facts.disclaimer = self.is_some();
    }
}
