//! The contract model: one typed reading of the corpus that every renderer works from. It
//! holds the keywords the generator knows ([`Keyword`], the one table of them), every
//! constraint of the corpus with its keyword, value, place, layer and source ([`Constraint`]),
//! every named type with its fields and type expressions ([`TypeModel`], [`Expr`]), and the
//! agent facts ([`AgentFacts`]: every agent output, its family, its requirement ids, and what
//! the rule layers read), and the value checks one schema node asks ([`Checks`], from the
//! keyword table's [`Check`] of each value rule), and what a page says of each schema file
//! ([`SchemaModel`]). The constraint table, the inventory, the Python types, the Rust agent
//! knowledge and the skim's reads render from it.

mod agents;
mod checks;
mod constraint;
mod keyword;
mod schemas;
mod types;

pub use agents::{
    ARTIFACT, AgentFacts, CONFIDENCE, DISCLAIMER_FAMILY, FAMILY, IdPlace, IdRole, KEEPS, OUTPUT_READS, REQUIREMENT_ID,
    ROOT_READS, Step, agents, pointer_text,
};
pub use checks::{Bounds, Checks, holds_floats};
pub use constraint::{Constraint, Layer, Source, constraints};
pub use keyword::{Bound, Check, FORMATS, Keyword, UriForm};
pub use schemas::{SchemaModel, schemas};
pub use types::{AnyValue, Body, Expr, Field, TypeModel, nullable, types};

use crate::corpus::{Corpus, Problem};
use crate::plan::Plan;

/// The model of a corpus.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Model {
    /// Every schema file, in the corpus's order (see [`schemas`]).
    pub schemas: Vec<SchemaModel>,
    /// Every constraint, in file and document order (see [`constraints`]).
    pub constraints: Vec<Constraint>,
    /// Every named type of the plan, in the plan's order (by flat name).
    pub types: Vec<TypeModel>,
    /// Every agent output, in the plan's order.
    pub agents: Vec<AgentFacts>,
}

impl Model {
    /// Reads the model of `corpus` and its plan, or returns every problem found, each with its
    /// schema file and pointer.
    pub fn new(corpus: &Corpus, plan: &Plan) -> Result<Self, Vec<Problem>> {
        let types = types(corpus, plan)?;
        let agents = agents(plan, &types)?;
        let constraints = constraints(corpus);
        Ok(Model { schemas: schemas(corpus, &constraints), constraints, types, agents })
    }

    /// The type of flat name `flat`.
    pub fn type_named(&self, flat: &str) -> Option<&TypeModel> {
        self.types.iter().find(|t| t.flat == flat)
    }

    /// The declared fields of the object type `flat` and the members it requires, in the
    /// schema's `required` order; `None` when `flat` is not an object type.
    pub fn object(&self, flat: &str) -> Option<(&[Field], &[String])> {
        match &self.type_named(flat)?.body {
            Body::Object { fields, required } => Some((fields, required)),
            _ => None,
        }
    }
}
