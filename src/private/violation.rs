//! A violation found by a typed read or check (`Violation`): what is wrong, where (a JSON
//! Pointer), and which step found it.

/// Which step of the typed check found a violation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The value does not have the type's shape (a missing field, a wrong type, an unknown enum
    /// value, a malformed date): serde's error.
    Shape,
    /// A constraint the type's garde rules check (pattern, range, length, count, uniqueness).
    Constraint,
}

/// One violation found by a typed check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON Pointer of the offending value (for a missing field, of the object lacking it).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// The step that found it.
    pub stage: Stage,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}
