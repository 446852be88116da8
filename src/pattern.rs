//! JSON Schema `pattern`: [`EcmaPattern`], an ECMA-262 regular expression matched the way JSON
//! Schema matches it, on a linear-time engine: a dense DFA that the generator built and
//! serialised for every pattern of the schemas ([`PatternTable`]), which the runtime only reads
//! and walks. No pattern compiler is in a user's build; the `runtime-patterns` feature adds one
//! (`EcmaPattern::try_new`) for patterns that are not in the schemas. The generated types keep
//! one pattern per schema pattern in a static and name it in a `garde` `pattern` rule; the schema
//! layer and the skim use the same statics' table.

use std::fmt;
use std::ops::Range;

use regex_automata::dfa::{Automaton, dense};
use regex_automata::util::primitives::StateID;

#[cfg(feature = "runtime-patterns")]
pub use jerry_contracts_ecma::SyntaxError;

/// Bytes aligned as regex-automata's dense DFAs need to be read (four bytes; eight here): the
/// generated code wraps the serialised DFAs it includes in one.
///
/// ```
/// use jerry_contracts::pattern::AlignedBytes;
/// static BYTES: &AlignedBytes<[u8]> = &AlignedBytes([0_u8; 16]);
/// assert_eq!(BYTES.0.as_ptr().align_offset(8), 0);
/// ```
#[repr(C, align(8))]
#[derive(Debug)]
pub struct AlignedBytes<B: ?Sized>(pub B);

/// Every pattern of a catalogue's schemas with its DFA, as the generator wrote them: the sources,
/// and where each one's serialised dense DFA lies in `dfas` (for this target's byte order).
#[derive(Debug)]
pub struct PatternTable {
    /// The serialised DFAs, one after the other, each starting at a multiple of eight.
    pub dfas: &'static AlignedBytes<[u8]>,
    /// Each pattern as written in the schemas, with the range of its DFA in `dfas`.
    pub entries: &'static [(&'static str, usize, usize)],
}

impl PatternTable {
    /// The pattern of entry `index`, read from its DFA (an unusable pattern if there is no such
    /// entry: see [`EcmaPattern::problem`]).
    pub fn pattern(&self, index: usize) -> EcmaPattern {
        match self.entries.get(index) {
            Some(&(source, start, end)) => EcmaPattern::precompiled(source, &self.dfas.0, start..end),
            None => {
                EcmaPattern { source: "", engine: Engine::Unusable(format!("the pattern table has no entry {index}")) }
            }
        }
    }

    /// The pattern written `source`, read from its DFA, if the table has it.
    pub fn find(&self, source: &str) -> Option<EcmaPattern> {
        let index = self.entries.iter().position(|&(written, _, _)| written == source)?;
        Some(self.pattern(index))
    }

    /// Every pattern source of the table, in its order.
    pub fn sources(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.entries.iter().map(|&(source, _, _)| source)
    }
}

/// The library's own patterns: every `pattern` of its schemas (the seed reading and the
/// conventions) with the DFA the generator built for it.
///
/// ```
/// let finding_id = jerry_contracts::pattern::table().find("^F-[0-9]{3}$").unwrap();
/// assert!(finding_id.is_match("F-001"));
/// assert!(!finding_id.is_match("F-٠٠١"));
/// assert!(finding_id.is_dense());
/// ```
pub fn table() -> &'static PatternTable {
    &crate::generated::PATTERN_TABLE
}

/// A JSON Schema `pattern`: an ECMA-262 regular expression, matched the way JSON Schema
/// matches it (anywhere in the string unless anchored; `\d` and `[0-9]` mean ASCII digits
/// only).
///
/// The generated code keeps one per pattern of the schemas in a static, read from the table the
/// generator wrote ([`PatternTable::pattern`]), and names it in a `garde` rule. With the
/// `runtime-patterns` feature, `EcmaPattern::try_new` compiles any other pattern.
pub struct EcmaPattern {
    source: &'static str,
    engine: Engine,
}

/// What runs a pattern.
enum Engine {
    /// A dense DFA the generator built and serialised: a table walk, one transition a byte.
    Dfa(Box<Walk>),
    /// A pattern compiled at run time (`runtime-patterns`).
    #[cfg(feature = "runtime-patterns")]
    Compiled(jerry_contracts_ecma::Matcher),
    /// A serialised DFA this build cannot read, and why. The generator's tables are read by the
    /// regex-automata they were written for or a semver-compatible one, which reads them (its
    /// promise, and `tests/patterns.rs` reads every one), so this is a corrupted table: the
    /// pattern matches nothing and the schema layer reports the reason.
    Unusable(String),
}

/// A dense DFA with its start state for a search from the start of a text, found once, so a
/// match is a walk of the table: one transition a byte, no search set-up (the `Input`,
/// start-state and prefilter work of `try_search_fwd`, most of the cost on a short id).
struct Walk {
    dfa: dense::DFA<&'static [u32]>,
    start: StateID,
}

impl Walk {
    /// Whether the pattern matches anywhere in `text`. The generator builds DFAs without quit
    /// bytes or a Unicode word-boundary heuristic, so the walk never meets a quit state; if it
    /// did, that would be no match.
    fn is_match(&self, text: &str) -> bool {
        let dfa = &self.dfa;
        let mut state = self.start;
        for &byte in text.as_bytes() {
            state = dfa.next_state(state, byte);
            if dfa.is_special_state(state) {
                // A dense DFA reports a match one byte late: any match state means a match.
                if dfa.is_match_state(state) {
                    return true;
                }
                if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                    return false;
                }
            }
        }
        dfa.is_match_state(dfa.next_eoi_state(state))
    }
}

impl EcmaPattern {
    /// The pattern `source` from its DFA, serialised by the generator at `range` of `dfas` (for
    /// this target's byte order, at an address aligned to four). Generated code calls this, through
    /// [`PatternTable::pattern`]; a DFA that cannot be read gives a pattern that matches nothing
    /// and says why ([`EcmaPattern::problem`]).
    pub fn precompiled(source: &'static str, dfas: &'static [u8], range: Range<usize>) -> Self {
        let engine = match dfas.get(range.clone()) {
            None => {
                Engine::Unusable(format!("its DFA ({range:?}) is past the end of the table ({} bytes)", dfas.len()))
            }
            Some(bytes) => match dense::DFA::from_bytes(bytes) {
                Err(error) => Engine::Unusable(format!("its DFA cannot be read: {error}")),
                Ok((dfa, _)) => match dfa.start_state(&regex_automata::util::start::Config::new()) {
                    Ok(start) => Engine::Dfa(Box::new(Walk { dfa, start })),
                    Err(error) => Engine::Unusable(format!("its DFA has no start state for a search: {error}")),
                },
            },
        };
        Self { source, engine }
    }

    /// Compiles `source` as an ECMA-262 regular expression (no flags).
    ///
    /// # Panics
    ///
    /// If `source` is not a valid ECMA-262 regular expression; [`EcmaPattern::try_new`] says why
    /// instead.
    #[cfg(feature = "runtime-patterns")]
    pub fn new(source: &'static str) -> Self {
        match Self::try_new(source) {
            Ok(pattern) => pattern,
            Err(error) => panic!("invalid ECMA-262 pattern {source:?}: {error}"),
        }
    }

    /// Compiles `source` as an ECMA-262 regular expression (no flags), on a linear-time engine
    /// wherever it translates exactly, else on a backtracking one, or says why it is not one.
    ///
    /// ```
    /// use jerry_contracts::pattern::EcmaPattern;
    /// let draft = EcmaPattern::try_new("^(?!draft-)[a-z-]+$").unwrap();
    /// assert!(draft.is_match("final-report") && !draft.is_match("draft-report"));
    /// assert!(EcmaPattern::try_new("([a-z]").is_err());
    /// ```
    #[cfg(feature = "runtime-patterns")]
    pub fn try_new(source: &'static str) -> Result<Self, SyntaxError> {
        Ok(Self { source, engine: Engine::Compiled(jerry_contracts_ecma::Matcher::new(source)?) })
    }

    /// Whether the pattern runs on a linear-time engine (a bound on matching time whatever the
    /// text), rather than the backtracking ECMA-262 one.
    pub fn is_linear(&self) -> bool {
        match &self.engine {
            Engine::Dfa(_) => true,
            #[cfg(feature = "runtime-patterns")]
            Engine::Compiled(matcher) => matcher.is_linear(),
            Engine::Unusable(_) => false,
        }
    }

    /// Whether the pattern is matched by a dense DFA (a table walk per byte, no shared cache):
    /// true of every pattern in the schemas (tests/patterns.rs).
    pub fn is_dense(&self) -> bool {
        match &self.engine {
            Engine::Dfa(_) => true,
            #[cfg(feature = "runtime-patterns")]
            Engine::Compiled(matcher) => matcher.is_dense(),
            Engine::Unusable(_) => false,
        }
    }

    /// Why the pattern cannot be matched (its serialised DFA could not be read), if it cannot.
    pub fn problem(&self) -> Option<&str> {
        match &self.engine {
            Engine::Unusable(reason) => Some(reason),
            _ => None,
        }
    }

    /// The pattern as written in the schema.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether the pattern matches anywhere in `text` (an unanchored search, as JSON Schema's
    /// `pattern` is).
    pub fn is_match(&self, text: &str) -> bool {
        match &self.engine {
            Engine::Dfa(walk) => walk.is_match(text),
            #[cfg(feature = "runtime-patterns")]
            Engine::Compiled(matcher) => matcher.is_match(text),
            Engine::Unusable(_) => false,
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

    static P3: LazyLock<EcmaPattern> = LazyLock::new(|| table().find("^F-[0-9]{3}$").unwrap());
    static DIGITS: LazyLock<EcmaPattern> = LazyLock::new(|| table().find(r"^e-\d+$").unwrap());

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
        assert!(Finding { id: "F-001".into(), alias: Some("e-002".into()) }.validate().is_ok());

        let report = Finding { id: "F-٠٠١".into(), alias: Some("e-٠٠٢".into()) }.validate().unwrap_err();
        let mut errors: Vec<(String, String)> =
            report.iter().map(|(path, error)| (from_garde_path(path), error.to_string())).collect();
        errors.sort();
        assert_eq!(errors[0].0, "/alias");
        assert!(errors[0].1.contains(r"^e-\d+$"), "{errors:?}");
        assert_eq!(errors[1].0, "/id");
        assert!(errors[1].1.contains("^F-[0-9]{3}$"), "{errors:?}");

        assert!(Finding { id: "F-0012".into(), alias: None }.validate().is_err());
    }

    #[test]
    fn every_entry_of_the_table_is_read_from_its_dfa() {
        let table = table();
        assert!(table.entries.len() >= 40, "{}", table.entries.len());
        for (index, source) in table.sources().enumerate() {
            let pattern = table.pattern(index);
            assert_eq!(pattern.source(), source);
            assert!(pattern.problem().is_none(), "{source}: {:?}", pattern.problem());
            assert!(pattern.is_dense() && pattern.is_linear(), "{source}");
        }
        assert!(table.find("^nowhere$").is_none());
    }

    #[test]
    fn an_unreadable_dfa_matches_nothing_and_says_why() {
        static GARBAGE: AlignedBytes<[u8; 64]> = AlignedBytes([7; 64]);
        let pattern = EcmaPattern::precompiled("^F-[0-9]{3}$", &GARBAGE.0, 0..64);
        assert!(pattern.problem().is_some_and(|p| p.contains("cannot be read")), "{:?}", pattern.problem());
        assert!(!pattern.is_match("F-001") && !pattern.is_linear() && !pattern.is_dense());
        let past = EcmaPattern::precompiled("x", &GARBAGE.0, 60..80);
        assert!(past.problem().is_some_and(|p| p.contains("past the end")));
        let missing = table().pattern(usize::MAX);
        assert!(missing.problem().is_some_and(|p| p.contains("no entry")));
    }

    #[test]
    fn a_pattern_is_searched_unanchored() {
        let id = table().find("^F-[0-9]{3}$").unwrap();
        assert_eq!(id.source(), "^F-[0-9]{3}$");
        assert_eq!(id.to_string(), "^F-[0-9]{3}$");
        assert_eq!(garde::rules::AsStr::as_str(&id), "^F-[0-9]{3}$");
        let shall = table().find(".*shall.*").unwrap();
        assert!(shall.is_match("the system shall log"));
        assert!(!shall.is_match("the system may log"));
    }

    #[cfg(feature = "runtime-patterns")]
    #[test]
    fn runtime_patterns_compile_any_ecma_pattern() {
        let unanchored = EcmaPattern::try_new("[0-9]{3}").unwrap();
        assert!(unanchored.is_match("abc123def") && !unanchored.is_match("ab12"));
        // ECMA-262 syntax the `regex` crate lacks.
        let lookahead = EcmaPattern::new("^(?!draft-)[a-z-]+$");
        assert!(lookahead.is_match("final-report") && !lookahead.is_match("draft-report"));
        assert!(!lookahead.is_linear());
        assert!(EcmaPattern::try_new("([a-z]").is_err());
    }

    #[cfg(feature = "runtime-patterns")]
    #[test]
    #[should_panic(expected = "invalid ECMA-262 pattern")]
    fn new_panics_on_an_invalid_pattern() {
        let _ = EcmaPattern::new("([a-z]");
    }
}
