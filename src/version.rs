//! A schema version (`MAJOR.MINOR.PATCH`) and why a version or a migration was refused: the
//! value types [`crate::versions`] works with, below the validator, which reads a document's
//! major version to refuse a breaking one.

/// The envelope versions this crate reads and writes.
pub const SUPPORTED: &[&str] = &["1.0.0", "1.1.0"];

/// The newest envelope version.
pub const LATEST: &str = "1.1.0";

/// A semantic version `major.minor.patch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Breaking changes.
    pub major: u64,
    /// Backward-compatible additions.
    pub minor: u64,
    /// Fixes and documentation.
    pub patch: u64,
}

impl std::str::FromStr for Version {
    type Err = VersionError;

    /// Semantic Versioning 2.0.0 (the `semver` crate's reading: no leading zeros, no sign), with
    /// neither a pre-release nor build metadata: the seeds' versions are `MAJOR.MINOR.PATCH`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let malformed = || VersionError::Malformed(text.to_owned());
        let parsed = semver::Version::parse(text).map_err(|_| malformed())?;
        if !parsed.pre.is_empty() || !parsed.build.is_empty() {
            return Err(malformed());
        }
        Ok(Version { major: parsed.major, minor: parsed.minor, patch: parsed.patch })
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// Why a version or a migration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VersionError {
    /// Not `major.minor.patch` with decimal numbers.
    #[error("{0:?} is not a semantic version major.minor.patch")]
    Malformed(String),
    /// A major version other than 1: a breaking change this crate cannot read.
    #[error(
        "version {0} is not 1.x: a major version change is breaking (seed 001), and this crate reads 1.0.x and 1.1.x"
    )]
    UnsupportedMajor(String),
    /// The document has no `schema_version`.
    #[error("the document has no schema_version")]
    Missing,
    /// Migration to this target is not defined.
    #[error(
        "cannot migrate to {0}: the only migration target is {LATEST} (1.0.x and 1.1.x documents are migrated to it)"
    )]
    UnknownTarget(String),
    /// The text is not one JSON document (or names a member twice).
    #[error("not JSON: {0}")]
    NotJson(String),
    /// The document is not a JSON object.
    #[error("the document is not a JSON object")]
    NotAnObject,
    /// Migrating would produce a document that the target schema rejects.
    #[error("the migrated document would not be a valid {target} envelope: {reasons}")]
    NotValidAfter {
        /// The target version.
        target: String,
        /// The schema records of the migrated document.
        reasons: String,
    },
}
