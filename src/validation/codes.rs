//! The catalogue of error codes: every record a validation run can produce, with its layer,
//! severity, message, remediation and the constitutional principle it enforces. The first codes
//! of each layer are seed 000 §6.3's; the rest extend it. `docs/error-codes.md` lists the same
//! table, and a test keeps the two in step.

use crate::common::ErrorRecordSeverity;

/// The four validation layers of seed 000 §6.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Layer {
    /// JSON Schema draft-07: shape, types, patterns, bounds (`SCH-*`).
    Schema,
    /// Business rules across fields (`SEM-*`).
    Semantic,
    /// Principles of the Jerry constitution (`CON-*`).
    Constitutional,
    /// References to artifacts and requirements outside the document (`REF-*`).
    CrossReference,
    /// The project's own conventions, beyond what the seeds state (`CNV-*`): warnings, and
    /// errors only in strict mode ([`super::Options::strict`]). Each mirrors the schema code of
    /// the same keyword (`CNV-003` is a pattern, like `SCH-003`); `CNV-002` is a member the
    /// schema does not declare.
    Convention,
}

/// What a code rests on: a rule the seeds state, a document that cannot be judged as it is, or
/// a convention of this project where the seeds are silent or only advise ("SHOULD").
///
/// The principle (docs/decisions.md D-130): only what the seeds state makes a document invalid.
/// A convention is a warning, and an error only in strict mode ([`super::Options::strict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Basis {
    /// The seeds state the rule: where (`seed 000:2347`, `seed 004 §5.3`) and the words.
    Seed {
        /// The seed file and line (or section).
        place: &'static str,
        /// The seed's own words, quoted.
        quote: &'static str,
    },
    /// The document cannot be read or judged as it is (malformed JSON, over a limit, a schema
    /// that cannot be told): no verdict on the seeds' rules can be given.
    Unjudged,
    /// The project's convention: the decision that makes it.
    Convention {
        /// The decision in docs/decisions.md (`D-131`), or docs/conventions.md for `CNV-*`.
        decision: &'static str,
    },
}

/// One entry of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    /// `SCH-001` etc.
    pub code: &'static str,
    /// The layer that reports it.
    pub layer: Layer,
    /// `error` makes a document invalid; `warning` and `info` do not.
    pub severity: ErrorRecordSeverity,
    /// The message, before the specifics of the place.
    pub title: &'static str,
    /// What to do about it.
    pub remediation: &'static str,
    /// The constitutional principle it enforces (`P-043`), if any.
    pub principle: Option<&'static str>,
    /// What the code rests on: a seed rule, an unjudgeable document, or a convention.
    pub basis: Basis,
}

impl Code {
    /// Whether the code is a convention of this project: a warning, an error in strict mode.
    pub fn is_convention(&self) -> bool {
        matches!(self.basis, Basis::Convention { .. })
    }
}

macro_rules! catalogue {
    ($($name:ident = $code:literal, $layer:ident, $severity:ident, $principle:expr, $title:literal, $remediation:literal, $basis:expr;)*) => {
        $(
            #[doc = concat!("`", $code, "`: ", $title, ".")]
            pub const $name: Code = Code {
                code: $code,
                layer: Layer::$layer,
                severity: ErrorRecordSeverity::$severity,
                title: $title,
                remediation: $remediation,
                principle: $principle,
                basis: $basis,
            };
        )*
        /// Every code, in catalogue order.
        pub const CATALOGUE: &[Code] = &[$($name),*];
        /// The constant name of each code, in catalogue order (for tooling and tests).
        pub const CONSTANT_NAMES: &[&str] = &[$(stringify!($name)),*];
    };
}

catalogue! {
    SCH_MISSING_REQUIRED = "SCH-001", Schema, Error, None, "Missing required field", "Add the required field to payload", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_WRONG_TYPE = "SCH-002", Schema, Error, None, "Invalid type", "Correct the field type", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_PATTERN = "SCH-003", Schema, Error, None, "Pattern mismatch", "Use correct ID format (e.g., REQ-NSE-001)", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_RANGE = "SCH-004", Schema, Error, None, "Number out of range", "Use a value within the minimum and maximum", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_LENGTH = "SCH-005", Schema, Error, None, "Text length out of bounds", "Shorten or lengthen the text to the allowed number of characters", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_ITEM_COUNT = "SCH-006", Schema, Error, None, "Wrong number of items", "Add or remove items to meet minItems/maxItems", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_ENUM = "SCH-007", Schema, Error, None, "Value not among the allowed values", "Use one of the listed values", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_CONST = "SCH-008", Schema, Error, None, "Value differs from the required constant", "Use the constant value", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_FORMAT = "SCH-009", Schema, Error, None, "Invalid format", "Write the value in the format named (RFC 3339 date/date-time, UUID, URI)", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_UNIQUE = "SCH-010", Schema, Error, None, "Duplicate items", "Remove the repeated items", Basis::Seed { place: "seed 000:2286", quote: "| Schema | JSON Schema Draft-07 | Pre-parse | Reject with error details |" };
    SCH_UNKNOWN_SCHEMA = "SCH-011", Schema, Error, None, "Unknown schema", "Name a schema from `jerry-contracts list` or add the fields that identify the document", Basis::Unjudged;
    SCH_MALFORMED = "SCH-012", Schema, Error, None, "Malformed JSON", "Fix the JSON syntax at the line and column given", Basis::Unjudged;
    SCH_VERSION = "SCH-013", Schema, Error, None, "Unsupported schema version", "Produce a 1.x envelope or migrate the consumer", Basis::Seed { place: "seed 000:86", quote: "\"description\": \"Schema version (semver, must be 1.x.x for backward compatibility)\"" };
    SCH_DUPLICATE_MEMBER = "SCH-014", Schema, Error, None, "Duplicate object member", "Name each member once: readers disagree on which of two values counts", Basis::Unjudged;
    SCH_TOO_LARGE = "SCH-015", Schema, Error, None, "Document larger than the size limit", "Split the document, or raise the limit (`--max-bytes`, Options::max_bytes) if it is trusted", Basis::Unjudged;
    SCH_TRUNCATED = "SCH-016", Schema, Warning, None, "More records found than the report lists", "Fix what is listed and judge the document again, or raise the cap (`--max-records`, Options::max_records); this record is an error when an error was left out", Basis::Unjudged;
    SEM_EMPTY_FINDINGS = "SEM-001", Semantic, Warning, None, "Empty findings array", "Add at least one finding", Basis::Seed { place: "seed 000:2344", quote: "| SEM-001 | warning | Empty findings array | Add at least one finding |" };
    SEM_LOW_CONFIDENCE = "SEM-002", Semantic, Warning, None, "Confidence score unusually low (<0.3)", "Review analysis quality", Basis::Seed { place: "seed 000:2345", quote: "| SEM-002 | warning | Confidence score unusually low (<0.3) | Review analysis quality |" };
    SEM_RISK_SCORE = "SEM-003", Semantic, Error, None, "risk_score is not likelihood × consequence", "Set risk_score to likelihood × consequence", Basis::Seed { place: "seed 000:1297", quote: "\"description\": \"Likelihood x Consequence\"" };
    SEM_RESIDUAL_SCORE = "SEM-004", Semantic, Warning, None, "residual_risk_score is not residual_likelihood × residual_consequence", "Set residual_risk_score to residual_likelihood × residual_consequence", Basis::Convention { decision: "D-130" };
    SEM_RISK_LEVEL = "SEM-005", Semantic, Warning, None, "risk_level outside its score band", "Use the level of the score's band (low 1-4, medium 5-9, high 10-16, critical 20-25)", Basis::Convention { decision: "D-108" };
    SEM_CROSS_FAMILY = "SEM-006", Semantic, Error, None, "cross_family_handoff contradicts the agents' families", "Set cross_family_handoff to whether source and target families differ", Basis::Seed { place: "seed 000:129", quote: "\"description\": \"True if this handoff crosses ps/nse boundary\"" };
    SEM_PAYLOAD_AGENT = "SEM-007", Semantic, Warning, None, "Payload agent_id differs from source_agent.id", "Hand off the output of the source agent", Basis::Convention { decision: "D-130" };
    SEM_PAYLOAD_KIND = "SEM-008", Semantic, Error, None, "Payload is not of the kind payload_schema_ref names", "Point payload_schema_ref at the payload's own schema", Basis::Seed { place: "seed 000:90", quote: "\"description\": \"URI reference to agent-specific output schema for payload validation\"," };
    SEM_FAMILY_PREFIX = "SEM-009", Semantic, Error, None, "Agent family differs from the id's prefix", "Use the family the agent id starts with", Basis::Seed { place: "seed 001:179", quote: "Pattern: `{family}-{role}` (e.g., ps-researcher, nse-requirements, orch-planner)" };
    SEM_COVERAGE_COUNTS = "SEM-010", Semantic, Warning, None, "Coverage counts do not add up", "Make the parts add up to the totals", Basis::Convention { decision: "D-109" };
    SEM_DEFECT_COUNTS = "SEM-011", Semantic, Warning, None, "Defect counts do not add up", "Make open + closed equal total, and critical at most total", Basis::Convention { decision: "D-130" };
    SEM_STEP_ORDER = "SEM-012", Semantic, Warning, None, "step_number exceeds total_steps", "Keep step_number within total_steps", Basis::Convention { decision: "D-130" };
    SEM_BARRIER = "SEM-013", Semantic, Warning, None, "Barrier has completed agents it did not expect", "List every completed agent among agents_expected", Basis::Convention { decision: "D-130" };
    SEM_DUPLICATE_TASK = "SEM-014", Semantic, Error, None, "Duplicate task id in the task graph", "Give every task a unique task_id", Basis::Seed { place: "seed 004 §5.3", quote: "every `task_id` must be unique within mission" };
    SEM_UNKNOWN_DEPENDENCY = "SEM-015", Semantic, Error, None, "depends_on names an unknown task", "Depend only on tasks of the same graph", Basis::Seed { place: "seed 004 §5.3", quote: "`depends_on` must only reference existing task IDs" };
    SEM_TASK_CYCLE = "SEM-016", Semantic, Error, None, "Task graph has a cycle", "Break the cycle: the graph must be acyclic", Basis::Seed { place: "seed 004 §5.1", quote: "Defines the DAG produced by the planner." };
    SEM_SESSION = "SEM-017", Semantic, Warning, None, "Session mismatch - may be stale state", "Decide: accept with warning or reject", Basis::Seed { place: "seed 001:270", quote: "| Session mismatch | `session_id` | Decide: accept with warning or reject |" };
    SEM_WORKFLOW_ID = "SEM-018", Semantic, Warning, None, "workflow_id differs from workflow_state.workflow_id", "Use one workflow id in both places", Basis::Convention { decision: "D-07" };
    SEM_V10_PAYLOAD = "SEM-019", Semantic, Warning, None, "Payload of a 1.0.x handoff breaks its agent's output schema or rules", "Migrate the handoff to 1.1.0 (`jerry-contracts migrate`) and fix the payload: 1.1.0 makes these errors", Basis::Convention { decision: "D-119" };
    SEM_DUPLICATE_REQUIREMENT = "SEM-020", Semantic, Warning, None, "Requirement id defined twice", "Give each requirement its own id", Basis::Convention { decision: "D-132" };
    CON_DISCLAIMER = "CON-001", Constitutional, Error, Some("P-043"), "P-043: Disclaimer not included", "Add mandatory disclaimer", Basis::Seed { place: "seed 000:2346", quote: "| CON-001 | error | P-043: Disclaimer not included | Add mandatory disclaimer |" };
    CON_ORPHAN_REQUIREMENTS = "CON-002", Constitutional, Error, Some("P-040"), "P-040: Orphan requirements detected", "Add parent traces", Basis::Seed { place: "seed 000:2347", quote: "| CON-002 | error | P-040: Orphan requirements detected | Add parent traces |" };
    CON_NESTING = "CON-003", Constitutional, Error, Some("P-003"), "P-003: trace.depth exceeds 1 (workers spawning workers)", "Hand work back to the orchestrator instead of nesting", Basis::Seed { place: "seed 001:120", quote: "The `trace.depth` field MUST be <= 1:" };
    CON_CONFIDENCE_REASONING = "CON-004", Constitutional, Error, Some("P-022"), "P-022: Confidence without reasoning", "Explain the confidence level in confidence.reasoning", Basis::Seed { place: "seed 000:2430", quote: "| P-022 (No Deception) | `confidence` required with reasoning |" };
    CON_PERSISTENCE = "CON-005", Constitutional, Warning, Some("P-002"), "P-002: No artifacts persisted", "Persist the output and list it in artifacts", Basis::Seed { place: "seed 000:2428", quote: "| P-002 (Persistence) | `artifacts` array required; file paths validated |" };
    REF_ARTIFACT_MISSING = "REF-001", CrossReference, Warning, None, "Referenced artifact not found", "Verify artifact path", Basis::Seed { place: "seed 000:2348", quote: "| REF-001 | warning | Referenced artifact not found | Verify artifact path |" };
    REF_UNKNOWN_REQUIREMENT = "REF-002", CrossReference, Warning, None, "Referenced requirement ID unknown", "Check requirement registry", Basis::Seed { place: "seed 000:2349", quote: "| REF-002 | warning | Referenced requirement ID unknown | Check requirement registry |" };
    REF_ARTIFACT_PATH = "REF-003", CrossReference, Error, Some("P-002"), "Artifact path is not repository-relative", "Use a relative path with forward slashes that stays inside the repository", Basis::Seed { place: "seed 001:232", quote: "1. All paths MUST be repository-relative (no absolute paths)" };
    REF_CHECKSUM = "REF-004", CrossReference, Error, None, "Artifact checksum mismatch", "Recompute the checksum or restore the artifact", Basis::Seed { place: "seed 000:270", quote: "\"description\": \"SHA-256 checksum for integrity verification\"" };
    REF_SIZE = "REF-005", CrossReference, Warning, None, "Artifact size differs from size_bytes", "Restore the artifact, or state its size", Basis::Convention { decision: "D-136" };
    REF_UNKNOWN_NEED = "REF-006", CrossReference, Warning, Some("P-040"), "P-040: parent_need names no listed stakeholder need", "Trace the requirement to one of the output's stakeholder_needs, or list that need", Basis::Convention { decision: "D-134" };
    REF_ARTIFACT_PATH_FORM = "REF-007", CrossReference, Warning, None, "Artifact path not in the conventional form", "Use forward slashes and plain segments (no '', '..' or ':')", Basis::Convention { decision: "D-131" };
    REF_MISSION_NOT_STORED = "REF-008", CrossReference, Error, None, "Mission not stored", "Store the mission's envelope first: every artifact belongs to a stored mission", Basis::Seed { place: "seed 004 §2.2", quote: "This prevents orphan artifacts and makes debugging much easier." };
    REF_TASK_NOT_STORED = "REF-009", CrossReference, Error, None, "Task not in the mission's stored task graph", "Store the task graph that lists the task first, or name one of its tasks", Basis::Seed { place: "seed 004 §15", quote: "3. database-level required column and foreign key validation" };
    CNV_MISSING = "CNV-001", Convention, Warning, None, "Field missing that the conventions expect", "Add the field, or keep the warning: the seeds do not require it", Basis::Convention { decision: "docs/conventions.md" };
    CNV_UNDECLARED = "CNV-002", Convention, Warning, None, "Member the conventions do not declare", "Check the member's name: the conventions list every member of this record", Basis::Convention { decision: "docs/conventions.md" };
    CNV_PATTERN = "CNV-003", Convention, Warning, None, "Value outside the conventional format", "Write the value in the conventional format", Basis::Convention { decision: "docs/conventions.md" };
    CNV_RANGE = "CNV-004", Convention, Warning, None, "Number outside the conventional range", "Use a value within the conventional range", Basis::Convention { decision: "docs/conventions.md" };
    CNV_LENGTH = "CNV-005", Convention, Warning, None, "Text length outside the conventional bounds", "Give the text the conventional length (most often: not empty)", Basis::Convention { decision: "docs/conventions.md" };
    CNV_ITEM_COUNT = "CNV-006", Convention, Warning, None, "Item count outside the conventional bounds", "Add or remove items to meet the conventional count", Basis::Convention { decision: "docs/conventions.md" };
    CNV_ENUM = "CNV-007", Convention, Warning, None, "Value outside the conventional vocabulary", "Use one of the listed values if one fits", Basis::Convention { decision: "docs/conventions.md" };
    CNV_CONST = "CNV-008", Convention, Warning, None, "Value differs from the conventional constant", "Use the conventional value", Basis::Convention { decision: "docs/conventions.md" };
    CNV_FORMAT = "CNV-009", Convention, Warning, None, "Value not in the conventional format", "Write the value in the format named (RFC 3339 date/date-time, UUID, URI)", Basis::Convention { decision: "docs/conventions.md" };
    CNV_UNIQUE = "CNV-010", Convention, Warning, None, "Repeated items where the conventions expect none", "Remove the repeated items", Basis::Convention { decision: "docs/conventions.md" };
}

/// The catalogue as the Markdown page `docs/error-codes.md` (a test keeps the committed page
/// equal to this).
pub fn markdown() -> String {
    let mut page = String::from(
        "# Error codes\n\n\
         Every record `jerry-contracts` reports has one of these codes (`error_code` of\n\
         `schemas/common/error.json`). A document is valid when no record has severity `error`.\n\
         The first codes of each layer are those of seed 000 §6.3; the rest extend the catalogue.\n\
         This page is generated from `src/validation/codes.rs`.\n",
    );
    for (layer, heading) in [
        (Layer::Schema, "Schema layer (JSON Schema draft-07)"),
        (Layer::Semantic, "Semantic layer (business rules)"),
        (Layer::Constitutional, "Constitutional layer (Jerry constitution principles)"),
        (Layer::CrossReference, "Cross-reference layer (artifacts and requirements)"),
        (Layer::Convention, "Convention layer (the project's own conventions; errors under `--strict`)"),
    ] {
        page.push_str(&format!(
            "\n## {heading}\n\n| Code | Severity | Message | Remediation | Principle |\n|---|---|---|---|---|\n"
        ));
        for code in CATALOGUE.iter().filter(|c| c.layer == layer) {
            let severity = match code.severity {
                ErrorRecordSeverity::Error => "error",
                ErrorRecordSeverity::Warning => "warning",
                ErrorRecordSeverity::Info => "info",
            };
            page.push_str(&format!(
                "| {} | {severity} | {} | {} | {} |\n",
                code.code,
                code.title.replace('|', "\\|"),
                code.remediation.replace('|', "\\|"),
                code.principle.unwrap_or("")
            ));
        }
    }
    page
}

/// The catalogue entry for `code` (`"SEM-003"`).
pub fn find(code: &str) -> Option<&'static Code> {
    CATALOGUE.iter().find(|c| c.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_well_formed_and_in_their_layer() {
        let mut seen = std::collections::BTreeSet::new();
        for code in CATALOGUE {
            assert!(seen.insert(code.code), "{} twice", code.code);
            let prefix = match code.layer {
                Layer::Schema => "SCH-",
                Layer::Semantic => "SEM-",
                Layer::Constitutional => "CON-",
                Layer::CrossReference => "REF-",
                Layer::Convention => "CNV-",
            };
            assert!(code.code.starts_with(prefix) && code.code.len() == 7, "{}", code.code);
            assert_eq!(
                code.principle.is_some(),
                code.title.starts_with("P-") || code.code == "REF-003",
                "{}",
                code.code
            );
        }
        assert_eq!(find("CON-001").and_then(|c| c.principle), Some("P-043"));
    }
}
