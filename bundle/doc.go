// Package bundle is the file an experiment travels in between schedlab
// databases (issue 16: "export an experiment as one bundle file
// (definition, workloads, every run's report, schedlab version and commit)
// that schedlab imports on another machine to show the same pages"). It
// only encodes and decodes: the store gives and takes an experiment as
// typed rows (store.ExportExperiment, store.ImportExperiment) and Export
// and Import (store.go) write and read them, so the store knows nothing of
// this format or the experiment parser its check uses. The CLI's export
// and import and the web routes call Export and Import.
//
// Format: NAME.schedlab-experiment.json.gz (FileSuffix), a gzip stream (RFC
// 1952) of JSON records, one per line, each an object with exactly one key,
// in this order: one "header" (format "schedlab-experiment", version, the
// binary's version and commit from runtime/debug.ReadBuildInfo, "unknown"
// where the build records none, exported_at), one "experiment", each
// "workload" the runs use, then runs_total "run" records. Their fields are
// the store's columns of the same name (Header, Experiment, Workload, Run);
// times are RFC 3339 UTC with microseconds; a workload's data is a JSON
// string so the bytes its sha256 hashes survive re-encoding; definitions,
// previews, cells and reports are embedded JSON. One record per line lets
// both sides stream: neither holds 100,000 runs' reports in memory.
//
// Decisions:
//   - Strict reading: an unknown key is refused (a newer schedlab's record
//     is never dropped silently), and so is anything the store could not
//     keep or the pages not show: a malformed ID or status, a definition
//     experiments.ParseJSON refuses, cells or reports that are not
//     objects, a sha256 that does not match, a run of another strategy or
//     of a workload not in the bundle, a repeated ID, positions other than
//     0 … runs_total−1 once each, a wrong count, a record out of order, a
//     truncated or corrupt gzip stream. Each is errs.Invalid naming the
//     record ("bundle record 7 run.position"), except size.
//   - Size: one cap on the decompressed stream (NewReader's limit:
//     DefaultLimit, 1 GiB, for the CLI; the server's --max-upload-mb),
//     errs.TooLarge past it; the reader stops there, so a gzip bomb costs
//     at most the limit. A smaller per-record cap would let the total grow.
//   - Only finished experiments travel: a queued or running run cannot go
//     on from a bundle, and an "interrupted" copy would be re-queued by the
//     importer's resume and differ from the original, so export refuses
//     them (errs.Conflict) and writes a "running" experiment whose runs are
//     all final as "done", as its page shows it.
//   - Not exported: owners (the importing user owns what is imported) and
//     rerun_of (resume re-queues the same run; a link outside the bundle
//     would dangle).
//   - Searches (issue 45): an ended adversarial search travels in its own
//     file, NAME.schedlab-search.json.gz (SearchFormat, search.go): one
//     gzip'd JSON object (header, the search's row, its evaluations in
//     order, its best instance's workload and runs), read whole within
//     the same limit and strictly (ReadSearch: unknown keys, a running
//     search, evaluations out of order, a workload whose sha256 does not
//     match, runs of another strategy are refused naming the field); the
//     workload and run checks are the experiment bundle's. A search is
//     small (a record an evaluation, one workload, two runs), so it is
//     not streamed.
//   - Versions: a reader takes 1 … Version; a field added later (run
//     names, tags and notes go in Run) raises Version, and older bundles
//     still read with it empty.
package bundle
