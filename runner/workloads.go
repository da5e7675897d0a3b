package runner

import (
	"context"

	"schedlab/cache"
	"schedlab/runtypes"
	"schedlab/solvers"
)

// workloadCache keeps the workloads runs used last, so that the runs of a
// sweep, ten or a hundred per workload, read each from SQLite once and
// decode it once: a cached workload is one *solvers.Workload, handed to
// every run of it, with a Decoded memo where its family keeps the decoded
// instance (bounded with the workload: the memo goes when it does).
// Workloads are never changed once stored (a new upload is a new
// workload), so a cached one is never stale; a deleted one takes its runs
// with it. It holds at most maxBytes of data, least recently used out
// first; a workload larger than a quarter of that is not kept.
type workloadCache struct {
	maxBytes int
	lru      *cache.LRU[string, *solvers.Workload]
}

// workloadCacheBytes bounds the data the Runner keeps (see workloadCache).
const workloadCacheBytes = 64 << 20

func newWorkloadCache(maxBytes int) *workloadCache {
	return &workloadCache{maxBytes: maxBytes, lru: cache.New[string, *solvers.Workload](maxBytes)}
}

// get returns workload id from the cache, or reads it with read and keeps
// it; concurrent misses of one workload read it once (without the first
// one's cancellation, which must not fail the others).
func (c *workloadCache) get(ctx context.Context, id string, read func(context.Context, string) (*runtypes.Workload, error)) (*solvers.Workload, error) {
	return c.lru.Load(id, func() (*solvers.Workload, int, error) {
		sw, err := read(context.WithoutCancel(ctx), id)
		if err != nil {
			return nil, 0, err
		}
		w := &solvers.Workload{Name: sw.Name, Format: sw.Format, Summary: sw.Summary, Data: sw.Data}
		if len(w.Data) <= c.maxBytes/4 {
			w.Decoded = solvers.NewMemo()
		}
		return w, len(w.Data), nil
	}, func(size int) bool { return size <= c.maxBytes/4 })
}
