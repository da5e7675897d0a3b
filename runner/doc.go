// Package runner executes runs: a bounded pool of workers claims queued
// runs from the store, calls the strategy, reports progress and stores the
// result. Each run is executed by package execute (Run, Reproduce: the
// one execution path, under a budget), which the worker processes and the
// command line call too; runner keeps the queue-and-store side.
//
// # Lifecycle
//
//	Submit ──▶ queued ──claim──▶ running ──▶ done | failed | canceled
//	              │                 │
//	              └─Cancel──▶ canceled        process stops ──▶ interrupted
//
// A run is queued by Submit (or Rerun), claimed by a worker (oldest first)
// and ends done (with its Report), failed (with the error message and the
// field it names, so the page can point at the input to fix), or canceled
// (Cancel). A run cut off because schedlab stopped, by Shutdown or by a
// crash, ends interrupted: Shutdown stores it so, and Start marks every run
// still "running" in the database interrupted before it claims anything.
// Final statuses are never left; Rerun makes a new queued run with the same
// inputs and RerunOf pointing at the old one.
//
// # Where runs execute
//
// One path, two backends behind one interface (Backend). The Runner
// checks and stores runs (Submit, Prepare, Rerun) and cancels queued
// ones; claiming, executing, canceling running runs, live progress and
// the list of workers (Workers, the /workers page) are its Backend's. By
// default that is the in-process pool: Options.Workers goroutines claim
// and execute runs (the tests, schedlab serve --in-process). With
// Options.Backend set it is package queue's Dispatcher (worker processes
// fed over NATS JetStream, what schedlab serve does by default); Start
// then does not mark the runs left running interrupted: they may still
// execute on a worker, and the Dispatcher takes them over. Both store the
// ends of runs through one group commit (GroupCommit), and every worker
// executes through package execute.
//
// # Guarantees
//
//   - Submit checks everything before storing anything: strategy, variant,
//     parameters (resolved and stored in full, so a run records every value
//     it used), workload and its strategy. A rejected submission stores
//     nothing and names the field at fault.
//   - At most Options.Workers runs execute at once; Submit wakes a worker at
//     once and idle workers also poll the queue (Options.PollInterval).
//   - While runs end within 10 ms (a sweep of short runs), an idle worker
//     claims up to 8 queued runs in one transaction, executes the first
//     and leaves the others to whichever worker is free next: a claim's
//     commit costs about as much as such a run. The runs so claimed show
//     running from the claim (a few milliseconds early), are in flight
//     (Cancel ends one unexecuted), are not listed as executing by
//     Workers, and go back to the queue, as if never claimed, at
//     Shutdown. After a slower run, claims are single again.
//   - A run whose workload is an experiment's recipe not generated yet
//     (store.Recipe) generates it first (execute.GenerateRecipe, under
//     the run's budget) and stores it (store.FillWorkload); the runs
//     of one workload that start together wait for one generation
//     (Generations, a singleflight by workload ID), so a workload shared
//     by a cell's variants is generated once per process. A failed
//     generation fails the run with its reason.
//   - A workload read for a run is kept (64 MiB of the most recently used)
//     with a memo of its decoded forms (solvers.Workload.Decoded), so the
//     runs of a sweep read and decode each of its workloads once.
//   - A panic in a strategy fails that run with errs.Internal (see
//     execute; the stack goes to the log) and the worker goes on to the
//     next run: one bad run never takes the server down.
//   - Progress is kept in memory on every call (Runner.Progress, for
//     polling) and written to SQLite at most once per
//     Options.ProgressInterval; the last progress is stored with the end.
//   - The ends of runs are stored by one recorder goroutine, in groups
//     (GroupCommit): every run that ended while the last group was written
//     goes into the next transaction (store.End). A commit is most of what storing a
//     run costs, so a sweep of short runs pays one for many. A worker
//     hands its run's end over and claims the next run without waiting
//     for the write (at most 64 ends wait; then workers do). The database
//     shows a run running until its end is stored, a few milliseconds
//     after it stopped executing, and Cancel of it then is a no-op.
//     Shutdown returns once every end is stored; a crash loses the ends
//     not yet written, and those runs end interrupted at the next Start
//     as any run cut off does.
//   - A Report is checked with solvers.Report.Validate before it is stored;
//     the rows of a lazy table (solvers.LazyTable) are built and checked as
//     the report is encoded (a failure is the run's internal error), so a
//     run whose report is not stored (a sweep's, the command line's paged
//     output) never builds them.
//   - Cancel of a running run cancels its context; the worker stores it
//     canceled when the strategy returns. Cancel of a finished run is
//     errs.Conflict.
package runner
