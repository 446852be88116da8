//! The construction convention of every generated struct: `new` takes the required fields in
//! schema order, each as `impl Into<FieldType>`, fills constants (`agent_id`, `cognitive_mode`,
//! `disclaimer_included`, `schema_name`, …) by themselves, leaves every optional field absent
//! and `extra` empty; optional fields are then set as public fields. A struct with no required
//! field also implements `Default` (the same value as `new()`), and a one-value constant enum
//! implements `Default` as its only value.

use quote::quote;
use syn::{Fields, Item, Type};

use crate::attributes::{EXTRA_FIELD, Members};
use crate::corpus::Problem;
use crate::model::Model;
use crate::plan::{Kind, Plan};

/// Structs whose constructor is hand-written in the library (the v1.1 envelope's `new` fills in
/// the version, the time and the payload's schema reference).
const HAND_WRITTEN: &[(&str, &str)] = &[("session_context/v1.1.0.json", "")];

/// Applies the pass to the generated items.
pub fn apply(file: &mut syn::File, plan: &Plan, model: &Model, members: &Members) -> Result<(), Vec<Problem>> {
    let mut added = Vec::new();
    let mut problems = Vec::new();
    for item in &file.items {
        match item {
            Item::Enum(item) => {
                let Some(def) = plan.get(&item.ident.to_string()) else { continue };
                if matches!(def.kind, Kind::Const)
                    && let Some(variant) = item.variants.first()
                {
                    let (ident, value) = (&item.ident, &variant.ident);
                    let doc = format!(" The constant `{}` (its only value).", def.public);
                    added.push(quote! {
                        impl ::std::default::Default for #ident {
                            #[doc = #doc]
                            fn default() -> Self {
                                Self::#value
                            }
                        }
                    });
                }
            }
            Item::Struct(item) => {
                let Some(def) = plan.get(&item.ident.to_string()) else { continue };
                let Fields::Named(fields) = &item.fields else { continue };
                if !matches!(def.kind, Kind::Struct)
                    || HAND_WRITTEN.contains(&(def.file.as_str(), def.pointer.as_str()))
                {
                    continue;
                }
                // Parameters in the order of the schema's `required` list.
                let required: &[String] = model.object(&def.flat).map_or(&[], |(_, required)| required);
                let position = |json: &str| required.iter().position(|r| *r == json).unwrap_or(usize::MAX);
                let mut params = Vec::new();
                let mut inits = Vec::new();
                for field in &fields.named {
                    let Some(name) = &field.ident else { continue };
                    let ty = &field.ty;
                    if name == EXTRA_FIELD {
                        inits.push(quote!(extra: ::jerry_contracts::Extra::new()));
                        continue;
                    }
                    let Some(member) = members.by_field(&def.flat, &name.to_string()) else {
                        problems.push(Problem::new(
                            &def.file,
                            &def.pointer,
                            format!("constructor: no member for field {name}"),
                        ));
                        continue;
                    };
                    if is_constant(ty, plan) {
                        inits.push(quote!(#name: ::std::default::Default::default()));
                    } else if !member.required {
                        inits.push(quote!(#name: ::std::option::Option::None));
                    } else {
                        params.push((position(&member.json), quote!(#name: impl ::std::convert::Into<#ty>)));
                        inits.push(quote!(#name: #name.into()));
                    }
                }
                params.sort_by_key(|(at, _)| *at);
                let params: Vec<_> = params.into_iter().map(|(_, tokens)| tokens).collect();
                let ident = &item.ident;
                let doc = if params.is_empty() {
                    format!(" A `{}` with every optional field absent (the same as `Default`).", def.public)
                } else {
                    format!(
                        " A `{}` with its required fields, in schema order; constants are filled in, optional fields are absent (set them as fields).",
                        def.public
                    )
                };
                added.push(quote! {
                    impl #ident {
                        #[doc = #doc]
                        #[allow(clippy::too_many_arguments)]
                        pub fn new(#(#params),*) -> Self {
                            Self { #(#inits),* }
                        }
                    }
                });
                if params.is_empty() && !derives_default(&item.attrs) {
                    added.push(quote! {
                        impl ::std::default::Default for #ident {
                            fn default() -> Self {
                                Self::new()
                            }
                        }
                    });
                }
            }
            _ => {}
        }
    }
    for tokens in added {
        let parsed: syn::File = syn::parse2(tokens)
            .map_err(|e| vec![Problem::new("schemas/", "", format!("constructors do not parse: {e}"))])?;
        file.items.extend(parsed.items);
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// Whether typify already derives `Default` (it does when every field is optional).
fn derives_default(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("derive")).any(|a| quote!(#a).to_string().contains("Default"))
}

fn last_ident(ty: &Type) -> Option<String> {
    let Type::Path(path) = ty else { return None };
    path.path.segments.last().map(|s| s.ident.to_string())
}

/// A constant: a one-value enum of the plan or `constant::True`.
fn is_constant(ty: &Type, plan: &Plan) -> bool {
    last_ident(ty).is_some_and(|name| name == "True" || plan.get(&name).is_some_and(|d| matches!(d.kind, Kind::Const)))
}
