package solvers

import (
	"context"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"
)

// ForEach is ForEachLimit on GOMAXPROCS goroutines.
func ForEach(ctx context.Context, n int, fn func(i int) error, after func(done int)) error {
	return ForEachLimit(ctx, n, runtime.GOMAXPROCS(0), fn, after)
}

// ForEachLimit calls fn(i) for i in [0, n), handing the i out in order to
// up to limit goroutines at once (at least one). It hands out no new i once
// one has failed or ctx has ended, and an i handed out does not start if a
// lower one failed meanwhile. It returns ctx's error when ctx ended, else
// the error of the lowest i that failed: every i below it ran, so the
// error is the same at any limit. after, if not nil, is called once per
// finished i, in completion order and never concurrently, so it can report
// progress. fn must write only its own i's results: the order in which the
// i run is not fixed, but each result is, so a caller that fills a slice
// by index gets the same output at any parallelism.
func ForEachLimit(ctx context.Context, n, limit int, fn func(i int) error, after func(done int)) error {
	var g errgroup.Group
	g.SetLimit(max(1, limit))
	var mu sync.Mutex
	done, lowest := 0, n // lowest: the lowest i that failed so far (n: none)
	var first error      // its error
	failedBelow := func(i int) bool { mu.Lock(); defer mu.Unlock(); return lowest < i }
	for i := 0; i < n && ctx.Err() == nil && !failedBelow(n); i++ {
		g.Go(func() error {
			if failedBelow(i) {
				return nil
			}
			err := fn(i)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && i < lowest {
				lowest, first = i, err
			}
			done++
			if after != nil {
				after(done)
			}
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return first
}
