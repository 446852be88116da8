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

use crate::attributes::attr;
use crate::corpus::Problem;
use crate::plan::Plan;

/// Applies the pass to every generated struct with named fields that derives serde.
pub fn apply(file: &mut syn::File, plan: &Plan) -> Result<(), Vec<Problem>> {
    let mut problems = Vec::new();
    for item in &mut file.items {
        let Item::Struct(item) = item else { continue };
        let Fields::Named(_) = &item.fields else { continue };
        if !derives_serde(&item.attrs) {
            continue;
        }
        if let Err(message) = object(item) {
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

fn derives_serde(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .filter_map(derive_paths)
        .any(|paths| paths.iter().any(|p| p.segments.last().is_some_and(|s| s.ident == "Deserialize")))
}

fn object(item: &mut syn::ItemStruct) -> Result<(), String> {
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
    let mut declared = Vec::new();
    let mut extra = None;
    for field in &fields.named {
        let ident = field.ident.as_ref().ok_or("a field without a name")?;
        let (rename, flatten) = serde_name(&field.attrs)?;
        if flatten {
            if ident != "extra" {
                return Err(format!("flattened field {ident} is not the extra field"));
            }
            extra = Some(ident.clone());
        } else {
            declared.push(rename.unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_owned()));
        }
    }
    let extra = extra.ok_or("a struct without its extra field")?;
    // garde: the extra field may not hold a declared member's name.
    for field in fields.named.iter_mut().filter(|f| f.ident.as_ref().is_some_and(|i| *i == extra)) {
        field.attrs.retain(|a| !a.path().is_ident("garde"));
        let rule = quote!(#[garde(custom(::jerry_contracts::__private::undeclared(&[#(#declared),*])))]);
        field.attrs.push(attr(&rule.to_string()));
    }
    Ok(())
}

/// The member a field holds: its serde `rename`, or its name (`None` for the flattened `extra`).
pub(crate) fn member_name(field: &syn::Field) -> Option<String> {
    match serde_name(&field.attrs) {
        Ok((_, true)) | Err(_) => None,
        Ok((rename, false)) => {
            let ident = field.ident.as_ref()?.to_string();
            Some(rename.unwrap_or_else(|| ident.trim_start_matches("r#").to_owned()))
        }
    }
}

/// A field's serde `rename`, and whether it is `flatten`.
pub(crate) fn serde_name(attrs: &[Attribute]) -> Result<(Option<String>, bool), String> {
    let (mut rename, mut flatten) = (None, false);
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        a.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                rename = Some(meta.value()?.parse::<syn::LitStr>()?.value());
            } else if meta.path.is_ident("flatten") {
                flatten = true;
            } else if meta.input.peek(Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            }
            Ok(())
        })
        .map_err(|e| format!("serde attribute {}: {e}", quote!(#a)))?;
    }
    Ok((rename, flatten))
}
