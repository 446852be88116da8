//! The error of a checked constructor: `RequirementId::new("REQ-1")` names the type, the value
//! and the rule of the schema it breaks.

/// A value a checked constructor (`new`, `TryFrom`, `FromStr` of an id or other constrained
/// string type) refused: which type, which value and which schema rule.
///
/// ```
/// use jerry_contracts::common::RequirementId;
///
/// let err = RequirementId::new("REQ-1").unwrap_err();
/// assert_eq!(err.to_string(), r#"RequirementId cannot be "REQ-1": it must match the pattern ^REQ-[A-Z]{3}-\d{3}$"#);
/// assert!(RequirementId::new("REQ-SYS-001").is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{type_name} cannot be {value:?}: {rule}")]
pub struct InvalidValue {
    type_name: &'static str,
    value: String,
    rule: String,
}

impl InvalidValue {
    /// The error for `value` of `type_name` breaking `rule` (generated code makes it through
    /// `__private::invalid_value`). A long value is cut short in the message.
    pub(crate) fn new(type_name: &'static str, value: &str, rule: &str) -> Self {
        InvalidValue { type_name, value: crate::shorten::shortened(value, 80), rule: rule.to_owned() }
    }

    /// The type that refused the value, e.g. `RequirementId`.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// The refused value (cut short when long).
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The schema rule it breaks, e.g. `it must match the pattern ^REQ-[A-Z]{3}-\d{3}$`.
    pub fn rule(&self) -> &str {
        &self.rule
    }
}
