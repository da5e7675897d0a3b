package runner

import (
	"container/list"
	"context"
	"sync"

	"schedlab/store"
)

// workloadCache keeps the workloads runs used last, so that the runs of a
// sweep, ten or a hundred per workload, read each from SQLite once.
// Workloads are never changed once stored (a new upload is a new
// workload), so a cached one is never stale; a deleted one takes its runs
// with it. It holds at most maxBytes of data; a workload larger than a
// quarter of that is not kept.
type workloadCache struct {
	maxBytes int

	mu    sync.Mutex
	bytes int
	order *list.List               // most recently used first; values are *store.Workload
	byID  map[string]*list.Element // into order
}

// workloadCacheBytes bounds the data the Runner keeps (see workloadCache).
const workloadCacheBytes = 64 << 20

func newWorkloadCache(maxBytes int) *workloadCache {
	return &workloadCache{maxBytes: maxBytes, order: list.New(), byID: map[string]*list.Element{}}
}

// get returns workload id from the cache, or reads it with read and keeps it.
func (c *workloadCache) get(ctx context.Context, id string, read func(context.Context, string) (*store.Workload, error)) (*store.Workload, error) {
	c.mu.Lock()
	if e := c.byID[id]; e != nil {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*store.Workload), nil
	}
	c.mu.Unlock()
	w, err := read(ctx, id)
	if err != nil || len(w.Data) > c.maxBytes/4 {
		return w, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID[id] != nil { // read by another worker meanwhile
		return w, nil
	}
	c.byID[id] = c.order.PushFront(w)
	c.bytes += len(w.Data)
	for c.bytes > c.maxBytes {
		last := c.order.Back()
		old := c.order.Remove(last).(*store.Workload)
		delete(c.byID, old.ID)
		c.bytes -= len(old.Data)
	}
	return w, nil
}
