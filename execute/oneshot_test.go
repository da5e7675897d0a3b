package execute

import (
	"math"
	"runtime/debug"
	"schedlab/solvers"
	"testing"
)

// TestOneShotSetsAndRestoresTheCollector: GOGC and the memory limit are
// the one-shot (or the serving) settings (the budget as the limit, the
// default budget when none is given) until restored.
func TestOneShotSetsAndRestoresTheCollector(t *testing.T) {
	gc0, lim0 := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(gc0)
	for _, c := range []struct {
		b       solvers.Budget
		want    int64
		set     func(solvers.Budget) func()
		percent int
	}{{solvers.Budget{Memory: 64 << 20}, 64 << 20, OneShot, OneShotGCPercent}, {solvers.Budget{}, solvers.DefaultMemory, OneShot, OneShotGCPercent},
		{solvers.Budget{Memory: math.MaxInt64}, math.MaxInt64, OneShot, OneShotGCPercent}, {solvers.Budget{Memory: 64 << 20}, 64 << 20, Serving, ServerGCPercent}} {
		restore := c.set(c.b)
		gc := debug.SetGCPercent(c.percent)
		if lim := debug.SetMemoryLimit(-1); gc != c.percent || lim != c.want {
			t.Errorf("%+v: GOGC %d, limit %d; want %d, %d", c.b, gc, lim, c.percent, c.want)
		}
		restore()
		if gc, lim := debug.SetGCPercent(gc0), debug.SetMemoryLimit(-1); gc != gc0 || lim != lim0 {
			t.Errorf("%+v: restored GOGC %d, limit %d; want %d, %d", c.b, gc, lim, gc0, lim0)
		}
	}
}
