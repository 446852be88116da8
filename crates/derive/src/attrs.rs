//! What the derives read of a declaration: a field's `#[serde(…)]` attributes (the names and
//! read helpers the generator wrote), its `#[garde(…)]` rules, the `#[skim(…)]` attributes, and
//! the shapes of field types (`Option<T>`, `Vec<T>`, `BTreeMap<String, T>`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::punctuated::Punctuated;
use syn::{Attribute, Meta, Token, Type};

/// What the serde attributes of one field ask for.
#[derive(Default)]
pub(crate) struct FieldSerde {
    pub(crate) rename: Option<String>,
    pub(crate) default: bool,
    pub(crate) flatten: bool,
    pub(crate) deserialize_with: Option<syn::ExprPath>,
    pub(crate) serialize_with: Option<syn::ExprPath>,
    pub(crate) skip_serializing_if: Option<syn::ExprPath>,
}

impl FieldSerde {
    /// The `deserialize_with` path as text without spaces (`present`, `required_nullable`, …).
    pub(crate) fn with(&self) -> Option<String> {
        self.deserialize_with.as_ref().map(shown)
    }
}

/// A field's serde attributes; an attribute the derives do not carry is an error.
pub(crate) fn field_serde(attrs: &[Attribute]) -> syn::Result<FieldSerde> {
    let mut out = FieldSerde::default();
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        a.parse_nested_meta(|meta| {
            let path = |meta: &syn::meta::ParseNestedMeta| -> syn::Result<syn::ExprPath> {
                let text: syn::LitStr = meta.value()?.parse()?;
                text.parse()
            };
            if meta.path.is_ident("rename") {
                let text: syn::LitStr = meta.value()?.parse()?;
                out.rename = Some(text.value());
            } else if meta.path.is_ident("default") {
                out.default = true;
            } else if meta.path.is_ident("flatten") {
                out.flatten = true;
            } else if meta.path.is_ident("deserialize_with") {
                out.deserialize_with = Some(path(&meta)?);
            } else if meta.path.is_ident("serialize_with") {
                out.serialize_with = Some(path(&meta)?);
            } else if meta.path.is_ident("skip_serializing_if") {
                out.skip_serializing_if = Some(path(&meta)?);
            } else if meta.path.is_ident("with") {
                let module = path(&meta)?;
                out.deserialize_with = Some(syn::parse_quote!(#module::deserialize));
                out.serialize_with = Some(syn::parse_quote!(#module::serialize));
            } else {
                return Err(meta.error("a serde attribute the derives do not carry"));
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// The member name of a field: its `rename`, or its identifier without `r#`.
pub(crate) fn json_name(ident: &syn::Ident, serde: &FieldSerde) -> String {
    serde.rename.clone().unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_owned())
}

/// Whether a type's `#[serde(transparent)]` makes it read as its one field.
pub(crate) fn transparent(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("serde") && matches!(&a.meta, Meta::List(l) if l.tokens.to_string() == "transparent")
    })
}

/// One `garde` rule of a field.
pub(crate) enum Rule {
    Dive,
    Length { chars: bool, min: Option<TokenStream>, max: Option<TokenStream> },
    Range { min: Option<TokenStream>, max: Option<TokenStream> },
    Pattern(syn::Ident),
    Custom(String),
}

/// The field's `garde` rules; `skip` is none, and a rule the derives do not know is an error
/// (the skim would otherwise accept what `garde` refuses).
pub(crate) fn garde_rules(attrs: &[Attribute]) -> syn::Result<Vec<Rule>> {
    let mut rules = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("garde")) {
        let metas = a.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
        for meta in metas {
            let unknown = || syn::Error::new_spanned(&meta, "a garde rule the skim does not carry");
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
                    } else if chars {
                        return Err(unknown());
                    } else {
                        Rule::Range { min, max }
                    });
                }
                _ => return Err(unknown()),
            }
        }
    }
    Ok(rules)
}

/// Tokens as text without spaces, to compare a type or path with a spelling.
pub(crate) fn shown(tokens: &impl quote::ToTokens) -> String {
    tokens.to_token_stream().to_string().replace(' ', "")
}

/// The `T` of `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    generic_argument(ty, "Option")
}

/// The `T` of `::std::…::Name<T>`.
pub(crate) fn generic_argument<'t>(ty: &'t Type, name: &str) -> Option<&'t Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// The `T` of `::std::collections::BTreeMap<::std::string::String, T>` (an object read as a map).
pub(crate) fn map_value(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "BTreeMap" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match (args.args.first()?, args.args.get(1)?) {
        (syn::GenericArgument::Type(key), syn::GenericArgument::Type(value))
            if args.args.len() == 2 && shown(key) == "::std::string::String" =>
        {
            Some(value)
        }
        _ => None,
    }
}

/// Whether a field's type holds free-form JSON (`serde_json::Value`, a map or list of them):
/// serde_json's own reader of those keeps the last of two members of the same name.
pub(crate) fn holds_json_value(ty: &Type) -> bool {
    shown(ty).contains("serde_json::Value")
}

/// Whether `ty` names a type generated beside this one (`ResearcherOutput`,
/// `crate::generated::V11Payload`).
pub(crate) fn is_generated(ty: &Type) -> bool {
    let Type::Path(p) = ty else { return false };
    let plain = p.path.segments.iter().all(|s| s.arguments.is_none());
    let local = match p.path.segments.len() {
        1 => true,
        3 => p.path.segments[0].ident == "crate" && p.path.segments[1].ident == "generated",
        _ => false,
    };
    p.qself.is_none() && p.path.leading_colon.is_none() && plain && local
}

/// Where a derive's error points a reader: the type and the schema its docs name
/// (`Schema: \`https://jerry.dev/schemas/…\``), so a failure names the schema file and pointer.
pub(crate) fn error(item: &syn::DeriveInput, err: syn::Error) -> TokenStream {
    let schema = item
        .attrs
        .iter()
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .find_map(|line| line.split_once("Schema: ").map(|(_, at)| at.trim().trim_matches('`').to_owned()))
        .unwrap_or_else(|| "no schema named in its docs".to_owned());
    let message = format!("jerry-contracts-derive: {} (schema {schema}): {err}", item.ident);
    syn::Error::new(err.span(), message).to_compile_error()
}
