//! The artifact store's tables for PostgreSQL, rendered from the contract model (issue 30,
//! D-216): one table a mission artifact as seed 004 §14 maps them (and one for writeback
//! proposals, which §14 leaves out), each row the artifact's text exactly as given
//! (`document`) and as `jsonb` (`payload`, held equal to the text by a CHECK), and columns
//! derived from the payload by stored generated columns, so they cannot drift from it: the
//! root metadata, the artifact's own id, its task, and every member whose value the schema
//! limits to string literals. A member the seeds require is `NOT NULL`; what else plain SQL can
//! state of the schema layer is a CHECK named after the error code the validator gives for it
//! (`sch_002_…` a member's JSON type, `sch_007_…` an enum, `sch_008_…` a constant); conventions are never
//! checked here, so the database refuses no document the seeds accept for a convention. Every
//! key starts with `mission_id` (Citus distributes the tables by it).
//!
//! The task graph is kept whole in `colony_task_graphs`; a trigger writes one `colony_tasks`
//! row a task and one `colony_task_dependencies` row a `depends_on` edge from it, in the same
//! statement, so the task rows are the graph's and cannot disagree with it.

use std::fmt::Write as _;

use serde_json::Value;

use crate::corpus::Problem;
use crate::model::{Body, Expr, Field, Model, TypeModel};

/// Where the rendered DDL is committed, relative to the workspace root (the library includes
/// it as the store's first migration).
pub const COMMITTED_PATH: &str = "src/generated/store_v1.sql";

/// One artifact table: the schema file it stores, its name, the member that identifies an
/// artifact within its mission, and whether the artifact belongs to a task.
struct Table {
    schema: &'static str,
    name: &'static str,
    id: &'static str,
    task_scoped: bool,
}

/// Seed 004 §14's mapping, in its order, the task graph's own table after the missions, and the
/// writeback proposals' table last (D-216).
const TABLES: &[Table] = &[
    Table { schema: "mission/mission_envelope.json", name: "colony_missions", id: "mission_id", task_scoped: false },
    Table {
        schema: "mission/mission_task_graph.json",
        name: "colony_task_graphs",
        id: "mission_id",
        task_scoped: false,
    },
    Table {
        schema: "mission/prompt_package.json",
        name: "colony_prompt_packages",
        id: "package_id",
        task_scoped: true,
    },
    Table {
        schema: "mission/research_artifact.json",
        name: "colony_research_artifacts",
        id: "artifact_id",
        task_scoped: true,
    },
    Table { schema: "mission/librarian_pass.json", name: "colony_librarian_passes", id: "pass_id", task_scoped: true },
    Table { schema: "mission/worker_result.json", name: "colony_worker_results", id: "result_id", task_scoped: true },
    Table {
        schema: "mission/aggregation_packet.json",
        name: "colony_aggregation_packets",
        id: "packet_id",
        task_scoped: false,
    },
    Table { schema: "mission/review_packet.json", name: "colony_review_packets", id: "packet_id", task_scoped: false },
    Table {
        schema: "mission/policy_decision.json",
        name: "colony_policy_decisions",
        id: "decision_id",
        task_scoped: false,
    },
    Table {
        schema: "mission/writeback_proposal.json",
        name: "colony_writeback_proposals",
        id: "proposal_id",
        task_scoped: false,
    },
];

/// The root metadata every artifact may carry (seed 004 §2.2), in column order.
const METADATA: &[&str] =
    &["schema_name", "schema_version", "mission_id", "tenant_id", "actor_id", "created_at", "producer"];

/// The schema of a task record inside the task graph.
const TASK_GRAPH: &str = "mission/mission_task_graph.json";

/// One derived column.
struct Column<'m> {
    field: &'m Field,
    /// The column's SQL type: `uuid` for a UUID, `text` otherwise.
    sql_type: &'static str,
    /// The string literals the schema allows, when it limits the value to them.
    literals: Option<Vec<String>>,
    /// The JSON types the member may have (`jsonb_typeof`), when plain SQL can state them.
    json_types: Vec<&'static str>,
}

/// The DDL of the store's tables, for the current contract model: every statement, without
/// a transaction (the migration runner wraps it in one).
pub fn ddl(model: &Model) -> Result<String, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut out = String::from(
        "-- The artifact store's tables, rendered from the contract model by\n\
         -- crates/codegen/src/sql.rs (D-216); regenerate with `JERRY_BLESS=1 cargo test --test artifacts`,\n\
         -- never by hand. Each row keeps the artifact as given (`document`) and as jsonb (`payload`);\n\
         -- every other column is generated from `payload`.\n",
    );
    for table in TABLES {
        match root_type(model, table.schema) {
            Some(root) => render_table(model, table, root, &mut out, &mut problems),
            None => problems.push(Problem::new(
                table.schema,
                "",
                "the store maps this schema, but the model has no root object type for it",
            )),
        }
        if table.name == "colony_task_graphs" {
            render_tasks(model, &mut out, &mut problems);
        }
    }
    if problems.is_empty() { Ok(out) } else { Err(problems) }
}

/// Where the store's table list is committed, relative to the workspace root (the library
/// includes it: `jerry_contracts::store::TABLES`).
pub const TABLES_PATH: &str = "src/generated/store_tables.rs";

/// The store's tables as Rust, for the library (`jerry_contracts::store::TABLES`): each
/// artifact's registry name and `schema_name` constant, its table, the member that identifies
/// it within its mission, and whether it belongs to a task; the same list the DDL renders.
pub fn tables(model: &Model) -> Result<String, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut out = String::from(
        "// The artifact store's tables, rendered from the contract model by crates/codegen/src/sql.rs\n\
         // (D-216); regenerate with `JERRY_BLESS=1 cargo test --test artifacts`, never by hand.\n\
         \n\
         /// Every table of the artifact store, in the order the DDL creates them.\n\
         pub const TABLES: &[ArtifactTable] = &[\n",
    );
    for table in TABLES {
        let Some(root) = root_type(model, table.schema) else {
            problems.push(Problem::new(
                table.schema,
                "",
                "the store maps this schema, but the model has no root object type for it",
            ));
            continue;
        };
        let constant =
            fields(root).iter().find(|f| f.name == "schema_name").and_then(|f| match resolve(model, &f.expr) {
                Expr::Const { value: Value::String(name), .. } => Some(name.as_str()),
                _ => None,
            });
        let Some(constant) = constant else {
            problems.push(Problem::new(
                table.schema,
                "/properties/schema_name",
                "the store tells artifacts by a `schema_name` constant, which this schema lacks",
            ));
            continue;
        };
        let _ = writeln!(
            out,
            "    ArtifactTable {{ schema: {:?}, schema_name: {:?}, table: {:?}, id: {:?}, task_scoped: {} }},",
            table.schema.trim_end_matches(".json"),
            constant,
            table.name,
            table.id,
            table.task_scoped
        );
    }
    out.push_str("];\n");
    if problems.is_empty() { Ok(out) } else { Err(problems) }
}

/// The root object type of schema file `file`.
fn root_type<'m>(model: &'m Model, file: &str) -> Option<&'m TypeModel> {
    model.types.iter().find(|t| t.file == file && t.pointer.is_empty() && matches!(t.body, Body::Object { .. }))
}

/// The fields of an object type.
fn fields(t: &TypeModel) -> &[Field] {
    match &t.body {
        Body::Object { fields, .. } => fields,
        _ => &[],
    }
}

/// The expression behind names and aliases: what the value is.
fn resolve<'m>(model: &'m Model, expr: &'m Expr) -> &'m Expr {
    let mut expr = expr;
    for _ in 0..32 {
        let Expr::Named(flat) = expr else { return expr };
        match model.type_named(flat).map(|t| &t.body) {
            Some(Body::Alias(inner)) => expr = inner,
            _ => return expr,
        }
    }
    expr
}

/// The column of `field`, or `None` when the store derives none for it.
fn column<'m>(model: &'m Model, field: &'m Field, wanted: bool) -> Option<Column<'m>> {
    let (expr, nullable) = match resolve(model, &field.expr) {
        Expr::Nullable(inner) => (resolve(model, inner), true),
        other => (other, false),
    };
    let strings = |values: &[Value]| values.iter().map(|v| v.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>();
    let (sql_type, literals) = match expr {
        Expr::String { format } if format.as_deref() == Some("uuid") => ("uuid", None),
        Expr::String { .. } => ("text", None),
        Expr::Const { value, .. } => ("text", Some(strings(std::slice::from_ref(value))?)),
        Expr::Enum { values, .. } => ("text", Some(strings(values)?)),
        _ => return None,
    };
    if !wanted && literals.is_none() {
        return None;
    }
    let mut json_types = vec!["string"];
    if nullable {
        json_types.push("null");
    }
    Some(Column { field, sql_type, literals, json_types })
}

/// PostgreSQL's reserved key words (its documentation's appendix C, "reserved"), which an
/// unquoted column name cannot be.
const RESERVED: &[&str] = &[
    "all",
    "analyse",
    "analyze",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "asymmetric",
    "both",
    "case",
    "cast",
    "check",
    "collate",
    "column",
    "constraint",
    "create",
    "current_catalog",
    "current_date",
    "current_role",
    "current_time",
    "current_timestamp",
    "current_user",
    "default",
    "deferrable",
    "desc",
    "distinct",
    "do",
    "else",
    "end",
    "except",
    "false",
    "fetch",
    "for",
    "foreign",
    "from",
    "grant",
    "group",
    "having",
    "in",
    "initially",
    "intersect",
    "into",
    "lateral",
    "leading",
    "limit",
    "localtime",
    "localtimestamp",
    "not",
    "null",
    "offset",
    "on",
    "only",
    "or",
    "order",
    "placing",
    "primary",
    "references",
    "returning",
    "select",
    "session_user",
    "some",
    "symmetric",
    "table",
    "then",
    "to",
    "trailing",
    "true",
    "union",
    "unique",
    "user",
    "using",
    "variadic",
    "when",
    "where",
    "window",
    "with",
];

/// Why member `name` cannot be a column of the store's tables as written, if it cannot: a
/// column is the member's own name, unquoted, and its constraints' names add 8 characters to it
/// within PostgreSQL's 63.
fn unfit_column_name(name: &str) -> Option<&'static str> {
    let mut chars = name.chars();
    let shaped = chars.next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !shaped {
        Some("a column's name must be lower-case ASCII letters, digits and underscores, not starting with a digit")
    } else if name.len() > 55 {
        Some("a column's name must be at most 55 characters (its constraints' names add 8 within PostgreSQL's 63)")
    } else if RESERVED.contains(&name) {
        Some("a column's name cannot be one of PostgreSQL's reserved key words")
    } else if name == "document" || name == "payload" {
        Some("`document` and `payload` are the columns of the artifact itself")
    } else {
        None
    }
}

/// A SQL string literal.
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `CREATE TABLE` of one artifact table, its keys, checks and indexes.
fn render_table(model: &Model, table: &Table, root: &TypeModel, out: &mut String, problems: &mut Vec<Problem>) {
    let mut columns = Vec::new();
    for field in fields(root) {
        let wanted = METADATA.contains(&field.name.as_str())
            || field.name == table.id
            || (table.task_scoped && field.name == "task_id");
        match column(model, field, wanted) {
            Some(c) => match unfit_column_name(&c.field.name) {
                Some(why) => problems.push(Problem::new(&root.file, &field.pointer, why)),
                None => columns.push(c),
            },
            None if wanted => problems.push(Problem::new(
                &root.file,
                &field.pointer,
                "the store derives a column from this member, but its value is not a string",
            )),
            None => {}
        }
    }
    // The root metadata in the seed's order, the artifact's id, its task, then the others.
    columns.sort_by_key(|c| column_rank(&c.field.name, table));
    for needed in ["mission_id", table.id].into_iter().chain(table.task_scoped.then_some("task_id")) {
        if !columns.iter().any(|c| c.field.name == needed) {
            problems.push(Problem::new(
                &root.file,
                "/properties",
                format!("the store keys this artifact by `{needed}`, which the schema does not declare"),
            ));
        }
    }
    let _ = writeln!(
        out,
        "\n-- {}: {} (schemas/{})",
        table.name,
        root.title.as_deref().unwrap_or(&root.flat),
        table.schema
    );
    let _ = writeln!(out, "CREATE TABLE {} (", table.name);
    let mut lines = vec!["    document text NOT NULL".to_owned(), "    payload jsonb NOT NULL".to_owned()];
    lines.extend(columns.iter().map(definition));
    lines.push("    CONSTRAINT payload_is_document CHECK (payload = document::jsonb)".to_owned());
    lines.push("    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object')".to_owned());
    for c in &columns {
        lines.extend(checks(c));
    }
    let key = if table.id == "mission_id" { "mission_id".to_owned() } else { format!("mission_id, {}", table.id) };
    lines.push(format!("    PRIMARY KEY ({key})"));
    if table.name != "colony_missions" {
        lines.push(format!(
            "    CONSTRAINT {}_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id)",
            table.name
        ));
    }
    if table.task_scoped {
        lines.push(format!(
            "    CONSTRAINT {}_task_fk FOREIGN KEY (mission_id, task_id) REFERENCES colony_tasks (mission_id, task_id)",
            table.name
        ));
    }
    let _ = writeln!(out, "{}\n);", lines.join(",\n"));
    if columns.iter().any(|c| c.field.name == "tenant_id") {
        let _ = writeln!(out, "CREATE INDEX {0}_by_tenant ON {0} (tenant_id, mission_id);", table.name);
    }
    if table.task_scoped {
        let _ = writeln!(out, "CREATE INDEX {0}_by_task ON {0} (mission_id, task_id);", table.name);
    }
}

/// Where a column of `table` stands: the metadata first, then the id, the task, the others.
fn column_rank(name: &str, table: &Table) -> usize {
    match METADATA.iter().position(|m| *m == name) {
        Some(at) => at,
        None if name == table.id => METADATA.len(),
        None if name == "task_id" => METADATA.len() + 1,
        None => METADATA.len() + 2,
    }
}

/// A column's definition: its type, its generation from `payload`, and `NOT NULL` where the
/// schema requires the member and does not allow `null`.
fn definition(c: &Column<'_>) -> String {
    let not_null = if c.field.required && !c.json_types.contains(&"null") { " NOT NULL" } else { "" };
    format!(
        "    {} {} GENERATED ALWAYS AS ({}) STORED{not_null}",
        c.field.name,
        c.sql_type,
        derived(&c.field.name, c.sql_type)
    )
}

/// The generation expression of a column from `payload`.
fn derived(name: &str, sql_type: &str) -> String {
    match sql_type {
        "text" => format!("payload ->> {}", literal(name)),
        other => format!("(payload ->> {})::{other}", literal(name)),
    }
}

/// The CHECK constraints of a column, named after the validator's error codes (a required
/// member is the column's `NOT NULL`, [`definition`]).
fn checks(c: &Column<'_>) -> Vec<String> {
    let name = &c.field.name;
    let member = format!("payload -> {}", literal(name));
    let mut out = Vec::new();
    let types = c.json_types.iter().map(|t| literal(t)).collect::<Vec<_>>().join(", ");
    out.push(format!("    CONSTRAINT sch_002_{name} CHECK ({member} IS NULL OR jsonb_typeof({member}) IN ({types}))"));
    match c.literals.as_deref() {
        Some([one]) => out.push(format!("    CONSTRAINT sch_008_{name} CHECK ({name} = {})", literal(one))),
        Some(many) => {
            let listed = many.iter().map(|v| literal(v)).collect::<Vec<_>>().join(", ");
            out.push(format!("    CONSTRAINT sch_007_{name} CHECK ({name} IN ({listed}))"));
        }
        None => {}
    }
    out
}

/// `colony_tasks` and `colony_task_dependencies`, written by a trigger from the task graph.
fn render_tasks(model: &Model, out: &mut String, problems: &mut Vec<Problem>) {
    let Some(graph) = root_type(model, TASK_GRAPH) else { return };
    let task = fields(graph).iter().find(|f| f.name == "tasks").and_then(|f| match resolve(model, &f.expr) {
        Expr::Array(item) => match resolve(model, item) {
            Expr::Named(flat) => model.type_named(flat),
            _ => None,
        },
        _ => None,
    });
    let Some(task) = task else {
        problems.push(Problem::new(
            TASK_GRAPH,
            "/properties/tasks",
            "the store reads tasks from this member, but it is not an array of task objects",
        ));
        return;
    };
    let mut columns: Vec<Column<'_>> = Vec::new();
    for field in fields(task) {
        if let Some(c) = column(model, field, field.name == "task_id") {
            match unfit_column_name(&field.name) {
                Some(why) => problems.push(Problem::new(&task.file, &field.pointer, why)),
                None if field.name == "mission_id" => {
                    problems.push(Problem::new(&task.file, &field.pointer, "`mission_id` is the task row's mission"))
                }
                None => columns.push(c),
            }
        }
    }
    if !columns.iter().any(|c| c.field.name == "task_id") {
        problems.push(Problem::new(
            &task.file,
            &task.pointer,
            "the store keys tasks by `task_id`, which the task record does not declare",
        ));
        return;
    }
    let _ =
        writeln!(out, "\n-- colony_tasks: one row a task of a stored task graph (schemas/{TASK_GRAPH}), written by");
    let _ = writeln!(out, "-- the graph's trigger below; `payload` is the task record.");
    let _ = writeln!(out, "CREATE TABLE colony_tasks (");
    let mut lines = vec!["    mission_id uuid NOT NULL".to_owned(), "    payload jsonb NOT NULL".to_owned()];
    lines.extend(columns.iter().map(definition));
    for c in &columns {
        lines.extend(checks(c));
    }
    lines.push("    PRIMARY KEY (mission_id, task_id)".to_owned());
    lines.push(
        "    CONSTRAINT colony_tasks_graph_fk FOREIGN KEY (mission_id) REFERENCES colony_task_graphs (mission_id)"
            .to_owned(),
    );
    let _ = writeln!(out, "{}\n);", lines.join(",\n"));
    let _ = writeln!(
        out,
        "\n-- colony_task_dependencies: one row a `depends_on` edge; both ends are tasks of the mission."
    );
    out.push_str(
        "CREATE TABLE colony_task_dependencies (\n\
         \x20   mission_id uuid NOT NULL,\n\
         \x20   task_id text NOT NULL,\n\
         \x20   depends_on text NOT NULL,\n\
         \x20   PRIMARY KEY (mission_id, task_id, depends_on),\n\
         \x20   CONSTRAINT colony_task_dependencies_task_fk FOREIGN KEY (mission_id, task_id) REFERENCES colony_tasks (mission_id, task_id),\n\
         \x20   CONSTRAINT colony_task_dependencies_depends_on_fk FOREIGN KEY (mission_id, depends_on) REFERENCES colony_tasks (mission_id, task_id)\n\
         );\n\
         CREATE INDEX colony_task_dependencies_by_upstream ON colony_task_dependencies (mission_id, depends_on);\n\
         \n\
         -- A stored task graph writes its tasks and edges; a graph's row is never updated in place.\n\
         CREATE FUNCTION colony_task_graphs_expand() RETURNS trigger LANGUAGE plpgsql AS $$\n\
         BEGIN\n\
         \x20   IF jsonb_typeof(NEW.payload -> 'tasks') IS DISTINCT FROM 'array' THEN\n\
         \x20       RAISE EXCEPTION 'a task graph needs a tasks array' USING ERRCODE = 'check_violation', CONSTRAINT = 'sch_002_tasks';\n\
         \x20   END IF;\n\
         \x20   INSERT INTO colony_tasks (mission_id, payload)\n\
         \x20       SELECT NEW.mission_id, task FROM jsonb_array_elements(NEW.payload -> 'tasks') AS task;\n\
         \x20   INSERT INTO colony_task_dependencies (mission_id, task_id, depends_on)\n\
         \x20       SELECT DISTINCT NEW.mission_id, task ->> 'task_id', upstream\n\
         \x20       FROM jsonb_array_elements(NEW.payload -> 'tasks') AS task,\n\
         \x20            jsonb_array_elements_text(CASE jsonb_typeof(task -> 'depends_on') WHEN 'array' THEN task -> 'depends_on' ELSE '[]'::jsonb END) AS upstream;\n\
         \x20   RETURN NULL;\n\
         END;\n\
         $$;\n\
         CREATE TRIGGER colony_task_graphs_expand AFTER INSERT ON colony_task_graphs\n\
         \x20   FOR EACH ROW EXECUTE FUNCTION colony_task_graphs_expand();\n\
         CREATE FUNCTION colony_task_graphs_frozen() RETURNS trigger LANGUAGE plpgsql AS $$\n\
         BEGIN\n\
         \x20   RAISE EXCEPTION 'a stored task graph is not updated in place: store the mission''s revised graph as a new mission artifact' USING ERRCODE = 'integrity_constraint_violation';\n\
         END;\n\
         $$;\n\
         CREATE TRIGGER colony_task_graphs_frozen BEFORE UPDATE ON colony_task_graphs\n\
         \x20   FOR EACH ROW EXECUTE FUNCTION colony_task_graphs_frozen();\n",
    );
}
