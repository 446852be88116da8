//! `garde` custom rules on numbers and arrays: [`finite`] on every float (JSON has no NaN or
//! infinity), [`unique_items`] for `uniqueItems: true`, and [`undeclared`] on the `extra` map
//! (no member named like a declared field).

/// Values [`finite`] checks: `f64`, and options and lists of them.
pub trait FiniteValue {
    /// Whether every number held is finite.
    fn is_finite_value(&self) -> bool;
}

impl FiniteValue for f64 {
    fn is_finite_value(&self) -> bool {
        self.is_finite()
    }
}

impl FiniteValue for crate::Number<f64> {
    fn is_finite_value(&self) -> bool {
        self.get().is_finite()
    }
}

impl<T: FiniteValue> FiniteValue for Option<T> {
    fn is_finite_value(&self) -> bool {
        self.as_ref().is_none_or(FiniteValue::is_finite_value)
    }
}

impl<T: FiniteValue> FiniteValue for Vec<T> {
    fn is_finite_value(&self) -> bool {
        self.iter().all(FiniteValue::is_finite_value)
    }
}

/// The garde rule on every float: JSON has no NaN or infinity (serde_json would write `null`).
pub fn finite<T: FiniteValue + ?Sized>(value: &T, _ctx: &()) -> garde::Result {
    if value.is_finite_value() { Ok(()) } else { Err(garde::Error::new("not a finite number")) }
}

/// A field type that [`unique_items`] can check.
pub trait UniqueItems {
    /// The first repeated item, as the indices `(earlier, later)` of two equal items with
    /// `later` as small as possible, or `None` when the items are unique (or absent).
    fn first_repeat(&self) -> Option<(usize, usize)>;
}

impl<U: PartialEq> UniqueItems for [U] {
    fn first_repeat(&self) -> Option<(usize, usize)> {
        // Items are only `PartialEq`, so compare pairs; contract arrays are short.
        self.iter()
            .enumerate()
            .skip(1)
            .find_map(|(later, item)| self[..later].iter().position(|earlier| earlier == item).map(|i| (i, later)))
    }
}

impl<U: PartialEq> UniqueItems for Vec<U> {
    fn first_repeat(&self) -> Option<(usize, usize)> {
        self.as_slice().first_repeat()
    }
}

/// Absent or `null` (an optional, possibly nullable field): nothing to check.
impl<T: UniqueItems> UniqueItems for Option<T> {
    fn first_repeat(&self) -> Option<(usize, usize)> {
        self.as_ref().and_then(UniqueItems::first_repeat)
    }
}

/// `garde` custom rule for `uniqueItems: true`: no two items may be equal. The error names
/// the first repeated item, e.g. `items 0 and 3 are equal`. `None` passes.
///
/// Used as `#[garde(custom(::jerry_contracts::__private::unique_items))]`.
pub fn unique_items<T: UniqueItems + ?Sized>(value: &T, _ctx: &()) -> garde::Result {
    match value.first_repeat() {
        None => Ok(()),
        Some((earlier, later)) => Err(garde::Error::new(format!("items {earlier} and {later} are equal"))),
    }
}

/// The generated structs' `extra` fields check this: a member named like a declared field would
/// be written twice.
pub fn undeclared(declared: &'static [&'static str]) -> impl FnOnce(&crate::Extra, &()) -> garde::Result {
    move |extra, _| match declared.iter().find(|name| extra.contains_key(name)) {
        Some(name) => Err(garde::Error::new(format!("extra holds a member named like the declared field `{name}`"))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use garde::Validate;
    use serde_json::json;

    use super::*;
    use crate::pointer::from_garde_path;

    #[test]
    fn unique_items_names_the_first_repeat() {
        assert!(unique_items(&vec![1, 2, 3], &()).is_ok());
        assert!(unique_items(&Vec::<u8>::new(), &()).is_ok());
        assert!(unique_items(&None::<Vec<u8>>, &()).is_ok());
        assert!(unique_items(&Some(vec!["a", "b"]), &()).is_ok());

        let error = unique_items(&vec!["a", "b", "c", "a", "b"], &()).unwrap_err();
        assert_eq!(error.message(), "items 0 and 3 are equal");
        let error = unique_items(&Some(vec![1, 2, 3, 3, 1]), &()).unwrap_err();
        assert_eq!(error.message(), "items 2 and 3 are equal");
        let error = unique_items(&[json!({"a": 1}), json!({"a": 1})][..], &()).unwrap_err();
        assert_eq!(error.message(), "items 0 and 1 are equal");
    }

    #[test]
    fn unique_items_rule_on_fields() {
        #[derive(garde::Validate)]
        struct Tags {
            #[garde(custom(unique_items))]
            tags: Vec<String>,
            #[garde(custom(unique_items))]
            more: Option<Vec<String>>,
        }

        assert!(Tags { tags: vec!["a".into(), "b".into()], more: None }.validate().is_ok());
        let report = Tags { tags: vec!["a".into(), "a".into()], more: Some(vec!["x".into(), "x".into()]) }
            .validate()
            .unwrap_err();
        let mut errors: Vec<(String, String)> =
            report.iter().map(|(path, error)| (from_garde_path(path), error.to_string())).collect();
        errors.sort();
        assert_eq!(
            errors,
            [
                ("/more".to_owned(), "items 0 and 1 are equal".to_owned()),
                ("/tags".into(), "items 0 and 1 are equal".into())
            ]
        );
    }
}
