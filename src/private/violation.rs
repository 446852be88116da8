//! A violation found by a typed read or check (`Violation`), the place it names as a JSON
//! Pointer (`pointer_of` a serde_path_to_error path), and the message format of a violation
//! inside a value a type reads itself (`nested`).

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

/// The message a type that deserialises its own content gives serde for an inner violation,
/// so that [`super::catalogue::read_value`] can restore the full pointer.
pub fn nested(violation: &Violation) -> String {
    if violation.pointer.is_empty() {
        violation.message.clone()
    } else {
        format!("{NESTED_PREFIX}{}{NESTED_SUFFIX}{}", violation.pointer, violation.message)
    }
}

/// How a nested violation's message begins and where its place ends (`at /a/b: message`).
pub const NESTED_PREFIX: &str = "at ";
/// See [`NESTED_PREFIX`].
pub const NESTED_SUFFIX: &str = ": ";

/// A serde_path_to_error path as a JSON Pointer. Where the missing thing is a field, serde
/// reports the path of the object that lacks it, which is the pointer JSON Schema uses too.
pub fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            // A number reads its source text through serde_json's raw-value map.
            Segment::Map { key } if key == super::raw::RAW_TOKEN => {}
            Segment::Map { key } => {
                jerry_contracts_pointer::push(&mut pointer, key);
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    pointer
}
