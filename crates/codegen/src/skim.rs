//! The skim pass: every generated struct, newtype and enum derives
//! `jerry_contracts::__private::Skim` (the check-only read of the validator's fast path, written
//! once in `jerry-contracts-derive`), and the fields the rule layers read are marked for it:
//! - `#[skim(capture)]`: a member of a root the rules judge (the v1.1.0 envelope, the agent
//!   outputs), read whole or kept, and handed to the skim's context;
//! - `#[skim(keep)]`: a field the rules read of a value skimmed otherwise (`ConfidenceScore`'s
//!   `overall`, …), held in the type's `Kept` view;
//! - `#[skim(text)]`: a kept or captured field whose type is a string newtype, taken as text
//!   where it lies in the input;
//! - `#[skim(kept)]`: a captured field whose type, or item type, has a `Kept` view.
//!
//! Which members those are is the model's (`model::agents`: `ROOT_READS`, `OUTPUT_READS`,
//! `KEEPS`), beside the agent facts the rules read.

use quote::quote;
use syn::{Fields, Item, Type};

use crate::attributes::{Members, attr, generic_argument, option_inner};
use crate::corpus::Problem;
use crate::declarations::Declared;
use crate::model::{KEEPS, Model, OUTPUT_READS, ROOT_READS};
use crate::plan::Plan;

/// Adds the derive to every generated struct and enum, and the marks to the fields the rules read.
pub fn apply(
    file: &mut syn::File,
    plan: &Plan,
    model: &Model,
    members: &Members,
    declared: &Declared,
) -> Result<(), Vec<Problem>> {
    let texts = string_newtypes(file, declared);
    // What the rule layers read (the model's agent facts): the types kept, by flat name.
    let keeps: Vec<(&str, &[&str])> = KEEPS
        .iter()
        .filter_map(|((file, pointer), fields)| plan.at(file, pointer).map(|def| (def.flat.as_str(), *fields)))
        .collect();
    let derive = attr("#[derive(::jerry_contracts::__private::Skim)]");
    let mut problems = Vec::new();
    for item in &mut file.items {
        match item {
            Item::Enum(item) => item.attrs.push(derive.clone()),
            Item::Struct(item) => {
                item.attrs.push(derive.clone());
                let Fields::Named(fields) = &mut item.fields else { continue };
                let name = item.ident.to_string();
                let def = plan.get(&name);
                let captures: &[&str] = match def {
                    Some(def) if def.pointer.is_empty() => ROOT_READS
                        .iter()
                        .find(|(file, _)| *file == def.file)
                        .map(|(_, names)| *names)
                        .or_else(|| model.agents.iter().any(|agent| agent.flat == name).then_some(OUTPUT_READS))
                        .unwrap_or(&[]),
                    _ => &[],
                };
                let kept: &[&str] = keeps.iter().find(|(type_name, _)| *type_name == name).map_or(&[], |(_, f)| *f);
                let mut marked = 0;
                for field in &mut fields.named {
                    let Some(member) = field.ident.as_ref().and_then(|i| members.by_field(&name, &i.to_string()))
                    else {
                        continue;
                    };
                    let json = member.json.as_str();
                    let (capture, keep) = (captures.contains(&json), kept.contains(&json));
                    if !capture && !keep {
                        continue;
                    }
                    let value = option_inner(&field.ty).unwrap_or(&field.ty);
                    let mut marks = Vec::new();
                    if capture {
                        marks.push(quote!(capture));
                    }
                    if keep {
                        marks.push(quote!(keep));
                    }
                    if is_one_of(value, &texts) {
                        marks.push(quote!(text));
                    }
                    let item_type = generic_argument(value, "Vec").unwrap_or(value);
                    if capture && keeps.iter().any(|(type_name, _)| is_named(item_type, type_name)) {
                        marks.push(quote!(kept));
                    }
                    field.attrs.push(attr(&quote!(#[skim(#(#marks),*)]).to_string()));
                    marked += usize::from(keep);
                }
                if marked != kept.len() {
                    let (file, pointer) = def.map_or(("", ""), |d| (d.file.as_str(), d.pointer.as_str()));
                    let message =
                        format!("skim pass: the rules keep fields {kept:?} of {name}, which it does not have all of");
                    problems.push(Problem::new(file, pointer, message));
                }
            }
            _ => {}
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// The string newtypes (`SessionId`, `AgentId`, …): a transparent newtype of `String`.
fn string_newtypes(file: &syn::File, declared: &Declared) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            Item::Struct(item) if declared.is_newtype(&item.ident.to_string()) => match &item.fields {
                Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                    let ty = &fields.unnamed.first()?.ty;
                    (quote!(#ty).to_string().replace(' ', "") == "::std::string::String")
                        .then(|| item.ident.to_string())
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn is_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.path.is_ident(name))
}

fn is_one_of(ty: &Type, names: &[String]) -> bool {
    names.iter().any(|name| is_named(ty, name))
}
