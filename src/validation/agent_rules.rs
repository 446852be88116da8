//! The rules of single agents, of every rule layer, in one table ([`AGENT_RULES`]): each reads
//! the output of one agent, typed, so an output of an agent listed here is never only skimmed.
//! The validator hands [`read_whole`], which answers from this table, to the skim, which reads
//! those outputs whole instead of keeping only facts: a rule added here fires on the bytes path
//! as on every other (tests/rules.rs adds one through the test hook and shows it).

use serde_json::{Value, json};

use super::output::Output;
use super::{Report, codes, record, with_values};
use crate::__private::AgentId;
use crate::agents::{nse, ps};

/// The layer a rule of a single agent belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RuleLayer {
    /// The semantic layer (`SEM-*`).
    Semantic,
    /// The cross-reference layer (`REF-*`).
    Reference,
}

/// One rule of a single agent.
pub(crate) struct AgentRule {
    /// The agent whose output it reads (the output type's `agent_id`).
    pub(crate) agent: &'static str,
    /// Its layer.
    pub(crate) layer: RuleLayer,
    /// The rule, on an output that is that agent's (it reads the output through
    /// `Output::output_as`, so any other output passes it by).
    pub(crate) run: fn(&Output<'_>, &mut Report),
}

/// A rule of the agent whose output type is `$output`: `$check(output, typed, report)`.
macro_rules! rule {
    ($layer:ident, $output:ty, $check:path) => {
        AgentRule {
            agent: <$output as AgentId>::AGENT_ID,
            layer: RuleLayer::$layer,
            run: |output, report| {
                if let Some(typed) = output.output_as::<$output>() {
                    $check(output, typed, report);
                }
            },
        }
    };
}

/// Every rule of a single agent.
pub(crate) const AGENT_RULES: &[AgentRule] = &[
    rule!(Semantic, ps::PsReviewerOutput, reviewer_findings),
    rule!(Semantic, ps::ValidatorOutput, coverage),
    rule!(Semantic, nse::RiskOutput, risks),
    rule!(Semantic, nse::VerificationOutput, verification_counts),
    rule!(Reference, nse::RequirementsOutput, parent_needs),
];

/// Runs the rules of `layer` on `output` (an agent output read whole).
pub(crate) fn run(layer: RuleLayer, output: &Output<'_>, report: &mut Report) {
    for rule in AGENT_RULES.iter().filter(|rule| rule.layer == layer) {
        (rule.run)(output, report);
    }
    #[cfg(feature = "testing")]
    added::run(layer, output, report);
}

/// Whether the output of `agent` is read whole rather than skimmed: the generic payload
/// (`None`: its rules read undeclared members and `key_findings`), an agent with a rule in
/// [`AGENT_RULES`] (or one a test added), and every agent whose output holds requirement ids (the
/// reference rules read them; generated agent knowledge, so a new agent's ids are never skimmed
/// past).
pub(crate) fn read_whole(agent: Option<&str>) -> bool {
    let Some(agent) = agent else { return true };
    let ruled = AGENT_RULES.iter().any(|rule| rule.agent == agent);
    #[cfg(feature = "testing")]
    let ruled = ruled || added::reads(agent);
    ruled
        || crate::agent::AgentReader::find(agent)
            .is_some_and(|reader| reader.defines_requirements || reader.references_requirements)
}

/// Rules a test adds for the length of a call (the `testing` feature): the way to show that a new
/// rule of a single agent fires on every path without writing one into the table.
#[cfg(feature = "testing")]
pub(crate) mod added {
    use std::cell::RefCell;

    use super::{Output, Report, RuleLayer};

    /// A rule a test adds: it reads the agent's output as `dyn AgentOutput` and the pointer the
    /// output sits at (`""` or `"/payload"`).
    pub type Rule = fn(&dyn crate::AgentOutput, &str, &mut Report);

    thread_local! {
        static ADDED: RefCell<Vec<(&'static str, Rule)>> = const { RefCell::new(Vec::new()) };
    }

    /// Runs `f` with `rule` added, in the semantic layer, for the outputs of `agent`, on this
    /// thread.
    pub fn with_rule<R>(agent: &'static str, rule: Rule, f: impl FnOnce() -> R) -> R {
        ADDED.with(|added| added.borrow_mut().push((agent, rule)));
        // Taken off again even when `f` panics (a failing assertion).
        struct Remove;
        impl Drop for Remove {
            fn drop(&mut self) {
                ADDED.with(|added| added.borrow_mut().pop());
            }
        }
        let _remove = Remove;
        f()
    }

    pub(super) fn reads(agent: &str) -> bool {
        ADDED.with(|added| added.borrow().iter().any(|(id, _)| *id == agent))
    }

    pub(super) fn run(layer: RuleLayer, output: &Output<'_>, report: &mut Report) {
        let Some(agent) = output.agent() else { return };
        if layer != RuleLayer::Semantic {
            return;
        }
        let rules: Vec<_> = ADDED.with(|added| added.borrow().clone());
        for (id, rule) in rules {
            if agent.agent().id == id {
                rule(agent, output.base, report);
            }
        }
    }
}

/// SEM-001 on a review that lists no finding.
fn reviewer_findings(output: &Output<'_>, reviewer: &ps::PsReviewerOutput, report: &mut Report) {
    if reviewer.findings.is_empty() {
        report.push(record(
            &codes::SEM_EMPTY_FINDINGS,
            &output.at("/findings"),
            format!("the review of {:?} lists no finding", reviewer.review_subject),
        ));
    }
}

/// The risk level a 5×5 matrix gives a score (likelihood 1–5 × consequence 1–5):
///
/// | score | level    |
/// |-------|----------|
/// | 1–4   | low      |
/// | 5–9   | medium   |
/// | 10–16 | high     |
/// | 20–25 | critical |
///
/// No product of two numbers from 1 to 5 lies in 17–19 (16 = 4×4, 20 = 4×5), so those scores
/// have no band: a score there is already wrong (SEM-003) and its level is not judged.
fn risk_band(score: i64) -> Option<nse::RiskLevel> {
    match score {
        1..=4 => Some(nse::RiskLevel::Low),
        5..=9 => Some(nse::RiskLevel::Medium),
        10..=16 => Some(nse::RiskLevel::High),
        20..=25 => Some(nse::RiskLevel::Critical),
        _ => None,
    }
}

/// The value of an optional number field.
pub(super) fn num<T: crate::number::Numeric>(field: &Option<crate::Number<T>>) -> Option<T> {
    field.as_ref().map(crate::Number::get)
}

/// SEM-003, SEM-004, SEM-005 on every risk of an nse-risk output.
fn risks(output: &Output<'_>, risk_output: &nse::RiskOutput, report: &mut Report) {
    for (i, risk) in risk_output.risks.iter().enumerate() {
        let product = risk.likelihood.get().checked_mul(risk.consequence.get());
        if product != Some(risk.risk_score.get()) {
            report.push(with_values(
                record(
                    &codes::SEM_RISK_SCORE,
                    &output.at(&format!("/risks/{i}/risk_score")),
                    format!(
                        "{}: risk_score {} but likelihood {} × consequence {} = {}",
                        *risk.id,
                        risk.risk_score,
                        risk.likelihood,
                        risk.consequence,
                        product.map_or_else(|| "overflow".to_owned(), |p| p.to_string())
                    ),
                ),
                product.map(Value::from),
                Some(json!(risk.risk_score)),
            ));
        }
        if let (Some(likelihood), Some(consequence), Some(score)) =
            (num(&risk.residual_likelihood), num(&risk.residual_consequence), num(&risk.residual_risk_score))
        {
            let product = likelihood.checked_mul(consequence);
            if product != Some(score) {
                report.push(with_values(
                    record(
                        &codes::SEM_RESIDUAL_SCORE,
                        &output.at(&format!("/risks/{i}/residual_risk_score")),
                        format!(
                            "{}: residual_risk_score {score} but residual_likelihood {likelihood} × \
                             residual_consequence {consequence} = {}",
                            *risk.id,
                            product.map_or_else(|| "overflow".to_owned(), |p| p.to_string())
                        ),
                    ),
                    product.map(Value::from),
                    Some(json!(score)),
                ));
            }
        }
        if let (Some(level), Some(band)) = (risk.risk_level, risk_band(risk.risk_score.get()))
            && level != band
        {
            report.push(with_values(
                record(
                    &codes::SEM_RISK_LEVEL,
                    &output.at(&format!("/risks/{i}/risk_level")),
                    format!(
                        "{}: risk_level {level} but risk_score {} is in the {band} band",
                        *risk.id, risk.risk_score
                    ),
                ),
                Some(json!(band.to_string())),
                Some(json!(level.to_string())),
            ));
        }
    }
}

/// SEM-010 on a ps-validator's coverage: passed + failed + skipped ≤ total_tests (a test whose
/// result is `error` is counted in none of the three, docs/decisions.md D-109).
fn coverage(output: &Output<'_>, validator: &ps::ValidatorOutput, report: &mut Report) {
    let Some(coverage) = &validator.coverage else { return };
    let (Some(total), Some(passed), Some(failed), Some(skipped)) =
        (num(&coverage.total_tests), num(&coverage.passed), num(&coverage.failed), num(&coverage.skipped))
    else {
        return;
    };
    let sum = passed.checked_add(failed).and_then(|s| s.checked_add(skipped));
    if sum.is_none_or(|sum| sum > total) {
        report.push(with_values(
            record(
                &codes::SEM_COVERAGE_COUNTS,
                &output.at("/coverage/total_tests"),
                format!("passed {passed} + failed {failed} + skipped {skipped} exceeds total_tests {total}"),
            ),
            Some(json!(format!("<= {total}"))),
            sum.map(Value::from),
        ));
    }
}

/// SEM-010 on the verification matrix and SEM-011 on the defect summary of nse-verification.
fn verification_counts(output: &Output<'_>, verification: &nse::VerificationOutput, report: &mut Report) {
    let matrix = &verification.verification_matrix;
    if let (Some(verified), Some(total)) = (num(&matrix.requirements_verified), num(&matrix.total_requirements))
        && verified > total
    {
        report.push(with_values(
            record(
                &codes::SEM_COVERAGE_COUNTS,
                &output.at("/verification_matrix/requirements_verified"),
                format!("requirements_verified {verified} exceeds total_requirements {total}"),
            ),
            Some(json!(format!("<= {total}"))),
            Some(json!(verified)),
        ));
    }
    let Some(defects) = &verification.defect_summary else { return };
    if let (Some(open), Some(closed), Some(total)) =
        (num(&defects.open_defects), num(&defects.closed_defects), num(&defects.total_defects))
    {
        let sum = open.checked_add(closed);
        if sum != Some(total) {
            report.push(with_values(
                record(
                    &codes::SEM_DEFECT_COUNTS,
                    &output.at("/defect_summary/total_defects"),
                    format!("open_defects {open} + closed_defects {closed} ≠ total_defects {total}"),
                ),
                sum.map(Value::from),
                Some(json!(total)),
            ));
        }
    }
    if let (Some(critical), Some(total)) = (num(&defects.critical_defects), num(&defects.total_defects))
        && critical > total
    {
        report.push(with_values(
            record(
                &codes::SEM_DEFECT_COUNTS,
                &output.at("/defect_summary/critical_defects"),
                format!("critical_defects {critical} exceeds total_defects {total}"),
            ),
            Some(json!(format!("<= {total}"))),
            Some(json!(critical)),
        ));
    }
}

// ---------------------------------------------------------------------------------------------
// Envelopes
// ---------------------------------------------------------------------------------------------

/// REF-006 (P-040, "Cross-reference IDs validated"; a warning like REF-002, D-134): a
/// requirement's `parent_need` that names none of the `stakeholder_needs` the same output lists.
/// Judged only when the output lists its needs: without the list, the need may be stated
/// elsewhere.
fn parent_needs(output: &Output<'_>, requirements: &crate::agents::nse::RequirementsOutput, report: &mut Report) {
    let Some(needs) = &requirements.stakeholder_needs else { return };
    let listed: std::collections::HashSet<&str> = needs.iter().map(|need| need.id.as_str()).collect();
    for (i, requirement) in requirements.requirements.iter().enumerate() {
        let Some(need) = requirement.parent_need.as_deref() else { continue };
        if !listed.contains(need) {
            report.push(with_values(
                record(
                    &codes::REF_UNKNOWN_NEED,
                    &output.at(&format!("/requirements/{i}/parent_need")),
                    format!(
                        "requirement {} traces to {need}, which is not among the {} stakeholder needs the output lists",
                        requirement.id.as_str(),
                        listed.len()
                    ),
                ),
                None,
                Some(json!(need)),
            ));
        }
    }
}
