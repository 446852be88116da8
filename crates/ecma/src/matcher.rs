//! [`Matcher`]: an ECMA-262 pattern compiled for matching, on a linear-time engine (a dense
//! DFA, else `regex`) wherever the pattern translates exactly, else on regress.

/// An ECMA-262 pattern's syntax error, as regress (the ECMA-262 engine) reports it.
pub type SyntaxError = regress::Error;

/// An ECMA-262 regular expression compiled for JSON Schema's `pattern`: an unanchored search,
/// `\d` and `[0-9]` ASCII digits only.
///
/// ```
/// let matcher = jerry_contracts_ecma::Matcher::new(r"^F-\d{3}$").unwrap();
/// assert!(matcher.is_match("F-001"));
/// assert!(!matcher.is_match("F-٠٠١"));
/// assert!(matcher.is_dense());
/// ```
pub struct Matcher {
    engine: Engine,
}

/// The engine that runs a pattern: `regex` (linear time) whenever the pattern translates to its
/// syntax with the same meaning ([`crate::translate`]), else regress (ECMA-262 itself). A
/// translated pattern whose dense DFA stays within [`crate::DFA_LIMIT`] (every schema pattern) is
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

/// The dense DFA for a translated pattern, if it stays within [`DFA_LIMIT`]; past it, the
/// pattern is left to `regex` alone.
fn dense(translated: &str) -> Option<Box<DenseDfa>> {
    use crate::DFA_LIMIT;
    use regex_automata::dfa::dense;
    let config = dense::Config::new().dfa_size_limit(Some(DFA_LIMIT)).determinize_size_limit(Some(DFA_LIMIT));
    dense::Builder::new().configure(config).build(translated).ok().map(Box::new)
}

impl Matcher {
    /// Compiles `source` as an ECMA-262 regular expression (no flags), or says why it is not
    /// one.
    pub fn new(source: &str) -> Result<Self, SyntaxError> {
        // regress judges the syntax: only a valid ECMA-262 pattern is translated.
        let ecma = regress::Regex::new(source)?;
        let translated = crate::translate(source);
        let linear =
            translated.as_deref().and_then(|translated| Some((translated, regex::Regex::new(translated).ok()?)));
        let engine = match linear {
            Some((translated, regex)) => Engine::Linear { dfa: dense(translated).and_then(Walk::new), regex },
            None => Engine::Ecma(ecma),
        };
        Ok(Self { engine })
    }

    /// Whether the pattern runs on the linear-time engine (a bound on matching time whatever the
    /// text), rather than the backtracking ECMA-262 one.
    pub fn is_linear(&self) -> bool {
        matches!(self.engine, Engine::Linear { .. })
    }

    /// Whether the pattern is matched by a dense DFA (a table walk per byte, no shared cache).
    pub fn is_dense(&self) -> bool {
        matches!(self.engine, Engine::Linear { dfa: Some(_), .. })
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::Matcher;

    #[test]
    fn each_engine_matches_as_ecma_does() {
        // Translated: a dense DFA, ASCII digits only, an unanchored search.
        let digits = Matcher::new(r"\d{3}").unwrap();
        assert!(digits.is_dense() && digits.is_linear());
        assert!(digits.is_match("abc123def"));
        assert!(!digits.is_match("ab12"));
        assert!(!digits.is_match("٠٠٠"));
        // Look-ahead has no `regex` spelling: regress runs it.
        let lookahead = Matcher::new("^(?!draft-)[a-z-]+$").unwrap();
        assert!(!lookahead.is_linear() && !lookahead.is_dense());
        assert!(lookahead.is_match("final-report"));
        assert!(!lookahead.is_match("draft-report"));
    }

    #[test]
    fn a_pattern_that_is_not_ecma_is_refused() {
        assert!(Matcher::new("([a-z]").is_err());
        assert!(Matcher::new("a{2,1}").is_err());
    }
}
