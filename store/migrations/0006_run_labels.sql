-- 0006: labels on runs (a name, tags, markdown notes) and the indexes of
-- the filtered and metric-sorted /runs list.
--
-- name and notes are columns at the end of the row. Lists read name but
-- never notes (up to 64 KiB): a list row is decoded up to the columns it
-- reads, so a long note costs only the pages that show it (the lesson of
-- 0004). The limits are checked by the store with messages naming the
-- field; the CHECKs below only keep a bad write out.
ALTER TABLE runs ADD COLUMN name TEXT NOT NULL DEFAULT '' CHECK (length(name) <= 200);
ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '' CHECK (length(CAST(notes AS BLOB)) <= 65536); -- markdown

-- Tags are rows, not a JSON array in runs: /runs?tag= finds the runs of a
-- tag through the (tag, run_id) index instead of parsing every run's
-- array. The primary key (run_id, tag) reads a run's tags in one seek (a
-- list page reads them for its runs only) and keeps a tag once per run;
-- WITHOUT ROWID stores each row once, in that key's b-tree. Rows go with
-- their run (ON DELETE CASCADE, served by the primary key). Experiments
-- keep their tags as the JSON array of 0005: no list filters them by tag.
CREATE TABLE run_tags (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    tag    TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 64),
    PRIMARY KEY (run_id, tag)
) STRICT, WITHOUT ROWID;
CREATE INDEX run_tags_tag ON run_tags (tag, run_id);

-- /runs?variant=, newest first: one index range in order (as 0003).
CREATE INDEX runs_variant_created ON runs (variant, created_at);

-- /runs?metric=&sort=metric-asc|metric-desc, and the range min ≤ value ≤
-- max: one range of this index, in (value, run_id) order, which is the
-- keyset of the metric-sorted list (the run id breaks ties), so a page of
-- a metric order is a seek and no sort, in both directions.
CREATE INDEX run_metrics_name_value ON run_metrics (name, value, run_id);
