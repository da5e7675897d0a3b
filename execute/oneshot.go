package execute

import (
	"math"
	"runtime/debug"
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

// OneShot sets the collector of a process that executes one run under b
// and exits (OneShotGCPercent, b's memory as the memory limit), and
// returns the function that restores the previous settings.
func OneShot(b Budget) (restore func()) {
	mem := b.withDefaults().Memory
	limit := int64(math.MaxInt64)
	if mem < math.MaxInt64 {
		limit = int64(mem)
	}
	gc := debug.SetGCPercent(OneShotGCPercent)
	was := debug.SetMemoryLimit(limit)
	return func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(was)
	}
}
