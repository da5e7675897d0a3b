// Package runner is the queue-and-store side of executing runs: the
// Runner checks and stores runs (Submit, Prepare, Rerun), cancels them and
// hands their execution to a Backend. Each run is executed by package
// execute (Run, Reproduce: the one execution path, under a budget), which
// the worker processes and the command line call too.
//
// # Lifecycle
//
//	Submit ──▶ queued ──claim──▶ running ──▶ done | failed | canceled
//	              │                 │
//	              └─Cancel──▶ canceled        process stops ──▶ interrupted
//
// A run is queued by Submit (or Rerun), claimed oldest first, and ends done
// (with its Report), failed (with the message and the field it names, so
// the page can point at the input to fix) or canceled. A run cut off by a
// shutdown or a crash ends interrupted. Final statuses are never left;
// Rerun makes a new queued run with the same inputs and RerunOf set.
//
// # Decisions
//
//   - One path, two backends behind Backend: by default the in-process
//     pool (Options.Workers goroutines; the tests, schedlab serve
//     --in-process), with Options.Backend set package queue's Dispatcher
//     (worker processes over NATS, what serve does by default). The pool
//     marks runs left running interrupted at Start (none can still
//     execute); with a Backend set they may still execute on a worker, and
//     the Dispatcher takes them over.
//   - Submit checks everything before storing anything (strategy, variant,
//     parameters, workload and its strategy); a rejected submission stores
//     nothing and names the field at fault. Parameters are stored resolved,
//     so a run records every value it used.
//   - A sweep is many short runs, so per-run overhead is cut where it is a
//     commit or a read: the ends of runs are stored in groups, one commit
//     for many (GroupCommit, shared with the Dispatcher, which also
//     sends short runs to workers in batches and gets their ends back
//     together: package queue's "Batches"); while runs end
//     within 10 ms an idle worker claims up to 8 in one transaction
//     (pool.go); a workload and its decoded forms are kept for the runs
//     that share it (64 MiB, most recently used: workloads.go); an
//     experiment's workload not generated yet is generated once per
//     process, by the first run that needs it (execute.Generations). A run
//     shows running until its end is stored, a few milliseconds after it
//     stopped; a crash loses the ends not yet written, and those runs end
//     interrupted.
//   - A panic in a strategy fails that run with errs.Internal (execute) and
//     the worker goes on: one bad run never takes the server down.
//   - Progress is kept in memory on every call (Runner.Progress) and written
//     to SQLite at most once per Options.ProgressInterval; the last progress
//     is stored with the end.
//   - Cancel of a running run cancels its context and the worker stores it
//     canceled when the strategy returns; Cancel of a finished run is
//     errs.Conflict.
package runner
