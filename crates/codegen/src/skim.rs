//! The skim pass: emits `jerry_contracts::__private::skim::Skim` for every generated struct, newtype and
//! enum — a check-only read that accepts exactly what the typed read plus `validate()` accepts,
//! without building the value. It reads the same attributes those use: each field's serde
//! attributes (name, `default`, `deserialize_with`) and its `garde` rules. A string field's rules
//! run on the string where it lies in the input, a number's on the number, an array's count as
//! its items go by; a field whose rules the pass does not take apart is read whole and checked by
//! `garde` itself, through a one-field struct carrying the same attribute, so no rule can drift.
//! It runs before the serde pass, while the fields still carry plain `#[serde(…)]` attributes.
//!
//! A few fields of the roots the rule layers judge (the v1.1.0 envelope, the agent outputs) are
//! read whole and handed to the skim's context, so the rules can run on a skimmed document.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::{Attribute, Fields, Item, Meta, Token, Type};

use crate::attributes::option_inner;
use crate::corpus::Problem;
use crate::plan::Plan;
use crate::serde_impls::{FieldSerde, field_serde};

/// The members the rule layers read, per schema root: read whole and handed to the context.
const CAPTURES: &[(&str, &[&str])] = &[(
    "session_context/v1.1.0.json",
    &[
        "schema_version",
        "session_id",
        "source_agent",
        "target_agent",
        "trace",
        "payload_schema_ref",
        "workflow_id",
        "workflow_state",
    ],
)];

/// The types the rules read a few fields of, and those fields: a captured member of one of these
/// types is skimmed, and only these fields read whole (into a generated `<Type>Kept`).
const KEEPS: &[(&str, &[&str])] = &[
    ("AgentReference", &["id", "family"]),
    ("Trace", &["depth", "span_id", "trace_id"]),
    ("ConfidenceScore", &["overall", "reasoning"]),
    ("ArtifactReference", &["path", "checksum", "size_bytes"]),
    ("CheckedArtifactReference", &["path", "checksum", "size_bytes"]),
];

/// What every agent output hands to the context.
const OUTPUT_CAPTURES: &[&str] = &["confidence", "artifacts", "disclaimer_included"];

/// One `garde` rule of a field, as the attribute pass writes it.
enum Rule {
    Dive,
    Length { chars: bool, min: Option<TokenStream>, max: Option<TokenStream> },
    Range { min: Option<TokenStream>, max: Option<TokenStream> },
    Pattern(syn::Ident),
    Custom(String),
}

/// The skim impls for the generated items.
pub fn impls(file: &syn::File, plan: &Plan) -> Result<Vec<TokenStream>, Vec<Problem>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let texts = texts(file);
    for item in &file.items {
        let (ident, result) = match item {
            Item::Struct(item) => (&item.ident, structure(item, plan, &texts)),
            Item::Enum(item) => (&item.ident, Ok(by_reading(&item.ident))),
            _ => continue,
        };
        match result {
            Ok(tokens) => out.push(tokens),
            Err(message) => {
                let (file, pointer) = plan
                    .get(&ident.to_string())
                    .map_or((String::new(), String::new()), |d| (d.file.clone(), d.pointer.clone()));
                problems.push(Problem::new(&file, &pointer, format!("skim pass: {message}")));
            }
        }
    }
    if problems.is_empty() { Ok(out) } else { Err(problems) }
}

/// The string newtypes (`SessionId`, `AgentId`, …) and the `Text` rules of each: a kept or
/// captured member of one is taken as text where it lies in the input.
type Texts = std::collections::HashMap<String, TokenStream>;

fn texts(file: &syn::File) -> Texts {
    let mut texts = Texts::new();
    for item in &file.items {
        let Item::Struct(item) = item else { continue };
        let Fields::Unnamed(fields) = &item.fields else { continue };
        let Some(field) = fields.unnamed.first().filter(|_| fields.unnamed.len() == 1) else { continue };
        let transparent = item.attrs.iter().any(|a| {
            a.path().is_ident("serde") && matches!(&a.meta, Meta::List(l) if l.tokens.to_string() == "transparent")
        });
        let Ok(rules) = garde_rules(&field.attrs) else { continue };
        if transparent && let Some(seed) = text_rules(&field.ty, &rules, &Texts::new()) {
            texts.insert(item.ident.to_string(), seed);
        }
    }
    texts
}

/// The `Text` rules of a value of type `ty` under these field rules, when it is a string or a
/// string newtype.
fn text_rules(ty: &Type, rules: &[Rule], texts: &Texts) -> Option<TokenStream> {
    if quote!(#ty).to_string().replace(' ', "") == "::std::string::String" {
        return value_seed(ty, rules);
    }
    let Type::Path(p) = ty else { return None };
    let ident = p.path.get_ident()?;
    texts.get(&ident.to_string()).filter(|_| rules.iter().all(|r| matches!(r, Rule::Dive))).cloned()
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

fn structure(item: &syn::ItemStruct, plan: &Plan, texts: &Texts) -> Result<TokenStream, String> {
    let ident = &item.ident;
    match &item.fields {
        Fields::Named(fields) => {
            let def = plan.get(&ident.to_string());
            let captures: &[&str] = match def {
                Some(def) if def.pointer.is_empty() => CAPTURES
                    .iter()
                    .find(|(file, _)| *file == def.file)
                    .map(|(_, names)| *names)
                    .or_else(|| def.file.starts_with("agents/").then_some(OUTPUT_CAPTURES))
                    .unwrap_or(&[]),
                _ => &[],
            };
            named(ident, fields, captures, texts)
        }
        Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
            let Some(field) = fields.unnamed.first() else { return Err("an empty newtype".into()) };
            let transparent = item.attrs.iter().any(|a| {
                a.path().is_ident("serde") && matches!(&a.meta, Meta::List(l) if l.tokens.to_string() == "transparent")
            });
            if !transparent {
                return Err("a newtype the derive does not read as its field".into());
            }
            let rules = garde_rules(&field.attrs)?;
            let (defs, seed) = match value_seed(&field.ty, &rules) {
                Some(seed) => (quote!(), seed),
                None => {
                    let (defs, check) = checker(&field.ty, &field.attrs);
                    (defs, quote!(::jerry_contracts::__private::skim::Whole::<#check>::new()))
                }
            };
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
            })
        }
        _ => Err("a struct that is neither named fields nor a newtype".into()),
    }
}

fn named(
    ident: &syn::Ident,
    fields: &syn::FieldsNamed,
    captures: &[&str],
    texts: &Texts,
) -> Result<TokenStream, String> {
    let expecting = format!("an object ({ident})");
    let kept: &[&str] = KEEPS.iter().find(|(name, _)| ident == name).map_or(&[], |(_, fields)| *fields);
    let mut arms = Vec::new();
    let mut keep_arms = Vec::new();
    let mut slots = Vec::new();
    let mut view_fields = Vec::new();
    let mut view_inits = Vec::new();
    let mut required = Vec::new();
    let mut index = 0usize;
    for field in &fields.named {
        let serde = field_serde(&field.attrs)?;
        let name = field.ident.as_ref().ok_or("a field without a name")?;
        if serde.flatten {
            continue;
        }
        let json = serde.rename.clone().unwrap_or_else(|| name.to_string().trim_start_matches("r#").to_owned());
        let rules = garde_rules(&field.attrs)?;
        let skimmed = match field_seed(&field.ty, &rules, &serde)? {
            Some(seed) => quote!(::serde::de::MapAccess::next_value_seed(&mut __map, #seed)?;),
            None => {
                let whole = whole(&field.ty, &field.attrs, &serde);
                quote!({ let _ = #whole; })
            }
        };
        let read = if captures.contains(&json.as_str()) {
            capture(field, &serde, &rules, &json, texts)
        } else {
            skimmed.clone()
        };
        let at = index;
        let duplicate = quote! {
            if __seen[#at] {
                return ::std::result::Result::Err(::jerry_contracts::__private::skim::fail());
            }
            __seen[#at] = true;
        };
        arms.push(quote!(#json => { #duplicate #read }));
        if kept.contains(&json.as_str()) {
            let slot = format_ident!("__k{at}");
            // The typed field's docs: its description and constraints (none that only names it).
            let doc: Vec<&syn::Attribute> = field.attrs.iter().filter(|a| a.path().is_ident("doc")).collect();
            let (inner, optional) = value_type(&field.ty, &serde);
            match inner.and_then(|inner| text_rules(&inner, &rules, texts)) {
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
    if !kept.is_empty() {
        if view_fields.len() != kept.len() {
            return Err(format!("the rules keep fields {kept:?}, which it does not have all of"));
        }
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

/// A member the rule layers read: a type of [`KEEPS`] (or a list of one) is skimmed and only its
/// kept fields read; anything else is read whole. Either way the context gets it by name.
fn capture(field: &syn::Field, serde: &FieldSerde, rules: &[Rule], json: &str, texts: &Texts) -> TokenStream {
    let (inner, optional) = value_type(&field.ty, serde);
    let kept = |ty: &Type| KEEPS.iter().any(|(name, _)| matches!(ty, Type::Path(p) if p.path.is_ident(name)));
    let only_dive = rules.iter().all(|r| matches!(r, Rule::Dive));
    let text = inner.as_ref().and_then(|ty| text_rules(ty, rules, texts));
    let seed = inner.filter(|_| only_dive || text.is_some()).and_then(|ty| {
        if let Some(text) = text {
            Some(quote!(::jerry_contracts::__private::skim::TextKeep(#text)))
        } else if kept(&ty) {
            Some(quote!(::jerry_contracts::__private::skim::KeepSeed::<#ty>::new(&mut *__cx)))
        } else {
            generic_argument(&ty, "Vec")
                .filter(kept)
                .map(|item| quote!(::jerry_contracts::__private::skim::KeepItems::<#item>::new(&mut *__cx)))
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
fn value_type(ty: &Type, serde: &FieldSerde) -> (Option<Type>, bool) {
    let with = serde.deserialize_with.as_ref().map(|p| quote!(#p).to_string().replace(' ', ""));
    match with.as_deref() {
        Some("present") => (option_inner(ty).cloned(), true),
        None if option_inner(ty).is_none() => (Some(ty.clone()), false),
        _ => (None, false),
    }
}

/// Reads the field whole, as the typed read does (its `deserialize_with` included), and checks
/// its `garde` attribute on it; evaluates to the value.
fn whole(ty: &Type, attrs: &[Attribute], serde: &FieldSerde) -> TokenStream {
    let (defs, check) = checker(ty, attrs);
    if crate::serde_impls::holds_json_value(ty) {
        let read = crate::serde_impls::strict_read(ty, serde.deserialize_with.as_ref());
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
/// `None` when the pass reads the field whole.
fn field_seed(ty: &Type, rules: &[Rule], serde: &FieldSerde) -> Result<Option<TokenStream>, String> {
    let with = serde.deserialize_with.as_ref().map(|p| quote!(#p).to_string().replace(' ', ""));
    let nullable = |inner: Option<&Type>| -> Option<TokenStream> {
        let seed = value_seed(inner?, rules)?;
        Some(quote!(::jerry_contracts::__private::skim::Nullable(#seed)))
    };
    Ok(match with.as_deref() {
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
    })
}

/// The seed for a value of type `ty` (not an `Option` read as absent-or-null) with these rules,
/// or `None` when the rules need the value whole.
fn value_seed(ty: &Type, rules: &[Rule]) -> Option<TokenStream> {
    let shown = quote!(#ty).to_string().replace(' ', "");
    if shown == "::std::string::String" {
        let (mut min, mut max, mut pattern, mut uri, mut uri_reference) =
            (quote!(0), quote!(::std::primitive::usize::MAX), quote!(::std::option::Option::None), false, false);
        for rule in rules {
            match rule {
                Rule::Length { chars: true, min: low, max: high } => {
                    bound(&mut min, low, |v| quote!(#v));
                    bound(&mut max, high, |v| quote!(#v));
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
    if let Some(number) = shown.strip_prefix("::jerry_contracts::Number<").and_then(|s| s.strip_suffix('>')) {
        let number: Type = syn::parse_str(number).ok()?;
        let (mut min, mut max) = (quote!(::std::option::Option::None), quote!(::std::option::Option::None));
        for rule in rules {
            match rule {
                Rule::Range { min: low, max: high } => {
                    bound(&mut min, low, |v| quote!(::std::option::Option::Some(#v)));
                    bound(&mut max, high, |v| quote!(::std::option::Option::Some(#v)));
                }
                Rule::Custom(path) if path == "::jerry_contracts::__private::finite" => {}
                _ => return None,
            }
        }
        return Some(quote!(::jerry_contracts::__private::skim::Range::<#number> { min: #min, max: #max }));
    }
    if let Some(value) = map_value(ty).filter(skims) {
        let (min, max) = count_bounds(rules)?;
        return Some(quote! {
            ::jerry_contracts::__private::skim::Members::<#value> { cx: &mut *__cx, min: #min, max: #max, value: ::std::marker::PhantomData }
        });
    }
    if let Some(item) = generic_argument(ty, "Vec").filter(skims) {
        let (min, max) = count_bounds(rules)?;
        return Some(quote! {
            ::jerry_contracts::__private::skim::Items::<#item> { cx: &mut *__cx, min: #min, max: #max, item: ::std::marker::PhantomData }
        });
    }
    let generated = is_generated(ty);
    if (generated || rules.is_empty()) && rules.iter().all(|r| matches!(r, Rule::Dive)) && skims(ty) {
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
                bound(&mut min, low, |v| quote!(#v));
                bound(&mut max, high, |v| quote!(#v));
            }
            Rule::Dive => {}
            _ => return None,
        }
    }
    Some((min, max))
}

/// Replaces a default bound with the rule's, when the rule gives one.
fn bound(slot: &mut TokenStream, given: &Option<TokenStream>, make: impl Fn(&TokenStream) -> TokenStream) {
    if let Some(value) = given {
        *slot = make(value);
    }
}

/// Whether `ty` implements `Skim` (the generated types and the ones the runtime covers).
fn skims(ty: &Type) -> bool {
    let shown = quote!(#ty).to_string().replace(' ', "");
    if let Some(inner) = ["Vec", "Option", "Box"].iter().find_map(|name| generic_argument(ty, name)) {
        return skims(&inner);
    }
    if let Some(value) = map_value(ty) {
        return skims(&value);
    }
    matches!(
        shown.as_str(),
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

/// Whether `ty` names a generated type (`ResearcherOutput`, `crate::generated::V11Payload`).
fn is_generated(ty: &Type) -> bool {
    let Type::Path(p) = ty else { return false };
    let plain = p.path.segments.iter().all(|s| s.arguments.is_none());
    let local = match p.path.segments.len() {
        1 => true,
        3 => p.path.segments[0].ident == "crate" && p.path.segments[1].ident == "generated",
        _ => false,
    };
    p.qself.is_none() && p.path.leading_colon.is_none() && plain && local
}

/// The `T` of `::std::collections::BTreeMap<::std::string::String, T>` (an object read as a map).
pub(crate) fn map_value(ty: &Type) -> Option<Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "BTreeMap" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match (args.args.first()?, args.args.get(1)?) {
        (syn::GenericArgument::Type(key), syn::GenericArgument::Type(value))
            if args.args.len() == 2 && quote!(#key).to_string().replace(' ', "") == "::std::string::String" =>
        {
            Some(value.clone())
        }
        _ => None,
    }
}

/// The `T` of `::std::…::Name<T>`.
fn generic_argument(ty: &Type, name: &str) -> Option<Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner.clone()),
        _ => None,
    }
}

/// The field's `garde` rules; `skip` is none, and a rule the pass does not know is an error
/// (the pass would otherwise accept what `garde` refuses).
fn garde_rules(attrs: &[Attribute]) -> Result<Vec<Rule>, String> {
    let mut rules = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("garde")) {
        let metas = a
            .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            .map_err(|e| format!("garde attribute {}: {e}", quote!(#a)))?;
        for meta in metas {
            let unknown = || format!("garde rule {} the skim pass does not carry", quote!(#meta));
            match &meta {
                Meta::Path(p) if p.is_ident("dive") => rules.push(Rule::Dive),
                Meta::Path(p) if p.is_ident("skip") || p.is_ident("transparent") => {}
                Meta::List(list) if list.path.is_ident("pattern") => {
                    rules.push(Rule::Pattern(list.parse_args().map_err(|_| unknown())?));
                }
                Meta::List(list) if list.path.is_ident("custom") => {
                    rules.push(Rule::Custom(list.tokens.to_string().replace(' ', "")));
                }
                Meta::List(list) if list.path.is_ident("length") || list.path.is_ident("range") => {
                    let inner =
                        list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated).map_err(|_| unknown())?;
                    let (mut chars, mut min, mut max) = (false, None, None);
                    for part in inner {
                        match part {
                            Meta::Path(p) if p.is_ident("chars") => chars = true,
                            Meta::NameValue(nv) if nv.path.is_ident("min") => {
                                let v = &nv.value;
                                min = Some(quote!(#v));
                            }
                            Meta::NameValue(nv) if nv.path.is_ident("max") => {
                                let v = &nv.value;
                                max = Some(quote!(#v));
                            }
                            _ => return Err(unknown()),
                        }
                    }
                    rules.push(if list.path.is_ident("length") {
                        Rule::Length { chars, min, max }
                    } else {
                        if chars {
                            return Err(unknown());
                        }
                        Rule::Range { min, max }
                    });
                }
                _ => return Err(unknown()),
            }
        }
    }
    Ok(rules)
}
