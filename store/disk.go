package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"schedlab/runtypes"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"schedlab/errs"
)

// Disk states (DiskStatus.State).
const (
	// DiskOK: writes work and the free space is at least the threshold.
	DiskOK = "ok"
	// DiskLow: the free space of the database's file system is under the
	// threshold. Writes still work: the work in flight is stored, nothing
	// new is taken (new runs, uploads and experiments are refused, workers
	// claim nothing), so that what is running can finish.
	DiskLow = "low"
	// DiskFull: a write failed with SQLITE_FULL ("database or disk is
	// full"). Nothing can be stored until space is freed; results held by
	// the workers wait.
	DiskFull = "full"
)

// DefaultMinFree is the free space, in bytes, under which the disk is
// DiskLow: room for the write-ahead log between checkpoints (about 4 MiB
// at SQLite's 1,000-page auto-checkpoint), a few reports of several MiB,
// and the NATS queue's store, which lives beside the database.
const DefaultMinFree = 32 << 20

// DiskStatus is the state of the disk holding the database, as /healthz
// reports it.
type DiskStatus struct {
	State  string `json:"state"`            // DiskOK, DiskLow or DiskFull
	Reason string `json:"reason,omitempty"` // in words, when not ok
	// FreeBytes is the space left to an unprivileged writer on the
	// database's file system at the last check (-1: unknown on this system).
	FreeBytes int64 `json:"free_bytes"`
	// MinFreeBytes is the threshold under which the disk is DiskLow (0: off).
	MinFreeBytes int64 `json:"min_free_bytes"`
	// Since is when the state began.
	Since time.Time `json:"since"`
}

// probeBytes is how much the write probe of a full disk allocates (and
// rolls back): more than the probe connection's page cache, so SQLite
// writes it to the write-ahead log and meets a full file system as a real
// write would.
const probeBytes = 1 << 20

// Disk watches the space of the database's file system. Writers report a
// failed write (Full); Check, which Watch calls periodically, measures the
// free space (statfs) and, while the disk is full, tries a write of
// probeBytes that it rolls back, so the state clears by itself once space
// returns. It is safe for
// concurrent use.
type Disk struct {
	st  *Store
	dir string

	mu      sync.Mutex
	minFree int64
	status  DiskStatus
	log     *slog.Logger
	// free reports the bytes available on the file system of dir
	// (freeSpace; tests replace it).
	free func(dir string) (int64, error)
}

func newDisk(s *Store, path string) *Disk {
	return &Disk{st: s, dir: filepath.Dir(path), minFree: DefaultMinFree, log: slog.Default(), free: freeSpace,
		status: DiskStatus{State: DiskOK, FreeBytes: -1, MinFreeBytes: DefaultMinFree, Since: time.Now()}}
}

// Disk returns the watcher of the database's disk.
func (s *Store) Disk() *Disk { return s.disk }

// SetMinFree sets the threshold of DiskLow, in bytes (0: never low).
func (d *Disk) SetMinFree(bytes int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.minFree = max(bytes, 0)
	d.status.MinFreeBytes = d.minFree
}

// SetLogger sets where state changes are logged (slog.Default()).
func (d *Disk) SetLogger(l *slog.Logger) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.log = l
}

// Status is the state at the last check or report.
func (d *Disk) Status() DiskStatus {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.status
}

// Paused reports whether nothing new should be taken on: the disk is low
// or full. Claimers (the runner's workers, the queue's dispatcher) claim
// no run while it is.
func (d *Disk) Paused() bool { return d.Status().State != DiskOK }

// Refuse is nil while the disk is ok, and otherwise an errs.NoSpace error
// saying why nothing new can be stored (HTTP 507).
func (d *Disk) Refuse() error {
	st := d.Status()
	if st.State == DiskOK {
		return nil
	}
	return &errs.Error{Kind: errs.NoSpace,
		Err: fmt.Errorf("%s; nothing new is accepted until space is freed, and schedlab resumes by itself", st.Reason)}
}

// IsFull reports whether err is SQLite's SQLITE_FULL: the database or its
// disk is full.
func IsFull(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL
}

// Full takes the error of a write: SQLITE_FULL makes the disk DiskFull
// (logged once, at the change) and Full returns true; any other error,
// or nil, changes nothing.
func (d *Disk) Full(err error) bool {
	if !IsFull(err) {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.status.State != DiskFull {
		d.set(DiskStatus{State: DiskFull, FreeBytes: d.status.FreeBytes, MinFreeBytes: d.minFree,
			Reason: "the disk holding the database is full: a write failed with \"database or disk is full\""})
	}
	return true
}

// set changes the state (d.mu held), logging the change.
func (d *Disk) set(st DiskStatus) {
	old := d.status
	if st.State == old.State {
		st.Since = old.Since
		d.status = st
		return
	}
	st.Since = time.Now()
	d.status = st
	switch st.State {
	case DiskFull:
		d.log.Error("store: the disk is full: new runs, uploads and experiments are refused (507), workers claim nothing, finished runs wait to be stored",
			"dir", d.dir, "reason", st.Reason, "free_bytes", st.FreeBytes)
	case DiskLow:
		d.log.Warn("store: disk space is low: new runs, uploads and experiments are refused (507), workers claim nothing; runs in flight are stored",
			"dir", d.dir, "reason", st.Reason, "free_bytes", st.FreeBytes)
	default:
		d.log.Info("store: disk space is back: accepting and claiming runs again", "dir", d.dir,
			"free_bytes", st.FreeBytes, "was", old.State, "for", time.Since(old.Since).Round(time.Second).String())
	}
}

// Check measures the free space and, while the disk is full, tries a
// write (rolled back); it sets and returns the state: DiskFull while the
// write fails, DiskLow while the space is under the threshold, DiskOK
// otherwise.
func (d *Disk) Check(ctx context.Context) DiskStatus {
	free, ferr := d.free(d.dir)
	if ferr != nil {
		free = -1
	}
	d.mu.Lock()
	state, minFree := d.status.State, d.minFree
	d.mu.Unlock()
	var perr error
	if state == DiskFull {
		perr = d.probe(ctx)
		if perr != nil && !IsFull(perr) && ctx.Err() == nil {
			// Not a full disk (say, the database is busy): keep the state.
			return d.Status()
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st := DiskStatus{State: DiskOK, FreeBytes: free, MinFreeBytes: minFree}
	switch {
	case perr != nil:
		st.State, st.Reason = DiskFull, "the disk holding the database is full: a write failed with \"database or disk is full\""
		if free >= 0 {
			st.Reason += fmt.Sprintf(" (%s free)", mib(free))
		}
	case free >= 0 && free < minFree:
		st.State = DiskLow
		st.Reason = fmt.Sprintf("the disk holding the database has %s free, under the %s schedlab keeps free (--min-free-mb)", mib(free), mib(minFree))
	}
	d.set(st)
	return d.status
}

// probe allocates probeBytes in a transaction it rolls back, on a
// connection whose page cache is smaller than that, so the pages reach the
// write-ahead log: it fails with SQLITE_FULL on a full file system (or a
// database at its max_page_count) and stores nothing either way.
func (d *Disk) probe(ctx context.Context) error {
	conn, err := d.st.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA cache_size = 16"); err != nil {
		return err
	}
	// Back to SQLite's default (2,000 KiB) before the connection returns to the pool.
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA cache_size = -2000")
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "CREATE TABLE schedlab_disk_probe (b BLOB)"); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO schedlab_disk_probe VALUES (zeroblob(?))", probeBytes)
	return err
}

// Watch calls Check every interval until ctx is done.
func (d *Disk) Watch(ctx context.Context, interval time.Duration) {
	d.Check(ctx)
	runtypes.Every(ctx, interval, func() { d.Check(ctx) })
}

// SetMaxPages caps the database at n pages on every connection of the
// pool (PRAGMA max_page_count; SQLite keeps at least the pages in use): a
// write that needs more fails with SQLITE_FULL, as on a full disk. Tests
// use it to fill the disk without root; n ≤ 0 lifts the cap.
func (s *Store) SetMaxPages(ctx context.Context, n int64) error {
	if n <= 0 {
		n = 0xfffffffe // SQLite's largest page count
	}
	conns := make([]*sql.Conn, 0, s.conns)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	// Every connection at once, so that each gets the cap.
	for range s.conns {
		c, err := s.db.Conn(ctx)
		if err != nil {
			return dbErr(err)
		}
		conns = append(conns, c)
		if _, err := c.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", n)); err != nil {
			return dbErr(err)
		}
	}
	return nil
}

// mib writes bytes as MiB with one decimal.
func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
