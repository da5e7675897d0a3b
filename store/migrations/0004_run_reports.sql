-- 0004: reports in a table of their own.
--
-- A report is megabytes of JSON. Stored in runs.report, it sat in the middle
-- of the row, before created_at, started_at and finished_at: reading those
-- for a list walked the report's whole overflow chain, so the home page's
-- ten recent runs read tens of megabytes. Lists now read small rows only;
-- GetRun joins the report by run id.

CREATE TABLE run_reports (
    run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    report TEXT NOT NULL CHECK (json_valid(report)) -- a solvers.Report
) STRICT;

INSERT INTO run_reports (run_id, report) SELECT id, report FROM runs WHERE report IS NOT NULL;
ALTER TABLE runs DROP COLUMN report;
