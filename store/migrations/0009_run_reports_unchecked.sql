-- 0009: run_reports without CHECK (json_valid(report)).
--
-- SQLite parsed every report again to check it, a sixth of the time of
-- storing a run's end in a sweep of a thousand runs. Every report already
-- passes encoding/json's Valid in Store.End or was decoded from a bundle
-- before it is inserted, so the check guarded nothing the store lets in.
-- SQLite cannot drop a CHECK in place: the table is copied.

CREATE TABLE run_reports_new (
    run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    report TEXT NOT NULL -- a solvers.Report, checked by Store.End
) STRICT;

INSERT INTO run_reports_new (run_id, report) SELECT run_id, report FROM run_reports;
DROP TABLE run_reports;
ALTER TABLE run_reports_new RENAME TO run_reports;
