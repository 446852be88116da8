-- The artifact store's tables, rendered from the contract model by
-- crates/codegen/src/sql.rs (D-216); regenerate with `JERRY_BLESS=1 cargo test --test artifacts`,
-- never by hand. Each row keeps the artifact as given (`document`) and as jsonb (`payload`);
-- every other column is generated from `payload`.

-- colony_missions: Mission Envelope (schemas/mission/mission_envelope.json)
CREATE TABLE colony_missions (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED NOT NULL,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED NOT NULL,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED NOT NULL,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED NOT NULL,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED NOT NULL,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'mission_envelope'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    PRIMARY KEY (mission_id)
);
CREATE INDEX colony_missions_by_tenant ON colony_missions (tenant_id, mission_id);

-- colony_task_graphs: Mission Task Graph (schemas/mission/mission_task_graph.json)
CREATE TABLE colony_task_graphs (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'mission_task_graph'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    PRIMARY KEY (mission_id),
    CONSTRAINT colony_task_graphs_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id)
);
CREATE INDEX colony_task_graphs_by_tenant ON colony_task_graphs (tenant_id, mission_id);

-- colony_tasks: one row a task of a stored task graph (schemas/mission/mission_task_graph.json), written by
-- the graph's trigger below; `payload` is the task record.
CREATE TABLE colony_tasks (
    mission_id uuid NOT NULL,
    payload jsonb NOT NULL,
    role_type text GENERATED ALWAYS AS (payload ->> 'role_type') STORED,
    task_id text GENERATED ALWAYS AS (payload ->> 'task_id') STORED NOT NULL,
    CONSTRAINT sch_002_role_type CHECK (payload -> 'role_type' IS NULL OR jsonb_typeof(payload -> 'role_type') IN ('string')),
    CONSTRAINT sch_007_role_type CHECK (role_type IN ('planner', 'prompt_master', 'researcher', 'librarian', 'worker', 'aggregator', 'reviewer')),
    CONSTRAINT sch_002_task_id CHECK (payload -> 'task_id' IS NULL OR jsonb_typeof(payload -> 'task_id') IN ('string')),
    PRIMARY KEY (mission_id, task_id),
    CONSTRAINT colony_tasks_graph_fk FOREIGN KEY (mission_id) REFERENCES colony_task_graphs (mission_id)
);

-- colony_task_dependencies: one row a `depends_on` edge; both ends are tasks of the mission.
CREATE TABLE colony_task_dependencies (
    mission_id uuid NOT NULL,
    task_id text NOT NULL,
    depends_on text NOT NULL,
    PRIMARY KEY (mission_id, task_id, depends_on),
    CONSTRAINT colony_task_dependencies_task_fk FOREIGN KEY (mission_id, task_id) REFERENCES colony_tasks (mission_id, task_id),
    CONSTRAINT colony_task_dependencies_depends_on_fk FOREIGN KEY (mission_id, depends_on) REFERENCES colony_tasks (mission_id, task_id)
);
CREATE INDEX colony_task_dependencies_by_upstream ON colony_task_dependencies (mission_id, depends_on);

-- A stored task graph writes its tasks and edges; a graph's row is never updated in place.
CREATE FUNCTION colony_task_graphs_expand() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF jsonb_typeof(NEW.payload -> 'tasks') IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'a task graph needs a tasks array' USING ERRCODE = 'check_violation', CONSTRAINT = 'sch_002_tasks';
    END IF;
    INSERT INTO colony_tasks (mission_id, payload)
        SELECT NEW.mission_id, task FROM jsonb_array_elements(NEW.payload -> 'tasks') AS task;
    INSERT INTO colony_task_dependencies (mission_id, task_id, depends_on)
        SELECT DISTINCT NEW.mission_id, task ->> 'task_id', upstream
        FROM jsonb_array_elements(NEW.payload -> 'tasks') AS task,
             jsonb_array_elements_text(CASE jsonb_typeof(task -> 'depends_on') WHEN 'array' THEN task -> 'depends_on' ELSE '[]'::jsonb END) AS upstream;
    RETURN NULL;
END;
$$;
CREATE TRIGGER colony_task_graphs_expand AFTER INSERT ON colony_task_graphs
    FOR EACH ROW EXECUTE FUNCTION colony_task_graphs_expand();
CREATE FUNCTION colony_task_graphs_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'a stored task graph is not updated in place: store the mission''s revised graph as a new mission artifact' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER colony_task_graphs_frozen BEFORE UPDATE ON colony_task_graphs
    FOR EACH ROW EXECUTE FUNCTION colony_task_graphs_frozen();

-- colony_prompt_packages: Prompt Package (schemas/mission/prompt_package.json)
CREATE TABLE colony_prompt_packages (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    package_id text GENERATED ALWAYS AS (payload ->> 'package_id') STORED,
    task_id text GENERATED ALWAYS AS (payload ->> 'task_id') STORED,
    role_type text GENERATED ALWAYS AS (payload ->> 'role_type') STORED,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'prompt_package'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    CONSTRAINT sch_002_package_id CHECK (payload -> 'package_id' IS NULL OR jsonb_typeof(payload -> 'package_id') IN ('string')),
    CONSTRAINT sch_002_task_id CHECK (payload -> 'task_id' IS NULL OR jsonb_typeof(payload -> 'task_id') IN ('string')),
    CONSTRAINT sch_002_role_type CHECK (payload -> 'role_type' IS NULL OR jsonb_typeof(payload -> 'role_type') IN ('string')),
    CONSTRAINT sch_007_role_type CHECK (role_type IN ('planner', 'prompt_master', 'researcher', 'librarian', 'worker', 'aggregator', 'reviewer')),
    PRIMARY KEY (mission_id, package_id),
    CONSTRAINT colony_prompt_packages_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id),
    CONSTRAINT colony_prompt_packages_task_fk FOREIGN KEY (mission_id, task_id) REFERENCES colony_tasks (mission_id, task_id)
);
CREATE INDEX colony_prompt_packages_by_tenant ON colony_prompt_packages (tenant_id, mission_id);
CREATE INDEX colony_prompt_packages_by_task ON colony_prompt_packages (mission_id, task_id);

-- colony_research_artifacts: Research Artifact (schemas/mission/research_artifact.json)
CREATE TABLE colony_research_artifacts (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    artifact_id text GENERATED ALWAYS AS (payload ->> 'artifact_id') STORED,
    task_id text GENERATED ALWAYS AS (payload ->> 'task_id') STORED,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'research_artifact'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    CONSTRAINT sch_002_artifact_id CHECK (payload -> 'artifact_id' IS NULL OR jsonb_typeof(payload -> 'artifact_id') IN ('string')),
    CONSTRAINT sch_002_task_id CHECK (payload -> 'task_id' IS NULL OR jsonb_typeof(payload -> 'task_id') IN ('string')),
    PRIMARY KEY (mission_id, artifact_id),
    CONSTRAINT colony_research_artifacts_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id),
    CONSTRAINT colony_research_artifacts_task_fk FOREIGN KEY (mission_id, task_id) REFERENCES colony_tasks (mission_id, task_id)
);
CREATE INDEX colony_research_artifacts_by_tenant ON colony_research_artifacts (tenant_id, mission_id);
CREATE INDEX colony_research_artifacts_by_task ON colony_research_artifacts (mission_id, task_id);

-- colony_librarian_passes: Librarian Pass (schemas/mission/librarian_pass.json)
CREATE TABLE colony_librarian_passes (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    pass_id text GENERATED ALWAYS AS (payload ->> 'pass_id') STORED,
    task_id text GENERATED ALWAYS AS (payload ->> 'task_id') STORED,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'librarian_pass'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    CONSTRAINT sch_002_pass_id CHECK (payload -> 'pass_id' IS NULL OR jsonb_typeof(payload -> 'pass_id') IN ('string')),
    CONSTRAINT sch_002_task_id CHECK (payload -> 'task_id' IS NULL OR jsonb_typeof(payload -> 'task_id') IN ('string')),
    PRIMARY KEY (mission_id, pass_id),
    CONSTRAINT colony_librarian_passes_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id),
    CONSTRAINT colony_librarian_passes_task_fk FOREIGN KEY (mission_id, task_id) REFERENCES colony_tasks (mission_id, task_id)
);
CREATE INDEX colony_librarian_passes_by_tenant ON colony_librarian_passes (tenant_id, mission_id);
CREATE INDEX colony_librarian_passes_by_task ON colony_librarian_passes (mission_id, task_id);

-- colony_worker_results: Worker Result (schemas/mission/worker_result.json)
CREATE TABLE colony_worker_results (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    result_id text GENERATED ALWAYS AS (payload ->> 'result_id') STORED,
    task_id text GENERATED ALWAYS AS (payload ->> 'task_id') STORED,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'worker_result'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    CONSTRAINT sch_002_result_id CHECK (payload -> 'result_id' IS NULL OR jsonb_typeof(payload -> 'result_id') IN ('string')),
    CONSTRAINT sch_002_task_id CHECK (payload -> 'task_id' IS NULL OR jsonb_typeof(payload -> 'task_id') IN ('string')),
    PRIMARY KEY (mission_id, result_id),
    CONSTRAINT colony_worker_results_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id),
    CONSTRAINT colony_worker_results_task_fk FOREIGN KEY (mission_id, task_id) REFERENCES colony_tasks (mission_id, task_id)
);
CREATE INDEX colony_worker_results_by_tenant ON colony_worker_results (tenant_id, mission_id);
CREATE INDEX colony_worker_results_by_task ON colony_worker_results (mission_id, task_id);

-- colony_aggregation_packets: Aggregation Packet (schemas/mission/aggregation_packet.json)
CREATE TABLE colony_aggregation_packets (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    packet_id text GENERATED ALWAYS AS (payload ->> 'packet_id') STORED,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'aggregation_packet'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    CONSTRAINT sch_002_packet_id CHECK (payload -> 'packet_id' IS NULL OR jsonb_typeof(payload -> 'packet_id') IN ('string')),
    PRIMARY KEY (mission_id, packet_id),
    CONSTRAINT colony_aggregation_packets_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id)
);
CREATE INDEX colony_aggregation_packets_by_tenant ON colony_aggregation_packets (tenant_id, mission_id);

-- colony_review_packets: Review Packet (schemas/mission/review_packet.json)
CREATE TABLE colony_review_packets (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    packet_id text GENERATED ALWAYS AS (payload ->> 'packet_id') STORED,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'review_packet'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    CONSTRAINT sch_002_packet_id CHECK (payload -> 'packet_id' IS NULL OR jsonb_typeof(payload -> 'packet_id') IN ('string')),
    PRIMARY KEY (mission_id, packet_id),
    CONSTRAINT colony_review_packets_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id)
);
CREATE INDEX colony_review_packets_by_tenant ON colony_review_packets (tenant_id, mission_id);

-- colony_policy_decisions: Policy Decision (schemas/mission/policy_decision.json)
CREATE TABLE colony_policy_decisions (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    decision_id text GENERATED ALWAYS AS (payload ->> 'decision_id') STORED,
    decision text GENERATED ALWAYS AS (payload ->> 'decision') STORED NOT NULL,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'policy_decision'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    CONSTRAINT sch_002_decision_id CHECK (payload -> 'decision_id' IS NULL OR jsonb_typeof(payload -> 'decision_id') IN ('string')),
    CONSTRAINT sch_002_decision CHECK (payload -> 'decision' IS NULL OR jsonb_typeof(payload -> 'decision') IN ('string')),
    CONSTRAINT sch_007_decision CHECK (decision IN ('allow', 'deny')),
    PRIMARY KEY (mission_id, decision_id),
    CONSTRAINT colony_policy_decisions_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id)
);
CREATE INDEX colony_policy_decisions_by_tenant ON colony_policy_decisions (tenant_id, mission_id);

-- colony_writeback_proposals: Writeback Proposal (schemas/mission/writeback_proposal.json)
CREATE TABLE colony_writeback_proposals (
    document text NOT NULL,
    payload jsonb NOT NULL,
    schema_name text GENERATED ALWAYS AS (payload ->> 'schema_name') STORED NOT NULL,
    schema_version text GENERATED ALWAYS AS (payload ->> 'schema_version') STORED NOT NULL,
    mission_id uuid GENERATED ALWAYS AS ((payload ->> 'mission_id')::uuid) STORED,
    tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED,
    actor_id text GENERATED ALWAYS AS (payload ->> 'actor_id') STORED,
    created_at text GENERATED ALWAYS AS (payload ->> 'created_at') STORED,
    producer text GENERATED ALWAYS AS (payload ->> 'producer') STORED,
    proposal_id text GENERATED ALWAYS AS (payload ->> 'proposal_id') STORED,
    CONSTRAINT payload_is_document CHECK (payload = document::jsonb),
    CONSTRAINT payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT sch_002_schema_name CHECK (payload -> 'schema_name' IS NULL OR jsonb_typeof(payload -> 'schema_name') IN ('string')),
    CONSTRAINT sch_008_schema_name CHECK (schema_name = 'writeback_proposal'),
    CONSTRAINT sch_002_schema_version CHECK (payload -> 'schema_version' IS NULL OR jsonb_typeof(payload -> 'schema_version') IN ('string')),
    CONSTRAINT sch_008_schema_version CHECK (schema_version = 'v1'),
    CONSTRAINT sch_002_mission_id CHECK (payload -> 'mission_id' IS NULL OR jsonb_typeof(payload -> 'mission_id') IN ('string')),
    CONSTRAINT sch_002_tenant_id CHECK (payload -> 'tenant_id' IS NULL OR jsonb_typeof(payload -> 'tenant_id') IN ('string')),
    CONSTRAINT sch_002_actor_id CHECK (payload -> 'actor_id' IS NULL OR jsonb_typeof(payload -> 'actor_id') IN ('string')),
    CONSTRAINT sch_002_created_at CHECK (payload -> 'created_at' IS NULL OR jsonb_typeof(payload -> 'created_at') IN ('string')),
    CONSTRAINT sch_002_producer CHECK (payload -> 'producer' IS NULL OR jsonb_typeof(payload -> 'producer') IN ('string')),
    CONSTRAINT sch_002_proposal_id CHECK (payload -> 'proposal_id' IS NULL OR jsonb_typeof(payload -> 'proposal_id') IN ('string')),
    PRIMARY KEY (mission_id, proposal_id),
    CONSTRAINT colony_writeback_proposals_mission_fk FOREIGN KEY (mission_id) REFERENCES colony_missions (mission_id)
);
CREATE INDEX colony_writeback_proposals_by_tenant ON colony_writeback_proposals (tenant_id, mission_id);
