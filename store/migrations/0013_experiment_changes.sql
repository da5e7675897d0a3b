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

ALTER TABLE experiment_counts ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE experiment_runs ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX experiment_runs_changed ON experiment_runs (experiment_id, changed);

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
        version = version + 1
    WHERE experiment_id IN (SELECT experiment_id FROM experiment_runs WHERE run_id = NEW.id);
    UPDATE experiment_runs SET changed = (SELECT c.version FROM experiment_counts AS c
            WHERE c.experiment_id = experiment_runs.experiment_id)
    WHERE run_id = NEW.id;
END;

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
