//! Target `root`: the artifact checks of `--root` (`validation::Options::root`) on a directory
//! tree built from the input, held to an oracle that resolves each path whole
//! (`std::fs::canonicalize`, the kernel's `realpath`) where the validator resolves it a
//! component at a time.
//!
//! The input is two control bytes, then a program of three-byte steps (up to 48):
//!
//! - control: the hashing limit (`max_artifact_bytes`: 0, 8, 64 bytes or the default), and
//!   whether the document is an agent output or an envelope's payload;
//! - steps: make a directory; write a file (one of four contents, 0 to 100 bytes); make a FIFO;
//!   make a link to a directory or file of the tree, to one outside it (a file beside the root,
//!   `/dev/null`, `/`), a dangling link, a link to itself or to `..`; add an artifact reference
//!   to the document: a path built from the tree's names (with `.`, `..`, doubled or trailing
//!   slashes sometimes), with the file's right checksum, a wrong one or none, and its right size,
//!   a wrong one or none.
//!
//! For each reference, the oracle says what must be reported: REF-003 when the path is not
//! repository-relative (left to `tests/rules.rs`: such paths are skipped here) or resolves
//! outside the root; REF-001 when nothing is there, it is not a regular file, or the file is
//! over the hashing limit (and a checksum is given); REF-005 when `size_bytes` differs; REF-004
//! when the checksum differs. The validator must report exactly those codes at that reference,
//! and must end (a FIFO or device is never opened).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use jerry_contracts::validation::{Options, Validator};
use serde_json::{Value, json};

use crate::Scratch;

/// Contents of the files a step writes.
const CONTENTS: [&[u8]; 4] = [b"", b"# Risk register\n", b"x", &[b'y'; 100]];

/// Names of the tree's entries.
const NAMES: [&str; 6] = ["a.md", "b.md", "sub", "deep", "link", "c"];

/// The SHA-256 of `bytes`, as an artifact reference writes it.
fn checksum(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let hex: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// One artifact reference and the codes the oracle expects for it.
struct Reference {
    value: Value,
    expected: BTreeSet<&'static str>,
}

/// Target `root`; see the module docs.
#[cfg(unix)]
pub fn root(data: &[u8]) {
    use std::os::unix::fs::symlink;
    let Some((control, program)) = data.split_first_chunk::<2>() else { return };
    let scratch = Scratch::new();
    let root = scratch.path.join("root");
    std::fs::create_dir(&root).expect("the root is made");
    let outside = scratch.path.join("outside.md");
    std::fs::write(&outside, b"secret").expect("the outside file is written");
    let root = root.canonicalize().expect("the root resolves");
    let limit: u64 = match control[0] % 4 {
        0 => 0,
        1 => 8,
        2 => 64,
        _ => Options::DEFAULT_MAX_ARTIFACT_BYTES as u64,
    };
    let mut dirs: Vec<PathBuf> = vec![PathBuf::new()];
    let mut steps = Vec::new();
    for (n, step) in program.chunks(3).take(48).enumerate() {
        let [kind, a, b] = [step[0], step.get(1).copied().unwrap_or(0), step.get(2).copied().unwrap_or(0)];
        let dir = dirs[usize::from(a) % dirs.len()].clone();
        let name = format!("{}{}", NAMES[usize::from(b) % NAMES.len()], n % 3);
        let at = root.join(&dir).join(&name);
        match kind % 8 {
            0 if dirs.len() < 10 && std::fs::create_dir(&at).is_ok() => dirs.push(dir.join(&name)),
            1 => {
                // Never through what is there already (writing into a FIFO would block).
                use std::io::Write as _;
                if let Ok(mut file) = std::fs::OpenOptions::new().write(true).create_new(true).open(&at) {
                    let _ = file.write_all(CONTENTS[usize::from(b) % CONTENTS.len()]);
                }
            }
            2 if std::fs::symlink_metadata(&at).is_err() => {
                let _ = std::process::Command::new("mkfifo").arg(&at).status();
            }
            3 => {
                let target = match b % 6 {
                    0 => outside.clone(),
                    1 => PathBuf::from("/dev/null"),
                    2 => PathBuf::from("/"),
                    3 => PathBuf::from(".."),
                    4 => at.clone(),
                    _ => PathBuf::from("nowhere.md"),
                };
                let _ = symlink(target, &at);
            }
            4 => {
                let target = root.join(&dirs[usize::from(b) % dirs.len()]);
                let _ = symlink(target, &at);
            }
            5 => {
                // A relative link to an entry of the tree, through `..` sometimes.
                let target =
                    if b % 2 == 0 { format!("../{name}") } else { NAMES[usize::from(b) % NAMES.len()].to_owned() };
                let _ = symlink(target, &at);
            }
            6 | 7 => steps.push(step.to_vec()),
            _ => {}
        }
    }
    // The oracle judges the tree as it is at the end, as the validator sees it.
    let references: Vec<Reference> = steps.iter().map(|step| reference(&root, &dirs, step, limit)).collect();
    let artifacts: Vec<Value> = references.iter().map(|r| r.value.clone()).collect();
    let mut output: Value = serde_json::from_str(crate::RISK_OUTPUT).expect("the template is JSON");
    output["artifacts"] = Value::Array(artifacts);
    let (document, base) = if control[1] % 2 == 0 {
        (output, "")
    } else {
        let envelope = json!({
            "schema_version": "1.1.0", "session_id": "sess-fuzz",
            "source_agent": {"id": "nse-risk", "family": "nse"},
            "target_agent": {"id": "orch-planner", "family": "orch"},
            "timestamp": "2026-01-10T14:30:00Z", "payload": output
        });
        (envelope, "/payload")
    };
    let options =
        Options::default().with_root(&root).with_max_artifact_bytes(usize::try_from(limit).unwrap_or(usize::MAX));
    let report = Validator::with_options(options).validate(&serde_json::to_vec(&document).expect("serialisable"));
    for (i, reference) in references.iter().enumerate() {
        let prefix = format!("{base}/artifacts/{i}/");
        let found: BTreeSet<&str> = report
            .records
            .iter()
            .filter(|r| r.path.as_deref().is_some_and(|p| p.starts_with(&prefix)) && r.error_code.starts_with("REF-"))
            .map(|r| r.error_code.as_str())
            .collect();
        assert_eq!(found, reference.expected, "artifact {i} {}: {report}", reference.value);
    }
}

/// Target `root` where there are no symbolic links or FIFOs: nothing to do.
#[cfg(not(unix))]
pub fn root(_data: &[u8]) {}

/// An artifact reference built from a step, and what the oracle expects of it.
fn reference(root: &Path, dirs: &[PathBuf], step: &[u8], limit: u64) -> Reference {
    let [_, a, b] = [step[0], step.get(1).copied().unwrap_or(0), step.get(2).copied().unwrap_or(0)];
    let dir = &dirs[usize::from(a) % dirs.len()];
    let name = format!("{}{}", NAMES[usize::from(b) % NAMES.len()], usize::from(a / 8) % 3);
    let mut path = dir.join(&name).to_string_lossy().into_owned();
    match b / 6 % 5 {
        1 => path = format!("./{path}"),
        2 => path = path.replacen('/', "/./", 1),
        3 => path = format!("sub0/../{path}"),
        _ => {}
    }
    let real = std::fs::canonicalize(root.join(&path));
    let file = real
        .as_ref()
        .ok()
        .filter(|r| r.starts_with(root))
        .and_then(|r| std::fs::metadata(r).ok().filter(std::fs::Metadata::is_file).map(|m| (r.clone(), m.len())));
    let content = file.as_ref().and_then(|(r, _)| std::fs::read(r).ok());
    let mut value = json!({"path": path, "type": "risk"});
    let mut expected = BTreeSet::new();
    // The oracle, in the validator's order.
    let convention = path.contains("/../") || path.contains("//");
    if convention {
        expected.insert("REF-007");
    }
    let sized = a % 3;
    let summed = b % 3;
    match (&real, &file) {
        (Err(_), _) => {
            expected.insert("REF-001");
        }
        (Ok(r), _) if !r.starts_with(root) => {
            expected.insert("REF-003");
        }
        (Ok(_), None) => {
            expected.insert("REF-001");
        }
        (Ok(_), Some((_, len))) => {
            let content = content.unwrap_or_default();
            match sized {
                1 => value["size_bytes"] = json!(len),
                2 => {
                    value["size_bytes"] = json!(len + 1);
                    expected.insert("REF-005");
                }
                _ => {}
            }
            match summed {
                1 => value["checksum"] = json!(checksum(&content)),
                2 => value["checksum"] = json!(checksum(b"something else")),
                _ => {}
            }
            if summed != 0 && *len > limit {
                expected.insert("REF-001");
            } else if summed == 2 {
                expected.insert("REF-004");
            }
        }
    }
    Reference { value, expected }
}
