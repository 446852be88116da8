//! The string enums' reads and conversions, one call of the runtime's `__string_enum!` an enum,
//! and the check that typify can name every enum's variants.
//!
//! - `FromStr`, `TryFrom<&str>`/`<String>` and `Display`: a failed conversion is the
//!   `jerry_contracts::InvalidValue` the checked newtypes give, naming the type, the value and
//!   the allowed values (`ResearcherFindingCategory cannot be "bogus": it must be one of
//!   "insight", "pattern", …`), where typify's says "invalid value".
//! - `Deserialize`: a read of a string (`deserialize_str`) matched against the allowed values.
//!   serde's derived one for a unit-variant enum asks for an enum, which serde_json also reads
//!   from an object (`{"insight": null}`), a value the schema's string enum refuses; it is also
//!   fewer steps for every format.

use quote::quote;
use syn::{Fields, Item};

use crate::corpus::Problem;
use crate::declarations::Declared;
use crate::plan::Plan;

/// Refuses, naming the schema file and pointer, a string enum whose values typify cannot give
/// distinct variant names: typify panics on one ("Failed to make unique variant names"), for
/// example `["foo\nbar", "foo\rbar"]`, whose values differ only in characters an identifier
/// cannot hold. typify names a variant by its value in Pascal case, with each character an identifier
/// cannot hold turned into a word break, then, when two names meet, with each such character
/// (and `_`) turned into `X`; this is that naming (typify-impl 0.8's `sanitize`, which the exact
/// typify pin keeps in step).
pub fn check_variant_names(plan: &Plan) -> Result<(), Vec<Problem>> {
    let mut problems = Vec::new();
    for def in &plan.types {
        let mut pointer = def.pointer.clone();
        string_enums(&def.lowered, &mut pointer, &mut |values, at| {
            let distinct = |names: Vec<String>| {
                let mut sorted = names;
                sorted.sort();
                sorted.windows(2).all(|pair| pair[0] != pair[1])
            };
            let plain = values.iter().map(|value| variant_name(value)).collect();
            let marked = values
                .iter()
                .map(|value| variant_name(&value.replace(|c| c == '_' || !unicode_ident::is_xid_continue(c), "X")))
                .collect();
            if !distinct(plain) && !distinct(marked) {
                problems.push(Problem::new(
                    &def.file,
                    at,
                    format!(
                        "enum values {values:?} cannot be told apart as Rust variant names (they differ only in \
                         characters a name cannot hold)"
                    ),
                ));
            }
        });
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// typify's variant name for a string value.
fn variant_name(value: &str) -> String {
    use heck::ToPascalCase;
    let name = match value {
        "+1" => "plus1".to_pascal_case(),
        "-1" => "minus1".to_pascal_case(),
        _ => value.replace('\'', "").replace(|c| !unicode_ident::is_xid_continue(c), "-").to_pascal_case(),
    };
    match name.chars().next() {
        Some(c) if unicode_ident::is_xid_start(c) => name,
        _ => format!("X{name}"),
    }
}

/// Calls `found` with the values and pointer of every `enum` of strings in `schema` and in
/// every value inside it, `pointer` being where `schema` is.
fn string_enums(schema: &serde_json::Value, pointer: &mut String, found: &mut impl FnMut(&[String], &str)) {
    match schema {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                let length = pointer.len();
                jerry_contracts_pointer::push(pointer, key);
                if key == crate::model::Keyword::Enum.as_str()
                    && let Some(items) = value.as_array()
                    && let Some(values) =
                        items.iter().map(|v| v.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>()
                {
                    found(&values, pointer);
                } else {
                    // Everything else, values of `default` or `examples` too: a property may be
                    // named like a keyword, and a false alarm is a loud error, never a panic.
                    string_enums(value, pointer, found);
                }
                pointer.truncate(length);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let length = pointer.len();
                jerry_contracts_pointer::push(pointer, &i.to_string());
                string_enums(item, pointer, found);
                pointer.truncate(length);
            }
        }
        _ => {}
    }
}

/// Applies the pass to the generated items.
pub fn apply(file: &mut syn::File, plan: &Plan, declared: &Declared) {
    string_reads(file, plan, declared);
}

/// Gives every enum (an enum of strings, whose variants are all units) one call of the
/// runtime's `__string_enum!`: its `Deserialize` (a read of a string) and its conversions from
/// and to text, whose error names the public type and the allowed values. The declarations
/// derive neither `Deserialize` nor conversions for these enums.
fn string_reads(file: &mut syn::File, plan: &Plan, declared: &Declared) {
    let mut calls: Vec<syn::ItemMacro> = Vec::new();
    for item in &mut file.items {
        let Item::Enum(item) = item else { continue };
        if item.variants.is_empty() || !item.variants.iter().all(|v| matches!(v.fields, Fields::Unit)) {
            continue;
        }
        let ident = &item.ident;
        let public = plan.get(&ident.to_string()).map_or_else(|| ident.to_string(), |def| def.public.clone());
        let flat = ident.to_string();
        let variants = item.variants.iter().map(|variant| {
            let variant_ident = &variant.ident;
            let shown = variant_ident.to_string();
            let name = declared.value(&flat, &shown).map_or(shown.clone(), str::to_owned);
            quote!(#variant_ident = #name)
        });
        // Display, FromStr, TryFrom and Deserialize: the runtime's macro (src/private/impls.rs).
        calls.push(syn::parse_quote! {
            ::jerry_contracts::__string_enum!(#ident, #public, [#(#variants),*]);
        });
    }
    file.items.extend(calls.into_iter().map(Item::Macro));
}
