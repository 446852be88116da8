//! Views of the model's constraints ([`crate::model::constraints`]): the inventory of the
//! schema layer's assertions (each with a stable id; the boundary fixtures are kept per id, and
//! the test suite holds the inventory against them, so a constraint without fixtures is named),
//! every cited constraint with its source, the conventions, and the constraint table
//! `docs/constraints.md`.

use serde_json::Value;

use crate::corpus::Corpus;
pub use crate::model::Constraint;
use crate::model::{Keyword, Layer};

/// The schema layer's assertions: every pattern, format, length, range, item count,
/// uniqueness, enum and const, and each required property, in the model's order.
pub fn inventory(corpus: &Corpus) -> Vec<Constraint> {
    crate::model::constraints(corpus)
        .into_iter()
        .filter(|c| c.layer == Layer::Schema && (c.keyword.is_assertion() || c.keyword == Keyword::Required))
        .collect()
}

/// Every cited constraint of the corpus with its source, in file and document order: the schema
/// layer's and the conventions'.
pub fn sourced(corpus: &Corpus) -> Vec<Constraint> {
    crate::model::constraints(corpus)
}

/// Every convention of the corpus (the constraints of the `x-convention` objects).
pub fn conventions(corpus: &Corpus) -> Vec<Constraint> {
    sourced(corpus).into_iter().filter(Constraint::is_convention).collect()
}

/// The constraint table, `docs/constraints.md`: every constraint of the corpus with its layer
/// and its source (a test keeps the committed page equal to this).
pub fn table(corpus: &Corpus) -> String {
    let rows = sourced(corpus);
    let conventions = rows.iter().filter(|r| r.is_convention()).count();
    let mut page = format!(
        "# Constraints and their sources\n\n\
         Every constraint of `schemas/` — each required property, pattern, enum, const, range, length,\n\
         count, uniqueness, format and closed object — with where it comes from, as the schema's\n\
         `x-source` annotation records it:\n\n\
         - **seed**: the seed line that states it (`000:412` is line 412 of `shared/seeds/000_…`; seed\n\
           004 is cited by section). These are the schema layer: a document that breaks one is invalid.\n\
         - **convention**: the project's own choice, with the decision in `docs/decisions.md` that makes it.\n\
           These sit in the schema's `x-convention` objects and form the convention layer: a warning\n\
           (`CNV-*`), an error only in strict mode (`validate --strict`, `Options::strict`).\n\n\
         {} constraints: {} stated by the seeds, {conventions} conventions. This page is generated from the\n\
         schemas (`jerry_contracts_codegen::constraints::table`); `JERRY_BLESS=1 cargo test --test artifacts`\n\
         refreshes it.\n",
        rows.len(),
        rows.len() - conventions,
    );
    let mut current = "";
    for c in &rows {
        if c.schema != current {
            current = &c.schema;
            page.push_str(&format!(
                "\n## `{current}`\n\n| Where | Keyword | Value | Layer | Source |\n|---|---|---|---|---|\n"
            ));
        }
        let place = c.pointer.strip_suffix("/x-convention").unwrap_or(&c.pointer);
        let place = if place.is_empty() { "(root)" } else { place };
        page.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            cell(place),
            c.keyword,
            cell_value(&c.value),
            if c.is_convention() { "convention" } else { "seed" },
            c.source.as_ref().map_or_else(|| "**missing**".to_owned(), |source| cell(&source.to_string())),
        ));
    }
    page
}

/// Text for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// A constraint's value for a table cell: its JSON, shortened past 80 characters.
fn cell_value(value: &Value) -> String {
    let text = value.to_string();
    let shown: String = text.chars().take(80).collect();
    let shown = if shown.len() < text.len() { format!("{shown}…") } else { shown };
    format!("`{}`", cell(&shown).replace('`', "'"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_assertion_gets_an_id_and_conditions_do_not() {
        let document = json!({
            "type": "object",
            "required": ["id", "a/b"],
            "properties": {
                "id": {"type": "string", "pattern": "^X$", "maxLength": 3, "x-convention": {"minLength": 1}},
                "tags": {"type": "array", "uniqueItems": false, "items": {"enum": ["a"]}},
                "open": {"type": "object", "additionalProperties": false}
            },
            "definitions": {"n": {"type": "number", "minimum": 0}},
            "if": {"properties": {"id": {"const": "X"}}},
            "then": {"required": ["tags"]}
        });
        let corpus = Corpus::of_one("x.json", document);
        let ids: Vec<String> = inventory(&corpus).iter().map(Constraint::id).collect();
        assert_eq!(
            ids,
            [
                "x.json#/required/id",
                "x.json#/required/a~1b",
                "x.json#/properties/id/pattern",
                "x.json#/properties/id/maxLength",
                "x.json#/properties/tags/items/enum",
                "x.json#/definitions/n/minimum",
                "x.json#/then/required/tags",
            ]
        );
        let more: Vec<String> = sourced(&corpus).iter().map(Constraint::id).filter(|id| !ids.contains(id)).collect();
        assert_eq!(
            more,
            ["x.json#/properties/id/x-convention/minLength", "x.json#/properties/open/additionalProperties"]
        );
        assert_eq!(conventions(&corpus).len(), 1);
    }
}
