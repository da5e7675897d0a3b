package runner

import (
	"container/list"
	"context"
	"sync"

	"schedlab/solvers"
	"schedlab/store"
)

// workloadCache keeps the workloads runs used last, so that the runs of a
// sweep, ten or a hundred per workload, read each from SQLite once and
// decode it once: a cached workload is one *solvers.Workload, handed to
// every run of it, with a Decoded memo where its family keeps the decoded
// instance (bounded with the workload: the memo goes when it does).
// Workloads are never changed once stored (a new upload is a new
// workload), so a cached one is never stale; a deleted one takes its runs
// with it. It holds at most maxBytes of data; a workload larger than a
// quarter of that is not kept.
type workloadCache struct {
	maxBytes int

	mu    sync.Mutex
	bytes int
	order *list.List               // most recently used first; values are *cached
	byID  map[string]*list.Element // into order
}

type cached struct {
	id string
	w  *solvers.Workload
}

// workloadCacheBytes bounds the data the Runner keeps (see workloadCache).
const workloadCacheBytes = 64 << 20

func newWorkloadCache(maxBytes int) *workloadCache {
	return &workloadCache{maxBytes: maxBytes, order: list.New(), byID: map[string]*list.Element{}}
}

// get returns workload id from the cache, or reads it with read and keeps it.
func (c *workloadCache) get(ctx context.Context, id string, read func(context.Context, string) (*store.Workload, error)) (*solvers.Workload, error) {
	c.mu.Lock()
	if e := c.byID[id]; e != nil {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*cached).w, nil
	}
	c.mu.Unlock()
	sw, err := read(ctx, id)
	if err != nil {
		return nil, err
	}
	w := &solvers.Workload{Name: sw.Name, Format: sw.Format, Summary: sw.Summary, Data: sw.Data}
	if len(w.Data) > c.maxBytes/4 {
		return w, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.byID[id]; e != nil { // read by another worker meanwhile
		return e.Value.(*cached).w, nil
	}
	w.Decoded = solvers.NewMemo()
	c.byID[id] = c.order.PushFront(&cached{id: id, w: w})
	c.bytes += len(w.Data)
	for c.bytes > c.maxBytes {
		last := c.order.Back()
		old := c.order.Remove(last).(*cached)
		delete(c.byID, old.id)
		c.bytes -= len(old.w.Data)
	}
	return w, nil
}
