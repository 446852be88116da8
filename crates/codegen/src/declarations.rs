//! The Rust declarations of the shapes typify works out, written by this crate from typify's
//! type space (its public, typed API: each named type's kind, fields, variants and the type
//! identifiers of their values), not from the code typify would print. What typify keeps to
//! itself comes from the schema typify was given (the lowered schema of each planned type): the
//! type's description, each property's name in JSON, each string variant's value. The later
//! passes complete these declarations (the attribute pass first).
//!
//! The declarations are the ones typify 0.8 writes for the shapes the planner gives it (named
//! structs, newtypes of an unconstrained value, enums of strings); anything else, and any type
//! typify names that the plan does not have, is a problem naming the schema file and pointer.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schemars08::schema::{Schema, SchemaObject};
use typify::{TypeDetails, TypeEnumVariant, TypeSpace, TypeSpaceImpl};

use crate::corpus::Problem;
use crate::plan::{FLAT_MODULE, Plan, TypeDef};

/// What the declarations say that the later passes need, so that none of them reads it back
/// from the attributes written here: each field's and each variant's name in JSON, and which
/// structs are newtypes.
#[derive(Debug, Default)]
pub struct Declared {
    /// Struct (flat name) → its fields as (Rust field, JSON member), in declaration order.
    fields: BTreeMap<String, Vec<(String, String)>>,
    /// String enum (flat name) → its variants as (Rust variant, JSON value).
    variants: BTreeMap<String, Vec<(String, String)>>,
    /// The newtypes (a `#[serde(transparent)]` struct of one value).
    newtypes: BTreeSet<String>,
    /// The checked newtypes: a string the schema constrains, built only through the
    /// constructors the newtypes pass writes (its field is private).
    checked: BTreeSet<String>,
    /// The types whose declaration has a doc (one that says more than the type's name).
    documented: BTreeSet<String>,
    /// The struct fields, as (flat name, Rust field), whose declaration has a doc.
    documented_fields: BTreeSet<(String, String)>,
}

impl Declared {
    /// The JSON member that field `field` of struct `flat` holds.
    pub fn member(&self, flat: &str, field: &str) -> Option<&str> {
        self.fields.get(flat)?.iter().find(|(rust, _)| rust == field).map(|(_, json)| json.as_str())
    }

    /// The JSON value of variant `variant` of enum `flat`.
    pub fn value(&self, flat: &str, variant: &str) -> Option<&str> {
        self.variants.get(flat)?.iter().find(|(rust, _)| rust == variant).map(|(_, json)| json.as_str())
    }

    /// Whether `flat` is a newtype.
    pub fn is_newtype(&self, flat: &str) -> bool {
        self.newtypes.contains(flat)
    }

    /// The checked newtypes, by flat name.
    pub fn checked(&self) -> impl Iterator<Item = &str> {
        self.checked.iter().map(String::as_str)
    }

    /// Whether the declaration of type `flat` has a doc.
    pub fn is_documented(&self, flat: &str) -> bool {
        self.documented.contains(flat)
    }

    /// Whether field `field` of struct `flat` has a doc.
    pub fn is_field_documented(&self, flat: &str, field: &str) -> bool {
        self.documented_fields.contains(&(flat.to_owned(), field.to_owned()))
    }
}

/// Every named type of `space` (built from `schemas`, the schema typify was given for each
/// planned type, by flat name), in name order; and what they declare.
pub fn render(
    space: &TypeSpace,
    plan: &Plan,
    schemas: &BTreeMap<String, Schema>,
) -> Result<(TokenStream, Declared), Vec<Problem>> {
    let mut items = BTreeMap::new();
    let mut declared = Declared::default();
    let mut problems = Vec::new();
    for ty in space.iter_types() {
        let details = ty.details();
        if !matches!(details, TypeDetails::Struct(_) | TypeDetails::Enum(_) | TypeDetails::Newtype(_)) {
            continue;
        }
        let name = ty.name();
        let (Some(def), Some(schema)) = (plan.get(&name), schemas.get(&name)) else {
            problems.push(Problem::new("schemas/", "", format!("typify named a type {name} the plan does not have")));
            continue;
        };
        let Schema::Object(schema) = schema else {
            problems.push(Problem::new(&def.file, &def.pointer, "a boolean schema has no declaration"));
            continue;
        };
        let rendered = match details {
            TypeDetails::Struct(shape) => structure(space, def, schema, &shape, &mut declared),
            TypeDetails::Enum(shape) => enumeration(def, schema, &shape, &mut declared),
            TypeDetails::Newtype(shape) => newtype(space, def, schema, &shape, &mut declared),
            _ => continue,
        };
        match rendered {
            Ok(tokens) => {
                items.insert(name, tokens);
            }
            Err(problem) => problems.push(problem),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let items = items.into_values();
    // typify also prints a `ConversionError` for its conversions; the declarations write none
    // that would use it.
    let tokens = quote!(#(#items)*);
    Ok((tokens, declared))
}

/// The type's doc: the schema's description, unless all it says is the type's name (typify's
/// own doc of a type without a description is its name).
fn doc(def: &TypeDef, schema: &SchemaObject, declared: &mut Declared) -> Option<TokenStream> {
    let text = schema.metadata.as_ref().and_then(|m| m.description.clone())?;
    says_more(&text, &[&def.public, &def.flat]).then(|| {
        declared.documented.insert(def.flat.clone());
        quote!(#[doc = #text])
    })
}

/// Whether a doc says more than one of `names` (a field's, a type's), which the item's signature
/// says already.
pub(crate) fn says_more(text: &str, names: &[&str]) -> bool {
    let text = gist(text);
    !text.is_empty() && names.iter().all(|name| gist(name.trim_start_matches("r#")) != text)
}

/// A doc or a name reduced to what it says: lower case, without backticks, `_`, `-`, spaces, a
/// leading article or a final full stop (`The agent id.`, `` `agent_id` `` and `AgentId` agree).
fn gist(text: &str) -> String {
    let text = text.trim().trim_end_matches('.').to_lowercase();
    let text = ["the ", "a ", "an "].iter().find_map(|article| text.strip_prefix(article)).unwrap_or(&text);
    text.chars().filter(|c| !matches!(c, '`' | '_' | '-' | ' ' | '\n' | '\t')).collect()
}

/// The names of serde's derives, which the generated module imports
/// (`use ::serde::{Deserialize, Serialize};`), so that a type's derive list fits on one line; no
/// generated type may take one of them.
pub const SERDE_DERIVES: [&str; 2] = ["Deserialize", "Serialize"];

/// The derives, in typify's (sorted) order; serde's by their imported names.
fn derives(names: &[&str]) -> TokenStream {
    let mut sorted: Vec<&str> = names.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let paths = sorted.iter().map(|name| {
        let name = name.strip_prefix("::serde::").filter(|name| SERDE_DERIVES.contains(name)).unwrap_or(name);
        syn::parse_str::<syn::Path>(name).map_or_else(|_| quote!(), |p| quote!(#p))
    });
    quote!(#[derive(#(#paths),*)])
}

/// The Rust identifier of the type `id` names. A payload dispatch enum, which typify knows as an
/// external type of `jerry_contracts`'s generated module, is named in the generated module of
/// the crate that includes the code (the library's, or the conformance corpus's).
fn ident(space: &TypeSpace, def: &TypeDef, id: &typify::TypeId) -> Result<TokenStream, Problem> {
    let ident = space
        .get_type(id)
        .map(|t| t.ident())
        .map_err(|e| Problem::new(&def.file, &def.pointer, format!("typify has no type for a member: {e}")))?;
    let external = format!(":: jerry_contracts :: {FLAT_MODULE} ::");
    let text = ident.to_string();
    if !text.contains(&external) {
        return Ok(ident);
    }
    text.replace(&external, &format!("crate :: {FLAT_MODULE} ::"))
        .parse()
        .map_err(|e| Problem::new(&def.file, &def.pointer, format!("the type of a member does not parse: {e}")))
}

/// A struct with named fields, as typify declares it but for serde: no serde derive (the serde
/// pass derives the one-pass `Object`) and no serde attribute on a field (the attribute pass
/// writes each field's; typify's `rename` of a member whose name is not the field's is the
/// field's JSON member in [`Declared`]).
fn structure(
    space: &TypeSpace,
    def: &TypeDef,
    schema: &SchemaObject,
    shape: &typify::TypeStruct<'_>,
    declared: &mut Declared,
) -> Result<TokenStream, Problem> {
    // typify reads the properties in the order of the schema it was given; its fields follow it.
    let names: Vec<&String> = schema.object.as_ref().map(|o| o.properties.keys().collect()).unwrap_or_default();
    let properties: Vec<typify::TypeStructPropInfo<'_>> = shape.properties_info().collect();
    if names.len() != properties.len() {
        return Err(Problem::new(
            &def.file,
            &def.pointer,
            format!("typify made {} fields of {} properties", properties.len(), names.len()),
        ));
    }
    let mut fields = Vec::new();
    let mut members = Vec::new();
    let mut every_optional = true;
    for (json, property) in names.iter().zip(&properties) {
        let doc = property.description.filter(|d| says_more(d, &[json.as_str(), property.name])).map(|d| {
            declared.documented_fields.insert((def.flat.clone(), property.name.to_owned()));
            quote!(#[doc = #d])
        });
        let name = format_ident!("{}", property.name);
        let ty = ident(space, def, &property.type_id)?;
        every_optional &= !property.required;
        members.push((property.name.to_owned(), (*json).clone()));
        fields.push(quote! {
            #doc
            pub #name: #ty,
        });
    }
    declared.fields.insert(def.flat.clone(), members);
    let type_name = format_ident!("{}", def.flat);
    let doc = doc(def, schema, declared);
    // serde's derives are not among them: the serde pass derives the one-pass `Object` instead.
    let mut names = vec!["Debug", "Clone", "PartialEq"];
    if every_optional {
        names.push("Default");
    }
    let derives = derives(&names);
    Ok(quote! {
        #doc
        #derives
        pub struct #type_name {
            #(#fields)*
        }
    })
}

fn enumeration(
    def: &TypeDef,
    schema: &SchemaObject,
    shape: &typify::TypeEnum<'_>,
    declared: &mut Declared,
) -> Result<TokenStream, Problem> {
    // The variants of an enum of strings, in the order of its values (`null` is the `Option`
    // around it).
    let values: Vec<&str> =
        schema.enum_values.iter().flatten().filter(|v| !v.is_null()).filter_map(serde_json::Value::as_str).collect();
    let variants: Vec<_> = shape.variants_info().collect();
    if values.len() != variants.len() || variants.iter().any(|v| !matches!(v.details, TypeEnumVariant::Simple)) {
        return Err(Problem::new(
            &def.file,
            &def.pointer,
            "typify made an enum that is not one of the schema's strings",
        ));
    }
    let type_name = format_ident!("{}", def.flat);
    declared.variants.insert(
        def.flat.clone(),
        values.iter().zip(&variants).map(|(value, variant)| (variant.name.to_owned(), (*value).to_owned())).collect(),
    );
    let variants_declared = values.iter().zip(&variants).map(|(value, variant)| {
        // A variant says its value on the wire, where the schema says nothing of it.
        let doc = variant.description.map_or_else(|| format!(" `{value}`"), str::to_owned);
        let doc = quote!(#[doc = #doc]);
        let rename = (*value != variant.name).then(|| quote!(#[serde(rename = #value)]));
        let name = format_ident!("{}", variant.name);
        quote! {
            #doc
            #rename
            #name,
        }
    });
    let doc = doc(def, schema, declared);
    // No derived `Deserialize` and no conversions from and to text: the enum pass gives each
    // enum the runtime's macro, which writes them.
    let derives =
        derives(&["::serde::Serialize", "Debug", "Clone", "PartialEq", "Copy", "PartialOrd", "Ord", "Eq", "Hash"]);
    Ok(quote! {
        #doc
        #derives
        pub enum #type_name {
            #(#variants_declared)*
        }
    })
}

fn newtype(
    space: &TypeSpace,
    def: &TypeDef,
    schema: &SchemaObject,
    shape: &typify::TypeNewtype<'_>,
    declared: &mut Declared,
) -> Result<TokenStream, Problem> {
    let inner_id = shape.inner();
    let inner = space
        .get_type(&inner_id)
        .map_err(|e| Problem::new(&def.file, &def.pointer, format!("typify has no type for a newtype's value: {e}")))?;
    // The planner lowers a named value without its value rules (the attribute pass carries
    // them): a newtype whose schema still holds one would be typify's checked newtype.
    let constrained = schema.string.is_some() || schema.enum_values.is_some() || schema.subschemas.is_some();
    if constrained {
        return Err(Problem::new(&def.file, &def.pointer, "typify would check this newtype's value itself"));
    }
    let is_str = matches!(inner.details(), TypeDetails::String);
    let inner_name = ident(space, def, &inner_id)?;
    declared.newtypes.insert(def.flat.clone());
    // A string with rules of its own is built through checked constructors (the newtypes pass):
    // its field is private, and typify's unchecked `From<String>` and `FromStr` are left out.
    let checked = def.validates && is_str;
    if checked {
        declared.checked.insert(def.flat.clone());
    }
    let vis = (!checked).then(|| quote!(pub));
    let type_name = format_ident!("{}", def.flat);
    let doc = doc(def, schema, declared);
    let mut names = vec!["::serde::Serialize", "::serde::Deserialize", "Debug", "Clone", "PartialEq"];
    if is_str {
        names.extend(["PartialOrd", "Ord", "Eq", "Hash"]);
    }
    let derives = derives(&names);
    let display = inner.has_impl(TypeSpaceImpl::Display).then(|| {
        quote! {
            impl ::std::fmt::Display for #type_name {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    self.0.fmt(f)
                }
            }
        }
    });
    let from_text = (is_str && !checked).then(|| {
        quote! {
            impl ::std::str::FromStr for #type_name {
                type Err = ::std::convert::Infallible;

                fn from_str(value: &str) ->
                    ::std::result::Result<Self, Self::Err>
                {
                    Ok(Self(value.to_string()))
                }
            }
        }
    });
    let parse = (inner.has_impl(TypeSpaceImpl::FromStr) && !is_str).then(|| {
        quote! {
            impl ::std::str::FromStr for #type_name {
                type Err = <#inner_name as
                    ::std::str::FromStr>::Err;

                fn from_str(value: &str) ->
                    ::std::result::Result<Self, Self::Err>
                {
                    Ok(Self(value.parse()?))
                }
            }
            impl ::std::convert::TryFrom<&str> for #type_name {
                type Error = <#inner_name as
                    ::std::str::FromStr>::Err;

                fn try_from(value: &str) ->
                    ::std::result::Result<Self, Self::Error>
                {
                    value.parse()
                }
            }
            impl ::std::convert::TryFrom<String> for #type_name {
                type Error = <#inner_name as
                    ::std::str::FromStr>::Err;

                fn try_from(value: String) ->
                    ::std::result::Result<Self, Self::Error>
                {
                    value.parse()
                }
            }
        }
    });
    let unchecked = (!checked).then(|| {
        quote! {
            impl ::std::convert::From<#inner_name> for #type_name {
                fn from(value: #inner_name) -> Self {
                    Self(value)
                }
            }
        }
    });
    Ok(quote! {
        #doc
        #derives
        #[serde(transparent)]
        pub struct #type_name(#vis #inner_name);

        impl ::std::ops::Deref for #type_name {
            type Target = #inner_name;
            fn deref(&self) -> &#inner_name {
                &self.0
            }
        }

        impl ::std::convert::From<#type_name> for #inner_name {
            fn from(value: #type_name) -> Self {
                value.0
            }
        }

        #unchecked

        #display
        #from_text
        #parse
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use syn::visit_mut::VisitMut;

    use super::*;

    /// typify's own declarations without what the passes write themselves: a struct's serde
    /// derives and its fields' serde attributes, an enum's derived `Deserialize` and its
    /// conversions from and to text; serde's other derives by their imported names.
    struct WithoutSerde;

    /// Declarations without their docs, which typify writes for every item (its name when the
    /// schema has no description) and the declarations only where they say more than the name
    /// (`says_more`, tested below); the generated Rust holds the docs to their text.
    struct WithoutDocs;

    impl VisitMut for WithoutDocs {
        fn visit_attributes_mut(&mut self, attrs: &mut Vec<syn::Attribute>) {
            attrs.retain(|a| !a.path().is_ident("doc"));
        }
    }

    impl VisitMut for WithoutSerde {
        fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
            if matches!(item.fields, syn::Fields::Named(_)) {
                drop_derives(&mut item.attrs, &["Serialize", "Deserialize"]);
                for field in &mut item.fields {
                    field.attrs.retain(|a| !a.path().is_ident("serde"));
                }
            } else {
                drop_derives(&mut item.attrs, &[]);
            }
        }

        fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
            drop_derives(&mut item.attrs, &["Deserialize"]);
        }
    }

    fn drop_derives(attrs: &mut [syn::Attribute], names: &[&str]) {
        use syn::punctuated::Punctuated;
        for attr in attrs.iter_mut().filter(|a| a.path().is_ident("derive")) {
            let Ok(list) = attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) else {
                continue;
            };
            // The serde derives kept are named as the generated module imports them.
            let kept = list
                .iter()
                .filter(|p| p.segments.last().is_none_or(|s| !names.contains(&s.ident.to_string().as_str())))
                .map(|p| match p.segments.last() {
                    Some(s) if SERDE_DERIVES.contains(&s.ident.to_string().as_str()) => {
                        let ident = &s.ident;
                        quote!(#ident)
                    }
                    _ => quote!(#p),
                });
            *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
        }
    }

    /// The declarations are the ones typify would print for the corpus, but for the serde
    /// derives and attributes the passes write themselves: a typify upgrade that changes its
    /// shapes fails here, naming the first difference, rather than in the generated code.
    #[test]
    fn the_declarations_are_typify_s_own() {
        let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas");
        let corpus = crate::Corpus::load(&schemas).unwrap_or_else(|e| panic!("{e}"));
        let plan = crate::plan::plan(&corpus).unwrap_or_else(|e| panic!("{e:?}"));
        let (space, given) = crate::generate::type_space(&plan).unwrap_or_else(|e| panic!("{e:?}"));
        let (ours, declared) = render(&space, &plan, &given).unwrap_or_else(|e| panic!("{e:?}"));
        let ours: syn::File = syn::parse2(ours).unwrap_or_else(|e| panic!("{e}"));
        let external = format!(":: jerry_contracts :: {FLAT_MODULE} ::");
        let theirs = space.to_stream().to_string().replace(&external, &format!("crate :: {FLAT_MODULE} ::"));
        let mut theirs: syn::File = syn::parse_str(&theirs).unwrap_or_else(|e| panic!("{e}"));
        let enums: Vec<String> = theirs
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Enum(item) => Some(item.ident.to_string()),
                _ => None,
            })
            .collect();
        theirs.items.retain(|item| match item {
            syn::Item::Impl(block) => {
                let ty = &block.self_ty;
                !enums.contains(&quote!(#ty).to_string())
            }
            _ => true,
        });
        // A checked newtype's field is private, and typify's unchecked conversions into it left out.
        let checked: Vec<String> = declared.checked().map(str::to_owned).collect();
        theirs.items.retain(|item| match item {
            syn::Item::Impl(block) => {
                let ty = &block.self_ty;
                let into_checked = checked.contains(&quote!(#ty).to_string());
                let conversion = block.trait_.as_ref().and_then(|(_, path, _)| path.segments.last()).is_some_and(|s| {
                    s.ident == "FromStr" || (s.ident == "From" && quote!(#s).to_string().contains("String"))
                });
                !(into_checked && conversion)
            }
            _ => true,
        });
        for item in &mut theirs.items {
            if let syn::Item::Struct(item) = item
                && checked.contains(&item.ident.to_string())
            {
                for field in &mut item.fields {
                    field.vis = syn::Visibility::Inherited;
                }
            }
        }
        // typify's error type, which only its conversions used.
        theirs.items.retain(|item| !matches!(item, syn::Item::Mod(module) if module.ident == "error"));
        WithoutSerde.visit_file_mut(&mut theirs);
        WithoutDocs.visit_file_mut(&mut theirs);
        let mut ours = ours;
        WithoutDocs.visit_file_mut(&mut ours);
        let (ours, theirs) = (prettyplease::unparse(&ours), prettyplease::unparse(&theirs));
        if let Some((line, (a, b))) = ours.lines().zip(theirs.lines()).enumerate().find(|(_, (a, b))| a != b) {
            panic!("line {}: ours {a:?}, typify's {b:?}", line + 1);
        }
        assert_eq!(ours.lines().count(), theirs.lines().count());
        assert!(ours.contains("pub struct ResearcherOutput {"), "the corpus's types are declared");
        // What typify says with a `rename`, the table says.
        assert_eq!(declared.member("ArchitectureInterface", "type_"), Some("type"));
        assert_eq!(declared.value("Severity", "Critical"), Some("critical"));
        assert!(declared.is_newtype("RequirementId") && !declared.is_newtype("ResearcherOutput"));
    }

    #[test]
    fn a_doc_that_only_says_the_name_says_nothing_more() {
        for text in [" `agent_id`", "agent_id", " The agent id.", "Agent-ID", " `AgentId`", "", "  "] {
            assert!(!says_more(text, &["agent_id"]), "{text:?}");
        }
        for text in [" Agent that produced the output", " agent_id of the reviewer"] {
            assert!(says_more(text, &["agent_id"]), "{text:?}");
        }
        // A keyword field is named without its `r#`; any of the names counts.
        assert!(!says_more(" `type`", &["r#type"]));
        assert!(!says_more("Requirement id", &["RequirementId", "CommonRequirementId"]));
    }
}
