//! Agent knowledge, rendered in Rust from the model's agent facts ([`crate::model::AgentFacts`]):
//! `jerry_contracts::AgentOutput` for every agent output, the table of agents (`AGENTS`) and the
//! crate's readers of a standalone output (`AGENT_READERS`). The rule layers read agents only
//! through these, so adding an agent is adding its schema.
//!
//! The model says which agents there are, their families, and every place an output holds a
//! requirement id; this renderer follows each place through the generated Rust types (fields,
//! lists, options, boxes and newtypes) to the code that visits it, and reads the `confidence`,
//! `artifacts` and `disclaimer_included` fields as the types hold them. A place the Rust types
//! do not lead to fails the generation, naming the schema: no id is left out of the rules.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Fields, GenericArgument, Item, PathArguments, Type};

use crate::attributes::Members;
use crate::corpus::Problem;
use crate::model::{
    ARTIFACT, AgentFacts, CONFIDENCE, DISCLAIMER_FAMILY, FAMILY, IdPlace, IdRole, REQUIREMENT_ID, Step,
};
use crate::naming::pascal;
use crate::plan::Plan;

/// The impls, the `AGENTS` table and the `AGENT_READERS` table.
pub fn items(
    file: &syn::File,
    plan: &Plan,
    agents: &[AgentFacts],
    members: &Members,
) -> Result<Vec<TokenStream>, Vec<Problem>> {
    if agents.is_empty() {
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
    let shapes = Shapes::new(file, &requirement_id, members);
    let (confidence_ident, artifact_ident) = (format_ident!("{confidence}"), format_ident!("{artifact}"));
    let family_ident = format_ident!("{}", family_type);
    let mut out = Vec::new();
    let mut infos = Vec::new();
    let mut readers = Vec::new();
    for (index, facts) in agents.iter().enumerate() {
        let (id, family) = (&facts.agent_id, &facts.family);
        let problem = |message: String| Problem::new(&facts.file, "", message);
        let Some(item) = shapes.structs.get(facts.flat.as_str()) else {
            problems.push(problem(format!("agent {id}: no struct {} was generated", facts.flat)));
            continue;
        };
        let field = |name: &str| shapes.field(item, name);
        let ident = format_ident!("{}", facts.flat);
        let confidence_body = match field("confidence").map(|f| shape(&f.ty, &confidence)) {
            None => quote!(::std::option::Option::None),
            Some(Some(Shape::Plain)) => quote!(::std::option::Option::Some(&self.confidence)),
            Some(Some(Shape::Optional)) => quote!(self.confidence.as_ref()),
            Some(_) => {
                problems.push(Problem::new(
                    &facts.file,
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
                    &facts.file,
                    "/properties/artifacts",
                    "artifacts is not a list of artifact_reference",
                ));
                continue;
            }
        };
        let disclaimer_required = facts.disclaimer_required;
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
        let root: Type = syn::parse_quote!(#ident);
        let mut visits = Vec::new();
        for place in &facts.requirement_ids {
            let mut pointer = Vec::new();
            if let Err(message) = shapes.visit(&root, quote!(self), place, 0, &mut pointer, &mut visits, 0) {
                problems.push(problem(format!("agent {id}: {message}")));
            }
        }
        let (defines, references) = (facts.defines_requirements(), facts.references_requirements());
        let family_variant = format_ident!("{}", pascal(family));
        let schema = &facts.file;
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

/// One part of the pointer of a visited id: a member name, or a list index (its loop variable).
enum Part {
    Member(String),
    Index(syn::Ident),
}

/// The generated structs, by name: the Rust shapes the visits follow.
struct Shapes<'a> {
    structs: HashMap<String, &'a syn::ItemStruct>,
    /// Which field of a struct holds which member (the attribute pass's table).
    members: &'a Members,
    /// Flat name of the requirement id type.
    target: &'a str,
}

/// Deeper than any path in the corpus.
const MAX_DEPTH: usize = 64;

impl<'a> Shapes<'a> {
    fn new(file: &'a syn::File, target: &'a str, members: &'a Members) -> Self {
        let structs = file
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Struct(s) => Some((s.ident.to_string(), s)),
                _ => None,
            })
            .collect();
        Self { structs, members, target }
    }

    /// The field of struct `item` that holds member `json`.
    fn field(&self, item: &'a syn::ItemStruct, json: &str) -> Option<&'a syn::Field> {
        let member = self.members.by_json(&item.ident.to_string(), json)?;
        let Fields::Named(fields) = &item.fields else { return None };
        fields.named.iter().find(|f| f.ident.as_ref().is_some_and(|i| *i == member.field))
    }

    /// The one field of a newtype struct named by `ty`.
    fn newtype_field(&self, ty: &Type) -> Option<&'a Type> {
        let (name, None) = last_segment(ty)? else { return None };
        match &self.structs.get(&name)?.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => fields.unnamed.first().map(|f| &f.ty),
            _ => None,
        }
    }

    /// Emits into `out` the visit of the ids at `place`, from `place.steps[at]` on, inside
    /// `access` (an expression of type `&ty`) at the pointer `pointer`.
    #[allow(clippy::too_many_arguments)]
    fn visit(
        &self,
        ty: &Type,
        access: TokenStream,
        place: &IdPlace,
        at: usize,
        pointer: &mut Vec<Part>,
        out: &mut Vec<TokenStream>,
        depth: usize,
    ) -> Result<(), String> {
        let shown = || crate::model::pointer_text(&place.steps[..at]);
        if depth > MAX_DEPTH {
            return Err(format!("the Rust types at {} nest too deep", shown()));
        }
        let Some((name, argument)) = last_segment(ty) else {
            return Err(format!("the Rust type at {} is not a path", shown()));
        };
        match (name.as_str(), argument) {
            ("Option", Some(inner)) => {
                let var = format_ident!("__v{depth}");
                let mut body = Vec::new();
                self.visit(inner, quote!(#var), place, at, pointer, &mut body, depth + 1)?;
                out.push(quote!(if let ::std::option::Option::Some(#var) = #access { #(#body)* }));
                return Ok(());
            }
            ("Box", Some(inner)) => return self.visit(inner, quote!(&**#access), place, at, pointer, out, depth + 1),
            _ => {}
        }
        match place.steps.get(at) {
            None if name == self.target && argument.is_none() => {
                let role = match place.role {
                    IdRole::Defines => quote!(Defines),
                    IdRole::References => quote!(References),
                };
                let (format, indices) = pointer_format(pointer);
                out.push(quote! {
                    visit(::jerry_contracts::IdUse {
                        role: ::jerry_contracts::IdRole::#role,
                        id: (#access).as_str(),
                        pointer: &|| ::std::format!(#format, #(#indices),*),
                    });
                });
                Ok(())
            }
            Some(Step::Each) if name == "Vec" => {
                let inner = argument.ok_or_else(|| format!("a list without its item type at {}", shown()))?;
                let (var, index) = (format_ident!("__v{depth}"), format_ident!("__i{depth}"));
                pointer.push(Part::Index(index.clone()));
                let mut body = Vec::new();
                let visited = self.visit(inner, quote!(#var), place, at + 1, pointer, &mut body, depth + 1);
                pointer.pop();
                visited?;
                out.push(quote!(for (#index, #var) in (#access).iter().enumerate() { #(#body)* }));
                Ok(())
            }
            Some(Step::Member(member))
                if self.structs.get(&name).is_some_and(|s| matches!(s.fields, Fields::Named(_))) =>
            {
                let item = self.structs.get(&name).copied().ok_or_else(shown)?;
                let Some(field) = self.field(item, member) else {
                    return Err(format!("{name} has no field for the member {member:?} at {}", shown()));
                };
                let ident = field.ident.as_ref().ok_or_else(shown)?;
                pointer.push(Part::Member(member.clone()));
                let visited = self.visit(&field.ty, quote!(&(#access).#ident), place, at + 1, pointer, out, depth + 1);
                pointer.pop();
                visited
            }
            _ => match self.newtype_field(ty) {
                Some(inner) => self.visit(inner, quote!(&(#access).0), place, at, pointer, out, depth + 1),
                None => Err(format!(
                    "requirement ids at {} sit inside `{name}`, which the agent-knowledge walk cannot enter; the \
                     reference rules would miss them",
                    crate::model::pointer_text(&place.steps)
                )),
            },
        }
    }
}

/// A `format!` string for `pointer`, and the index variables it takes.
fn pointer_format(pointer: &[Part]) -> (String, Vec<syn::Ident>) {
    let mut format = String::new();
    let mut indices = Vec::new();
    for part in pointer {
        format.push('/');
        match part {
            Part::Member(member) => {
                format.push_str(&jerry_contracts_pointer::escape(member).replace('{', "{{").replace('}', "}}"))
            }
            Part::Index(index) => {
                format.push_str("{}");
                indices.push(index.clone());
            }
        }
    }
    (format, indices)
}
