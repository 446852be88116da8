//! The public surface of the library is pinned in `tests/public-api.txt` (every public path,
//! listed from rustdoc's JSON by `tests/support/public_api.rs`; `tests/artifacts.rs` holds the
//! list fresh, and `JERRY_BLESS=1 cargo test --test artifacts` rewrites it after a deliberate
//! change). These tests check what the list may hold.

use std::fs;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Nothing the issue names as internal is public: the generated module, the runtime of the
/// generated code, test hooks, the helper of nested messages.
#[test]
fn internals_are_not_public() {
    let pinned = fs::read_to_string(Path::new(ROOT).join("tests/public-api.txt")).unwrap_or_default();
    for internal in [
        "jerry_contracts::support ",
        "jerry_contracts::generated ",
        "jerry_contracts::__private",
        "jerry_contracts::typed::nested ",
        "jerry_contracts::typed::TypeEntry",
        "jerry_contracts::typed::Violation",
        "jerry_contracts::typed::entries ",
        "jerry_contracts::typed::find ",
        "jerry_contracts::skim ",
        "jerry_contracts::read ",
        "jerry_contracts::poke ",
        "jerry_contracts::pointer",
        "jerry_contracts::Validate::validate_into",
    ] {
        assert!(!pinned.lines().any(|line| line.starts_with(internal)), "{} is public", internal.trim());
    }
    assert!(pinned.lines().count() > 100, "the pinned surface lists the library");
}

/// One name per concept (issue 27): no two public items of the modules a user glob-imports carry
/// the same last path segment, so `use jerry_contracts::{agents::ps::*, agents::nse::*}` or
/// `use jerry_contracts::{*, envelope::*, session_context::v1_1::*}` never collide. Two
/// exceptions, each one concept under two paths: the sibling envelope versions
/// (`session_context::v1_0::Payload` and `v1_1::Payload`, the same concept at two versions), and
/// `common::Uuid`, a type alias of `formats::Uuid`. Methods, fields, variants and trait items
/// are named inside their type and are not counted.
#[test]
fn every_public_name_names_one_concept() {
    let pinned = fs::read_to_string(Path::new(ROOT).join("tests/public-api.txt")).unwrap_or_default();
    let mut by_name: std::collections::BTreeMap<&str, Vec<&str>> = std::collections::BTreeMap::new();
    for line in pinned.lines() {
        let Some((path, kind)) = line.split_once(" (") else { continue };
        let counted = kind.starts_with("re-export")
            || ["struct)", "enum)", "trait)", "type_alias)", "constant)", "static)", "function)", "macro)"]
                .contains(&kind);
        let segments: Vec<&str> = path.split("::").collect();
        // A method or associated item sits under a type (a segment with a capital).
        let inside_type = segments.len() > 2 && segments[segments.len() - 2].starts_with(char::is_uppercase);
        if !counted || inside_type || path.contains('.') {
            continue;
        }
        let module = &path[..path.len() - segments[segments.len() - 1].len()];
        by_name.entry(segments[segments.len() - 1]).or_default().push(module);
    }
    let version = |module: &str| module.starts_with("jerry_contracts::session_context::v");
    let alias = |name: &str, modules: &[&str]| {
        name == "Uuid" && modules == ["jerry_contracts::common::", "jerry_contracts::formats::"]
    };
    let repeated: Vec<String> = by_name
        .iter()
        .filter(|(name, modules)| modules.len() > 1 && !modules.iter().all(|m| version(m)) && !alias(name, modules))
        .map(|(name, modules)| format!("{name}: {}", modules.join(", ")))
        .collect();
    assert!(repeated.is_empty(), "public names used in more than one module:\n{}", repeated.join("\n"));
}
