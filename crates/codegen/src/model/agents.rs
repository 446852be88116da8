//! The agent facts of the model: every agent output (a schema under `agents/<family>/` whose
//! root has a constant `agent_id`) with who the agent is, what the rules demand of its family,
//! the members the rules read of it, and every place its output holds a requirement id; and what
//! the rule layers read of the other documents, which the validator's fast path keeps. Read from
//! the types of the model, so every target (Rust's `AgentOutput` impls and skim, later the
//! TypeScript and SQL renderers) says the same of each agent.

use super::types::{Body, Expr, TypeModel};
use crate::corpus::Problem;
use crate::plan::{Kind, Plan};

/// The family whose outputs must carry the disclaimer (P-043; seed 000:2432, "`disclaimer_included:
/// true` for nse-* agents").
pub const DISCLAIMER_FAMILY: &str = "nse";

/// Where the types the agent facts name are defined.
pub const CONFIDENCE: (&str, &str) = ("common/types.json", "/definitions/confidence_score");
/// The artifact reference of an agent output.
pub const ARTIFACT: (&str, &str) = ("common/types.json", "/definitions/artifact_reference");
/// The requirement id.
pub const REQUIREMENT_ID: (&str, &str) = ("common/types.json", "/definitions/requirement_id");
/// The agent family.
pub const FAMILY: (&str, &str) = ("session_context/v1.0.0.json", "/definitions/agent_family");

/// The members of every agent output that the rule layers read (confidence for SEM-002 and
/// CON-005, artifacts for REF-001 and CON-005, the disclaimer for CON-001): the fast path hands
/// them to the rules.
pub const OUTPUT_READS: &[&str] = &["confidence", "artifacts", "disclaimer_included"];

/// The members the rule layers read of a root that is not an agent output (the v1.1.0
/// envelope's agents, session, trace and workflow for the semantic and reference rules).
pub const ROOT_READS: &[(&str, &[&str])] = &[(
    "session_context/v1.1.0.json",
    &[
        "schema_version",
        "session_id",
        "source_agent",
        "target_agent",
        "trace",
        "payload_schema_ref",
        "workflow_id",
        "workflow_state",
    ],
)];

/// The types the rules read a few fields of, by schema file and pointer, and those fields: a
/// member read of one of these types keeps only these fields (`<Type>Kept` in Rust).
pub const KEEPS: &[((&str, &str), &[&str])] = &[
    (("session_context/v1.0.0.json", "/definitions/agent_reference"), &["id", "family"]),
    (("session_context/v1.0.0.json", "/definitions/trace"), &["depth", "span_id", "trace_id"]),
    (CONFIDENCE, &["overall", "reasoning"]),
    (ARTIFACT, &["path", "checksum", "size_bytes"]),
    (("common/artifacts.json", "/definitions/artifact_reference"), &["path", "checksum", "size_bytes"]),
];

/// One agent's output and what the rules know of it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AgentFacts {
    /// The agent (`ps-researcher`): the output's constant `agent_id`.
    pub agent_id: String,
    /// The agent's family: the directory under `agents/` (`ps`, `nse`).
    pub family: String,
    /// Flat name of the output type.
    pub flat: String,
    /// Schema file of the output.
    pub file: String,
    /// Whether the family's outputs must carry `disclaimer_included` (CON-001).
    pub disclaimer_required: bool,
    /// Every place the output holds a requirement id, in field order.
    pub requirement_ids: Vec<IdPlace>,
}

impl AgentFacts {
    /// Whether the output defines requirement ids (a run learns them).
    pub fn defines_requirements(&self) -> bool {
        self.requirement_ids.iter().any(|place| place.role == IdRole::Defines)
    }

    /// Whether the output refers to requirement ids (REF-002 judges them).
    pub fn references_requirements(&self) -> bool {
        self.requirement_ids.iter().any(|place| place.role == IdRole::References)
    }
}

/// A place in an output that holds a requirement id: the path from the output's root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdPlace {
    /// The steps from the root.
    pub steps: Vec<Step>,
    /// What the id at this place does.
    pub role: IdRole,
}

/// One step of a path into a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The member of that name.
    Member(String),
    /// Every item of an array.
    Each,
}

/// What a requirement id at a place does: the `id` of an item of a list defines one (the
/// requirements an nse-requirements output states); any other place refers to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdRole {
    /// The output defines the requirement.
    Defines,
    /// The output refers to a requirement defined elsewhere.
    References,
}

/// Deeper than any path in the corpus; a cycle of types ends the walk with a problem.
const MAX_STEPS: usize = 32;

/// The agent facts of every agent output of `plan`, in plan order, or every problem found
/// (an unknown family, requirement ids the walk cannot reach), each with its file and pointer.
pub fn agents(plan: &Plan, types: &[TypeModel]) -> Result<Vec<AgentFacts>, Vec<Problem>> {
    let Some(target) = plan.at(REQUIREMENT_ID.0, REQUIREMENT_ID.1).map(|def| def.flat.as_str()) else {
        // A corpus without requirement ids (the conformance suite) has no agents either.
        return Ok(Vec::new());
    };
    let families: Vec<&str> = plan
        .at(FAMILY.0, FAMILY.1)
        .and_then(|def| def.source.get("enum"))
        .and_then(serde_json::Value::as_array)
        .map(|values| values.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default();
    let walk = Walk { types, target };
    let mut facts = Vec::new();
    let mut problems = Vec::new();
    for def in plan.types.iter().filter(|def| def.pointer.is_empty() && def.kind == Kind::Struct) {
        let Some(agent_id) = def.source.pointer("/properties/agent_id/const").and_then(serde_json::Value::as_str)
        else {
            continue;
        };
        let Some(family) = def.file.strip_prefix("agents/").and_then(|rest| rest.split_once('/')).map(|(f, _)| f)
        else {
            continue;
        };
        if !families.contains(&family) {
            problems.push(Problem::new(
                &def.file,
                "",
                format!(
                    "agent {agent_id}: its directory `agents/{family}/` names no agent family ({})",
                    families.join(", ")
                ),
            ));
            continue;
        }
        let mut places = Vec::new();
        if let Err(message) = walk.places(&Expr::Named(def.flat.clone()), &mut Vec::new(), &mut places, 0) {
            problems.push(Problem::new(&def.file, "", format!("agent {agent_id}: {message}")));
            continue;
        }
        facts.push(AgentFacts {
            agent_id: agent_id.to_owned(),
            family: family.to_owned(),
            flat: def.flat.clone(),
            file: def.file.clone(),
            disclaimer_required: family == DISCLAIMER_FAMILY,
            requirement_ids: places,
        });
    }
    if problems.is_empty() { Ok(facts) } else { Err(problems) }
}

/// The walk from an output's root to its requirement ids, over the model's types.
struct Walk<'a> {
    types: &'a [TypeModel],
    /// Flat name of the requirement id type.
    target: &'a str,
}

impl Walk<'_> {
    fn body(&self, flat: &str) -> Option<&Body> {
        self.types.iter().find(|t| t.flat == flat).map(|t| &t.body)
    }

    /// Whether a value of `expr` can hold a requirement id.
    fn reaches(&self, expr: &Expr, depth: usize) -> bool {
        if depth > MAX_STEPS {
            return false;
        }
        match expr {
            Expr::Named(flat) if flat == self.target => true,
            Expr::Named(flat) => match self.body(flat) {
                Some(Body::Object { fields, .. }) => fields.iter().any(|f| self.reaches(&f.expr, depth + 1)),
                Some(Body::Alias(inner)) => self.reaches(inner, depth + 1),
                Some(Body::Dispatch { branches, fallback }) => branches
                    .iter()
                    .map(|(_, flat)| flat)
                    .chain([fallback])
                    .any(|flat| self.reaches(&Expr::Named(flat.clone()), depth + 1)),
                None => false,
            },
            Expr::Array(inner) | Expr::Map(inner) | Expr::Nullable(inner) => self.reaches(inner, depth + 1),
            Expr::Union(members) => members.iter().any(|m| self.reaches(m, depth + 1)),
            _ => false,
        }
    }

    /// Adds to `out` every place inside a value of `expr` at `steps` that holds a requirement id.
    fn places(&self, expr: &Expr, steps: &mut Vec<Step>, out: &mut Vec<IdPlace>, depth: usize) -> Result<(), String> {
        if depth > MAX_STEPS {
            return Err("the types holding requirement ids nest too deep (a cycle?)".to_owned());
        }
        match expr {
            Expr::Named(flat) if flat == self.target => {
                let role = match steps.as_slice() {
                    [.., Step::Each, Step::Member(member)] if member == "id" => IdRole::Defines,
                    _ => IdRole::References,
                };
                out.push(IdPlace { steps: steps.clone(), role });
                Ok(())
            }
            Expr::Named(flat) => match self.body(flat) {
                Some(Body::Object { fields, .. }) => {
                    for field in fields.iter().filter(|f| self.reaches(&f.expr, 0)) {
                        steps.push(Step::Member(field.name.clone()));
                        let walked = self.places(&field.expr, steps, out, depth + 1);
                        steps.pop();
                        walked?;
                    }
                    Ok(())
                }
                Some(Body::Alias(inner)) => self.places(inner, steps, out, depth + 1),
                _ if !self.reaches(expr, 0) => Ok(()),
                _ => Err(self.unreachable(steps, flat)),
            },
            Expr::Array(inner) => {
                steps.push(Step::Each);
                let walked = self.places(inner, steps, out, depth + 1);
                steps.pop();
                walked
            }
            Expr::Nullable(inner) => self.places(inner, steps, out, depth + 1),
            Expr::Map(_) | Expr::Union(_) if self.reaches(expr, 0) => Err(self.unreachable(steps, "a map or a union")),
            _ => Ok(()),
        }
    }

    fn unreachable(&self, steps: &[Step], inside: &str) -> String {
        format!(
            "requirement ids at {} sit inside {inside}, which the agent-knowledge walk cannot enter; the \
             reference rules would miss them",
            pointer_text(steps)
        )
    }
}

/// The pointer of `steps` as text, items shown as `*`.
pub fn pointer_text(steps: &[Step]) -> String {
    let mut text = String::new();
    for step in steps {
        text.push('/');
        match step {
            Step::Member(member) => text.push_str(&jerry_contracts_pointer::escape(member)),
            Step::Each => text.push('*'),
        }
    }
    if text.is_empty() { "the output's root".to_owned() } else { text }
}
