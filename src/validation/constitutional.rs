//! The constitutional layer (seed 000 §6.1 and L2 §2): the principles of the Jerry constitution
//! that a schema-valid document can still break.
//!
//! | Code    | Principle | Rule                                                                   |
//! |---------|-----------|------------------------------------------------------------------------|
//! | CON-001 | P-043     | an nse-* output carries `disclaimer_included` (D-22; [`crate::AgentInfo`]) |
//! | CON-002 | P-040     | every requirement traces to a stakeholder need; none is listed orphan   |
//! | CON-003 | P-003     | `trace.depth` ≤ 1: workers do not spawn workers (D-12)                  |
//! | CON-004 | P-022     | a confidence explains itself in `reasoning`                             |
//! | CON-005 | P-002     | an agent output lists the artifacts it persisted (warning)             |
//!
//! The output rules judge a standalone agent output and an envelope's payload alike (see
//! [`super::output::output`]).

use std::collections::BTreeSet;

use serde_json::json;

use super::output::{Output, output};
use super::{Options, Report, Subject, codes, record, with_values};
use crate::agents::nse;

/// The deepest nesting P-003 allows: 0 is orchestrator → worker, 1 worker → worker.
const MAX_DEPTH: i64 = 1;

/// Runs the constitutional rules on a schema-valid document.
pub(crate) fn check(subject: &Subject, _options: &Options, report: &mut Report) {
    match subject {
        Subject::Envelope10(envelope) => {
            nesting(envelope.trace.as_ref().map(|t| (&t.depth, t.span_id.as_deref())), report)
        }
        Subject::Envelope11(envelope) => {
            nesting(envelope.trace.as_ref().map(|t| (&t.depth, t.span_id.as_deref())), report)
        }
        Subject::Skimmed(facts) => nesting(facts.trace.as_ref().map(|t| (&t.depth, t.span_id.as_deref())), report),
        Subject::Agent(_) | Subject::TaskGraph(_) | Subject::Other => {}
    }
    let Some(output) = output(subject) else { return };
    disclaimer(&output, report);
    if let Some(requirements) = output.output_as::<nse::RequirementsOutput>() {
        orphans(&output, requirements, report);
    }
    reasoning(&output, report);
    persistence(&output, report);
}

/// CON-003 (P-003): `trace.depth` above 1.
fn nesting(trace: Option<(&crate::Number<i64>, Option<&str>)>, report: &mut Report) {
    let Some((depth, span_id)) = trace else { return };
    if *depth > MAX_DEPTH {
        let span = span_id.map_or_else(String::new, |span| format!(" (span {span:?})"));
        report.push(with_values(
            record(
                &codes::CON_NESTING,
                "/trace/depth",
                format!("trace.depth is {depth}; at most {MAX_DEPTH} is allowed{span}"),
            ),
            Some(json!(format!("<= {MAX_DEPTH}"))),
            Some(json!(depth)),
        ));
    }
}

/// CON-001 (P-043): an nse-* output without `disclaimer_included`. The pointer is the object
/// that lacks it, as for a missing required property.
fn disclaimer(output: &Output<'_>, report: &mut Report) {
    if output.disclaimer() == Some(false) {
        let agent = output.agent_id().unwrap_or("an nse agent".into());
        report.push(with_values(
            record(
                &codes::CON_DISCLAIMER,
                &output.at(""),
                format!("the output of {agent} does not state disclaimer_included: true"),
            ),
            Some(json!({ "disclaimer_included": true })),
            None,
        ));
    }
}

/// CON-002 (P-040): requirements without `parent_need`, and the ids the output itself lists in
/// `traceability.orphan_requirements`, each requirement reported once.
fn orphans(output: &Output<'_>, requirements: &nse::RequirementsOutput, report: &mut Report) {
    let mut reported: BTreeSet<&str> = BTreeSet::new();
    for (i, requirement) in requirements.requirements.iter().enumerate() {
        let traced = requirement.parent_need.as_deref().is_some_and(|need| !need.trim().is_empty());
        if !traced {
            reported.insert(requirement.id.as_str());
            report.push(record(
                &codes::CON_ORPHAN_REQUIREMENTS,
                &output.at(&format!("/requirements/{i}")),
                format!("requirement {} has no parent_need tracing it to a stakeholder need", *requirement.id),
            ));
        }
    }
    let listed = requirements.traceability.orphan_requirements.iter().flatten();
    for (j, id) in listed.enumerate() {
        if reported.insert(id.as_str()) {
            report.push(record(
                &codes::CON_ORPHAN_REQUIREMENTS,
                &output.at(&format!("/traceability/orphan_requirements/{j}")),
                format!("the output lists requirement {id} as an orphan (without parent trace)"),
            ));
        }
    }
}

/// CON-004 (P-022): a confidence without reasoning, or with blank reasoning. An output whose
/// schema makes `confidence` optional and that has none is not judged.
fn reasoning(output: &Output<'_>, report: &mut Report) {
    let Some(confidence) = output.confidence() else { return };
    match confidence.reasoning {
        None => report.push(record(
            &codes::CON_CONFIDENCE_REASONING,
            &output.at("/confidence"),
            format!("confidence {} is given without reasoning", confidence.overall),
        )),
        Some(text) if text.trim().is_empty() => report.push(with_values(
            record(
                &codes::CON_CONFIDENCE_REASONING,
                &output.at("/confidence/reasoning"),
                format!("confidence {} is given with blank reasoning", confidence.overall),
            ),
            Some(json!("non-blank text")),
            Some(json!(text)),
        )),
        Some(_) => {}
    }
}

/// CON-005 (P-002, warning): an agent output that lists no artifact. Generic payloads are not
/// judged: their `artifacts` is optional by the guide (seed 001 "Payload Structure").
fn persistence(output: &Output<'_>, report: &mut Report) {
    if output.is_generic() {
        return;
    }
    let agent = output.agent_id().unwrap_or("the agent".into());
    match output.artifact_count() {
        None => report.push(record(
            &codes::CON_PERSISTENCE,
            &output.at(""),
            format!("the output of {agent} has no artifacts: nothing it produced is persisted"),
        )),
        Some(0) => report.push(record(
            &codes::CON_PERSISTENCE,
            &output.at("/artifacts"),
            format!("the output of {agent} lists no artifact: nothing it produced is persisted"),
        )),
        Some(_) => {}
    }
}
