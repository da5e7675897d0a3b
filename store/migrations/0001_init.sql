-- 0001: the initial schema.
--
-- Times are UTC text in a fixed-width form, "2006-01-02T15:04:05.000000Z",
-- so text order is time order. IDs are 10 random base32 characters.
-- Tables are STRICT: a value of the wrong type is an error, not a surprise.

CREATE TABLE workloads (
    id         TEXT PRIMARY KEY,
    strategy   TEXT NOT NULL,
    name       TEXT NOT NULL,
    format     TEXT NOT NULL DEFAULT '',
    sha256     TEXT NOT NULL,              -- hex of data
    bytes      INTEGER NOT NULL,           -- length of data
    summary    TEXT NOT NULL DEFAULT '',
    data       BLOB NOT NULL,              -- canonical native JSON
    preview    TEXT CHECK (preview IS NULL OR json_valid(preview)), -- a solvers.Report, or NULL
    created_at TEXT NOT NULL
) STRICT;

CREATE INDEX workloads_created ON workloads (created_at);
CREATE INDEX workloads_strategy_created ON workloads (strategy, created_at);

CREATE TABLE runs (
    id             TEXT PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('run', 'reproduce')),
    -- A run keeps its workload: deleting a workload that runs use is refused,
    -- so every stored run can be re-run. Reproduce runs have no workload.
    workload_id    TEXT REFERENCES workloads (id) ON DELETE RESTRICT,
    strategy       TEXT NOT NULL,
    variant        TEXT NOT NULL DEFAULT '',
    params         TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)), -- resolved, name → value text
    seed           INTEGER NOT NULL DEFAULT 0,
    status         TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'canceled', 'interrupted')),
    progress_done  INTEGER NOT NULL DEFAULT 0,
    progress_total INTEGER NOT NULL DEFAULT 0,
    progress_note  TEXT NOT NULL DEFAULT '',
    error          TEXT NOT NULL DEFAULT '',
    error_field    TEXT NOT NULL DEFAULT '',
    report         TEXT CHECK (report IS NULL OR json_valid(report)), -- a solvers.Report, or NULL
    -- The run this one repeats; deleting the original keeps the copy.
    rerun_of       TEXT REFERENCES runs (id) ON DELETE SET NULL,
    created_at     TEXT NOT NULL,
    started_at     TEXT,
    finished_at    TEXT,
    CHECK ((kind = 'run') = (workload_id IS NOT NULL))
) STRICT;

-- Claiming the oldest queued run and filtering by status.
CREATE INDEX runs_status_created ON runs (status, created_at);
-- Listing recent runs.
CREATE INDEX runs_created ON runs (created_at);
-- Filtering by strategy and kind; the latest reproduce run of a strategy.
CREATE INDEX runs_strategy_kind_created ON runs (strategy, kind, created_at);
-- The runs of a workload (and the foreign key check on deleting one).
CREATE INDEX runs_workload ON runs (workload_id);
-- The foreign key action on deleting a run that was re-run.
CREATE INDEX runs_rerun_of ON runs (rerun_of);

-- An experiment is a sweep: runs of one strategy over a parameter grid.
CREATE TABLE experiments (
    id         TEXT PRIMARY KEY,
    strategy   TEXT NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    grid       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(grid)), -- parameter name → list of values
    created_at TEXT NOT NULL
) STRICT;

CREATE TABLE experiment_runs (
    experiment_id TEXT NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
    run_id        TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    PRIMARY KEY (experiment_id, run_id)
) STRICT;

CREATE INDEX experiment_runs_run ON experiment_runs (run_id);
