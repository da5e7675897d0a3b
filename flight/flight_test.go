package flight

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// Concurrent callers of one key compute it once and share its result;
// the next call after it returned computes again. Run with -race.
func TestCallersOfOneKeyShareOneComputation(t *testing.T) {
	var g Group[int]
	var calls atomic.Int32
	started, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	results := make([]int, 8)
	lead := func() (int, error) {
		calls.Add(1)
		close(started)
		<-release
		return 42, nil
	}
	wg.Add(1)
	go func() { defer wg.Done(); results[0], _ = g.Do(context.Background(), "k", lead) }()
	<-started
	var joined sync.WaitGroup
	for i := 1; i < len(results); i++ {
		wg.Add(1)
		joined.Add(1)
		go func() {
			defer wg.Done()
			joined.Done()
			results[i], _ = g.Do(context.Background(), "k", func() (int, error) { calls.Add(1); return -1, nil })
		}()
	}
	joined.Wait()
	close(release)
	wg.Wait()
	// A late goroutine may have come after the first computation ended
	// and computed again (-1); every other result is the shared 42, and
	// the computation ran once for all of those.
	shared := 0
	for _, v := range results {
		if v == 42 {
			shared++
		} else if v != -1 {
			t.Fatalf("results %v", results)
		}
	}
	if int(calls.Load()) != 1+len(results)-shared {
		t.Fatalf("%d computations for %d shared results of %d callers", calls.Load(), shared, len(results))
	}
	if v, _ := g.Do(context.Background(), "k", func() (int, error) { return 7, nil }); v != 7 {
		t.Errorf("after the flight ended a new call got %d, not its own computation's 7", v)
	}
}

// A caller whose context ends returns at once with the context's error;
// the computation goes on and the caller still waiting gets its result.
func TestACanceledCallerLeavesTheComputationToTheOthers(t *testing.T) {
	var g Group[string]
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan string)
	go func() {
		v, _ := g.Do(context.Background(), "k", func() (string, error) { close(started); <-release; return "value", nil })
		done <- v
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Do(ctx, "k", func() (string, error) { t.Error("a second computation started"); return "", nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled caller: %v, want context.Canceled", err)
	}
	close(release)
	if v := <-done; v != "value" {
		t.Errorf("the waiting caller got %q", v)
	}
}

// A panic reaches every caller of the flight as a *PanicError with the
// panic's value, crashes nothing, and is not kept: the next call computes.
// An error is shared too and not kept.
func TestAPanicIsEveryCallersErrorAndNotKept(t *testing.T) {
	var g Group[int]
	started, release := make(chan struct{}), make(chan struct{})
	errc := make(chan error)
	go func() {
		_, err := g.Do(context.Background(), "k", func() (int, error) { close(started); <-release; panic("boom") })
		errc <- err
	}()
	<-started
	go func() {
		_, err := g.Do(context.Background(), "k", func() (int, error) { return 1, nil })
		errc <- err
	}()
	// The second caller may join the flight or come after it: either way
	// the first must get the panic, and none may crash.
	close(release)
	first := <-errc
	var pe *PanicError
	if !errors.As(first, &pe) || pe.Value != "boom" || !errors.Is(first, ErrPanicked) || len(pe.Stack) == 0 {
		t.Fatalf("first caller: %v, want the panic as a *PanicError", first)
	}
	if second := <-errc; second != nil && !errors.Is(second, ErrPanicked) {
		t.Errorf("second caller: %v", second)
	}
	if v, err := g.Do(context.Background(), "k", func() (int, error) { return 3, nil }); v != 3 || err != nil {
		t.Errorf("after the panic: %d, %v: the panic was kept", v, err)
	}
	bad := errors.New("bad")
	if _, err := g.Do(context.Background(), "e", func() (int, error) { return 0, bad }); err != bad {
		t.Errorf("error %v, want the computation's", err)
	}
	if v, err := g.Do(context.Background(), "e", func() (int, error) { return 5, nil }); v != 5 || err != nil {
		t.Errorf("after an error: %d, %v: the error was kept", v, err)
	}
}
