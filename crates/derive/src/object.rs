//! `#[derive(Object)]`: `Deserialize` and `Serialize` of a generated struct that make one pass
//! over the object's members. Declared members go straight into their fields; undeclared ones
//! into the `#[serde(flatten)]` field (`extra`) as raw JSON text (no serde flatten, which buffers
//! the whole object first); a member named twice is an error at that member. The field attributes
//! serde's derive would read (`rename`, `default`, `deserialize_with`, `with`,
//! `skip_serializing_if`) are honoured, and stay for the schemars derive.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, Type};

use crate::attrs::{field_serde, generic_argument, holds_json_value, json_name, map_value, option_inner};

/// The runtime module of placed errors (`src/private/located.rs`).
const LOCATED: Located = Located;

/// Writes the path of the runtime module of placed errors.
struct Located;

impl quote::ToTokens for Located {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(quote!(::jerry_contracts::__private::located));
    }
}

/// The two impls for a struct with named fields and an `extra` field.
pub(crate) fn expand(item: &DeriveInput) -> syn::Result<TokenStream> {
    let Data::Struct(data) = &item.data else { return Err(syn::Error::new_spanned(item, "not a struct")) };
    let Fields::Named(fields) = &data.fields else {
        return Err(syn::Error::new_spanned(item, "not a struct with named fields"));
    };
    let name = &item.ident;
    let expecting = format!("an object ({name})");
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut inits = Vec::new();
    let mut writes = Vec::new();
    let mut extra = None;
    for (index, field) in fields.named.iter().enumerate() {
        let serde = field_serde(&field.attrs)?;
        let Some(ident) = &field.ident else { continue };
        let ty = &field.ty;
        if serde.flatten {
            if extra.replace(ident).is_some() {
                return Err(syn::Error::new_spanned(field, "a second flattened field"));
            }
            continue;
        }
        let json = json_name(ident, &serde);
        let slot = format_ident!("__f{index}");
        slots.push(quote!(let mut #slot: ::std::option::Option<#ty> = ::std::option::Option::None;));
        // Most members are read with a seed, by the runtime's one `member` function; a member
        // read through a type of its own (free-form JSON, a `deserialize_with`) is read in place.
        let seeded = if holds_json_value(ty) {
            None
        } else if let Some(seed) =
            members_seed(ty, serde.with().as_deref()).map_err(|m| syn::Error::new_spanned(field, m))?
        {
            Some(seed)
        } else if let (Some("present"), Some(inner)) = (serde.with().as_deref(), option_inner(ty)) {
            // An optional member that, when given, holds a value (`null` refused): the runtime's
            // seed, shared by every such member of one type, rather than a wrapper type each.
            let seed = seed(inner);
            Some(quote!(#LOCATED::Present(#seed)))
        } else if serde.deserialize_with.is_some() {
            None
        } else {
            Some(seed(ty))
        };
        arms.push(match seeded {
            Some(seed) => quote! {
                #json => ::jerry_contracts::__private::read::member(&mut __map, #json, &mut #slot, #seed)?,
            },
            None => {
                let read = if holds_json_value(ty) {
                    strict_read(ty, Some(&json), serde.deserialize_with.as_ref())
                } else {
                    let path = &serde.deserialize_with;
                    quote! {{
                        struct __With(#ty);
                        impl<'de> ::serde::Deserialize<'de> for __With {
                            fn deserialize<__D: ::serde::Deserializer<'de>>(__d: __D) -> ::std::result::Result<Self, __D::Error> {
                                #path(__d).map(__With)
                            }
                        }
                        #LOCATED::next_value_at::<_, __With>(&mut __map, #json)?.0
                    }}
                };
                quote! {
                    #json => {
                        if #slot.is_some() {
                            ::jerry_contracts::__private::read::duplicate(&mut __map, #json)?;
                        }
                        #slot = ::std::option::Option::Some(#read);
                    }
                }
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
    let extra =
        extra.ok_or_else(|| syn::Error::new_spanned(item, "no `#[serde(flatten)]` field for undeclared members"))?;
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

/// The seed of a field holding an object read as a map (`BTreeMap<String, T>`, optional through
/// `present`): the runtime's `distinct_members`, which refuses a name given twice as every other
/// object read does (serde's `BTreeMap` keeps the last value and loses the first). `None` for a
/// field holding no map; an error for a map held any other way, which the derive cannot carry.
fn members_seed(ty: &Type, with: Option<&str>) -> Result<Option<TokenStream>, String> {
    let shown = crate::attrs::shown(ty);
    if !shown.contains("BTreeMap<") {
        return Ok(None);
    }
    let seed = |value: &Type| quote!(::jerry_contracts::__private::read::distinct_members::<#value>());
    let tokens = match (with, option_inner(ty)) {
        (None, None) => map_value(ty).map(seed),
        (Some("present"), Some(inner)) => map_value(inner).map(|value| {
            let seed = seed(value);
            quote!(#LOCATED::Present(#seed))
        }),
        _ => None,
    };
    tokens.map(Some).ok_or_else(|| format!("a map held as {shown}, which the derive cannot read member by member"))
}

/// Reads a field of free-form JSON as the runtime's strict value (a member named twice anywhere
/// in it is an error, D-111), then as its type (with its `deserialize_with`, if any).
pub(crate) fn strict_read(ty: &Type, json: Option<&str>, deserialize_with: Option<&syn::ExprPath>) -> TokenStream {
    let convert = match deserialize_with {
        Some(path) => quote!(#path(__strict)),
        None => quote!(<#ty as ::serde::Deserialize>::deserialize(__strict)),
    };
    // The conversion happens inside `next_value`, so that its error is placed at the member
    // (when `json` names it).
    let read = match json {
        Some(json) => quote!(#LOCATED::next_value_at::<_, __Strict>(&mut __map, #json)?.0),
        None => quote!(::serde::de::MapAccess::next_value::<__Strict>(&mut __map)?.0),
    };
    quote! {{
        struct __Strict(#ty);
        impl<'de> ::serde::Deserialize<'de> for __Strict {
            fn deserialize<__D: ::serde::Deserializer<'de>>(__d: __D) -> ::std::result::Result<Self, __D::Error> {
                let __strict = <::jerry_contracts::__private::read::StrictValue as ::serde::Deserialize>::deserialize(__d)?.0;
                let __typed: ::std::result::Result<#ty, ::serde_json::Error> = #convert;
                __typed.map(__Strict).map_err(::serde::de::Error::custom)
            }
        }
        #read
    }}
}

/// The seed a field of type `ty` is read with: an array (also an optional one) element by
/// element, so that an error inside an element names its index; anything else whole.
fn seed(ty: &Type) -> TokenStream {
    if let Some(item) = generic_argument(ty, "Vec") {
        let item = seed(item);
        return quote!(#LOCATED::Elements(#item));
    }
    if let Some(inner) = option_inner(ty)
        && generic_argument(inner, "Vec").is_some()
    {
        let inner = seed(inner);
        return quote!(#LOCATED::Optional(#inner));
    }
    quote!(#LOCATED::whole::<#ty>())
}
