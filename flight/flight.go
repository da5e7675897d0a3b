// Package flight is schedlab's one compute-once helper: concurrent
// callers of one key share a single computation (golang.org/x/sync's
// singleflight underneath), with the cancel and panic behaviour every
// user gets alike:
//
//   - Cancel: the computation runs detached from the callers. A caller
//     whose context ends returns its context's error at once; the
//     computation goes on for the others (it sees a context only if the
//     function it was given closes over one).
//   - Panic: a panic in the computation is recovered and returned to every
//     caller of that flight as a *PanicError (errors.Is ErrPanicked), with
//     the stack. It is never re-raised: singleflight's own DoChan ends the
//     process on a panic, and a waiter must not hang or crash for the
//     computation it shared.
//   - Nothing is kept: once the computation returns, the next call for the
//     key computes again. Keeping results is the caller's (cache.LRU,
//     solvers.Memo).
//
// Users: cache.LRU.Load (a page or report rendered once for a burst of
// clients), solvers.Memo (a workload decoded once per process) and
// execute.Generations (a workload generated once however many runs need
// it).
package flight

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"golang.org/x/sync/singleflight"
)

// ErrPanicked is what errors.Is finds in the error of a computation that
// panicked.
var ErrPanicked = errors.New("the computation panicked")

// PanicError is the error every caller of a panicked computation gets.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the computation's stack when it panicked
}

func (e *PanicError) Error() string { return fmt.Sprintf("%v: %v", ErrPanicked, e.Value) }

// Unwrap makes errors.Is(err, ErrPanicked) true.
func (e *PanicError) Unwrap() error { return ErrPanicked }

// Group runs one computation per key at a time. The zero Group is ready.
type Group[V any] struct {
	g singleflight.Group
}

// Do returns fn's result for key: the first caller starts fn; callers of
// key while it runs wait for the same result, error included. A caller
// whose ctx ends first returns ctx.Err().
func (g *Group[V]) Do(ctx context.Context, key string, fn func() (V, error)) (V, error) {
	ch := g.g.DoChan(key, func() (v any, err error) {
		defer func() {
			if p := recover(); p != nil {
				v, err = nil, &PanicError{Value: p, Stack: debug.Stack()}
			}
		}()
		return fn()
	})
	select {
	case r := <-ch:
		v, _ := r.Val.(V)
		return v, r.Err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}
