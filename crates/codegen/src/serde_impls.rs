//! The serde pass: every generated struct with named fields derives
//! `jerry_contracts::__private::Object` (written once in `jerry-contracts-derive`) in place of
//! serde's `Deserialize`/`Serialize`: one pass over the object's members, declared members
//! straight into their fields, undeclared ones into the `extra` field as raw JSON text (serde's
//! `flatten` buffers the whole object first), a member named twice an error at that member. The
//! fields keep their `#[serde(…)]` attributes, which that derive and schemars' read. The `extra`
//! field gets the `garde` rule that it holds no declared member's name.

use quote::quote;
use syn::punctuated::Punctuated;
use syn::{Attribute, Fields, Item, Token};

use crate::attributes::{EXTRA_FIELD, Member, Members, attr};
use crate::corpus::Problem;
use crate::plan::Plan;

/// Applies the pass to every generated struct with named fields (each in `members`, the
/// attribute pass's table of which field holds which member).
pub fn apply(file: &mut syn::File, plan: &Plan, members: &Members) -> Result<(), Vec<Problem>> {
    let mut problems = Vec::new();
    for item in &mut file.items {
        let Item::Struct(item) = item else { continue };
        let Some(declared) = members.of(&item.ident.to_string()) else { continue };
        if let Err(message) = object(item, declared) {
            let (file, pointer) = plan
                .get(&item.ident.to_string())
                .map_or((String::new(), String::new()), |d| (d.file.clone(), d.pointer.clone()));
            problems.push(Problem::new(&file, &pointer, format!("serde pass: {message}")));
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

fn derive_paths(a: &Attribute) -> Option<Punctuated<syn::Path, Token![,]>> {
    a.path()
        .is_ident("derive")
        .then(|| a.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated).ok())
        .flatten()
}

fn object(item: &mut syn::ItemStruct, declared: &[Member]) -> Result<(), String> {
    // serde's derives out, the one-pass derive in.
    for a in &mut item.attrs {
        if let Some(paths) = derive_paths(a) {
            let kept: Vec<&syn::Path> = paths
                .iter()
                .filter(|p| p.segments.last().is_none_or(|s| s.ident != "Deserialize" && s.ident != "Serialize"))
                .collect();
            *a = attr(&quote!(#[derive(#(#kept),*)]).to_string());
        }
    }
    item.attrs
        .retain(|a| !(a.path().is_ident("derive") && matches!(&a.meta, syn::Meta::List(l) if l.tokens.is_empty())));
    item.attrs.push(attr("#[derive(::jerry_contracts::__private::Object)]"));
    // A struct-level serde attribute would be read by serde's derive only.
    if let Some(a) = item.attrs.iter().find(|a| a.path().is_ident("serde")) {
        return Err(format!("a struct-level serde attribute the one-pass derive does not carry: {}", quote!(#a)));
    }
    let Fields::Named(fields) = &mut item.fields else { return Err("not a struct with named fields".into()) };
    let names = declared.iter().map(|m| &m.json);
    let extra = fields
        .named
        .iter_mut()
        .find(|f| f.ident.as_ref().is_some_and(|i| i == EXTRA_FIELD))
        .ok_or("a struct without its extra field")?;
    // garde: the extra field may not hold a declared member's name.
    extra.attrs.retain(|a| !a.path().is_ident("garde"));
    let rule = quote!(#[garde(custom(::jerry_contracts::__private::undeclared(&[#(#names),*])))]);
    extra.attrs.push(attr(&rule.to_string()));
    Ok(())
}
