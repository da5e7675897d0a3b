// Package store keeps schedlab's workloads, runs and experiments in one
// SQLite file (modernc.org/sqlite: pure Go, no cgo). It imports only errs
// and its driver (docs/architecture.md). Measurements behind its decisions
// are in bench/README.md ("store").
//
// Connection: driver "sqlite", busy_timeout(30000), journal_mode(WAL),
// foreign_keys(1), synchronous(NORMAL), _txlock=immediate: readers never
// wait for the writer; a transaction takes the write lock when it begins,
// so read-then-write never fails half way with SQLITE_BUSY; 30 s covers the
// longest write (storing MaxRuns runs; 5 s did not). Durability: a commit
// survives a process crash at once and a power cut from the next
// checkpoint on; the file is never corrupted. Backup is VACUUM INTO a new
// file, never overwriting one.
//
// Schema: numbered migrations/ files embedded in the binary, applied in one
// transaction, counted in PRAGMA user_version; a file from a newer schedlab
// is refused; a released migration is never edited. Decisions:
//   - IDs: 10 characters of lowercase base32 from crypto/rand (50 bits:
//     short, not sequential, not guessable; a clash draws again). Times:
//     fixed-width UTC text with microseconds, so text order is time order.
//   - runs.workload_id ON DELETE RESTRICT (a stored run can always be
//     re-run: DeleteWorkload is errs.Conflict while used); rerun_of ON
//     DELETE SET NULL; experiment_runs.run_id RESTRICT (DeleteRun refuses an
//     experiment's run; DeleteExperiment removes both once none is active);
//     run_metrics and run_table_pages go with their run (CASCADE).
//   - Params are stored resolved, as a JSON object of strings; reports as
//     solvers.Report JSON the store does not interpret; lists leave out
//     data, previews and reports (megabytes).
//   - The queue is the runs table: ClaimNext is one UPDATE … RETURNING, so
//     concurrent claimers never share a run; MarkInterrupted (at startup)
//     turns a run left "running" into "interrupted", re-runnable.
//   - Experiments keep their definition as given (never read here); runs
//     link by (experiment_id, position) with their cell and replicate, so
//     pages group without reading reports. CreateExperiment, import and
//     fill are one transaction each; CancelExperiment cancels queued runs
//     and returns the running ones for the runner.
//   - Recipes (0011): preset workloads are rows with no data plus a
//     workload_recipes row; the first run generates and FillWorkload stores
//     it (the first fill stays: generation is deterministic); WorkloadUsage
//     counts stored bytes and estimates for the budgets.
//   - experiment_counts: runs per status per experiment, kept by triggers on
//     runs.status; the linking paths recount once before committing (a
//     trigger per link was too slow), so progress reads one row.
//   - run_metrics: the numeric entries of each done report's "metrics" (the
//     first of a repeated name), filled by Finish with json_each in the
//     same transaction. ExperimentRuns reads runs and metrics in two
//     queries of one deferred snapshot, selecting by run_id IN (…) (key
//     order, faster than a join), sharing repeated strings and params.
//   - Labels (0006): name and notes at the row's end, tags in run_tags
//     (index (tag, run_id)); CheckLabels: name ≤ 200 characters on one
//     line, ≤ 32 tags of ≤ 64 of [letters digits -_.:/], sorted and once,
//     notes ≤ 64 KiB.
//   - Lists page by keyset (page.go): newest first by (created_at, rowid),
//     or by a metric, (value, run_id) along run_metrics_name_value with
//     run_metrics the outer loop so SQLite never sorts; a cursor names its
//     shape; filters are indexed equalities, a tag or a metric range;
//     parameters are tested on the rows reached.
//   - ExportExperiment and ImportExperiment move an experiment as typed
//     rows (Snapshot*, ExportSink, ImportSource); package bundle writes
//     the file. Export streams from one read transaction and refuses
//     active runs; import keeps every ID, refuses an ID present
//     (errs.Conflict), reuses a workload of equal ID and sha256, refuses
//     one with other data, and gives what it stores to the importer.
//   - Tables over PageOutRows rows are paged into run_table_pages (0010);
//     the report keeps title, columns, "paged" and "row_count"; export puts
//     the rows back.
//   - Space: new files use auto_vacuum = INCREMENTAL and deletes reclaim
//     pages (ReclaimSpace); older files reuse freed pages (no VACUUM at
//     start). A full disk is a state (disk.go): SQLITE_FULL is
//     errs.NoSpace, Disk tracks it with statfs and a rolled-back 1 MiB
//     probe so it clears by itself; Refuse is the 507, Paused stops
//     claims; SetMaxPages (PRAGMA max_page_count) is for tests.
//   - Open reads the WAL first (check.go), checksums chained as SQLite
//     does, and logs transactions SQLite would silently drop;
//     CheckIntegrity runs PRAGMA quick_check after serving starts.
//
// Every error is an *errs.Error: NotFound, Invalid, Conflict, Internal or
// NoSpace.
package store
