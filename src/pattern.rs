//! JSON Schema `pattern`: [`EcmaPattern`], an ECMA-262 regular expression matched the way JSON
//! Schema matches it, on a linear-time engine (a dense DFA, else `regex`) wherever the pattern
//! translates exactly, else on regress (the engines are [`jerry_contracts_ecma::Matcher`]'s). The
//! generated types keep one per schema pattern in a static and name it in a `garde` `pattern`
//! rule; the schema layer and the skim use it too.

use std::fmt;

use jerry_contracts_ecma::Matcher;
pub use jerry_contracts_ecma::SyntaxError;

/// A JSON Schema `pattern`: an ECMA-262 regular expression, matched the way JSON Schema
/// matches it (anywhere in the string unless anchored; `\d` and `[0-9]` mean ASCII digits
/// only).
///
/// Generated code keeps one per pattern in a static and names it in a `garde` rule:
///
/// ```
/// use std::sync::LazyLock;
/// use jerry_contracts::pattern::EcmaPattern;
///
/// static P3: LazyLock<EcmaPattern> = LazyLock::new(|| EcmaPattern::new("^F-[0-9]{3}$"));
///
/// #[derive(garde::Validate)]
/// struct Finding {
///     #[garde(pattern(P3))]
///     id: String,
/// }
///
/// use garde::Validate as _;
/// assert!(Finding { id: "F-001".into() }.validate().is_ok());
/// assert!(Finding { id: "F-٠٠١".into() }.validate().is_err());
/// ```
pub struct EcmaPattern {
    source: &'static str,
    matcher: Matcher,
}

impl EcmaPattern {
    /// Compiles `source` as an ECMA-262 regular expression (no flags).
    ///
    /// # Panics
    ///
    /// If `source` is not a valid ECMA-262 regular expression. Only the generated code calls
    /// this, with patterns from the schemas, and the build checks every one of them, so this
    /// cannot happen at run time. Use [`EcmaPattern::try_new`] for a pattern from elsewhere.
    pub fn new(source: &'static str) -> Self {
        match Self::try_new(source) {
            Ok(pattern) => pattern,
            Err(error) => panic!("invalid ECMA-262 pattern {source:?}: {error}"),
        }
    }

    /// Compiles `source` as an ECMA-262 regular expression (no flags), or says why it is not
    /// one.
    pub fn try_new(source: &'static str) -> Result<Self, SyntaxError> {
        Ok(Self { source, matcher: Matcher::new(source)? })
    }

    /// Whether the pattern runs on the linear-time engine (a bound on matching time whatever the
    /// text), rather than the backtracking ECMA-262 one.
    pub fn is_linear(&self) -> bool {
        self.matcher.is_linear()
    }

    /// Whether the pattern is matched by a dense DFA (a table walk per byte, no shared cache):
    /// true of every pattern in the schemas (tests/patterns.rs).
    pub fn is_dense(&self) -> bool {
        self.matcher.is_dense()
    }

    /// The pattern as written in the schema.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether the pattern matches anywhere in `text` (an unanchored search, as JSON Schema's
    /// `pattern` is).
    pub fn is_match(&self, text: &str) -> bool {
        self.matcher.is_match(text)
    }
}

impl fmt::Debug for EcmaPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("EcmaPattern").field(&self.source).finish()
    }
}

impl fmt::Display for EcmaPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.source)
    }
}

impl garde::rules::AsStr for EcmaPattern {
    fn as_str(&self) -> &str {
        self.source
    }
}

impl garde::rules::pattern::Matcher for EcmaPattern {
    fn is_match(&self, haystack: &str) -> bool {
        EcmaPattern::is_match(self, haystack)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::sync::LazyLock;

    use garde::Validate;

    use super::*;
    use crate::pointer::from_garde_path;

    static P3: LazyLock<EcmaPattern> = LazyLock::new(|| EcmaPattern::new("^F-[0-9]{3}$"));
    static DIGITS: LazyLock<EcmaPattern> = LazyLock::new(|| EcmaPattern::new(r"^F-\d{3}$"));
    static UNANCHORED: LazyLock<EcmaPattern> = LazyLock::new(|| EcmaPattern::new("[0-9]{3}"));

    #[derive(garde::Validate)]
    struct Finding {
        #[garde(pattern(P3))]
        id: String,
        #[garde(pattern(DIGITS))]
        alias: Option<String>,
    }

    #[test]
    fn pattern_rule_is_ecma_and_ascii() {
        assert!(Finding { id: "F-001".into(), alias: None }.validate().is_ok());
        assert!(Finding { id: "F-001".into(), alias: Some("F-002".into()) }.validate().is_ok());

        let report = Finding { id: "F-٠٠١".into(), alias: Some("F-٠٠٢".into()) }.validate().unwrap_err();
        let mut errors: Vec<(String, String)> =
            report.iter().map(|(path, error)| (from_garde_path(path), error.to_string())).collect();
        errors.sort();
        assert_eq!(errors[0].0, "/alias");
        assert!(errors[0].1.contains(r"^F-\d{3}$"), "{errors:?}");
        assert_eq!(errors[1].0, "/id");
        assert!(errors[1].1.contains("^F-[0-9]{3}$"), "{errors:?}");

        assert!(Finding { id: "F-0012".into(), alias: None }.validate().is_err());
    }

    #[test]
    fn pattern_search_is_unanchored() {
        assert!(UNANCHORED.is_match("abc123def"));
        assert!(!UNANCHORED.is_match("ab12"));
        assert_eq!(UNANCHORED.source(), "[0-9]{3}");
        assert_eq!(UNANCHORED.to_string(), "[0-9]{3}");
        assert_eq!(garde::rules::AsStr::as_str(&*UNANCHORED), "[0-9]{3}");
        // ECMA-262 syntax the `regex` crate lacks.
        let lookahead = EcmaPattern::new("^(?!draft-)[a-z-]+$");
        assert!(lookahead.is_match("final-report"));
        assert!(!lookahead.is_match("draft-report"));
    }

    #[test]
    fn invalid_patterns_are_reported_by_try_new() {
        assert!(EcmaPattern::try_new("([a-z]").is_err());
        assert!(EcmaPattern::try_new("^F-[0-9]{3}$").is_ok());
    }

    #[test]
    #[should_panic(expected = "invalid ECMA-262 pattern")]
    fn new_panics_on_an_invalid_pattern() {
        let _ = EcmaPattern::new("([a-z]");
    }
}
