-- 0010: large tables of a report stored apart, in pages.
--
-- A batch run's per-job table is tens of thousands of rows: embedded, it was
-- most of the report's megabytes, read and decoded whole by every page that
-- showed the run, though a page shows a few hundred rows. A table of more
-- than solvers.PageOutRows rows now leaves the report (which keeps its
-- title, columns and row count, marked "paged") for this table, in pages of
-- solvers.TablePageRows rows: page p of table tbl holds rows
-- [p·TablePageRows, (p+1)·TablePageRows) as a JSON array of rows.

CREATE TABLE run_table_pages (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    tbl INTEGER NOT NULL CHECK (tbl >= 0),   -- the table's index in the report
    page INTEGER NOT NULL CHECK (page >= 0),
    rows TEXT NOT NULL,                      -- a JSON array of rows
    PRIMARY KEY (run_id, tbl, page)
) STRICT, WITHOUT ROWID;
