//! What every generated type knows of its schema ([`Contract`]). The check of a typed value,
//! [`crate::Validate`], is the validator's (`validation/typed_value.rs`).

/// A generated contract type: the schema it is generated from. Implemented by the generator for
/// every type in the crate (a root, a definition, a named inline schema); not meant to be
/// implemented by hand.
pub trait Contract: serde::Serialize + serde::de::DeserializeOwned {
    /// The schema file's registry name (`agents/ps/researcher_output`; see
    /// [`crate::registry::lookup`]).
    const SCHEMA: &'static str;
    /// The JSON Pointer of this type's schema inside that file: `""` for the file's root,
    /// `/definitions/finding` for a definition.
    const POINTER: &'static str;

    /// The type's own constraint check (patterns, ranges, lengths, counts, constants): the place
    /// and message of each violation, none when the value keeps them all. Generated; use
    /// [`crate::Validate::validate`].
    #[doc(hidden)]
    fn constraint_violations(&self) -> Vec<(String, String)>;

    /// Whether the type's read meets every member of its input (an undeclared one is kept, never
    /// skipped), so that [`crate::typed::from_slice`] may leave the nesting of a document to the
    /// reader and judge it only where the read captured an array or object as text. The
    /// generated types say yes; `false` (the default) judges the whole input first.
    #[doc(hidden)]
    const READS_EVERY_MEMBER: bool = false;
}
