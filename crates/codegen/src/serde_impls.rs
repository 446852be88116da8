//! The serde pass: every generated struct with named fields derives
//! `jerry_contracts::__private::Object` (written once in `jerry-contracts-derive`), its
//! `Deserialize` and `Serialize`: one pass over the object's members, declared members
//! straight into their fields, undeclared ones into the `extra` field as raw JSON text (serde's
//! `flatten` buffers the whole object first), a member named twice an error at that member. The
//! fields keep their `#[serde(…)]` attributes, which that derive and schemars' read. (The
//! declarations derive none of serde's for these structs, and the attribute pass gives `extra`
//! the `garde` rule that it holds no declared member's name.)

use syn::Item;

use crate::attributes::{Members, attr};

/// Applies the pass to every generated struct with named fields (each in `members`, the
/// attribute pass's table of which field holds which member).
pub fn apply(file: &mut syn::File, members: &Members) {
    for item in &mut file.items {
        let Item::Struct(item) = item else { continue };
        if members.of(&item.ident.to_string()).is_some() {
            item.attrs.push(attr("#[derive(::jerry_contracts::__private::Object)]"));
        }
    }
}
