-- 0003: indexes for paged lists.
--
-- Lists page by keyset, newest first: ORDER BY created_at DESC, rowid DESC
-- after a (created_at, rowid) cursor. An index on (..., created_at) holds the
-- rowid as its last key, so each filtered list below is one index range
-- scan in order: no full scan, no sort.

-- The runs of a strategy (/runs?strategy=, /api/runs?strategy=); the older
-- (strategy, kind, created_at) index cannot order them without a sort.
CREATE INDEX runs_strategy_created ON runs (strategy, created_at);

-- The runs of a workload, newest first (the workload page); it also serves
-- the foreign key check on deleting a workload, so it replaces runs_workload.
CREATE INDEX runs_workload_created ON runs (workload_id, created_at);
DROP INDEX runs_workload;
