//! ECMA-262 regular expressions, JSON Schema's `pattern` dialect, for the jerry-contracts
//! generator and runtime:
//! - [`translate`]: a pattern in the linear-time `regex` crate's syntax, with the same matches;
//! - [`Matcher`]: a compiled pattern, matched on a dense DFA or `regex` wherever it translates,
//!   else on regress (ECMA-262 itself).
//!
//! The matcher lives here rather than in the runtime so that the engines' generic code is
//! compiled once, in this crate, beside the runtime's own build rather than inside it.

mod matcher;
mod translate;

pub use matcher::{Matcher, SyntaxError};
pub use translate::translate;
