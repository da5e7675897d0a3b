package cache

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"schedlab/flight"
)

func keys(c *LRU[string, int]) map[string]bool {
	out := map[string]bool{}
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		c.mu.Lock()
		_, ok := c.byKey[k]
		c.mu.Unlock()
		out[k] = ok
	}
	return out
}

// A Get counts as a use: the entry read last survives, the one neither
// read nor written since goes. FIFO would drop a (inserted first), and
// evicting the newest would drop d.
func TestEvictsLeastRecentlyUsedNotOldestNorNewest(t *testing.T) {
	c := New[string, int](30)
	c.Put("a", 1, 10)
	c.Put("b", 2, 10)
	c.Put("c", 3, 10)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %v, %v", v, ok)
	}
	c.Put("d", 4, 10)
	got := keys(c)
	if !got["a"] {
		t.Errorf("a, read after b and c were put, was evicted (FIFO)")
	}
	if got["b"] {
		t.Errorf("b, the least recently used, was kept")
	}
	if !got["c"] || !got["d"] {
		t.Errorf("kept %v: c and d were used after b", got)
	}
	if c.Bytes() != 30 {
		t.Errorf("Bytes = %d, want 30", c.Bytes())
	}
}

// Evicting goes on until the new entry fits, oldest use first.
func TestEvictsAsManyAsTheNewEntryNeeds(t *testing.T) {
	c := New[string, int](30)
	c.Put("a", 1, 10)
	c.Put("b", 2, 10)
	c.Put("c", 3, 10)
	c.Get("b")
	c.Put("d", 4, 20) // a then c go; b (used) stays
	got := keys(c)
	if got["a"] || got["c"] || !got["b"] || !got["d"] {
		t.Errorf("kept %v, want b and d", got)
	}
	if c.Bytes() != 30 {
		t.Errorf("Bytes = %d, want 30", c.Bytes())
	}
}

func TestPutReplacesAndTooLargeIsNotKept(t *testing.T) {
	c := New[string, int](30)
	c.Put("a", 1, 10)
	c.Put("a", 2, 15)
	if v, _ := c.Get("a"); v != 2 || c.Bytes() != 15 {
		t.Errorf("after replacing: a = %d, %d bytes; want 2, 15", v, c.Bytes())
	}
	c.Put("b", 3, 31)
	if _, ok := c.Get("b"); ok {
		t.Errorf("a value larger than the bound was kept")
	}
	if _, ok := c.Get("a"); !ok {
		t.Errorf("a value too large to keep evicted the others")
	}
}

func TestRemoveIf(t *testing.T) {
	c := New[string, int](100)
	for i, k := range []string{"a", "b", "c"} {
		c.Put(k, i, 10)
	}
	c.RemoveIf(func(k string, v int) bool { return v != 1 })
	if got := keys(c); got["a"] || !got["b"] || got["c"] || c.Bytes() != 10 {
		t.Errorf("kept %v (%d bytes), want b alone", got, c.Bytes())
	}
}

// Concurrent Loads of one key compute it once and all get its value;
// errors reach every waiter and are not kept. Run with -race.
func TestLoadComputesOnceForConcurrentMisses(t *testing.T) {
	c := New[string, int](100)
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	results := make([]int, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.Load("k", func() (int, int, error) {
				calls.Add(1)
				<-release
				return 42, 10, nil
			}, nil)
			if err != nil {
				t.Error(err)
			}
			results[i] = v
		}()
	}
	for calls.Load() == 0 { // wait until one Load is computing
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("load called %d times", calls.Load())
	}
	for _, v := range results {
		if v != 42 {
			t.Fatalf("results %v", results)
		}
	}
	if v, ok := c.Get("k"); !ok || v != 42 {
		t.Errorf("the loaded value was not kept")
	}
	boom := errors.New("boom")
	if _, err := c.Load("e", func() (int, int, error) { return 0, 1, boom }, nil); err != boom {
		t.Errorf("err %v", err)
	}
	if _, ok := c.Get("e"); ok {
		t.Errorf("a failed load was kept")
	}
	if _, err := c.Load("p", func() (int, int, error) { panic("boom") }, nil); !errors.Is(err, flight.ErrPanicked) {
		t.Errorf("a panicking load: %v, want flight.ErrPanicked", err)
	}
	if _, ok := c.Get("p"); ok {
		t.Errorf("a panicked load was kept")
	}
	c.Load("small", func() (int, int, error) { return 1, 50, nil }, func(n int) bool { return n < 50 })
	if _, ok := c.Get("small"); ok {
		t.Errorf("keep said no, the value was kept")
	}
}

// Concurrent Gets, Puts and RemoveIfs keep the byte count right and the
// bound held. Run with -race.
func TestConcurrentUseKeepsTheBound(t *testing.T) {
	c := New[string, int](500)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				k := fmt.Sprint((g*31 + i) % 97)
				c.Put(k, i, 1+i%20)
				c.Get(fmt.Sprint(i % 97))
				if i%100 == 0 {
					c.RemoveIf(func(_ string, v int) bool { return v%7 == 0 })
				}
			}
		}()
	}
	wg.Wait()
	sum := 0
	for e := c.order.Front(); e != nil; e = e.Next() {
		sum += e.Value.(*entry[string, int]).size
	}
	if sum != c.Bytes() || sum > 500 || len(c.byKey) != c.order.Len() {
		t.Errorf("sizes sum to %d, Bytes %d (bound 500), %d keys, %d in order", sum, c.Bytes(), len(c.byKey), c.order.Len())
	}
}
