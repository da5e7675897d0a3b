// Package store keeps schedlab's workloads, runs and experiments in one
// SQLite file (modernc.org/sqlite: pure Go, no cgo).
//
// # Connection
//
// Open uses the driver "sqlite" with busy_timeout(30000), journal_mode(WAL),
// foreign_keys(1), synchronous(NORMAL) and _txlock=immediate: readers never
// wait for the writer, writers wait up to 30 s for each other instead of
// failing, and every transaction takes the write lock when it begins, so a
// read-then-write transaction cannot fail half way with SQLITE_BUSY. The
// longest write is storing the largest experiment (MaxRuns, 100,000 runs:
// about 7.5 s on a loaded 2-core machine), so 30 s lets a client's write
// made meanwhile wait its turn rather than see "database is locked" (5 s
// did not).
//
// # Schema
//
// The schema is the numbered files in migrations/ (0001_init.sql, ...),
// embedded in the binary. Open applies the ones the file has not seen, in
// one transaction, and records the count in PRAGMA user_version; a file
// written by a newer schedlab (user_version above the known count) is
// refused rather than misread. A migration is never edited once released:
// a change is a new file.
//
// Decisions:
//
//   - IDs are 10 characters of lowercase base32 from crypto/rand (50 bits):
//     short enough for a URL, not sequential, not guessable. An insert that
//     hits an existing ID draws again.
//
//   - Times are stored as fixed-width UTC text with microseconds
//     ("2006-01-02T15:04:05.000000Z"), so text order is time order and
//     the file stays readable with the sqlite3 shell.
//
//   - runs.workload_id references workloads ON DELETE RESTRICT: a stored
//     run can always be re-run, so DeleteWorkload refuses (errs.Conflict)
//     while runs use the workload. Reproduce runs have no workload.
//
//   - runs.rerun_of references runs ON DELETE SET NULL: deleting the
//     original keeps its re-runs.
//
//   - Params are stored resolved (every parameter with its value) as a JSON
//     object of strings; reports and previews as the JSON of a
//     solvers.Report, NULL when there is none. Lists (ListWorkloads,
//     ListRuns) leave out workload data, previews and reports: they can be
//     megabytes.
//
//   - The queue is the runs table: ClaimNext moves the oldest queued run to
//     running in one UPDATE ... RETURNING statement, so concurrent claimers
//     (goroutines or processes) never get the same run.
//
//   - A run that was running when the process died stays "running" in the
//     file; MarkInterrupted (called at startup, before any claim) turns it
//     into "interrupted", a final state that can be re-run.
//
//   - Experiments (0005_experiments.sql rebuilt the unused 0001 tables,
//     keeping any rows): an experiment keeps its definition as the JSON
//     object it was given (the store never reads it), name, strategy,
//     tags (a JSON array), markdown notes, owner, status (running,
//     canceled, done) and runs_total. Its runs are ordinary runs, linked in
//     experiment_runs by (experiment_id, position) with their cell (the
//     swept values, a JSON object) and replicate, so pages group runs by
//     cell without reading reports or definitions. CreateExperiment stores
//     the experiment, its runs (CreateRun's checks and insert, shared as
//     runInserter, prepared once) and the links in one transaction: all or
//     nothing; 1,000 runs take tens of milliseconds.
//
//   - experiment_runs.run_id references runs ON DELETE RESTRICT: an
//     experiment never silently loses a run. DeleteRun refuses a run of an
//     experiment (errs.Conflict); DeleteExperiment deletes the experiment
//     and its runs together, once none is queued or running.
//
//   - CancelExperiment marks the experiment canceled and cancels its queued
//     runs in one transaction, and returns its running runs' IDs: those
//     belong to the runner, which cancels them. Setting done is the
//     caller's (SetExperimentStatus), from ExperimentProgress.
//
//   - Recipes (migration 0011): an experiment's preset workloads are stored
//     with it as workload rows with no data (sha256 ”, bytes 0, a summary
//     saying so) and a row of workload_recipes (preset, resolved params,
//     seed, the family's estimate, the experiment). The first run that
//     needs one generates it on its worker, and FillWorkload stores the
//     data (the first fill stays: generating is deterministic). The
//     recipe row stays as provenance; DeleteExperiment deletes the
//     workloads an experiment made that no run uses. WorkloadUsage sums a
//     user's stored bytes and the estimates not generated yet, for the
//     budgets the handlers check.
//
//   - Space: new files are created with auto_vacuum = INCREMENTAL (a DSN
//     pragma, which SQLite applies only before the first table), and
//     DeleteExperiment and DeleteWorkload run PRAGMA incremental_vacuum
//     (ReclaimSpace) after committing, so deleted workloads give their
//     pages back. An older file keeps auto_vacuum off (switching needs a
//     VACUUM, which rewrites the whole file: not done at start) and reuses
//     freed pages instead.
//
//   - experiment_counts (migration 0011, backfilled) keeps how many runs
//     of each experiment are in each status. Triggers on runs (UPDATE OF
//     status) change it in the transaction that changes a run, whichever
//     code does (claims, ends, cancels, resumes, restarts); the three that
//     link runs to an experiment (CreateExperiment, ImportExperiment,
//     FillExperiment) count them once before committing
//     (recountExperiment: a trigger per link cost a third of storing
//     100,000 runs), so ExperimentProgress and the
//     lists read one row per experiment, never its runs (a 100,000-run
//     experiment's status: 0.3 ms instead of 170 ms). A trigger costs each
//     status change an index lookup in experiment_runs_run and, for an
//     experiment's run, one small row update.
//
//   - run_metrics holds the numeric metrics of each done run's report, one
//     row per (run_id, name): the entries of the report's top-level
//     "metrics" array with a text name and a numeric value, the first of a
//     repeated name. Finish fills them in the transaction that stores the
//     report, with SQLite's json_each (the same query 0005 ran over the
//     runs already done), so aggregating many runs never decodes a report.
//     Rows go with their run (ON DELETE CASCADE).
//
//   - ExperimentRuns reads an experiment's runs and their metrics in two
//     queries of one read-only (deferred, so not write-locking) snapshot.
//     Metrics are selected by run_id IN (the experiment's runs), which
//     SQLite reads in key order; a join from experiment_runs seeks
//     run_metrics at random and was twice as slow at 100,000 runs. Text
//     that repeats (status, variant, cells, metric names) is shared, and
//     so are equal params maps.
//
//   - Labels (0006_run_labels.sql): runs.name and runs.notes (markdown)
//     are columns at the row's end, which lists never read past name;
//     run tags are rows of run_tags (primary key (run_id, tag), index
//     (tag, run_id)), so that ?tag= is an index lookup; experiments keep
//     their tags as 0005's JSON array. CheckLabels holds the limits (name
//     ≤ 200 characters, one line; ≤ 32 tags of ≤ 64 letters, digits and
//     the marks "-_.:/", kept sorted and once; notes ≤ 64 KiB); SetRunLabels
//     replaces all three in one transaction, SetExperimentLabels in one
//     statement.
//
//   - Lists page by keyset in one of two shapes (page.go): newest first,
//     (created_at, rowid) descending, for every list; or, for runs sorted
//     by a metric, (value, run_id) of run_metrics in either direction,
//     read in the order of run_metrics_name_value (name, value, run_id),
//     with run_metrics kept the outer loop (CROSS JOIN) so that no filter
//     makes SQLite sort. The run id, not the rowid, breaks ties there
//     because it is the index's own order. A cursor names its shape: one
//     list refuses another's cursor. Filters are equalities on indexed
//     columns (variant has its own index in 0006), a tag in run_tags, a
//     metric range in run_metrics; parameters (one JSON object per run)
//     are not indexed and are tested on the rows the order reaches. A
//     tag alone is read from run_tags_tag and its runs sorted: the cost
//     is the tag's runs, not the table's.
//
//   - ExportExperiment and ImportExperiment move an experiment between
//     databases as typed rows (Snapshot*, an ExportSink and an
//     ImportSource); package bundle, above the store, writes and reads
//     them as a bundle file (the format and its checks: the store imports
//     only errs and its driver, docs/architecture.md). Export streams from one read transaction and refuses an
//     experiment with queued or running runs; import keeps every ID (links
//     stay the same), stores everything in one transaction, refuses an
//     experiment or run ID already present (errs.Conflict), reuses a
//     workload with the same ID and sha256 and refuses one with the same
//     ID and other data, fills run_metrics with Finish's query, and gives
//     what it stores to the importing user. No migration: bundles hold
//     the columns as they are.
//
//   - Large tables are paged out of reports (migration 0010): End and
//     ImportExperiment store a table of more than PageOutRows rows
//     in run_table_pages, in pages of TablePageRows rows, and the
//     report keeps the table's title and columns, marked "paged" with its
//     "row_count" (tables.go works on the JSON as it is: the rest of the
//     report keeps its bytes). TableRows reads a range of rows and
//     EachTableRow every row a page at a time; ExportExperiment puts the
//     rows back, so a snapshot (and a bundle) carries whole reports.
//
//   - A full disk is a state, not an error to retry blindly (disk.go): a
//     write failing with SQLITE_FULL is errs.NoSpace, and whoever meets
//     it tells Disk (Full); Disk.Check (Watch calls it every few seconds)
//     measures the file system's free space (statfs) against a threshold
//     (DiskLow under it) and, while full, allocates 1 MiB in a transaction
//     it rolls back, on a connection with a small page cache so the pages
//     reach the WAL as a real write would: the state clears by itself when
//     space returns. Disk.Refuse is the 507 of new work, Disk.Paused tells
//     the claimers to wait. SetMaxPages caps the database (PRAGMA
//     max_page_count on every connection): SQLite's own SQLITE_FULL,
//     without root or a small file system, for tests.
//
//   - Open reads the write-ahead log before SQLite does (check.go): frame
//     by frame, checksums chained as SQLite chains them, it counts the
//     transactions SQLite will replay and those it will silently drop past
//     a damaged frame, and logs a loss at error level (Opened, on
//     /healthz). CheckIntegrity runs PRAGMA quick_check (reads every page,
//     so the server runs it after it starts serving).
//
//   - Durability: WAL with synchronous=NORMAL. A commit is durable against
//     a crash of the process at once, and against a power cut from the
//     next checkpoint on (the WAL is fsynced at checkpoints, not at each
//     commit): a power cut may lose the last transactions, never corrupt
//     the file. Backup writes a copy with VACUUM INTO (one read
//     transaction, the server goes on) and never overwrites a file.
//
// Every error is an *errs.Error: NotFound for an unknown id, Invalid for a
// value the store cannot keep, Conflict for a change the run's state does
// not allow, Internal for a database failure, NoSpace for a full disk.
package store
