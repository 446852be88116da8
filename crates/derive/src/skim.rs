//! `#[derive(Skim)]`: `jerry_contracts::__private::skim::Skim` for a generated struct, newtype
//! or enum — a check-only read that accepts exactly what the typed read plus `validate()`
//! accepts, without building the value. It reads the attributes those use: each field's serde
//! attributes (name, `default`, `deserialize_with`) and its `garde` rules. A string field's rules
//! run on the string where it lies in the input, a number's on the number, an array's count as
//! its items go by; a field whose rules the derive does not take apart is read whole and checked
//! by `garde` itself, through a one-field struct carrying the same attribute, so no rule can drift.
//!
//! What the rule layers read comes from the generator as field attributes:
//! - `#[skim(capture)]` on a member of a root the rules read: read whole (or kept) and handed to
//!   the skim's context;
//! - `#[skim(keep)]` on a field the rules read of a skimmed value: the type gets a `Keep` impl
//!   and a `<Type>Kept` view holding only those fields;
//! - `#[skim(text)]` on a field whose type is a string newtype: kept or captured, it is taken as
//!   text where it lies in the input (the newtype's `AsText` rules);
//! - `#[skim(kept)]` on a captured field whose type (or item type) has a `Keep` view.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Attribute, Data, DeriveInput, Fields, Type};

use crate::attrs::{
    FieldSerde, Rule, field_serde, garde_rules, generic_argument, holds_json_value, is_generated, json_name, map_value,
    option_inner, shown, transparent,
};

/// What a field's `#[skim(…)]` attribute says.
#[derive(Default)]
struct FieldSkim {
    /// `capture`: the rule layers read this member of a root; it is handed to the context.
    capture: bool,
    /// `keep`: the rule layers read this field of a skimmed value; the `Kept` view holds it.
    keep: bool,
    /// `text`: the field's type is a string newtype, taken as text where it lies in the input.
    text: bool,
    /// `kept`: the field's type (or its items) has a `Keep` view, which a capture reads.
    kept: bool,
}

fn field_skim(attrs: &[Attribute]) -> syn::Result<FieldSkim> {
    let mut out = FieldSkim::default();
    for a in attrs.iter().filter(|a| a.path().is_ident("skim")) {
        a.parse_nested_meta(|meta| {
            let flag = if meta.path.is_ident("capture") {
                &mut out.capture
            } else if meta.path.is_ident("keep") {
                &mut out.keep
            } else if meta.path.is_ident("text") {
                &mut out.text
            } else if meta.path.is_ident("kept") {
                &mut out.kept
            } else {
                return Err(meta.error("a skim attribute the derive does not know"));
            };
            *flag = true;
            Ok(())
        })?;
    }
    Ok(out)
}

/// The skim impls of a struct, newtype or enum.
pub(crate) fn expand(item: &DeriveInput) -> syn::Result<TokenStream> {
    let ident = &item.ident;
    match &item.data {
        Data::Enum(_) => Ok(by_reading(ident)),
        Data::Struct(data) => match &data.fields {
            Fields::Named(fields) => named(ident, fields),
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                let Some(field) = fields.unnamed.first() else {
                    return Err(syn::Error::new_spanned(item, "an empty newtype"));
                };
                if !transparent(&item.attrs) {
                    return Err(syn::Error::new_spanned(item, "a newtype the derive does not read as its field"));
                }
                newtype(ident, field)
            }
            _ => Err(syn::Error::new_spanned(item, "a struct that is neither named fields nor a newtype")),
        },
        Data::Union(_) => Err(syn::Error::new_spanned(item, "a union")),
    }
}

/// A skim that is the typed read itself (typify's enums: unit variants read from a borrowed
/// string, nothing built).
fn by_reading(ident: &syn::Ident) -> TokenStream {
    quote! {
        impl ::jerry_contracts::__private::skim::Skim for #ident {
            fn skim<'de, __D: ::serde::Deserializer<'de>>(
                __d: __D,
                _cx: &mut ::jerry_contracts::__private::skim::Cx<'de>,
            ) -> ::std::result::Result<(), __D::Error> {
                <Self as ::serde::Deserialize>::deserialize(__d).map(drop)
            }
        }
    }
}

fn newtype(ident: &syn::Ident, field: &syn::Field) -> syn::Result<TokenStream> {
    let rules = garde_rules(&field.attrs)?;
    let text = (shown(&field.ty) == "::std::string::String").then(|| value_seed(&field.ty, &rules)).flatten();
    let (defs, seed) = match value_seed(&field.ty, &rules) {
        Some(seed) => (quote!(), seed),
        None => {
            let (defs, check) = checker(&field.ty, &field.attrs);
            (defs, quote!(::jerry_contracts::__private::skim::Whole::<#check>::new()))
        }
    };
    // A string newtype's rules, for a kept or captured member of it.
    let as_text = text.map(|text| {
        quote! {
            impl ::jerry_contracts::__private::skim::AsText for #ident {
                fn text() -> ::jerry_contracts::__private::skim::Text {
                    #text
                }
            }
        }
    });
    Ok(quote! {
        impl ::jerry_contracts::__private::skim::Skim for #ident {
            fn skim<'de, __D: ::serde::Deserializer<'de>>(
                __d: __D,
                __cx: &mut ::jerry_contracts::__private::skim::Cx<'de>,
            ) -> ::std::result::Result<(), __D::Error> {
                let _ = &__cx;
                #defs
                ::serde::de::DeserializeSeed::deserialize(#seed, __d)
            }
        }
        #as_text
    })
}

/// The `Text` rules of a value of type `ty` under these field rules, when it is a string or a
/// string newtype (`text`: the field says so).
fn text_rules(ty: &Type, rules: &[Rule], text: bool) -> Option<TokenStream> {
    if shown(ty) == "::std::string::String" {
        return value_seed(ty, rules);
    }
    (text && rules.iter().all(|r| matches!(r, Rule::Dive)))
        .then(|| quote!(<#ty as ::jerry_contracts::__private::skim::AsText>::text()))
}

fn named(ident: &syn::Ident, fields: &syn::FieldsNamed) -> syn::Result<TokenStream> {
    let expecting = format!("an object ({ident})");
    let mut arms = Vec::new();
    let mut keep_arms = Vec::new();
    let mut slots = Vec::new();
    let mut view_fields = Vec::new();
    let mut view_inits = Vec::new();
    let mut required = Vec::new();
    let mut index = 0usize;
    for field in &fields.named {
        let serde = field_serde(&field.attrs)?;
        let Some(name) = &field.ident else { continue };
        if serde.flatten {
            continue;
        }
        let json = json_name(name, &serde);
        let rules = garde_rules(&field.attrs)?;
        let skim = field_skim(&field.attrs)?;
        let skimmed = match field_seed(&field.ty, &rules, &serde) {
            Some(seed) => quote!(::serde::de::MapAccess::next_value_seed(&mut __map, #seed)?;),
            None => {
                let whole = whole(&field.ty, &field.attrs, &serde);
                quote!({ let _ = #whole; })
            }
        };
        let read = if skim.capture { capture(field, &serde, &rules, &json, &skim) } else { skimmed.clone() };
        let at = index;
        let duplicate = quote! {
            if __seen[#at] {
                return ::std::result::Result::Err(::jerry_contracts::__private::skim::fail());
            }
            __seen[#at] = true;
        };
        arms.push(quote!(#json => { #duplicate #read }));
        if skim.keep {
            let slot = format_ident!("__k{at}");
            // The typed field's docs: its description and constraints.
            let doc: Vec<&Attribute> = field.attrs.iter().filter(|a| a.path().is_ident("doc")).collect();
            let (inner, optional) = value_type(&field.ty, &serde);
            match inner.and_then(|inner| text_rules(inner, &rules, skim.text)) {
                Some(text) => {
                    // Taken as text where it lies in the input (borrowed unless it has escapes).
                    let ty = if optional {
                        quote!(::std::option::Option<::std::borrow::Cow<'de, str>>)
                    } else {
                        quote!(::std::borrow::Cow<'de, str>)
                    };
                    let value = if optional { quote!(::std::option::Option::Some(__v)) } else { quote!(__v) };
                    slots.push(quote!(let mut #slot: ::std::option::Option<#ty> = ::std::option::Option::None;));
                    keep_arms.push(quote! {
                        #json => {
                            #duplicate
                            let __v = ::serde::de::MapAccess::next_value_seed(&mut __map, ::jerry_contracts::__private::skim::TextKeep(#text))?;
                            #slot = ::std::option::Option::Some(#value);
                        }
                    });
                    view_fields.push(quote!(#(#doc)* pub #name: #ty,));
                }
                None => {
                    // Read whole (checked as the typed read and `garde` check it).
                    let ty = &field.ty;
                    let whole = whole(ty, &field.attrs, &serde);
                    slots.push(quote!(let mut #slot: ::std::option::Option<#ty> = ::std::option::Option::None;));
                    keep_arms.push(quote!(#json => { #duplicate #slot = ::std::option::Option::Some(#whole); }));
                    view_fields.push(quote!(#(#doc)* pub #name: #ty,));
                }
            }
            view_inits.push(if serde.default {
                quote!(#name: #slot.unwrap_or_default(),)
            } else {
                quote!(#name: #slot.ok_or_else(::jerry_contracts::__private::skim::fail)?,)
            });
        } else {
            keep_arms.push(quote!(#json => { #duplicate #skimmed }));
        }
        if !serde.default {
            required.push(at);
        }
        index += 1;
    }
    let count = index;
    let skim = visitor(&expecting, count, &required, &arms, &[], quote!(()), quote!(()));
    let mut tokens = quote! {
        impl ::jerry_contracts::__private::skim::Skim for #ident {
            fn skim<'de, __D: ::serde::Deserializer<'de>>(
                __d: __D,
                __cx: &mut ::jerry_contracts::__private::skim::Cx<'de>,
            ) -> ::std::result::Result<(), __D::Error> {
                #skim
            }
        }
    };
    if !view_fields.is_empty() {
        let view = format_ident!("{ident}Kept");
        let doc = format!(" What the rule layers read of a skimmed `{ident}`.");
        let value = quote!(#view { #(#view_inits)* _input: ::std::marker::PhantomData });
        let keep = visitor(&expecting, count, &required, &keep_arms, &slots, quote!(#view<'de>), value);
        tokens.extend(quote! {
            #[doc = #doc]
            #[doc(hidden)]
            #[derive(Clone, Debug)]
            pub struct #view<'de> {
                #(#view_fields)*
                /// The input the view borrows from.
                pub _input: ::std::marker::PhantomData<&'de str>,
            }
            impl ::jerry_contracts::__private::skim::Keep for #ident {
                type View<'de> = #view<'de>;
                fn keep<'de, __D: ::serde::Deserializer<'de>>(
                    __d: __D,
                    __cx: &mut ::jerry_contracts::__private::skim::Cx<'de>,
                ) -> ::std::result::Result<#view<'de>, __D::Error> {
                    #keep
                }
            }
        });
    }
    Ok(tokens)
}

/// The body of a skim (or keep) of an object: one pass over its members with these arms.
fn visitor(
    expecting: &str,
    count: usize,
    required: &[usize],
    arms: &[TokenStream],
    slots: &[TokenStream],
    value_type: TokenStream,
    value: TokenStream,
) -> TokenStream {
    quote! {
        struct __Visitor<'c, 'de>(&'c mut ::jerry_contracts::__private::skim::Cx<'de>);
        impl<'de> ::serde::de::Visitor<'de> for __Visitor<'_, 'de> {
            type Value = #value_type;
            fn expecting(&self, __f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                __f.write_str(#expecting)
            }
            #[allow(unused_mut)]
            fn visit_map<__A: ::serde::de::MapAccess<'de>>(self, mut __map: __A) -> ::std::result::Result<#value_type, __A::Error> {
                let __cx = self.0;
                let _ = &__cx;
                let mut __seen = [false; #count];
                let mut __unknown = ::jerry_contracts::__private::skim::Unknown::default();
                #(#slots)*
                while let ::std::option::Option::Some(__key) =
                    ::serde::de::MapAccess::next_key::<::jerry_contracts::__private::read::Key<'de>>(&mut __map)?
                {
                    match __key.0.as_ref() {
                        #(#arms)*
                        _ => __unknown.skip(&mut __map, __key)?,
                    }
                }
                if #(!__seen[#required] ||)* false {
                    return ::std::result::Result::Err(::jerry_contracts::__private::skim::fail());
                }
                ::std::result::Result::Ok(#value)
            }
        }
        ::serde::Deserializer::deserialize_map(__d, __Visitor(__cx))
    }
}

/// A member the rule layers read: a value with a `Keep` view (or a list of them) is skimmed and
/// only its kept fields read; anything else is read whole. Either way the context gets it by name.
fn capture(field: &syn::Field, serde: &FieldSerde, rules: &[Rule], json: &str, skim: &FieldSkim) -> TokenStream {
    let (inner, optional) = value_type(&field.ty, serde);
    let only_dive = rules.iter().all(|r| matches!(r, Rule::Dive));
    let text = inner.and_then(|ty| text_rules(ty, rules, skim.text));
    let seed = inner.filter(|_| only_dive || text.is_some()).and_then(|ty| {
        if let Some(text) = text {
            Some(quote!(::jerry_contracts::__private::skim::TextKeep(#text)))
        } else if !skim.kept {
            None
        } else if let Some(item) = generic_argument(ty, "Vec") {
            Some(quote!(::jerry_contracts::__private::skim::KeepItems::<#item>::new(&mut *__cx)))
        } else {
            Some(quote!(::jerry_contracts::__private::skim::KeepSeed::<#ty>::new(&mut *__cx)))
        }
    });
    match seed {
        Some(seed) => {
            let wrap = if optional { quote!(::std::option::Option::Some(__v)) } else { quote!(__v) };
            quote! {{
                let __v = ::serde::de::MapAccess::next_value_seed(&mut __map, #seed)?;
                ::jerry_contracts::__private::skim::Capture::capture(#wrap, &mut *__cx, #json);
            }}
        }
        None => {
            // Read whole (checked as the typed read and `garde` check it).
            let whole = whole(&field.ty, &field.attrs, serde);
            quote! {{
                let __v = #whole;
                ::jerry_contracts::__private::skim::Capture::capture(__v, &mut *__cx, #json);
            }}
        }
    }
}

/// The type of a member's value when it is there, and whether the member is optional: `None`
/// for a member read any other way than plainly or through `present` (which refuses `null`).
fn value_type<'t>(ty: &'t Type, serde: &FieldSerde) -> (Option<&'t Type>, bool) {
    match serde.with().as_deref() {
        Some("present") => (option_inner(ty), true),
        None if option_inner(ty).is_none() => (Some(ty), false),
        _ => (None, false),
    }
}

/// Reads the field whole, as the typed read does (its `deserialize_with` included), and checks
/// its `garde` attribute on it; evaluates to the value.
fn whole(ty: &Type, attrs: &[Attribute], serde: &FieldSerde) -> TokenStream {
    let (defs, check) = checker(ty, attrs);
    if holds_json_value(ty) {
        let read = crate::object::strict_read(ty, None, serde.deserialize_with.as_ref());
        return quote! {{
            #defs
            let __v = #read;
            ::jerry_contracts::__private::skim::Whole::<#check>::checked(__v)?
        }};
    }
    match &serde.deserialize_with {
        Some(path) => quote! {{
            #defs
            struct __With(#ty);
            impl<'de> ::serde::Deserialize<'de> for __With {
                fn deserialize<__D2: ::serde::Deserializer<'de>>(__d: __D2) -> ::std::result::Result<Self, __D2::Error> {
                    #path(__d).map(__With)
                }
            }
            let __v = ::serde::de::MapAccess::next_value::<__With>(&mut __map)?.0;
            ::jerry_contracts::__private::skim::Whole::<#check>::checked(__v)?
        }},
        None => quote! {{
            #defs
            let __v = ::serde::de::MapAccess::next_value::<#ty>(&mut __map)?;
            ::jerry_contracts::__private::skim::Whole::<#check>::checked(__v)?
        }},
    }
}

/// A one-field struct carrying the field's `garde` attribute, so that `garde` checks a value read
/// whole exactly as it checks the field: its definition, and the type to name.
fn checker(ty: &Type, attrs: &[Attribute]) -> (TokenStream, TokenStream) {
    let garde: Vec<&Attribute> = attrs.iter().filter(|a| a.path().is_ident("garde")).collect();
    if garde.is_empty() {
        return (quote!(), quote!(::jerry_contracts::__private::skim::Unchecked<#ty>));
    }
    let defs = quote! {
        #[derive(::garde::Validate)]
        struct __Check(#(#garde)* #ty);
        impl ::jerry_contracts::__private::skim::Checked for __Check {
            type Value = #ty;
            fn wrap(value: #ty) -> Self { Self(value) }
            fn unwrap(self) -> #ty { self.0 }
        }
    };
    (defs, quote!(__Check))
}

/// The seed that skims a field of type `ty` with these rules, as its serde attributes read it;
/// `None` when the derive reads the field whole.
fn field_seed(ty: &Type, rules: &[Rule], serde: &FieldSerde) -> Option<TokenStream> {
    let nullable = |inner: Option<&Type>| -> Option<TokenStream> {
        let seed = value_seed(inner?, rules)?;
        Some(quote!(::jerry_contracts::__private::skim::Nullable(#seed)))
    };
    match serde.with().as_deref() {
        // The value must be there: the seed of the inner type, which refuses `null` as it does.
        Some("present") => option_inner(ty).and_then(|inner| value_seed(inner, rules)),
        Some("required_nullable") => nullable(option_inner(ty)),
        Some("::jerry_contracts::__private::double_option::deserialize") => {
            nullable(option_inner(ty).and_then(option_inner))
        }
        Some(_) => None,
        None => match option_inner(ty) {
            Some(inner) => nullable(Some(inner)),
            None => value_seed(ty, rules),
        },
    }
}

/// The seed for a value of type `ty` (not an `Option` read as absent-or-null) with these rules,
/// or `None` when the rules need the value whole.
fn value_seed(ty: &Type, rules: &[Rule]) -> Option<TokenStream> {
    let shown_ty = shown(ty);
    if shown_ty == "::std::string::String" {
        let (mut min, mut max, mut pattern, mut uri, mut uri_reference) =
            (quote!(0), quote!(::std::primitive::usize::MAX), quote!(::std::option::Option::None), false, false);
        for rule in rules {
            match rule {
                Rule::Length { chars: true, min: low, max: high } => {
                    bound(&mut min, low.as_ref(), |v| quote!(#v));
                    bound(&mut max, high.as_ref(), |v| quote!(#v));
                }
                Rule::Pattern(ident) => pattern = quote!(::std::option::Option::Some(&#ident)),
                Rule::Custom(path) if path == "::jerry_contracts::__private::uri" => uri = true,
                Rule::Custom(path) if path == "::jerry_contracts::__private::uri_reference" => uri_reference = true,
                _ => return None,
            }
        }
        return Some(quote! {
            ::jerry_contracts::__private::skim::Text { min: #min, max: #max, pattern: #pattern, uri: #uri, uri_reference: #uri_reference }
        });
    }
    if let Some(number) = shown_ty.strip_prefix("::jerry_contracts::Number<").and_then(|s| s.strip_suffix('>')) {
        let number: Type = syn::parse_str(number).ok()?;
        let (mut min, mut max) = (quote!(::std::option::Option::None), quote!(::std::option::Option::None));
        for rule in rules {
            match rule {
                Rule::Range { min: low, max: high } => {
                    bound(&mut min, low.as_ref(), |v| quote!(::std::option::Option::Some(#v)));
                    bound(&mut max, high.as_ref(), |v| quote!(::std::option::Option::Some(#v)));
                }
                Rule::Custom(path) if path == "::jerry_contracts::__private::finite" => {}
                _ => return None,
            }
        }
        return Some(quote!(::jerry_contracts::__private::skim::Range::<#number> { min: #min, max: #max }));
    }
    if let Some(value) = map_value(ty).filter(|v| skims(v)) {
        let (min, max) = count_bounds(rules)?;
        return Some(quote! {
            ::jerry_contracts::__private::skim::Members::<#value> { cx: &mut *__cx, min: #min, max: #max, value: ::std::marker::PhantomData }
        });
    }
    if let Some(item) = generic_argument(ty, "Vec").filter(|i| skims(i)) {
        let (min, max) = count_bounds(rules)?;
        return Some(quote! {
            ::jerry_contracts::__private::skim::Items::<#item> { cx: &mut *__cx, min: #min, max: #max, item: ::std::marker::PhantomData }
        });
    }
    if (is_generated(ty) || rules.is_empty()) && rules.iter().all(|r| matches!(r, Rule::Dive)) && skims(ty) {
        return Some(quote!(::jerry_contracts::__private::skim::Seed::<#ty>::new(&mut *__cx)));
    }
    None
}

/// The fewest and most entries of an array or a map under these rules (`garde`'s `length` on the
/// count, `dive` on each entry), or `None` when a rule needs the value whole.
fn count_bounds(rules: &[Rule]) -> Option<(TokenStream, TokenStream)> {
    let (mut min, mut max) = (quote!(0), quote!(::std::primitive::usize::MAX));
    for rule in rules {
        match rule {
            Rule::Length { chars: false, min: low, max: high } => {
                bound(&mut min, low.as_ref(), |v| quote!(#v));
                bound(&mut max, high.as_ref(), |v| quote!(#v));
            }
            Rule::Dive => {}
            _ => return None,
        }
    }
    Some((min, max))
}

/// Replaces a default bound with the rule's, when the rule gives one.
fn bound(slot: &mut TokenStream, given: Option<&TokenStream>, make: impl Fn(&TokenStream) -> TokenStream) {
    if let Some(value) = given {
        *slot = make(value);
    }
}

/// Whether `ty` implements `Skim` (the generated types and the ones the runtime covers).
fn skims(ty: &Type) -> bool {
    if let Some(inner) = ["Vec", "Option", "Box"].iter().find_map(|name| generic_argument(ty, name)) {
        return skims(inner);
    }
    if let Some(value) = map_value(ty) {
        return skims(value);
    }
    matches!(
        shown(ty).as_str(),
        "::std::string::String"
            | "bool"
            | "::jerry_contracts::Number<f64>"
            | "::jerry_contracts::Number<i64>"
            | "::jerry_contracts::formats::Date"
            | "::jerry_contracts::formats::DateTime"
            | "::jerry_contracts::formats::Uuid"
            | "::jerry_contracts::constant::True"
            | "::serde_json::Value"
    ) || is_generated(ty)
}
