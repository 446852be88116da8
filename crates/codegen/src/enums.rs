//! Enum conversions from text.
//!
//! - typify's `FromStr` and `TryFrom<&str>`/`<&String>`/`<String>` of a string enum fail with
//!   "invalid value"; this pass makes them fail with the `jerry_contracts::InvalidValue` the
//!   checked newtypes give, naming the type, the value and the allowed values
//!   (`ResearcherFindingCategory cannot be "bogus": it must be one of "insight", "pattern", …`).
//! - serde's derived `Deserialize` of a unit-variant enum asks for an enum, which serde_json
//!   also reads from an object (`{"insight": null}`), a value the schema's string enum refuses;
//!   the pass replaces it with a read of a string (`deserialize_str`), matched against the
//!   allowed values, which is also fewer steps for every format.

use quote::quote;
use syn::punctuated::Punctuated;
use syn::visit_mut::VisitMut;
use syn::{Expr, Fields, Item, Lit, Meta, Pat, Token, Type};

use crate::corpus::Problem;
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
pub fn apply(file: &mut syn::File, plan: &Plan) -> Result<(), Vec<Problem>> {
    let handled = string_reads(file, plan)?;
    // Any other enum keeps typify's conversions, rewritten to name its values.
    let enums: Vec<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Enum(item) if !handled.contains(&item.ident.to_string()) => Some(item.ident.to_string()),
            _ => None,
        })
        .collect();
    for item in &mut file.items {
        let Item::Impl(block) = item else { continue };
        let Some((_, trait_path, _)) = &block.trait_ else { continue };
        let Some(last) = trait_path.segments.last() else { continue };
        let text_conversion = match last.ident.to_string().as_str() {
            "FromStr" => true,
            "TryFrom" => {
                let arg = &last.arguments;
                let arg = quote!(#arg).to_string().replace(' ', "");
                ["<&str>", "<&::std::string::String>", "<::std::string::String>"].contains(&arg.as_str())
            }
            _ => false,
        };
        let Type::Path(self_ty) = &*block.self_ty else { continue };
        let Some(name) = self_ty.path.segments.last().map(|s| s.ident.to_string()) else { continue };
        if !text_conversion || !enums.contains(&name) {
            continue;
        }
        let is_from_str = last.ident == "FromStr";
        let public = plan.get(&name).map_or(name.clone(), |def| def.public.clone());
        let mut rewrite = Rewrite { public, found: false, problem: None };
        rewrite.visit_item_impl_mut(block);
        if is_from_str && !rewrite.found && rewrite.problem.is_none() {
            rewrite.problem = Some(format!("the FromStr of {name} has no `_` arm to name the allowed values in"));
        }
        if let Some(problem) = rewrite.problem {
            let (file, pointer) =
                plan.get(&name).map_or((String::new(), String::new()), |d| (d.file.clone(), d.pointer.clone()));
            return Err(vec![Problem::new(&file, &pointer, problem)]);
        }
    }
    Ok(())
}

/// Replaces typify's `ConversionError` by `InvalidValue` in one impl, and its "invalid value"
/// arm by one that names the allowed values.
struct Rewrite {
    public: String,
    found: bool,
    problem: Option<String>,
}

impl VisitMut for Rewrite {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if quote!(#ty).to_string().replace(' ', "").ends_with("error::ConversionError") {
            *ty = syn::parse_quote!(::jerry_contracts::InvalidValue);
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }

    fn visit_expr_match_mut(&mut self, expr: &mut syn::ExprMatch) {
        let allowed: Vec<String> = expr
            .arms
            .iter()
            .filter_map(|arm| match &arm.pat {
                Pat::Lit(lit) => match &lit.lit {
                    Lit::Str(text) => Some(text.value()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let rule =
            format!("it must be one of {}", allowed.iter().map(|a| format!("{a:?}")).collect::<Vec<_>>().join(", "));
        let public = &self.public;
        for arm in &mut expr.arms {
            if matches!(arm.pat, Pat::Wild(_)) {
                let body: Expr = syn::parse_quote! {
                    Err(::jerry_contracts::__private::invalid_value(#public, value, #rule))
                };
                *arm.body = body;
                self.found = true;
            }
        }
        if allowed.is_empty() {
            self.problem = Some(format!("the FromStr of {public} names no string value"));
        }
        syn::visit_mut::visit_expr_match_mut(self, expr);
    }
}

/// Replaces the derived `Deserialize` of every enum whose variants are all units, and typify's
/// text conversions of it, by one call of the runtime's `__string_enum!` (a read of a string, and
/// conversions whose error names the public type and the allowed values); returns those enums.
fn string_reads(file: &mut syn::File, plan: &Plan) -> Result<Vec<String>, Vec<Problem>> {
    let mut calls: Vec<syn::ItemMacro> = Vec::new();
    let mut handled: Vec<String> = Vec::new();
    for item in &mut file.items {
        let Item::Enum(item) = item else { continue };
        if item.variants.is_empty() || !item.variants.iter().all(|v| matches!(v.fields, Fields::Unit)) {
            continue;
        }
        let mut derived = false;
        for attr in &mut item.attrs {
            if !attr.path().is_ident("derive") {
                continue;
            }
            let Ok(list) = attr.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated) else {
                continue;
            };
            let kept: Vec<&syn::Path> =
                list.iter().filter(|p| p.segments.last().is_none_or(|s| s.ident != "Deserialize")).collect();
            if kept.len() != list.len() {
                derived = true;
                *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
            }
        }
        if !derived {
            continue;
        }
        let ident = &item.ident;
        let public = plan.get(&ident.to_string()).map_or_else(|| ident.to_string(), |def| def.public.clone());
        let variants = item.variants.iter().map(|variant| {
            let variant_ident = &variant.ident;
            let name = renamed(variant).unwrap_or_else(|| variant_ident.to_string());
            quote!(#variant_ident = #name)
        });
        // Display, FromStr, TryFrom and Deserialize: the runtime's macro (src/private/impls.rs).
        calls.push(syn::parse_quote! {
            ::jerry_contracts::__string_enum!(#ident, #public, [#(#variants),*]);
        });
        handled.push(ident.to_string());
    }
    // typify's text conversions of those enums give way to the macro's.
    file.items.retain(|item| !matches!(item, Item::Impl(block) if text_conversion_of(block, &handled)));
    file.items.extend(calls.into_iter().map(Item::Macro));
    Ok(handled)
}

/// Whether `block` is a `Display`, `FromStr` or `TryFrom` from text of one of `enums`.
fn text_conversion_of(block: &syn::ItemImpl, enums: &[String]) -> bool {
    let Some((_, trait_path, _)) = &block.trait_ else { return false };
    let Some(last) = trait_path.segments.last() else { return false };
    let Type::Path(self_ty) = &*block.self_ty else { return false };
    let Some(name) = self_ty.path.segments.last().map(|s| s.ident.to_string()) else { return false };
    enums.contains(&name)
        && (["Display", "FromStr"].contains(&last.ident.to_string().as_str()) || is_text_try_from(last))
}

/// `TryFrom<&str>`, `TryFrom<&String>` or `TryFrom<String>`.
fn is_text_try_from(segment: &syn::PathSegment) -> bool {
    let arg = &segment.arguments;
    let arg = quote!(#arg).to_string().replace(' ', "");
    segment.ident == "TryFrom"
        && ["<&str>", "<&::std::string::String>", "<::std::string::String>"].contains(&arg.as_str())
}

/// The name a variant's `#[serde(rename = "…")]` gives it on the wire.
fn renamed(variant: &syn::Variant) -> Option<String> {
    variant.attrs.iter().filter(|a| a.path().is_ident("serde")).find_map(|attr| {
        let list = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated).ok()?;
        list.iter().find_map(|meta| match meta {
            Meta::NameValue(nv) if nv.path.is_ident("rename") => match &nv.value {
                Expr::Lit(syn::ExprLit { lit: Lit::Str(text), .. }) => Some(text.value()),
                _ => None,
            },
            _ => None,
        })
    })
}
