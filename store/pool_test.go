package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/runtypes"
)

func TestOpenBoundsThePoolOfAFileDatabase(t *testing.T) {
	s, _ := openTemp(t)
	if got := s.db.Stats().MaxOpenConnections; got != MaxOpenConns {
		t.Errorf("MaxOpenConnections = %d, want %d", got, MaxOpenConns)
	}
	m, err := Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := m.db.Stats().MaxOpenConnections; got != 1 {
		t.Errorf(":memory: MaxOpenConnections = %d, want 1", got)
	}
}

// TestConcurrentWritersAndReadersNeverFailOrDeadlock drives the store as a
// busy server does: many goroutines creating, claiming, finishing and
// deleting runs while as many read lists and reports, all through the
// bounded pool. Every call must succeed (no SQLITE_BUSY, no deadlock on the
// pool) within the deadline.
func TestConcurrentWritersAndReadersNeverFailOrDeadlock(t *testing.T) {
	s, _ := openTemp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w := addWorkload(t, s, "eapm")
	const writers, readers, perWriter = 24, 24, 15
	report := json.RawMessage(`{"metrics":[{"name":"x","value":1}]}`)
	var wg sync.WaitGroup
	errc := make(chan error, writers*perWriter*4+readers)
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < perWriter; j++ {
				r, err := s.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: "eapm", Variant: "online"})
				if err != nil {
					errc <- err
					return
				}
				c, err := s.ClaimNext(ctx)
				if err != nil {
					errc <- err
					return
				}
				if c == nil {
					continue // another writer claimed ours and more
				}
				if err := s.SetProgress(ctx, c.ID, 1, 2, "half"); err != nil {
					errc <- err
					return
				}
				if err := s.Finish(ctx, c.ID, runtypes.StatusDone, report, "", ""); err != nil {
					errc <- err
					return
				}
				if j%3 == 0 {
					if err := s.DeleteRun(ctx, c.ID); err != nil {
						errc <- err
						return
					}
				}
				_ = r
			}
		}()
	}
	stop := make(chan struct{})
	var rg sync.WaitGroup
	for i := 0; i < readers; i++ {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				runs, err := s.ListRuns(ctx, RunFilter{Limit: 20})
				if err != nil {
					errc <- err
					return
				}
				for _, r := range runs[:min(3, len(runs))] {
					if _, err := s.GetRun(ctx, r.ID); err != nil && !errs.Is(err, errs.NotFound) {
						errc <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	rg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	// Whatever is still queued is claimable: the claim saw no stale snapshot.
	for {
		c, err := s.ClaimNext(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if c == nil {
			break
		}
	}
}

// codeErr stands for a driver error carrying an SQLite result code.
type codeErr int

func (e codeErr) Error() string { return "sqlite code " + strconv.Itoa(int(e)) }
func (e codeErr) Code() int     { return int(e) }

func TestRetryBusyRetriesOnlyBusyAndStopsAfterTheBound(t *testing.T) {
	ctx := context.Background()
	const busySnapshot = 5 | 2<<8 // SQLITE_BUSY_SNAPSHOT
	calls := 0
	err := retryBusy(ctx, func() error {
		calls++
		if calls < 3 {
			return fmt.Errorf("claim: %w", codeErr(busySnapshot))
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("busy twice then ok: err %v after %d calls, want nil after 3", err, calls)
	}
	calls = 0
	err = retryBusy(ctx, func() error { calls++; return codeErr(5) })
	if !isBusy(err) || calls != busyAttempts {
		t.Errorf("always busy: err %v after %d calls, want busy after %d", err, calls, busyAttempts)
	}
	calls = 0
	err = retryBusy(ctx, func() error { calls++; return codeErr(19) }) // SQLITE_CONSTRAINT
	if err == nil || calls != 1 {
		t.Errorf("constraint error: err %v after %d calls, want it at once", err, calls)
	}
}
