//! The types of the model: every named type of the plan with its documentation, and its body
//! read from the schema as written: an object's fields (name, required, default, the value's
//! type expression), the type expression of an alias (enum, const, newtype), or the payload
//! dispatch. A type expression ([`Expr`]) is the structure of a subschema in words every
//! target can spell (Python's hints, TypeScript, SQL's JSON checks): a reference to a named
//! type, a scalar, a literal set, an array, a map, a union, nullable, or any value.
//!
//! Reading a schema into an expression is the one place the renderers' view of `type`,
//! `enum`, `const`, `items`, `additionalProperties`, `oneOf`/`anyOf` and `$ref` is decided; a
//! shape without a faithful expression is a [`Problem`] naming the file and pointer.

use serde_json::{Map, Value};

use super::Keyword;
use crate::corpus::{Corpus, Problem};
use crate::plan::{Kind, Plan, TypeDef};

/// One named type.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeModel {
    /// Unique name in the flat generated module (the name every target uses).
    pub flat: String,
    /// Name in its public module.
    pub public: String,
    /// Public module path, mirroring `schemas/`.
    pub module: Vec<String>,
    /// Schema file the type comes from.
    pub file: String,
    /// JSON Pointer of the type's schema in that file.
    pub pointer: String,
    /// The schema's `title`, trimmed, if it has a non-empty one.
    pub title: Option<String>,
    /// The schema's `description`, trimmed, if it has a non-empty one.
    pub description: Option<String>,
    /// The schema's `default` (an annotation: it is never filled in).
    pub default: Option<Value>,
    /// The schema's `examples`, as written.
    pub examples: Option<Vec<Value>>,
    /// What the type is.
    pub body: Body,
}

/// What a named type is.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// An object with declared properties. Members it does not declare are allowed (the
    /// planner refuses `additionalProperties` other than `true` beside `properties`; a closed
    /// object is a convention, in the model's constraints).
    Object {
        /// The declared properties, in the schema's order.
        fields: Vec<Field>,
        /// The names of the members the object must have, in the order of the schema's
        /// `required` list (the order of a constructor's parameters).
        required: Vec<String>,
    },
    /// Another name for a type expression: an enum, a constant, a named scalar, array or map.
    Alias(Expr),
    /// The agent-output dispatch: a payload whose `agent_id` names an agent takes that agent's
    /// output type, anything else the fallback type.
    Dispatch {
        /// `(agent_id, flat name of its output type)`.
        branches: Vec<(String, String)>,
        /// Flat name of the fallback type.
        fallback: String,
    },
}

/// One declared property of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The member's name in JSON.
    pub name: String,
    /// JSON Pointer of the property's schema.
    pub pointer: String,
    /// Whether the object must have the member.
    pub required: bool,
    /// The member's value.
    pub expr: Expr,
    /// The schema's `default` (an annotation: it is never filled in).
    pub default: Option<Value>,
    /// The property's own `description`, as written (an empty one included, and one beside a
    /// `$ref`, which draft-07 ignores but a reader of the schema sees).
    pub description: Option<String>,
    /// The property's own `examples`, as written.
    pub examples: Option<Vec<Value>>,
}

/// The structure of a value (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// The named type of that flat name.
    Named(String),
    /// A string; `format` when the schema gives one.
    String {
        /// The `format`, if any.
        format: Option<String>,
    },
    /// An integer.
    Integer,
    /// A number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// `null` alone.
    Null,
    /// One constant value (`const`), not `null`.
    Const {
        /// The value.
        value: Value,
        /// JSON Pointer of the `const` keyword.
        pointer: String,
    },
    /// One of the listed values (`enum`, without its `null`).
    Enum {
        /// The values.
        values: Vec<Value>,
        /// JSON Pointer of the `enum` keyword.
        pointer: String,
    },
    /// An array of the inner values.
    Array(Box<Expr>),
    /// An object of any member names, each holding the inner value.
    Map(Box<Expr>),
    /// One of several structures (`oneOf`, `anyOf`, or a list of types).
    Union(Vec<Expr>),
    /// The inner structure or `null`.
    Nullable(Box<Expr>),
    /// Any JSON value: the schema does not constrain it here.
    Any(AnyValue),
}

/// Where and why an expression is any value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnyValue {
    /// Schema file of the place.
    pub file: String,
    /// JSON Pointer of the place.
    pub pointer: String,
    /// Why: "accepts any JSON value", "is an array of any JSON values", "is an object of any
    /// members".
    pub reason: &'static str,
}

/// Reads every planned type of `corpus`, or returns every problem found.
pub fn types(corpus: &Corpus, plan: &Plan) -> Result<Vec<TypeModel>, Vec<Problem>> {
    let mut reader = Reader { corpus, plan, problems: Vec::new() };
    let types: Vec<TypeModel> = plan.types.iter().map(|def| reader.type_model(def)).collect();
    if reader.problems.is_empty() { Ok(types) } else { Err(reader.problems) }
}

struct Reader<'a> {
    corpus: &'a Corpus,
    plan: &'a Plan,
    problems: Vec<Problem>,
}

impl Reader<'_> {
    /// Records a problem; the expression stands in for the unreadable place.
    fn problem(&mut self, file: &str, pointer: &str, message: impl Into<String>) -> Expr {
        self.problems.push(Problem::new(file, pointer, message.into()));
        Expr::Any(AnyValue { file: file.to_owned(), pointer: pointer.to_owned(), reason: "cannot be read" })
    }

    fn type_model(&mut self, def: &TypeDef) -> TypeModel {
        let text = |key: Keyword| {
            def.source
                .get(key.as_str())
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
        };
        let body = match &def.kind {
            Kind::Struct => self.object(def),
            Kind::Dispatch { branches, fallback } => {
                Body::Dispatch { branches: branches.clone(), fallback: fallback.clone() }
            }
            Kind::Enum | Kind::Const | Kind::Newtype => match def.source.as_object() {
                Some(node) => Body::Alias(self.structure(&def.file, &def.pointer, node)),
                None => Body::Alias(self.problem(&def.file, &def.pointer, "a schema must be an object")),
            },
        };
        TypeModel {
            flat: def.flat.clone(),
            public: def.public.clone(),
            module: def.module.clone(),
            file: def.file.clone(),
            pointer: def.pointer.clone(),
            title: text(Keyword::Title),
            description: text(Keyword::Description),
            default: def.source.get(Keyword::Default.as_str()).cloned(),
            examples: def.source.get(Keyword::Examples.as_str()).and_then(Value::as_array).cloned(),
            body,
        }
    }

    fn object(&mut self, def: &TypeDef) -> Body {
        let node = def.source.as_object().cloned().unwrap_or_default();
        let required: Vec<&str> = node
            .get(Keyword::Required.as_str())
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let mut fields = Vec::new();
        for (name, schema) in node.get(Keyword::Properties.as_str()).and_then(Value::as_object).into_iter().flatten() {
            let pointer = format!("{}/properties/{}", def.pointer, jerry_contracts_pointer::escape(name));
            let expr = self.expr(&def.file, &pointer, schema);
            fields.push(Field {
                name: name.clone(),
                required: required.contains(&name.as_str()),
                default: schema.get(Keyword::Default.as_str()).cloned(),
                description: schema.get(Keyword::Description.as_str()).and_then(Value::as_str).map(str::to_owned),
                examples: schema.get(Keyword::Examples.as_str()).and_then(Value::as_array).cloned(),
                pointer,
                expr,
            });
        }
        Body::Object { fields, required: required.iter().map(|name| (*name).to_owned()).collect() }
    }

    /// The expression of the subschema at `pointer` in `file`: the name of its planned type if it
    /// has one, otherwise its structure.
    fn expr(&mut self, file: &str, pointer: &str, node: &Value) -> Expr {
        let Some(map) = node.as_object() else {
            return self.problem(file, pointer, "a subschema must be an object (boolean schemas have no mapping)");
        };
        if let Some(reference) = map.get(Keyword::Ref.as_str()).and_then(Value::as_str) {
            return match self.corpus.resolve(file, reference) {
                Ok((target_file, target_pointer)) => match self.plan.at(&target_file, &target_pointer) {
                    Some(target) => Expr::Named(target.flat.clone()),
                    None => self.problem(file, pointer, format!("$ref {reference:?} names no planned type")),
                },
                Err(message) => self.problem(file, pointer, format!("$ref {reference:?} {message}")),
            };
        }
        if let Some(planned) = self.plan.at(file, pointer) {
            let named = Expr::Named(planned.flat.clone());
            return if nullable(map) { Expr::Nullable(Box::new(named)) } else { named };
        }
        self.structure(file, pointer, map)
    }

    /// The expression of a schema from its keywords (not from the name of a planned type at its
    /// place).
    fn structure(&mut self, file: &str, pointer: &str, map: &Map<String, Value>) -> Expr {
        if let Some(reference) = map.get(Keyword::Ref.as_str()) {
            let only_ref = Value::Object(Map::from_iter([(Keyword::Ref.as_str().to_owned(), reference.clone())]));
            return self.expr(file, pointer, &only_ref);
        }
        if map.contains_key(Keyword::AllOf.as_str()) {
            return self.problem(
                file,
                &format!("{pointer}/allOf"),
                "allOf outside the agent-output dispatch has no faithful mapping",
            );
        }
        let any = |reason| Expr::Any(AnyValue { file: file.to_owned(), pointer: pointer.to_owned(), reason });
        let inner = if let Some(constant) = map.get(Keyword::Const.as_str()) {
            match constant {
                Value::Null => Expr::Null,
                value => Expr::Const { value: value.clone(), pointer: format!("{pointer}/const") },
            }
        } else if let Some(values) = map.get(Keyword::Enum.as_str()) {
            let values: Vec<Value> =
                values.as_array().into_iter().flatten().filter(|v| !v.is_null()).cloned().collect();
            if values.is_empty() { Expr::Null } else { Expr::Enum { values, pointer: format!("{pointer}/enum") } }
        } else if let Some(branches) = map.get("oneOf").or_else(|| map.get("anyOf")) {
            let keyword = if map.contains_key("oneOf") { "oneOf" } else { "anyOf" };
            let mut members = Vec::new();
            for (i, branch) in branches.as_array().into_iter().flatten().enumerate() {
                members.push(self.expr(file, &format!("{pointer}/{keyword}/{i}"), branch));
            }
            union(members)
        } else {
            let types: Vec<&str> = match map.get(Keyword::Type.as_str()) {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect(),
                _ => Vec::new(),
            };
            if types.is_empty() && map.contains_key(Keyword::Type.as_str()) {
                // `"type": "null"` alone (or a list of null only).
                return Expr::Null;
            }
            if types.is_empty() {
                let asserting: Vec<&String> =
                    map.keys().filter(|k| !Keyword::parse(k).is_some_and(Keyword::is_annotation)).collect();
                if !asserting.is_empty() {
                    return self.problem(file, pointer, format!("no type for the keywords {asserting:?}"));
                }
                return any("accepts any JSON value");
            }
            let mut members = Vec::new();
            for kind in types {
                members.push(self.typed(file, pointer, map, kind));
            }
            union(members)
        };
        match inner {
            Expr::Null | Expr::Any(_) => inner,
            inner if nullable(map) => Expr::Nullable(Box::new(inner)),
            inner => inner,
        }
    }

    /// The expression of one JSON type of a schema.
    fn typed(&mut self, file: &str, pointer: &str, map: &Map<String, Value>, kind: &str) -> Expr {
        match kind {
            "string" => {
                Expr::String { format: map.get(Keyword::Format.as_str()).and_then(Value::as_str).map(str::to_owned) }
            }
            "integer" => Expr::Integer,
            "number" => Expr::Number,
            "boolean" => Expr::Boolean,
            "array" => match map.get(Keyword::Items.as_str()) {
                Some(items @ Value::Object(_)) => {
                    Expr::Array(Box::new(self.expr(file, &format!("{pointer}/items"), items)))
                }
                Some(_) => self.problem(file, &format!("{pointer}/items"), "tuple items have no mapping"),
                None => Expr::Array(Box::new(Expr::Any(AnyValue {
                    file: file.to_owned(),
                    pointer: pointer.to_owned(),
                    reason: "is an array of any JSON values",
                }))),
            },
            "object" => {
                if map.get(Keyword::Properties.as_str()).and_then(Value::as_object).is_some_and(|p| !p.is_empty()) {
                    return self.problem(file, pointer, "an object with properties has no planned type");
                }
                match map.get(Keyword::AdditionalProperties.as_str()) {
                    Some(values @ Value::Object(_)) => {
                        Expr::Map(Box::new(self.expr(file, &format!("{pointer}/additionalProperties"), values)))
                    }
                    None | Some(Value::Bool(true)) => Expr::Map(Box::new(Expr::Any(AnyValue {
                        file: file.to_owned(),
                        pointer: pointer.to_owned(),
                        reason: "is an object of any members",
                    }))),
                    Some(other) => self.problem(
                        file,
                        &format!("{pointer}/additionalProperties"),
                        format!("additionalProperties {other} without properties has no mapping"),
                    ),
                }
            }
            other => self.problem(file, &format!("{pointer}/type"), format!("type {other:?} has no mapping")),
        }
    }
}

/// Several members as one expression; one is itself (an empty union accepts nothing a
/// target can name: each renders it as it must).
fn union(mut members: Vec<Expr>) -> Expr {
    if members.len() == 1 { members.remove(0) } else { Expr::Union(members) }
}

/// Whether a schema allows `null` beside its other values.
pub fn nullable(map: &Map<String, Value>) -> bool {
    let listed = match map.get(Keyword::Type.as_str()) {
        Some(Value::Array(list)) => list.iter().any(|t| t == "null"),
        _ => false,
    };
    listed || map.get(Keyword::Enum.as_str()).and_then(Value::as_array).is_some_and(|e| e.contains(&Value::Null))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn model(path: &str, document: Value) -> Result<Vec<TypeModel>, Vec<Problem>> {
        let corpus = Corpus::of_one(path, document);
        let plan = crate::plan::plan(&corpus)?;
        types(&corpus, &plan)
    }

    #[test]
    fn an_object_has_its_fields_with_presence_nullability_defaults_and_structure() {
        let types = model(
            "orchestration/move.json",
            json!({
                "title": " Move ",
                "type": "object",
                "required": ["from", "note"],
                "properties": {
                    "from": {"type": "string", "format": "date"},
                    "note": {"type": ["string", "null"]},
                    "to": {"type": "array", "items": {"type": "integer"}, "default": []},
                    "level": {"enum": ["low", "high", null]},
                    "tags": {"type": "object", "additionalProperties": {"type": "number"}},
                    "blob": {"description": "anything"}
                }
            }),
        )
        .unwrap_or_else(|problems| panic!("{problems:?}"));
        let root = types.iter().find(|t| t.pointer.is_empty()).expect("the root type");
        assert_eq!((root.flat.as_str(), root.title.as_deref()), ("Move", Some("Move")));
        let Body::Object { fields, .. } = &root.body else { panic!("{root:?}") };
        let field = |name: &str| fields.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no field {name}"));
        assert!(field("from").required && !field("to").required);
        assert_eq!(field("from").expr, Expr::String { format: Some("date".into()) });
        assert_eq!(field("note").expr, Expr::Nullable(Box::new(Expr::String { format: None })));
        assert_eq!(field("to").expr, Expr::Array(Box::new(Expr::Integer)));
        assert_eq!(field("to").default, Some(json!([])));
        assert_eq!(field("to").pointer, "/properties/to");
        assert_eq!(field("level").expr, Expr::Nullable(Box::new(Expr::Named("MoveLevel".into()))));
        assert_eq!(field("tags").expr, Expr::Map(Box::new(Expr::Number)));
        assert!(matches!(&field("blob").expr, Expr::Any(any) if any.reason == "accepts any JSON value"));
        let level = types.iter().find(|t| t.flat == "MoveLevel").expect("the enum is a named type");
        // The type holds the values; the field that refers to it is the nullable one.
        assert_eq!(
            level.body,
            Body::Alias(Expr::Enum {
                values: vec![json!("low"), json!("high")],
                pointer: "/properties/level/enum".into()
            })
        );
    }

    #[test]
    fn a_shape_without_an_expression_is_a_problem_at_its_place() {
        let problems =
            model("common/x.json", json!({"definitions": {"x": {"type": "array", "items": [{"type": "string"}]}}}))
                .expect_err("tuple items");
        let places: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(places.iter().any(|p| p.starts_with("common/x.json#/definitions/x/items")), "{places:?}");
    }
}
