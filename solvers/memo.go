package solvers

import "sync"

// Memo keeps values computed once per key and shared by every caller
// afterwards: the decoded form of a Workload's Data (Workload.Decoded).
// A shared value is read-only: a run that needs to change part of it (a
// run parameter that overrides a field of the instance) copies that part
// first. A nil *Memo keeps nothing: Get calls compute every time. A Memo
// keeps at most MemoEntries keys; past them, a new key is computed and
// not kept. Memo is safe for concurrent use; callers of one key wait for
// its one compute.
type Memo struct {
	mu sync.Mutex
	m  map[string]*memoEntry
}

type memoEntry struct {
	once sync.Once
	v    any
	err  error
}

// MemoEntries bounds the keys one Memo keeps: a workload's decoded
// instance and a few derived values per run setting (EAPM's LP bound per
// γ), so a sweep over thousands of settings of one workload keeps the
// first thousand.
const MemoEntries = 1024

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{m: map[string]*memoEntry{}} }

// Get returns compute's result for key, computing it on the first call
// only. An error is kept too: the same Data decodes to the same error.
func (m *Memo) Get(key string, compute func() (any, error)) (any, error) {
	if m == nil {
		return compute()
	}
	m.mu.Lock()
	e := m.m[key]
	if e == nil {
		if len(m.m) >= MemoEntries {
			m.mu.Unlock()
			return compute()
		}
		e = &memoEntry{}
		m.m[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v, e.err = compute() })
	return e.v, e.err
}
