package solvers

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"schedlab/flight"
)

func TestMemoComputesEachKeyOnceAcrossGoroutines(t *testing.T) {
	m := NewMemo()
	var calls atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := m.Get("k", func() (any, error) { calls.Add(1); return 42, nil })
			if err != nil || v.(int) != 42 {
				t.Errorf("got %v, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("computed %d times, want 1", calls.Load())
	}
	v, _ := m.Get("other", func() (any, error) { return "x", nil })
	if v.(string) != "x" {
		t.Fatalf("second key gave %v", v)
	}
}

func TestMemoKeepsErrorsAndNilMemoComputesEveryTime(t *testing.T) {
	m := NewMemo()
	bad := errors.New("bad data")
	n := 0
	for i := 0; i < 3; i++ {
		if _, err := m.Get("k", func() (any, error) { n++; return nil, bad }); err != bad {
			t.Fatalf("error %v, want %v", err, bad)
		}
	}
	if n != 1 {
		t.Fatalf("an error was computed %d times", n)
	}
	var none *Memo
	n = 0
	for i := 0; i < 3; i++ {
		none.Get("k", func() (any, error) { n++; return 1, nil })
	}
	if n != 3 {
		t.Fatalf("a nil Memo computed %d times, want 3", n)
	}
}

func TestMemoKeepsAtMostMemoEntriesKeys(t *testing.T) {
	m := NewMemo()
	n := 0
	for i := 0; i < MemoEntries+10; i++ {
		m.Get(string(rune('a'+i%26))+string(rune(i)), func() (any, error) { n++; return i, nil })
	}
	if len(m.m) != MemoEntries {
		t.Fatalf("%d keys kept, want %d", len(m.m), MemoEntries)
	}
	over := 0
	for i := 0; i < 2; i++ {
		v, _ := m.Get("one more", func() (any, error) { over++; return "x", nil })
		if v != "x" {
			t.Fatalf("a key past the bound gave %v", v)
		}
	}
	if over != 2 {
		t.Fatalf("a key past the bound was computed %d times in 2 calls, want 2 (not kept)", over)
	}
}

// A compute that panics is the caller's *flight.PanicError, not a value
// kept as nil: the next Get computes again.
func TestMemoDoesNotKeepAPanic(t *testing.T) {
	m := NewMemo()
	if _, err := m.Get("k", func() (any, error) { panic("decoder bug") }); !errors.Is(err, flight.ErrPanicked) {
		t.Fatalf("a panicking compute: %v, want flight.ErrPanicked", err)
	}
	if v, err := m.Get("k", func() (any, error) { return 7, nil }); err != nil || v != 7 {
		t.Fatalf("after the panic: %v, %v: the panic was kept", v, err)
	}
}
