//! The derives of the types jerry-contracts generates from its schemas. The generator writes
//! declarations with attributes; the logic those declarations need is written once, here:
//! - [`Object`]: `Deserialize` and `Serialize` in one pass over an object's members, keeping
//!   undeclared members exactly and refusing a member named twice;
//! - [`Skim`]: the check-only read of the validator's fast path;
//! - [`Poke`]: the soundness property's test hook (under the library's `testing` feature).
//!
//! They are an implementation detail of `jerry-contracts` (re-exported under its hidden
//! `__private` module), not an API of their own: their expansions name the library's runtime.

use proc_macro::TokenStream;
use syn::DeriveInput;

mod attrs;
mod object;
mod poke;
mod skim;

fn derive(input: TokenStream, expand: fn(&DeriveInput) -> syn::Result<proc_macro2::TokenStream>) -> TokenStream {
    match syn::parse::<DeriveInput>(input) {
        Ok(item) => expand(&item).unwrap_or_else(|err| attrs::error(&item, err)).into(),
        Err(err) => err.to_compile_error().into(),
    }
}

/// `Deserialize` and `Serialize` of a generated struct with an `extra` field for undeclared
/// members (`#[serde(flatten)]`).
#[proc_macro_derive(Object, attributes(serde))]
pub fn object(input: TokenStream) -> TokenStream {
    derive(input, object::expand)
}

/// The skim (and, for a type with `#[skim(keep)]` fields, the kept view) of a generated type.
#[proc_macro_derive(Skim, attributes(serde, garde, skim))]
pub fn skim(input: TokenStream) -> TokenStream {
    derive(input, skim::expand)
}

/// The soundness property's `Poke` of a generated type.
#[proc_macro_derive(Poke, attributes(serde))]
pub fn poke(input: TokenStream) -> TokenStream {
    derive(input, poke::expand)
}
