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
use std::io::{self, Read as _};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::json;

use super::agent_rules::{self, RuleLayer};
use super::artifact_file::{self, Opened, Refusal};
use super::output::{ArtifactRef, Output, output};
use super::{Options, Report, Subject, codes, record, with_values};
use crate::IdRole;

/// Runs the cross-reference rules on a schema-valid document.
pub(crate) fn check(subject: &Subject, options: &Options, digests: &Digests, report: &mut Report) {
    let Some(output) = output(subject) else { return };
    artifacts(&output, options, digests, report);
    requirements(&output, options, report);
    agent_rules::run(RuleLayer::Reference, &output, report);
}

// ---------------------------------------------------------------------------------------------
// Artifacts
// ---------------------------------------------------------------------------------------------

/// What is wrong with an artifact path, and whether the seeds state it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PathProblem {
    /// It breaks a MUST of the session-context guide (001:232-233: repository-relative, never
    /// absolute, never starting with `/`): REF-003, an error. A control character is one (D-131):
    /// no checkout holds such a name on every platform (001:234, "cross-platform").
    Stated(&'static str),
    /// It breaks the conventional form only (001:234 "SHOULD use forward slashes", D-15): REF-007,
    /// a warning, an error in strict mode.
    Convention(&'static str),
}

/// What is wrong with `path`, if anything. The seed's MUSTs first, as
/// `common/artifacts.json#/definitions/artifact_path` states them for the paths its pattern
/// checks: it starts with `/` or a backslash, a drive letter or URL scheme leads to a `:` at its
/// start, or it begins with a `..` segment; and it holds a control character (D-131). Then the
/// conventions: a backslash, any other `:`, an empty segment, a `..` elsewhere. A `.` segment is
/// allowed, as in the schema's pattern. Linear, at memchr speed for the common case.
fn path_problem(path: &str) -> Option<PathProblem> {
    let bytes = path.as_bytes();
    if bytes.first().is_some_and(|b| matches!(b, b'/' | b'\\')) {
        return Some(PathProblem::Stated("starts with '/' or '\\' (an absolute path)"));
    }
    // A scheme or drive letter: letters, then letters, digits, '+', '.' or '-', then ':'.
    let scheme = bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')))
            .is_some_and(|at| bytes.get(at) == Some(&b':'));
    if scheme {
        return Some(PathProblem::Stated("starts with a drive letter or URL scheme (an absolute path or a URL)"));
    }
    // C0 and DEL are single bytes; C1 (U+0080 to U+009F) is 0xC2 then 0x80 to 0x9F in UTF-8.
    let control = bytes.iter().any(|&b| b < 0x20 || b == 0x7F)
        || memchr::memchr_iter(0xC2, bytes).any(|at| bytes.get(at + 1).is_some_and(|b| (0x80..=0x9F).contains(b)));
    if control {
        return Some(PathProblem::Stated("holds a control character, which no portable file name has"));
    }
    if bytes == b".." || bytes.starts_with(b"../") || bytes.starts_with(b"..\\") {
        return Some(PathProblem::Stated("begins with a '..' segment (it leaves the repository)"));
    }
    let (mut empty, mut parent) = (false, false);
    let mut start = 0;
    for end in memchr::memchr_iter(b'/', bytes).chain(std::iter::once(bytes.len())) {
        let segment = bytes.get(start..end).unwrap_or_default();
        empty |= segment.is_empty();
        parent |= segment == b"..";
        start = end + 1;
    }
    if memchr::memchr(b'\\', bytes).is_some() {
        Some(PathProblem::Convention("contains a backslash (use forward slashes)"))
    } else if memchr::memchr(b':', bytes).is_some() {
        Some(PathProblem::Convention("contains ':'"))
    } else if empty {
        Some(PathProblem::Convention("has an empty segment"))
    } else if parent {
        Some(PathProblem::Convention("has a '..' segment"))
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
            let (code, what, stated) = match problem {
                PathProblem::Stated(what) => (&codes::REF_ARTIFACT_PATH, what, true),
                PathProblem::Convention(what) => (&codes::REF_ARTIFACT_PATH_FORM, what, false),
            };
            report.push(with_values(
                record(code, &format!("{}/path", pointer()), format!("{:?} {what}", artifact.path)),
                Some(json!("a repository-relative path such as projects/PROJ-002/requirements/REQ-001.md")),
                Some(json!(artifact.path)),
            ));
            if stated {
                continue;
            }
        }
        let Some(given) = &options.root else { continue };
        let root = root.get_or_insert_with(|| {
            given.canonicalize().map_err(|err| format!("the root {} cannot be resolved: {err}", given.display()))
        });
        on_disk(artifact, root, options, digests, &pointer(), report);
    }
}

/// REF-001 / REF-004 / REF-005 for one repository-relative artifact path: the file is opened
/// below the root a component at a time ([`super::artifact_file`]), its size (from the opened
/// handle) compared with `size_bytes` before anything is read, and it is hashed (once per run)
/// only when a checksum is given and it is within [`Options::max_artifact_bytes`]; a larger one
/// gets REF-001 saying it was not verified.
fn on_disk(
    artifact: &ArtifactRef<'_>,
    root: &Root,
    options: &Options,
    digests: &Digests,
    pointer: &str,
    report: &mut Report,
) {
    let path = artifact.path;
    let missing = |report: &mut Report, why: String| {
        report.push(record(&codes::REF_ARTIFACT_MISSING, &format!("{pointer}/path"), format!("{path:?} {why}")));
    };
    let root = match root {
        Ok(root) => root,
        Err(why) => return missing(report, format!("cannot be looked up: {why}")),
    };
    let opened = match artifact_file::open(root, path) {
        Ok(opened) => opened,
        Err(Refusal::Missing(why) | Refusal::Io(why)) => return missing(report, why),
        Err(Refusal::NotRegular(what)) => return missing(report, format!("is {what}, not a regular file; not read")),
        Err(Refusal::Outside(real)) => {
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
    };
    if let Some(size) = artifact.size
        && u64::try_from(size).ok() != Some(opened.len)
    {
        report.push(with_values(
            record(
                &codes::REF_SIZE,
                &format!("{pointer}/size_bytes"),
                format!("{path:?} is {} bytes, but the reference says {size}", opened.len),
            ),
            Some(json!(size)),
            Some(json!(opened.len)),
        ));
    }
    let Some(checksum) = artifact.checksum else { return };
    if opened.len > options.max_artifact_bytes {
        return missing(
            report,
            format!(
                "is {} bytes, over the limit of {} bytes for hashing (--max-artifact-bytes); its checksum was not verified",
                opened.len, options.max_artifact_bytes
            ),
        );
    }
    let computed = match digests.of(opened, options.max_artifact_bytes) {
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

/// The SHA-256 digests of the artifacts a run has hashed, by physical path: each file is read
/// and hashed at most once per run, however many documents (on however many threads) name it.
/// The run sees each artifact as it was when first hashed.
#[derive(Debug, Default)]
pub(crate) struct Digests {
    files: Mutex<HashMap<PathBuf, Arc<Once>>>,
}

/// One artifact's digest (lowercase hex) or why it could not be read, computed once.
type Once = OnceLock<Result<String, String>>;

impl Digests {
    /// The lowercase hex SHA-256 of the opened file (hashed unless its path was hashed before in
    /// this run), reading at most `limit` bytes of it, or why it cannot be read.
    fn of(&self, opened: Opened, limit: u64) -> Result<String, String> {
        let cell = {
            // A panic elsewhere while the lock was held leaves the map as it was: still usable.
            let mut files = self.files.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            Arc::clone(files.entry(opened.real).or_default())
        };
        let file = opened.file;
        cell.get_or_init(|| sha256(file, limit)).clone()
    }
}

/// The SHA-256 of a file's bytes in lowercase hex, read in bounded chunks, at most `limit` bytes
/// (a file that grows past it while read, or a `/proc` file that says it is empty, is refused).
fn sha256(file: File, limit: u64) -> Result<String, String> {
    let mut hasher = hmac_sha256::Hash::new();
    let mut reader = file.take(limit.saturating_add(1));
    let mut buffer = vec![0_u8; 64 * 1024];
    let mut read: u64 = 0;
    loop {
        let count = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(count) => count,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err.to_string()),
        };
        hasher.update(buffer.get(..count).unwrap_or_default());
        read = read.saturating_add(u64::try_from(count).unwrap_or(u64::MAX));
    }
    if read > limit {
        return Err(format!("it holds more than the limit of {limit} bytes for hashing (--max-artifact-bytes)"));
    }
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
    use super::{PathProblem, path_problem};
    use proptest::prelude::*;

    /// The rules one check at a time (the definition the one-pass check must match).
    fn stated(path: &str) -> Option<PathProblem> {
        use PathProblem::{Convention, Stated};
        let first = path.split(':').next().unwrap_or("");
        if path.starts_with('/') || path.starts_with('\\') {
            Some(Stated("starts with '/' or '\\' (an absolute path)"))
        } else if path.contains(':')
            && first.starts_with(|c: char| c.is_ascii_alphabetic())
            && first.chars().all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
        {
            Some(Stated("starts with a drive letter or URL scheme (an absolute path or a URL)"))
        } else if path.chars().any(char::is_control) {
            Some(Stated("holds a control character, which no portable file name has"))
        } else if path == ".." || path.starts_with("../") || path.starts_with("..\\") {
            Some(Stated("begins with a '..' segment (it leaves the repository)"))
        } else if path.contains('\\') {
            Some(Convention("contains a backslash (use forward slashes)"))
        } else if path.contains(':') {
            Some(Convention("contains ':'"))
        } else if path.split('/').any(str::is_empty) {
            Some(Convention("has an empty segment"))
        } else if path.split('/').any(|segment| segment == "..") {
            Some(Convention("has a '..' segment"))
        } else {
            None
        }
    }

    #[test]
    fn each_problem_is_named() {
        use PathProblem::{Convention, Stated};
        for (path, problem) in [
            ("projects/PROJ-002/req.md", None),
            ("./a/./b.md", None),
            ("a/.../b", None),
            ("a/..b/c", None),
            ("", Some(Convention("has an empty segment"))),
            ("a//b", Some(Convention("has an empty segment"))),
            ("a/b/", Some(Convention("has an empty segment"))),
            ("a/../b", Some(Convention("has a '..' segment"))),
            ("a/../../b", Some(Convention("has a '..' segment"))),
            ("..", Some(Stated("begins with a '..' segment (it leaves the repository)"))),
            ("../x", Some(Stated("begins with a '..' segment (it leaves the repository)"))),
            ("/etc/passwd", Some(Stated("starts with '/' or '\\' (an absolute path)"))),
            ("\\server\\share", Some(Stated("starts with '/' or '\\' (an absolute path)"))),
            ("a\\b", Some(Convention("contains a backslash (use forward slashes)"))),
            ("C:/x", Some(Stated("starts with a drive letter or URL scheme (an absolute path or a URL)"))),
            ("https://x/y", Some(Stated("starts with a drive letter or URL scheme (an absolute path or a URL)"))),
            ("notes/v1:2.md", Some(Convention("contains ':'"))),
            ("a/b\0c.md", Some(Stated("holds a control character, which no portable file name has"))),
            ("a/b\nc.md", Some(Stated("holds a control character, which no portable file name has"))),
            ("a/b\u{85}c.md", Some(Stated("holds a control character, which no portable file name has"))),
        ] {
            assert_eq!(path_problem(path), problem, "{path:?}");
        }
    }

    proptest! {
        #[test]
        fn the_one_pass_check_agrees_with_the_stated_rule(path in "[a./\\\\:é\\n+]{0,12}") {
            prop_assert_eq!(path_problem(&path), stated(&path));
        }
    }

    /// A file of several read buffers, hashed in chunks, has the digest of its whole bytes (the
    /// expected value from Python's hashlib); one byte past the limit is refused.
    #[test]
    fn a_file_is_hashed_across_chunks_within_its_limit() {
        #![allow(clippy::unwrap_used)]
        let bytes: Vec<u8> = (0..200_003_u32).map(|i| u8::try_from(i % 251).unwrap()).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("artifact.bin");
        std::fs::write(&path, &bytes).unwrap();
        let digest = super::sha256(std::fs::File::open(&path).unwrap(), 200_003).unwrap();
        assert_eq!(digest, "49cbf04ab31e40bccff20650404805fc4a1f508e56d891f406ec592a2176d2e4");
        let refused = super::sha256(std::fs::File::open(&path).unwrap(), 200_002).unwrap_err();
        assert!(refused.contains("more than the limit of 200002 bytes"), "{refused}");
    }
}
