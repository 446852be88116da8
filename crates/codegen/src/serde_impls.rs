//! The serde pass: replaces the derived `Deserialize`/`Serialize` of every generated struct with
//! impls that make one pass over the object's members. Declared members go straight into their
//! fields; undeclared ones into the `extra` field as raw JSON text (no `#[serde(flatten)]`, which
//! buffers the whole object first); a member named twice is an error at that member. The field
//! attributes the derive would have read (`default`, `deserialize_with`, `with`,
//! `skip_serializing_if`) are honoured here and stay on the fields for the schemars derive.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::{Attribute, Fields, Item, Meta, Token};

use crate::attributes::attr;
use crate::corpus::Problem;
use crate::plan::Plan;

/// What the serde attributes of one field ask for.
#[derive(Default)]
pub(crate) struct FieldSerde {
    pub(crate) rename: Option<String>,
    pub(crate) default: bool,
    pub(crate) flatten: bool,
    pub(crate) deserialize_with: Option<syn::ExprPath>,
    serialize_with: Option<syn::ExprPath>,
    skip_serializing_if: Option<syn::ExprPath>,
}

/// Applies the pass to every generated struct with an `extra` field.
pub fn apply(file: &mut syn::File, plan: &Plan) -> Result<(), Vec<Problem>> {
    let mut impls = Vec::new();
    let mut problems = Vec::new();
    for item in &mut file.items {
        let Item::Struct(item) = item else { continue };
        let Fields::Named(_) = &item.fields else { continue };
        if !derives_serde(&item.attrs) {
            continue;
        }
        let (file, pointer) = plan
            .get(&item.ident.to_string())
            .map_or((String::new(), String::new()), |d| (d.file.clone(), d.pointer.clone()));
        match struct_impls(item) {
            Ok(tokens) => impls.push(tokens),
            Err(message) => problems.push(Problem::new(&file, &pointer, message)),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    for tokens in impls {
        match syn::parse2::<syn::File>(tokens) {
            Ok(parsed) => file.items.extend(parsed.items),
            Err(err) => return Err(vec![Problem::new("", "", format!("serde impls do not parse: {err}"))]),
        }
    }
    Ok(())
}

fn derives_serde(attrs: &[Attribute]) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("derive")).any(|a| {
        a.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
            .is_ok_and(|paths| paths.iter().any(|p| p.segments.last().is_some_and(|s| s.ident == "Deserialize")))
    })
}

/// Drops `Deserialize` and `Serialize` from the derives and keeps every `#[serde(…)]` attribute
/// for schemars only.
fn strip_serde(attrs: &mut Vec<Attribute>) {
    for a in attrs.iter_mut() {
        if a.path().is_ident("derive") {
            if let Ok(paths) = a.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated) {
                let kept: Vec<&syn::Path> = paths
                    .iter()
                    .filter(|p| p.segments.last().is_none_or(|s| s.ident != "Deserialize" && s.ident != "Serialize"))
                    .collect();
                *a = attr(&quote!(#[derive(#(#kept),*)]).to_string());
            }
        } else if a.path().is_ident("serde")
            && let Meta::List(list) = &a.meta
        {
            let tokens = &list.tokens;
            *a = attr(&quote!(#[cfg_attr(feature = "schemars", serde(#tokens))]).to_string());
        }
    }
    attrs.retain(|a| !(a.path().is_ident("derive") && matches!(&a.meta, Meta::List(list) if list.tokens.is_empty())));
}

pub(crate) fn field_serde(attrs: &[Attribute]) -> Result<FieldSerde, String> {
    let mut out = FieldSerde::default();
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        a.parse_nested_meta(|meta| {
            let path = |meta: &syn::meta::ParseNestedMeta| -> syn::Result<syn::ExprPath> {
                let text: syn::LitStr = meta.value()?.parse()?;
                text.parse()
            };
            if meta.path.is_ident("rename") {
                let text: syn::LitStr = meta.value()?.parse()?;
                out.rename = Some(text.value());
            } else if meta.path.is_ident("default") {
                out.default = true;
            } else if meta.path.is_ident("flatten") {
                out.flatten = true;
            } else if meta.path.is_ident("deserialize_with") {
                out.deserialize_with = Some(path(&meta)?);
            } else if meta.path.is_ident("serialize_with") {
                out.serialize_with = Some(path(&meta)?);
            } else if meta.path.is_ident("skip_serializing_if") {
                out.skip_serializing_if = Some(path(&meta)?);
            } else if meta.path.is_ident("with") {
                let module = path(&meta)?;
                out.deserialize_with = Some(syn::parse_quote!(#module::deserialize));
                out.serialize_with = Some(syn::parse_quote!(#module::serialize));
            } else {
                return Err(meta.error("serde attribute the serde pass does not carry"));
            }
            Ok(())
        })
        .map_err(|e| format!("serde attribute {}: {e}", quote!(#a)))?;
    }
    Ok(out)
}

fn struct_impls(item: &mut syn::ItemStruct) -> Result<TokenStream, String> {
    let Fields::Named(fields) = &mut item.fields else { return Err("not a struct with named fields".into()) };
    let name = item.ident.clone();
    let expecting = format!("an object ({name})");
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut inits = Vec::new();
    let mut writes = Vec::new();
    let mut declared = Vec::new();
    let mut extra = None;
    for (index, field) in fields.named.iter_mut().enumerate() {
        let serde = field_serde(&field.attrs)?;
        let ident = field.ident.clone().ok_or("a field without a name")?;
        let ty = field.ty.clone();
        if serde.flatten {
            if ident != "extra" {
                return Err(format!("flattened field {ident} is not the extra field"));
            }
            extra = Some(ident);
            continue;
        }
        let json = serde.rename.clone().unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_owned());
        declared.push(json.clone());
        let slot = format_ident!("__f{index}");
        slots.push(quote!(let mut #slot: ::std::option::Option<#ty> = ::std::option::Option::None;));
        let members = members_read(&ty, serde.deserialize_with.as_ref())?;
        let read = match &serde.deserialize_with {
            _ if holds_json_value(&ty) => strict_read(&ty, serde.deserialize_with.as_ref()),
            _ if let Some(read) = members => read,
            Some(path) => quote! {{
                struct __With(#ty);
                impl<'de> ::serde::Deserialize<'de> for __With {
                    fn deserialize<__D: ::serde::Deserializer<'de>>(__d: __D) -> ::std::result::Result<Self, __D::Error> {
                        #path(__d).map(__With)
                    }
                }
                ::serde::de::MapAccess::next_value::<__With>(&mut __map)?.0
            }},
            None => quote!(::serde::de::MapAccess::next_value::<#ty>(&mut __map)?),
        };
        arms.push(quote! {
            #json => {
                if #slot.is_some() {
                    ::jerry_contracts::__private::read::duplicate(&mut __map, #json)?;
                }
                #slot = ::std::option::Option::Some(#read);
            }
        });
        inits.push(if serde.default {
            quote!(#ident: #slot.unwrap_or_default(),)
        } else {
            quote!(#ident: match #slot {
                ::std::option::Option::Some(__v) => __v,
                ::std::option::Option::None => return ::std::result::Result::Err(::jerry_contracts::__private::read::missing(#json)),
            },)
        });
        let write = match &serde.serialize_with {
            Some(path) => quote! {{
                struct __With<'a>(&'a #ty);
                impl ::serde::Serialize for __With<'_> {
                    fn serialize<__S: ::serde::Serializer>(&self, __s: __S) -> ::std::result::Result<__S::Ok, __S::Error> {
                        #path(self.0, __s)
                    }
                }
                ::serde::ser::SerializeMap::serialize_entry(&mut __map, #json, &__With(&self.#ident))?;
            }},
            None => quote!(::serde::ser::SerializeMap::serialize_entry(&mut __map, #json, &self.#ident)?;),
        };
        writes.push(match &serde.skip_serializing_if {
            Some(path) => quote!(if !#path(&self.#ident) { #write }),
            None => write,
        });
    }
    let extra = extra.ok_or("a struct without its extra field")?;
    let names: Vec<&str> = declared.iter().map(String::as_str).collect();
    // garde: the extra field may not hold a declared member's name.
    for field in fields.named.iter_mut().filter(|f| f.ident.as_ref().is_some_and(|i| *i == extra)) {
        field.attrs.retain(|a| !a.path().is_ident("garde"));
        let rule = quote!(#[garde(custom(::jerry_contracts::__private::undeclared(&[#(#names),*])))]);
        field.attrs.push(attr(&rule.to_string()));
    }
    for field in fields.named.iter_mut() {
        strip_serde(&mut field.attrs);
    }
    strip_serde(&mut item.attrs);
    Ok(quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(__deserializer: __D) -> ::std::result::Result<Self, __D::Error> {
                struct __Visitor;
                impl<'de> ::serde::de::Visitor<'de> for __Visitor {
                    type Value = #name;
                    fn expecting(&self, __f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        __f.write_str(#expecting)
                    }
                    fn visit_map<__A: ::serde::de::MapAccess<'de>>(self, mut __map: __A) -> ::std::result::Result<#name, __A::Error> {
                        #(#slots)*
                        let mut __extra = ::jerry_contracts::Extra::new();
                        while let ::std::option::Option::Some(__key) =
                            ::serde::de::MapAccess::next_key::<::jerry_contracts::__private::read::Key<'de>>(&mut __map)?
                        {
                            match __key.0.as_ref() {
                                #(#arms)*
                                _ => ::jerry_contracts::__private::read::unknown(&mut __map, &mut __extra, __key)?,
                            }
                        }
                        ::std::result::Result::Ok(#name { #(#inits)* #extra: __extra })
                    }
                }
                ::serde::Deserializer::deserialize_map(__deserializer, __Visitor)
            }
        }
        impl ::serde::Serialize for #name {
            fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::std::result::Result<__S::Ok, __S::Error> {
                let mut __map = ::serde::Serializer::serialize_map(__serializer, ::std::option::Option::None)?;
                #(#writes)*
                for (__k, __v) in self.#extra.iter() {
                    // Raw text to serde_json, ordinary values to every other format.
                    ::serde::ser::SerializeMap::serialize_entry(&mut __map, __k, &::jerry_contracts::__private::raw::Written(__v))?;
                }
                ::serde::ser::SerializeMap::end(__map)
            }
        }
    })
}

/// The read of a field holding an object read as a map (`BTreeMap<String, T>`, optional through
/// `present`): the runtime's `DistinctMembers`, which refuses a name given twice as every other
/// object read does (serde's `BTreeMap` keeps the last value and loses the first). `None` for a
/// field holding no map; an error for a map held any other way, which the pass cannot carry.
fn members_read(ty: &syn::Type, deserialize_with: Option<&syn::ExprPath>) -> Result<Option<TokenStream>, String> {
    let shown = quote!(#ty).to_string().replace(' ', "");
    if !shown.contains("BTreeMap<") {
        return Ok(None);
    }
    let with = deserialize_with.map(|p| quote!(#p).to_string().replace(' ', ""));
    let map = crate::skim::map_value;
    let read = |value: &syn::Type| quote!(::serde::de::MapAccess::next_value::<::jerry_contracts::__private::read::DistinctMembers<#value>>(&mut __map)?.0);
    let tokens = match (with.as_deref(), crate::attributes::option_inner(ty)) {
        (None, None) => map(ty).map(|value| read(&value)),
        (Some("present"), Some(inner)) => map(inner).map(|value| {
            let read = read(&value);
            quote!(::std::option::Option::Some(#read))
        }),
        _ => None,
    };
    tokens.map(Some).ok_or_else(|| format!("a map held as {shown}, which the serde pass cannot read member by member"))
}

/// Whether a field's type holds free-form JSON (`serde_json::Value`, a map or list of them):
/// serde_json's own reader of those keeps the last of two members of the same name.
pub(crate) fn holds_json_value(ty: &syn::Type) -> bool {
    quote!(#ty).to_string().replace(' ', "").contains("serde_json::Value")
}

/// Reads a field of free-form JSON as the runtime's strict value (a member named twice anywhere
/// in it is an error, D-111), then as its type (with its `deserialize_with`, if any).
pub(crate) fn strict_read(ty: &syn::Type, deserialize_with: Option<&syn::ExprPath>) -> TokenStream {
    let convert = match deserialize_with {
        Some(path) => quote!(#path(__strict)),
        None => quote!(<#ty as ::serde::Deserialize>::deserialize(__strict)),
    };
    // The conversion happens inside `next_value`, so that a path-tracking reader places its
    // error at the field.
    quote! {{
        struct __Strict(#ty);
        impl<'de> ::serde::Deserialize<'de> for __Strict {
            fn deserialize<__D: ::serde::Deserializer<'de>>(__d: __D) -> ::std::result::Result<Self, __D::Error> {
                let __strict = <::jerry_contracts::__private::read::StrictValue as ::serde::Deserialize>::deserialize(__d)?.0;
                let __typed: ::std::result::Result<#ty, ::serde_json::Error> = #convert;
                __typed.map(__Strict).map_err(::serde::de::Error::custom)
            }
        }
        ::serde::de::MapAccess::next_value::<__Strict>(&mut __map)?.0
    }}
}
