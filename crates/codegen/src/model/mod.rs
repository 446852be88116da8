//! The contract model: one typed reading of the corpus that every renderer works from. Today it
//! holds the keywords the generator knows ([`Keyword`], the one table of them) and every
//! constraint of the corpus with its keyword, value, place, layer and source
//! ([`Constraint`]); the constraint table and inventory render from it.

mod constraint;
mod keyword;

pub use constraint::{Constraint, Layer, Source, constraints};
pub use keyword::{FORMATS, Keyword};

use crate::corpus::Corpus;

/// The model of a corpus.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Model {
    /// Every constraint, in file and document order (see [`constraints`]).
    pub constraints: Vec<Constraint>,
}

impl Model {
    /// Reads the model of `corpus` (checked by the loader).
    pub fn new(corpus: &Corpus) -> Self {
        Model { constraints: constraints(corpus) }
    }
}
