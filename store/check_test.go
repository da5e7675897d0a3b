package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/runtypes"
)

// copyDB copies the database file at path and its write-ahead log (not
// the shared-memory index: SQLite rebuilds it from the log, as after a
// crash) to a new directory, and returns the copy's path.
func copyDB(t *testing.T, path string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// commitFrames lists the 1-based numbers of the commit frames of the WAL
// of path.
func commitFrames(t *testing.T, path string) (frames []int, pageSize int) {
	t.Helper()
	b, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	pageSize = int(binary.BigEndian.Uint32(b[8:]))
	size := walFrameHeaderSize + pageSize
	for i := 0; walHeaderSize+(i+1)*size <= len(b); i++ {
		if binary.BigEndian.Uint32(b[walHeaderSize+i*size+4:]) != 0 {
			frames = append(frames, i+1)
		}
	}
	return frames, pageSize
}

func countRuns(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM runs").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// withDefaultLog sends slog's default logger to a buffer for the test.
func withDefaultLog(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return &buf
}

func TestOpenSaysLoudlyWhatADamagedWALLost(t *testing.T) {
	s, path := openTemp(t)
	w := addWorkload(t, s, "eapm")
	const runs = 20
	for range runs {
		addRun(t, s, w) // one transaction each, acknowledged
	}
	commits, pageSize := commitFrames(t, path)
	if len(commits) < runs+1 {
		t.Fatalf("the WAL holds %d commits, want at least %d (was it checkpointed?)", len(commits), runs+1)
	}

	// An undamaged copy: everything recovered, nothing reported lost.
	logs := withDefaultLog(t)
	clean := copyDB(t, path)
	cs, err := Open(clean)
	if err != nil {
		t.Fatal(err)
	}
	rep := cs.Opened()
	if rep.LostTransactions != 0 || rep.Damage != "" || rep.Recovered != len(commits) || len(rep.Problems()) != 0 {
		t.Errorf("an undamaged WAL of %d commits: %+v", len(commits), rep)
	}
	if n := countRuns(t, cs); n != runs {
		t.Errorf("the undamaged copy holds %d runs, want %d", n, runs)
	}
	cs.Close()
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("an undamaged WAL logged an error:\n%s", logs)
	}

	// Damage the first frame after the commit that ends 8 runs before the
	// last: SQLite keeps everything before it and drops the 8 runs after.
	const lost = 8
	damaged := copyDB(t, path)
	frame := commits[len(commits)-1-lost] + 1
	b, err := os.ReadFile(damaged + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	at := walHeaderSize + (frame-1)*(walFrameHeaderSize+pageSize) + walFrameHeaderSize + pageSize/2
	b[at] ^= 0xff
	if err := os.WriteFile(damaged+"-wal", b, 0o600); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	ds, err := Open(damaged)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rep = ds.Opened()
	if rep.LostTransactions != lost || rep.Recovered != len(commits)-lost {
		t.Errorf("damaged at frame %d: lost %d, recovered %d; want %d and %d (%+v)", frame, rep.LostTransactions, rep.Recovered, lost, len(commits)-lost, rep)
	}
	if n := countRuns(t, ds); n != runs-rep.LostTransactions {
		t.Errorf("the damaged copy holds %d runs; the report says %d of %d were lost", n, rep.LostTransactions, runs)
	}
	if !strings.Contains(rep.Damage, "fails its checksum") {
		t.Errorf("the damage is not named: %q", rep.Damage)
	}
	if p := rep.Problems(); len(p) != 1 || !strings.Contains(p[0], "8 committed transaction(s) in it were lost") {
		t.Errorf("problems: %q", p)
	}
	out := logs.String()
	if !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "lost_transactions=8") || !strings.Contains(out, "LOST") {
		t.Errorf("the loss was not logged at error level with its count:\n%s", out)
	}
}

func TestOpenReportsAWALWhoseHeaderIsDamaged(t *testing.T) {
	s, path := openTemp(t)
	w := addWorkload(t, s, "eapm")
	for range 5 {
		addRun(t, s, w)
	}
	commits, _ := commitFrames(t, path)
	damaged := copyDB(t, path)
	b, _ := os.ReadFile(damaged + "-wal")
	b[17] ^= 0x01 // salt-1: the header's checksum fails
	os.WriteFile(damaged+"-wal", b, 0o600)
	withDefaultLog(t)
	ds, err := Open(damaged)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rep := ds.Opened()
	if rep.LostTransactions != len(commits) || rep.Recovered != 0 || !strings.Contains(rep.Damage, "header") {
		t.Errorf("a WAL with a damaged header (%d commits): %+v", len(commits), rep)
	}
}

func TestCheckIntegrityOfAHealthyDatabase(t *testing.T) {
	s, _ := openTemp(t)
	addRun(t, s, addWorkload(t, s, "eapm"))
	res, err := s.CheckIntegrity(context.Background())
	if err != nil || res != "ok" || s.Opened().Integrity != "ok" || len(s.Opened().Problems()) != 0 {
		t.Fatalf("quick_check of a fresh database: %q, %v, %+v", res, err, s.Opened())
	}
}

func TestCheckIntegrityFindsADamagedPage(t *testing.T) {
	s, path := openTemp(t)
	w := addWorkload(t, s, "eapm")
	for range 200 {
		addRun(t, s, w)
	}
	if _, err := s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := int(binary.BigEndian.Uint16(b[16:]))
	if len(b) < 4*pageSize {
		t.Fatalf("the database has %d bytes, fewer than 4 pages", len(b))
	}
	// Scribble over the b-tree header of the last page (a page of runs
	// or of an index).
	last := len(b) - pageSize
	copy(b[last:last+12], []byte{0x0d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	withDefaultLog(t)
	ds, err := Open(path)
	if err != nil {
		t.Fatalf("a file with one damaged page must open, its damage reported by the integrity check: %v", err)
	}
	defer ds.Close()
	res, _ := ds.CheckIntegrity(context.Background())
	if res == "ok" {
		t.Fatal("quick_check found nothing on a damaged page")
	}
	if p := ds.Opened().Problems(); len(p) != 1 || !strings.Contains(p[0], "integrity check") {
		t.Errorf("problems: %q", p)
	}
}

func TestBackupHoldsTheSameRowsAndNeverOverwrites(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	w := addWorkload(t, s, "eapm")
	var ids []string
	for range 5 {
		ids = append(ids, addRun(t, s, w).ID)
	}
	if r, err := s.ClaimNext(ctx); err != nil || r.ID != ids[0] {
		t.Fatalf("claim: %v, %v", r, err)
	}
	if err := s.Finish(ctx, ids[0], runtypes.StatusDone, []byte(`{"metrics":[{"name":"profit","value":3.5}]}`), "", ""); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "backup.db")
	if err := s.Backup(ctx, out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the backup has a WAL beside it (%v): it must be one file", err)
	}
	bs, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer bs.Close()
	if n, m := countRuns(t, bs), countRuns(t, s); n != m || n != 5 {
		t.Fatalf("the backup holds %d runs, the database %d", n, m)
	}
	for _, id := range ids {
		a, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		b, err := bs.GetRun(ctx, id)
		if err != nil {
			t.Fatalf("run %s is not in the backup: %v", id, err)
		}
		if a.Status != b.Status || string(a.Report) != string(b.Report) || a.WorkloadID != b.WorkloadID || a.Seed != b.Seed {
			t.Errorf("run %s differs in the backup: %+v against %+v", id, b, a)
		}
	}
	if _, err := bs.GetWorkload(ctx, w.ID); err != nil {
		t.Errorf("the workload is not in the backup: %v", err)
	}

	before, _ := os.ReadFile(out)
	err = s.Backup(ctx, out)
	if !errs.Is(err, errs.Conflict) || !strings.Contains(err.Error(), "never overwrites") {
		t.Fatalf("a backup onto an existing file: %v", err)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Error("the refused backup changed the existing file")
	}
	if err := s.Backup(ctx, path); !errs.Is(err, errs.Conflict) {
		t.Errorf("a backup onto the database itself: %v", err)
	}
	if err := s.Backup(ctx, filepath.Join(t.TempDir(), "no", "such", "dir.db")); err == nil {
		t.Error("a backup into a missing directory succeeded")
	}
}

// TestOpenLogsAWALItCannotReadAsAnError: a write-ahead log that cannot be
// read (here a directory where the file should be) may hold committed
// transactions: Open says so at error level, not as a warning.
func TestOpenLogsAWALItCannotReadAsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unreadable.db")
	if err := os.Mkdir(path+"-wal", 0o700); err != nil {
		t.Fatal(err)
	}
	logs := withDefaultLog(t)
	if s, err := Open(path); err == nil {
		s.Close()
	}
	if out := logs.String(); !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "could not read the write-ahead log") {
		t.Errorf("an unreadable WAL was not logged at error level:\n%s", out)
	}
}

// TestOpenWarnsOfADroppedUnfinishedTransaction: a WAL whose last frames
// belong to a transaction that never committed (cut after its last
// commit frame's successor) recovers every commit and says at warning
// level that the unfinished one was dropped.
func TestOpenWarnsOfADroppedUnfinishedTransaction(t *testing.T) {
	s, path := openTemp(t)
	w := addWorkload(t, s, "eapm")
	for range 3 {
		addRun(t, s, w)
	}
	commits, pageSize := commitFrames(t, path)
	cp := copyDB(t, path)
	b, err := os.ReadFile(cp + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	// Append a copy of the first frame with its commit mark cleared: a
	// valid frame of a transaction that never finished (its checksum is
	// continued from the last frame's, as SQLite writes it).
	size := walFrameHeaderSize + pageSize
	last := commits[len(commits)-1]
	b = b[:walHeaderSize+last*size]
	frame := append([]byte(nil), b[walHeaderSize:walHeaderSize+size]...)
	binary.BigEndian.PutUint32(frame[4:], 0)
	lastHdr := b[walHeaderSize+(last-1)*size:]
	bigEndian := binary.BigEndian.Uint32(b[0:]) == walMagicBE
	c0, c1 := walChecksum(bigEndian, binary.BigEndian.Uint32(lastHdr[16:]), binary.BigEndian.Uint32(lastHdr[20:]), frame[:8])
	c0, c1 = walChecksum(bigEndian, c0, c1, frame[walFrameHeaderSize:])
	binary.BigEndian.PutUint32(frame[16:], c0)
	binary.BigEndian.PutUint32(frame[20:], c1)
	if err := os.WriteFile(cp+"-wal", append(b, frame...), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := withDefaultLog(t)
	ds, err := Open(cp)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rep := ds.Opened()
	if rep.LostTransactions != 0 || rep.LostFrames != 1 || rep.Recovered != len(commits) {
		t.Errorf("report %+v, want %d recovered, 1 unfinished frame, nothing lost", rep, len(commits))
	}
	if out := logs.String(); !strings.Contains(out, "level=WARN") || !strings.Contains(out, "unfinished_frames_dropped=1") {
		t.Errorf("the dropped unfinished transaction was not logged at warning level:\n%s", out)
	}
}
