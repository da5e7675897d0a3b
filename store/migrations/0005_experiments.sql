-- 0005: experiments with code behind them, and run metrics.
--
-- The experiments and experiment_runs tables of 0001 had no code writing
-- them; they are rebuilt (SQLite cannot add a primary key or change
-- constraints in place) and any row they hold is kept: an old experiment's
-- grid becomes its definition {"grid": ...}, its status done, its runs
-- numbered in insertion order.
--
-- An experiment is a sweep of ordinary runs. It keeps its definition as
-- given (the JSON a user wrote or the form built); the store does not read
-- it. Each run of an experiment is linked with its position in the sweep,
-- its cell (the swept values, a JSON object) and its replicate number, so a
-- page groups runs by cell without reading reports or definitions.

CREATE TABLE experiments_new (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL DEFAULT '',
    strategy   TEXT NOT NULL,
    definition TEXT NOT NULL CHECK (json_valid(definition) AND json_type(definition) = 'object'),
    tags       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
    notes      TEXT NOT NULL DEFAULT '',   -- markdown
    owner      TEXT REFERENCES users (id) ON DELETE SET NULL,
    status     TEXT NOT NULL CHECK (status IN ('running', 'canceled', 'done')),
    runs_total INTEGER NOT NULL CHECK (runs_total >= 0),
    created_at TEXT NOT NULL
) STRICT;

-- A run of an experiment cannot be deleted on its own (ON DELETE RESTRICT):
-- an experiment never silently loses a run, and DeleteExperiment deletes
-- its runs with it.
CREATE TABLE experiment_runs_new (
    experiment_id TEXT NOT NULL REFERENCES experiments_new (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL CHECK (position >= 0), -- 0, 1, ... in the order the runs were made
    run_id        TEXT NOT NULL REFERENCES runs (id) ON DELETE RESTRICT,
    cell          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(cell) AND json_type(cell) = 'object'),
    replicate     INTEGER NOT NULL DEFAULT 0 CHECK (replicate >= 0),
    PRIMARY KEY (experiment_id, position)
) STRICT, WITHOUT ROWID;

INSERT INTO experiments_new (id, name, strategy, definition, status, runs_total, created_at)
    SELECT id, name, strategy, json_object('grid', json(grid)), 'done',
           (SELECT count(*) FROM experiment_runs WHERE experiment_id = experiments.id), created_at
    FROM experiments;
INSERT INTO experiment_runs_new (experiment_id, position, run_id)
    SELECT experiment_id, row_number() OVER (PARTITION BY experiment_id ORDER BY rowid) - 1, run_id
    FROM experiment_runs;

DROP TABLE experiment_runs;
DROP TABLE experiments;
-- Renaming updates the reference in experiment_runs_new.
ALTER TABLE experiments_new RENAME TO experiments;
ALTER TABLE experiment_runs_new RENAME TO experiment_runs;

-- Listing experiments newest first (keyset paging, as 0003), all and by owner.
CREATE INDEX experiments_created ON experiments (created_at);
CREATE INDEX experiments_owner_created ON experiments (owner, created_at);
-- An experiment's runs in order: the primary key. The experiment of a run
-- (and the foreign key check on deleting a run):
CREATE INDEX experiment_runs_run ON experiment_runs (run_id);

-- The numeric metrics of a done run's report, one row each, so that
-- aggregating many runs never decodes a report. Store.Finish fills them in
-- the transaction that stores the report; below, the runs already done.
CREATE TABLE run_metrics (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    value  REAL NOT NULL,
    PRIMARY KEY (run_id, name)
) STRICT, WITHOUT ROWID;

-- The same selection as metricsInsert in runs.go: the report's
-- top-level "metrics" array, entries with a text name and a numeric value,
-- the first of a repeated name.
INSERT OR IGNORE INTO run_metrics (run_id, name, value)
    SELECT rr.run_id, json_extract(m.value, '$.name'), json_extract(m.value, '$.value')
    FROM run_reports AS rr
    JOIN runs AS r ON r.id = rr.run_id AND r.status = 'done'
    JOIN json_each(rr.report, '$.metrics') AS m
    WHERE json_type(rr.report, '$.metrics') = 'array'
      AND json_type(m.value, '$.name') = 'text'
      AND json_type(m.value, '$.value') IN ('integer', 'real');
