//! Enum conversions from text: typify's `FromStr` and `TryFrom<&str>`/`<&String>`/`<String>` of a
//! string enum fail with "invalid value"; this pass makes them fail with the
//! `jerry_contracts::InvalidValue` the checked newtypes give, naming the type, the value and the
//! allowed values (`ResearcherFindingCategory cannot be "bogus": it must be one of "insight",
//! "pattern", …`).

use quote::quote;
use syn::visit_mut::VisitMut;
use syn::{Expr, Item, Lit, Pat, Type};

use crate::corpus::Problem;
use crate::plan::Plan;

/// Applies the pass to the generated items.
pub fn apply(file: &mut syn::File, plan: &Plan) -> Result<(), Vec<Problem>> {
    let enums: Vec<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Enum(item) => Some(item.ident.to_string()),
            _ => None,
        })
        .collect();
    for item in &mut file.items {
        let Item::Impl(block) = item else { continue };
        let Some((_, trait_path, _)) = &block.trait_ else { continue };
        let Some(last) = trait_path.segments.last() else { continue };
        let text_conversion = match last.ident.to_string().as_str() {
            "FromStr" => true,
            "TryFrom" => {
                let arg = &last.arguments;
                let arg = quote!(#arg).to_string().replace(' ', "");
                ["<&str>", "<&::std::string::String>", "<::std::string::String>"].contains(&arg.as_str())
            }
            _ => false,
        };
        let Type::Path(self_ty) = &*block.self_ty else { continue };
        let Some(name) = self_ty.path.segments.last().map(|s| s.ident.to_string()) else { continue };
        if !text_conversion || !enums.contains(&name) {
            continue;
        }
        let is_from_str = last.ident == "FromStr";
        let public = plan.get(&name).map_or(name.clone(), |def| def.public.clone());
        let mut rewrite = Rewrite { public, found: false, problem: None };
        rewrite.visit_item_impl_mut(block);
        if is_from_str && !rewrite.found && rewrite.problem.is_none() {
            rewrite.problem = Some(format!("the FromStr of {name} has no `_` arm to name the allowed values in"));
        }
        if let Some(problem) = rewrite.problem {
            let (file, pointer) =
                plan.get(&name).map_or((String::new(), String::new()), |d| (d.file.clone(), d.pointer.clone()));
            return Err(vec![Problem::new(&file, &pointer, problem)]);
        }
    }
    Ok(())
}

/// Replaces typify's `ConversionError` by `InvalidValue` in one impl, and its "invalid value"
/// arm by one that names the allowed values.
struct Rewrite {
    public: String,
    found: bool,
    problem: Option<String>,
}

impl VisitMut for Rewrite {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if quote!(#ty).to_string().replace(' ', "").ends_with("error::ConversionError") {
            *ty = syn::parse_quote!(::jerry_contracts::InvalidValue);
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }

    fn visit_expr_match_mut(&mut self, expr: &mut syn::ExprMatch) {
        let allowed: Vec<String> = expr
            .arms
            .iter()
            .filter_map(|arm| match &arm.pat {
                Pat::Lit(lit) => match &lit.lit {
                    Lit::Str(text) => Some(text.value()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let rule =
            format!("it must be one of {}", allowed.iter().map(|a| format!("{a:?}")).collect::<Vec<_>>().join(", "));
        let public = &self.public;
        for arm in &mut expr.arms {
            if matches!(arm.pat, Pat::Wild(_)) {
                let body: Expr = syn::parse_quote! {
                    Err(::jerry_contracts::__private::invalid_value(#public, value, #rule))
                };
                *arm.body = body;
                self.found = true;
            }
        }
        if allowed.is_empty() {
            self.problem = Some(format!("the FromStr of {public} names no string value"));
        }
        syn::visit_mut::visit_expr_match_mut(self, expr);
    }
}
