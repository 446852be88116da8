//! The schema documentation under `docs/schemas/` is generated from `schemas/`, the valid fixtures
//! and the cross-pollination matrix, and committed (`tests/artifacts.rs` holds it fresh). These
//! tests check that it is complete, that its links resolve, and that the handoff graph has
//! exactly the edges the schemas imply.
//!
//! To refresh the committed pages: `cargo run -p jerry-contracts-cli -- docs`
//! (or `JERRY_BLESS=1 cargo test --test artifacts`, which refreshes every generated artifact).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use std::collections::BTreeSet;
use std::path::{Component, Path};

use serde_json::Value;
use support::docs::{files, pages};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_schema_file_has_a_page() {
    let schemas = files(&root().join("schemas"), "json");
    assert!(schemas.len() >= 48, "expected the whole corpus, found {} schema files", schemas.len());
    for schema in &schemas {
        let page = format!("{}.md", schema.trim_end_matches(".json"));
        let text = pages().get(&page).unwrap_or_else(|| panic!("no page {page} for schemas/{schema}"));
        assert!(text.contains(&format!("https://jerry.dev/schemas/{schema}")), "{page} does not give the $id");
    }
    assert_eq!(pages().len(), schemas.len() + 1, "one page per schema file plus the index");
    assert!(pages().contains_key("README.md"));
}

#[test]
fn pages_name_their_rust_type_and_link_their_references() {
    let page = &pages()["agents/ps/researcher_output.md"];
    assert!(page.contains("`jerry_contracts::agents::ps::ResearcherOutput`"), "{page}");
    assert!(page.contains("[ConfidenceScore](../../common/types.md#confidence_score)"), "{page}");
    assert!(page.contains("[FindingId](../../common/findings.md#finding_id)"), "{page}");
    assert!(pages()["common/findings.md"].contains("pattern `^F-[0-9]{3}$`"));
    assert!(page.contains("```json"), "the fixtures are shown as examples");
    let types = &pages()["common/types.md"];
    assert!(types.contains(r#"<a id="confidence_score"></a>"#));
    assert!(types.contains("`jerry_contracts::common::ConfidenceScore`"));
    let envelope = &pages()["session_context/v1.1.0.md"];
    assert!(envelope.contains("- **Version:** `1.1.0`"));
}

/// `(target, anchor)` of every relative link outside fenced code blocks.
fn relative_links(text: &str) -> Vec<(String, Option<String>)> {
    let mut links = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let Some(end) = after.find(')') else { break };
            let target = &after[..end];
            rest = &after[end..];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            match target.split_once('#') {
                Some((path, anchor)) => links.push((path.to_owned(), Some(anchor.to_owned()))),
                None => links.push((target.to_owned(), None)),
            }
        }
    }
    links
}

/// `target` relative to the directory of `page`, normalised; `None` when it climbs out.
fn resolve(page: &str, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some(page.to_owned());
    }
    let mut parts: Vec<String> = page.split('/').map(str::to_owned).collect();
    parts.pop();
    for component in Path::new(target).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

#[test]
fn every_relative_link_resolves_to_a_page_and_anchor() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for (page, text) in pages() {
        for (target, anchor) in relative_links(text) {
            checked += 1;
            // A link out of the reference, to a page of docs/ beside it (docs/constraints.md).
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
            let on_disk = docs.join("schemas").join(page).parent().map(|dir| dir.join(&target));
            if resolve(page, &target).is_none()
                && let Some(file) = on_disk.and_then(|f| f.canonicalize().ok())
                && file.starts_with(docs.canonicalize().unwrap())
                && file.is_file()
            {
                continue;
            }
            let Some(resolved) = resolve(page, &target).filter(|p| pages().contains_key(p)) else {
                broken.push(format!("{page}: ({target}) is no page"));
                continue;
            };
            if let Some(anchor) = anchor
                && !pages()[&resolved].contains(&format!("<a id=\"{anchor}\"></a>"))
            {
                broken.push(format!("{page}: ({target}#{anchor}) has no such anchor in {resolved}"));
            }
        }
    }
    assert!(checked > 100, "expected many links, found {checked}");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

fn is_node_id(id: &str) -> bool {
    !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[test]
fn the_handoff_graph_has_one_edge_per_hint_and_matrix_row() {
    // What the schemas and the matrix imply, read independently of the renderer.
    let mut expected = 0;
    for schema in files(&root().join("schemas"), "json") {
        let text = std::fs::read_to_string(root().join("schemas").join(&schema)).unwrap();
        let document: Value = serde_json::from_str(&text).unwrap();
        if document.pointer("/properties/agent_id/const").is_none() {
            continue;
        }
        let hints = document.pointer("/properties/next_agent_hint/enum").and_then(Value::as_array);
        expected += hints.into_iter().flatten().filter(|v| v.is_string()).count();
    }
    let matrix_text = std::fs::read_to_string(root().join("data/cross_pollination_matrix.json")).unwrap();
    let matrix: Value = serde_json::from_str(&matrix_text).unwrap();
    let rows = matrix.as_array().unwrap();
    expected += rows.len();
    assert!(expected > rows.len(), "the agent schemas name next agents");

    let index = &pages()["README.md"];
    let block: Vec<&str> = index
        .lines()
        .skip_while(|l| *l != "```mermaid")
        .skip(1)
        .take_while(|l| *l != "```")
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(block.first(), Some(&"flowchart LR"), "{index}");
    let edges: Vec<&str> = block.iter().copied().filter(|l| l.contains("-->")).collect();
    assert_eq!(edges.len(), expected, "one edge per non-null next_agent_hint value and per matrix row");
    let labelled = edges.iter().filter(|l| l.contains(" -- \"")).count();
    assert_eq!(labelled, rows.len(), "every matrix row is a labelled edge");
    assert!(index.contains("ps_researcher -- \"findings → stakeholder_needs\" --> nse_requirements"), "{index}");

    let mut declared = BTreeSet::new();
    for line in &block[1..] {
        if let Some((source, rest)) = line.split_once(" -- \"").or_else(|| line.split_once(" -->")) {
            let target = rest.rsplit("--> ").next().unwrap();
            for id in [source.trim(), target.trim()] {
                assert!(is_node_id(id), "node id {id:?} in {line:?} is not [A-Za-z0-9_]+");
                assert!(declared.contains(id), "{id} is used before it is declared");
            }
        } else {
            let (id, label) = line.split_once('[').unwrap_or_else(|| panic!("unexpected line {line:?}"));
            assert!(is_node_id(id), "node id {id:?} is not [A-Za-z0-9_]+");
            assert!(label.starts_with('"') && label.ends_with("\"]"), "{line:?}");
            declared.insert(id);
        }
    }
    assert!(declared.contains("ps_researcher") && declared.contains("nse_requirements"));
    assert!(!index.contains("--> null"), "null hints are skipped");
}
