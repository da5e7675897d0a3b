// Package execute runs one thing a strategy does under a budget: a run
// (Run, File), a seed experiment (Reproduce), reading an upload (Parse)
// and generating a workload (Generate, GenerateRecipe). It is the one
// execution path: the server's in-process pool, the worker processes and
// the command line all call it. It knows no store and no queue (it
// imports solvers, errs and runtypes), so a worker binary links no SQLite.
//
// Every call has the same guarantees: the time limit and the heap
// watchdog of its solvers.Budget, a panic of the strategy turned into
// errs.Internal ("internal error in strategy NAME: ...", a *PanicError in
// the chain with the stack for the log), errs.Canceled when the caller's
// context is canceled, and what the strategy returns checked (a Report
// with Validate, a workload for data) before anyone stores it. Outcome
// maps the error to the run's final status.
//
// Parse and Generate also run in the server's process, in the request
// that uploads or asks for a workload; what bounds them there (the upload
// cap, parameter limits, a 20 s limit for a generation, the heap
// watchdog) and what does not is in package queue's doc, "What runs in
// the server".
//
// # Decisions
//
//   - The time limit and the memory budget are budgets, so exceeding either
//     is errs.TooLarge ("run stopped: exceeded its time limit of 10m0s",
//     "run stopped: Go heap exceeded the memory budget of 4 GiB") and the
//     run is failed. errs.Canceled is kept for runs stopped from outside:
//     by the user (ErrUserCanceled: status canceled) or by a shutdown
//     (status interrupted).
//   - Memory is the Go heap (runtime/metrics /memory/classes/heap/objects:bytes,
//     sampled every 50 ms by a watchdog goroutine per call). Go cannot
//     attribute heap to a goroutine, so the budget is of the process while
//     calls execute; with several at once, each watchdog that sees the
//     heap over budget stops its call. The watchdog samples: a single
//     allocation larger than what is left is not stopped before it is
//     made, and a Go out-of-memory is fatal to the whole process.
//   - Strategies must honour their context. One that has not returned
//     5 s after its call was stopped is abandoned: the call returns the
//     stop reason and the caller moves on, while the strategy's goroutine
//     runs on until it returns, its result dropped. (Go lets only the
//     panicking goroutine recover: a strategy that starts goroutines of
//     its own must recover their panics itself.)
//   - If a strategy returns a valid result just as a limit or a cancel
//     strikes, the result is kept: the work was done.
//   - The command line's run and reproduce execute one run and exit:
//     OneShot sets the collector for that (OneShotGCPercent).
package execute
