//! JSON Schema `pattern`: [`EcmaPattern`], an ECMA-262 regular expression matched the way JSON
//! Schema matches it, on a linear-time engine (a dense DFA, else `regex`) wherever the pattern
//! translates exactly, else on regress. The generated types keep one per schema pattern in a
//! static and name it in a `garde` `pattern` rule; the schema layer and the skim use it too.

use std::fmt;

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
    engine: Engine,
}

/// The engine that runs a pattern: `regex` (linear time) whenever the pattern translates to its
/// syntax with the same meaning ([`jerry_contracts_ecma::translate`]), else regress (ECMA-262 itself).
/// A translated pattern whose dense DFA stays within [`DFA_LIMIT`] (every schema pattern) is
/// matched by the DFA; the `regex` answers whenever the DFA cannot (it never gives up on the
/// schemas' patterns, which have no Unicode word boundary).
enum Engine {
    Linear { dfa: Option<Walk>, regex: regex::Regex },
    Ecma(regress::Regex),
}

/// A dense DFA with its start state for a search from the start of a text, found once, so a
/// match is a walk of the table: one transition a byte, no search set-up (the `Input`,
/// start-state and prefilter work of `try_search_fwd`, most of the cost on a short id).
struct Walk {
    dfa: Box<DenseDfa>,
    start: regex_automata::util::primitives::StateID,
}

impl Walk {
    fn new(dfa: Box<DenseDfa>) -> Option<Self> {
        use regex_automata::dfa::Automaton;
        let start = dfa.start_state(&regex_automata::util::start::Config::new()).ok()?;
        Some(Self { dfa, start })
    }

    /// Whether the pattern matches anywhere in `text`; `None` when the DFA gives up (a quit
    /// state, which the schemas' patterns never reach).
    fn is_match(&self, text: &str) -> Option<bool> {
        use regex_automata::dfa::Automaton;
        let dfa = &*self.dfa;
        let mut state = self.start;
        for &byte in text.as_bytes() {
            state = dfa.next_state(state, byte);
            if dfa.is_special_state(state) {
                // A dense DFA reports a match one byte late: any match state means a match.
                if dfa.is_match_state(state) {
                    return Some(true);
                }
                if dfa.is_dead_state(state) {
                    return Some(false);
                }
                if dfa.is_quit_state(state) {
                    return None;
                }
            }
        }
        Some(dfa.is_match_state(dfa.next_eoi_state(state)))
    }
}

/// A dense DFA over bytes (UTF-8 aware, as `regex` is).
type DenseDfa = regex_automata::dfa::dense::DFA<Vec<u32>>;

/// The most memory one pattern's DFA (and its determinisation) may take; past it, the pattern
/// is left to `regex` alone.
const DFA_LIMIT: usize = 1 << 18;

/// The dense DFA for a translated pattern, if it stays within [`DFA_LIMIT`].
fn dense(translated: &str) -> Option<Box<DenseDfa>> {
    use regex_automata::dfa::dense;
    let config = dense::Config::new().dfa_size_limit(Some(DFA_LIMIT)).determinize_size_limit(Some(DFA_LIMIT));
    dense::Builder::new().configure(config).build(translated).ok().map(Box::new)
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
    pub fn try_new(source: &'static str) -> Result<Self, regress::Error> {
        // regress judges the syntax: only a valid ECMA-262 pattern is translated.
        let ecma = regress::Regex::new(source)?;
        let translated = jerry_contracts_ecma::translate(source);
        let linear =
            translated.as_deref().and_then(|translated| Some((translated, regex::Regex::new(translated).ok()?)));
        let engine = match linear {
            Some((translated, regex)) => Engine::Linear { dfa: dense(translated).and_then(Walk::new), regex },
            None => Engine::Ecma(ecma),
        };
        Ok(Self { source, engine })
    }

    /// Whether the pattern runs on the linear-time engine (a bound on matching time whatever the
    /// text), rather than the backtracking ECMA-262 one.
    pub fn is_linear(&self) -> bool {
        matches!(self.engine, Engine::Linear { .. })
    }

    /// Whether the pattern is matched by a dense DFA (a table walk per byte, no shared cache):
    /// true of every pattern in the schemas (tests/patterns.rs).
    pub fn is_dense(&self) -> bool {
        matches!(self.engine, Engine::Linear { dfa: Some(_), .. })
    }

    /// The pattern as written in the schema.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether the pattern matches anywhere in `text` (an unanchored search, as JSON Schema's
    /// `pattern` is).
    pub fn is_match(&self, text: &str) -> bool {
        match &self.engine {
            Engine::Linear { dfa, regex } => match dfa.as_ref().and_then(|dfa| dfa.is_match(text)) {
                Some(answer) => answer,
                None => regex.is_match(text),
            },
            Engine::Ecma(regex) => regex.find(text).is_some(),
        }
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
