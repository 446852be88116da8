//! `schemars` transforms (feature `schemars`) that put back into a derived schema the keywords the
//! generated types check by rules rather than by shape: [`nullable`], `format` ([`extend_format_uri`],
//! [`extend_format_uri_reference`]) and `uniqueItems` ([`unique`]).

/// Keywords that only annotate a schema. [`nullable`] keeps them on the outside when it wraps
/// a schema, so documentation still finds them.
const ANNOTATIONS: &[&str] =
    &["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"];

/// Keywords that combine or refer to other schemas: with any of them, adding `null` to `type`
/// is not enough to let `null` through.
const APPLICATORS: &[&str] = &["$ref", "allOf", "anyOf", "oneOf", "not", "if"];

/// `schemars` transform that makes a schema accept `null` as well as what it accepted.
///
/// - With a `type` (and no `$ref`, `allOf`, `anyOf`, `oneOf`, `not` or `if`): adds `"null"`
///   to `type` (a string becomes an array), appends `null` to `enum` when there is one, and
///   turns a `const` into an `enum` of it and `null`.
/// - With only an `enum`: appends `null` to it.
/// - Otherwise (for instance a `$ref`): wraps the schema as
///   `{"anyOf": [<the schema>, {"type": "null"}]}`, keeping its annotations (`description`,
///   `title`, `default`, …) outside.
///
/// Used as `#[schemars(transform = ::jerry_contracts::__private::nullable)]`.
pub fn nullable(schema: &mut schemars::Schema) {
    use serde_json::{Map, Value};

    let Some(object) = schema.as_object_mut() else {
        // `true` accepts null already; `false` accepted nothing, and now accepts null.
        if schema.as_bool() == Some(false) {
            *schema = schemars::json_schema!({"type": "null"});
        }
        return;
    };
    let has_applicator = APPLICATORS.iter().any(|keyword| object.contains_key(*keyword));
    let only_annotations = object.keys().all(|keyword| ANNOTATIONS.contains(&keyword.as_str()));
    if only_annotations {
        // Accepts everything, null included.
        return;
    }

    let push_null_to_enum = |object: &mut Map<String, Value>| {
        if let Some(Value::Array(values)) = object.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
    };

    if object.contains_key("type") && !has_applicator {
        match object.get_mut("type") {
            Some(Value::String(name)) if name != "null" => {
                let name = std::mem::take(name);
                object.insert("type".to_owned(), Value::Array(vec![Value::String(name), "null".into()]));
            }
            Some(Value::Array(names)) if !names.iter().any(|name| name == "null") => names.push("null".into()),
            _ => {}
        }
        push_null_to_enum(object);
        if let Some(constant) = object.remove("const") {
            let values = if constant.is_null() { vec![constant] } else { vec![constant, Value::Null] };
            object.insert("enum".to_owned(), Value::Array(values));
        }
    } else if object.contains_key("enum") && !has_applicator && !object.contains_key("const") {
        push_null_to_enum(object);
    } else {
        let mut outer = Map::new();
        for keyword in ANNOTATIONS {
            if let Some(value) = object.remove(*keyword) {
                outer.insert((*keyword).to_owned(), value);
            }
        }
        let inner = Value::Object(std::mem::take(object));
        outer.insert("anyOf".to_owned(), Value::Array(vec![inner, serde_json::json!({"type": "null"})]));
        *schema = schemars::Schema::from(outer);
    }
}

/// `schemars` transform that sets `"format": "uri-reference"` (the keyword `garde`'s
/// `uri_reference` rule checks).
///
/// Used as `#[schemars(transform = ::jerry_contracts::__private::extend_format_uri_reference)]`.
pub fn extend_format_uri_reference(schema: &mut schemars::Schema) {
    schema.insert("format".to_owned(), "uri-reference".into());
}

/// `schemars` transform that sets `"format": "uri"` (the `uri` rule checks it).
///
/// Used as `#[schemars(transform = ::jerry_contracts::__private::extend_format_uri)]`.
pub fn extend_format_uri(schema: &mut schemars::Schema) {
    schema.insert("format".to_owned(), "uri".into());
}

/// `schemars` transform that sets `"uniqueItems": true` (the keyword `garde`'s
/// [`unique_items`](super::unique_items) rule checks).
///
/// Used as `#[schemars(transform = ::jerry_contracts::__private::unique)]`.
pub fn unique(schema: &mut schemars::Schema) {
    schema.insert("uniqueItems".to_owned(), true.into());
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use schemars::{Schema, json_schema};
    use serde_json::json;

    use super::*;
    use crate::constant::True;

    fn transformed(f: fn(&mut Schema), schema: serde_json::Value) -> serde_json::Value {
        let mut schema = Schema::try_from(schema).unwrap();
        f(&mut schema);
        schema.to_value()
    }

    #[test]
    fn nullable_adds_null() {
        assert_eq!(transformed(nullable, json!({"type": "string"})), json!({"type": ["string", "null"]}));
        assert_eq!(
            transformed(nullable, json!({"type": ["string", "integer"]})),
            json!({"type": ["string", "integer", "null"]})
        );
        assert_eq!(transformed(nullable, json!({"type": ["string", "null"]})), json!({"type": ["string", "null"]}));
        assert_eq!(
            transformed(nullable, json!({"type": "string", "enum": ["a", "b"]})),
            json!({"type": ["string", "null"], "enum": ["a", "b", null]})
        );
        assert_eq!(transformed(nullable, json!({"enum": ["a", "b"]})), json!({"enum": ["a", "b", null]}));
        assert_eq!(
            transformed(nullable, json!({"type": "string", "const": "x"})),
            json!({"type": ["string", "null"], "enum": ["x", null]})
        );
        assert_eq!(
            transformed(nullable, json!({"$ref": "#/definitions/Item", "description": "The item."})),
            json!({"description": "The item.", "anyOf": [{"$ref": "#/definitions/Item"}, {"type": "null"}]})
        );
        assert_eq!(
            transformed(nullable, json!({"type": "object", "allOf": [{"$ref": "#/definitions/Base"}]})),
            json!({"anyOf": [{"type": "object", "allOf": [{"$ref": "#/definitions/Base"}]}, {"type": "null"}]})
        );
        assert_eq!(transformed(nullable, json!({"description": "anything"})), json!({"description": "anything"}));
        assert_eq!(transformed(nullable, json!(true)), json!(true));
        assert_eq!(transformed(nullable, json!(false)), json!({"type": "null"}));
    }

    #[test]
    fn nullable_schemas_accept_null_and_what_they_accepted() {
        let definitions = json!({"Item": {"type": "object", "required": ["id"]}});
        for (schema, accepted) in [
            (json!({"type": "string", "enum": ["a"]}), json!("a")),
            (json!({"type": "string", "const": "a"}), json!("a")),
            (json!({"$ref": "#/definitions/Item"}), json!({"id": 1})),
        ] {
            let mut nullable_schema = transformed(nullable, schema);
            nullable_schema["definitions"] = definitions.clone();
            let validator = jsonschema::draft7::new(&nullable_schema).unwrap();
            assert!(validator.is_valid(&json!(null)), "{nullable_schema}");
            assert!(validator.is_valid(&accepted), "{nullable_schema}");
            assert!(!validator.is_valid(&json!(7)), "{nullable_schema}");
        }
    }

    #[test]
    fn keyword_transforms() {
        assert_eq!(
            transformed(extend_format_uri_reference, json!({"type": "string"})),
            json!({"type": "string", "format": "uri-reference"})
        );
        assert_eq!(
            transformed(unique, json!({"type": "array", "items": {"type": "string"}})),
            json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true})
        );
    }

    #[test]
    fn transforms_in_a_derived_schema() {
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Contract {
            accepted: True,
            #[schemars(transform = extend_format_uri_reference)]
            schema: String,
            #[schemars(transform = unique)]
            tags: Vec<String>,
            #[schemars(transform = nullable)]
            note: String,
        }

        let schema = schemars::schema_for!(Contract);
        let properties = &schema.as_value()["properties"];
        assert_eq!(properties["accepted"], json!({"type": "boolean", "const": true}));
        assert_eq!(properties["schema"], json!({"type": "string", "format": "uri-reference"}));
        assert_eq!(properties["tags"]["uniqueItems"], json!(true));
        assert_eq!(properties["note"], json!({"type": ["string", "null"]}));
        let _ = json_schema!(true);
    }
}
