package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"schedlab/runtypes"
	"schedlab/store"
)

// fillDisk caps st at its size and writes until SQLite refuses a page;
// it returns that SQLITE_FULL error.
func fillDisk(t *testing.T, st *store.Store) error {
	t.Helper()
	ctx := context.Background()
	if err := st.SetMaxPages(ctx, 1); err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 64<<10)
	for i := range 100 {
		w := &runtypes.Workload{Strategy: fakeName, Name: "pad", Format: "json", Data: []byte(fmt.Sprintf(`{"n":%d,"pad":%q}`, i+1, pad))}
		if err := st.CreateWorkload(ctx, w); err != nil {
			if !store.IsFull(err) {
				t.Fatalf("filling the disk: %v", err)
			}
			return err
		}
	}
	t.Fatal("100 workloads of 64 KiB fit in a database capped at its size")
	return nil
}

func TestWorkersClaimNothingWhileTheDiskIsFullAndResumeAfter(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, Options{Workers: 1})
	queued := e.submit(t, "ok", nil)
	disk := e.st.Disk()
	disk.SetMinFree(0)
	if !disk.Full(fillDisk(t, e.st)) {
		t.Fatal("the disk did not take SQLITE_FULL")
	}
	run, _, err := e.rn.b.(*pool).next(ctx)
	if run != nil || err != nil {
		t.Fatalf("a worker claimed %v (%v) while the disk is full", run, err)
	}
	if r, _ := e.st.GetRunInfo(ctx, queued.ID); r.Status != runtypes.StatusQueued {
		t.Fatalf("the queued run is %s", r.Status)
	}
	if err := e.st.SetMaxPages(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if st := disk.Check(ctx); st.State != store.DiskOK {
		t.Fatalf("after space returned: %+v", st)
	}
	run, _, err = e.rn.b.(*pool).next(ctx)
	if err != nil || run == nil || run.ID != queued.ID {
		t.Fatalf("after space returned the worker claimed %v (%v), want %s", run, err, queued.ID)
	}
}
