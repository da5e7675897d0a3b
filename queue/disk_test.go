package queue_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"schedlab/queue/queuetest"
	"schedlab/runtypes"
	"schedlab/store"
)

// The database's disk fills while a sweep executes in worker processes:
// the dispatcher meets SQLITE_FULL storing results, holds them in the
// results stream (unacknowledged) and claims nothing; once space returns
// every run is stored done, none lost or failed.
func TestResultsAreHeldWhileTheDiskIsFullAndStoredWhenSpaceReturns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	disk := s.st.Disk()
	disk.SetMinFree(0) // the machine's free space is not the subject: SQLITE_FULL is

	// Cap the database at its size and use up what is left, before any
	// run ends: SQLite itself refuses every new page from here on.
	if err := s.st.SetMaxPages(ctx, 1); err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 64<<10)
	for i := 0; ; i++ {
		w := &runtypes.Workload{Strategy: queuetest.Name, Name: "pad", Format: "json", Data: []byte(fmt.Sprintf(`{"n":%d,"p":%q}`, i+1, pad))}
		if err := s.st.CreateWorkload(ctx, w); err != nil {
			if !store.IsFull(err) {
				t.Fatal(err)
			}
			break
		}
		if i == 100 {
			t.Fatal("100 workloads of 64 KiB fit in a database capped at its size")
		}
	}
	// The sweep's own rows need room too: lift the cap for them only.
	if err := s.st.SetMaxPages(ctx, 0); err != nil {
		t.Fatal(err)
	}
	const n = 300
	ids := sweep(t, s, n, queuetest.VariantOK, nil)
	if err := s.st.SetMaxPages(ctx, 1); err != nil {
		t.Fatal(err)
	}
	startWorker(t, s, filepath.Join(dir, "exec.log"), "--concurrency", "4")

	for deadline := time.Now().Add(time.Minute); disk.Status().State != store.DiskFull; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the dispatcher did not meet the full disk: %+v", disk.Status())
		}
	}
	held := 0
	for _, id := range ids {
		r, err := s.st.GetRunInfo(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		switch r.Status {
		case runtypes.StatusQueued, runtypes.StatusRunning:
			held++
		case runtypes.StatusDone:
		default:
			t.Errorf("run %s is %s %q while the disk is full: a result must wait, not fail", r.ID, r.Status, r.Error)
		}
	}
	if held == 0 {
		t.Fatal("every run was stored on a full database")
	}

	// Space returns; the next check of the disk clears the state.
	if err := s.st.SetMaxPages(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if st := disk.Check(ctx); st.State != store.DiskOK {
		t.Fatalf("after space returned: %+v", st)
	}
	for id, r := range waitFinal(t, s.st, ids, time.Minute) {
		if r.Status != runtypes.StatusDone {
			t.Errorf("run %s after space returned: %s %q", id, r.Status, r.Error)
		}
	}
}
