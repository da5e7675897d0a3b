// Package formats holds the file readers that several strategy families
// share: CSV for numeric matrices (ETC and APC tables) and plain records
// (a user stream); SWF traces of the Parallel Workloads Archive (swf.go);
// WfCommons workflow instances, WfFormat 1.4 to 1.6 (wfformat.go,
// wfformat14.go); Batsim 4 JSON workloads and SimGrid platforms
// (batsimjson.go, simgrid.go). Each file states what it reads and refuses,
// with its source. Which SWF jobs a simulation can use (runtime ≤ 0, size
// > P, a missing estimate) is the caller's decision, not the reader's.
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
// # SWF and the memory budget
//
// The SWF reader streams (ScanSWF; ReadSWFFrom keeps every record): gzip is
// inflated as the scanner reads, the uncompressed text is capped (a gzip
// bomb stops at the cap), records are counted as they arrive and each
// growth of the record slice is reserved against the context's budget
// (solvers.Reserve) before it is made. The fused one-pass line scanner
// (scanSWFFast) gives the values and errors of the reference parser
// (parseSWFJob, readSWFReference in the tests:
// TestReadSWFAgreesWithTheReference, FuzzReadSWF, FuzzScanSWFJob). Gzip is
// inflated by github.com/klauspost/compress/gzip (already in the build
// through NATS): the same stream as compress/gzip, faster (the full KTH
// trace read in 14.2 ms against 16.1 ms: go test ./solvers/formats -run
// XXX -bench ReadSWF -cpu 1 -count 3).
package formats
