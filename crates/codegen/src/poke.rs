//! Test support: every generated struct and enum derives `jerry_contracts::__private::Poke`
//! (written once in `jerry-contracts-derive`) under the `testing` feature. It walks a value's
//! fields in order so that the soundness property can change one place the way only Rust code
//! can (a non-finite float, an `extra` member named like a field).

use syn::Item;

use crate::attributes::attr;

/// Adds the derive to the generated items (structs, newtypes and typify's enums).
pub fn apply(file: &mut syn::File) {
    let derive = attr("#[cfg_attr(feature = \"testing\", derive(::jerry_contracts::__private::Poke))]");
    for item in &mut file.items {
        match item {
            Item::Struct(item) => item.attrs.push(derive.clone()),
            Item::Enum(item) => item.attrs.push(derive.clone()),
            _ => {}
        }
    }
}
