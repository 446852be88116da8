//! Rust names for schema types: the module a schema file maps to, the public name of each root,
//! definition and hoisted inline schema, and the table of names chosen by hand where the
//! mechanical rule would not say what a thing is in the domain's words.

/// Names chosen by hand, by schema file and JSON Pointer of the schema node.
pub const OVERRIDES: &[(&str, &str, &str)] = &[
    (
        "common/types.json",
        "/definitions/confidence_score/properties/breakdown/additionalProperties",
        "ComponentConfidence",
    ),
    (
        "agents/nse/architecture_output.json",
        "/properties/trade_studies/items/properties/alternatives/items/properties/scores/additionalProperties",
        "CriterionScore",
    ),
    ("workflows/cross_pollination.json", "", "CrossPollinationHandoff"),
    // Not `Error`: the record would shadow `std::error::Error` wherever it is imported.
    ("common/error.json", "", "ErrorRecord"),
    // The seed's unchecked reference (used by the agent outputs) keeps the plain name.
    ("common/artifacts.json", "/definitions/artifact_reference", "CheckedArtifactReference"),
    // One name per concept (issue 27): a public name that another module's item also carries
    // takes a name of its own; only sibling envelope versions share names (`v1_0::Payload`,
    // `v1_1::Payload`), since they are one concept at two versions. `finish` refuses any other.
    ("agents/ps/reporter_output.json", "", "PsReporterOutput"),
    ("agents/nse/reporter_output.json", "", "NseReporterOutput"),
    ("agents/ps/reviewer_output.json", "", "PsReviewerOutput"),
    ("agents/nse/reviewer_output.json", "", "NseReviewerOutput"),
    // Not `SchemaVersion`: the envelope's `v1_0::SchemaVersion` is another rule (1.x.y).
    ("mission/metadata.json", "/definitions/schema_version", "MissionSchemaVersion"),
    // Not `Code`: the error catalogue's `validation::codes::Code` is an error code.
    ("mission/metadata.json", "/definitions/code", "MachineCode"),
    // Not `Handoff`: `envelope::Handoff<P>` is the typed session-context handoff.
    ("orchestration/handoff.json", "", "OrchestrationHandoff"),
    // Not `AgentOutput`: the trait every agent output implements has that name.
    ("infrastructure/checkpoint.json", "/definitions/agent_output", "CheckpointAgentOutput"),
];

/// Whether `module` is a version module of the envelope (`session_context::v1_1`): sibling
/// versions carry the same names for the same concepts.
pub fn is_version(module: &[String]) -> bool {
    module.first().is_some_and(|m| m == "session_context") && module.len() == 2
}

/// The module path of a schema file: its directory, plus the version for the envelope
/// (`session_context/v1.0.0.json` → `session_context::v1_0`).
pub fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.split('/').map(str::to_owned).collect();
    let stem = parts.pop().unwrap_or_default();
    if parts.first().is_some_and(|p| p == "session_context") {
        let version = stem.trim_end_matches(".json");
        match semver::Version::parse(version.trim_start_matches('v')) {
            Ok(parsed) => parts.push(format!("v{}_{}", parsed.major, parsed.minor)),
            // Not a version: a module named after the file, in a Rust identifier's letters.
            Err(_) => parts.push(version.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()),
        }
    }
    parts
}

/// Public name of the root type of a schema file.
pub fn root_name(file: &str) -> String {
    if let Some(name) = override_for(file, "") {
        return name.to_owned();
    }
    if file.starts_with("session_context/") {
        return "SessionContext".to_owned();
    }
    let stem = file.rsplit('/').next().unwrap_or(file).trim_end_matches(".json");
    pascal(stem)
}

/// Hand-chosen name for the node at `pointer` in `file`, if any.
pub fn override_for(file: &str, pointer: &str) -> Option<&'static str> {
    OVERRIDES.iter().find(|(f, p, _)| *f == file && *p == pointer).map(|(_, _, n)| *n)
}

/// `snake_case`, `kebab-case` or `dotted.words` to `PascalCase`; digits are kept.
pub fn pascal(text: &str) -> String {
    let mut out = String::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'N');
    }
    out
}

/// The singular of an English plural property name, for naming array items
/// (`findings` → `finding`, `studies` → `study`, `criteria` → `criterion`).
pub fn singular(word: &str) -> String {
    let irregular = [("criteria", "criterion"), ("data", "datum"), ("analyses", "analysis")];
    for (plural, single) in irregular {
        if let Some(prefix) = word.strip_suffix(plural) {
            return format!("{prefix}{single}");
        }
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for suffix in ["sses", "ches", "shes", "xes"] {
        if word.ends_with(suffix) {
            return word[..word.len() - 2].to_owned();
        }
    }
    if word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") && !word.ends_with("is") {
        return word[..word.len() - 1].to_owned();
    }
    word.to_owned()
}

/// The prefix that names hoisted members of a type: `ResearcherOutput` → `Researcher`.
pub fn stem(public: &str) -> &str {
    public.strip_suffix("Output").filter(|s| !s.is_empty()).unwrap_or(public)
}

/// The name of a member type of `owner`: its stem and the member's name, without repeating the
/// stem (`RiskOutput` + `Risk` → `Risk`, `Risk` + `Mitigation` → `RiskMitigation`).
pub fn member(owner: &str, tail: &str) -> String {
    let stem = stem(owner);
    if tail.starts_with(stem) || stem.starts_with(tail) { tail.to_owned() } else { format!("{stem}{tail}") }
}

/// A prefix that tells apart two types of the same name in different modules.
pub fn module_prefix(module: &[String]) -> String {
    module.last().map(|m| pascal(m)).unwrap_or_default()
}

/// `PascalCase` or `snake_case` to `SCREAMING_SNAKE_CASE`: `RequirementId` → `REQUIREMENT_ID`,
/// `parent_need` → `PARENT_NEED`.
pub fn screaming(text: &str) -> String {
    let mut out = String::new();
    let mut previous: Option<char> = None;
    for c in text.chars() {
        if !c.is_ascii_alphanumeric() {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            previous = None;
            continue;
        }
        let boundary = c.is_ascii_uppercase() && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
        if boundary && !out.ends_with('_') {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
        previous = Some(c);
    }
    out.trim_end_matches('_').to_owned()
}

/// The names of the pattern statics, one per entry of [`Plan::patterns`] and in its order: each
/// named after what it matches. A pattern a named type holds is named after the type
/// (`RequirementId` → `REQUIREMENT_ID_PATTERN`); one only a property holds after the property and
/// its type (`parent_need` of `Requirement` → `REQUIREMENT_PARENT_NEED_PATTERN`). A pattern used in
/// several places takes the name of its first holder, definitions before hoisted types before
/// properties, then by file and pointer, so the name does not depend on the order of the plan. A
/// name two patterns would share gets a numbered suffix (`_2`, …) in the order of the patterns.
///
/// [`Plan::patterns`]: crate::plan::Plan::patterns
pub fn pattern_statics(plan: &crate::plan::Plan) -> Vec<String> {
    use serde_json::Value;
    // (rank, file, pointer, name) of every holder of each pattern.
    let mut holders: std::collections::BTreeMap<&str, Vec<(u8, &str, String, String)>> =
        std::collections::BTreeMap::new();
    for def in &plan.types {
        if let Some(pattern) = def.source.get("pattern").and_then(Value::as_str) {
            let definition = def.pointer.strip_prefix("/definitions/").is_some_and(|name| !name.contains('/'));
            let rank = if definition { 0 } else { 1 };
            holders.entry(pattern).or_default().push((rank, &def.file, def.pointer.clone(), screaming(&def.flat)));
        }
        if !matches!(def.kind, crate::plan::Kind::Struct) {
            continue;
        }
        for (property, schema) in def.source.get("properties").and_then(Value::as_object).into_iter().flatten() {
            if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
                let pointer = format!("{}/properties/{}", def.pointer, jerry_contracts_pointer::escape(property));
                let name = format!("{}_{}", screaming(&def.flat), screaming(property));
                holders.entry(pattern).or_default().push((2, &def.file, pointer, name));
            }
        }
    }
    let mut taken = std::collections::BTreeSet::new();
    plan.patterns
        .iter()
        .enumerate()
        .map(|(index, pattern)| {
            let base = holders
                .get_mut(pattern.as_str())
                .and_then(|found| {
                    found.sort();
                    found.first().map(|(_, _, _, name)| format!("{name}_PATTERN"))
                })
                .unwrap_or_else(|| format!("PATTERN_NUMBER_{index}"));
            let mut name = base.clone();
            let mut n = 2;
            while !taken.insert(name.clone()) {
                name = format!("{base}_{n}");
                n += 1;
            }
            name
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_mirror_the_schema_tree() {
        assert_eq!(module_of("agents/ps/researcher_output.json"), ["agents", "ps"]);
        assert_eq!(module_of("session_context/v1.1.0.json"), ["session_context", "v1_1"]);
        assert_eq!(module_of("common/types.json"), ["common"]);
    }

    #[test]
    fn names_read_as_the_domain() {
        assert_eq!(root_name("agents/ps/researcher_output.json"), "ResearcherOutput");
        assert_eq!(root_name("session_context/v1.0.0.json"), "SessionContext");
        assert_eq!(pascal("ps-researcher"), "PsResearcher");
        assert_eq!(pascal("v1"), "V1");
        assert_eq!(pascal("1.0"), "N10");
        assert_eq!(singular("findings"), "finding");
        assert_eq!(singular("trade_studies"), "trade_study");
        assert_eq!(singular("criteria"), "criterion");
        assert_eq!(singular("success_criteria"), "success_criterion");
        assert_eq!(singular("status"), "status");
        assert_eq!(singular("matches"), "match");
        assert_eq!(stem("ResearcherOutput"), "Researcher");
        assert_eq!(stem("Output"), "Output");
        assert_eq!(member("RiskOutput", "Risk"), "Risk");
        assert_eq!(member("Risk", "Mitigation"), "RiskMitigation");
        assert_eq!(screaming("RequirementId"), "REQUIREMENT_ID");
        assert_eq!(screaming("parent_need"), "PARENT_NEED");
        assert_eq!(screaming("V11SessionContext"), "V11_SESSION_CONTEXT");
        assert_eq!(screaming("sha256-digest"), "SHA256_DIGEST");
    }
}
