//! JSON Pointers (RFC 6901) for the places validation reports: [`from_garde_path`] turns the path
//! of a `garde` error (what `value.validate()` reports on a generated type) into the pointer of
//! the same place in the JSON document.

/// The RFC 6901 JSON Pointer for a `garde` error path: `""` for the root, `/findings/0/id`
/// below it, with `~` written `~0` and `/` written `~1` in keys.
///
/// `garde` names a struct field by its Rust identifier (garde 0.23 ignores `rename`), so the
/// generated types spell every field as its JSON property, with a raw identifier (`r#type`) for
/// a Rust keyword; this strips the `r#`. A newtype should be `#[garde(transparent)]`, or its
/// field adds a step `/0` that the JSON does not have.
pub fn from_garde_path(path: &garde::Path) -> String {
    // garde's public view of a path is its `serde` form (feature `serde`): a sequence of
    // `(kind, component)` pairs, outermost first, kind `"none"`, `"key"` or `"index"`.
    let Ok(serde_json::Value::Array(components)) = serde_json::to_value(path) else {
        return String::new();
    };
    let mut pointer = String::new();
    for component in &components {
        let (Some(kind), Some(name)) = (component.get(0).and_then(|k| k.as_str()), component.get(1)) else {
            continue;
        };
        let name = match name {
            serde_json::Value::String(name) => name.as_str(),
            _ => continue,
        };
        match kind {
            // A component without a key (a newtype's only field) adds no step.
            "key" => {
                pointer.push('/');
                pointer.push_str(&jerry_contracts_pointer::escape(name.strip_prefix("r#").unwrap_or(name)));
            }
            "index" => {
                pointer.push('/');
                pointer.push_str(name);
            }
            _ => {}
        }
    }
    pointer
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::collections::HashMap;

    use garde::Validate;

    use super::*;

    /// As the generated code writes a field for the JSON property `type`: a raw identifier.
    #[derive(garde::Validate)]
    struct Item {
        #[garde(length(min = 1))]
        r#type: String,
    }

    /// The same with a raw identifier.
    #[derive(garde::Validate)]
    struct RawItem {
        #[garde(length(min = 1))]
        r#type: String,
    }

    #[derive(garde::Validate)]
    #[garde(transparent)]
    struct Wrapper(#[garde(dive)] Item);

    #[derive(garde::Validate)]
    struct Document {
        #[garde(dive)]
        items: Vec<Item>,
        #[garde(dive)]
        by_name: HashMap<String, Item>,
        #[garde(dive)]
        maybe: Option<Item>,
        #[garde(dive)]
        wrapped: Vec<Wrapper>,
        #[garde(length(min = 1))]
        name: String,
    }

    fn item(kind: &str) -> Item {
        Item { r#type: kind.into() }
    }

    #[test]
    fn json_pointer_follows_fields_indices_and_keys() {
        let document = Document {
            items: vec![item("a"), item(""), item("c")],
            by_name: HashMap::from([("a/b~c".to_owned(), item(""))]),
            maybe: Some(item("")),
            wrapped: vec![Wrapper(item("ok")), Wrapper(item(""))],
            name: "doc".into(),
        };
        let report = document.validate().unwrap_err();
        let mut pointers: Vec<String> = report.iter().map(|(path, _)| from_garde_path(path)).collect();
        pointers.sort();
        assert_eq!(pointers, ["/by_name/a~1b~0c/type", "/items/1/type", "/maybe/type", "/wrapped/1/type"]);
        assert_eq!(from_garde_path(&garde::Path::empty()), "");
        assert_eq!(from_garde_path(&garde::Path::new("findings").join(0).join("id")), "/findings/0/id");
        assert_eq!(from_garde_path(&garde::Path::new("r#type").join("r#x").join(2)), "/type/x/2");
        // No guessing: a name that merely ends in `_` is a JSON name too.
        assert_eq!(from_garde_path(&garde::Path::new("ref_").join("x_").join("_")), "/ref_/x_/_");
        assert_eq!(from_garde_path(&garde::Path::new("a").join("").join("b")), "/a//b");

        #[derive(garde::Validate)]
        struct Raw {
            #[garde(dive)]
            items: Vec<RawItem>,
        }
        let raw = Raw { items: vec![RawItem { r#type: "a".into() }, RawItem { r#type: String::new() }] };
        let report = raw.validate().unwrap_err();
        let pointers: Vec<String> = report.iter().map(|(path, _)| from_garde_path(path)).collect();
        assert_eq!(pointers, ["/items/1/type"]);
    }

    /// `garde` 0.23 parses `rename` but never uses it (the derive drops the alias): the path
    /// names the Rust field. If this starts failing, `garde` honours `rename` now.
    #[test]
    fn garde_ignores_rename() {
        #[derive(garde::Validate)]
        struct Renamed {
            #[garde(rename("kind"), length(min = 1))]
            sort: String,
        }

        let report = Renamed { sort: String::new() }.validate().unwrap_err();
        let pointers: Vec<String> = report.iter().map(|(path, _)| from_garde_path(path)).collect();
        assert_eq!(pointers, ["/sort"]);
    }

    /// The walk over garde's serde form: a key with `~` and `/` is escaped, an index is its
    /// number, a raw identifier loses its `r#`, a keyless component adds no step.
    #[test]
    fn serde_form_of_keys_indices_and_raw_identifiers() {
        let path = garde::Path::new("a~b/c").join(3).join("r#type").join("r#match");
        assert_eq!(from_garde_path(&path), "/a~0b~1c/3/type/match");
        assert_eq!(from_garde_path(&garde::Path::new("x").join(0).join("~/")), "/x/0/~0~1");
    }
}
