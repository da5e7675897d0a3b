package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"schedlab/errs"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Store is a schedlab database. It is safe for concurrent use.
type Store struct {
	db    *sql.DB
	hot   hotStatements
	conns int   // the most connections the pool opens
	disk  *Disk // the space of the database's disk (disk.go)
	// opened is what the checks at opening found (check.go).
	opened walCheck
}

// hotStatements are the statements every run executes (claimed, then
// finished), prepared once: modernc's driver compiles an unprepared
// statement on every call, a fifth of a sweep's store time.
type hotStatements struct {
	claim, claimMany, finish, report, metrics, page, judge *sql.Stmt
}

// prepare compiles the hot statements.
func (s *Store) prepare(ctx context.Context) error {
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.hot.claim, claimNext},
		{&s.hot.claimMany, claimMany},
		{&s.hot.finish, finishRun},
		{&s.hot.report, insertReport},
		{&s.hot.metrics, metricsInsert},
		{&s.hot.page, insertTablePage},
		{&s.hot.judge, judgeEnded},
	} {
		st, err := s.db.PrepareContext(ctx, p.sql)
		if err != nil {
			return err
		}
		*p.stmt = st
	}
	return nil
}

// dsnPragmas are the connection settings every connection gets. WAL:
// readers never wait for the writer. _txlock=immediate: a transaction
// takes the write lock when it begins, so read-then-write never fails
// half way with SQLITE_BUSY. busy_timeout 30 s covers the longest write
// (storing MaxRuns runs; 5 s did not, bench/README.md). synchronous
// NORMAL: a commit survives a process crash at once and a power cut from
// the next checkpoint on; the file is never corrupted. temp_store(2):
// temporary files in memory, above all the statement journal SQLite
// keeps for an UPDATE whose triggers write (a run's claim and end):
// on disk it was a pwrite per page, 4.6 % of a no-op sweep's server
// CPU (bench/README.md, "queue"); a sort SQLite cannot take from an index
// then also sorts in memory, a few MB for 100,000 rows.
// auto_vacuum(2), incremental, takes effect in a new file (set before its
// first table): ReclaimSpace then gives freed pages back.
const dsnPragmas = "_pragma=auto_vacuum(2)&_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
	"&_pragma=synchronous(NORMAL)&_pragma=temp_store(2)&_txlock=immediate"

// Open opens (creating if missing) the database file at path and brings its
// schema up to date.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "db", Err: errors.New("no database file given")}
	}
	if strings.Contains(path, "?") {
		return nil, errs.New(errs.Invalid, "db", "database file name %q contains '?', which SQLite would read as options", path)
	}
	// Read the write-ahead log before SQLite does: its recovery drops a
	// damaged log's tail without a word (check.go).
	var wal OpenReport
	if path != ":memory:" {
		var err error
		if wal, err = inspectWAL(path); err != nil {
			// Unchecked, the log may hold committed transactions SQLite
			// cannot use either: said at error level, as a loss is.
			slog.Error("store: could not read the write-ahead log before opening: committed transactions in it may be LOST",
				"db", path, "err", err, "advice", "stop schedlab and keep a copy of "+path+"-wal before anything else writes")
		}
		logOpenReport(path, wal)
	}
	db, err := sql.Open("sqlite", path+"?"+dsnPragmas)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	s := &Store{db: db, conns: MaxOpenConns}
	s.opened.r = wal
	if path == ":memory:" {
		// Every connection to ":memory:" is its own database: keep one.
		db.SetMaxOpenConns(1)
		s.conns = 1
	} else {
		bound(db)
	}
	s.disk = newDisk(s, path)
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, errs.Wrap(errs.Internal, fmt.Errorf("%s: %w", path, err))
	}
	if err := s.prepare(context.Background()); err != nil {
		db.Close()
		return nil, errs.Wrap(errs.Internal, fmt.Errorf("%s: %w", path, err))
	}
	return s, nil
}

// Pool bounds for a file database. SQLite in WAL mode runs any number of
// readers beside one writer, but every connection costs a file handle, its
// own page cache (2 MiB by default) and the DSN pragmas on opening; an
// unbounded pool opened a hundred connections per burst of requests and
// spent the time opening them. A few connections keep both cores busy:
// requests beyond them wait in database/sql's queue, in order, instead of
// in SQLite's busy handler.
const (
	// MaxOpenConns is the most connections open at once (readers and the
	// one writer SQLite allows at a time).
	MaxOpenConns = 8
	// maxIdleConns keeps every open connection ready: opening one runs the
	// pragmas again.
	maxIdleConns = MaxOpenConns
	// connMaxIdleTime closes a connection unused this long, so an idle
	// server holds no page caches.
	connMaxIdleTime = 5 * time.Minute
)

// bound sets the pool bounds of a file database.
func bound(db *sql.DB) {
	db.SetMaxOpenConns(MaxOpenConns)
	db.SetMaxIdleConns(maxIdleConns)
	db.SetConnMaxIdleTime(connMaxIdleTime)
}

// Close closes the database.
func (s *Store) Close() error {
	for _, st := range []*sql.Stmt{s.hot.claim, s.hot.claimMany, s.hot.finish, s.hot.report, s.hot.metrics, s.hot.page, s.hot.judge} {
		if st != nil {
			st.Close()
		}
	}
	return s.db.Close()
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&n); err != nil {
		return dbErr(err)
	}
	return nil
}

// migration is one numbered schema file.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations reads the embedded files NNNN_name.sql, numbered 1, 2, ... with
// no gaps.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, n := range names {
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_what.sql", base)
		}
		b, err := migrationFiles.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: base, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected number %d (numbers start at 1 with no gaps or repeats)", m.name, i+1)
		}
	}
	return out, nil
}

// migrate applies the migrations newer than PRAGMA user_version in one
// transaction and sets user_version to their count.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: one migrator at a time
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var have int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return err
	}
	if have > len(ms) {
		return fmt.Errorf("database schema version %d is newer than this schedlab knows (%d): use a newer schedlab", have, len(ms))
	}
	if have == len(ms) {
		return nil
	}
	for _, m := range ms[have:] {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	// PRAGMA takes no placeholders; the value is our own integer.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(ms))); err != nil {
		return err
	}
	return tx.Commit()
}

// idAlphabet is lowercase RFC 4648 base32: URL-safe, no look-alike digits 0/1.
const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

// IDLen is the length of every ID: 10 base32 characters, 50 random bits.
const IDLen = 10

// NewID returns a fresh random ID: short, not sequential, not guessable;
// a clash with a stored ID draws again (idAttempts).
func NewID() string {
	var b [IDLen]byte
	rand.Read(b[:]) // never fails (crypto/rand, Go ≥ 1.24)
	for i := range b {
		b[i] = idAlphabet[b[i]&31]
	}
	return string(b[:])
}

// idAttempts bounds the draws of a fresh ID on collision (1 in 2^50 each).
const idAttempts = 5

// insertNew calls insert with a fresh ID, drawing again on a collision
// (idAttempts at most); an error goes through dbErr.
func insertNew(insert func(id string) error) (string, error) {
	for attempt := 0; ; attempt++ {
		id := NewID()
		err := insert(id)
		if !isIDCollision(err) || attempt >= idAttempts {
			return id, dbErr(err)
		}
	}
}

// isIDCollision reports whether err is a primary key violation.
func isIDCollision(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

// timeFormat is fixed width so that stored text sorts as time.
const timeFormat = "2006-01-02T15:04:05.000000Z"

// now is the current time as stored: UTC, microseconds.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func fmtTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) (time.Time, error) {
	return time.ParseInLocation(timeFormat, s, time.UTC)
}

func parseTimePtr(ns sql.NullString) (*time.Time, error) {
	if !ns.Valid {
		return nil, nil
	}
	t, err := parseTime(ns.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// nullTime is t as stored, NULL when t is zero.
func nullTime(t time.Time) sql.NullString {
	return sql.NullString{String: fmtTime(t), Valid: !t.IsZero()}
}

// busyAttempts bounds how often retryBusy runs a statement that found the
// database locked past busy_timeout; busyBackoff is the first pause between
// attempts, doubled after each.
const (
	busyAttempts = 4
	busyBackoff  = 50 * time.Millisecond
)

// isBusy reports whether err is SQLITE_BUSY or SQLITE_LOCKED, in any of
// their extended forms (the low byte is the primary code).
func isBusy(err error) bool {
	var ce interface{ Code() int }
	if !errors.As(err, &ce) {
		return false
	}
	c := ce.Code() & 0xff
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

// retryBusy runs f until it succeeds, fails otherwise than busy, ctx is done
// or busyAttempts are spent. f must change nothing when it fails, as one
// statement or a rolled back transaction does.
func retryBusy(ctx context.Context, f func() error) error {
	pause := busyBackoff
	for attempt := 1; ; attempt++ {
		err := f()
		if !isBusy(err) || attempt == busyAttempts {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		pause *= 2
	}
}

// dbErr classifies a database error: a done context is Canceled, a full
// database or disk (SQLITE_FULL) NoSpace, anything else Internal.
func dbErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errs.Wrap(errs.Canceled, err)
	}
	if IsFull(err) {
		return &errs.Error{Kind: errs.NoSpace,
			Err: fmt.Errorf("the disk holding the database is full (%w): nothing can be stored until space is freed", err)}
	}
	return errs.Wrap(errs.Internal, err)
}

func notFound(what, id string) error {
	return errs.New(errs.NotFound, "id", "no %s %q", what, id)
}

func invalid(field, format string, args ...any) error {
	return errs.New(errs.Invalid, field, format, args...)
}

// one is v read from one row, or missing when there was no row; other
// errors go through dbErr.
func one[T any](v T, err, missing error) (T, error) {
	var zero T
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return zero, missing
	case err != nil:
		return zero, dbErr(err)
	}
	return v, nil
}
