//! Format independence (docs/design.md D-154): every valid fixture, read into its generated
//! type through YAML (serde_norway), CBOR (ciborium), MessagePack (rmp-serde), another JSON parser
//! (sonic-rs) and `serde_json::Value`, is written back through the same format with the same JSON
//! value, and the gate gives the value written as JSON the verdict it gives the fixture. No format
//! sees serde_json's private raw-value token. The seed's YAML configurations read from YAML with
//! an undeclared key and keep it.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::__private::typed::{self, Transcoded};
use jerry_contracts::validation::{Report, Validator, json_equal};
use serde_json::Value;

/// One serde format: its name, how a `Value` is encoded in it, and how a typed value is read
/// from its bytes (through the type's hook) and written back to bytes.
struct Format {
    name: &'static str,
    encode: fn(&Value) -> Result<Vec<u8>, String>,
    read: fn(&'static typed::TypeEntry, &[u8]) -> Result<Transcoded, String>,
    write: fn(&Transcoded) -> Result<Vec<u8>, String>,
    decode: fn(&[u8]) -> Result<Value, String>,
}

thread_local! {
    /// The type [`ThroughEntry`] reads as.
    static ENTRY: std::cell::Cell<Option<&'static typed::TypeEntry>> = const { std::cell::Cell::new(None) };
}

/// A typed value read as the type of [`ENTRY`], for a format whose deserializer is private.
struct ThroughEntry(Transcoded);

impl<'de> serde::Deserialize<'de> for ThroughEntry {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let entry = ENTRY.get().ok_or_else(|| serde::de::Error::custom("no entry"))?;
        typed::transcode(entry, &mut <dyn erased_serde::Deserializer>::erase(deserializer))
            .map(ThroughEntry)
            .map_err(serde::de::Error::custom)
    }
}

fn text<E: std::fmt::Display>(err: E) -> String {
    err.to_string()
}

fn formats() -> Vec<Format> {
    vec![
        Format {
            name: "YAML",
            encode: |v| serde_norway::to_string(v).map(String::into_bytes).map_err(text),
            read: |entry, bytes| {
                let de = serde_norway::Deserializer::from_slice(bytes);
                typed::transcode(entry, &mut <dyn erased_serde::Deserializer>::erase(de)).map_err(text)
            },
            write: |t| serde_norway::to_string(t).map(String::into_bytes).map_err(text),
            decode: |b| serde_norway::from_slice(b).map_err(text),
        },
        Format {
            name: "CBOR",
            encode: |v| {
                let mut out = Vec::new();
                ciborium::into_writer(v, &mut out).map_err(text)?;
                Ok(out)
            },
            read: |entry, bytes| {
                // ciborium keeps its deserializer private: the entry goes in beside `from_reader`.
                ENTRY.set(Some(entry));
                ciborium::from_reader::<ThroughEntry, _>(bytes).map(|t| t.0).map_err(text)
            },
            write: |t| {
                let mut out = Vec::new();
                ciborium::into_writer(t, &mut out).map_err(text)?;
                Ok(out)
            },
            decode: |b| ciborium::from_reader(b).map_err(text),
        },
        Format {
            name: "MessagePack",
            encode: |v| rmp_serde::to_vec_named(v).map_err(text),
            read: |entry, bytes| {
                let mut de = rmp_serde::Deserializer::new(bytes);
                typed::transcode(entry, &mut <dyn erased_serde::Deserializer>::erase(&mut de)).map_err(text)
            },
            write: |t| rmp_serde::to_vec_named(t).map_err(text),
            decode: |b| rmp_serde::from_slice(b).map_err(text),
        },
        Format {
            name: "sonic-rs",
            encode: |v| sonic_rs::to_vec(v).map_err(text),
            read: |entry, bytes| {
                let mut de = sonic_rs::Deserializer::from_slice(bytes);
                typed::transcode(entry, &mut <dyn erased_serde::Deserializer>::erase(&mut de)).map_err(text)
            },
            write: |t| sonic_rs::to_vec(t).map_err(text),
            decode: |b| sonic_rs::from_slice(b).map_err(text),
        },
        Format {
            name: "serde_json::Value",
            encode: |v| serde_json::to_vec(v).map_err(text),
            read: |entry, bytes| {
                let value: Value = serde_json::from_slice(bytes).map_err(text)?;
                typed::transcode(entry, &mut <dyn erased_serde::Deserializer>::erase(value)).map_err(text)
            },
            write: |t| {
                let value = serde_json::to_value(t).map_err(text)?;
                serde_json::to_vec(&value).map_err(text)
            },
            decode: |b| serde_json::from_slice(b).map_err(text),
        },
    ]
}

/// What the gate says of a document: its verdict and its records' codes and places.
fn verdict(report: &Report) -> (bool, Vec<(String, Option<String>)>) {
    (report.is_valid(), report.records.iter().map(|r| (r.error_code.clone(), r.path.clone())).collect())
}

/// Whether serde_json's private token appears anywhere in `bytes`.
fn has_token(bytes: &[u8]) -> bool {
    bytes.windows(b"$serde_json".len()).any(|w| w == b"$serde_json")
}

#[test]
fn every_valid_fixture_round_trips_through_every_format() {
    let corpus = support::corpus();
    let formats = formats();
    let validator = Validator::new();
    let mut checked = 0;
    let mut failures = Vec::new();
    for set in support::fixture_sets(&corpus) {
        let entry = typed::find(&set.target.schema, &set.target.pointer()).expect("a generated type");
        let mut name = set.target.schema.trim_end_matches(".json").to_owned();
        if let Some(definition) = &set.target.definition {
            name = format!("{name}#/definitions/{definition}");
        }
        for fixture in &set.valid {
            let document = &fixture.document;
            let json = serde_json::to_vec(document).unwrap();
            let expected = verdict(&validator.validate_as(&name, &json));
            for format in &formats {
                let at = format!("{} via {}", fixture.path.display(), format.name);
                let encoded = (format.encode)(document).unwrap();
                let typed = match (format.read)(entry, &encoded) {
                    Ok(typed) => typed,
                    Err(err) => {
                        failures.push(format!("{at}: not read: {err}"));
                        continue;
                    }
                };
                let written = match (format.write)(&typed) {
                    Ok(written) => written,
                    Err(err) => {
                        failures.push(format!("{at}: not written: {err}"));
                        continue;
                    }
                };
                if has_token(&written) {
                    failures.push(format!("{at}: serde_json's private token written"));
                }
                match (format.decode)(&written) {
                    Ok(back) if json_equal(&back, document) => {}
                    Ok(back) => failures.push(format!("{at}: {back} is not {document}")),
                    Err(err) => failures.push(format!("{at}: written bytes not read: {err}")),
                }
                // The typed value written as JSON: the gate's verdict on the fixture.
                let as_json = serde_json::to_vec(&typed).unwrap();
                let got = verdict(&validator.validate_as(&name, &as_json));
                if got != expected {
                    failures.push(format!("{at}: verdict {got:?}, the fixture's {expected:?}"));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{} of {checked}:\n{}", failures.len(), failures.join("\n"));
    assert!(checked > 1000, "only {checked} round trips");
}

/// Seed 002 §5.3 (MIT-SAO-001, MIT-SAO-002) writes these configurations in YAML: they read as the
/// section types, an undeclared key included, and are written back with it.
#[test]
fn the_seed_yaml_configurations_keep_an_undeclared_key() {
    use jerry_contracts::infrastructure::{GeneratorCriticSection, ParallelExecutionSection};
    let generator_critic = "generator_critic:
  max_iterations: 3
  improvement_threshold: 0.10
  circuit_breaker:
    consecutive_failures: 2
    reset_timeout: 60000
    x-note: {owner: ops, weights: [1, 2.5]}
  x-team: colony
";
    let section: GeneratorCriticSection = serde_norway::from_str(generator_critic).unwrap();
    let config = section.generator_critic.as_ref().unwrap();
    assert_eq!(config.extra.get_str("x-team").as_deref(), Some("colony"));
    let written = serde_norway::to_string(&section).unwrap();
    assert!(!written.contains("serde_json"), "{written}");
    let again: Value = serde_norway::from_str(&written).unwrap();
    let original: Value = serde_norway::from_str(generator_critic).unwrap();
    assert!(json_equal(&again, &original), "{again} is not {original}");
    let report = Validator::new().validate_as(
        "infrastructure/generator_critic#/definitions/generator_critic_section",
        &serde_json::to_vec(&section).unwrap(),
    );
    assert!(report.is_valid(), "{report:?}");

    let parallel = r#"parallel_execution:
  isolation_mode: "full"        # copy-on-spawn
  shared_state: "none"          # no mutable sharing
  aggregation: "message_queue"  # immutable messages
  timeout_ms: 30000
  max_concurrent_agents: 5      # per TS-4 recommendation
  x-region: eu-west
"#;
    let section: ParallelExecutionSection = serde_norway::from_str(parallel).unwrap();
    let written = serde_norway::to_string(&section).unwrap();
    let again: Value = serde_norway::from_str(&written).unwrap();
    let original: Value = serde_norway::from_str(parallel).unwrap();
    assert!(json_equal(&again, &original), "{again} is not {original}");
    assert!(written.contains("x-region: eu-west"), "{written}");
}

/// Numbers whose JSON text serde_json keeps (`1` in a `number` field, `0.50`) are plain numbers in
/// every other format, and the JSON text is still kept through serde_json.
#[test]
fn kept_number_text_is_a_number_elsewhere() {
    use jerry_contracts::infrastructure::GeneratorCriticSection;
    let json =
        r#"{"generator_critic":{"max_iterations":3,"improvement_threshold":1,"quality_threshold":0.50,"x":1e2}}"#;
    let section: GeneratorCriticSection = serde_json::from_str(json).unwrap();
    let relayed = serde_json::to_string(&section).unwrap();
    for kept in [r#""improvement_threshold":1,"#, r#""quality_threshold":0.50"#, r#""x":1e2"#] {
        assert!(relayed.contains(kept), "{kept} not in {relayed}");
    }
    let yaml = serde_norway::to_string(&section).unwrap();
    assert!(!yaml.contains("serde_json"), "{yaml}");
    let back: Value = serde_norway::from_str(&yaml).unwrap();
    assert!(json_equal(&back, &serde_json::from_str(json).unwrap()), "{back}");
    let sonic = sonic_rs::to_string(&section).unwrap();
    assert!(
        Validator::new()
            .validate_as("infrastructure/generator_critic#/definitions/generator_critic_section", sonic.as_bytes())
            .is_valid()
    );
}

/// Values of another format that JSON cannot hold are refused with the reason, not changed.
#[test]
fn values_without_a_json_form_are_refused() {
    use jerry_contracts::infrastructure::GeneratorCriticSection;
    let cases = [
        ("generator_critic: {max_iterations: 3, x: .nan}", "has no JSON form"),
        ("generator_critic: {max_iterations: 3, x: {[1]: a}}", "member name"),
        ("generator_critic: {max_iterations: 3, x: !tag a}", "no JSON form"),
    ];
    for (yaml, expected) in cases {
        let err = serde_norway::from_str::<GeneratorCriticSection>(yaml).unwrap_err().to_string();
        assert!(err.contains(expected), "{yaml}: {err}");
    }
}

/// A typed handoff (`Handoff<P>`, its payload read as `P`) with undeclared members in the
/// envelope and the payload reads from YAML and CBOR and is written back with them.
#[test]
fn a_typed_handoff_reads_from_other_formats() {
    use jerry_contracts::agents::ps::ResearcherOutput;
    use jerry_contracts::envelope::Handoff;
    let path = support::root().join("tests/fixtures/session_context/v1.1.0/valid/payload_ps_researcher.json");
    let mut document: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    document["x-envelope"] = serde_json::json!({"n": 1.5, "list": [1, "two", null]});
    document["payload"]["x-payload"] = serde_json::json!(7);
    let yaml = serde_norway::to_string(&document).unwrap();
    let handoff: Handoff<ResearcherOutput> = serde_norway::from_str(&yaml).unwrap();
    assert_eq!(handoff.envelope.extra.get_value("x-envelope"), Some(document["x-envelope"].clone()));
    assert_eq!(handoff.payload.extra.get_value("x-payload"), Some(serde_json::json!(7)));
    let back: Value = serde_norway::from_str(&serde_norway::to_string(&handoff).unwrap()).unwrap();
    assert!(json_equal(&back, &document), "{back}");
    let mut cbor = Vec::new();
    ciborium::into_writer(&handoff, &mut cbor).unwrap();
    let again: Handoff<ResearcherOutput> = ciborium::from_reader(cbor.as_slice()).unwrap();
    assert_eq!(again, handoff);
    assert!(Validator::new().validate(&serde_json::to_vec(&again).unwrap()).is_valid());
}
