package solvers

import (
	"context"
	"sync"

	"schedlab/flight"
)

// Memo keeps values computed once per key and shared by every caller
// afterwards: the decoded form of a Workload's Data (Workload.Decoded).
// A shared value is read-only: a run that needs to change part of it (a
// run parameter that overrides a field of the instance) copies that part
// first. A nil *Memo keeps nothing: Get calls compute every time. A Memo
// keeps at most MemoEntries keys; past them, a new key is computed and
// not kept. Memo is safe for concurrent use; callers of one key wait for
// its one compute (package flight), and a compute that panicked is every
// caller's *flight.PanicError and is not kept.
type Memo struct {
	flights flight.Group[any]

	mu sync.Mutex
	m  map[string]memoResult
}

type memoResult struct {
	v   any
	err error
}

// MemoEntries bounds the keys one Memo keeps: a workload's decoded
// instance and a few derived values per run setting (EAPM's LP bound per
// γ), so a sweep over thousands of settings of one workload keeps the
// first thousand.
const MemoEntries = 1024

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{m: map[string]memoResult{}} }

// Get returns compute's result for key, computing it on the first call
// only. An error is kept too: the same Data decodes to the same error.
func (m *Memo) Get(key string, compute func() (any, error)) (any, error) {
	if m == nil {
		return compute()
	}
	if r, ok := m.kept(key); ok {
		return r.v, r.err
	}
	return m.flights.Do(context.Background(), key, func() (any, error) {
		if r, ok := m.kept(key); ok { // kept by a flight that ended since
			return r.v, r.err
		}
		v, err := compute()
		m.mu.Lock()
		if len(m.m) < MemoEntries {
			m.m[key] = memoResult{v, err}
		}
		m.mu.Unlock()
		return v, err
	})
}

func (m *Memo) kept(key string) (memoResult, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.m[key]
	return r, ok
}
