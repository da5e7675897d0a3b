package solvers

import (
	"context"
	"runtime"
	"sync"
)

// ForEach calls fn(i) for i in [0, n) on up to GOMAXPROCS goroutines and
// returns the error of the lowest i that failed, or ctx's error when it was
// canceled (no new i starts after that). after, if not nil, is called once
// per finished i, in completion order and never concurrently, so it can
// report progress. fn must write only its own i's results: the order in
// which the i run is not fixed, but each result is, so a caller that fills
// a slice by index gets the same output at any parallelism.
func ForEach(ctx context.Context, n int, fn func(i int) error, after func(done int)) error {
	errs := make([]error, n)
	var mu sync.Mutex
	done := 0
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				errs[i] = fn(i)
				mu.Lock()
				done++
				if after != nil {
					after(done)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
