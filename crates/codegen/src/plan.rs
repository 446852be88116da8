//! Planning the generated types. Every schema root, every definition, and every inline schema
//! that needs a name (objects, enums, constants, constrained array items and map values) becomes
//! one named type. The plan keeps, for each, the schema as written (for the attribute pass, which
//! carries its constraints) and a lowered copy for typify: shapes only, `$ref`s rewritten to the
//! bundle's definitions, format types mapped to the crate's own, constraints left to garde.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use crate::corpus::{Corpus, Problem};
use crate::keywords;
use crate::model::Keyword;
use crate::naming::{self, module_of, pascal, singular, stem};

/// The flat module all generated items live in; public modules re-export from it.
pub const FLAT_MODULE: &str = "generated";

/// The keyword table's value rules a schema node asks the types to check (`uniqueItems` only
/// when true, `format` only in its URI forms).
fn value_rules(map: &Map<String, Value>) -> impl Iterator<Item = Keyword> + '_ {
    map.iter().filter_map(|(key, value)| Keyword::parse(key).filter(|k| k.rule_in_force(value)))
}

/// Whether a schema node carries a value rule of a primitive (the keyword table's rules on
/// strings and numbers: `pattern`, the lengths, the bounds, a URI `format`), carried by garde on
/// the field.
fn primitive_rule(map: &Map<String, Value>) -> bool {
    value_rules(map).any(|k| k.value_rule_on().iter().any(|t| ["string", "number", "integer"].contains(t)))
}

/// What a named type is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// An object with declared properties: a struct.
    Struct,
    /// A string enumeration.
    Enum,
    /// A single string constant: a one-variant enum.
    Const,
    /// A named primitive, array, map or reference: a newtype.
    Newtype,
    /// Agent-output dispatch: a payload whose `agent_id` names an agent takes that agent's output
    /// type, anything else the fallback type.
    Dispatch {
        /// `(agent_id constant, flat name of its output type)`.
        branches: Vec<(String, String)>,
        /// Flat name of the fallback type.
        fallback: String,
    },
}

/// One named type of the plan.
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// Unique name in the flat generated module.
    pub flat: String,
    /// Name in its public module.
    pub public: String,
    /// Public module path, mirroring `schemas/`.
    pub module: Vec<String>,
    /// Schema file the type comes from.
    pub file: String,
    /// JSON Pointer of the type's schema in that file.
    pub pointer: String,
    /// `$id` of the file.
    pub id: String,
    /// What the type is.
    pub kind: Kind,
    /// The schema as written.
    pub source: Value,
    /// The schema as typify sees it.
    pub lowered: Value,
    /// Whether the type derives `garde::Validate`: structs and dispatch enums always; newtypes
    /// when their content has a constraint or contains a type that validates; enums, constants and
    /// format types never (they are valid by construction).
    pub validates: bool,
}

impl TypeDef {
    /// `$id#pointer` of the type's schema.
    pub fn location(&self) -> String {
        if self.pointer.is_empty() { self.id.clone() } else { format!("{}#{}", self.id, self.pointer) }
    }
}

/// The planned types and the patterns their constraints use.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Every named type, sorted by flat name.
    pub types: Vec<TypeDef>,
    /// Distinct ECMA-262 patterns; the generated code has one static matcher per entry.
    pub patterns: Vec<String>,
    /// Every distinct pattern the schemas hold (those of [`Plan::patterns`] first, in its order,
    /// then the others: on schemas that are not strings, beside `format: uuid`, in the
    /// conventions), with its dense DFA serialised for the runtime: the generated pattern table,
    /// which the garde statics and the schema layer read.
    pub table: Vec<(String, jerry_contracts_ecma::SerializedDfa)>,
}

impl Plan {
    /// The type with this flat name.
    pub fn get(&self, flat: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.flat == flat)
    }

    /// The type whose schema is at `pointer` in `file`.
    pub fn at(&self, file: &str, pointer: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.file == file && t.pointer == pointer)
    }

    /// Index of `pattern` among [`Plan::patterns`].
    pub fn pattern_index(&self, pattern: &str) -> Option<usize> {
        self.patterns.iter().position(|p| p == pattern)
    }
}

/// The role of a subschema, which decides whether it is hoisted and how it is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Property,
    Item,
    MapValue,
}

struct Planner<'a> {
    corpus: &'a Corpus,
    types: Vec<TypeDef>,
    locations: HashMap<(String, String), usize>,
    consts: HashMap<(String, String), usize>,
    patterns: Vec<String>,
    /// Every pattern of the table, in the order first met.
    tabled: Vec<String>,
    /// The DFA of every pattern of `tabled`, by pattern.
    dfas: HashMap<String, jerry_contracts_ecma::SerializedDfa>,
    problems: Vec<Problem>,
}

/// Marker for a type reference whose flat name is not fixed yet.
fn key(index: usize) -> String {
    format!("@@{index}@@")
}

/// Plans the types of the whole corpus, or returns every problem found.
pub fn plan(corpus: &Corpus) -> Result<Plan, Vec<Problem>> {
    let mut planner = Planner {
        corpus,
        types: Vec::new(),
        locations: HashMap::new(),
        consts: HashMap::new(),
        patterns: Vec::new(),
        tabled: Vec::new(),
        dfas: HashMap::new(),
        problems: Vec::new(),
    };
    let mut named = Vec::new();
    for schema in &corpus.schemas {
        if schema.has_root_type() {
            named.push(planner.register(&schema.path, "", naming::root_name(&schema.path), schema.document.clone()));
        }
        for name in schema.definition_names() {
            let pointer = format!("/definitions/{}", jerry_contracts_pointer::escape(&name));
            let public = naming::override_for(&schema.path, &pointer).map_or_else(|| pascal(&name), str::to_owned);
            let node = schema.document.pointer(&pointer).cloned().unwrap_or(Value::Null);
            named.push(planner.register(&schema.path, &pointer, public, node));
        }
    }
    for index in named {
        planner.lower_named(index);
    }
    planner.finish()
}

impl Planner<'_> {
    fn register(&mut self, file: &str, pointer: &str, public: String, source: Value) -> usize {
        let index = self.types.len();
        let id = self.corpus.get(file).map(|s| s.id.clone()).unwrap_or_default();
        self.types.push(TypeDef {
            flat: String::new(),
            public,
            module: module_of(file),
            file: file.to_owned(),
            pointer: pointer.to_owned(),
            id,
            kind: Kind::Newtype,
            source,
            lowered: Value::Null,
            validates: false,
        });
        self.locations.insert((file.to_owned(), pointer.to_owned()), index);
        index
    }

    fn problem(&mut self, file: &str, pointer: &str, message: impl Into<String>) -> Value {
        self.problems.push(Problem::new(file, pointer, message));
        json!({})
    }

    /// Lowers the schema of a named type into its bundle definition.
    fn lower_named(&mut self, index: usize) {
        let (file, pointer, source, public) = {
            let t = &self.types[index];
            (t.file.clone(), t.pointer.clone(), t.source.clone(), t.public.clone())
        };
        let Some(node) = source.as_object() else {
            self.problem(&file, &pointer, "a schema must be an object");
            return;
        };
        let (kind, mut lowered) = self.body(&file, &pointer, node, &public);
        annotate(&mut lowered, node);
        self.types[index].kind = kind;
        self.types[index].lowered = lowered;
    }

    /// The lowered body of a named type's schema.
    fn body(&mut self, file: &str, pointer: &str, node: &Map<String, Value>, public: &str) -> (Kind, Value) {
        if node.contains_key("if") {
            return self.dispatch(file, pointer, node);
        }
        self.check_keywords(file, pointer, node, false);
        if node.contains_key("$ref") {
            return (Kind::Newtype, self.reference(file, pointer, node));
        }
        if let Some(constant) = node.get("const") {
            return match constant {
                Value::String(text) => (Kind::Const, json!({"type": "string", "enum": [text]})),
                Value::Bool(true) => (Kind::Newtype, rust_type("jerry_contracts::constant::True")),
                other => (
                    Kind::Newtype,
                    self.problem(file, pointer, format!("const {other} is not supported: only strings and true")),
                ),
            };
        }
        let (types, nullable) = self.types_of(file, pointer, node);
        if nullable {
            return (
                Kind::Newtype,
                self.problem(file, pointer, "a named type cannot be nullable; make the property that uses it nullable"),
            );
        }
        if let Some(values) = node.get("enum") {
            return (Kind::Enum, self.enumeration(file, pointer, values, false));
        }
        let is_struct = node.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty())
            && types.iter().any(|t| t == "object");
        self.object_keywords(file, pointer, node, &types);
        if is_struct {
            return (Kind::Struct, self.structure(file, pointer, node, public));
        }
        (Kind::Newtype, self.shape(file, pointer, node, &types, public, ""))
    }

    /// Lowers a subschema in `role` under the type `owner` (a public name) and property `property`.
    fn lower(&mut self, file: &str, pointer: &str, node: &Value, owner: &str, property: &str, role: Role) -> Value {
        let Some(map) = node.as_object() else {
            return self.problem(file, pointer, "a subschema must be an object (boolean schemas are not supported)");
        };
        if map.contains_key("if") {
            return self.problem(file, pointer, "if/then/else is only supported as a named dispatch definition");
        }
        self.check_keywords(file, pointer, map, false);
        if map.contains_key("$ref") {
            let mut lowered = self.reference(file, pointer, map);
            annotate(&mut lowered, map);
            return lowered;
        }
        let (types, nullable) = self.types_of(file, pointer, map);
        if nullable && role != Role::Property {
            let constrained = primitive_rule(map);
            let primitive = types.len() == 1 && ["string", "number", "integer", "boolean"].contains(&types[0].as_str());
            if !primitive || constrained || map.contains_key("enum") || map.contains_key("format") {
                return self.problem(
                    file,
                    pointer,
                    "nullable array items and map values must be unconstrained primitives",
                );
            }
            let mut lowered = json!({"type": [types[0], "null"]});
            annotate(&mut lowered, map);
            return lowered;
        }
        if map.get("const") == Some(&Value::Bool(true)) {
            return rust_type("jerry_contracts::constant::True");
        }
        let is_struct = map.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty())
            && types.iter().any(|t| t == "object");
        self.object_keywords(file, pointer, map, &types);
        let constrained_primitive = role != Role::Property && primitive_rule(map);
        let hoist = is_struct || map.contains_key("enum") || map.contains_key("const") || constrained_primitive;
        if hoist {
            let index = self.hoist(file, pointer, map, owner, property, role);
            let mut lowered = json!({"$ref": format!("#/definitions/{}", key(index))});
            annotate(&mut lowered, map);
            return lowered;
        }
        let mut lowered = self.shape(file, pointer, map, &types, owner, property);
        annotate(&mut lowered, map);
        lowered
    }

    /// Registers an inline schema as a named type (constants are shared by property and value).
    fn hoist(
        &mut self,
        file: &str,
        pointer: &str,
        map: &Map<String, Value>,
        owner: &str,
        property: &str,
        role: Role,
    ) -> usize {
        if let Some(Value::String(constant)) = map.get("const") {
            let id = (property.to_owned(), constant.clone());
            if let Some(index) = self.consts.get(&id) {
                return *index;
            }
            let public = format!("{}{}", pascal(constant), pascal(property));
            let index = self.register(file, pointer, public, Value::Object(map.clone()));
            self.consts.insert(id, index);
            self.lower_named(index);
            return index;
        }
        let public = naming::override_for(file, pointer).map_or_else(
            || match role {
                // The items or values of a named array or map (a root, a definition).
                Role::Item if property.is_empty() => format!("{owner}Item"),
                Role::MapValue if property.is_empty() => format!("{owner}Value"),
                Role::Property => naming::member(owner, &pascal(property)),
                Role::Item => naming::member(owner, &pascal(&singular(property))),
                Role::MapValue => format!("{}Value", naming::member(owner, &pascal(&singular(property)))),
            },
            str::to_owned,
        );
        let index = self.register(file, pointer, public, Value::Object(map.clone()));
        self.lower_named(index);
        index
    }

    /// Object keywords the types can only carry on a declared object: draft-07 applies
    /// `properties` and `required` to objects alone and accepts every other value, which a
    /// struct cannot hold; and `required` needs its properties declared to become fields.
    fn object_keywords(&mut self, file: &str, pointer: &str, map: &Map<String, Value>, types: &[String]) {
        let object = types.iter().any(|t| t == "object");
        for keyword in ["properties", "required", "additionalProperties"] {
            if map.contains_key(keyword) && !object && !types.is_empty() {
                // Declared as another type: draft-07 ignores the keyword there, and so do the types.
                continue;
            }
            if map.contains_key(keyword) && !object {
                self.problem(
                    file,
                    &format!("{pointer}/{keyword}"),
                    format!(
                        "`{keyword}` without \"type\": \"object\": draft-07 applies it to objects only and accepts any other value, which a generated type cannot; declare the type"
                    ),
                );
            }
        }
        let declared = map.get("properties").and_then(Value::as_object);
        if object && map.contains_key("required") && declared.is_none_or(Map::is_empty) {
            self.problem(
                file,
                &format!("{pointer}/required"),
                "`required` without `properties` is not supported: declare the required properties",
            );
        }
    }

    /// The `type` keyword as a list of non-null types, and whether `null` is allowed.
    fn types_of(&mut self, file: &str, pointer: &str, map: &Map<String, Value>) -> (Vec<String>, bool) {
        let listed: Vec<String> = match map.get("type") {
            None => Vec::new(),
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            Some(other) => {
                self.problem(file, &format!("{pointer}/type"), format!("type {other} is not a type name or list"));
                Vec::new()
            }
        };
        let nullable = listed.iter().any(|t| t == "null")
            || map.get("enum").and_then(Value::as_array).is_some_and(|e| e.contains(&Value::Null));
        let types: Vec<String> = listed.into_iter().filter(|t| t != "null").collect();
        if types.len() > 1 {
            self.problem(file, &format!("{pointer}/type"), "a union of several non-null types is not supported");
        }
        (types, nullable)
    }

    /// A `$ref` to a named location.
    fn reference(&mut self, file: &str, pointer: &str, map: &Map<String, Value>) -> Value {
        let reference = map.get("$ref").and_then(Value::as_str).unwrap_or_default();
        let target = match self.corpus.resolve(file, reference) {
            Ok(target) => target,
            Err(message) => {
                return self.problem(file, &format!("{pointer}/$ref"), format!("\"{reference}\" {message}"));
            }
        };
        match self.locations.get(&target) {
            Some(index) => json!({"$ref": format!("#/definitions/{}", key(*index))}),
            None => self.problem(
                file,
                &format!("{pointer}/$ref"),
                format!("\"{reference}\" must point at a schema root or a definition to become a named type"),
            ),
        }
    }

    /// A string enumeration; `null` is allowed in the list only for a nullable property.
    fn enumeration(&mut self, file: &str, pointer: &str, values: &Value, allow_null: bool) -> Value {
        let Some(values) = values.as_array() else {
            return self.problem(file, &format!("{pointer}/enum"), "enum must be an array");
        };
        let mut strings = Vec::new();
        for value in values {
            match value {
                Value::String(text) => strings.push(text.clone()),
                Value::Null if allow_null => {}
                other => {
                    self.problem(
                        file,
                        &format!("{pointer}/enum"),
                        format!("enum value {other} is not supported: only strings"),
                    );
                }
            }
        }
        json!({"type": "string", "enum": strings})
    }

    /// An object with declared properties.
    fn structure(&mut self, file: &str, pointer: &str, map: &Map<String, Value>, public: &str) -> Value {
        match map.get("additionalProperties") {
            None | Some(Value::Bool(true)) => {}
            Some(_) => {
                self.problem(
                    file,
                    &format!("{pointer}/additionalProperties"),
                    "additionalProperties other than true beside properties is not supported",
                );
            }
        }
        let mut properties = Map::new();
        if let Some(declared) = map.get("properties").and_then(Value::as_object) {
            for (name, schema) in declared {
                let at = format!("{pointer}/properties/{}", jerry_contracts_pointer::escape(name));
                let lowered = match schema.as_object() {
                    Some(prop) if prop.contains_key("enum") && !prop.contains_key("$ref") => {
                        // A nullable enum property: the enum type holds the non-null values and the
                        // attribute pass makes the field nullable.
                        let (_, nullable) = self.types_of(file, &at, prop);
                        if nullable {
                            let mut inner = prop.clone();
                            inner.insert("type".into(), json!("string"));
                            let values: Vec<Value> = prop["enum"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter(|v| !v.is_null())
                                .cloned()
                                .collect();
                            inner.insert("enum".into(), Value::Array(values));
                            self.lower(file, &at, &Value::Object(inner), public, name, Role::Property)
                        } else {
                            self.lower(file, &at, schema, public, name, Role::Property)
                        }
                    }
                    Some(prop) => {
                        let (types, nullable) = self.types_of(file, &at, prop);
                        if nullable && types.len() == 1 {
                            let mut inner = prop.clone();
                            inner.insert("type".into(), json!(types[0]));
                            self.lower(file, &at, &Value::Object(inner), public, name, Role::Property)
                        } else {
                            self.lower(file, &at, schema, public, name, Role::Property)
                        }
                    }
                    None => self.lower(file, &at, schema, public, name, Role::Property),
                };
                properties.insert(name.clone(), lowered);
            }
        }
        let required: Vec<Value> = map.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
        for name in required.iter().filter_map(Value::as_str) {
            if !properties.contains_key(name) {
                self.problem(file, &format!("{pointer}/required"), format!("required property {name} is not declared"));
            }
        }
        json!({"type": "object", "properties": properties, "required": required})
    }

    /// Arrays, maps, free objects and primitives.
    fn shape(
        &mut self,
        file: &str,
        pointer: &str,
        map: &Map<String, Value>,
        types: &[String],
        owner: &str,
        property: &str,
    ) -> Value {
        let base = types.first().map(String::as_str);
        let owner_name =
            if property.is_empty() { owner.to_owned() } else { format!("{}{}", stem(owner), pascal(property)) };
        match base {
            Some("array") => match map.get("items") {
                Some(items) => {
                    let lowered = self.lower(file, &format!("{pointer}/items"), items, owner, property, Role::Item);
                    json!({"type": "array", "items": lowered})
                }
                None => json!({"type": "array"}),
            },
            Some("object") | None if map.contains_key("additionalProperties") || base.is_some() => {
                match map.get("additionalProperties") {
                    Some(value @ Value::Object(_)) => {
                        let at = format!("{pointer}/additionalProperties");
                        let lowered = self.lower(file, &at, value, owner, property, Role::MapValue);
                        json!({"type": "object", "additionalProperties": lowered})
                    }
                    None | Some(Value::Bool(true)) => json!({"type": "object"}),
                    Some(other) => self.problem(
                        file,
                        &format!("{pointer}/additionalProperties"),
                        format!("additionalProperties {other} is not supported here"),
                    ),
                }
            }
            Some("string") => match map.get("format").and_then(Value::as_str) {
                Some("date") => rust_type("jerry_contracts::formats::Date"),
                Some("date-time") => rust_type("jerry_contracts::formats::DateTime"),
                Some("uuid") => {
                    // Draft-07 defines no `uuid` format, so validators ignore it: the Uuid type
                    // may only enforce what the canonical pattern beside it makes every validator
                    // enforce.
                    if map.get("pattern").and_then(Value::as_str) != Some(UUID_PATTERN) {
                        self.problem(
                            file,
                            &format!("{pointer}/format"),
                            format!(
                                "`format: uuid` needs the pattern {UUID_PATTERN} beside it: draft-07 defines no uuid format, so without the pattern validators accept any string, which the Uuid type would refuse"
                            ),
                        );
                    }
                    rust_type("jerry_contracts::formats::Uuid")
                }
                _ => {
                    self.collect_pattern(map);
                    json!({"type": "string"})
                }
            },
            Some(kind @ ("number" | "integer" | "boolean")) => json!({"type": kind}),
            None => {
                let asserting: Vec<&str> = map
                    .keys()
                    .map(String::as_str)
                    .filter(|k| !["description", "title", "examples", "default", "$comment"].contains(k))
                    .collect();
                if !asserting.is_empty() {
                    return self.problem(
                        file,
                        pointer,
                        format!(
                            "schema of {owner_name} has no type the generator can map: {} without a \"type\" applies to one JSON type only and accepts every other value, which a generated type cannot; declare the type",
                            asserting.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                        ),
                    );
                }
                json!({})
            }
            Some(other) => self.problem(file, &format!("{pointer}/type"), format!("type {other} is not supported")),
        }
    }

    /// Makes the pattern of a string schema a garde rule's: one of the statics, read from the
    /// table ([`Self::check_keywords`] put it there, or reported why it cannot be).
    fn collect_pattern(&mut self, map: &Map<String, Value>) {
        let Some(pattern) = map.get("pattern").and_then(Value::as_str) else { return };
        if self.dfas.contains_key(pattern) && !self.patterns.iter().any(|p| p == pattern) {
            self.patterns.push(pattern.to_owned());
        }
    }

    /// Checks the keywords of one schema object ([`keywords::check`]) and puts its pattern and
    /// the pattern of its `x-convention`, if any, in the table: the schema layer matches every
    /// pattern of a schema, whatever its type, and the convention reading those of the
    /// conventions.
    fn check_keywords(&mut self, file: &str, pointer: &str, map: &Map<String, Value>, dispatch: bool) {
        let problems = keywords::check(file, pointer, map, dispatch);
        let checked = problems.is_empty();
        self.problems.extend(problems);
        match map.get("pattern") {
            Some(Value::String(pattern)) => self.tabulate(file, &format!("{pointer}/pattern"), pattern),
            Some(other) => {
                self.problem(file, &format!("{pointer}/pattern"), format!("pattern {other} is not a string"));
            }
            None => {}
        }
        let convention = map.get("x-convention").and_then(|c| c.get("pattern")).and_then(Value::as_str);
        if let Some(pattern) = convention.filter(|_| checked) {
            self.tabulate(file, &format!("{pointer}/x-convention/pattern"), pattern);
        }
    }

    /// Puts `pattern` (at `pointer` in `file`) in the pattern table with its DFA; a pattern that
    /// is not ECMA-262, has no linear-time spelling or whose DFA cannot be built is a problem
    /// there.
    fn tabulate(&mut self, file: &str, pointer: &str, pattern: &str) {
        use jerry_contracts_ecma::DfaError;
        if self.dfas.contains_key(pattern) {
            return;
        }
        match jerry_contracts_ecma::serialized_dfa(pattern) {
            Ok(dfa) => {
                self.dfas.insert(pattern.to_owned(), dfa);
                self.tabled.push(pattern.to_owned());
            }
            Err(DfaError::Syntax(err)) => {
                self.problem(file, pointer, format!("not an ECMA-262 regular expression: {err}"));
            }
            Err(DfaError::NotLinear) => {
                self.problem(
                    file,
                    pointer,
                    format!(
                        "pattern {pattern:?} needs a feature only a backtracking engine has (lookaround, a backreference, \
                         or a class the linear-time translation cannot spell); matching it could take time quadratic or worse \
                         in the text, so rewrite it without that feature"
                    ),
                );
            }
            Err(err) => {
                self.problem(
                    file,
                    pointer,
                    format!("pattern {pattern:?} cannot be carried: {err}; the runtime matches only the DFAs the generator builds"),
                );
            }
        }
    }

    /// The dispatch shape: `if` the object has an `agent_id` listed, `then` one `if`/`then` per
    /// agent id, `else` a fallback reference.
    fn dispatch(&mut self, file: &str, pointer: &str, map: &Map<String, Value>) -> (Kind, Value) {
        self.check_keywords(file, pointer, map, true);
        let malformed = |this: &mut Self, message: &str| {
            (Kind::Newtype, this.problem(file, pointer, format!("unsupported if/then/else: {message}")))
        };
        let condition = map.get("if").and_then(Value::as_object);
        if condition.and_then(|c| c.get("required")) != Some(&json!(["agent_id"])) {
            return malformed(self, "`if` must require agent_id");
        }
        let Some(branches) = map.get("then").and_then(|t| t.get("allOf")).and_then(Value::as_array) else {
            return malformed(self, "`then` must be an allOf of if/then branches");
        };
        let mut planned = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            let at = format!("{pointer}/then/allOf/{i}");
            let constant = branch.pointer("/if/properties/agent_id/const").and_then(Value::as_str);
            let target =
                branch.get("then").and_then(Value::as_object).filter(|t| t.len() == 1 && t.contains_key("$ref"));
            let (Some(constant), Some(target)) = (constant, target) else {
                return malformed(self, &format!("branch {at} must be if agent_id const then $ref"));
            };
            let reference = self.reference(file, &format!("{at}/then"), target);
            planned.push((constant.to_owned(), reference_key(&reference)));
        }
        let Some(fallback) = map.get("else").and_then(Value::as_object).filter(|e| e.contains_key("$ref")) else {
            return malformed(self, "`else` must be a $ref");
        };
        let fallback = reference_key(&self.reference(file, &format!("{pointer}/else"), fallback));
        let kind = Kind::Dispatch { branches: planned, fallback };
        (kind, Value::Null)
    }

    /// A public name is carried by one item: a name in two modules (other than the sibling
    /// envelope versions, one concept at two versions) needs a naming override, so that modules
    /// glob-imported together never collide. (Names beside the runtime crate's own items are
    /// checked on the library's whole surface by `tests/public_api.rs`: the generator also
    /// serves other crates, such as the conformance corpus, with namespaces of their own.)
    fn one_name_per_concept(&mut self) {
        let mut first: HashMap<&str, &TypeDef> = HashMap::new();
        let mut problems = Vec::new();
        for t in &self.types {
            match first.get(t.public.as_str()) {
                Some(other)
                    if other.module != t.module
                        && !(naming::is_version(&other.module) && naming::is_version(&t.module)) =>
                {
                    problems.push(Problem::new(
                        &t.file,
                        &t.pointer,
                        format!(
                            "type name {} is also public in {} ({}#{}); add a naming override",
                            t.public,
                            other.module.join("::"),
                            other.file,
                            other.pointer
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    first.insert(&t.public, t);
                }
            }
        }
        self.problems.extend(problems);
    }

    fn finish(mut self) -> Result<Plan, Vec<Problem>> {
        // Flat names: the public name where it is unique, else prefixed by its module.
        let mut count: BTreeMap<String, usize> = BTreeMap::new();
        for t in &self.types {
            *count.entry(t.public.clone()).or_default() += 1;
        }
        let mut seen: HashMap<(Vec<String>, String), (String, String)> = HashMap::new();
        for index in 0..self.types.len() {
            let (public, module, file, pointer) = {
                let t = &self.types[index];
                (t.public.clone(), t.module.clone(), t.file.clone(), t.pointer.clone())
            };
            if let Some((other_file, other_pointer)) = seen.get(&(module.clone(), public.clone())) {
                self.problems.push(Problem::new(
                    &file,
                    &pointer,
                    format!(
                        "type name {public} is also used in the same module by {other_file}#{other_pointer}; add a naming override"
                    ),
                ));
            }
            seen.insert((module.clone(), public.clone()), (file, pointer));
            let flat = if count[&public] > 1 { format!("{}{public}", naming::module_prefix(&module)) } else { public };
            self.types[index].flat = flat;
        }
        self.one_name_per_concept();
        let flats: Vec<String> = self.types.iter().map(|t| t.flat.clone()).collect();
        let mut unique = flats.clone();
        unique.sort();
        unique.dedup();
        if unique.len() != flats.len() {
            self.problems.push(Problem::new("schemas/", "", "flat type names collide after module prefixes"));
        }
        for t in &mut self.types {
            t.lowered = resolve_keys(&t.lowered, &flats);
            if let Kind::Dispatch { branches, fallback } = &mut t.kind {
                for (_, target) in branches.iter_mut() {
                    *target = resolve_key(target, &flats);
                }
                *fallback = resolve_key(fallback, &flats);
            }
        }
        if !self.problems.is_empty() {
            return Err(self.problems);
        }
        mark_validating(&mut self.types);
        self.types.sort_by(|a, b| a.flat.cmp(&b.flat));
        let mut table = Vec::new();
        for pattern in self.patterns.iter().chain(self.tabled.iter().filter(|p| !self.patterns.contains(p))) {
            if let Some(dfa) = self.dfas.remove(pattern) {
                table.push((pattern.clone(), dfa));
            }
        }
        Ok(Plan { types: self.types, patterns: self.patterns, table })
    }
}

/// Decides [`TypeDef::validates`] for every type: a fixpoint, since a newtype validates when
/// the type it wraps does.
fn mark_validating(types: &mut [TypeDef]) {
    for t in types.iter_mut() {
        t.validates = match t.kind {
            Kind::Struct | Kind::Dispatch { .. } => true,
            Kind::Enum | Kind::Const => false,
            // A float must be finite too (NaN would be written as `null`).
            Kind::Newtype => {
                has_own_constraint(&t.source) || t.source.as_object().is_some_and(crate::model::holds_floats)
            }
        };
    }
    loop {
        let validating: Vec<String> = types.iter().filter(|t| t.validates).map(|t| t.flat.clone()).collect();
        let mut changed = false;
        for t in types.iter_mut().filter(|t| !t.validates && t.kind == Kind::Newtype) {
            if references_any(&t.lowered, &validating) {
                t.validates = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// Whether a schema node carries a constraint that a garde rule checks (not counting
/// subschemas, and not the pattern a format type enforces itself).
/// Only keywords that apply to the node's declared type count: draft-07 ignores `pattern` on an
/// integer or `minItems` on a string, and so do the types.
pub fn has_own_constraint(node: &Value) -> bool {
    let Some(map) = node.as_object() else { return false };
    let is = |name: &str| {
        map.get("type").is_some_and(|t| t == name || t.as_array().is_some_and(|list| list.iter().any(|v| v == name)))
    };
    let format = map.get(Keyword::Format.as_str()).and_then(Value::as_str);
    if matches!(format, Some("date" | "date-time" | "uuid")) {
        // The format type enforces the format and the pattern a uuid may carry.
        return false;
    }
    // The keyword table's value rules, each on the JSON types it applies to.
    value_rules(map).any(|k| k.value_rule_on().iter().any(|t| is(t)))
}

fn references_any(lowered: &Value, names: &[String]) -> bool {
    match lowered {
        Value::Object(map) => {
            let hit = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/definitions/"))
                .is_some_and(|name| names.iter().any(|n| n == name));
            hit || map.values().any(|v| references_any(v, names))
        }
        Value::Array(items) => items.iter().any(|v| references_any(v, names)),
        _ => false,
    }
}

/// The canonical UUID pattern, enforced by `formats::Uuid`.
pub const UUID_PATTERN: &str = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

fn rust_type(path: &str) -> Value {
    json!({"x-rust-type": {"crate": "jerry-contracts", "version": "*", "path": path}})
}

/// Copies the documentation keywords typify turns into rustdoc, with square brackets escaped:
/// rustdoc reads `[condition]` in a description ("If [condition]...") as a link it cannot
/// resolve.
fn annotate(lowered: &mut Value, source: &Map<String, Value>) {
    if let Value::Object(target) = lowered {
        for key in ["title", "description"] {
            if let Some(value) = source.get(key) {
                let value = match value {
                    Value::String(text) => Value::String(text.replace('[', "\\[").replace(']', "\\]")),
                    other => other.clone(),
                };
                target.insert(key.to_owned(), value);
            }
        }
    }
}

fn reference_key(lowered: &Value) -> String {
    lowered.get("$ref").and_then(Value::as_str).unwrap_or_default().trim_start_matches("#/definitions/").to_owned()
}

fn resolve_key(text: &str, flats: &[String]) -> String {
    let mut out = text.to_owned();
    while let Some(start) = out.find("@@") {
        let Some(end) = out[start + 2..].find("@@") else { break };
        let index: usize = out[start + 2..start + 2 + end].parse().unwrap_or(usize::MAX);
        let name = flats.get(index).cloned().unwrap_or_default();
        out.replace_range(start..start + 4 + end, &name);
    }
    out
}

fn resolve_keys(value: &Value, flats: &[String]) -> Value {
    match value {
        Value::String(text) if text.contains("@@") => Value::String(resolve_key(text, flats)),
        Value::Object(map) => {
            map.iter().map(|(k, v)| (k.clone(), resolve_keys(v, flats))).collect::<Map<_, _>>().into()
        }
        Value::Array(items) => items.iter().map(|v| resolve_keys(v, flats)).collect(),
        other => other.clone(),
    }
}
