//! The attribute pass: the declarations give the shapes ([`crate::declarations`]); this pass
//! makes each generated item exactly as strict and as faithful as its schema. It adds `garde`
//! rules for every pattern, range, length, item count, uniqueness and URI format (with JSON
//! property names in error paths), makes every optional field an `Option` so that a document is
//! written back as it was read (an empty array stays, a `null` stays), adds the `extra` map that
//! keeps undeclared properties, and documents every type and field with its constraints and the
//! schema it comes from. What a declaration says (a field's JSON name, whether it has a doc) it
//! asks the declarations' table, not the attributes.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{Map, Value};
use syn::parse::Parser;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Fields, Item, Type};

use crate::corpus::Problem;
use crate::declarations::Declared;
use crate::model::{Bounds, Checks, Field, Keyword, Model, UriForm, nullable};
use crate::plan::{Kind, Plan, TypeDef};

/// Each generated struct's declared members, as this pass names and types its fields. The later
/// passes (the serde, skim, constructor and agent passes) ask this table, never the
/// `#[serde(...)]` text this pass writes.
#[derive(Debug, Default)]
pub struct Members(BTreeMap<String, Vec<Member>>);

/// One declared member of a struct and the field that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The member's name in JSON.
    pub json: String,
    /// The Rust field (`r#type` for a keyword).
    pub field: String,
    /// Whether the object must have the member.
    pub required: bool,
    /// Whether the member may be `null`.
    pub nullable: bool,
}

impl Members {
    /// The declared members of the struct of flat name `flat`, in field order (`None`: no such
    /// struct); the `extra` field is not one.
    pub fn of(&self, flat: &str) -> Option<&[Member]> {
        self.0.get(flat).map(Vec::as_slice)
    }

    /// The member of struct `flat` that JSON calls `json`.
    pub fn by_json(&self, flat: &str, json: &str) -> Option<&Member> {
        self.of(flat)?.iter().find(|m| m.json == json)
    }

    /// The member that field `field` of struct `flat` holds (`None` for `extra`).
    pub fn by_field(&self, flat: &str, field: &str) -> Option<&Member> {
        self.of(flat)?.iter().find(|m| m.field == field)
    }
}

/// The field of every struct that keeps the members its schema does not declare.
pub const EXTRA_FIELD: &str = "extra";

/// Applies the pass to every item typify generated, and says which field holds which member.
pub fn apply(file: &mut syn::File, plan: &Plan, model: &Model, declared: &Declared) -> Result<Members, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut members = Members::default();
    let patterns = crate::naming::pattern_statics(plan);
    for item in &mut file.items {
        match item {
            Item::Struct(item) => {
                let Some(def) = plan.get(&item.ident.to_string()) else { continue };
                let fields = model.object(&def.flat).map(|(fields, _)| fields);
                match structure(item, def, fields, declared, plan, &patterns) {
                    Ok(Some(fields)) => {
                        members.0.insert(def.flat.clone(), fields);
                    }
                    Ok(None) => {}
                    Err(problem) => problems.push(problem),
                }
            }
            Item::Enum(item) => {
                let Some(def) = plan.get(&item.ident.to_string()) else { continue };
                enumeration(item, def, declared);
            }
            _ => {}
        }
    }
    let conversions: Vec<Item> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Struct(item) => number_conversion(item),
            _ => None,
        })
        .collect();
    ExactNumbers.visit_file_mut(file);
    file.items.extend(conversions);
    if problems.is_empty() { Ok(members) } else { Err(problems) }
}

/// Makes every `f64` and `i64` typify wrote a `jerry_contracts::Number` of it, in fields, newtype
/// impls and signatures alike, so that numbers keep their source text (D-112) and an integer
/// field reads `100.0` as JSON Schema does (D-110).
struct ExactNumbers;

impl VisitMut for ExactNumbers {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(path) = ty
            && path.qself.is_none()
            && (path.path.is_ident("f64") || path.path.is_ident("i64"))
        {
            let inner = path.path.clone();
            *ty = syn::parse_quote!(::jerry_contracts::Number<#inner>);
            return;
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// Parses one outer attribute written as text.
pub fn attr(text: &str) -> Attribute {
    match Attribute::parse_outer.parse_str(text) {
        Ok(mut attrs) if attrs.len() == 1 => attrs.remove(0),
        // Every attribute text is produced by this crate from validated parts.
        Ok(attrs) => unreachable!("generator produced {} attributes from {text}", attrs.len()),
        Err(err) => unreachable!("generator produced an invalid attribute {text}: {err}"),
    }
}

fn doc(text: &str) -> Attribute {
    let literal = proc_macro2::Literal::string(&format!(" {text}"));
    attr(&format!("#[doc = {literal}]"))
}

/// The type's docs (after the description the declaration has, if `documented`: its
/// constraints in words, when it holds one constrained value, and its schema) and derives.
fn type_attrs(attrs: &mut Vec<Attribute>, def: &TypeDef, documented: bool, validates: bool, said: &[String]) {
    if !said.is_empty() {
        if documented {
            attrs.push(doc(""));
        }
        attrs.push(doc(&constraints_line(said)));
    }
    if documented || !said.is_empty() {
        attrs.push(doc(""));
    }
    attrs.push(doc(&format!("Schema: `{}`", def.location())));
    if validates {
        attrs.push(attr("#[derive(::garde::Validate)]"));
    }
    attrs.push(attr("#[cfg_attr(feature = \"schemars\", derive(::schemars::JsonSchema))]"));
    if !said.is_empty() {
        // After the derive that introduces the `schemars` attribute.
        attrs.push(schema_description(def.source.get(Keyword::Description.as_str())));
    }
}

/// schemars describes an item by its doc; a constraint line says the schema's keywords, not its
/// description, so an item with one keeps the source's own description in the derived schema
/// (an empty one is left out).
fn schema_description(description: Option<&Value>) -> Attribute {
    let literal = proc_macro2::Literal::string(description.and_then(Value::as_str).unwrap_or(""));
    attr(&format!("#[cfg_attr(feature = \"schemars\", schemars(description = {literal}))]"))
}

/// `Constraints: pattern `^X$`; 1 to 50 items.`
fn constraints_line(said: &[String]) -> String {
    format!("Constraints: {}.", said.join("; "))
}

fn enumeration(item: &mut syn::ItemEnum, def: &TypeDef, declared: &Declared) {
    type_attrs(&mut item.attrs, def, declared.is_documented(&def.flat), false, &[]);
}

/// Completes one struct (`fields`: the model's fields of an object; `declared`: what its
/// declaration says); for a struct with named fields, its members.
fn structure(
    item: &mut syn::ItemStruct,
    def: &TypeDef,
    model_fields: Option<&[Field]>,
    declared: &Declared,
    plan: &Plan,
    patterns: &[String],
) -> Result<Option<Vec<Member>>, Problem> {
    let validates = def.validates;
    let source = def.source.as_object().cloned().unwrap_or_default();
    let newtype = matches!(&item.fields, Fields::Unnamed(fields) if fields.unnamed.len() == 1);
    // A newtype's constraints are its content's: said on the type.
    let said = if newtype { rules(def, &def.pointer, &source, plan, patterns)?.said } else { Vec::new() };
    type_attrs(&mut item.attrs, def, declared.is_documented(&def.flat), validates, &said);
    match (&def.kind, &mut item.fields) {
        (Kind::Struct, Fields::Named(fields)) => {
            item.attrs.push(attr("#[garde(allow_unvalidated)]"));
            let properties =
                source.get(Keyword::Properties.as_str()).and_then(Value::as_object).cloned().unwrap_or_default();
            let mut members = Vec::new();
            for field in fields.named.iter_mut() {
                let ident = field.ident.as_ref().map(ToString::to_string).unwrap_or_default();
                let json_name = declared.member(&def.flat, &ident).map_or(ident.clone(), str::to_owned);
                let field_model = model_fields.into_iter().flatten().find(|f| f.name == json_name);
                let (Some(field_model), Some(schema)) =
                    (field_model, properties.get(&json_name).and_then(Value::as_object))
                else {
                    return Err(Problem::new(
                        &def.file,
                        &def.pointer,
                        format!("typify produced field {ident} for no property"),
                    ));
                };
                let at = field_model.pointer.clone();
                if json_name != ident {
                    // garde names fields by their identifier (it ignores `rename`), so the field
                    // must be spelled as the JSON property (a raw identifier for a keyword), not
                    // renamed as typify would.
                    let Some(raw) = raw_identifier(&json_name) else {
                        return Err(Problem::new(
                            &def.file,
                            &at,
                            format!(
                                "property name {json_name:?} cannot be spelled as a Rust field, so validation paths could not name it"
                            ),
                        ));
                    };
                    field.ident = Some(raw);
                }
                let is_required = field_model.required;
                let nullable = nullable(schema);
                members.push(Member {
                    json: json_name.clone(),
                    field: field.ident.as_ref().map(ToString::to_string).unwrap_or_default(),
                    required: is_required,
                    nullable,
                });
                field_type(field, is_required, nullable);
                let rules = rules(def, &at, schema, plan, patterns)?;
                if !rules.garde.is_empty() {
                    field.attrs.push(attr(&format!("#[garde({})]", rules.garde.join(", "))));
                }
                schemars_extensions(&mut field.attrs, schema);
                if !rules.said.is_empty() {
                    if declared.is_field_documented(&def.flat, &ident) {
                        field.attrs.push(doc(""));
                    }
                    field.attrs.push(doc(&constraints_line(&rules.said)));
                    field.attrs.push(schema_description(schema.get(Keyword::Description.as_str())));
                }
            }
            let extra_ident = quote::format_ident!("{EXTRA_FIELD}");
            // garde: the extra field may not hold a declared member's name.
            let names = members.iter().map(|m| &m.json);
            let extra: syn::Field = syn::Field::parse_named
                .parse2(quote! {
                    /// Properties the schema does not declare, kept so that relaying a document loses nothing.
                    #[serde(flatten)]
                    #[garde(custom(::jerry_contracts::__private::undeclared(&[#(#names),*])))]
                    pub #extra_ident: ::jerry_contracts::Extra
                })
                .map_err(|e| Problem::new(&def.file, &def.pointer, format!("extra field: {e}")))?;
            fields.named.push(extra);
            return Ok(Some(members));
        }
        (_, Fields::Unnamed(fields)) if fields.unnamed.len() == 1 => {
            if validates {
                item.attrs.push(attr("#[garde(transparent)]"));
            }
            let rules = rules(def, &def.pointer, &source, plan, patterns)?;
            if let Some(field) = fields.unnamed.first_mut() {
                if validates {
                    let text = if rules.garde.is_empty() { "skip".to_owned() } else { rules.garde.join(", ") };
                    field.attrs.push(attr(&format!("#[garde({text})]")));
                }
                schemars_extensions(&mut field.attrs, &source);
            }
        }
        (kind, _) => {
            return Err(Problem::new(
                &def.file,
                &def.pointer,
                format!("typify produced an unexpected item for a {kind:?}"),
            ));
        }
    }
    Ok(None)
}

/// `r#name` for a JSON property name that is a Rust keyword, or `None` when the name cannot be
/// an identifier at all (`self`, `super`, `crate`, `Self`, or not identifier-shaped).
fn raw_identifier(name: &str) -> Option<syn::Ident> {
    let shaped = name.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !shaped || ["self", "super", "crate", "Self", "_"].contains(&name) {
        return None;
    }
    syn::parse_str::<syn::Ident>(&format!("r#{name}")).ok()
}

/// `From<f64>` (or `From<i64>`) for a newtype of one number, so `Confidence::from(0.85)` reads
/// as it did before the field became a `Number`; `None` for any other struct.
fn number_conversion(item: &syn::ItemStruct) -> Option<Item> {
    let Fields::Unnamed(fields) = &item.fields else { return None };
    let field = fields.unnamed.first().filter(|_| fields.unnamed.len() == 1)?;
    let number = &field.ty;
    if !matches!(quote!(#number).to_string().as_str(), "f64" | "i64") {
        return None;
    }
    let ident = &item.ident;
    syn::parse2(quote! {
        impl ::std::convert::From<#number> for #ident {
            fn from(value: #number) -> Self {
                Self(::jerry_contracts::Number::new(value))
            }
        }
    })
    .ok()
}

/// Makes a field `Option<T>` when optional, `Option<Option<T>>` when optional and nullable, and
/// a present-but-nullable `Option<T>` when required and nullable.
fn field_type(field: &mut syn::Field, required: bool, nullable: bool) {
    let inner = option_inner(&field.ty).cloned().unwrap_or_else(|| field.ty.clone());
    let shown = crate::spelling::type_text(&inner);
    match (required, nullable) {
        (true, false) => field.ty = inner,
        (true, true) => {
            // Present, possibly null: serde would read a missing `Option` as `None`.
            field.ty = wrap_option(inner);
            field.attrs.push(attr("#[serde(deserialize_with = \"required_nullable\")]"));
            field.attrs.push(attr(&format!(
                "#[cfg_attr(feature = \"schemars\", schemars(required, with = \"{shown}\", transform = ::jerry_contracts::__private::nullable))]"
            )));
        }
        (false, false) => {
            // Absent or a value, never null: serde would read `null` as `None`, looser than the schema.
            field.ty = wrap_option(inner);
            field.attrs.push(attr(
                "#[serde(default, skip_serializing_if = \"::std::option::Option::is_none\", deserialize_with = \"present\")]",
            ));
            field.attrs.push(attr(&format!("#[cfg_attr(feature = \"schemars\", schemars(with = \"{shown}\"))]")));
        }
        (false, true) => {
            // Absent, null or a value, each written back as it was read.
            field.attrs.push(attr(&format!(
                "#[cfg_attr(feature = \"schemars\", schemars(with = \"::std::option::Option<{shown}>\"))]"
            )));
            field.ty = wrap_option(wrap_option(inner));
            field.attrs.push(attr(
                "#[serde(default, skip_serializing_if = \"::std::option::Option::is_none\", with = \"::jerry_contracts::__private::double_option\")]",
            ));
        }
    }
}

/// The `T` of an `Option<T>` type.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    generic_argument(ty, "Option")
}

/// The first type argument of a path type whose last segment is `name` (`Vec<T>` → `T`).
pub(crate) fn generic_argument<'t>(ty: &'t Type, name: &str) -> Option<&'t Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

fn wrap_option(ty: Type) -> Type {
    let tokens: TokenStream = quote!(::std::option::Option<#ty>);
    syn::parse2(tokens).unwrap_or(ty)
}

/// Checks no garde rule expresses to schemars, carried into the derived schema for the drift
/// gate.
fn schemars_extensions(attrs: &mut Vec<Attribute>, schema: &Map<String, Value>) {
    let checks = Checks::of(schema);
    let transform = match checks.uri_form() {
        Some(UriForm::UriReference) => Some("extend_format_uri_reference"),
        Some(UriForm::Uri) => Some("extend_format_uri"),
        None => None,
    };
    let unique = checks.unique_items.then_some("unique");
    for transform in transform.into_iter().chain(unique) {
        attrs.push(attr(&format!(
            "#[cfg_attr(feature = \"schemars\", schemars(transform = ::jerry_contracts::__private::{transform}))]"
        )));
    }
}

/// What a value with some schema must be: the garde rules that check it, and the same
/// constraints said in words for its documentation (`pattern `^X$``, `1 to 50 items`).
#[derive(Debug, Default)]
struct Rules {
    garde: Vec<String>,
    said: Vec<String>,
}

/// The garde rules for a value with this schema (a property, or a newtype's content), and the
/// constraints they check in words.
fn rules(
    def: &TypeDef,
    at: &str,
    schema: &Map<String, Value>,
    plan: &Plan,
    patterns: &[String],
) -> Result<Rules, Problem> {
    let mut said = Vec::new();
    let rules = garde_rules(def, at, schema, plan, patterns, &mut said)?;
    Ok(Rules { garde: rules, said })
}

/// The garde rules of the value checks `schema` asks ([`Checks`], from the keyword table), in
/// a fixed order (finite, range, length, pattern, URI, item count, uniqueness, then the rules
/// that dive into a nested type), with each check said in words.
fn garde_rules(
    def: &TypeDef,
    at: &str,
    schema: &Map<String, Value>,
    plan: &Plan,
    patterns: &[String],
    said: &mut Vec<String>,
) -> Result<Vec<String>, Problem> {
    let mut rules = Vec::new();
    if let Some(reference) = schema.get(Keyword::Ref.as_str()).and_then(Value::as_str) {
        if target_validates(def, reference, plan) {
            rules.push("dive".to_owned());
        }
        return Ok(rules);
    }
    let checks = Checks::of(schema);
    let number = |value: &Value| {
        if checks.integer {
            format!("{}", value.as_f64().unwrap_or_default() as i64)
        } else {
            format!("{:?}", value.as_f64().unwrap_or_default())
        }
    };
    let count = |value: &Value| value.as_u64().map(|n| n.to_string());
    if checks.finite {
        rules.push("custom(::jerry_contracts::__private::finite)".to_owned());
    }
    let Bounds { min, max } = checks.range;
    if checks.range.is_bounded() {
        rules.push(bounds("range", &[], min.map(number), max.map(number)));
        said.push(span(min, max, None));
    }
    let Bounds { min, max } = checks.characters;
    let (least, most) = (min.and_then(count), max.and_then(count));
    if least.is_some() || most.is_some() {
        rules.push(bounds("length", &["chars"], least, most));
        said.push(span(min, max, Some(("character", "characters"))));
    }
    if let Some(pattern) = checks.pattern {
        let Some(name) = plan.pattern_index(pattern).and_then(|index| patterns.get(index)) else {
            return Err(Problem::new(&def.file, at, "pattern was not collected by the planner"));
        };
        rules.push(format!("pattern({name})"));
        said.push(format!("pattern {}", code(pattern)));
    }
    match checks.uri_form() {
        Some(UriForm::Uri) => rules.push("custom(::jerry_contracts::__private::uri)".to_owned()),
        Some(UriForm::UriReference) => rules.push("custom(::jerry_contracts::__private::uri_reference)".to_owned()),
        None => {}
    }
    if let Some(format) = checks.format {
        // Formats without a garde rule (`date-time`, …) are carried by the field's type.
        said.push(format!("format {}", code(format)));
    }
    let Bounds { min, max } = checks.items;
    let (least, most) = (min.and_then(count), max.and_then(count));
    if least.is_some() || most.is_some() {
        rules.push(bounds("length", &[], least, most));
        said.push(span(min, max, Some(("item", "items"))));
    }
    if checks.unique_items {
        rules.push("custom(::jerry_contracts::__private::unique_items)".to_owned());
        said.push("unique items".to_owned());
    }
    let items = Keyword::Items.as_str();
    if json_type(schema, "array")
        && let Some(element) = schema.get(items)
        && element_validates(def, &format!("{at}/{items}"), element, plan)
    {
        rules.push("dive".to_owned());
    }
    let values = Keyword::AdditionalProperties.as_str();
    if let Some(element) = schema.get(values).filter(|v| v.is_object())
        && element_validates(def, &format!("{at}/{values}"), element, plan)
    {
        rules.push("dive".to_owned());
    }
    if let Some(value) = schema.get(Keyword::Const.as_str()) {
        // A constant is hoisted into a type that holds only it: valid by construction.
        said.push(format!("always {}", code(&value.to_string())));
    }
    let hoisted = schema.get(Keyword::Properties.as_str()).and_then(Value::as_object).is_some_and(|p| !p.is_empty())
        || schema.contains_key(Keyword::Enum.as_str())
        || schema.contains_key(Keyword::Const.as_str());
    if hoisted {
        // Hoisted into a named type: structs validate themselves, enums and constants are
        // valid by construction.
        if let Some(target) = plan.at(&def.file, at)
            && target.validates
        {
            rules.push("dive".to_owned());
        }
    }
    Ok(rules)
}

/// Whether `type` names the JSON type `name` (alone or in a list).
fn json_type(schema: &Map<String, Value>, name: &str) -> bool {
    schema
        .get(Keyword::Type.as_str())
        .is_some_and(|t| t == name || t.as_array().is_some_and(|a| a.iter().any(|v| v == name)))
}

/// A range in words: `1 to 50 items`, `at least 1 item`, `at most 100`, `exactly 3 items`; the
/// numbers as the schema writes them. `unit` is the singular and plural of what is counted.
fn span(min: Option<&Value>, max: Option<&Value>, unit: Option<(&str, &str)>) -> String {
    let unit_for = |n: &Value| match unit {
        Some((one, _)) if n.as_f64() == Some(1.0) => format!(" {one}"),
        Some((_, many)) => format!(" {many}"),
        None => String::new(),
    };
    match (min, max) {
        (Some(min), Some(max)) if min.as_f64() == max.as_f64() => format!("exactly {min}{}", unit_for(max)),
        (Some(min), Some(max)) => format!("{min} to {max}{}", unit_for(max)),
        (Some(min), None) => format!("at least {min}{}", unit_for(min)),
        (None, Some(max)) => format!("at most {max}{}", unit_for(max)),
        (None, None) => String::new(),
    }
}

/// `text` as inline code in Markdown, fenced with more backticks than it holds in a row.
fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

fn bounds(rule: &str, modes: &[&str], min: Option<String>, max: Option<String>) -> String {
    let mut parts: Vec<String> = modes.iter().map(|m| (*m).to_owned()).collect();
    if let Some(min) = min {
        parts.push(format!("min = {min}"));
    }
    if let Some(max) = max {
        parts.push(format!("max = {max}"));
    }
    format!("{rule}({})", parts.join(", "))
}

fn target_validates(def: &TypeDef, reference: &str, plan: &Plan) -> bool {
    let (location, pointer) = reference.split_once('#').unwrap_or((reference, ""));
    let file = if location.is_empty() { Some(def.file.clone()) } else { crate::corpus::join(&def.file, location) };
    file.is_some_and(|file| plan.at(&file, pointer).is_some_and(|t| t.validates))
}

/// Whether an array element or map value of this schema is a type that validates itself.
fn element_validates(def: &TypeDef, at: &str, schema: &Value, plan: &Plan) -> bool {
    if let Some(reference) = schema.get(Keyword::Ref.as_str()).and_then(Value::as_str) {
        return target_validates(def, reference, plan);
    }
    if let Some(target) = plan.at(&def.file, at) {
        return target.validates;
    }
    // Nested arrays of plain values (such as the N2 matrix) carry no rule.
    schema.get(Keyword::Items.as_str()).is_some_and(|items| element_validates(def, &format!("{at}/items"), items, plan))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ranges_and_counts_are_said_in_words() {
        let (zero, one, fifty) = (json!(0), json!(1), json!(50));
        assert_eq!(span(Some(&one), Some(&fifty), Some(("item", "items"))), "1 to 50 items");
        assert_eq!(span(Some(&one), None, Some(("item", "items"))), "at least 1 item");
        assert_eq!(span(None, Some(&fifty), Some(("character", "characters"))), "at most 50 characters");
        assert_eq!(span(Some(&one), Some(&one), Some(("item", "items"))), "exactly 1 item");
        assert_eq!(span(Some(&zero), Some(&json!(0.5)), None), "0 to 0.5");
        assert_eq!(code("^REQ-\\d{3}$"), "`^REQ-\\d{3}$`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(
            constraints_line(&["pattern `^X$`".to_owned(), "1 to 50 items".to_owned()]),
            "Constraints: pattern `^X$`; 1 to 50 items."
        );
    }

    /// A new check in the keyword table must reach the field: a garde rule and its words (the
    /// sample below is a `match` without a catch-all, so a new `Check` asks for one).
    #[test]
    fn every_check_of_the_keyword_table_reaches_a_garde_rule_and_words() {
        use crate::model::Check;
        let mut seen = Vec::new();
        for keyword in Keyword::all() {
            let Some(check) = keyword.check() else { continue };
            let sample = match check {
                Check::Range(_) | Check::Characters(_) | Check::Items(_) => json!(2),
                Check::Pattern => json!("^a"),
                Check::Format => json!("uri"),
                Check::UniqueItems => json!(true),
            };
            let json_type = keyword.value_rule_on()[0];
            let mut property = json!({"type": json_type});
            property[keyword.as_str()] = sample;
            if json_type == "array" {
                property["items"] = json!({"type": "string"});
            }
            let corpus = crate::corpus::Corpus::of_one(
                "common/x.json",
                json!({"type": "object", "properties": {"p": property.clone()}}),
            );
            let plan = crate::plan::plan(&corpus).unwrap_or_else(|problems| panic!("{keyword}: {problems:?}"));
            let def = plan.types.iter().find(|d| d.pointer.is_empty()).expect("the root type");
            let patterns = crate::naming::pattern_statics(&plan);
            let schema = property.as_object().expect("an object");
            let rules = rules(def, "/properties/p", schema, &plan, &patterns)
                .unwrap_or_else(|problem| panic!("{keyword}: {problem:?}"));
            assert!(!rules.garde.is_empty() && !rules.said.is_empty(), "{keyword}: {rules:?}");
            seen.push(check);
        }
        assert_eq!(seen.len(), 9, "every value rule of the table: {seen:?}");
    }
}
