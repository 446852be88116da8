//! Whether every string one ECMA-262 pattern matches is matched by another, decided on their
//! automata: each pattern (translated to `regex` syntax with the same matches, as the validator
//! translates it) becomes a DFA of the strings that contain a match, and a breadth-first walk of
//! the two DFAs side by side finds the shortest string the first accepts and the second does
//! not, or shows there is none. A pattern that does not translate, or whose DFA or walk would
//! pass a size limit, gives no answer.

use std::collections::{HashMap, VecDeque};

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

/// The largest DFA built for one pattern, in bytes.
const DFA_BYTES: usize = 1 << 20;
/// The most pairs of states the walk visits.
const MAX_PAIRS: usize = 200_000;

/// A state of each pattern's automaton.
type Pair = (StateID, StateID);

/// How one pattern's strings stand to another's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inclusion {
    /// Every string the first matches, the second matches.
    Included,
    /// A string the first matches and the second does not (the shortest, in bytes).
    Shown(String),
    /// The patterns could not be compared.
    Unknown,
}

/// The DFA of the strings in which `pattern` finds a match (anywhere, as JSON Schema's
/// `pattern` does); the empty pattern matches every string.
fn automaton(pattern: &str) -> Option<dense::DFA<Vec<u32>>> {
    jerry_contracts_ecma::Matcher::new(pattern).ok()?;
    let translated = jerry_contracts_ecma::translate(pattern)?;
    dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Anchored)
                .match_kind(MatchKind::All)
                .dfa_size_limit(Some(DFA_BYTES))
                .determinize_size_limit(Some(DFA_BYTES)),
        )
        .build(&format!(r"(?s:.)*(?:{translated})(?s:.)*"))
        .ok()
}

/// Whether every string `first` matches is matched by `second`, or a string that shows it is
/// not.
pub fn included(first: &str, second: &str) -> Inclusion {
    let (Some(a), Some(b)) = (automaton(first), automaton(second)) else { return Inclusion::Unknown };
    let config = start::Config::new().anchored(Anchored::Yes);
    let (Ok(start_a), Ok(start_b)) = (a.start_state(&config), b.start_state(&config)) else {
        return Inclusion::Unknown;
    };
    let accepts = |dfa: &dense::DFA<Vec<u32>>, state: StateID| dfa.is_match_state(dfa.next_eoi_state(state));
    // Each pair reached, with the pair and byte it was first reached from.
    let mut came_from: HashMap<Pair, Option<(Pair, u8)>> = HashMap::new();
    let mut queue = VecDeque::from([(start_a, start_b)]);
    came_from.insert((start_a, start_b), None);
    while let Some(pair @ (sa, sb)) = queue.pop_front() {
        if accepts(&a, sa) && !accepts(&b, sb) {
            let mut bytes = Vec::new();
            let mut at = pair;
            while let Some(Some((previous, byte))) = came_from.get(&at) {
                bytes.push(*byte);
                at = *previous;
            }
            bytes.reverse();
            // A string the first pattern accepts is UTF-8: its `.` and classes match characters.
            return String::from_utf8(bytes).map_or(Inclusion::Unknown, Inclusion::Shown);
        }
        for byte in 0..=u8::MAX {
            let next_a = a.next_state(sa, byte);
            if a.is_dead_state(next_a) || a.is_quit_state(next_a) {
                continue;
            }
            let next = (next_a, b.next_state(sb, byte));
            if came_from.contains_key(&next) {
                continue;
            }
            if came_from.len() >= MAX_PAIRS {
                return Inclusion::Unknown;
            }
            came_from.insert(next, Some((pair, byte)));
            queue.push_back(next);
        }
    }
    Inclusion::Included
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inclusion_is_decided_and_shown_by_the_shortest_string() {
        assert_eq!(included("^[a-z]+$", "^[a-z0-9]+$"), Inclusion::Included);
        assert_eq!(included("^[a-z0-9]+$", "^[a-z]+$"), Inclusion::Shown("0".to_owned()));
        assert_eq!(included("^T-[0-9]{3}$", "^T-[0-9]{4}$"), Inclusion::Shown("T-000".to_owned()));
        // Unanchored: a match anywhere in the string.
        assert_eq!(included("^ab", "b"), Inclusion::Included);
        assert_eq!(included("b", "^ab"), Inclusion::Shown("b".to_owned()));
        // The empty pattern matches every string.
        assert_eq!(included("x", ""), Inclusion::Included);
        assert_eq!(included("", "^x"), Inclusion::Shown(String::new()));
        // ECMA's `\d` is ASCII digits, as its translation keeps it.
        assert_eq!(included("^[0-9]$", r"^\d$"), Inclusion::Included);
        assert_eq!(included(r"^\d$", "^[0-8]$"), Inclusion::Shown("9".to_owned()));
        // `.` is any character but a line terminator, in both dialects' meaning.
        assert_eq!(included("^.$", "^[^\n]$"), Inclusion::Included);
        assert_eq!(included("^[^\n]$", "^.$"), Inclusion::Shown("\r".to_owned()));
        // A backreference does not translate.
        assert_eq!(included(r"^(a)\1$", "^aa$"), Inclusion::Unknown);
    }
}
