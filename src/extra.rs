//! [`Extra`]: the members of an object that its schema does not declare, each kept as the exact
//! JSON text it was read from, so that relaying a document loses nothing and changes no number.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// The members of an object that its schema does not declare (every generated struct has one, in
/// its `extra` field).
///
/// Each member keeps its exact JSON text, numbers and nested objects included, so a document
/// relayed through serde_json carries them unchanged. Any other serde format (YAML, CBOR,
/// MessagePack, another JSON parser) reads and writes them as ordinary values: its values are
/// kept as their JSON text, and written back as values, never as serde_json's raw-value token
/// (docs/design.md D-154). Members are written back after the declared ones, in name
/// order. A member may not share a name with a declared field: `validate()` refuses that, since the
/// document written would hold the name twice.
///
/// ```
/// use jerry_contracts::Extra;
///
/// let mut extra = Extra::new();
/// extra.insert("x-priority", &7)?;
/// extra.insert_raw("x-precise", "0.1000000000000000055511151231257827")?;
/// assert_eq!(extra.get("x-precise").map(|raw| raw.get()), Some("0.1000000000000000055511151231257827"));
/// assert_eq!(serde_json::to_string(&extra)?, r#"{"x-precise":0.1000000000000000055511151231257827,"x-priority":7}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Extra {
    members: BTreeMap<String, Box<RawValue>>,
}

impl Extra {
    /// No members.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Whether a member has this name.
    pub fn contains_key(&self, name: &str) -> bool {
        self.members.contains_key(name)
    }

    /// The exact JSON text of the member `name`.
    pub fn get(&self, name: &str) -> Option<&RawValue> {
        self.members.get(name).map(AsRef::as_ref)
    }

    /// The member `name` as a [`serde_json::Value`] (numbers become `f64`/`i64`/`u64` there).
    pub fn get_value(&self, name: &str) -> Option<Value> {
        self.get(name).and_then(|raw| serde_json::from_str(raw.get()).ok())
    }

    /// The member `name` if it is a JSON string (borrowed when it has no escapes).
    pub fn get_str(&self, name: &str) -> Option<Cow<'_, str>> {
        let raw = self.get(name)?.get();
        match serde_json::from_str::<&str>(raw) {
            Ok(text) => Some(Cow::Borrowed(text)),
            Err(_) => serde_json::from_str::<String>(raw).ok().map(Cow::Owned),
        }
    }

    /// Sets the member `name` to `value` serialised as JSON, returning the text it replaces.
    ///
    /// # Errors
    /// When `value` cannot be serialised as JSON (a map with non-string keys, a failing
    /// `Serialize` impl).
    pub fn insert<T: Serialize + ?Sized>(
        &mut self,
        name: impl Into<String>,
        value: &T,
    ) -> Result<Option<Box<RawValue>>, serde_json::Error> {
        let raw = serde_json::value::to_raw_value(value)?;
        Ok(self.members.insert(name.into(), raw))
    }

    /// Sets the member `name` to the JSON text `json`, kept as it is, returning the text it replaces.
    ///
    /// # Errors
    /// When `json` is not one JSON value.
    pub fn insert_raw(
        &mut self,
        name: impl Into<String>,
        json: impl Into<String>,
    ) -> Result<Option<Box<RawValue>>, serde_json::Error> {
        let raw = RawValue::from_string(json.into())?;
        Ok(self.members.insert(name.into(), raw))
    }

    /// Sets the member `name` to text already known to be one JSON value.
    pub fn insert_raw_value(&mut self, name: impl Into<String>, raw: Box<RawValue>) -> Option<Box<RawValue>> {
        self.members.insert(name.into(), raw)
    }

    /// Removes the member `name`, returning its text.
    pub fn remove(&mut self, name: &str) -> Option<Box<RawValue>> {
        self.members.remove(name)
    }

    /// The members in name order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &RawValue)> {
        self.members.iter().map(|(k, v)| (k.as_str(), v.as_ref()))
    }

    /// The member names in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> {
        self.members.keys().map(String::as_str)
    }

    /// The members as a JSON object of [`serde_json::Value`]s.
    pub fn to_map(&self) -> serde_json::Map<String, Value> {
        self.members.iter().filter_map(|(k, v)| serde_json::from_str(v.get()).ok().map(|v| (k.clone(), v))).collect()
    }

    /// Adds a member that was just read, refusing a name already present.
    pub(crate) fn read(&mut self, name: String, raw: Box<RawValue>) -> Result<(), String> {
        match self.members.entry(name) {
            std::collections::btree_map::Entry::Occupied(entry) => Err(entry.key().clone()),
            std::collections::btree_map::Entry::Vacant(entry) => {
                entry.insert(raw);
                Ok(())
            }
        }
    }
}

impl fmt::Debug for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.members.iter().map(|(k, v)| (k, v.get()))).finish()
    }
}

/// Members are equal when they have the same names and the same JSON text.
impl PartialEq for Extra {
    fn eq(&self, other: &Self) -> bool {
        self.members.len() == other.members.len()
            && self.members.iter().zip(&other.members).all(|((a, x), (b, y))| a == b && x.get() == y.get())
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.members.len()))?;
        for (name, raw) in &self.members {
            map.serialize_entry(name, &crate::__private::raw::Written(raw))?;
        }
        map.end()
    }
}

impl From<serde_json::Map<String, Value>> for Extra {
    fn from(map: serde_json::Map<String, Value>) -> Self {
        let members =
            map.into_iter().filter_map(|(k, v)| serde_json::value::to_raw_value(&v).ok().map(|raw| (k, raw))).collect();
        Self { members }
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a str, &'a RawValue);
    type IntoIter = Box<dyn Iterator<Item = (&'a str, &'a RawValue)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Extra {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <serde_json::Map<String, Value> as schemars::JsonSchema>::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <serde_json::Map<String, Value> as schemars::JsonSchema>::json_schema(generator)
    }

    fn inline_schema() -> bool {
        true
    }
}
