package runner

import (
	"context"
	"errors"
	"schedlab/runtypes"
	"strings"
	"testing"
)

func TestWorkloadCacheReadsEachOnceAndEvictsTheLeastRecentlyUsed(t *testing.T) {
	reads := map[string]int{}
	size := map[string]int{"a": 25, "b": 25, "c": 25, "d": 25, "e": 25, "big": 26, "gone": 1}
	read := func(_ context.Context, id string) (*runtypes.Workload, error) {
		reads[id]++
		if id == "gone" {
			return nil, errors.New("no such workload")
		}
		return &runtypes.Workload{ID: id, Name: id, Data: []byte(strings.Repeat("x", size[id]))}, nil
	}
	c := newWorkloadCache(100)
	get := func(id string) {
		t.Helper()
		w, err := c.get(context.Background(), id, read)
		if id == "gone" {
			if err == nil {
				t.Fatal("a failed read returned no error")
			}
			return
		}
		if err != nil || w.Name != id || len(w.Data) != size[id] {
			t.Fatalf("get(%s) = %+v, %v", id, w, err)
		}
	}
	for _, id := range []string{"a", "b", "a", "c", "d", "a", "b", "c", "d"} {
		get(id)
	}
	if reads["a"] != 1 || reads["b"] != 1 || reads["c"] != 1 || reads["d"] != 1 || c.lru.Bytes() != 100 {
		t.Fatalf("reads %v, %d bytes kept; want each read once and 100 bytes", reads, c.lru.Bytes())
	}
	get("big") // 26 bytes > 100/4: read, not kept
	get("big")
	if reads["big"] != 2 || c.lru.Bytes() != 100 {
		t.Errorf("a workload over a quarter of the cache: read %d times, %d bytes kept; want 2 and 100", reads["big"], c.lru.Bytes())
	}
	get("gone")
	get("gone")
	if reads["gone"] != 2 {
		t.Errorf("a failed read was cached")
	}
	// Last used: a, b, c, d in that order. e makes 125 bytes: a, the
	// least recently used, goes.
	get("e")
	get("b")
	get("c")
	get("d")
	if reads["b"] != 1 || reads["c"] != 1 || reads["d"] != 1 {
		t.Errorf("b, c or d was evicted: reads %v", reads)
	}
	get("a")
	if reads["a"] != 2 {
		t.Errorf("a, the least recently used, was kept: reads %v", reads)
	}
	if c.lru.Bytes() > c.maxBytes {
		t.Errorf("%d bytes kept, over the bound %d", c.lru.Bytes(), c.maxBytes)
	}
	// The runs of a cached workload share one Workload and its memo.
	w1, _ := c.get(context.Background(), "a", read)
	w2, _ := c.get(context.Background(), "a", read)
	if w1 != w2 || w1.Decoded == nil {
		t.Errorf("two gets of a cached workload: %p and %p, memo %v; want one Workload with a memo", w1, w2, w1.Decoded)
	}
}
