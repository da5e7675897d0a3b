// Package bundle is the file an experiment travels in between schedlab
// databases (issue 16: "export an experiment as one bundle file
// (definition, workloads, every run's report, schedlab version and commit)
// that schedlab imports on another machine to show the same pages").
// It only encodes and decodes: no SQL, no HTTP. The store gives and takes
// an experiment as typed rows (store.ExportExperiment to a
// store.ExportSink, store.ImportExperiment from a store.ImportSource);
// Export writes them as a bundle with a Writer and Import stores what a
// Reader reads (store.go), so the store knows nothing of this format or
// the experiment parser its check uses. `schedlab export`/`schedlab
// import` and the web routes (GET /experiments/:id/bundle,
// GET /api/experiments/:id/bundle, POST /api/experiments/import) call
// Export and Import.
//
// # Format
//
// One file, NAME.schedlab-experiment.json.gz (FileSuffix): a gzip stream
// (RFC 1952) of JSON records, one per line, each an object with exactly
// one key that says what it holds, in this order:
//
//	{"header": {"format": "schedlab-experiment", "version": 1,
//	            "schedlab": {"version": "v0.3.0", "commit": "89dc2e5…", "modified": "false"},
//	            "exported_at": "2026-05-01T10:00:00.000001Z"}}
//	{"experiment": {"id", "name", "strategy", "definition", "tags", "notes", "status", "runs_total", "created_at"}}
//	{"workload": {"id", "strategy", "name", "format", "summary", "sha256", "data", "preview", "created_at"}}   … each workload the runs use
//	{"run": {"id", "kind", "workload_id", "strategy", "variant", "params", "seed", "status",
//	         "progress_done", "progress_total", "progress_note", "error", "error_field",
//	         "created_at", "started_at", "finished_at", "report",
//	         "position", "cell", "replicate"}}                                                              … runs_total runs
//
// The records are Header, Experiment, Workload and Run; their field
// comments give each field's meaning, which is the store's column of the
// same name. Times are RFC 3339 in UTC with microseconds, as the store
// keeps them. A workload's data (its canonical native JSON, which its
// sha256 hashes byte for byte) is a JSON string, so that its bytes survive
// any re-encoding; definitions, previews, cells and reports are embedded
// JSON values. The schedlab version and commit come from the binary's
// build information (runtime/debug.ReadBuildInfo: the main module's
// version, the vcs.revision and vcs.modified settings), "unknown" where
// the build does not record them (go test, go run without VCS).
//
// A line-per-record stream lets both sides stream: the exporter writes one
// run at a time from one read transaction, the importer inserts one run at
// a time into one write transaction, and neither holds an experiment of
// 100,000 runs' reports in memory.
//
// # Decisions
//
//   - Strict reading: an unknown key is refused (a record from a newer
//     schedlab is not silently dropped), and so is every value the store
//     could not keep or the pages could not show: IDs not of the store's
//     form (10 characters of lowercase base32), statuses outside the
//     store's sets, a definition experiments.ParseJSON refuses, cells that
//     are not JSON objects, reports that are not JSON objects, a sha256
//     that does not match its data, a run of another strategy than the
//     experiment's, a run whose workload is not in the bundle (workloads
//     come before runs, so this is checked as the run is read), an ID given
//     twice, positions that are not 0 … runs_total−1 each once, a count of
//     runs other than runs_total, a record out of order, and a gzip stream
//     that is truncated or fails its checksum. Every error is errs.Invalid
//     naming the record ("bundle record 7 run.position") except size.
//   - Size: the decompressed stream is capped (NewReader's limit; the CLI
//     defaults to DefaultLimit, 1 GiB, the server uses its upload limit,
//     --max-upload-mb). Going past it is errs.TooLarge naming the limit;
//     the reader stops at the limit, so a gzip bomb costs at most the
//     limit's worth of decompression and one record's buffer (a record is
//     decoded whole, so at most the limit), never its own decompressed
//     size. One cap for both keeps the contract simple; a separate, smaller
//     cap per record would let the total grow without the memory.
//   - Only finished experiments travel. A bundle's runs are all final
//     (done, failed, canceled, interrupted) and its experiment done or
//     canceled: a run that was queued or running cannot go on from a
//     bundle, and an "interrupted" copy of it would be re-queued by the
//     importing server's start-up resume (store.RequeueExperimentRuns) and
//     so silently differ from the original. The exporter therefore refuses
//     an experiment with queued or running runs (errs.Conflict: wait or
//     cancel it), and writes a "running" experiment whose runs are all
//     final as "done", the status its page already shows.
//   - Not exported: owners (user IDs belong to one database; the importing
//     user, or nobody without accounts, owns what is imported) and
//     rerun_of (an experiment's runs are not re-runs of other runs: resume
//     re-queues the same run; a link to a run outside the bundle would
//     dangle).
//   - Versions: Version is the format this package writes; a reader takes
//     any version from 1 to Version, so a field added later (the Run record
//     is where run names, tags and notes go) raises Version, and older
//     bundles still read, their new fields empty.
package bundle
