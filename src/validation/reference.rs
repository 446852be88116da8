//! The cross-reference layer (seed 000 §6.1, "ID existence checks"): what a document points at
//! outside itself.
//!
//! - REF-003 (P-002): every artifact path is repository-relative — the rules of
//!   `common/artifacts.json#/definitions/artifact_path` (D-15), which the seed's agent schemas do
//!   not apply to their `artifact_reference`.
//! - With [`Options::root`]: REF-001 when an artifact is not a file under the root, REF-004 when
//!   its SHA-256 differs from the reference's `checksum`. Files are streamed through the hasher,
//!   and a path that resolves (through a symbolic link) outside the root is never read.
//! - REF-002: requirement ids referenced but neither defined by the document nor among
//!   [`Options::known_requirements`]; only judged when some id is known.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::json;
use sha2::{Digest, Sha256};

use super::semantic::{ArtifactRef, Output, output};
use super::{Options, Report, Subject, codes, record, with_values};
use crate::IdRole;

/// Runs the cross-reference rules on a schema-valid document.
pub(crate) fn check(subject: &Subject, options: &Options, digests: &Digests, report: &mut Report) {
    let Some(output) = output(subject) else { return };
    artifacts(&output, options, digests, report);
    requirements(&output, options, report);
}

// ---------------------------------------------------------------------------------------------
// Artifacts
// ---------------------------------------------------------------------------------------------

/// Why `path` is not repository-relative, if it is not: it starts with `/`, holds a backslash or
/// a `:` (drive letters, URL schemes), or has an empty or `..` segment. A `.` segment is allowed,
/// as in the schema's pattern.
fn path_problem(path: &str) -> Option<&'static str> {
    // A few passes at memchr speed (a document may name many artifacts), each linear.
    let bytes = path.as_bytes();
    let backslash = memchr::memchr(b'\\', bytes).is_some();
    let colon = memchr::memchr(b':', bytes).is_some();
    let (mut empty, mut parent) = (false, false);
    let mut start = 0;
    for end in memchr::memchr_iter(b'/', bytes).chain(std::iter::once(bytes.len())) {
        let segment = &bytes[start..end];
        empty |= segment.is_empty();
        parent |= segment == b"..";
        start = end + 1;
    }
    if path.starts_with('/') {
        Some("starts with '/' (an absolute path)")
    } else if backslash {
        Some("contains a backslash (use forward slashes)")
    } else if colon {
        Some("contains ':' (a drive letter or URL scheme)")
    } else if empty {
        Some("has an empty segment")
    } else if parent {
        Some("has a '..' segment (leaves its directory)")
    } else {
        None
    }
}

/// The root, resolved once per document: `Err` says why it cannot be.
type Root = Result<PathBuf, String>;

/// REF-003 on every artifact path; REF-001 and REF-004 when a root is given.
fn artifacts(output: &Output<'_>, options: &Options, digests: &Digests, report: &mut Report) {
    let Some(list) = output.artifacts() else { return };
    let mut root: Option<Root> = None;
    for (i, artifact) in list.iter().enumerate() {
        let pointer = || output.at(&format!("/artifacts/{i}"));
        if let Some(problem) = path_problem(artifact.path) {
            let pointer = pointer();
            report.push(with_values(
                record(&codes::REF_ARTIFACT_PATH, &format!("{pointer}/path"), format!("{:?} {problem}", artifact.path)),
                Some(json!("a repository-relative path such as projects/PROJ-002/requirements/REQ-001.md")),
                Some(json!(artifact.path)),
            ));
            continue;
        }
        let Some(given) = &options.root else { continue };
        let root = root.get_or_insert_with(|| {
            given.canonicalize().map_err(|err| format!("the root {} cannot be resolved: {err}", given.display()))
        });
        on_disk(artifact, root, digests, &pointer(), report);
    }
}

/// REF-001 / REF-004 for one repository-relative artifact path.
fn on_disk(artifact: &ArtifactRef<'_>, root: &Root, digests: &Digests, pointer: &str, report: &mut Report) {
    let path = artifact.path;
    let missing = |report: &mut Report, why: String| {
        report.push(record(&codes::REF_ARTIFACT_MISSING, &format!("{pointer}/path"), format!("{path:?} {why}")));
    };
    let root = match root {
        Ok(root) => root,
        Err(why) => return missing(report, format!("cannot be looked up: {why}")),
    };
    let real = match root.join(path).canonicalize() {
        Ok(real) => real,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            return missing(report, format!("does not exist under {}", root.display()));
        }
        Err(err) => return missing(report, format!("cannot be resolved under {}: {err}", root.display())),
    };
    if !real.starts_with(root) {
        report.push(with_values(
            record(
                &codes::REF_ARTIFACT_PATH,
                &format!("{pointer}/path"),
                format!(
                    "{path:?} resolves to {} outside the root {} (a symbolic link)",
                    real.display(),
                    root.display()
                ),
            ),
            Some(json!(format!("a file under {}", root.display()))),
            Some(json!(real.display().to_string())),
        ));
        return;
    }
    if !real.is_file() {
        return missing(report, "is not a regular file".to_owned());
    }
    let Some(checksum) = artifact.checksum else { return };
    let computed = match digests.of(&real) {
        Ok(digest) => digest,
        Err(err) => return missing(report, format!("cannot be read: {err}")),
    };
    let matches = checksum.strip_prefix("sha256:").is_some_and(|hex| hex.eq_ignore_ascii_case(&computed));
    if !matches {
        report.push(with_values(
            record(
                &codes::REF_CHECKSUM,
                &format!("{pointer}/checksum"),
                format!("{path:?} has SHA-256 {computed}, but the reference says {checksum}"),
            ),
            Some(json!(checksum)),
            Some(json!(format!("sha256:{computed}"))),
        ));
    }
}

/// The SHA-256 digests of the artifacts a run has hashed, by resolved path: each file is read
/// and hashed at most once per run, however many documents (on however many threads) name it.
/// The run sees each artifact as it was when first hashed.
#[derive(Debug, Default)]
pub(crate) struct Digests {
    files: Mutex<HashMap<PathBuf, Arc<Once>>>,
}

/// One artifact's digest (lowercase hex) or why it could not be read, computed once.
type Once = OnceLock<Result<String, String>>;

impl Digests {
    /// The lowercase hex SHA-256 of the file at `real` (a canonical path), or why it cannot be
    /// read.
    fn of(&self, real: &Path) -> Result<String, String> {
        let cell = {
            // A panic elsewhere while the lock was held leaves the map as it was: still usable.
            let mut files = self.files.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            Arc::clone(files.entry(real.to_path_buf()).or_default())
        };
        cell.get_or_init(|| sha256(real).map_err(|err| err.to_string())).clone()
    }
}

/// The SHA-256 of a file's bytes in lowercase hex, read in bounded chunks.
fn sha256(path: &Path) -> io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    io::copy(&mut file, &mut hasher)?;
    let digest = hasher.finalize();
    let mut hex = String::with_capacity(digest.len() * 2);
    for byte in digest {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(hex)
}

// ---------------------------------------------------------------------------------------------
// Requirement ids
// ---------------------------------------------------------------------------------------------

/// REF-002: requirement ids the output refers to that are neither known to the run nor defined
/// by the document. Which fields define ids and which refer to them is generated agent knowledge
/// ([`crate::AgentOutput::requirement_ids`]): the `id` of a record in a list defines one (nse-requirements
/// `requirements[].id`); every other field of the requirement-id type refers to one (nse-risk
/// `traced_to_requirements`, nse-verification `verification_matrix.entries[].requirement_id` and
/// `test_cases[].verifies[]`, nse-architecture `system_elements[].allocated_requirements[]`, and
/// those of any agent added as a schema).
fn requirements(output: &Output<'_>, options: &Options, report: &mut Report) {
    let Some(agent) = output.agent() else { return };
    // The run's ids are consulted in place (never copied: a run may know many); the document's
    // own are few.
    let known = &options.known_requirements;
    let mut own: BTreeSet<&str> = BTreeSet::new();
    agent.requirement_ids(&mut |used| {
        if used.role == IdRole::Defines && !known.contains(used.id) {
            own.insert(used.id);
        }
    });
    let count = known.len() + own.len();
    if count == 0 {
        // Nothing to hold the references against (and no pointer worth building).
        return;
    }
    agent.requirement_ids(&mut |used| {
        if used.role == IdRole::References && !known.contains(used.id) && !own.contains(used.id) {
            let id = used.id;
            report.push(with_values(
                record(
                    &codes::REF_UNKNOWN_REQUIREMENT,
                    &output.at(&(used.pointer)()),
                    format!("requirement {id} is referenced but is not among the {count} known requirement ids"),
                ),
                None,
                Some(json!(id)),
            ));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::path_problem;
    use proptest::prelude::*;

    /// The rule as the seed states it, one check at a time (the definition the pass must match).
    fn stated(path: &str) -> Option<&'static str> {
        if path.starts_with('/') {
            Some("starts with '/' (an absolute path)")
        } else if path.contains('\\') {
            Some("contains a backslash (use forward slashes)")
        } else if path.contains(':') {
            Some("contains ':' (a drive letter or URL scheme)")
        } else if path.split('/').any(str::is_empty) {
            Some("has an empty segment")
        } else if path.split('/').any(|segment| segment == "..") {
            Some("has a '..' segment (leaves its directory)")
        } else {
            None
        }
    }

    #[test]
    fn each_problem_is_named() {
        for (path, problem) in [
            ("projects/PROJ-002/req.md", None),
            ("./a/./b.md", None),
            ("a/.../b", None),
            ("a/..b/c", None),
            ("", Some("has an empty segment")),
            ("a//b", Some("has an empty segment")),
            ("a/b/", Some("has an empty segment")),
            ("a/../b", Some("has a '..' segment (leaves its directory)")),
            ("..", Some("has a '..' segment (leaves its directory)")),
            ("/etc/passwd", Some("starts with '/' (an absolute path)")),
            ("a\\b", Some("contains a backslash (use forward slashes)")),
            ("C:/x", Some("contains ':' (a drive letter or URL scheme)")),
            ("a/..\\b", Some("contains a backslash (use forward slashes)")),
        ] {
            assert_eq!(path_problem(path), problem, "{path:?}");
        }
    }

    proptest! {
        #[test]
        fn the_one_pass_check_agrees_with_the_stated_rule(path in "[a./\\\\:é]{0,12}") {
            prop_assert_eq!(path_problem(&path), stated(&path));
        }
    }
}
