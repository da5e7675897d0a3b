-- 0013: which runs of an experiment changed, so that its page reads only
-- those after a run ends (issue 41 item 2).
--
-- experiment_counts.version counts the changes of the experiment's runs
-- (of a run's status, or of the worker that runs it);
-- experiment_runs.changed is the version at which its run last changed
-- (0: not since it was linked). Triggers keep both, in the transaction
-- that makes the change, whatever code makes it (claims, starts, ends,
-- cancels, resumes, interrupted runs at start): a page that read the
-- experiment at version v reads the runs changed since (experiment_id,
-- changed > v) through experiment_runs_changed, instead of all of them.
-- A run's metrics, report and build are written with its final status,
-- in the same transaction, so they are among the changes.

-- An experiment stored (made, imported, filled: recountExperiment) starts
-- its version at a new epoch, epoch << 32, the epoch drawn from
-- experiment_epochs (AUTOINCREMENT: never drawn twice, though its rows
-- are deleted at once): an experiment deleted and imported again under
-- its ID is never taken for the one a page read before.
CREATE TABLE experiment_epochs (id INTEGER PRIMARY KEY AUTOINCREMENT);
ALTER TABLE experiment_counts ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE experiment_runs ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX experiment_runs_changed ON experiment_runs (experiment_id, changed);

-- A worker starting a run names itself (Store.SetProgressBy) without a
-- change of status.
CREATE TRIGGER experiment_runs_worker AFTER UPDATE OF worker ON runs
WHEN OLD.worker != NEW.worker BEGIN
    UPDATE experiment_counts SET version = version + 1
    WHERE experiment_id IN (SELECT experiment_id FROM experiment_runs WHERE run_id = NEW.id);
    UPDATE experiment_runs SET changed = (SELECT c.version FROM experiment_counts AS c
            WHERE c.experiment_id = experiment_runs.experiment_id)
    WHERE run_id = NEW.id;
END;

-- A done run without a result (issue 38: the result its family declares
-- for its variant missing or not finite, as critical-works that stopped)
-- is a failure wherever runs are counted: runs.no_result marks it, and
-- experiment_counts.no_result counts an experiment's done runs so marked,
-- so its list row and API count it failed, as its run pages do. Which
-- results a run must give is the families' (solvers.Needed), which the
-- server writes to metric_needs when it starts (Store.SetMetricNeeds,
-- which judges again the done runs of a family whose needs changed: the
-- runs done before this migration at the first start). A run is judged
-- when its end is stored (End) and when its experiment is linked
-- (import, fill).
ALTER TABLE runs ADD COLUMN no_result INTEGER NOT NULL DEFAULT 0 CHECK (no_result IN (0, 1));
ALTER TABLE experiment_counts ADD COLUMN no_result INTEGER NOT NULL DEFAULT 0;
CREATE TABLE metric_needs (
    strategy TEXT NOT NULL,
    variant  TEXT NOT NULL,
    name     TEXT NOT NULL,  -- a metric a done run of (strategy, variant) must give, finite
    PRIMARY KEY (strategy, variant, name)
) STRICT, WITHOUT ROWID;

-- The status trigger of 0011 again: it also moves the version on, marks
-- the run changed, and counts no_result with done (a statement that
-- changes both status and no_result is counted here alone).
DROP TRIGGER experiment_counts_status;
CREATE TRIGGER experiment_counts_status AFTER UPDATE OF status ON runs
WHEN OLD.status != NEW.status BEGIN
    UPDATE experiment_counts SET
        queued = queued + (NEW.status = 'queued') - (OLD.status = 'queued'),
        running = running + (NEW.status = 'running') - (OLD.status = 'running'),
        done = done + (NEW.status = 'done') - (OLD.status = 'done'),
        failed = failed + (NEW.status = 'failed') - (OLD.status = 'failed'),
        canceled = canceled + (NEW.status = 'canceled') - (OLD.status = 'canceled'),
        interrupted = interrupted + (NEW.status = 'interrupted') - (OLD.status = 'interrupted'),
        no_result = no_result + (NEW.status = 'done' AND NEW.no_result) - (OLD.status = 'done' AND OLD.no_result),
        version = version + 1
    WHERE experiment_id IN (SELECT experiment_id FROM experiment_runs WHERE run_id = NEW.id);
    UPDATE experiment_runs SET changed = (SELECT c.version FROM experiment_counts AS c
            WHERE c.experiment_id = experiment_runs.experiment_id)
    WHERE run_id = NEW.id;
END;

CREATE TRIGGER experiment_counts_no_result AFTER UPDATE OF no_result ON runs
WHEN OLD.no_result != NEW.no_result AND OLD.status = NEW.status BEGIN
    UPDATE experiment_counts SET
        no_result = no_result + (NEW.status = 'done' AND NEW.no_result) - (OLD.status = 'done' AND OLD.no_result)
    WHERE experiment_id IN (SELECT experiment_id FROM experiment_runs WHERE run_id = NEW.id);
END;
