package execute

import (
	"runtime/debug"

	"schedlab/solvers"
)

// OneShotGCPercent is the collector's GOGC in a process that executes one
// run and exits (the command line's run and reproduce).
//
// Decision: such a process frees everything at exit, so collecting to keep
// the heap at twice the live data (GOGC 100) is work for nothing; at 400
// the heap grows to five times the live data between collections, about a
// quarter as many of them (EASY over the full KTH trace, median process
// CPU: 65–67 → 63–64 ms with the per-job table paged, 89–91 → 81 ms with
// --full, which builds and writes it). The run's memory budget
// stays the bound: OneShot sets it as the runtime's memory limit, so the
// garbage GOGC lets accumulate never takes the process past what
// --memory-mb allows (the collector works harder near it instead), and the
// heap watchdog, which stops a run whose heap exceeds the budget, is not
// fooled by garbage.
const OneShotGCPercent = 400

// ServerGCPercent is the collector's GOGC in the server when runs execute
// on workers.
//
// Decision: the server's live heap is then its caches, a few tens of MB,
// and nearly all it allocates is a request's garbage; at GOGC 100 it
// collected many times a second under load. At 300 (bench/load -c 100 on
// the KTH fixture, bench/README.md) p99 of "/" fell from 120–154 to
// 93–97 ms. --memory-mb is the memory limit here too, as in OneShot, for
// the parsing and generating the server does itself. A server executing
// runs in-process keeps GOGC 100: its heap is the runs'.
const ServerGCPercent = 300

// OneShot sets the collector of a process that executes one run under b
// and exits (OneShotGCPercent, b's memory as the memory limit), and
// returns the function that restores the previous settings.
func OneShot(b solvers.Budget) (restore func()) { return collector(OneShotGCPercent, b) }

// Serving sets the collector of a server whose runs execute on workers
// (ServerGCPercent, b's memory as the memory limit), and returns the
// function that restores the previous settings.
func Serving(b solvers.Budget) (restore func()) { return collector(ServerGCPercent, b) }

func collector(percent int, b solvers.Budget) (restore func()) {
	gc := debug.SetGCPercent(percent)
	was := debug.SetMemoryLimit(b.WithDefaults().Memory)
	return func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(was)
	}
}
