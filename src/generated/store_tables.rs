// The artifact store's tables, rendered from the contract model by crates/codegen/src/sql.rs
// (D-216); regenerate with `JERRY_BLESS=1 cargo test --test artifacts`, never by hand.

/// Every table of the artifact store, in the order the DDL creates them.
pub const TABLES: &[ArtifactTable] = &[
    ArtifactTable { schema: "mission/mission_envelope", schema_name: "mission_envelope", table: "colony_missions", id: "mission_id", task_scoped: false },
    ArtifactTable { schema: "mission/mission_task_graph", schema_name: "mission_task_graph", table: "colony_task_graphs", id: "mission_id", task_scoped: false },
    ArtifactTable { schema: "mission/prompt_package", schema_name: "prompt_package", table: "colony_prompt_packages", id: "package_id", task_scoped: true },
    ArtifactTable { schema: "mission/research_artifact", schema_name: "research_artifact", table: "colony_research_artifacts", id: "artifact_id", task_scoped: true },
    ArtifactTable { schema: "mission/librarian_pass", schema_name: "librarian_pass", table: "colony_librarian_passes", id: "pass_id", task_scoped: true },
    ArtifactTable { schema: "mission/worker_result", schema_name: "worker_result", table: "colony_worker_results", id: "result_id", task_scoped: true },
    ArtifactTable { schema: "mission/aggregation_packet", schema_name: "aggregation_packet", table: "colony_aggregation_packets", id: "packet_id", task_scoped: false },
    ArtifactTable { schema: "mission/review_packet", schema_name: "review_packet", table: "colony_review_packets", id: "packet_id", task_scoped: false },
    ArtifactTable { schema: "mission/policy_decision", schema_name: "policy_decision", table: "colony_policy_decisions", id: "decision_id", task_scoped: false },
    ArtifactTable { schema: "mission/writeback_proposal", schema_name: "writeback_proposal", table: "colony_writeback_proposals", id: "proposal_id", task_scoped: false },
];
