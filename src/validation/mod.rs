//! Layered validation of a document (seed 000 §6.1): the schema layer (JSON Schema draft-07),
//! then, on a document of the right shape, the semantic, constitutional and cross-reference
//! layers. Every finding is a record of the `common/error.json` type in a [`Report`].
//!
//! ```
//! let report = jerry_contracts::validation::validate(br#"{"agent_id": "ps-researcher"}"#);
//! assert!(!report.is_valid());
//! assert_eq!(report.codes(), ["SCH-001", "SCH-001", "SCH-001", "SCH-001"]);
//! ```

pub(crate) mod agent_rules;
mod artifact_file;
mod catalogue;
pub mod codes;
mod constitutional;
mod detect;
pub(crate) mod hooks;
mod output;
mod position;
mod reference;
mod report;
mod schema;
mod semantic;
pub(crate) mod typed_value;

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

pub(crate) use crate::__private::skim::facts::Facts;
use catalogue::Catalogue;
pub use position::{Position, positions};
pub use report::{Report, placed, record, with_values};
pub use schema::equal as json_equal;

use crate::common::ErrorRecordSeverity;
use crate::registry::{self, SchemaInfo};
use crate::session_context::{v1_0, v1_1};

/// What a validation run knows beyond the document. Built from [`Options::default`] with the
/// `with_*` methods (or by setting fields), so that a new option never breaks a caller.
///
/// ```
/// use jerry_contracts::validation::{Options, Validator};
///
/// let validator = Validator::with_options(Options::default().with_strict(true).with_max_bytes(1 << 20));
/// assert!(validator.options().strict);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// Repository root: when given, artifact references are resolved against it (REF-001) and
    /// their checksums verified (REF-004).
    pub root: Option<PathBuf>,
    /// With a [`Options::root`]: the largest artifact that is hashed to check its checksum
    /// ([`Options::DEFAULT_MAX_ARTIFACT_BYTES`] unless set); a larger one gets REF-001 saying
    /// so instead of a hash (a `size_bytes` that differs is told before any hashing).
    pub max_artifact_bytes: u64,
    /// The session the consumer is in: a handoff from another session gets SEM-017 (warning).
    pub expected_session: Option<String>,
    /// Requirement ids known to the run (besides those the document defines): references to
    /// other ids get REF-002 (warning). When nothing is known, references are not judged.
    pub known_requirements: BTreeSet<String>,
    /// The largest document, in bytes, that is judged: a longer one gets SCH-015 and is not
    /// read ([`Options::DEFAULT_MAX_BYTES`] unless set). [`read_limited`] reads a stream up to
    /// the same limit.
    pub max_bytes: usize,
    /// The most records a report lists ([`Options::DEFAULT_MAX_RECORDS`] unless set): past it,
    /// one last record (SCH-016) counts the rest, and is an error when any of them is, so the
    /// verdict stays what it would be. Memory stays bounded whatever the document holds.
    pub max_records: usize,
    /// Strict mode: the convention layer's findings (`CNV-*`, the project's own conventions
    /// beyond what the seeds state) are errors instead of warnings. Off by default: a document
    /// that follows everything the seeds state is valid (docs/conventions.md).
    pub strict: bool,
}

impl Options {
    /// The default [`Options::max_bytes`]: 64 MiB, some ten thousand times the largest
    /// handoff of the seeds' examples.
    pub const DEFAULT_MAX_BYTES: usize = 64 << 20;

    /// The default [`Options::max_artifact_bytes`]: 256 MiB.
    pub const DEFAULT_MAX_ARTIFACT_BYTES: usize = 256 << 20;

    /// The default [`Options::max_records`]: 1,000 records a document, a hundred times what a
    /// handoff with problems usually has.
    pub const DEFAULT_MAX_RECORDS: usize = 1000;

    /// These options with [`Options::root`] set.
    #[must_use]
    pub fn with_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = Some(root.into());
        self
    }

    /// These options with [`Options::expected_session`] set.
    #[must_use]
    pub fn with_expected_session(mut self, session: impl Into<String>) -> Self {
        self.expected_session = Some(session.into());
        self
    }

    /// These options with `ids` added to [`Options::known_requirements`].
    #[must_use]
    pub fn with_known_requirements<I: IntoIterator<Item = String>>(mut self, ids: I) -> Self {
        self.known_requirements.extend(ids);
        self
    }

    /// These options with [`Options::max_bytes`] set.
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// These options with [`Options::max_artifact_bytes`] set.
    #[must_use]
    pub fn with_max_artifact_bytes(mut self, max: usize) -> Self {
        self.max_artifact_bytes = u64::try_from(max).unwrap_or(u64::MAX);
        self
    }

    /// These options with [`Options::max_records`] set.
    #[must_use]
    pub fn with_max_records(mut self, max_records: usize) -> Self {
        self.max_records = max_records;
        self
    }

    /// These options with [`Options::strict`] set.
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }
}

impl Default for Options {
    fn default() -> Self {
        Self {
            root: None,
            max_artifact_bytes: Self::DEFAULT_MAX_ARTIFACT_BYTES as u64,
            expected_session: None,
            known_requirements: BTreeSet::new(),
            max_bytes: Self::DEFAULT_MAX_BYTES,
            max_records: Self::DEFAULT_MAX_RECORDS,
            strict: false,
        }
    }
}

/// Validates documents with a set of [`Options`]. Clones share the run's cache of artifact
/// digests, so each artifact is hashed at most once however many documents name it.
#[derive(Debug, Clone, Default)]
pub struct Validator {
    options: Options,
    digests: std::sync::Arc<reference::Digests>,
}

impl Validator {
    /// A validator with default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// A validator with these options.
    pub fn with_options(options: Options) -> Self {
        Self { options, digests: Default::default() }
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Adds requirement ids to [`Options::known_requirements`], in place (the cost is that of
    /// the new ids, not of the ids already known). Whether any was new.
    pub fn learn_requirements<I: IntoIterator<Item = String>>(&mut self, ids: I) -> bool {
        let before = self.options.known_requirements.len();
        self.options.known_requirements.extend(ids);
        self.options.known_requirements.len() > before
    }

    /// The requirement ids a report's document teaches the run: those a valid agent output
    /// defines (nse-requirements `requirements[].id`; generated agent knowledge), in order.
    /// Empty for any other report.
    pub fn requirements_taught(report: &Report, bytes: &[u8]) -> Vec<String> {
        let Some(reader) = report
            .schema
            .and_then(registry::lookup)
            .and_then(|info| info.agent_id.as_deref())
            .and_then(crate::agent::AgentReader::find)
        else {
            return Vec::new();
        };
        if !reader.defines_requirements || !report.is_valid() {
            return Vec::new();
        }
        let mut taught = Vec::new();
        if let Some(output) = (reader.bytes)(bytes) {
            output.requirement_ids(&mut |used| {
                if used.role == crate::IdRole::Defines {
                    taught.push(used.id.to_owned());
                }
            });
        }
        taught
    }

    /// Whether a report on a document of this schema can change when more requirement ids are
    /// known: an agent output that refers to requirement ids (REF-002; generated agent
    /// knowledge), on its own or as a handoff's payload. A caller that learns ids as it goes
    /// judges such a document again after learning.
    pub fn reads_known_requirements(schema: Option<&str>) -> bool {
        let Some(info) = schema.and_then(registry::lookup) else { return false };
        match Catalogue::built_in().reading(info) {
            Some(Reading::Envelope10 | Reading::Envelope11) => true,
            _ => info
                .agent_id
                .as_deref()
                .and_then(crate::agent::AgentReader::find)
                .is_some_and(|reader| reader.references_requirements),
        }
    }

    /// Validates `bytes`, detecting the schema from the document.
    pub fn validate(&self, bytes: &[u8]) -> Report {
        self.route(Catalogue::built_in(), None, Given::Bytes(bytes))
    }

    /// Validates `bytes` against the schema named `name` (any name [`registry::lookup`] takes).
    pub fn validate_as(&self, name: &str, bytes: &[u8]) -> Report {
        self.route(Catalogue::built_in(), Some(name), Given::Bytes(bytes))
    }

    /// Validates a parsed document, against `schema` when given, else the detected one.
    /// `schema` may name a definition: `NAME#/definitions/X`.
    pub fn validate_value(&self, schema: Option<&str>, value: &Value) -> Report {
        self.route(Catalogue::built_in(), schema, Given::Value(value))
    }

    /// Runs the same four layers as [`Validator::validate`] on a typed value: a handoff, an agent
    /// output, a mission artifact, any generated root type. A value that passes reads back and is
    /// written as a document that [`Validator::validate`] passes too, with the same records.
    ///
    /// ```
    /// use jerry_contracts::agents::ps::ResearcherOutput;
    /// use jerry_contracts::validation::Validator;
    ///
    /// let mut output: ResearcherOutput = serde_json::from_str(r#"{
    ///   "agent_id": "ps-researcher", "research_topic": "Handoff contracts", "sources": [],
    ///   "findings": [{"id": "F-001", "summary": "Schemas catch drift", "category": "insight"}],
    ///   "confidence": {"overall": 0.2, "reasoning": "one source"}
    /// }"#)?;
    /// let report = Validator::new().validate_typed(&output);
    /// assert_eq!(report.schema, Some("agents/ps/researcher_output"));
    /// assert_eq!(report.codes(), ["SEM-002", "CON-005"]); // low confidence, nothing persisted
    /// output.confidence.overall = 1.5.into();
    /// assert_eq!(Validator::new().validate_typed(&output).codes(), ["SCH-004"]);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn validate_typed<D: Document + ?Sized>(&self, document: &D) -> Report {
        let write = || crate::__private::read::written_value(document);
        let given = Given::Typed { subject: document.subject(), checked: document.validate().is_ok(), write: &write };
        self.route(Catalogue::built_in(), Some(document.schema_path()), given)
    }

    /// The one route of every validation, whatever it starts from: probe (the limits, the schema
    /// and its version), read (the value the rules judge, or the schema layer's records), rules
    /// (semantic, constitutional, cross-reference), report (conventions, and every record's
    /// schema location). What the fast path of bytes or a typed value's own check cannot settle
    /// is routed once more as its parsed or written value, which settles everything.
    pub(crate) fn route(&self, catalogue: Catalogue, name: Option<&str>, given: Given<'_>) -> Report {
        // 1. Probe.
        let mut probe = match self.probe(catalogue, name, &given) {
            Step::Go(probe) => probe,
            Step::Done(mut report) => {
                locate(catalogue, &mut report);
                return report;
            }
            Step::Unsettled => return self.as_value(catalogue, name, &given),
        };
        // 2. Read.
        let mut report = self.report(Some(probe.schema));
        let subject = match probe.subject.take() {
            Some(subject) => Some(subject),
            None => match Self::read(catalogue, &probe, &given, &mut report) {
                Some(subject) => subject,
                None => return self.as_value(catalogue, name, &given),
            },
        };
        // 3. Rules.
        if let Some(subject) = &subject {
            self.rules(subject, &mut report);
        }
        // 4. Report.
        let input = match (&given, &subject) {
            (Given::Bytes(bytes), Some(Subject::Skimmed(facts))) => Input::Skimmed(bytes, facts),
            (Given::Bytes(bytes), _) => Input::Bytes(bytes),
            (Given::Value(value), _) => Input::Value(value),
            (Given::Typed { write, .. }, _) => Input::Written(*write),
        };
        self.conventions_at(catalogue, probe.info, probe.pointer, input, &mut report);
        locate(catalogue, &mut report);
        report
    }

    /// Step 1: the limits, the schema (named, or detected from the document) and its version.
    fn probe<'a>(&self, catalogue: Catalogue, name: Option<&'a str>, given: &Given<'a>) -> Step<Probe<'a>> {
        match given {
            Given::Bytes(bytes) => {
                if let Some(report) = self.too_large(bytes.len()) {
                    return Step::Done(report);
                }
                // A v1.1.0 envelope skimmed clean needs no judgement of its nesting first: the
                // skim holds every level to serde_json's depth limit (127, under `DEPTH_LIMIT`)
                // except a payload member replayed by a reader of its own, after which its
                // nesting is judged; anything the skim does not settle is judged here.
                if name.is_none()
                    && catalogue.is_built_in()
                    && detect::opens_as_envelope(bytes)
                    && let Some(step) = self.envelope_first(bytes)
                {
                    return step;
                }
                if let Some(report) = self.too_deep(bytes) {
                    return Step::Done(report);
                }
                // The schema from a probe of the bytes; any doubt goes to the parsed value.
                let Some(signals) = detect::Signals::probe(bytes).filter(|_| catalogue.is_built_in()) else {
                    return Step::Unsettled;
                };
                let info = match name {
                    Some(name) => registry::lookup(name),
                    None => detect::detect(Some(&signals)).ok(),
                };
                match info {
                    Some(info) if detect::version_check(info, signals.schema_version()).is_none() => {
                        Step::Go(Probe::of(info))
                    }
                    _ => Step::Unsettled,
                }
            }
            Given::Value(value) => {
                if let Some(report) = self.value_too_deep(value) {
                    return Step::Done(report);
                }
                if let Some((name, pointer)) = name.and_then(|s| s.split_once('#')) {
                    return self.fragment(catalogue, name, pointer);
                }
                let info = match name {
                    Some(name) => match registry::lookup_in(catalogue.schemas, name) {
                        Some(info) => info,
                        None => return Step::Done(self.unknown(name)),
                    },
                    None => match detect::detect(detect::Signals::of(value).as_ref()) {
                        Ok(info) => info,
                        Err(finding) => {
                            let mut report = self.report(None);
                            report.push(*finding);
                            return Step::Done(report);
                        }
                    },
                };
                match detect::version_check(info, value.get("schema_version").and_then(Value::as_str)) {
                    Some(finding) => {
                        let mut report = self.report(Some(info.name));
                        report.push(finding);
                        Step::Done(report)
                    }
                    None => Step::Go(Probe::of(info)),
                }
            }
            Given::Typed { subject, checked, .. } => {
                let name = name.unwrap_or_default();
                let Some(info) = registry::lookup_in(catalogue.schemas, name) else {
                    return Step::Done(self.unknown(name));
                };
                let version = match subject {
                    Subject::Envelope10(envelope) => Some(envelope.schema_version.as_str()),
                    Subject::Envelope11(envelope) => Some(envelope.schema_version.as_str()),
                    _ => None,
                };
                // The schema layer's records come from the written value, exactly as `validate`
                // gives them.
                if !checked || detect::version_check(info, version).is_some() {
                    return Step::Unsettled;
                }
                Step::Go(Probe { subject: Some(subject.clone()), ..Probe::of(info) })
            }
        }
    }

    /// A document that opens with one of the envelope's own members is skimmed as a v1.1.0
    /// envelope at once, without a probe. When the skim is clean, detection could not have said
    /// otherwise: the type requires `session_id` and both agents (so the document is an envelope)
    /// and `schema_version`, whose 1.0.x values are sent back to the probe (a 1.0.0 envelope).
    /// `None` is "not settled here": the probe decides, as for any other document.
    fn envelope_first<'a>(&self, bytes: &'a [u8]) -> Option<Step<Probe<'a>>> {
        let info = detect::envelope(false)?;
        let facts = Facts::of_envelope(bytes, agent_rules::read_whole)?;
        // A replayed member was read with a depth limit of its own: the nesting is judged.
        if facts.replayed_nesting
            && let Some(report) = self.too_deep(bytes)
        {
            return Some(Step::Done(report));
        }
        let version = facts.schema_version.as_deref()?;
        if version.starts_with("1.0.") || detect::version_check(info, Some(version)).is_some() {
            return None;
        }
        Some(Step::Go(Probe { subject: Some(Subject::Skimmed(facts)), ..Probe::of(info) }))
    }

    /// The probe of a definition or other subschema of a registry file, named
    /// `NAME#POINTER` (`session_context/v1.0.0#/definitions/agent_reference`): the schema and
    /// convention layers judge it (the rule layers judge whole documents only).
    fn fragment<'a>(&self, catalogue: Catalogue, name: &str, pointer: &'a str) -> Step<Probe<'a>> {
        let Some(info) = registry::lookup_in(catalogue.schemas, name) else {
            return Step::Done(self.unknown(name));
        };
        if !pointer.starts_with('/') || info.document.pointer(pointer).is_none() {
            let mut report = self.report(None);
            let message = format!(
                "{} has no schema at #{pointer} (name a definition: {}#/definitions/NAME)",
                info.name, info.name
            );
            report.push(record(&codes::SCH_UNKNOWN_SCHEMA, "", message));
            return Step::Done(report);
        }
        Step::Go(Probe { schema: registry::fragment_name(info, pointer), pointer, ..Probe::of(info) })
    }

    /// Step 2: the value the rules judge, read as its generated type (skimmed, for the envelope
    /// and the agent outputs in bytes); `Some(None)` when the document breaks its schema (the
    /// schema layer's records are in `report`) or is a fragment, `None` when bytes cannot be
    /// settled without their parsed value.
    fn read<'a>(
        catalogue: Catalogue,
        probe: &Probe<'a>,
        given: &Given<'a>,
        report: &mut Report,
    ) -> Option<Option<Subject<'a>>> {
        let reading = catalogue.reading(probe.info);
        match given {
            Given::Bytes(bytes) => Subject::from_bytes(reading?, probe.info, bytes).map(Some),
            Given::Value(value) if !probe.pointer.is_empty() => {
                schema::check_at(catalogue, probe.info, probe.pointer, value, report);
                Some(None)
            }
            Given::Value(value) => match reading.and_then(|reading| Subject::from_value(reading, probe.info, value)) {
                Some(subject) => Some(Some(subject)),
                None => Some(schema_valid(catalogue, probe.info, value, report).then_some(Subject::Other)),
            },
            // The probe holds a typed value's subject.
            Given::Typed { subject, .. } => Some(Some(subject.clone())),
        }
    }

    /// What the fast path of bytes, or a typed value's own check, could not settle: routed as
    /// its parsed (or written) value.
    fn as_value(&self, catalogue: Catalogue, name: Option<&str>, given: &Given<'_>) -> Report {
        match given {
            Given::Bytes(bytes) => match parse(bytes) {
                Ok(value) => self.route(catalogue, name, Given::Value(&value)),
                Err(report) => report,
            },
            Given::Typed { write, .. } => match write() {
                Ok(value) => self.route(catalogue, name, Given::Value(&value)),
                Err(err) => {
                    let mut report = self.report(name.and_then(registry::lookup).map(|info| info.name));
                    report.push(record(
                        &codes::SCH_WRONG_TYPE,
                        "",
                        format!("the value cannot be written as JSON: {err}"),
                    ));
                    report
                }
            },
            // A parsed value is always settled by its probe and read.
            Given::Value(_) => self.report(None),
        }
    }

    /// The report on a schema name no registry entry has.
    fn unknown(&self, name: &str) -> Report {
        let mut report = self.report(None);
        report.push(record(&codes::SCH_UNKNOWN_SCHEMA, "", format!("no schema is named {name:?}")));
        report
    }

    /// An empty report with this validator's cap on records.
    fn report(&self, schema: Option<&'static str>) -> Report {
        Report::new(schema, self.options.max_records).strict(self.options.strict)
    }

    /// SCH-012 for a document nested deeper than the readers take, judged once for the whole
    /// document so the limit is the same at every place ([`crate::__private::read::too_deep`]).
    fn too_deep(&self, bytes: &[u8]) -> Option<Report> {
        let (line, column) = crate::__private::read::too_deep(bytes)?;
        let mut report = self.report(None);
        let depth = crate::__private::read::DEPTH_LIMIT;
        report.push(record(
            &codes::SCH_MALFORMED,
            "",
            format!("line {line} column {column}: arrays and objects nested deeper than {depth} levels"),
        ));
        Some(report)
    }

    /// SCH-012 for a parsed document nested deeper than the readers take: the limit its text is
    /// held to ([`Self::too_deep`]), named at the array or object that passes it, and found
    /// without recursion (a generated type reads a `Value` as its text, D-166).
    fn value_too_deep(&self, value: &Value) -> Option<Report> {
        let pointer = crate::__private::read::value_too_deep(value)?;
        let mut report = self.report(None);
        let depth = crate::__private::read::DEPTH_LIMIT;
        report.push(record(
            &codes::SCH_MALFORMED,
            &pointer,
            format!("arrays and objects nested deeper than {depth} levels"),
        ));
        Some(report)
    }

    /// SCH-015 for a document of `len` bytes when that is over [`Options::max_bytes`].
    fn too_large(&self, len: usize) -> Option<Report> {
        (len > self.options.max_bytes).then(|| too_large(len as u64, self.options.max_bytes))
    }

    /// Step 3: the semantic, constitutional and cross-reference layers.
    fn rules(&self, subject: &Subject, report: &mut Report) {
        semantic::check(subject, &self.options, report);
        constitutional::check(subject, &self.options, report);
        reference::check(subject, &self.options, &self.digests, report);
        if let Subject::Envelope10(envelope) = subject {
            self.v10_payload(envelope, report);
        }
    }

    /// A 1.0.x handoff's payload is bound only to the generic payload shape (seed 001), yet it may
    /// name an agent (`payload.agent_id`) whose output has a schema and rules. Rather than skip
    /// them without a word, the payload is judged as that agent's output, and each error found is
    /// relayed as a SEM-019 warning at its place under `/payload` (decision D-119): a 1.0.x
    /// document the seeds accept stays valid, and nothing wrong in it goes unsaid.
    fn v10_payload(&self, envelope: &v1_0::SessionContext, report: &mut Report) {
        let Some(agent) = envelope.payload.extra.get_str("agent_id") else { return };
        let Some(info) = registry::lookup(&agent).filter(|info| info.agent_id.as_deref() == Some(&*agent)) else {
            return;
        };
        let Ok(payload) = crate::__private::read::written_value(&envelope.payload) else { return };
        let inner = self.validate_value(Some(info.name), &payload);
        // Warnings of the agent's rules that the generic payload shares (SEM-002, CON-005) are
        // already reported on the payload; its errors are what 1.0.x would let pass.
        for finding in inner.records.into_iter().filter(|r| r.severity == ErrorRecordSeverity::Error) {
            let place = finding.path.as_deref().unwrap_or("");
            let mut relayed = record(
                &codes::SEM_V10_PAYLOAD,
                &format!("/payload{place}"),
                format!("as {} output ({}): {}", info.name, finding.error_code, finding.message),
            );
            relayed.expected = finding.expected;
            relayed.actual = finding.actual;
            relayed.constitutional_principle = finding.constitutional_principle;
            relayed.keyword_location = finding.keyword_location;
            report.push(relayed);
        }
    }

    /// Step 4: the convention layer on a document (or the subschema at `pointer`) of `info`'s
    /// schema: nothing to do (not even a parse) unless the schema carries conventions.
    fn conventions_at(
        &self,
        catalogue: Catalogue,
        info: &'static SchemaInfo,
        pointer: &str,
        input: Input<'_>,
        report: &mut Report,
    ) {
        if !schema::has_conventions(catalogue, info, pointer) {
            return;
        }
        let parsed;
        let value = match input {
            Input::Value(value) => value,
            // Most documents keep every convention: a walk of the bytes that parses only the
            // values a convention applies to tells so, and only a doubt costs a parse.
            Input::Skimmed(_, facts)
                if pointer.is_empty() && schema::conventions_kept_by_facts(catalogue, info, facts) =>
            {
                return;
            }
            Input::Bytes(bytes) | Input::Skimmed(bytes, _)
                if schema::conventions_surely_kept(catalogue, info, pointer, bytes) =>
            {
                return;
            }
            Input::Bytes(bytes) | Input::Skimmed(bytes, _) => match crate::__private::read::value_from_slice(bytes) {
                Ok(value) => {
                    parsed = value;
                    &parsed
                }
                // The bytes were judged well-formed before this layer runs: only the memory
                // limit can refuse them here, and that is said, not skipped.
                Err(_) => {
                    let cost = crate::__private::read::tree_cost(bytes);
                    for finding in too_costly(cost).records {
                        report.push(finding);
                    }
                    return;
                }
            },
            // A typed value that passed its own check writes as JSON.
            Input::Written(write) => match write() {
                Ok(value) => {
                    parsed = value;
                    &parsed
                }
                Err(err) => {
                    report.push(record(
                        &codes::SCH_WRONG_TYPE,
                        "",
                        format!("the value cannot be written as JSON: {err}"),
                    ));
                    return;
                }
            },
        };
        schema::conventions(catalogue, info, pointer, value, self.options.strict, report);
    }
}

/// What a validation starts from.
#[allow(clippy::large_enum_variant)] // one a call, on the stack: boxing would cost an allocation
pub(crate) enum Given<'a> {
    /// JSON text.
    Bytes(&'a [u8]),
    /// A parsed document.
    Value(&'a Value),
    /// A typed value: what the rules see of it, whether its own check passed, and its JSON.
    Typed { subject: Subject<'a>, checked: bool, write: &'a dyn Fn() -> serde_json::Result<Value> },
}

/// What the probe found: the schema (and subschema) to judge against, and the subject when the
/// probe already read it (a skimmed envelope, a typed value).
struct Probe<'a> {
    info: &'static SchemaInfo,
    /// The report's schema: the registry name, or `NAME#POINTER` for a subschema.
    schema: &'static str,
    /// The subschema judged (`""`: the whole schema).
    pointer: &'a str,
    subject: Option<Subject<'a>>,
}

impl Probe<'_> {
    fn of(info: &'static SchemaInfo) -> Self {
        Self { info, schema: info.name, pointer: "", subject: None }
    }
}

/// A step of the route: go on with what it gives, stop with a complete report, or route the
/// document again as its parsed or written value.
enum Step<T> {
    Go(T),
    Done(Report),
    Unsettled,
}

/// A document for the convention layer: bytes (parsed only when the schema has conventions) or
/// a parsed value.
#[derive(Clone, Copy)]
enum Input<'a> {
    Bytes(&'a [u8]),
    /// The bytes of a document the skim read, and what it kept of them.
    Skimmed(&'a [u8], &'a Facts<'a>),
    Value(&'a Value),
    /// A typed value, written as JSON only when the schema has conventions.
    Written(&'a dyn Fn() -> serde_json::Result<Value>),
}

/// A typed value [`Validator::validate_typed`] judges: every generated root type (an envelope, an
/// agent output, a mission artifact, an orchestration record) implements it.
pub trait Document: serde::Serialize + garde::Validate<Context = ()> {
    /// The path under `schemas/` of the schema this type is the root of.
    fn schema_path(&self) -> &'static str;
    /// The value, as the rule layers see it.
    #[doc(hidden)]
    fn subject(&self) -> Subject<'_>;
}

impl<D: Document + ?Sized> Document for &D {
    fn schema_path(&self) -> &'static str {
        (**self).schema_path()
    }
    fn subject(&self) -> Subject<'_> {
        (**self).subject()
    }
}

/// Validates `bytes` with default options, detecting the schema.
pub fn validate(bytes: &[u8]) -> Report {
    Validator::new().validate(bytes)
}

/// Validates `bytes` against the schema named `name`, with default options.
pub fn validate_as(name: &str, bytes: &[u8]) -> Report {
    Validator::new().validate_as(name, bytes)
}

/// The schema layer's listing of `value` against the schema at `pointer` in `info`'s file (the
/// typed path's, after the type's own check failed).
pub(crate) fn schema_layer(info: &'static SchemaInfo, pointer: &str, value: &Value, report: &mut Report) {
    schema::check_at(Catalogue::built_in(), info, pointer, value, report);
}

/// Gives every record without a schema location (the rule layers' records, and the few the
/// schema layer makes before the interpreter runs) the location of the schema of the value at
/// its path, when the report's schema is known.
fn locate(catalogue: Catalogue, report: &mut Report) {
    // A report with nothing to place (every valid document) pays nothing, not even the lookup.
    if report.records.iter().all(|r| r.keyword_location.is_some()) {
        return;
    }
    let Some(info) = report.schema.and_then(|name| registry::lookup_in(catalogue.schemas, name)) else { return };
    for record in report.records.iter_mut().filter(|r| r.keyword_location.is_none()) {
        record.keyword_location = Some(schema::location_of(info, record.path.as_deref().unwrap_or("")));
    }
}

/// The report on a document over the size limit: SCH-015, naming both sizes. `len` is what was
/// read, which may be just past the limit (reading stops there).
pub fn too_large(len: u64, max_bytes: usize) -> Report {
    let mut report = Report::default();
    report.push(record(
        &codes::SCH_TOO_LARGE,
        "",
        format!("the document is over the limit of {max_bytes} bytes ({len} bytes read); it was not judged"),
    ));
    report
}

/// The report on a document whose parsed form would pass the memory limit of the readers
/// ([`crate::__private::read::TREE_LIMIT`]): SCH-015, naming both.
fn too_costly(cost: u64) -> Report {
    let mut report = Report::default();
    report.push(record(
        &codes::SCH_TOO_LARGE,
        "",
        format!(
            "its objects and arrays would take about {} MiB of memory to judge, over the limit of {} MiB; it was \
             not judged (split the document)",
            cost >> 20,
            crate::__private::read::TREE_LIMIT >> 20
        ),
    ));
    report
}

/// What [`read_limited`] read.
#[derive(Debug)]
pub enum Limited {
    /// The whole stream, within the limit.
    Whole(Vec<u8>),
    /// The stream holds more than the limit; reading stopped one byte past it, and the bytes
    /// read are dropped. The report for it is [`too_large`].
    TooLarge {
        /// Bytes read before stopping (the limit plus one).
        read: u64,
    },
}

/// Reads `reader` to its end, or stops one byte past `max_bytes` (memory stays within the
/// limit, whatever the stream holds).
pub fn read_limited<R: std::io::Read>(reader: R, max_bytes: usize) -> std::io::Result<Limited> {
    use std::io::Read as _;
    let cap = u64::try_from(max_bytes).unwrap_or(u64::MAX).saturating_add(1);
    let mut bytes = Vec::new();
    let read = reader.take(cap).read_to_end(&mut bytes)?;
    if read > max_bytes {
        return Ok(Limited::TooLarge { read: read as u64 });
    }
    Ok(Limited::Whole(bytes))
}

pub(crate) fn parse(bytes: &[u8]) -> Result<Value, Report> {
    let cost = crate::__private::read::tree_cost(bytes);
    if cost > crate::__private::read::TREE_LIMIT {
        return Err(too_costly(cost));
    }
    crate::__private::read::value_from_slice(bytes).map_err(|err| {
        let mut report = Report::default();
        if let Some(duplicate) = crate::__private::read::duplicate_member(bytes) {
            report.push(record(&codes::SCH_DUPLICATE_MEMBER, &duplicate.pointer, duplicate.message));
            return report;
        }
        report.push(record(&codes::SCH_MALFORMED, "", crate::__private::read::malformed(bytes, &err)));
        report
    })
}

fn schema_valid(catalogue: Catalogue, info: &'static SchemaInfo, value: &Value, report: &mut Report) -> bool {
    let typed_ok = catalogue.root(info.path).is_some_and(|root| (root.check)(value).is_ok());
    if typed_ok {
        return true;
    }
    let before = report.records.len();
    schema::check(catalogue, info, value, report);
    if report.records.len() == before {
        // The interpreter and the types agree on every fixture; should they ever differ, the
        // stricter verdict stands and the type's own finding is reported.
        if let Some(Err(violations)) = catalogue.root(info.path).map(|root| (root.check)(value)) {
            for violation in violations {
                report.push(record(&codes::SCH_WRONG_TYPE, &violation.pointer, violation.message));
            }
        }
    }
    report.records.len() == before
}

/// The value the rule layers judge: named by the generated `Document` impls, so it is reached
/// through [`crate::__private`], not from here.
pub(crate) mod subject {
    use super::*;

    /// A schema-valid document in its generated type, for the rule layers: read from the
    /// document, or borrowed from a typed value ([`Validator::validate_typed`]).
    #[derive(Debug, Clone)]
    pub enum Subject<'a> {
        /// A v1.0.0 handoff envelope.
        Envelope10(Cow<'a, v1_0::SessionContext>),
        /// A v1.1.0 handoff envelope.
        Envelope11(Cow<'a, v1_1::SessionContext>),
        /// A standalone agent output (at the document root).
        Agent(Held<'a>),
        /// A mission task graph.
        TaskGraph(Cow<'a, crate::mission::MissionTaskGraph>),
        /// A v1.1.0 envelope or an agent output the skim judged clean ([`crate::__private::skim`]), as what
        /// the rule layers read of it.
        Skimmed(Facts<'a>),
        /// Any other contract: only the schema layer applies.
        Other,
    }

    /// How the rule layers read a document of a schema with rules: which [`Subject`] it gives.
    /// The generator gives every such schema its reading (`ROOTS`), from the same
    /// knowledge that writes the root types' `Document` impls; a schema not listed has no rules
    /// of its own (`Subject::Other`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Reading {
        /// A v1.0.x handoff envelope.
        Envelope10,
        /// A v1.1.0 handoff envelope (skimmed from bytes).
        Envelope11,
        /// A standalone agent output (skimmed from bytes).
        Agent,
        /// A mission task graph.
        TaskGraph,
    }

    /// An agent output the rule layers judge: borrowed from a typed value, or read from a document.
    #[derive(Debug, Clone)]
    pub enum Held<'a> {
        /// A typed value's own output.
        Borrowed(&'a dyn crate::AgentOutput),
        /// An output read from a document.
        Owned(std::sync::Arc<dyn crate::AgentOutput>),
    }
}

pub(crate) use subject::{Held, Reading, Subject};

impl std::ops::Deref for Held<'_> {
    type Target = dyn crate::AgentOutput;
    fn deref(&self) -> &Self::Target {
        match self {
            Self::Borrowed(output) => *output,
            Self::Owned(output) => &**output,
        }
    }
}

impl<'a> Subject<'a> {
    /// The subject of a document of `info`'s schema in JSON bytes, read as `reading` says: the
    /// v1.1.0 envelope and the agent outputs are skimmed, the others read; `None` when the bytes
    /// do not read clean (the complete path then judges them).
    fn from_bytes(reading: Reading, info: &SchemaInfo, bytes: &'a [u8]) -> Option<Self> {
        match reading {
            Reading::Envelope11 => Facts::of_envelope(bytes, agent_rules::read_whole).map(Self::Skimmed),
            Reading::Agent => {
                // An agent output is judged as the agent its schema names (its type checks the
                // document's own agent_id).
                let reader = crate::agent::AgentReader::find(info.agent_id.as_deref()?)?;
                let mut cx = crate::__private::skim::Cx::for_rules(agent_rules::read_whole);
                (reader.skim)(reader.info.id, bytes, &mut cx).then_some(Self::Skimmed(cx.facts))
            }
            Reading::Envelope10 | Reading::TaskGraph => Subject::read(reading, info, bytes),
        }
    }
}

impl Subject<'static> {
    /// The typed value of a schema-valid parsed document, read as `reading` says; `None` when
    /// the document breaks its schema.
    fn from_value(reading: Reading, info: &SchemaInfo, value: &Value) -> Option<Self> {
        Self::read(reading, info, value)
    }

    fn read(reading: Reading, info: &SchemaInfo, source: impl Source) -> Option<Self> {
        fn valid<T: garde::Validate<Context = ()>>(typed: T) -> Option<T> {
            typed.validate().ok().map(|()| typed)
        }
        match reading {
            Reading::Envelope10 => valid(source.read()?).map(|v| Self::Envelope10(Cow::Owned(v))),
            Reading::Envelope11 => valid(source.read()?).map(|v| Self::Envelope11(Cow::Owned(v))),
            Reading::TaskGraph => valid(source.read()?).map(|v| Self::TaskGraph(Cow::Owned(v))),
            Reading::Agent => {
                // An agent output is read as the agent its schema names.
                let reader = crate::agent::AgentReader::find(info.agent_id.as_deref()?)?;
                source.agent(reader).map(|output| Self::Agent(Held::Owned(output.into())))
            }
        }
    }
}

/// Where a typed value is read from.
trait Source {
    fn read<T: serde::de::DeserializeOwned>(&self) -> Option<T>;
    /// The output of `reader`'s agent, read as that agent's type and checked.
    fn agent(&self, reader: &crate::agent::AgentReader) -> Option<Box<dyn crate::AgentOutput>>;
}

impl Source for &Value {
    fn read<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        crate::__private::typed::read_value(self).ok()
    }

    fn agent(&self, reader: &crate::agent::AgentReader) -> Option<Box<dyn crate::AgentOutput>> {
        (reader.value)(self)
    }
}

impl Source for &[u8] {
    fn read<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        crate::__private::read::from_bytes(self).ok()
    }

    fn agent(&self, reader: &crate::agent::AgentReader) -> Option<Box<dyn crate::AgentOutput>> {
        (reader.bytes)(self)
    }
}
