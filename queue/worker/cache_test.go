package worker

import (
	"testing"

	"schedlab/cache"
)

// TestRememberSharesOneMemoAndKeepsTheRecentlyUsed: the runs of one
// workload share its memo; a workload larger than CacheBytes is not kept;
// past the bound the least recently used workload goes, not the oldest.
func TestRememberSharesOneMemoAndKeepsTheRecentlyUsed(t *testing.T) {
	w := &worker{cfg: Config{CacheBytes: 10}, cache: cache.New[string, cachedWorkload](10)}
	_, m1 := w.remember("a", []byte("aaaa"))
	if _, m2 := w.remember("a", []byte("aaaa")); m1 == nil || m2 != m1 {
		t.Fatalf("two remembers of one workload: memos %p and %p, want one shared", m1, m2)
	}
	if _, m := w.remember("big", make([]byte, 11)); m != nil {
		t.Errorf("a workload over CacheBytes got a memo: it was kept")
	}
	w.remember("b", []byte("bbbb"))
	w.cache.Get("a") // a used after b
	w.remember("c", []byte("cccc"))
	if _, ok := w.cache.Get("a"); !ok {
		t.Errorf("the recently used workload a was evicted")
	}
	if _, ok := w.cache.Get("b"); ok {
		t.Errorf("the least recently used workload b was kept past CacheBytes")
	}
}
