package store

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/runtypes"
)

// fixedFree makes d see free bytes on its file system, whatever the
// machine's disk has.
func fixedFree(d *Disk, free *int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.free = func(string) (int64, error) { return *free, nil }
}

// captureLog sends d's log to a buffer.
func captureLog(d *Disk) *bytes.Buffer {
	var buf bytes.Buffer
	d.SetLogger(slog.New(slog.NewTextHandler(&buf, nil)))
	return &buf
}

// fill writes workloads of 64 KiB until the database refuses one, and
// returns that error (nil if 200 fit).
func fill(t *testing.T, s *Store) error {
	t.Helper()
	data := []byte(`["` + strings.Repeat("x", 64<<10) + `"]`)
	for i := range 200 {
		d := append([]byte(nil), data...)
		d[2] = 'a' + byte(i%26) // a new sha256 each time
		d[3] = 'a' + byte(i/26)
		w := &runtypes.Workload{Strategy: "eapm", Name: "big", Format: "json", Summary: "s", Data: d}
		if err := s.CreateWorkload(context.Background(), w); err != nil {
			return err
		}
	}
	return nil
}

func TestAFullDatabaseIsNoSpaceAndClearsByItselfWhenSpaceReturns(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	d := s.Disk()
	free := int64(1 << 30)
	fixedFree(d, &free)
	logs := captureLog(d)
	if st := d.Check(ctx); st.State != DiskOK || d.Refuse() != nil || d.Paused() {
		t.Fatalf("a fresh database: %+v, refuse %v", st, d.Refuse())
	}

	if err := s.SetMaxPages(ctx, 1); err != nil { // SQLite keeps the pages in use
		t.Fatal(err)
	}
	err := fill(t, s)
	if err == nil {
		t.Fatal("200 workloads of 64 KiB fit in a database capped at its size")
	}
	if !IsFull(err) || !errs.Is(err, errs.NoSpace) {
		t.Fatalf("a write past the cap: kind %v, IsFull %v: %v", errs.KindOf(err), IsFull(err), err)
	}
	if !strings.Contains(err.Error(), "disk holding the database is full") {
		t.Errorf("the error does not say the disk is full: %v", err)
	}
	if d.Full(errs.Invalidf("x", "not a disk error")) {
		t.Error("Full took an error that is not SQLITE_FULL")
	}
	if !d.Full(err) || !d.Full(err) {
		t.Fatal("Full did not take SQLITE_FULL")
	}
	if st := d.Status(); st.State != DiskFull || !d.Paused() {
		t.Fatalf("after SQLITE_FULL: %+v", st)
	}
	if r := d.Refuse(); !errs.Is(r, errs.NoSpace) || !strings.Contains(r.Error(), "resumes by itself") {
		t.Fatalf("Refuse while full: %v", r)
	}
	// Free space on the file system is not enough: the write probe still fails.
	if st := d.Check(ctx); st.State != DiskFull {
		t.Fatalf("a check while the database is still at its cap: %+v", st)
	}
	if n := strings.Count(logs.String(), "level=ERROR"); n != 1 {
		t.Errorf("the full state was logged %d times, want once:\n%s", n, logs)
	}

	if err := s.SetMaxPages(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if st := d.Check(ctx); st.State != DiskOK || d.Refuse() != nil {
		t.Fatalf("a check after the cap is lifted: %+v", st)
	}
	if !strings.Contains(logs.String(), "disk space is back") {
		t.Errorf("the recovery was not logged:\n%s", logs)
	}
	if err := fill(t, s); err != nil {
		t.Fatalf("writes after space returned: %v", err)
	}
	// The probe stored nothing.
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = 'schedlab_disk_probe'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the probe's table is in the schema (%d, %v)", n, err)
	}
}

func TestFreeSpaceUnderTheThresholdIsLowUntilItReturns(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	d := s.Disk()
	d.SetMinFree(32 << 20)
	free := int64(10 << 20)
	fixedFree(d, &free)
	logs := captureLog(d)
	st := d.Check(ctx)
	d.Check(ctx)
	if st.State != DiskLow || st.FreeBytes != free || st.MinFreeBytes != 32<<20 {
		t.Fatalf("10 MiB free under 32: %+v", st)
	}
	r := d.Refuse()
	if !errs.Is(r, errs.NoSpace) || !strings.Contains(r.Error(), "10.0 MiB free, under the 32.0 MiB") {
		t.Fatalf("Refuse while low: %v", r)
	}
	if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
		t.Errorf("the low state was logged %d times over two checks, want once:\n%s", n, logs)
	}
	free = 33 << 20
	if st := d.Check(ctx); st.State != DiskOK {
		t.Fatalf("33 MiB free over 32: %+v", st)
	}
	d.SetMinFree(0)
	free = 0
	if st := d.Check(ctx); st.State != DiskOK {
		t.Fatalf("with the threshold off, nothing free is not low: %+v", st)
	}
}
