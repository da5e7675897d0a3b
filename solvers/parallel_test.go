package solvers

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

func TestForEachRunsEveryIndexOnceAndReportsEach(t *testing.T) {
	const n = 200
	var calls [n]int32
	var reported []int
	err := ForEach(context.Background(), n, func(i int) error {
		atomic.AddInt32(&calls[i], 1)
		return nil
	}, func(done int) { reported = append(reported, done) })
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range calls {
		if c != 1 {
			t.Fatalf("index %d ran %d times", i, c)
		}
	}
	for i, d := range reported {
		if d != i+1 {
			t.Fatalf("progress report %d says %d done, want %d", i, d, i+1)
		}
	}
	if len(reported) != n {
		t.Errorf("progress saw %d reports, want %d", len(reported), n)
	}
}

func TestForEachReturnsTheLowestFailingIndex(t *testing.T) {
	err := ForEach(context.Background(), 50, func(i int) error {
		if i == 7 || i == 31 {
			return fmt.Errorf("index %d", i)
		}
		return nil
	}, nil)
	if err == nil || err.Error() != "index 7" {
		t.Errorf("err %v, want index 7", err)
	}
}

// TestForEachStopsOnCancel: index 4 cancels; the indices above it wait
// for the cancel, so the ones that run are those handed out before it,
// at most one per goroutine, whatever the timing.
func TestForEachStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	canceled := make(chan struct{})
	var above atomic.Int32
	err := ForEachLimit(ctx, 10000, 3, func(i int) error {
		switch {
		case i == 4:
			cancel()
			close(canceled)
		case i > 4:
			above.Add(1)
			<-canceled
		}
		return nil
	}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if n := above.Load(); n > 3 {
		t.Errorf("%d indices above the canceling one ran, want at most 3", n)
	}
}

// TestForEachStopsAtTheFirstError: with one goroutine nothing after the
// failing index starts; with four, the indices above it that run are
// those it ran beside, whichever the goroutines' timing. Each of them
// waits until the failure is recorded: the report of the failing index's
// end, the 11th (indices 0 to 10 never wait, the others wait on them),
// which ForEachLimit makes once it has recorded the error. Released at
// the failing call's return instead, they could run on while the
// failing goroutine waited for the lock (989 of them did, on a loaded
// machine).
func TestForEachStopsAtTheFirstError(t *testing.T) {
	for _, limit := range []int{1, 4} {
		const failing = 10
		var ran, above atomic.Int32
		recorded := make(chan struct{})
		reports := 0
		err := ForEachLimit(context.Background(), 1000, limit, func(i int) error {
			ran.Add(1)
			switch {
			case i == failing:
				return fmt.Errorf("index %d", i)
			case i > failing:
				above.Add(1)
				<-recorded
			}
			return nil
		}, func(int) {
			if reports++; reports == failing+1 {
				close(recorded)
			}
		})
		if err == nil || err.Error() != "index 10" {
			t.Errorf("limit %d: err %v, want index 10", limit, err)
		}
		if limit == 1 && ran.Load() != failing+1 {
			t.Errorf("limit 1: %d indices ran, want %d (0..%d)", ran.Load(), failing+1, failing)
		}
		if a := above.Load(); a > int32(limit) {
			t.Errorf("limit %d: %d indices above the failing one ran, want at most %d", limit, a, limit)
		}
		if reports != int(ran.Load()) {
			t.Errorf("limit %d: %d progress reports for %d finished calls", limit, reports, ran.Load())
		}
	}
}

// TestForEachKeepsToItsLimit counts the calls in progress: never more than
// the limit, and the limit is reached (the first calls wait until that
// many are in).
func TestForEachKeepsToItsLimit(t *testing.T) {
	for _, limit := range []int{1, 3, 8} {
		var in, most, entered atomic.Int32
		full := make(chan struct{})
		err := ForEachLimit(context.Background(), 200, limit, func(i int) error {
			c := in.Add(1)
			defer in.Add(-1)
			for m := most.Load(); c > m && !most.CompareAndSwap(m, c); m = most.Load() {
			}
			if e := entered.Add(1); e == int32(limit) {
				close(full)
			} else if e < int32(limit) {
				<-full
			}
			for range 10 {
				runtime.Gosched() // room for a call beyond the limit to come in
			}
			return nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m := most.Load(); m != int32(limit) {
			t.Errorf("limit %d: at most %d calls at once, want exactly %d", limit, m, limit)
		}
	}
}

// TestForEachReportsTheLowestFailureNotTheFirst: index 3 fails first and
// index 2 after it; 2 still runs (it was handed out before) and its error
// is the one returned, as at any other limit.
func TestForEachReportsTheLowestFailureNotTheFirst(t *testing.T) {
	three := make(chan struct{})
	err := ForEachLimit(context.Background(), 100, 4, func(i int) error {
		switch i {
		case 2:
			<-three
			return fmt.Errorf("index %d", i)
		case 3:
			defer close(three)
			return fmt.Errorf("index %d", i)
		}
		return nil
	}, nil)
	if err == nil || err.Error() != "index 2" {
		t.Errorf("err %v, want index 2", err)
	}
}
