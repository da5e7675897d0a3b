-- 0014: adversarial searches (issue 45), stored and run by the server.
--
-- A search keeps its configuration as the driver wrote it (package
-- adversaries; the store does not read it) and a summary of its best
-- candidate so far (best: a JSON object, also not read here). Its
-- candidates are ordinary workloads and runs: a candidate instance is
-- stored as a workload, A and B as two queued runs of it, linked here by
-- the instance's sha256 (key) until its outcome is recorded; the runs and
-- workloads of candidates that are not the best are then deleted, the
-- best's are kept (best_workload_id), so the best instance is an ordinary
-- workload. Each evaluation (candidate i of the search, in the search's
-- order) is stored as it is made: a resumed search reads them back, so
-- nothing evaluated twice counts twice.

CREATE TABLE adversary_searches (
    id               TEXT PRIMARY KEY,
    strategy         TEXT NOT NULL,
    config           TEXT NOT NULL CHECK (json_valid(config) AND json_type(config) = 'object'),
    owner            TEXT REFERENCES users (id) ON DELETE SET NULL,
    status           TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'canceled')),
    error            TEXT NOT NULL DEFAULT '',
    best             TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(best) AND json_type(best) = 'object'),
    best_workload_id TEXT REFERENCES workloads (id) ON DELETE SET NULL,
    build_version    TEXT NOT NULL DEFAULT '',
    build_commit     TEXT NOT NULL DEFAULT '',
    build_modified   TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    ended_at         TEXT
) STRICT;
CREATE INDEX adversary_searches_created ON adversary_searches (created_at);
CREATE INDEX adversary_searches_best_workload ON adversary_searches (best_workload_id);

CREATE TABLE adversary_evaluations (
    search_id  TEXT NOT NULL REFERENCES adversary_searches (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL CHECK (position >= 0),
    key        TEXT NOT NULL, -- sha256 of the instance ('' for parameters a preset refused)
    evaluation TEXT NOT NULL CHECK (json_valid(evaluation) AND json_type(evaluation) = 'object'),
    PRIMARY KEY (search_id, position)
) STRICT, WITHOUT ROWID;

-- A candidate's runs go with it: deleting a run removes the link.
CREATE TABLE adversary_candidates (
    search_id   TEXT NOT NULL REFERENCES adversary_searches (id) ON DELETE CASCADE,
    key         TEXT NOT NULL,
    workload_id TEXT NOT NULL REFERENCES workloads (id) ON DELETE CASCADE,
    run_a       TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    run_b       TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    PRIMARY KEY (search_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX adversary_candidates_run_a ON adversary_candidates (run_a);
CREATE INDEX adversary_candidates_run_b ON adversary_candidates (run_b);
CREATE INDEX adversary_candidates_workload ON adversary_candidates (workload_id);
