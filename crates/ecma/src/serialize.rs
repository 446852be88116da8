//! [`serialized_dfa`]: a pattern's dense DFA, built and serialised once by the generator, so that
//! the runtime only reads and walks it (regex-automata's `DFA::from_bytes` and its search half),
//! and no pattern compiler runs in a user's build or process.

use regex_automata::dfa::{StartKind, dense};

/// A pattern's dense DFA serialised both ways round, for targets of either byte order (the
/// generated code picks one with `cfg(target_endian)`). Both have the same length, a multiple of
/// four; each must be read from an address aligned to four bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SerializedDfa {
    /// For little-endian targets.
    pub little_endian: Vec<u8>,
    /// For big-endian targets.
    pub big_endian: Vec<u8>,
}

/// The most memory one pattern's DFA (and its determinisation) may take.
pub const DFA_LIMIT: usize = 1 << 18;

/// Why a pattern has no serialised DFA.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DfaError {
    /// Not an ECMA-262 pattern at all.
    #[error("not an ECMA-262 regular expression: {0}")]
    Syntax(String),
    /// An ECMA-262 feature with no linear-time spelling (lookaround, a backreference, …).
    #[error(
        "the pattern needs a feature only a backtracking engine has (lookaround, a backreference, or a class \
         the linear-time translation cannot spell)"
    )]
    NotLinear,
    /// The DFA would pass [`DFA_LIMIT`], or the translation has an assertion a DFA cannot run.
    #[error("the pattern's DFA cannot be built within {DFA_LIMIT} bytes: {0}")]
    Build(String),
}

/// The dense DFA of the ECMA-262 pattern `source` for an unanchored search (JSON Schema's
/// `pattern`), minimised and serialised; it has no quit state, so every walk ends in an answer.
///
/// ```
/// let dfa = jerry_contracts_ecma::serialized_dfa(r"^F-\d{3}$").unwrap();
/// assert_eq!(dfa.little_endian.len(), dfa.big_endian.len());
/// assert!(jerry_contracts_ecma::serialized_dfa("^(?!draft-)[a-z]+$").is_err());
/// ```
pub fn serialized_dfa(source: &str) -> Result<SerializedDfa, DfaError> {
    regress::Regex::new(source).map_err(|e| DfaError::Syntax(e.to_string()))?;
    let translated = crate::translate(source).ok_or(DfaError::NotLinear)?;
    let config = dense::Config::new()
        .start_kind(StartKind::Unanchored)
        .minimize(true)
        .dfa_size_limit(Some(DFA_LIMIT))
        .determinize_size_limit(Some(DFA_LIMIT));
    let dfa = dense::Builder::new().configure(config).build(&translated).map_err(|e| DfaError::Build(e.to_string()))?;
    let (mut little_endian, little_pad) = dfa.to_bytes_little_endian();
    let (mut big_endian, big_pad) = dfa.to_bytes_big_endian();
    // The serialisations start after `pad` bytes that align them in their own vector.
    little_endian.drain(..little_pad);
    big_endian.drain(..big_pad);
    Ok(SerializedDfa { little_endian, big_endian })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use regex_automata::dfa::{Automaton, dense};

    use super::{DfaError, serialized_dfa};

    /// Reads the little-endian bytes back from an address aligned to four (as the generated code's
    /// wrapper places them) and runs an unanchored search.
    fn is_match(bytes: &[u8], text: &str) -> bool {
        let mut buffer = vec![0_u8; bytes.len() + 3];
        let offset = buffer.as_ptr().align_offset(4);
        buffer[offset..offset + bytes.len()].copy_from_slice(bytes);
        let (dfa, read) = dense::DFA::from_bytes(&buffer[offset..offset + bytes.len()]).unwrap();
        assert_eq!(read, bytes.len());
        dfa.try_search_fwd(&regex_automata::Input::new(text)).unwrap().is_some()
    }

    #[test]
    fn a_serialized_dfa_has_the_pattern_meaning() {
        let dfa = serialized_dfa(r"\d{3}").unwrap();
        assert_eq!(dfa.little_endian.len() % 4, 0);
        assert!(cfg!(target_endian = "big") || is_match(&dfa.little_endian, "ab123"));
        assert!(cfg!(target_endian = "big") || !is_match(&dfa.little_endian, "ab12"));
        assert!(cfg!(target_endian = "big") || !is_match(&dfa.little_endian, "١٢٣"));
    }

    #[test]
    fn patterns_without_a_dfa_are_refused() {
        assert!(matches!(serialized_dfa("([a-z]"), Err(DfaError::Syntax(_))));
        assert!(matches!(serialized_dfa("^(?!draft-)[a-z-]+$"), Err(DfaError::NotLinear)));
    }
}
