//! The semantic layer (seed 000 §6.1, "Business rules"): rules across fields that JSON Schema
//! draft-07 cannot state — products of risk scores, counts that must add up, agents that must
//! agree with their families, a task graph that must be a DAG (seed 004 §5.3), a session that
//! must be the consumer's (seed 001 "Session Validation").
//!
//! The agent-output rules judge a standalone agent output (at the document root) and a v1.1.0
//! envelope's agent payload (at `/payload`) alike; the generic-payload rules judge a v1.0.0
//! envelope's payload and a v1.1.0 [`Payload::Generic`]. [`output`] finds that part of a
//! document for every rule layer.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::json;

use super::agent_rules::{self, RuleLayer, num};
use super::output::{Confidence, Kind, Output, output};
use super::{Options, Report, Subject, codes, record, with_values};
use crate::mission::MissionTaskGraph;
use crate::session_context::v1_0::{self, AgentReference};
use crate::session_context::v1_1;

/// Confidence below this is reported as SEM-002 (seed 000 §6.3, "unusually low (<0.3)").
const LOW_CONFIDENCE: f64 = 0.3;

/// Runs the semantic rules on a schema-valid document.
pub(crate) fn check(subject: &Subject, options: &Options, report: &mut Report) {
    let output = output(subject);
    let payload_agent = output.as_ref().and_then(Output::agent_id);
    match subject {
        Subject::Envelope10(envelope) => {
            let (source, target) = (Agent::from(&envelope.source_agent), Agent::from(&envelope.target_agent));
            envelope_common(source, target, &envelope.session_id, options, report);
            payload_agent_matches(payload_agent.as_deref(), source, report);
        }
        Subject::Envelope11(envelope) => {
            let (source, target) = (Agent::from(&envelope.source_agent), Agent::from(&envelope.target_agent));
            envelope_common(source, target, &envelope.session_id, options, report);
            payload_agent_matches(payload_agent.as_deref(), source, report);
            envelope11(envelope, report);
        }
        Subject::Skimmed(facts) => {
            if let (true, Some(source), Some(target), Some(session_id)) =
                (facts.envelope, &facts.source_agent, &facts.target_agent, &facts.session_id)
            {
                let (source, target) = (Agent::from(source), Agent::from(target));
                envelope_common(source, target, session_id, options, report);
                payload_agent_matches(payload_agent.as_deref(), source, report);
                workflow(
                    &V11Members {
                        payload_schema_ref: facts.payload_schema_ref.as_deref(),
                        payload_agent: facts.agent,
                        workflow_id: facts.workflow_id.as_deref(),
                        workflow_state: facts.workflow_state.as_ref(),
                        source,
                        target,
                    },
                    report,
                );
            }
        }
        Subject::TaskGraph(graph) => task_graph(graph, report),
        Subject::Agent(_) | Subject::Other => {}
    }
    if let Some(output) = &output {
        output_rules(output, report);
    }
}

// ---------------------------------------------------------------------------------------------
// Envelopes
// ---------------------------------------------------------------------------------------------

/// What the rules read of an agent reference, typed or skimmed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Agent<'a> {
    id: &'a str,
    family: v1_0::AgentFamily,
}

impl<'a> From<&'a AgentReference> for Agent<'a> {
    fn from(agent: &'a AgentReference) -> Self {
        Self { id: agent.id.as_str(), family: agent.family }
    }
}

impl<'a> From<&'a crate::generated::AgentReferenceKept<'_>> for Agent<'a> {
    fn from(agent: &'a crate::generated::AgentReferenceKept<'_>) -> Self {
        Self { id: &agent.id, family: agent.family }
    }
}

// ---------------------------------------------------------------------------------------------
// Agent outputs and generic payloads
// ---------------------------------------------------------------------------------------------

/// SEM-020 (a convention, D-132): a requirement id an output defines a second time, reported at
/// the second. Which fields define ids is generated agent knowledge
/// ([`AgentOutput::requirement_ids`]), so this holds for any agent that defines them.
fn duplicate_requirements(output: &Output<'_>, report: &mut Report) {
    let Some(agent) = output.agent() else { return };
    let mut first: BTreeMap<&str, String> = BTreeMap::new();
    agent.requirement_ids(&mut |used| {
        if used.role != crate::IdRole::Defines {
            return;
        }
        match first.get(used.id) {
            Some(earlier) => report.push(with_values(
                record(
                    &codes::SEM_DUPLICATE_REQUIREMENT,
                    &output.at(&(used.pointer)()),
                    format!("requirement {} is defined again; it was first defined at {earlier}", used.id),
                ),
                Some(json!(format!("an id not defined before ({earlier})"))),
                Some(json!(used.id)),
            )),
            None => {
                first.insert(used.id, output.at(&(used.pointer)()));
            }
        }
    });
}

/// SEM-001, SEM-002, and the rules of single agents (SEM-003 … SEM-005, SEM-010, SEM-011).
fn output_rules(output: &Output<'_>, report: &mut Report) {
    if let Some(confidence) = output.confidence() {
        low_confidence(output, confidence, report);
    }
    duplicate_requirements(output, report);
    match output.kind {
        Kind::Generic(generic) => {
            if generic.key_findings.is_empty() {
                report.push(record(
                    &codes::SEM_EMPTY_FINDINGS,
                    &output.at("/key_findings"),
                    "the payload hands over no key finding",
                ));
            }
        }
        Kind::Agent(_) => agent_rules::run(RuleLayer::Semantic, output, report),
        Kind::Light(_) => {}
    }
}

/// SEM-002: an overall confidence below 0.3.
fn low_confidence(output: &Output<'_>, confidence: Confidence<'_>, report: &mut Report) {
    if *confidence.overall < LOW_CONFIDENCE {
        report.push(with_values(
            record(
                &codes::SEM_LOW_CONFIDENCE,
                &output.at("/confidence/overall"),
                format!("overall confidence {} is below {LOW_CONFIDENCE} (very low: speculative)", confidence.overall),
            ),
            Some(json!(format!(">= {LOW_CONFIDENCE}"))),
            Some(json!(confidence.overall)),
        ));
    }
}

/// SEM-009 and SEM-017, which both envelope versions share.
fn envelope_common(source: Agent<'_>, target: Agent<'_>, session_id: &str, options: &Options, report: &mut Report) {
    agents(source, target, report);
    session(session_id, options, report);
}

/// The rules on what only v1.1.0 has: SEM-008, SEM-018, and `workflow_state`'s.
fn envelope11(envelope: &v1_1::SessionContext, report: &mut Report) {
    workflow(
        &V11Members {
            payload_schema_ref: envelope.payload_schema_ref.as_deref(),
            payload_agent: envelope.payload.agent_id(),
            workflow_id: envelope.workflow_id.as_ref().map(|id| id.as_str()),
            workflow_state: envelope.workflow_state.as_ref(),
            source: Agent::from(&envelope.source_agent),
            target: Agent::from(&envelope.target_agent),
        },
        report,
    );
}

/// What the v1.1.0 rules read of an envelope, typed or skimmed.
struct V11Members<'a> {
    payload_schema_ref: Option<&'a str>,
    /// The agent whose output the payload is; `None` for the generic payload.
    payload_agent: Option<&'static str>,
    workflow_id: Option<&'a str>,
    workflow_state: Option<&'a v1_1::WorkflowState>,
    source: Agent<'a>,
    target: Agent<'a>,
}

/// SEM-008 (payload_schema_ref), SEM-018 (workflow ids) and the workflow-state rules.
fn workflow(members: &V11Members<'_>, report: &mut Report) {
    if let Some(reference) = members.payload_schema_ref {
        payload_kind(reference, members.payload_agent, report);
    }
    if let (Some(top), Some(Some(inner))) =
        (members.workflow_id, members.workflow_state.map(|state| state.workflow_id.as_ref()))
        && top != &***inner
    {
        report.push(with_values(
            record(
                &codes::SEM_WORKFLOW_ID,
                "/workflow_state/workflow_id",
                format!("workflow_state.workflow_id {:?} but the envelope's workflow_id is {:?}", &***inner, top),
            ),
            Some(json!(top)),
            Some(json!(&***inner)),
        ));
    }
    if let Some(state) = members.workflow_state {
        workflow_state(state, members.source, members.target, report);
    }
}

/// SEM-009: an agent's `family` is the prefix of its `id` (`nse-risk` → `nse`).
fn agents(source: Agent<'_>, target: Agent<'_>, report: &mut Report) {
    for (name, agent) in [("source_agent", source), ("target_agent", target)] {
        let prefix = agent.id.as_bytes().iter().position(|&b| b == b'-').map_or(agent.id, |at| &agent.id[..at]);
        let family = match agent.family {
            v1_0::AgentFamily::Ps => "ps",
            v1_0::AgentFamily::Nse => "nse",
            v1_0::AgentFamily::Orch => "orch",
        };
        if prefix != family {
            report.push(with_values(
                record(
                    &codes::SEM_FAMILY_PREFIX,
                    &format!("/{name}/family"),
                    format!("{name} {:?} has family {family:?}, but its id says {prefix:?}", agent.id),
                ),
                Some(json!(prefix)),
                Some(json!(family)),
            ));
        }
    }
}

/// SEM-017: the handoff comes from another session than the consumer's.
fn session(session_id: &str, options: &Options, report: &mut Report) {
    if let Some(expected) = &options.expected_session
        && expected != session_id
    {
        report.push(with_values(
            record(
                &codes::SEM_SESSION,
                "/session_id",
                format!("handoff from session {session_id:?}, but the current session is {expected:?}"),
            ),
            Some(json!(expected)),
            Some(json!(session_id)),
        ));
    }
}

/// SEM-007: the payload names a producer other than the source agent.
fn payload_agent_matches(payload_agent: Option<&str>, source: Agent<'_>, report: &mut Report) {
    if let Some(payload_agent) = payload_agent
        && payload_agent != source.id
    {
        report.push(with_values(
            record(
                &codes::SEM_PAYLOAD_AGENT,
                "/payload/agent_id",
                format!("the payload is the output of {payload_agent:?}, but the source agent is {:?}", source.id),
            ),
            Some(json!(source.id)),
            Some(json!(payload_agent)),
        ));
    }
}

/// SEM-008: `payload_schema_ref` names the schema of the payload's kind.
///
/// The reference may carry a fragment (`…/v1.0.0.json#/definitions/payload`); the schema is
/// looked up by the part before `#`. An agent payload needs its agent's output schema; a generic
/// payload must not be referred to an agent's output schema (any other schema it may name is not
/// judged: the registry has no entry for the generic payload definition on its own).
fn payload_kind(reference: &str, actual: Option<&'static str>, report: &mut Report) {
    let document = memchr::memchr(b'#', reference.as_bytes()).map_or(reference, |at| &reference[..at]);
    // The common case, the path or `$id` of the payload agent's own output schema, is settled
    // without a search of the registry (the one entry with that path is the agent's).
    if let Some(actual) = actual
        && let path = document.strip_prefix(crate::SCHEMA_ID_BASE).unwrap_or(document)
        && crate::AgentInfo::find(actual).is_some_and(|agent| agent.schema == path)
    {
        return;
    }
    let problem = match crate::registry::lookup(document) {
        None => Some(format!("{reference:?} names no schema of the registry")),
        Some(info) => match (info.agent_id.as_deref(), actual) {
            (Some(named), Some(actual)) if named != actual => {
                Some(format!("{reference:?} names the output schema of {named}, but the payload is {actual}'s output"))
            }
            (Some(named), None) => {
                Some(format!("{reference:?} names the output schema of {named}, but the payload is a generic payload"))
            }
            (None, Some(actual)) => Some(format!(
                "{reference:?} names {}, not an agent output schema, but the payload is {actual}'s output",
                info.name
            )),
            _ => None,
        },
    };
    if let Some(problem) = problem {
        let expected = match actual {
            Some(agent) => crate::registry::by_agent(agent).map(|info| json!(info.path)),
            None => Some(json!("session_context/v1.0.0.json#/definitions/payload")),
        };
        report.push(with_values(
            record(&codes::SEM_PAYLOAD_KIND, "/payload_schema_ref", problem),
            expected,
            Some(json!(reference)),
        ));
    }
}

/// SEM-006, SEM-012, SEM-013 on `workflow_state`. A handoff is cross-family when it crosses the
/// ps/nse boundary (seed 000:129; an orchestrator's handoff crosses none, docs/decisions.md D-109).
fn workflow_state(state: &v1_1::WorkflowState, source: Agent<'_>, target: Agent<'_>, report: &mut Report) {
    if let Some(cross) = state.cross_family_handoff {
        use crate::session_context::v1_0::AgentFamily::{Nse, Ps};
        let differs = matches!((source.family, target.family), (Ps, Nse) | (Nse, Ps));
        if cross != differs {
            report.push(with_values(
                record(
                    &codes::SEM_CROSS_FAMILY,
                    "/workflow_state/cross_family_handoff",
                    format!(
                        "cross_family_handoff is {cross}, but the handoff goes from family {} to family {}",
                        source.family, target.family
                    ),
                ),
                Some(json!(differs)),
                Some(json!(cross)),
            ));
        }
    }
    if let (Some(step), Some(total)) = (num(&state.step_number), num(&state.total_steps))
        && step > total
    {
        report.push(with_values(
            record(
                &codes::SEM_STEP_ORDER,
                "/workflow_state/step_number",
                format!("step_number {step} exceeds total_steps {total}"),
            ),
            Some(json!(format!("<= {total}"))),
            Some(json!(step)),
        ));
    }
    if let Some(barrier) = &state.sync_barrier
        && let (Some(expected), Some(completed)) = (&barrier.agents_expected, &barrier.agents_completed)
    {
        for (i, agent) in completed.iter().enumerate() {
            if !expected.contains(agent) {
                report.push(with_values(
                    record(
                        &codes::SEM_BARRIER,
                        &format!("/workflow_state/sync_barrier/agents_completed/{i}"),
                        format!("{agent:?} completed, but the barrier expects only {expected:?}"),
                    ),
                    Some(json!(expected)),
                    Some(json!(agent)),
                ));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Mission task graph (seed 004 §5.3, D-45)
// ---------------------------------------------------------------------------------------------

/// SEM-014 (duplicate task ids), SEM-015 (unknown dependencies), SEM-016 (cycles).
fn task_graph(graph: &MissionTaskGraph, report: &mut Report) {
    let tasks = &graph.tasks;
    // The first task with each id: a later duplicate is reported and its id resolves here.
    let mut first: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, task) in tasks.iter().enumerate() {
        let id = task.task_id.as_str();
        if let Some(&earlier) = first.get(id) {
            report.push(with_values(
                record(
                    &codes::SEM_DUPLICATE_TASK,
                    &format!("/tasks/{i}/task_id"),
                    format!("task_id {id:?} is also the id of /tasks/{earlier}"),
                ),
                None,
                Some(json!(id)),
            ));
        } else {
            first.insert(id, i);
        }
    }
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); tasks.len()];
    for (i, task) in tasks.iter().enumerate() {
        for (j, dependency) in task.depends_on.iter().flatten().enumerate() {
            match first.get(dependency.as_str()) {
                Some(&target) => edges[i].push(target),
                None => report.push(with_values(
                    record(
                        &codes::SEM_UNKNOWN_DEPENDENCY,
                        &format!("/tasks/{i}/depends_on/{j}"),
                        format!(
                            "task {:?} depends on {:?}, which is no task of the graph",
                            *task.task_id, **dependency
                        ),
                    ),
                    None,
                    Some(json!(**dependency)),
                )),
            }
        }
    }
    for cycle in cycles(&edges) {
        let Some(&start) = cycle.first() else { continue };
        let names: Vec<&str> = cycle
            .iter()
            .chain(std::iter::once(&start))
            .filter_map(|&i| tasks.get(i))
            .map(|t| t.task_id.as_str())
            .collect();
        report.push(record(
            &codes::SEM_TASK_CYCLE,
            &format!("/tasks/{start}"),
            format!("the tasks depend on each other in a cycle: {}", names.join(" → ")),
        ));
    }
}

/// One cycle per strongly connected component that has one (a component of several nodes, or
/// one node with an edge to itself), in the order of the component's first node. Each cycle is
/// a shortest one through that first node, starting with it.
fn cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let components = strongly_connected(edges);
    let mut found = Vec::new();
    for component in components {
        let Some(&start) = component.iter().min() else { continue };
        let members: BTreeSet<usize> = component.iter().copied().collect();
        if members.len() == 1 && !edges.get(start).is_some_and(|out| out.contains(&start)) {
            continue;
        }
        // Breadth-first from `start` inside the component, back to `start`.
        let mut parent: BTreeMap<usize, usize> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        let mut last = None;
        'search: while let Some(node) = queue.pop_front() {
            for &next in edges.get(node).into_iter().flatten() {
                if next == start {
                    last = Some(node);
                    break 'search;
                }
                if members.contains(&next) && next != start && !parent.contains_key(&next) {
                    parent.insert(next, node);
                    queue.push_back(next);
                }
            }
        }
        let Some(mut node) = last else { continue };
        let mut path = vec![node];
        while node != start {
            let Some(&previous) = parent.get(&node) else { break };
            path.push(previous);
            node = previous;
        }
        path.reverse();
        found.push(path);
    }
    found.sort_by_key(|path| path.first().copied());
    found
}

/// Kosaraju's algorithm, with explicit stacks so that a deep graph cannot overflow the call stack.
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let mut visited = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        if visited[root] {
            continue;
        }
        visited[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some((node, next)) = stack.pop() {
            if let Some(&target) = edges[node].get(next) {
                stack.push((node, next + 1));
                if !visited[target] {
                    visited[target] = true;
                    stack.push((target, 0));
                }
            } else {
                order.push(node);
            }
        }
    }
    let mut reverse: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (from, targets) in edges.iter().enumerate() {
        for &to in targets {
            reverse[to].push(from);
        }
    }
    let mut assigned = vec![false; n];
    let mut components = Vec::new();
    for &root in order.iter().rev() {
        if assigned[root] {
            continue;
        }
        assigned[root] = true;
        let mut component = Vec::new();
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            component.push(node);
            for &previous in &reverse[node] {
                if !assigned[previous] {
                    assigned[previous] = true;
                    stack.push(previous);
                }
            }
        }
        components.push(component);
    }
    components
}
