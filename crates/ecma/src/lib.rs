//! ECMA-262 regular expressions, JSON Schema's `pattern` dialect, for the jerry-contracts
//! generator and tools (the library's runtime reads the DFAs the generator serialises, and
//! needs this crate only for patterns compiled at run time):
//! - [`translate`]: a pattern in the linear-time `regex` crate's syntax, with the same matches;
//! - [`serialized_dfa`]: a pattern's dense DFA, serialised for the runtime;
//! - [`Matcher`]: a compiled pattern, matched on a dense DFA or `regex` wherever it translates,
//!   else on regress (ECMA-262 itself).

mod matcher;
mod serialize;
mod translate;

pub use matcher::{Matcher, SyntaxError};
pub use serialize::{DFA_LIMIT, DfaError, SerializedDfa, serialized_dfa};
pub use translate::translate;
