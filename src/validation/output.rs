//! The part of a document the agent-output and generic-payload rules judge, for every rule
//! layer: a standalone agent output (at the root), a v1.1.0 envelope's agent payload (at
//! `/payload`), a v1.0.0 envelope's generic payload, each typed or skimmed ([`output`]).

use super::Subject;
use crate::__private::skim::facts::{Artifacts, Facts};
use crate::AgentOutput;
use crate::agent::AgentInfo;
use crate::common::ConfidenceScore;
use crate::session_context::v1_0;
use crate::session_context::v1_1::Payload;

/// An agent output or a generic payload, and the JSON Pointer it sits at.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Output<'a> {
    /// `""` for a standalone agent output, `"/payload"` for an envelope's payload.
    pub(crate) base: &'static str,
    /// What the part is.
    pub(crate) kind: Kind<'a>,
}

/// The two kinds of [`Output`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind<'a> {
    /// The output of one of the agents with an output schema.
    Agent(&'a dyn AgentOutput),
    /// The generic v1.0.0 payload (seed 001 "Payload Structure").
    Generic(&'a v1_0::Payload),
    /// A skimmed agent output: what the rules read of it (never an agent whose output
    /// `agent_rules::read_whole` reads whole).
    Light(&'a Facts<'a>),
}

/// What the rules read of a confidence score, typed or skimmed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Confidence<'a> {
    pub(crate) overall: &'a crate::Number<f64>,
    pub(crate) reasoning: Option<&'a str>,
}

/// An artifact reference of either kind (the seed's unchecked one or the path-checked one).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ArtifactRef<'a> {
    /// The path as written.
    pub(crate) path: &'a str,
    /// The `sha256:<hex>` checksum, if given.
    pub(crate) checksum: Option<&'a str>,
    /// The size in bytes, if given (`size_bytes`; the schema makes it at least 0).
    pub(crate) size: Option<i64>,
}

/// The agent-output or generic-payload part of `subject`, if it has one.
pub(crate) fn output<'a>(subject: &'a Subject<'_>) -> Option<Output<'a>> {
    // Every variant but the generic payload holds an agent output.
    fn split<'a>(payload: &'a Payload, base: &'static str) -> Option<Output<'a>> {
        let kind = match payload {
            Payload::Generic(generic) => Kind::Generic(generic),
            agent => Kind::Agent(agent.output()?),
        };
        Some(Output { base, kind })
    }
    match subject {
        Subject::Envelope10(envelope) => Some(Output { base: "/payload", kind: Kind::Generic(&envelope.payload) }),
        Subject::Envelope11(envelope) => split(&envelope.payload, "/payload"),
        Subject::Agent(output) => Some(Output { base: "", kind: Kind::Agent(&**output) }),
        Subject::Skimmed(facts) => {
            let base = if facts.envelope { "/payload" } else { "" };
            match (facts.payload(), facts.standalone()) {
                (Some(payload), _) => split(payload, base),
                (None, Some(output)) => Some(Output { base, kind: Kind::Agent(output) }),
                (None, None) => facts.agent.map(|_| Output { base, kind: Kind::Light(facts) }),
            }
        }
        Subject::TaskGraph(_) | Subject::Other => None,
    }
}

impl<'a> Output<'a> {
    /// The pointer of `rest` (`"/confidence/overall"`) inside this part.
    pub(crate) fn at(&self, rest: &str) -> String {
        format!("{}{rest}", self.base)
    }

    /// The agent output read whole, unless this is a generic payload or a skimmed output.
    pub(crate) fn agent(&self) -> Option<&'a dyn AgentOutput> {
        match self.kind {
            Kind::Agent(payload) => Some(payload),
            Kind::Generic(_) | Kind::Light(_) => None,
        }
    }

    /// Whether this is a generic payload rather than an agent's output.
    pub(crate) fn is_generic(&self) -> bool {
        matches!(self.kind, Kind::Generic(_))
    }

    /// The producer's id: the agent output's `agent_id`, or a generic payload's undeclared
    /// `agent_id` when it is a string.
    pub(crate) fn agent_id(&self) -> Option<std::borrow::Cow<'a, str>> {
        match self.kind {
            Kind::Agent(output) => Some(std::borrow::Cow::Borrowed(output.agent().id)),
            Kind::Generic(generic) => generic.extra.get_str("agent_id"),
            Kind::Light(facts) => facts.agent.map(std::borrow::Cow::Borrowed),
        }
    }

    /// The confidence, if the output has one (it is optional for some agents).
    pub(crate) fn confidence(&self) -> Option<Confidence<'a>> {
        fn typed(score: &ConfidenceScore) -> Confidence<'_> {
            Confidence { overall: &score.overall, reasoning: score.reasoning.as_deref() }
        }
        match self.kind {
            Kind::Agent(output) => output.confidence().map(typed),
            Kind::Generic(generic) => Some(typed(&generic.confidence)),
            Kind::Light(facts) => facts
                .confidence
                .as_ref()
                .map(|kept| Confidence { overall: &kept.overall, reasoning: kept.reasoning.as_deref() }),
        }
    }

    /// The artifact references, `None` when `artifacts` is absent.
    pub(crate) fn artifacts(&self) -> Option<Vec<ArtifactRef<'a>>> {
        match self.kind {
            Kind::Agent(output) => output.artifacts().map(|list| {
                list.iter()
                    .map(|a| ArtifactRef {
                        path: &a.path,
                        checksum: a.checksum.as_deref(),
                        size: a.size_bytes.as_ref().map(|n| n.get()),
                    })
                    .collect()
            }),
            Kind::Generic(generic) => generic_artifacts(generic),
            Kind::Light(facts) => facts.artifacts.as_ref().map(|artifacts| match artifacts {
                Artifacts::Plain(list) => list
                    .iter()
                    .map(|a| ArtifactRef {
                        path: &a.path,
                        checksum: a.checksum.as_deref(),
                        size: a.size_bytes.as_ref().map(|n| n.get()),
                    })
                    .collect(),
                Artifacts::Checked(list) => list
                    .iter()
                    .map(|a| ArtifactRef {
                        path: &a.path,
                        checksum: a.checksum.as_deref(),
                        size: a.size_bytes.as_ref().map(|n| n.get()),
                    })
                    .collect(),
            }),
        }
    }

    /// How many artifact references the output lists, `None` when `artifacts` is absent.
    pub(crate) fn artifact_count(&self) -> Option<usize> {
        match self.kind {
            Kind::Agent(output) => output.artifacts().map(<[_]>::len),
            Kind::Generic(generic) => generic.artifacts.as_ref().map(Vec::len),
            Kind::Light(facts) => facts.artifacts.as_ref().map(|artifacts| match artifacts {
                Artifacts::Plain(list) => list.len(),
                Artifacts::Checked(list) => list.len(),
            }),
        }
    }

    /// For the output of an agent that must state the disclaimer (P-043), whether
    /// `disclaimer_included` is present; `None` for any other part.
    pub(crate) fn disclaimer(&self) -> Option<bool> {
        match self.kind {
            Kind::Light(facts) => facts
                .agent
                .and_then(AgentInfo::find)
                .filter(|agent| agent.disclaimer_required)
                .map(|_| facts.disclaimer),
            Kind::Agent(output) => output.agent().disclaimer_required.then(|| output.disclaimer_included()),
            Kind::Generic(_) => None,
        }
    }

    /// The agent output as the type `T`, if it is one.
    pub(crate) fn output_as<T: AgentOutput>(&self) -> Option<&'a T> {
        self.agent()?.downcast_ref::<T>()
    }
}

/// The artifact references of a generic payload (path-checked by the schema).
fn generic_artifacts(generic: &v1_0::Payload) -> Option<Vec<ArtifactRef<'_>>> {
    generic.artifacts.as_ref().map(|list| {
        list.iter()
            .map(|a| ArtifactRef {
                path: &a.path,
                checksum: a.checksum.as_ref().map(|c| c.as_str()),
                size: a.size_bytes.as_ref().map(|n| n.get()),
            })
            .collect()
    })
}
