//! Turning a [`Plan`] into Rust source: typify works out the shapes of the lowered bundle, whose
//! declarations this crate writes from typify's type space ([`crate::declarations`]), the
//! attribute pass completes them, and this module adds what typify cannot express (the
//! pattern matchers and the agent-output dispatch enums) and the public module tree that mirrors
//! `schemas/`, then formats the whole file with prettyplease.

use std::collections::BTreeMap;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use typify::{CrateVers, TypeSpace, TypeSpaceSettings};

use crate::attributes;
use crate::corpus::Problem;
use crate::declarations::Declared;
use crate::model::Model;
use crate::naming::pascal;
use crate::plan::{FLAT_MODULE, Kind, Plan, TypeDef};

/// Where the generated code finds the data files it includes (the pattern table's DFAs, the
/// schema layer's trees): the directory, as an environment variable of the including crate's
/// build and a path under it (`CARGO_MANIFEST_DIR` and `/src/generated/` for the committed form;
/// `OUT_DIR` and `/` for a build script's).
#[derive(Debug, Clone, Copy)]
pub struct DataPlace {
    /// The environment variable (`env!`) that names the base directory.
    pub variable: &'static str,
    /// The directory under it, with a leading and a trailing `/`.
    pub directory: &'static str,
}

/// The names of the two DFA files of the pattern table, little- and big-endian.
pub const DFA_FILES: [&str; 2] = ["patterns-le.dfa", "patterns-be.dfa"];

/// The pattern table's DFAs, one after the other, each at a multiple of eight (little- and
/// big-endian), and each pattern's range in them.
pub fn dfa_files(plan: &Plan) -> ([Vec<u8>; 2], Vec<(usize, usize)>) {
    let (mut little, mut big, mut ranges) = (Vec::new(), Vec::new(), Vec::new());
    for (_, dfa) in &plan.table {
        let start = little.len();
        little.extend_from_slice(&dfa.little_endian);
        big.extend_from_slice(&dfa.big_endian);
        ranges.push((start, little.len()));
        while little.len() % 8 != 0 {
            little.push(0);
            big.push(0);
        }
    }
    ([little, big], ranges)
}

/// The pattern table (`PATTERN_TABLE`: every pattern of the schemas with the range of its DFA in
/// the DFA files, `ranges` as [`dfa_files`] gives them, which it includes from `place`) and the
/// garde rules' statics, each read from its entry.
fn pattern_items(plan: &Plan, place: DataPlace, ranges: &[(usize, usize)]) -> TokenStream {
    let entries = plan.table.iter().zip(ranges).map(|((pattern, _), (start, end))| {
        let literal = Literal::string(pattern);
        quote!((#literal, #start, #end),)
    });
    let variable = place.variable;
    let [little, big] = DFA_FILES.map(|name| format!("{}{name}", place.directory));
    let names = crate::naming::pattern_statics(plan);
    let statics = plan.patterns.iter().zip(&names).enumerate().map(|(index, (pattern, name))| {
        let ident = format_ident!("{name}");
        let doc = format!(" The ECMA-262 pattern `{pattern}`.");
        quote! {
            #[doc = #doc]
            pub static #ident: ::std::sync::LazyLock<::jerry_contracts::pattern::EcmaPattern> =
                ::std::sync::LazyLock::new(|| PATTERN_TABLE.pattern(#index));
        }
    });
    quote! {
        /// Every pattern of the schemas with its dense DFA, built and serialised by the generator
        /// (the files beside this one): the garde rules' statics and the schema layer read them.
        pub static PATTERN_TABLE: ::jerry_contracts::pattern::PatternTable = ::jerry_contracts::pattern::PatternTable {
            #[cfg(target_endian = "little")]
            dfas: &::jerry_contracts::pattern::AlignedBytes(*include_bytes!(concat!(env!(#variable), #little))),
            #[cfg(target_endian = "big")]
            dfas: &::jerry_contracts::pattern::AlignedBytes(*include_bytes!(concat!(env!(#variable), #big))),
            entries: &[#(#entries)*],
        };
        #(#statics)*
    }
}

/// The schema layer's compiled trees (`SCHEMA_TREES`, [`crate::schema_tree`]), included from
/// `place`.
fn tree_items(place: DataPlace) -> TokenStream {
    let variable = place.variable;
    let file = format!("{}{}", place.directory, crate::schema_tree::TREE_FILE);
    quote! {
        /// The schema layer's compiled trees, one line of JSON per schema file in the registry's
        /// order, built by the generator (the file beside this one).
        pub static SCHEMA_TREES: ::jerry_contracts::__validation::SchemaTrees =
            ::jerry_contracts::__validation::SchemaTrees(include_str!(concat!(env!(#variable), #file)));
    }
}

/// Generates the complete source file for `plan`, with the pattern table's DFA files at `place`
/// and each pattern's DFA at its range of `ranges` ([`dfa_files`]).
pub fn source(plan: &Plan, model: &Model, place: DataPlace, ranges: &[(usize, usize)]) -> Result<String, Vec<Problem>> {
    // The flat module imports serde's derives by name: no generated item may take one.
    let shadowing: Vec<Problem> = plan
        .types
        .iter()
        .filter(|def| crate::declarations::SERDE_DERIVES.contains(&def.flat.as_str()))
        .map(|def| {
            let message = format!(
                "a type named {} would shadow serde's derive of that name in the generated module; rename it",
                def.flat
            );
            Problem::new(&def.file, &def.pointer, message)
        })
        .collect();
    if !shadowing.is_empty() {
        return Err(shadowing);
    }
    let (mut file, declared) = shapes(plan)?;
    let members = attributes::apply(&mut file, plan, model, &declared)?;
    crate::newtypes::apply(&mut file, plan, &declared)?;
    crate::constructors::apply(&mut file, plan, model, &members)?;
    crate::enums::apply(&mut file, plan, &declared);
    crate::skim::apply(&mut file, plan, model, &members, &declared)?;
    crate::serde_impls::apply(&mut file, &members);
    crate::poke::apply(&mut file);
    let agents = crate::agents::items(&file, plan, &model.agents, &members)?;
    let emitted: Vec<String> = file.items.iter().filter_map(item_name).collect();
    let mut aliases = Vec::new();
    for def in plan.types.iter().filter(|d| !emitted.contains(&d.flat) && !matches!(d.kind, Kind::Dispatch { .. })) {
        // typify uses an external type in place of a definition that is only that type.
        let Some(path) = def.lowered.pointer("/x-rust-type/path").and_then(|p| p.as_str()) else {
            return Err(vec![Problem::new(&def.file, &def.pointer, format!("typify emitted no type {}", def.flat))]);
        };
        let target: syn::Type = syn::parse_str(&format!("::{path}"))
            .map_err(|e| vec![Problem::new(&def.file, &def.pointer, format!("bad type path {path}: {e}"))])?;
        let ident = format_ident!("{}", def.flat);
        let description = model.type_named(&def.flat).and_then(|t| t.description.as_deref());
        let doc = format!(" {} Schema: `{}`", description.unwrap_or(""), def.location());
        aliases.push(quote! { #[doc = #doc] pub type #ident = #target; });
    }
    let flat_items = file.items;
    let patterns = pattern_items(plan, place, ranges);
    let trees = tree_items(place);
    let agent_types = agent_flat_names(model);
    let dispatches = plan.types.iter().filter_map(|def| dispatch(def, model, &agent_types));
    let documents = documents(plan, model);
    let roots = roots_table(plan, model);
    let contracts = contracts(plan, &emitted);
    let entries = plan.types.iter().map(|def| {
        let ident = format_ident!("{}", def.flat);
        let rust_path = format!("{}::{}", def.module.join("::"), def.public);
        let (schema, pointer) = (&def.file, &def.pointer);
        let kind = if def.validates { format_ident!("checked") } else { format_ident!("shaped") };
        quote! {
            ::jerry_contracts::__type_entry!(#ident, #schema, #pointer, #rust_path, #kind),
        }
    });
    let flat = format_ident!("{}", FLAT_MODULE);
    let modules = module_tree(plan);
    let tokens = quote! {
        /// Every generated type, under a name unique in the crate; use them through the modules that
        /// mirror `schemas/` (`agents::ps::ResearcherOutput`, …).
        #[doc(hidden)]
        #[allow(clippy::all, clippy::pedantic, clippy::nursery, unused_imports)]
        pub mod #flat {
            use ::serde::{Deserialize, Serialize};
            /// Deserialises a field that must be present but may be `null` (serde would otherwise
            /// read a missing `Option` field as `None`).
            fn required_nullable<'de, D, T>(deserializer: D) -> ::std::result::Result<::std::option::Option<T>, D::Error>
            where
                D: ::serde::Deserializer<'de>,
                T: ::serde::Deserialize<'de>,
            {
                <::std::option::Option<T> as ::serde::Deserialize>::deserialize(deserializer)
            }
            /// Deserialises an optional field that, when present, must hold a value (serde would
            /// otherwise read `null` as `None` and accept what the schema rejects). The typed
            /// read reads such a field through the runtime's `located::Present`; the skim calls
            /// this where it reads the field whole, which not every set of types has.
            #[allow(dead_code)]
            fn present<'de, D, T>(deserializer: D) -> ::std::result::Result<::std::option::Option<T>, D::Error>
            where
                D: ::serde::Deserializer<'de>,
                T: ::serde::Deserialize<'de>,
            {
                <T as ::serde::Deserialize>::deserialize(deserializer).map(::std::option::Option::Some)
            }
            #patterns
            #trees
            #(#flat_items)*
            #(#aliases)*
            #(#dispatches)*
            #(#documents)*
            #roots
            #(#contracts)*
            #(#agents)*

            /// Every generated type with the schema it comes from (the tests' catalogue).
            #[cfg(feature = "testing")]
            pub static TYPES: &[::jerry_contracts::__private::typed::TypeEntry] = &[#(#entries)*];
        }
        #modules
    };
    let mut parsed: syn::File = syn::parse2(tokens)
        .map_err(|e| vec![Problem::new("schemas/", "", format!("generated code does not parse: {e}"))])?;
    crate::spelling::docs_first(&mut parsed);
    Ok(prettyplease::unparse(&parsed))
}

/// The declarations of the shapes typify works out for the lowered bundle
/// ([`crate::declarations`]).
fn shapes(plan: &Plan) -> Result<(syn::File, Declared), Vec<Problem>> {
    let (space, given) = type_space(plan)?;
    let (tokens, declared) = crate::declarations::render(&space, plan, &given)?;
    let file = syn::parse2(tokens)
        .map_err(|e| vec![Problem::new("schemas/", "", format!("the declarations do not parse: {e}"))])?;
    Ok((file, declared))
}

/// typify's type space of the lowered bundle, and the schema it was given for each planned type
/// (by flat name). The payload dispatch enums are this crate's own, given to typify as external
/// types.
pub(crate) fn type_space(
    plan: &Plan,
) -> Result<(TypeSpace, BTreeMap<String, schemars08::schema::Schema>), Vec<Problem>> {
    crate::enums::check_variant_names(plan)?;
    let mut settings = TypeSpaceSettings::default();
    settings.with_struct_builder(false);
    settings.with_derive("PartialEq".to_owned());
    settings.with_crate("jerry-contracts", CrateVers::Any, None);
    settings.with_map_type("::std::collections::BTreeMap".to_owned());
    let mut space = TypeSpace::new(&settings);
    let mut definitions = Vec::new();
    let mut given = BTreeMap::new();
    for def in &plan.types {
        let lowered = match &def.kind {
            Kind::Dispatch { .. } => serde_json::json!({"x-rust-type": {
                "crate": "jerry-contracts", "version": "*",
                "path": format!("jerry_contracts::{FLAT_MODULE}::{}", def.flat),
            }}),
            _ => def.lowered.clone(),
        };
        let schema: schemars08::schema::Schema = serde_json::from_value(lowered)
            .map_err(|e| vec![Problem::new(&def.file, &def.pointer, format!("lowered schema is not a schema: {e}"))])?;
        given.insert(def.flat.clone(), schema.clone());
        definitions.push((def.flat.clone(), schema));
    }
    space.add_ref_types(definitions).map_err(|e| vec![Problem::new("schemas/", "", format!("typify: {e}"))])?;
    Ok((space, given))
}

/// `pub mod agents { pub mod ps { pub use crate::generated::ResearcherOutput; … } … }`.
fn module_tree(plan: &Plan) -> TokenStream {
    #[derive(Default)]
    struct Node {
        uses: Vec<(String, String)>,
        children: BTreeMap<String, Node>,
    }
    let mut root = Node::default();
    for def in &plan.types {
        let mut node = &mut root;
        for segment in &def.module {
            node = node.children.entry(segment.clone()).or_default();
        }
        node.uses.push((def.flat.clone(), def.public.clone()));
    }
    fn render(path: &[String], node: &Node) -> TokenStream {
        let flat = format_ident!("{}", FLAT_MODULE);
        let uses = node.uses.iter().map(|(flat_name, public)| {
            let flat_ident = format_ident!("{}", flat_name);
            let public_ident = format_ident!("{}", public);
            // One public name per type, unique outside the sibling envelope versions
            // (`session_context::v1_0::Payload`, `v1_1::Payload`; the planner refuses any other
            // repeat); the unique name of the flat module is what signatures show, and the
            // type's docs name its public path.
            if flat_name == public {
                quote!(pub use crate::#flat::#flat_ident;)
            } else {
                quote!(pub use crate::#flat::#flat_ident as #public_ident;)
            }
        });
        let children = node.children.iter().map(|(name, child)| {
            let mut child_path = path.to_vec();
            child_path.push(name.clone());
            let ident = format_ident!("{}", name);
            let shown = if child_path.first().is_some_and(|p| p == "session_context") && child_path.len() == 2 {
                format!(" Types generated from `schemas/session_context/{}.json`.", version_file(name))
            } else {
                format!(" Types generated from the schemas under `schemas/{}/`.", child_path.join("/"))
            };
            let inner = render(&child_path, child);
            quote! {
                #[doc = #shown]
                pub mod #ident { #inner }
            }
        });
        quote!(#(#uses)* #(#children)*)
    }
    render(&[], &root)
}

fn version_file(module: &str) -> String {
    // v1_0 → v1.0.0
    format!("{}.0", module.replace('_', "."))
}

/// The dispatch enum for a [`Kind::Dispatch`] type, with its serde, garde and schemars impls.
/// `validation::Document` for every root struct: its schema, and what the rule layers see.
/// `impl Contract` for every generated type (`emitted`, and the payload dispatch): where its
/// schema is, and its own constraint check (garde's, for a type with rules). A definition typify
/// gave an external type (a format) has no type of its own to implement it for.
fn contracts(plan: &Plan, emitted: &[String]) -> Vec<TokenStream> {
    plan.types
        .iter()
        .filter(|def| emitted.contains(&def.flat) || matches!(def.kind, Kind::Dispatch { .. }))
        .map(|def| {
            let ident = format_ident!("{}", def.flat);
            let name = def.file.strip_suffix(".json").unwrap_or(&def.file);
            let pointer = &def.pointer;
            let kind = if def.validates { format_ident!("checked") } else { format_ident!("shaped") };
            // The impls are the crate's macro (`src/validation_hooks.rs`): one line a type.
            quote! {
                ::jerry_contracts::__contract!(#ident, #name, #pointer, #kind);
            }
        })
        .collect()
}

fn documents(plan: &Plan, model: &Model) -> Vec<TokenStream> {
    let agents = agent_flat_names(model);
    roots(plan)
        .map(|def| {
            let ident = format_ident!("{}", def.flat);
            let path = &def.file;
            let subject = match reading(def, &agents) {
                Some("Envelope10") => quote!(Envelope10(::std::borrow::Cow::Borrowed(self))),
                Some("Envelope11") => quote!(Envelope11(::std::borrow::Cow::Borrowed(self))),
                Some("TaskGraph") => quote!(TaskGraph(::std::borrow::Cow::Borrowed(self))),
                Some(_) => quote!(Agent(::jerry_contracts::__validation::Held::Borrowed(self))),
                None => quote!(Other),
            };
            quote! {
                impl ::jerry_contracts::validation::Document for #ident {
                    fn schema_path(&self) -> &'static str {
                        #path
                    }
                    fn subject(&self) -> ::jerry_contracts::__validation::Subject<'_> {
                        ::jerry_contracts::__validation::Subject::#subject
                    }
                }
            }
        })
        .collect()
}

/// `ROOTS`: the root type of every schema file, with its typed check (the schema layer's
/// verdict) and, for a schema with rules of its own, how the rule layers read its documents
/// (`validation::Reading`), from the same knowledge as the `Document` impls: the validator's
/// route by schema.
fn roots_table(plan: &Plan, model: &Model) -> TokenStream {
    let agents = agent_flat_names(model);
    let rows = plan
        .types
        .iter()
        .filter(|def| def.pointer.is_empty() && !matches!(def.kind, Kind::Dispatch { .. }))
        .map(|def| {
            let ident = format_ident!("{}", def.flat);
            let path = &def.file;
            let check = if def.validates { format_ident!("check_validated") } else { format_ident!("check_shape") };
            let reading = match roots(plan).any(|root| root.flat == def.flat).then(|| reading(def, &agents)).flatten() {
                Some(reading) => {
                    let reading = format_ident!("{reading}");
                    quote!(::std::option::Option::Some(::jerry_contracts::__validation::Reading::#reading))
                }
                None => quote!(::std::option::Option::None),
            };
            quote! {
                ::jerry_contracts::__validation::Root {
                    path: #path,
                    check: ::jerry_contracts::__private::typed::#check::<#ident>,
                    reading: #reading,
                },
            }
        });
    quote! {
        /// The root type of every schema file: its typed check, and how the rule layers read its
        /// documents when the schema has rules of its own.
        pub static ROOTS: &[::jerry_contracts::__validation::Root] = &[#(#rows)*];
    }
}

/// The generated root types a whole document is read as.
fn roots(plan: &Plan) -> impl Iterator<Item = &TypeDef> {
    plan.types.iter().filter(|def| def.pointer.is_empty() && def.validates && matches!(def.kind, Kind::Struct))
}

fn agent_flat_names(model: &Model) -> Vec<&str> {
    model.agents.iter().map(|agent| agent.flat.as_str()).collect()
}

/// How the rule layers read a document of a root schema (a `validation::Reading` variant), or
/// `None` for a schema with no rules of its own. The envelopes and the task graph are named by
/// their files, the one place the generator knows them; the agents by their outputs.
fn reading(def: &TypeDef, agents: &[&str]) -> Option<&'static str> {
    match def.file.as_str() {
        "session_context/v1.0.0.json" => Some("Envelope10"),
        "session_context/v1.1.0.json" => Some("Envelope11"),
        "mission/mission_task_graph.json" => Some("TaskGraph"),
        _ if agents.contains(&def.flat.as_str()) => Some("Agent"),
        _ => None,
    }
}

/// `agent_types`: the flat names of the agent outputs (the branches that hold one implement
/// `AgentOutput`).
fn dispatch(def: &TypeDef, model: &Model, agent_types: &[&str]) -> Option<TokenStream> {
    let Kind::Dispatch { branches, fallback } = &def.kind else { return None };
    let name = format_ident!("{}", def.flat);
    let fallback_ty = format_ident!("{}", fallback);
    let doc = format!(
        " {} Dispatched on `agent_id`: an agent with an output schema gives that variant, any other payload `Generic`.",
        model.type_named(&def.flat).and_then(|t| t.description.as_deref()).unwrap_or("A payload.")
    );
    let location = format!(" Schema: `{}`", def.location());
    let variants: Vec<(syn::Ident, syn::Ident, String)> = branches
        .iter()
        .map(|(agent, target)| (format_ident!("{}", pascal(agent)), format_ident!("{}", target), agent.clone()))
        .collect();
    let declared = variants.iter().map(|(variant, target, agent)| {
        let doc = format!(" Output of `{agent}`.");
        quote! { #[doc = #doc] #variant(::std::boxed::Box<#target>), }
    });
    let arms = variants.iter().map(|(variant, target, agent)| {
        quote! {
            ::std::option::Option::Some(#agent) => <#target as ::serde::Deserialize>::deserialize(__d)
                .map(|v| #name::#variant(::std::boxed::Box::new(v))),
        }
    });
    let skim_arms = variants.iter().map(|(variant, target, agent)| {
        quote! {
            ::std::option::Option::Some(#agent) => ::jerry_contracts::__private::skim::output::<#target, #name, _>(
                __rest, self.0, ::std::option::Option::Some(#agent), |v| #name::#variant(::std::boxed::Box::new(v)),
            ),
        }
    });
    let from_agent_arms = variants.iter().map(|(variant, _, agent)| {
        quote! {
            ::std::option::Option::Some(#agent) => ::std::option::Option::Some(
                ::jerry_contracts::typed::deserialize(value).map(|v| Self::#variant(::std::boxed::Box::new(v))),
            ),
        }
    });
    let agent_id_arms =
        variants.iter().map(|(variant, _, agent)| quote! { Self::#variant(_) => ::std::option::Option::Some(#agent), });
    let output_arms = variants.iter().map(|(variant, target, _)| {
        if agent_types.contains(&target.to_string().as_str()) {
            quote! { Self::#variant(v) => ::std::option::Option::Some(&**v), }
        } else {
            quote! { Self::#variant(_) => ::std::option::Option::None, }
        }
    });
    let poke_arms = variants.iter().map(
        |(variant, _, _)| quote! { Self::#variant(v) => ::jerry_contracts::__private::poke::Poke::poke(v, tweak), },
    );
    let validate_arms =
        variants.iter().map(|(variant, _, _)| quote! { Self::#variant(v) => v.validate_into(ctx, parent, report), });
    let schema_branches = variants.iter().map(|(_, target, agent)| {
        quote! {
            ::schemars::json_schema!({
                "if": { "properties": { "agent_id": { "const": #agent } } },
                "then": generator.subschema_for::<#target>(),
            })
        }
    });
    let agents = variants.iter().map(|(_, _, agent)| agent.clone());
    let froms = variants.iter().map(|(variant, target, agent)| {
        let doc = format!(" The payload of a `{agent}` handoff.");
        quote! {
            #[doc = #doc]
            impl ::std::convert::From<#target> for #name {
                fn from(output: #target) -> Self {
                    Self::#variant(::std::boxed::Box::new(output))
                }
            }
        }
    });
    let schema_name = Literal::string(&def.public);
    Some(quote! {
        #[doc = #doc]
        #[doc = ""]
        #[doc = #location]
        #[derive(Clone, Debug, PartialEq, ::serde::Serialize)]
        #[serde(untagged)]
        pub enum #name {
            #(#declared)*
            /// Any payload whose `agent_id` names no agent with an output schema.
            Generic(::std::boxed::Box<#fallback_ty>),
        }

        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                struct __Visitor;
                impl<'de> ::serde::de::Visitor<'de> for __Visitor {
                    type Value = #name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str("an object (a payload)")
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, map: A) -> ::std::result::Result<#name, A::Error> {
                        // `agent_id` first chooses the type, which reads it and then the rest of
                        // the object, in one pass; otherwise the object is read again from its text.
                        match ::jerry_contracts::__private::read::tag_first(map)? {
                            ::jerry_contracts::__private::read::Tagged::First(__agent, __rest) => {
                                __dispatch(::std::option::Option::Some(&__agent), ::serde::de::value::MapAccessDeserializer::new(__rest))
                            }
                            ::jerry_contracts::__private::read::Tagged::Text(__agent, __text) => {
                                let mut __d = ::serde_json::Deserializer::from_str(&__text);
                                __dispatch(__agent.as_deref(), &mut __d)
                                    .and_then(|__v| __d.end().map(|()| __v))
                                    .map_err(::jerry_contracts::__private::read::replayed)
                            }
                        }
                    }
                }
                /// The payload as the type `agent` names, read from `__d`.
                fn __dispatch<'x, __D: ::serde::Deserializer<'x>>(
                    agent: ::std::option::Option<&str>,
                    __d: __D,
                ) -> ::std::result::Result<#name, __D::Error> {
                    match agent {
                        #(#arms)*
                        _ => <#fallback_ty as ::serde::Deserialize>::deserialize(__d)
                            .map(|v| #name::Generic(::std::boxed::Box::new(v))),
                    }
                }
                deserializer.deserialize_map(__Visitor)
            }
        }

        impl ::jerry_contracts::__private::skim::Skim for #name {
            fn skim<'de, __D: ::serde::Deserializer<'de>>(
                deserializer: __D,
                cx: &mut ::jerry_contracts::__private::skim::Cx<'de>,
            ) -> ::std::result::Result<(), __D::Error> {
                struct __Visitor<'c, 'de>(&'c mut ::jerry_contracts::__private::skim::Cx<'de>);
                impl<'de> ::serde::de::Visitor<'de> for __Visitor<'_, 'de> {
                    type Value = ();
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str("an object (a payload)")
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, map: A) -> ::std::result::Result<(), A::Error> {
                        // The same dispatch as the typed read.
                        let (__agent, __rest) = ::jerry_contracts::__private::skim::tag_first(map, self.0)?;
                        let __rest = ::serde::de::value::MapAccessDeserializer::new(__rest);
                        match __agent.as_deref() {
                            #(#skim_arms)*
                            _ => ::jerry_contracts::__private::skim::output::<#fallback_ty, #name, _>(
                                __rest, self.0, ::std::option::Option::None, |v| #name::Generic(::std::boxed::Box::new(v)),
                            ),
                        }
                    }
                }
                deserializer.deserialize_map(__Visitor(cx))
            }
        }

        #[cfg(feature = "testing")]
        impl ::jerry_contracts::__private::poke::Poke for #name {
            fn poke(&mut self, tweak: &mut ::jerry_contracts::__private::poke::Tweak) {
                match self {
                    #(#poke_arms)*
                    Self::Generic(v) => ::jerry_contracts::__private::poke::Poke::poke(v, tweak),
                }
            }
        }

        impl #name {
            /// Reads `value` as the output of `agent_id` (whatever its own `agent_id` says), or as
            /// the generic payload when `agent_id` is `None`; `None` when the agent has no output schema.
            pub fn from_agent(
                agent_id: ::std::option::Option<&str>,
                value: &::serde_json::Value,
            ) -> ::std::option::Option<::std::result::Result<Self, ::jerry_contracts::validation::Report>> {
                match agent_id {
                    #(#from_agent_arms)*
                    ::std::option::Option::None => ::std::option::Option::Some(
                        ::jerry_contracts::typed::deserialize(value).map(|v| Self::Generic(::std::boxed::Box::new(v))),
                    ),
                    ::std::option::Option::Some(_) => ::std::option::Option::None,
                }
            }

            /// The `agent_id` whose output this is, or `None` for the generic payload.
            pub fn agent_id(&self) -> ::std::option::Option<&'static str> {
                match self {
                    #(#agent_id_arms)*
                    Self::Generic(_) => ::std::option::Option::None,
                }
            }

            /// The agent output this payload holds, or `None` for the generic payload (and for an
            /// output whose schema is not under `schemas/agents/`).
            pub fn output(&self) -> ::std::option::Option<&dyn ::jerry_contracts::AgentOutput> {
                match self {
                    #(#output_arms)*
                    Self::Generic(_) => ::std::option::Option::None,
                }
            }
        }

        #(#froms)*

        /// The generic (v1.0.0) payload.
        impl ::std::convert::From<#fallback_ty> for #name {
            fn from(payload: #fallback_ty) -> Self {
                Self::Generic(::std::boxed::Box::new(payload))
            }
        }

        impl ::garde::Validate for #name {
            type Context = ();
            fn validate_into(&self, ctx: &Self::Context, parent: &mut dyn FnMut() -> ::garde::Path, report: &mut ::garde::Report) {
                match self {
                    #(#validate_arms)*
                    Self::Generic(v) => v.validate_into(ctx, parent, report),
                }
            }
        }

        #[cfg(feature = "schemars")]
        impl ::schemars::JsonSchema for #name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                #schema_name.into()
            }
            fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                let branches: ::std::vec::Vec<::schemars::Schema> = ::std::vec![#(#schema_branches),*];
                ::schemars::json_schema!({
                    "type": "object",
                    "if": { "required": ["agent_id"], "properties": { "agent_id": { "enum": [#(#agents),*] } } },
                    "then": { "allOf": branches },
                    "else": generator.subschema_for::<#fallback_ty>(),
                })
            }
        }
    })
}

fn item_name(item: &syn::Item) -> Option<String> {
    match item {
        syn::Item::Struct(s) => Some(s.ident.to_string()),
        syn::Item::Enum(e) => Some(e.ident.to_string()),
        syn::Item::Type(t) => Some(t.ident.to_string()),
        _ => None,
    }
}

/// The schema files themselves, embedded with `include_str!` for the registry: by their path
/// under the including crate's root (`CARGO_MANIFEST_DIR/schemas/…`) wherever the crate is
/// built, or, given `absolute` (the schema directory), by their absolute path.
pub fn embedded(corpus: &crate::Corpus, absolute: Option<&std::path::Path>) -> Result<String, Vec<Problem>> {
    let entries = corpus.schemas.iter().map(|schema| {
        let (path, id) = (&schema.path, &schema.id);
        let file = match absolute {
            None => {
                let file = format!("/schemas/{path}");
                quote!(concat!(env!("CARGO_MANIFEST_DIR"), #file))
            }
            Some(base) => {
                let file = base.join(path).to_string_lossy().replace('\\', "/");
                quote!(#file)
            }
        };
        quote! {
            ::jerry_contracts::__private::EmbeddedSchema { path: #path, id: #id, text: include_str!(#file) },
        }
    });
    let tokens = quote! {
        /// Every schema file of the corpus, as written.
        #[doc(hidden)]
        pub static EMBEDDED_SCHEMAS: &[::jerry_contracts::__private::EmbeddedSchema] = &[#(#entries)*];
    };
    let file: syn::File = syn::parse2(tokens)
        .map_err(|e| vec![Problem::new("schemas/", "", format!("the embedded schemas do not parse: {e}"))])?;
    Ok(prettyplease::unparse(&file))
}
