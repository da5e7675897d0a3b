package solvers

import (
	"context"
	"errors"
	"fmt"
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
	if len(reported) != n || reported[n-1] != n {
		t.Errorf("progress saw %d reports ending at %v, want %d ending at %d", len(reported), reported[len(reported)-1], n, n)
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

func TestForEachStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran int32
	err := ForEach(ctx, 10000, func(i int) error {
		if atomic.AddInt32(&ran, 1) == 5 {
			cancel()
		}
		return nil
	}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if n := atomic.LoadInt32(&ran); n > 100 {
		t.Errorf("%d indices ran after the cancel", n)
	}
}
