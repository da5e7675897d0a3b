-- 0011: experiments' run counts kept up to date, and workloads generated
-- where runs run (issue 31).
--
-- experiment_counts holds, per experiment, how many of its runs are in
-- each status. Triggers keep it exact in the transaction that changes a
-- run's status, whatever code changes it (claims, ends, cancels, resumes,
-- interrupted runs at start, imports): the lists and the status of an
-- experiment read one row instead of joining its runs (2.8 s for
-- /experiments with one 100,000-run experiment before). Its own table,
-- not columns of experiments: a row there carries the definition (up to
-- 1 MiB), which an UPDATE would rewrite on every status change.

CREATE TABLE experiment_counts (
    experiment_id TEXT PRIMARY KEY REFERENCES experiments (id) ON DELETE CASCADE,
    queued        INTEGER NOT NULL DEFAULT 0,
    running       INTEGER NOT NULL DEFAULT 0,
    done          INTEGER NOT NULL DEFAULT 0,
    failed        INTEGER NOT NULL DEFAULT 0,
    canceled      INTEGER NOT NULL DEFAULT 0,
    interrupted   INTEGER NOT NULL DEFAULT 0
) STRICT, WITHOUT ROWID;

INSERT INTO experiment_counts (experiment_id, queued, running, done, failed, canceled, interrupted)
    SELECT e.id,
           coalesce(sum(r.status = 'queued'), 0), coalesce(sum(r.status = 'running'), 0),
           coalesce(sum(r.status = 'done'), 0), coalesce(sum(r.status = 'failed'), 0),
           coalesce(sum(r.status = 'canceled'), 0), coalesce(sum(r.status = 'interrupted'), 0)
    FROM experiments AS e
    LEFT JOIN experiment_runs AS er ON er.experiment_id = e.id
    LEFT JOIN runs AS r ON r.id = er.run_id
    GROUP BY e.id;

CREATE TRIGGER experiment_counts_new AFTER INSERT ON experiments BEGIN
    INSERT INTO experiment_counts (experiment_id) VALUES (NEW.id);
END;

-- An experiment's runs are linked only when it is stored (CreateExperiment,
-- ImportExperiment, FillExperiment), which count them once at the end of
-- their transaction (recountExperiment): a trigger per link cost a third
-- of storing a 100,000-run experiment. Links go only with their experiment,
-- and its counts with it.

-- A status change moves one run from its old status's count to its new
-- one; a run of no experiment matches no row (experiment_runs_run finds
-- its link, if any).
CREATE TRIGGER experiment_counts_status AFTER UPDATE OF status ON runs
WHEN OLD.status != NEW.status BEGIN
    UPDATE experiment_counts SET
        queued = queued + (NEW.status = 'queued') - (OLD.status = 'queued'),
        running = running + (NEW.status = 'running') - (OLD.status = 'running'),
        done = done + (NEW.status = 'done') - (OLD.status = 'done'),
        failed = failed + (NEW.status = 'failed') - (OLD.status = 'failed'),
        canceled = canceled + (NEW.status = 'canceled') - (OLD.status = 'canceled'),
        interrupted = interrupted + (NEW.status = 'interrupted') - (OLD.status = 'interrupted')
    WHERE experiment_id IN (SELECT experiment_id FROM experiment_runs WHERE run_id = NEW.id);
END;

-- Workloads generated where runs run. An experiment's preset workloads
-- are stored as recipes when it is created, with no data (data empty,
-- sha256 '', bytes 0): the first run that needs one generates it on its
-- worker, and the data is stored in the workload's row (Store.FillWorkload).
-- The recipe stays as the workload's provenance; its experiment's
-- deletion deletes the workloads it made that no other run uses.
-- estimated_bytes is the family's estimate of the generated data, which
-- the experiment's budget was checked against before anything was stored.
CREATE TABLE workload_recipes (
    workload_id     TEXT PRIMARY KEY REFERENCES workloads (id) ON DELETE CASCADE,
    experiment_id   TEXT NOT NULL,  -- no reference: deleting the experiment decides about the workload
    preset          TEXT NOT NULL,
    params          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
    seed            INTEGER NOT NULL,
    estimated_bytes INTEGER NOT NULL CHECK (estimated_bytes >= 0)
) STRICT, WITHOUT ROWID;

CREATE INDEX workload_recipes_experiment ON workload_recipes (experiment_id);
