// Package cache is schedlab's one in-memory cache: a map bounded by the
// bytes its values hold, which forgets the least recently used entry
// first (a Get counts as a use, not only a Put), safe for concurrent use.
//
// Sizes are the caller's count (a value's encoded length, say), not
// measured. An entry larger than the whole bound is not kept. Load makes
// concurrent misses of one key compute it once: the others wait for that
// result (a burst of clients opening one new result costs one render).
package cache

import (
	"container/list"
	"errors"
	"sync"
)

// errPanicked is what the waiters of a Load get when its load panicked.
var errPanicked = errors.New("cache: the load of this key panicked")

// LRU is a byte-bounded least-recently-used cache. Make it with New.
type LRU[K comparable, V any] struct {
	max int

	mu       sync.Mutex
	bytes    int
	order    *list.List // of *entry[K, V], most recently used first
	byKey    map[K]*list.Element
	inflight map[K]*flight[V]
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	size int
}

type flight[V any] struct {
	done chan struct{}
	val  V
	err  error
}

// New returns an empty cache holding values of at most maxBytes in all.
func New[K comparable, V any](maxBytes int) *LRU[K, V] {
	return &LRU[K, V]{max: maxBytes, order: list.New(), byKey: map[K]*list.Element{}, inflight: map[K]*flight[V]{}}
}

// Get returns the value under k and marks it used.
func (c *LRU[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*entry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// Put keeps v under k, counted as size bytes, replacing what k held, and
// forgets the least recently used entries beyond the bound. A value
// larger than the bound is not kept.
func (c *LRU[K, V]) Put(k K, v V, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		c.remove(e)
	}
	if size > c.max {
		return
	}
	c.byKey[k] = c.order.PushFront(&entry[K, V]{key: k, val: v, size: size})
	c.bytes += size
	for c.bytes > c.max {
		c.remove(c.order.Back())
	}
}

// Load returns the value under k, or computes it with load (value and
// size), keeps it when keep says so, and returns it. Concurrent Loads of
// one missing key call load once; the others get its result, error
// included. Errors are not kept.
func (c *LRU[K, V]) Load(k K, load func() (V, int, error), keep func(size int) bool) (V, error) {
	c.mu.Lock()
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*entry[K, V]).val, nil
	}
	if f, ok := c.inflight[k]; ok {
		c.mu.Unlock()
		<-f.done
		return f.val, f.err
	}
	f := &flight[V]{done: make(chan struct{})}
	c.inflight[k] = f
	c.mu.Unlock()
	var size int
	defer func() { // also when load panics: the waiters must not hang
		c.mu.Lock()
		delete(c.inflight, k)
		c.mu.Unlock()
		close(f.done)
	}()
	f.err = errPanicked // until load returns
	f.val, size, f.err = load()
	if f.err == nil && (keep == nil || keep(size)) {
		c.Put(k, f.val, size)
	}
	return f.val, f.err
}

// RemoveIf forgets every entry for which drop is true.
func (c *LRU[K, V]) RemoveIf(drop func(K, V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.order.Front(); e != nil; {
		next := e.Next()
		if en := e.Value.(*entry[K, V]); drop(en.key, en.val) {
			c.remove(e)
		}
		e = next
	}
}

// Bytes is the size of what the cache holds.
func (c *LRU[K, V]) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// remove forgets one entry; c.mu held.
func (c *LRU[K, V]) remove(e *list.Element) {
	en := c.order.Remove(e).(*entry[K, V])
	delete(c.byKey, en.key)
	c.bytes -= en.size
}
