//! Checked string newtypes: a named string type with schema rules (an id pattern, a length) gets
//! constructors that check those rules — `new`, `TryFrom<&str>`, `TryFrom<String>` and
//! `FromStr` — each failing with a `jerry_contracts::InvalidValue` that names the type, the value
//! and the rule. (The declarations keep its field private and leave out typify's unchecked
//! `From<String>` and infallible `FromStr`.) Reading JSON stays unchecked (the validation layers
//! report every violation at its place); building a value in code is checked.

use std::collections::BTreeMap;

use quote::{format_ident, quote};
use serde_json::Value;

use crate::corpus::Problem;
use crate::declarations::Declared;
use crate::model::Checks;
use crate::plan::Plan;

/// Applies the pass to the checked newtypes the declarations hold (`declared`).
pub fn apply(file: &mut syn::File, plan: &Plan, declared: &Declared) -> Result<(), Vec<Problem>> {
    let mut checked: BTreeMap<String, (String, String)> = BTreeMap::new();
    for flat in declared.checked() {
        let Some(def) = plan.get(flat) else {
            return Err(vec![Problem::new("schemas/", "", format!("a checked newtype {flat} the plan does not have"))]);
        };
        let Some(rule) = rule(&def.source) else {
            return Err(vec![Problem::new(&def.file, &def.pointer, "a checked string type with no rule to name")]);
        };
        checked.insert(flat.to_owned(), (def.public.clone(), rule));
    }
    for (flat, (public, rule)) in &checked {
        let ident = format_ident!("{flat}");
        // In the docs the rule's pattern is code, so that rustdoc reads no link in its brackets.
        let shown = rule.replacen("match the pattern ", "match the pattern `", 1);
        let shown = if shown.len() == rule.len() {
            shown
        } else {
            match shown.find(" and have ").or_else(|| shown.find(" and be ")) {
                Some(end) => format!("{}`{}", &shown[..end], &shown[end..]),
                None => format!("{shown}`"),
            }
        };
        let new_doc = format!(" A `{public}` holding `value`, or an error when {shown}.");
        let tokens = quote! {
            impl #ident {
                #[doc = #new_doc]
                pub fn new(value: impl ::std::convert::Into<::std::string::String>) -> ::std::result::Result<Self, ::jerry_contracts::InvalidValue> {
                    let value = Self(value.into());
                    match ::garde::Validate::validate(&value) {
                        ::std::result::Result::Ok(()) => ::std::result::Result::Ok(value),
                        ::std::result::Result::Err(_) => ::std::result::Result::Err(::jerry_contracts::__private::invalid_value(#public, &value.0, #rule)),
                    }
                }
                /// The text.
                pub fn as_str(&self) -> &str {
                    &self.0
                }
                /// The text, owned.
                pub fn into_inner(self) -> ::std::string::String {
                    self.0
                }
            }
            impl ::std::str::FromStr for #ident {
                type Err = ::jerry_contracts::InvalidValue;
                fn from_str(value: &str) -> ::std::result::Result<Self, Self::Err> {
                    Self::new(value)
                }
            }
            impl ::std::convert::TryFrom<&str> for #ident {
                type Error = ::jerry_contracts::InvalidValue;
                fn try_from(value: &str) -> ::std::result::Result<Self, Self::Error> {
                    Self::new(value)
                }
            }
            impl ::std::convert::TryFrom<::std::string::String> for #ident {
                type Error = ::jerry_contracts::InvalidValue;
                fn try_from(value: ::std::string::String) -> ::std::result::Result<Self, Self::Error> {
                    Self::new(value)
                }
            }
            impl ::std::cmp::PartialEq<str> for #ident {
                fn eq(&self, other: &str) -> bool {
                    self.0 == other
                }
            }
            impl ::std::cmp::PartialEq<&str> for #ident {
                fn eq(&self, other: &&str) -> bool {
                    self.0 == *other
                }
            }
            impl ::std::convert::AsRef<str> for #ident {
                fn as_ref(&self) -> &str {
                    &self.0
                }
            }
        };
        let parsed: syn::File = syn::parse2(tokens)
            .map_err(|e| vec![Problem::new("schemas/", "", format!("checked constructors of {flat}: {e}"))])?;
        file.items.extend(parsed.items);
    }
    Ok(())
}

/// The schema rules of a string type, as the error says them ("it must match the pattern …"):
/// the value checks of the keyword table ([`Checks`]) the type's schema asks.
fn rule(schema: &Value) -> Option<String> {
    let checks = Checks::of(schema.as_object()?);
    let mut parts = Vec::new();
    if let Some(pattern) = checks.pattern {
        parts.push(format!("match the pattern {pattern}"));
    }
    if let Some(min) = checks.characters.min.and_then(Value::as_u64) {
        parts.push(format!("have at least {min} character{}", if min == 1 { "" } else { "s" }));
    }
    if let Some(max) = checks.characters.max.and_then(Value::as_u64) {
        parts.push(format!("have at most {max} characters"));
    }
    if let Some(format) = checks.format {
        parts.push(format!("be a {format}"));
    }
    (!parts.is_empty()).then(|| format!("it must {}", parts.join(" and ")))
}
