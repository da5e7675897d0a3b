// Package store keeps schedlab's workloads, runs and experiments in one
// SQLite file (modernc.org/sqlite: pure Go, no cgo). It imports only errs
// and its driver (docs/architecture.md). Measurements behind its decisions
// are in bench/README.md ("store").
//
// Connection: driver "sqlite", busy_timeout(30000), journal_mode(WAL),
// foreign_keys(1), synchronous(NORMAL), _txlock=immediate; why each, and
// the durability that follows, is dsnPragmas' doc. Backup is VACUUM INTO
// a new file, never overwriting one.
//
// Schema: numbered migrations/ files embedded in the binary, applied in one
// transaction, counted in PRAGMA user_version; a file from a newer schedlab
// is refused; a released migration is never edited. Decisions:
//   - IDs: IDLen (10) characters of lowercase base32 from crypto/rand
//     (NewID). Times: fixed-width UTC text with microseconds (timeFormat),
//     so text order is time order.
//   - runs.workload_id ON DELETE RESTRICT (a stored run can always be
//     re-run: DeleteWorkload is errs.Conflict while used); rerun_of ON
//     DELETE SET NULL; experiment_runs.run_id RESTRICT (DeleteRun refuses an
//     experiment's run; DeleteExperiment removes both once none is active);
//     run_metrics and run_table_pages go with their run (CASCADE).
//   - Params are stored resolved, as a JSON object of strings; reports as
//     report.Report JSON the store does not interpret; lists leave out
//     data, previews and reports (megabytes).
//   - The queue is the runs table: ClaimNext is one UPDATE … RETURNING;
//     MarkInterrupted (at startup) makes a run left "running" re-runnable.
//   - Experiments keep their definition as given (never read here); runs
//     link by (experiment_id, position) with their cell and replicate, so
//     pages group without reading reports. CreateExperiment, import and
//     fill are one transaction each; CancelExperiment cancels queued runs
//     and returns the running ones for the runner. experiment_counts (runs
//     per status, kept by triggers on runs.status, recounted once by
//     recountExperiment) makes progress one row; its version (0013, a new
//     epoch each time an experiment is stored) counts the runs' changes,
//     and experiment_runs.changed lets ExperimentChangesSince read only
//     the runs changed since a page last read them. A done run without
//     the result its family declares (issue 38; the needs in metric_needs,
//     SetMetricNeeds) is marked runs.no_result when its end is stored or
//     its experiment linked, and counted failed (experiment_counts.no_result).
//   - Recipes (0011): preset workloads are rows with no data plus a
//     workload_recipes row; the first run generates and FillWorkload stores
//     it; WorkloadUsage counts stored bytes and estimates for the budgets.
//   - run_metrics (Finish) holds each done report's numeric metrics, which
//     lists and ExperimentRuns read instead of reports.
//   - Labels (0006): name and notes at the row's end, tags in run_tags
//     (index (tag, run_id)); limits in CheckLabels.
//   - Lists page by keyset (page.go, Cursor): newest first or by a metric,
//     with no sort by SQLite; RunFilter says what is filtered how.
//   - ExportExperiment and ImportExperiment move an experiment as typed
//     rows (Snapshot*, ExportSink, ImportSource); package bundle writes
//     the file. Export streams from one read transaction and refuses
//     active runs; import keeps every ID and refuses a clash.
//   - Tables over report.PageOutRows rows go to run_table_pages (0010); the
//     report keeps title, columns, "paged" and "row_count"; export puts
//     the rows back.
//   - Space: new files use auto_vacuum = INCREMENTAL and deletes reclaim
//     pages (ReclaimSpace); older files reuse freed pages (no VACUUM at
//     start). A full disk is a state (Disk): SQLITE_FULL is errs.NoSpace,
//     it clears by itself, Refuse is the 507, Paused stops claims.
//   - Adversarial searches (0014, adversary.go): the search's config and
//     best as given (package adversaries reads them), its evaluations by
//     position (INSERT OR IGNORE: a resumed search's replays count once),
//     its candidates' workloads and runs linked by the instance's sha256
//     until recorded, then dropped unless the best (best_workload_id);
//     RequeueAdversaryRuns queues the interrupted runs of running
//     searches at start, as RequeueExperimentRuns does for experiments.
//   - Open reads the WAL first (inspectWAL: checksums chained as SQLite
//     does) and logs transactions SQLite would silently drop;
//     CheckIntegrity runs PRAGMA quick_check after serving starts.
//
// Every error is an *errs.Error: NotFound, Invalid, Conflict, Internal or
// NoSpace.
package store
