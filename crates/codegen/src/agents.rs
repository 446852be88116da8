//! Agent knowledge, generated: `jerry_contracts::AgentOutput` for every agent output (a schema
//! under `schemas/agents/<family>/` whose root has a constant `agent_id`), the table of agents
//! (`AGENTS`) and the crate's readers of a standalone output (`AGENT_READERS`). The rule layers
//! read agents only through these, so adding an agent is adding its schema.
//!
//! What each impl reads is found in the generated types themselves: the `confidence`,
//! `artifacts` and `disclaimer_included` fields, and every path from the output's root to a
//! requirement id (`common/types.json#/definitions/requirement_id`) through fields, lists,
//! options, boxes and newtypes. A requirement id the walk cannot reach (inside a map or an
//! enum) fails the generation, naming the schema: no id is left out of the reference rules.

use std::collections::HashMap;

use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote};
use serde_json::Value;
use syn::{Fields, GenericArgument, Item, PathArguments, Type};

use crate::corpus::Problem;
use crate::naming::pascal;
use crate::plan::{Kind, Plan, TypeDef};

/// Where the types the trait returns are defined.
const CONFIDENCE: (&str, &str) = ("common/types.json", "/definitions/confidence_score");
const ARTIFACT: (&str, &str) = ("common/types.json", "/definitions/artifact_reference");
const REQUIREMENT_ID: (&str, &str) = ("common/types.json", "/definitions/requirement_id");
const FAMILY: (&str, &str) = ("session_context/v1.0.0.json", "/definitions/agent_family");

/// The family whose outputs must carry the disclaimer (P-043; seed 000:2432, "`disclaimer_included:
/// true` for nse-* agents").
const DISCLAIMER_FAMILY: &str = "nse";

/// The agent outputs of `plan`: `(agent_id, family directory, type)`, in plan order.
pub fn outputs(plan: &Plan) -> Vec<(&str, &str, &TypeDef)> {
    plan.types
        .iter()
        .filter(|def| def.pointer.is_empty() && def.kind == Kind::Struct)
        .filter_map(|def| {
            let id = def.source.pointer("/properties/agent_id/const").and_then(Value::as_str)?;
            let family = def.file.strip_prefix("agents/")?.split_once('/')?.0;
            Some((id, family, def))
        })
        .collect()
}

/// The impls, the `AGENTS` table and the `AGENT_READERS` table.
pub fn items(file: &syn::File, plan: &Plan) -> Result<Vec<TokenStream>, Vec<Problem>> {
    let outputs = outputs(plan);
    if outputs.is_empty() {
        // A corpus without agents (the conformance suite) has no agent knowledge.
        return Ok(Vec::new());
    }
    let mut problems = Vec::new();
    let flat = |(file, pointer): (&str, &str)| {
        plan.at(file, pointer).map(|def| def.flat.clone()).ok_or_else(|| {
            Problem::new(file, pointer, "agent knowledge needs this definition (the agent-output trait returns it)")
        })
    };
    let (confidence, artifact, requirement_id, family_type) =
        match (flat(CONFIDENCE), flat(ARTIFACT), flat(REQUIREMENT_ID), flat(FAMILY)) {
            (Ok(a), Ok(b), Ok(c), Ok(d)) => (a, b, c, d),
            (a, b, c, d) => return Err([a.err(), b.err(), c.err(), d.err()].into_iter().flatten().collect()),
        };
    let families: Vec<String> = plan
        .at(FAMILY.0, FAMILY.1)
        .and_then(|def| def.source.get("enum"))
        .and_then(Value::as_array)
        .map(|values| values.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let walker = Walker::new(file, &requirement_id);
    let (confidence_ident, artifact_ident) = (format_ident!("{confidence}"), format_ident!("{artifact}"));
    let family_ident = format_ident!("{}", family_type);
    let mut out = Vec::new();
    let mut infos = Vec::new();
    let mut readers = Vec::new();
    for (index, (id, family, def)) in outputs.into_iter().enumerate() {
        let problem = |message: String| Problem::new(&def.file, "", message);
        if !families.iter().any(|f| f == family) {
            problems.push(problem(format!(
                "agent {id}: its directory `agents/{family}/` names no agent family ({})",
                families.join(", ")
            )));
            continue;
        }
        let Some(item) = walker.structs.get(def.flat.as_str()) else {
            problems.push(problem(format!("agent {id}: no struct {} was generated", def.flat)));
            continue;
        };
        let field = |name: &str| named_fields(item).find(|(field, _)| field == name).map(|(_, f)| f);
        let ident = format_ident!("{}", def.flat);
        let confidence_body = match field("confidence").map(|f| shape(&f.ty, &confidence)) {
            None => quote!(::std::option::Option::None),
            Some(Some(Shape::Plain)) => quote!(::std::option::Option::Some(&self.confidence)),
            Some(Some(Shape::Optional)) => quote!(self.confidence.as_ref()),
            Some(_) => {
                problems.push(Problem::new(
                    &def.file,
                    "/properties/confidence",
                    "confidence is not a confidence_score",
                ));
                continue;
            }
        };
        let artifacts_body = match field("artifacts").map(|f| list_shape(&f.ty, &artifact)) {
            None => quote!(::std::option::Option::None),
            Some(Some(Shape::Plain)) => quote!(::std::option::Option::Some(self.artifacts.as_slice())),
            Some(Some(Shape::Optional)) => quote!(self.artifacts.as_deref()),
            Some(_) => {
                problems.push(Problem::new(
                    &def.file,
                    "/properties/artifacts",
                    "artifacts is not a list of artifact_reference",
                ));
                continue;
            }
        };
        let disclaimer_required = family == DISCLAIMER_FAMILY;
        let disclaimer_body = match field("disclaimer_included") {
            Some(f) if option_of(&f.ty).is_some() => quote!(self.disclaimer_included.is_some()),
            Some(_) => quote!(true),
            None if disclaimer_required => {
                problems.push(problem(format!(
                    "agent {id}: an {DISCLAIMER_FAMILY}-* output must declare disclaimer_included \
                     (P-043; seed 000:2432)"
                )));
                continue;
            }
            None => quote!(false),
        };
        let mut visits = Vec::new();
        walker.roles.set((false, false));
        let root: Type = syn::parse_quote!(#ident);
        if let Err(message) = walker.walk(&root, quote!(self), &mut Vec::new(), &mut visits, 0) {
            problems.push(problem(format!("agent {id}: {message}")));
            continue;
        }
        let (defines, references) = walker.roles.get();
        let family_variant = format_ident!("{}", pascal(family));
        let schema = &def.file;
        infos.push(quote! {
            ::jerry_contracts::AgentInfo {
                id: #id,
                family: #family_ident::#family_variant,
                disclaimer_required: #disclaimer_required,
                schema: #schema,
            },
        });
        readers.push(quote! {
            crate::agent::AgentReader {
                info: &AGENTS[#index],
                value: crate::agent::read_value::<#ident>,
                bytes: crate::agent::read_bytes::<#ident>,
                skim: crate::agent::skim_bytes::<#ident>,
                defines_requirements: #defines,
                references_requirements: #references,
            },
        });
        out.push(quote! {
            impl ::jerry_contracts::__private::AgentId for #ident {
                const AGENT_ID: &'static str = #id;
            }
            impl ::jerry_contracts::AgentOutput for #ident {
                fn agent(&self) -> &'static ::jerry_contracts::AgentInfo {
                    &AGENTS[#index]
                }
                fn confidence(&self) -> ::std::option::Option<&#confidence_ident> {
                    #confidence_body
                }
                fn artifacts(&self) -> ::std::option::Option<&[#artifact_ident]> {
                    #artifacts_body
                }
                fn disclaimer_included(&self) -> bool {
                    #disclaimer_body
                }
                #[allow(unused_variables)]
                fn requirement_ids<'s>(&'s self, visit: &mut dyn ::std::ops::FnMut(::jerry_contracts::IdUse<'s, '_>)) {
                    #(#visits)*
                }
                fn as_any(&self) -> &dyn ::std::any::Any {
                    self
                }
            }
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    out.push(quote! {
        /// Every agent with an output schema (see `jerry_contracts::AgentInfo`).
        pub static AGENTS: &[::jerry_contracts::AgentInfo] = &[#(#infos)*];
        /// How the rule layers read each agent's standalone output.
        pub(crate) static AGENT_READERS: &[crate::agent::AgentReader] = &[#(#readers)*];
    });
    Ok(out)
}

/// How a field holds a type: as itself, or in an `Option`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Plain,
    Optional,
}

/// Whether `ty` is `name` or `Option<name>`.
fn shape(ty: &Type, name: &str) -> Option<Shape> {
    match option_of(ty) {
        Some(inner) => is_named(inner, name).then_some(Shape::Optional),
        None => is_named(ty, name).then_some(Shape::Plain),
    }
}

/// Whether `ty` is `Vec<name>` or `Option<Vec<name>>`.
fn list_shape(ty: &Type, name: &str) -> Option<Shape> {
    let (list, found) = match option_of(ty) {
        Some(inner) => (inner, Shape::Optional),
        None => (ty, Shape::Plain),
    };
    let (last, argument) = last_segment(list)?;
    (last == "Vec" && argument.is_some_and(|item| is_named(item, name))).then_some(found)
}

/// The last segment's name of a path type, and its single type argument.
fn last_segment(ty: &Type) -> Option<(String, Option<&Type>)> {
    let Type::Path(path) = ty else { return None };
    let segment = path.path.segments.last()?;
    let argument = match &segment.arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        }),
        _ => None,
    };
    Some((segment.ident.to_string(), argument))
}

fn option_of(ty: &Type) -> Option<&Type> {
    match last_segment(ty)? {
        (name, inner) if name == "Option" => inner,
        _ => None,
    }
}

fn is_named(ty: &Type, name: &str) -> bool {
    last_segment(ty).is_some_and(|(last, argument)| last == name && argument.is_none())
}

/// The named fields of a struct with their JSON member names.
fn named_fields(item: &syn::ItemStruct) -> impl Iterator<Item = (String, &syn::Field)> {
    let fields = match &item.fields {
        Fields::Named(fields) => Some(fields.named.iter()),
        _ => None,
    };
    fields.into_iter().flatten().filter_map(|field| {
        let ident = field.ident.as_ref()?.to_string();
        let renamed = field.attrs.iter().find_map(|attr| renamed(quote!(#attr)));
        Some((renamed.unwrap_or_else(|| ident.strip_prefix("r#").unwrap_or(&ident).to_owned()), field))
    })
}

/// The `rename = "…"` among an attribute's tokens, at any depth.
fn renamed(tokens: TokenStream) -> Option<String> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(ident) if ident == "rename" => {
                if let (Some(TokenTree::Punct(p)), Some(TokenTree::Literal(literal))) =
                    (trees.get(i + 1), trees.get(i + 2))
                    && p.as_char() == '='
                    && let Ok(text) = syn::parse_str::<syn::LitStr>(&literal.to_string())
                {
                    return Some(text.value());
                }
            }
            TokenTree::Group(group) => {
                if let Some(found) = renamed(group.stream()) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// One step of a pointer to a visited id: a member name or a list index (the loop variable).
enum Step {
    Member(String),
    Index(syn::Ident),
}

/// The walk from an output's root to its requirement ids, over the generated items.
struct Walker<'a> {
    structs: HashMap<String, &'a syn::ItemStruct>,
    enums: HashMap<String, &'a syn::ItemEnum>,
    target: &'a str,
    /// Whether the walk so far met an id the output defines, and one it refers to.
    roles: std::cell::Cell<(bool, bool)>,
}

/// Deeper than any path in the corpus; a cycle of types ends the walk with a problem.
const MAX_STEPS: usize = 32;

impl<'a> Walker<'a> {
    fn new(file: &'a syn::File, target: &'a str) -> Self {
        let mut structs = HashMap::new();
        let mut enums = HashMap::new();
        for item in &file.items {
            match item {
                Item::Struct(s) => {
                    structs.insert(s.ident.to_string(), s);
                }
                Item::Enum(e) => {
                    enums.insert(e.ident.to_string(), e);
                }
                _ => {}
            }
        }
        Self { structs, enums, target, roles: std::cell::Cell::new((false, false)) }
    }

    /// Whether a value of `ty` can hold the target type.
    fn reaches(&self, ty: &Type, depth: usize) -> bool {
        let Type::Path(path) = ty else { return false };
        let Some(segment) = path.path.segments.last() else { return false };
        if depth > MAX_STEPS {
            return false;
        }
        if let PathArguments::AngleBracketed(args) = &segment.arguments {
            return args.args.iter().any(|arg| matches!(arg, GenericArgument::Type(t) if self.reaches(t, depth + 1)));
        }
        let name = segment.ident.to_string();
        if name == self.target {
            return true;
        }
        if let Some(item) = self.structs.get(&name) {
            return item.fields.iter().any(|f| self.reaches(&f.ty, depth + 1));
        }
        if let Some(item) = self.enums.get(&name) {
            return item.variants.iter().any(|v| v.fields.iter().any(|f| self.reaches(&f.ty, depth + 1)));
        }
        false
    }

    /// Emits into `out` the visits of every target value inside `access` (an expression of type
    /// `&ty`), at the pointer `steps`.
    fn walk(
        &self,
        ty: &Type,
        access: TokenStream,
        steps: &mut Vec<Step>,
        out: &mut Vec<TokenStream>,
        depth: usize,
    ) -> Result<(), String> {
        if depth > MAX_STEPS {
            return Err("the types holding requirement ids nest too deep (a cycle?)".to_owned());
        }
        let here = pointer_text(steps);
        // A type that is not a path (a tuple, a reference) holds no generated type.
        let Some((name, argument)) = last_segment(ty) else { return Ok(()) };
        if name == self.target && argument.is_none() {
            let (defines, references) = self.roles.get();
            let role = match steps.as_slice() {
                [.., Step::Index(_), Step::Member(member)] if member == "id" => {
                    self.roles.set((true, references));
                    quote!(Defines)
                }
                _ => {
                    self.roles.set((defines, true));
                    quote!(References)
                }
            };
            let (format, indices) = pointer_format(steps);
            out.push(quote! {
                visit(::jerry_contracts::IdUse {
                    role: ::jerry_contracts::IdRole::#role,
                    id: (#access).as_str(),
                    pointer: &|| ::std::format!(#format, #(#indices),*),
                });
            });
            return Ok(());
        }
        match (name.as_str(), argument) {
            ("Option", Some(inner)) => {
                let var = format_ident!("__v{depth}");
                let mut body = Vec::new();
                self.walk(inner, quote!(#var), steps, &mut body, depth + 1)?;
                if !body.is_empty() {
                    out.push(quote!(if let ::std::option::Option::Some(#var) = #access { #(#body)* }));
                }
                Ok(())
            }
            ("Box", Some(inner)) => self.walk(inner, quote!(&**#access), steps, out, depth + 1),
            ("Vec", Some(inner)) => {
                let (var, index) = (format_ident!("__v{depth}"), format_ident!("__i{depth}"));
                steps.push(Step::Index(index.clone()));
                let mut body = Vec::new();
                let walked = self.walk(inner, quote!(#var), steps, &mut body, depth + 1);
                steps.pop();
                walked?;
                if !body.is_empty() {
                    out.push(quote!(for (#index, #var) in (#access).iter().enumerate() { #(#body)* }));
                }
                Ok(())
            }
            _ if !self.reaches(ty, 0) => Ok(()),
            _ => match self.structs.get(&name).map(|item| &item.fields) {
                Some(Fields::Named(_)) => {
                    let item = self.structs.get(&name).copied().ok_or_else(|| here.clone())?;
                    for (member, field) in named_fields(item) {
                        if !self.reaches(&field.ty, 0) {
                            continue;
                        }
                        let ident = field.ident.as_ref().ok_or_else(|| here.clone())?;
                        steps.push(Step::Member(member));
                        let walked = self.walk(&field.ty, quote!(&(#access).#ident), steps, out, depth + 1);
                        steps.pop();
                        walked?;
                    }
                    Ok(())
                }
                Some(Fields::Unnamed(fields)) if fields.unnamed.len() == 1 => {
                    let inner = fields.unnamed.first().map(|f| &f.ty).ok_or_else(|| here.clone())?;
                    self.walk(inner, quote!(&(#access).0), steps, out, depth + 1)
                }
                _ => Err(format!(
                    "requirement ids at {} sit inside `{name}`, which the agent-knowledge walk cannot enter \
                     (a map or an enum); the reference rules would miss them",
                    here
                )),
            },
        }
    }
}

/// The pointer of `steps` as text, indices shown as `*`.
fn pointer_text(steps: &[Step]) -> String {
    let mut text = String::new();
    for step in steps {
        text.push('/');
        match step {
            Step::Member(member) => text.push_str(&jerry_contracts_pointer::escape(member)),
            Step::Index(_) => text.push('*'),
        }
    }
    if text.is_empty() { "the output's root".to_owned() } else { text }
}

/// A `format!` string for the pointer of `steps`, and the index variables it takes.
fn pointer_format(steps: &[Step]) -> (String, Vec<syn::Ident>) {
    let mut format = String::new();
    let mut indices = Vec::new();
    for step in steps {
        format.push('/');
        match step {
            Step::Member(member) => {
                format.push_str(&jerry_contracts_pointer::escape(member).replace('{', "{{").replace('}', "}}"))
            }
            Step::Index(index) => {
                format.push_str("{}");
                indices.push(index.clone());
            }
        }
    }
    (format, indices)
}
