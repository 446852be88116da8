//! Runtime items that only the generated code names: `garde` custom rules ([`uri`],
//! [`uri_reference`], [`finite`], [`unique_items`]), the serde `with` module [`double_option`] and,
//! under the `schemars` feature, the transforms that put keywords back into derived schemas.
//! Hidden from the documentation and not part of the API: they may change with the generator.
//! (The items a caller meets in the generated types are public elsewhere:
//! [`crate::constant::True`], [`crate::pattern::EcmaPattern`], [`crate::pointer`].)

pub mod double_option;
mod rules;
#[cfg(feature = "schemars")]
mod transforms;
mod uri;

pub use rules::{FiniteValue, UniqueItems, finite, unique_items};
#[cfg(feature = "schemars")]
pub use transforms::{extend_format_uri, extend_format_uri_reference, nullable, unique};
pub use uri::{UriReferenceValue, has_scheme, uri, uri_reference};
