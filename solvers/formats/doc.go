// Package formats holds the file readers that several strategy families
// share: a tolerant, strict-where-it-matters CSV reader for numeric
// matrices (ETC and APC tables) and for plain records (a user stream), and
// ReadSWF for Standard Workload Format traces of the Parallel Workloads
// Archive (plain or gzip, the 18 fields kept as they are, -1 for unknown;
// header keys MaxProcs, MaxNodes, MaxJobs, MaxRecords, Version, Computer,
// UnixStartTime read, the other header lines kept as notes; a job line
// with other than 18 numbers is an error naming the line and the field).
// ReadWfFormat reads WfCommons workflow instances (WfFormat 1.4, 1.5 and
// 1.6; the decisions and their sources are in wfformat.go and, for 1.4's
// translation, wfformat14.go).
// Which SWF jobs a simulation can use (runtime ≤ 0, size > P, a missing
// estimate) is the caller's decision, not the reader's.
// ReadBatsimWorkload reads a Batsim 4 JSON workload into rigid jobs with
// runtimes from their profiles, and ReadSimGridPlatform the compute hosts
// and speed of a SimGrid platform; what each reads and refuses, with its
// source (oar-team/batsim v4.2.1, docs/input-workload.rst and
// docs/input-platform.rst), is in batsimjson.go and simgrid.go.
//
// CSV decisions:
//
//   - Header optional. The first row is a header when any of its cells after
//     the first is not a number, or when it has a single cell that is not a
//     number. A data row never looks like that, so no flag is needed.
//   - Row labels optional. A matrix whose data rows all start with a
//     non-numeric cell has a label column (task type names); if only some do,
//     the first offending cell is reported as "not a number".
//   - Line ends: LF and CRLF (Tarplee's files are CRLF); a UTF-8 byte-order
//     mark is skipped; blank lines are skipped; '#' starts a comment line.
//     Cells are trimmed of surrounding spaces.
//   - Numbers are Go float syntax (strconv.ParseFloat); NaN and ±Inf are
//     rejected, so every value a reader returns is finite.
//   - Every row must have as many cells as the first row (ragged rows are an
//     error naming the line), so a shape error is found where it is, not later.
//   - Errors are errs.Invalid (errs.TooLarge for size limits) whose Field names
//     the file, the line and, where there is one, the column, e.g.
//     "etc.csv line 3 column 2", so the message tells the user what to fix.
//     Lines and columns are 1-based as in any editor.
//
// # Memory budget
//
// ReadSWFLimited reads an SWF trace streaming: gzip is inflated as the
// scanner reads, the uncompressed text is capped (SWFLimits.MaxBytes, 256
// MiB by default: a gzip bomb stops at the cap), the job records are counted
// as they arrive (SWFLimits.MaxRecords) and each growth of the record slice
// is reserved against the memory budget in the context (solvers.Reserve)
// before it is made. ReadSWFFrom does the same from an io.Reader (a file
// the command line opened), so a trace over the record limit is refused at
// the first record past it, having read only up to it. ScanSWF is the same
// read handing each record to a callback instead of keeping it (the command
// line's trace goes straight into the simulator's jobs, batch.SWFBuilder);
// ReadSWFFrom is ScanSWF keeping every record. A job line of 18 plain
// integers is split and converted in one pass (scanSWFFast); any other
// line goes through the reference parser (parseSWFJob), so values and
// errors are those of the reader before it (readSWFReference in the tests,
// TestReadSWFAgreesWithTheReference, FuzzReadSWF, FuzzScanSWFJob). The line
// scanner reads the capped text directly (no second buffer between the
// inflater and it). Gzip is inflated by
// github.com/klauspost/compress/gzip (already in the build through NATS):
// the same stream as compress/gzip, faster (the full KTH trace read in
// 14.2 ms against 16.1 ms: go test ./solvers/formats -run XXX -bench
// ReadSWF -cpu 1 -count 3).
package formats
