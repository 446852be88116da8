//! The public surface of the library as `tests/public-api.txt` lists it: every public path
//! (items, the fields of public structs, the variants of public enums, the methods of inherent
//! impls; the trait impls' traits are not listed), read from rustdoc's JSON output. Shared by
//! `tests/artifacts.rs` (the list is fresh) and `tests/public_api.rs` (what it may hold).
//!
//! Items under `#[doc(hidden)]` (the runtime the generated code uses) are not part of the
//! surface; rustdoc leaves them out. rustdoc's JSON output is unstable: the listing asks for it
//! from the stable toolchain with `RUSTC_BOOTSTRAP=1` (the same switch cargo-public-api's users
//! set), and reads only the long-standing parts of the format (`index`, `root`, `name`,
//! `visibility`, `inner`).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| Path::new(ROOT).join("target"), PathBuf::from)
        .join("tests/public-api")
}

/// rustdoc's JSON description of the library.
fn rustdoc_json() -> Value {
    let target = target_dir();
    let output = Command::new(env!("CARGO"))
        .args(["rustdoc", "--quiet", "--offline", "--lib", "-p", "jerry-contracts", "--"])
        .args(["-Z", "unstable-options", "--output-format", "json"])
        .current_dir(ROOT)
        .env("CARGO_TARGET_DIR", &target)
        .env("RUSTC_BOOTSTRAP", "1")
        .env_remove("RUSTDOCFLAGS")
        .output()
        .unwrap_or_else(|e| panic!("cargo rustdoc: {e}"));
    assert!(output.status.success(), "cargo rustdoc failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let file = target.join("doc/jerry_contracts.json");
    let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The kind of an item (`struct`, `fn`, `module`, …): the one key of its `inner`.
fn kind(item: &Value) -> &str {
    item["inner"].as_object().and_then(|inner| inner.keys().next()).map_or("?", String::as_str)
}

struct Surface<'a> {
    index: &'a serde_json::Map<String, Value>,
    lines: BTreeSet<String>,
    /// Modules already listed (a module re-exported twice is walked once).
    seen: BTreeSet<String>,
}

impl Surface<'_> {
    fn item(&self, id: &Value) -> Option<&Value> {
        let key = match id {
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.clone(),
            _ => return None,
        };
        self.index.get(&key)
    }

    fn public(item: &Value) -> bool {
        item["visibility"] == "public"
    }

    /// Lists the module `module` (an index entry) at `path`.
    fn module(&mut self, path: &str, module: &Value) {
        let Some(items) = module["inner"]["module"]["items"].as_array() else { return };
        for id in items {
            let Some(item) = self.item(id).cloned() else { continue };
            if !Self::public(&item) {
                continue;
            }
            if kind(&item) == "use" {
                let used = &item["inner"]["use"];
                let name = used["name"].as_str().unwrap_or("?");
                let target = self.item(&used["id"]).cloned();
                if used["is_glob"] == true {
                    if let Some(target) = target.filter(|t| kind(t) == "module") {
                        self.module(path, &target);
                    }
                    continue;
                }
                match target {
                    Some(target) => self.named(&format!("{path}::{name}"), &target),
                    // An item of another crate re-exported (garde's `Validate`).
                    None => {
                        self.lines.insert(format!(
                            "{path}::{name} (re-export of {})",
                            used["source"].as_str().unwrap_or("?")
                        ));
                    }
                }
                continue;
            }
            let Some(name) = item["name"].as_str() else { continue };
            self.named(&format!("{path}::{name}"), &item);
        }
    }

    /// Lists `item` under the public path `path`, and what it holds.
    fn named(&mut self, path: &str, item: &Value) {
        let kind = kind(item).to_owned();
        self.lines.insert(format!("{path} ({kind})"));
        match kind.as_str() {
            "module" if self.seen.insert(path.to_owned()) => self.module(path, item),
            "struct" => {
                let fields = item["inner"]["struct"]["kind"]["plain"]["fields"].as_array().cloned().unwrap_or_default();
                for field in fields {
                    if let Some(field) = self.item(&field).filter(|f| Self::public(f))
                        && let Some(name) = field["name"].as_str()
                    {
                        self.lines.insert(format!("{path}.{name} (field)"));
                    }
                }
                self.impls(path, &item["inner"]["struct"]["impls"]);
            }
            "enum" => {
                for variant in item["inner"]["enum"]["variants"].as_array().cloned().unwrap_or_default() {
                    if let Some(name) = self.item(&variant).and_then(|v| v["name"].as_str()) {
                        self.lines.insert(format!("{path}::{name} (variant)"));
                    }
                }
                self.impls(path, &item["inner"]["enum"]["impls"]);
            }
            "trait" => {
                for member in item["inner"]["trait"]["items"].as_array().cloned().unwrap_or_default() {
                    if let Some(name) = self.item(&member).and_then(|m| m["name"].as_str()) {
                        self.lines.insert(format!("{path}::{name} (trait item)"));
                    }
                }
            }
            _ => {}
        }
    }

    /// The public methods and constants of the inherent impls in `impls`.
    fn impls(&mut self, path: &str, impls: &Value) {
        for id in impls.as_array().cloned().unwrap_or_default() {
            let Some(block) = self.item(&id).cloned() else { continue };
            let inner = &block["inner"]["impl"];
            if !inner["trait"].is_null() || inner["is_synthetic"] == true || inner["blanket_impl"].is_object() {
                continue;
            }
            for member in inner["items"].as_array().cloned().unwrap_or_default() {
                if let Some(member) = self.item(&member).filter(|m| Self::public(m))
                    && let Some(name) = member["name"].as_str()
                {
                    self.lines.insert(format!("{path}::{name} ({})", kind(member)));
                }
            }
        }
    }
}

/// The public surface, one line per path, sorted, as `tests/public-api.txt` holds it.
pub fn listed() -> String {
    let doc = rustdoc_json();
    let index = doc["index"].as_object().unwrap_or_else(|| panic!("rustdoc JSON has no index"));
    let mut surface = Surface { index, lines: BTreeSet::new(), seen: BTreeSet::new() };
    let root = surface.item(&doc["root"]).cloned().unwrap_or_else(|| panic!("rustdoc JSON has no root"));
    surface.module("jerry_contracts", &root);
    surface.lines.iter().map(|line| format!("{line}\n")).collect()
}
