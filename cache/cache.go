// Package cache is schedlab's one in-memory cache: a map bounded by the
// bytes its values hold, which forgets the least recently used entry
// first (a Get counts as a use, not only a Put), safe for concurrent use.
//
// Sizes are the caller's count (a value's encoded length, say), not
// measured. An entry larger than the whole bound is not kept. Load makes
// concurrent misses of one key compute it once (package flight): the
// others wait for that result (a burst of clients opening one new result
// costs one render).
package cache

import (
	"container/list"
	"context"
	"sync"

	"schedlab/flight"
)

// LRU is a byte-bounded least-recently-used cache. Make it with New.
type LRU[K ~string, V any] struct {
	max     int
	flights flight.Group[V]

	mu    sync.Mutex
	bytes int
	order *list.List // of *entry[K, V], most recently used first
	byKey map[K]*list.Element
}

type entry[K ~string, V any] struct {
	key  K
	val  V
	size int
}

// New returns an empty cache holding values of at most maxBytes in all.
func New[K ~string, V any](maxBytes int) *LRU[K, V] {
	return &LRU[K, V]{max: maxBytes, order: list.New(), byKey: map[K]*list.Element{}}
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
// included, and a panic of load as a *flight.PanicError. Errors are not
// kept.
func (c *LRU[K, V]) Load(k K, load func() (V, int, error), keep func(size int) bool) (V, error) {
	if v, ok := c.Get(k); ok {
		return v, nil
	}
	return c.flights.Do(context.Background(), string(k), func() (V, error) {
		if v, ok := c.Get(k); ok { // kept by a flight that ended since
			return v, nil
		}
		v, size, err := load()
		if err == nil && (keep == nil || keep(size)) {
			c.Put(k, v, size)
		}
		return v, err
	})
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
