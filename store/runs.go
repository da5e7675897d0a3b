package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"schedlab/errs"
	"schedlab/runtypes"
)

// RunFilter selects runs for ListRuns; empty fields match everything.
// The filters are indexed equalities, a tag or a metric range; parameters
// are tested on the rows reached.
type RunFilter struct {
	Strategy   string
	Kind       string
	Status     string
	WorkloadID string
	Owner      string // a user ID: only that user's runs
	Variant    string
	Tag        string            // runs with this tag
	Params     map[string]string // parameter name → its exact value text
	// Metric selects the runs whose report has this numeric metric,
	// within [MetricMin, MetricMax] where those are set; the metric sorts
	// are by it.
	Metric               string
	MetricMin, MetricMax *float64
	Sort                 string // SortNewest (""), SortMetricAsc or SortMetricDesc
	Limit                int    // ≤ 0: no limit
	Cursor               Cursor // start after this position (a Next of a previous page)
}

// Orders of a list of runs.
const (
	SortNewest     = "newest"      // newest first (also "")
	SortMetricAsc  = "metric-asc"  // by RunFilter.Metric, lowest first
	SortMetricDesc = "metric-desc" // by RunFilter.Metric, highest first
)

// CreateRun stores a copy of r as a new queued run and returns it with its
// ID and CreatedAt. Progress, error, report and times in r are ignored. The
// store checks what it can (kind, a workload for KindRun and none for
// KindReproduce, that the workload and RerunOf exist); the runner checks the
// rest (strategy, variant, params) before calling it.
func (s *Store) CreateRun(ctx context.Context, r *runtypes.Run) (*runtypes.Run, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, dbErr(err)
	}
	defer tx.Rollback()
	ins, err := newRunInserter(ctx, tx)
	if err != nil {
		return nil, dbErr(err)
	}
	defer ins.close()
	run, err := ins.insert(ctx, r, now())
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, dbErr(err)
	}
	return run, nil
}

// runInserter inserts new queued runs in a transaction with prepared
// statements: CreateRun inserts one, CreateExperiment thousands. It checks
// each distinct workload and re-run original once.
type runInserter struct {
	tx      *sql.Tx
	stmt    *sql.Stmt
	checked map[string]bool // "workload ID" and "run ID" known to exist
}

func newRunInserter(ctx context.Context, tx *sql.Tx) (*runInserter, error) {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO runs
		(id, kind, workload_id, strategy, variant, params, seed, status, rerun_of, owner, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	return &runInserter{tx: tx, stmt: stmt, checked: map[string]bool{}}, nil
}

func (ins *runInserter) close() { ins.stmt.Close() }

// insert validates r and inserts a copy of it as a queued run created at
// created, returning the copy with its ID; errors are ready to return.
func (ins *runInserter) insert(ctx context.Context, r *runtypes.Run, created time.Time) (*runtypes.Run, error) {
	run := runtypes.Run{Kind: r.Kind, WorkloadID: r.WorkloadID, Strategy: r.Strategy, Variant: r.Variant,
		Params: r.Params, Seed: r.Seed, Status: runtypes.StatusQueued, RerunOf: r.RerunOf, Owner: r.Owner}
	run.Kind = cmp.Or(run.Kind, runtypes.KindRun)
	switch {
	case run.Kind != runtypes.KindRun && run.Kind != runtypes.KindReproduce:
		return nil, invalid("kind", "must be %q or %q, got %q", runtypes.KindRun, runtypes.KindReproduce, run.Kind)
	case strings.TrimSpace(run.Strategy) == "":
		return nil, invalid("strategy", "missing: choose a strategy")
	case run.Kind == runtypes.KindRun && run.WorkloadID == "":
		return nil, invalid("workload_id", "missing: choose a workload")
	case run.Kind == runtypes.KindReproduce && run.WorkloadID != "":
		return nil, invalid("workload_id", "a reproduce run takes no workload")
	}
	if run.Params == nil {
		run.Params = map[string]string{}
	}
	params, err := json.Marshal(run.Params)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	for _, c := range []struct{ field, what, query, id string }{
		{"workload_id", "workload", "SELECT 1 FROM workloads WHERE id = ?", run.WorkloadID},
		{"rerun_of", "run", "SELECT 1 FROM runs WHERE id = ?", run.RerunOf},
	} {
		if c.id == "" || ins.checked[c.what+" "+c.id] {
			continue
		}
		if err := exists(ctx, ins.tx, c.query, c.id); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return nil, errs.New(errs.NotFound, c.field, "no %s %q", c.what, c.id)
			}
			return nil, dbErr(err)
		}
		ins.checked[c.what+" "+c.id] = true
	}
	run.CreatedAt = created
	run.ID, err = insertNew(func(id string) error {
		_, err := ins.stmt.ExecContext(ctx,
			id, run.Kind, nullString(run.WorkloadID), run.Strategy, run.Variant, string(params), run.Seed,
			run.Status, nullString(run.RerunOf), nullString(run.Owner), fmtTime(run.CreatedAt))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &run, nil
}

func exists(ctx context.Context, tx *sql.Tx, query, id string) error {
	var one int
	return tx.QueryRowContext(ctx, query, id).Scan(&one)
}

// runColumns are the columns scanRun reads, each qualified by q ("" or
// "r."): the row's own, then the run's tags as a JSON array (one seek in
// run_tags' primary key). Notes are not among them: a list never reads
// them (up to 64 KiB each), a single run adds them (scanRun withNotes).
func runColumns(q string) string {
	return q + "id, " + q + "kind, " + q + "workload_id, " + q + "strategy, " + q + "variant, " + q + "params, " +
		q + "seed, " + q + "status, " + q + "progress_done, " + q + "progress_total, " + q + "progress_note, " +
		q + "error, " + q + "error_field, " + q + "rerun_of, " + q + "owner, " + q + "created_at, " +
		q + "started_at, " + q + "finished_at, " + q + "worker, " + q + "name, " +
		q + "build_version, " + q + "build_commit, " + q + "build_modified, " +
		"(SELECT json_group_array(t.tag) FROM run_tags AS t WHERE t.run_id = " + q + "id)"
}

// runListColumns are runColumns unqualified, for queries of runs alone.
var runListColumns = runColumns("")

// scanRun reads the runColumns of a row, then notes if withNotes, then the
// report if withReport.
func scanRun(sc interface{ Scan(...any) error }, withNotes, withReport bool) (*runtypes.Run, error) {
	var r runtypes.Run
	var workload, rerunOf, owner, started, finished, report sql.NullString
	var params, created, tags string
	dest := []any{&r.ID, &r.Kind, &workload, &r.Strategy, &r.Variant, &params, &r.Seed, &r.Status,
		&r.ProgressDone, &r.ProgressTotal, &r.ProgressNote, &r.Error, &r.ErrorField, &rerunOf, &owner,
		&created, &started, &finished, &r.Worker, &r.Name, &r.Build.Version, &r.Build.Commit, &r.Build.Modified, &tags}
	if withNotes {
		dest = append(dest, &r.Notes)
	}
	if withReport {
		dest = append(dest, &report)
	}
	if err := sc.Scan(dest...); err != nil {
		return nil, err
	}
	r.WorkloadID, r.RerunOf, r.Owner = workload.String, rerunOf.String, owner.String
	if err := json.Unmarshal([]byte(params), &r.Params); err != nil {
		return nil, fmt.Errorf("run %s: params: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(tags), &r.Tags); err != nil {
		return nil, fmt.Errorf("run %s: tags: %w", r.ID, err)
	}
	slices.Sort(r.Tags)
	var err error
	if r.CreatedAt, err = parseTime(created); err != nil {
		return nil, fmt.Errorf("run %s: created_at: %w", r.ID, err)
	}
	if r.StartedAt, err = parseTimePtr(started); err != nil {
		return nil, fmt.Errorf("run %s: started_at: %w", r.ID, err)
	}
	if r.FinishedAt, err = parseTimePtr(finished); err != nil {
		return nil, fmt.Errorf("run %s: finished_at: %w", r.ID, err)
	}
	if report.Valid {
		r.Report = json.RawMessage(report.String)
	}
	return &r, nil
}

// GetRun returns the run with its report, or errs.NotFound.
func (s *Store) GetRun(ctx context.Context, id string) (*runtypes.Run, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, "SELECT "+runListColumns+", notes, report FROM runs LEFT JOIN run_reports ON run_id = id WHERE id = ?", id), true, true)
	return one(r, err, notFound("run", id))
}

// GetRunInfo returns the run without its report (Report is empty), or
// errs.NotFound: for pages whose report part is already rendered, so that
// a large report is not read for nothing.
func (s *Store) GetRunInfo(ctx context.Context, id string) (*runtypes.Run, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, "SELECT "+runListColumns+", notes FROM runs WHERE id = ?", id), true, false)
	return one(r, err, notFound("run", id))
}

// ListRuns returns the runs f selects, newest first, without reports.
func (s *Store) ListRuns(ctx context.Context, f RunFilter) ([]runtypes.Run, error) {
	runs, _, err := s.ListRunsPage(ctx, f)
	return runs, err
}

// ListRunsPage returns a page of the runs f selects, in f.Sort's order
// (newest first by default), without reports or notes: at most f.Limit runs
// from f.Cursor on, and the cursor of the next page, empty when this page
// is the last. A filter the store cannot apply (an unknown sort, a metric
// sort or range without a metric, min > max, a parameter name with a
// double quote) is errs.Invalid naming the field; so is an f.Cursor that
// this list did not give (field "cursor").
func (s *Store) ListRunsPage(ctx context.Context, f RunFilter) ([]runtypes.Run, Cursor, error) {
	q, args, sh, err := runsQuery(f)
	if err != nil {
		return nil, "", err
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, "", dbErr(err)
	}
	return scanPageBy(sh, rows, f.Limit, func(sc scanner) (*runtypes.Run, error) { return scanRun(sc, false, false) })
}

// runsQuery is the SELECT of a page of runs and its keyset shape.
//
// Newest first, it reads runs (as r) in (created_at, rowid) order, which
// the indexes of 0003_paging.sql and 0006 (variant) serve without sorting
// after the equalities; a tag is a lookup in run_tags_tag, a metric (and
// its range) one seek per row in run_metrics' primary key.
//
// By a metric, it reads that metric's range of run_metrics_name_value (as
// m) in (value, run_id) order and joins each run by its primary key:
// CROSS JOIN keeps run_metrics the outer loop, so the order is the index's
// and no filter on runs can make SQLite sort instead.
//
// Parameters are not indexed (a run's params are one JSON object): each
// is tested on the rows the order reaches. One row past the page tells
// whether another follows.
func runsQuery(f RunFilter) (string, []any, shape, error) {
	sh := newest
	switch f.Sort {
	case "", SortNewest:
	case SortMetricAsc, SortMetricDesc:
		if f.Metric == "" {
			return "", nil, sh, invalid("metric", "sorting by a metric needs the metric's name")
		}
		sh = byMetric(f.Sort == SortMetricDesc)
	default:
		return "", nil, sh, invalid("sort", "must be %q, %q or %q, got %q", SortNewest, SortMetricAsc, SortMetricDesc, f.Sort)
	}
	if f.Metric == "" && (f.MetricMin != nil || f.MetricMax != nil) {
		return "", nil, sh, invalid("metric", "a range of values needs the metric's name")
	}
	for _, b := range []struct {
		field string
		v     *float64
	}{{"min", f.MetricMin}, {"max", f.MetricMax}} {
		if b.v != nil && (math.IsNaN(*b.v) || math.IsInf(*b.v, 0)) {
			return "", nil, sh, invalid(b.field, "must be a finite number, got %v", *b.v)
		}
	}
	if f.MetricMin != nil && f.MetricMax != nil && *f.MetricMin > *f.MetricMax {
		return "", nil, sh, invalid("min", "min %v is greater than max %v", *f.MetricMin, *f.MetricMax)
	}
	var where []string
	var args []any
	for _, c := range []struct{ col, val string }{
		{"strategy", f.Strategy}, {"kind", f.Kind}, {"status", f.Status}, {"workload_id", f.WorkloadID},
		{"owner", f.Owner}, {"variant", f.Variant},
	} {
		if c.val != "" {
			where = append(where, "r."+c.col+" = ?") // column names are ours, values placeholders
			args = append(args, c.val)
		}
	}
	if f.Tag != "" {
		where = append(where, "r.id IN (SELECT t.run_id FROM run_tags AS t WHERE t.tag = ?)")
		args = append(args, f.Tag)
	}
	names := slices.Sorted(maps.Keys(f.Params))
	for _, name := range names {
		if !ParamNameOK(name) {
			return "", nil, sh, invalid("param", "parameter name %q: must be non-empty, without quotes, backslashes or control characters", name)
		}
		// A params object maps names to value text (CreateRun marshals a
		// map[string]string); the quoted path reads the name literally.
		where = append(where, "json_extract(r.params, ?) = ?")
		args = append(args, `$."`+name+`"`, f.Params[name])
	}
	var ranges []string
	var rangeArgs []any
	if f.MetricMin != nil {
		ranges = append(ranges, " AND m.value >= ?")
		rangeArgs = append(rangeArgs, *f.MetricMin)
	}
	if f.MetricMax != nil {
		ranges = append(ranges, " AND m.value <= ?")
		rangeArgs = append(rangeArgs, *f.MetricMax)
	}
	from := "runs AS r"
	if sh.tag != "" {
		from = "run_metrics AS m CROSS JOIN runs AS r ON r.id = m.run_id"
		where = append([]string{"m.name = ?" + strings.Join(ranges, "")}, where...)
		args = append(append([]any{f.Metric}, rangeArgs...), args...)
	} else if f.Metric != "" {
		where = append(where, "EXISTS (SELECT 1 FROM run_metrics AS m WHERE m.run_id = r.id AND m.name = ?"+strings.Join(ranges, "")+")")
		args = append(append(args, f.Metric), rangeArgs...)
	}
	q, args, err := pageQueryBy(sh, from, runColumns("r."), where, args, f.Cursor, f.Limit)
	return q, args, sh, err
}

// ParamNameOK reports whether a parameter name can be looked up in a
// run's params: a quoted JSON path label ends at a double quote and, in
// SQLite, at a NUL, so neither (nor a backslash or another control
// character) may appear in it.
func ParamNameOK(name string) bool {
	return name != "" && !strings.ContainsAny(name, `"\`) && strings.IndexFunc(name, unicode.IsControl) < 0
}

// LatestRun returns the newest run of a strategy and kind, whatever its
// status, with its report; errs.NotFound when there is none.
func (s *Store) LatestRun(ctx context.Context, strategy, kind string) (*runtypes.Run, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, "SELECT "+runListColumns+`, notes, (SELECT report FROM run_reports WHERE run_id = id) FROM runs
		WHERE strategy = ? AND kind = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`, strategy, kind), true, true)
	return one(r, err, errs.New(errs.NotFound, "strategy", "no %s run of %s yet", kind, strategy))
}

// ClaimNext atomically moves the oldest queued run to running and returns
// it (without report). It returns nil, nil when no run is queued.
// Concurrent callers never claim the same run. A claimed run has no
// started_at until a worker starts executing it (MarkStarted, or its
// Ending's StartedAt): until then it is still waiting (Run.Waiting) and
// is shown as queued.
func (s *Store) ClaimNext(ctx context.Context) (*runtypes.Run, error) {
	var r *runtypes.Run
	// One autocommit statement: SQLite takes the write lock before reading,
	// so the claim never upgrades a stale read snapshot. It can still find
	// the lock held past busy_timeout by a writer starved of CPU; a busy
	// claim changed nothing and is tried again.
	err := retryBusy(ctx, func() error {
		var err error
		r, err = scanRun(s.hot.claim.QueryRowContext(ctx, runtypes.StatusRunning, runtypes.StatusQueued), false, false)
		return err
	})
	return one(r, err, nil)
}

// ClaimUpTo claims, as ClaimNext does, up to n of the oldest queued runs in
// one statement, oldest first: one commit for n claims, the dearest part
// of a claim. It returns an empty slice when no run is queued.
func (s *Store) ClaimUpTo(ctx context.Context, n int) ([]*runtypes.Run, error) {
	if n <= 1 {
		r, err := s.ClaimNext(ctx)
		if r == nil || err != nil {
			return nil, err
		}
		return []*runtypes.Run{r}, nil
	}
	var runs []*runtypes.Run
	// One statement claims them all: the claim's triggers (counts, the
	// experiment's version) still run per run, but the statement, its
	// subquery and its commit are paid once (bench/README.md, "queue").
	// RETURNING gives no order, so rowid comes back to restore the
	// subquery's.
	err := retryBusy(ctx, func() error {
		runs = runs[:0]
		rows, err := s.hot.claimMany.QueryContext(ctx, runtypes.StatusRunning, runtypes.StatusQueued, n)
		if err != nil {
			return err
		}
		defer rows.Close()
		type claimed struct {
			run   *runtypes.Run
			rowid int64
		}
		var got []claimed
		for rows.Next() {
			var c claimed
			if c.run, err = scanRun(withRowid{rows, &c.rowid}, false, false); err != nil {
				return err
			}
			got = append(got, c)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		slices.SortFunc(got, func(a, b claimed) int {
			if c := a.run.CreatedAt.Compare(b.run.CreatedAt); c != 0 {
				return c
			}
			return cmp.Compare(a.rowid, b.rowid)
		})
		for _, c := range got {
			runs = append(runs, c.run)
		}
		return nil
	})
	if err != nil {
		return nil, dbErr(err)
	}
	return runs, nil
}

// withRowid scans a row's rowid after the columns its caller asks for.
type withRowid struct {
	rows  *sql.Rows
	rowid *int64
}

func (w withRowid) Scan(dest ...any) error { return w.rows.Scan(append(dest, w.rowid)...) }

// Unclaim puts runs claimed but never started back in the queue, as they
// were before the claim (status queued, no started_at). A run that is no
// longer running (canceled meanwhile) is left as it is.
func (s *Store) Unclaim(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET status = ?, started_at = NULL, worker = ''
			WHERE id = ? AND status = ?`, runtypes.StatusQueued, id, runtypes.StatusRunning); err != nil {
			return dbErr(err)
		}
	}
	return dbErr(tx.Commit())
}

// SetProgress records how far a running run has come. It does nothing to a
// run that is not running (it may have just been canceled).
func (s *Store) SetProgress(ctx context.Context, id string, done, total int, note string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE runs SET progress_done = ?, progress_total = ?, progress_note = ?
		WHERE id = ? AND status = ?`, done, total, note, id, runtypes.StatusRunning)
	return dbErr(err)
}

// MarkStarted records when a worker began executing a claimed run: the
// run stops waiting (Run.Waiting) and its duration counts from then. A
// run that is not running, or has a start already, is left as it is.
func (s *Store) MarkStarted(ctx context.Context, id string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE runs SET started_at = ? WHERE id = ? AND status = ? AND started_at IS NULL`,
		fmtTime(at), id, runtypes.StatusRunning)
	return dbErr(err)
}

// SetProgressBy is SetProgress of a run that worker (host:pid) executes:
// it records the worker too, and the run's start (started; zero: not
// known) unless one is stored, in the same statement.
func (s *Store) SetProgressBy(ctx context.Context, id, worker string, started time.Time, done, total int, note string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE runs SET progress_done = ?, progress_total = ?, progress_note = ?, worker = ?,
		started_at = COALESCE(started_at, ?)
		WHERE id = ? AND status = ?`, done, total, note, worker, nullTime(started), id, runtypes.StatusRunning)
	return dbErr(err)
}

// Finish ends a running run with a final status (done, failed, canceled or
// interrupted), its report (done runs) or error message and field, and sets
// finished_at. A run that is not running is errs.Conflict; an unknown one
// errs.NotFound. A done run's numeric "metrics" entries (the first of a
// repeated name) go to run_metrics with json_each in the same
// transaction, so lists sort and filter by metric without reading reports.
func (s *Store) Finish(ctx context.Context, id, status string, report json.RawMessage, errMsg, errField string) error {
	return s.FinishBy(ctx, id, "", status, report, errMsg, errField)
}

// FinishBy is Finish of a run executed by worker (see Run.Worker); an
// empty worker leaves the run's worker as it is.
func (s *Store) FinishBy(ctx context.Context, id, worker, status string, report json.RawMessage, errMsg, errField string) error {
	return s.End(ctx, []Ending{{ID: id, Worker: worker, Status: status, Report: report, Error: errMsg, ErrorField: errField}})[0]
}

// An Ending is how a running run ended, as End records it.
type Ending struct {
	ID     string
	Worker string          // host:pid of the worker that executed it; empty keeps the stored one
	Build  runtypes.Build  // the build of the process that executed it; zero keeps the stored one
	Status string          // a final status
	Report json.RawMessage // a done run's report (a report.Report), or nil
	// Encoded says Report was just encoded by this process (json.Marshal
	// of a report.Report), so End does not check it is JSON again. A
	// report that came from elsewhere (a worker process, a bundle) is
	// checked.
	Encoded bool
	// NoLargeTables, with Encoded, says no table of Report has more than
	// report.PageOutRows rows (the encoder counted them), so End looks
	// for none to page out.
	NoLargeTables bool
	// Error and ErrorField are a failed run's message and the input field
	// it names.
	Error, ErrorField string
	// Progress is the run's last progress, stored with its end; nil keeps
	// the stored one.
	Progress *Progress
	// StartedAt is when a worker began executing the run; it is stored
	// unless MarkStarted stored one already. Zero keeps the stored one.
	StartedAt time.Time
}

// Progress is how far a run has come: done of total steps, and a note.
type Progress struct {
	Done, Total int
	Note        string
}

// End records the endings of many runs in one transaction, each as Finish
// does: one commit, the dearest part of storing a run, for all the runs
// that ended while the last one was written (a database's group commit).
// errs[i] is ending i's own outcome: nil; errs.Invalid for a status that is
// not final or a report that is not JSON; errs.Conflict for a run that is
// not running (canceled meanwhile); errs.NotFound for an unknown one. An
// error of the database is every ending's, and nothing is stored.
func (s *Store) End(ctx context.Context, endings []Ending) []error {
	out := make([]error, len(endings))
	all := func(err error) []error {
		for i := range out {
			if out[i] == nil {
				out[i] = err
			}
		}
		return out
	}
	todo := 0
	// Each report's large tables are paged out before the transaction.
	mains := make([][]byte, len(endings))
	pages := make([][]tablePages, len(endings))
	for i, e := range endings {
		switch {
		case !runtypes.Final(e.Status):
			out[i] = invalid("status", "%q is not a final status", e.Status)
		case len(e.Report) > 0 && !e.Encoded && !json.Valid(e.Report):
			out[i] = invalid("report", "the report is not JSON")
		case e.Encoded && e.NoLargeTables:
			mains[i] = e.Report
			todo++
		default:
			var err error
			if mains[i], pages[i], err = pageOut(e.Report); err != nil {
				out[i] = invalid("report", "%v", err)
				continue
			}
			todo++
		}
	}
	if todo == 0 {
		return out
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return all(dbErr(err))
	}
	defer tx.Rollback()
	finish, report, metrics := tx.StmtContext(ctx, s.hot.finish), tx.StmtContext(ctx, s.hot.report), tx.StmtContext(ctx, s.hot.metrics)
	page, judge := tx.StmtContext(ctx, s.hot.page), tx.StmtContext(ctx, s.hot.judge)
	var unchanged []int
	at := fmtTime(now())
	for i, e := range endings {
		if out[i] != nil {
			continue
		}
		var done, total sql.NullInt64
		var note sql.NullString
		if p := e.Progress; p != nil {
			done, total, note = sql.NullInt64{Int64: int64(p.Done), Valid: true}, sql.NullInt64{Int64: int64(p.Total), Valid: true},
				sql.NullString{String: p.Note, Valid: true}
		}
		res, err := finish.ExecContext(ctx, e.Status, e.Error, e.ErrorField, at, nullTime(e.StartedAt), e.Worker, e.Worker, done, total, note,
			e.Build.Version, e.Build.Commit, e.Build.Modified, e.ID, runtypes.StatusRunning)
		if err != nil {
			return all(dbErr(err))
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			unchanged = append(unchanged, i)
			continue
		}
		if len(e.Report) == 0 {
			continue
		}
		if _, err := report.ExecContext(ctx, e.ID, string(mains[i])); err != nil {
			return all(dbErr(err))
		}
		for _, tp := range pages[i] {
			for p, rows := range tp.Pages {
				if _, err := page.ExecContext(ctx, e.ID, tp.Index, p, string(rows)); err != nil {
					return all(dbErr(err))
				}
			}
		}
		if e.Status != runtypes.StatusDone {
			continue
		}
		if m := metricsOf(e.Report); m != nil {
			if _, err := metrics.ExecContext(ctx, e.ID, string(m)); err != nil {
				return all(dbErr(err))
			}
		}
	}
	// A done run without the result its family declares counts failed
	// (issue 38): judged once its metrics are stored.
	for i, e := range endings {
		if out[i] != nil || e.Status != runtypes.StatusDone || slices.Contains(unchanged, i) {
			continue
		}
		if _, err := judge.ExecContext(ctx, e.ID); err != nil {
			return all(dbErr(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return all(dbErr(err))
	}
	for _, i := range unchanged {
		// After the commit: changed reads through the pool.
		out[i] = s.unchanged(ctx, endings[i].ID, "finish")
	}
	return out
}

// metricsOf returns the value of a report's top-level "metrics" key (nil
// without one), reading no further than it: a report written by
// encoding/json from a report.Report has it first, so the rest of a report
// of megabytes is not read again. report is valid JSON.
func metricsOf(report json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(report))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "metrics" {
			return v
		}
	}
	return nil
}

// The statements of claiming and finishing a run (prepared once, see
// hotStatements).
var claimNext = `UPDATE runs SET status = ?, started_at = NULL
	WHERE id = (SELECT id FROM runs WHERE status = ? ORDER BY created_at, rowid LIMIT 1)
	RETURNING ` + runListColumns

// claimMany is claimNext of the ?3 oldest queued runs, each returned with
// its rowid (ClaimUpTo orders them).
var claimMany = `UPDATE runs SET status = ?1, started_at = NULL
	WHERE id IN (SELECT id FROM runs WHERE status = ?2 ORDER BY created_at, rowid LIMIT ?3)
	RETURNING ` + runListColumns + `, rowid`

const (
	finishRun = `UPDATE runs SET status = ?, error = ?, error_field = ?, finished_at = ?,
		started_at = COALESCE(started_at, ?),
		worker = CASE WHEN ? = '' THEN worker ELSE ? END,
		progress_done = COALESCE(?, progress_done), progress_total = COALESCE(?, progress_total),
		progress_note = COALESCE(?, progress_note),
		build_version = COALESCE(NULLIF(?, ''), build_version), build_commit = COALESCE(NULLIF(?, ''), build_commit),
		build_modified = COALESCE(NULLIF(?, ''), build_modified)
		WHERE id = ? AND status = ?`
	insertReport = "INSERT INTO run_reports (run_id, report) VALUES (?, ?)"
)

// metricsInsert stores the metrics ?2 (a report's "metrics" value, see
// metricsOf) as run ?1's rows of run_metrics: the entries of the array that
// have a text "name" and a numeric "value" (anything else in an entry is
// ignored, as is a value that is not an array); of a repeated name, the
// first. 0005_experiments.sql filled the runs done before it with the same
// selection from whole reports.
const metricsInsert = `INSERT OR IGNORE INTO run_metrics (run_id, name, value)
	SELECT ?1, json_extract(m.value, '$.name'), json_extract(m.value, '$.value')
	FROM json_each(?2) AS m
	WHERE json_type(?2) = 'array'
	  AND json_type(m.value, '$.name') = 'text'
	  AND json_type(m.value, '$.value') IN ('integer', 'real')`

// changed turns an UPDATE that touched no row into NotFound or Conflict.
func (s *Store) changed(ctx context.Context, res sql.Result, id, verb string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return dbErr(err)
	}
	if n > 0 {
		return nil
	}
	return s.unchanged(ctx, id, verb)
}

// unchanged is the error of an UPDATE of run id that touched no row:
// NotFound or Conflict.
func (s *Store) unchanged(ctx context.Context, id, verb string) error {
	var status string
	err := s.db.QueryRowContext(ctx, "SELECT status FROM runs WHERE id = ?", id).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound("run", id)
	}
	if err != nil {
		return dbErr(err)
	}
	return errs.New(errs.Conflict, "id", "cannot %s run %s: it is %s", verb, id, status)
}

// CancelQueued moves a queued run to canceled at once. A run that is no
// longer queued is errs.Conflict (a running run is canceled through the
// runner, which owns it); an unknown one errs.NotFound.
func (s *Store) CancelQueued(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET status = ?, error = ?, error_field = '', finished_at = ?
		WHERE id = ? AND status = ?`, runtypes.StatusCanceled, runtypes.MsgCanceled, fmtTime(now()), id, runtypes.StatusQueued)
	if err != nil {
		return dbErr(err)
	}
	return s.changed(ctx, res, id, "cancel")
}

// MarkInterrupted turns every running run into interrupted and returns how
// many there were. Call it at startup, before claiming: a run still running
// then was cut off by a crash or a stop.
func (s *Store) MarkInterrupted(ctx context.Context) (int, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET status = ?, error = ?, error_field = '', finished_at = ?
		WHERE status = ?`, runtypes.StatusInterrupted, runtypes.MsgInterrupted, fmtTime(now()), runtypes.StatusRunning)
	if err != nil {
		return 0, dbErr(err)
	}
	n, err := res.RowsAffected()
	return int(n), dbErr(err)
}

// RequeueExperimentRuns puts back in the queue the interrupted runs of
// experiments still running, and returns how many: after a restart an
// experiment finishes by itself, every run done once (an interrupted run
// is the same run started again, not a copy). Call it at startup, after
// MarkInterrupted.
func (s *Store) RequeueExperimentRuns(ctx context.Context) (int, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET status = ?, error = '', error_field = '', started_at = NULL,
		finished_at = NULL, progress_done = 0, progress_total = 0, progress_note = '', worker = '', build_version = '', build_commit = '', build_modified = ''
		WHERE status = ? AND id IN (SELECT er.run_id FROM experiment_runs er
			JOIN experiments e ON e.id = er.experiment_id WHERE e.status = ?)`,
		runtypes.StatusQueued, runtypes.StatusInterrupted, ExperimentRunning)
	if err != nil {
		return 0, dbErr(err)
	}
	n, err := res.RowsAffected()
	return int(n), dbErr(err)
}

// DeleteRun deletes a finished run (its re-runs keep existing, with
// RerunOf cleared). A queued or running run is errs.Conflict: cancel it
// first; so is a run of an experiment, which goes with its experiment
// (DeleteExperiment).
func (s *Store) DeleteRun(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM runs WHERE id = ? AND status NOT IN (?, ?)
		AND NOT EXISTS (SELECT 1 FROM experiment_runs WHERE run_id = ?)`, id, runtypes.StatusQueued, runtypes.StatusRunning, id)
	if err != nil {
		return dbErr(err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		var exp string
		err := s.db.QueryRowContext(ctx, "SELECT experiment_id FROM experiment_runs WHERE run_id = ? LIMIT 1", id).Scan(&exp)
		if err == nil {
			return errs.New(errs.Conflict, "id", "run %s belongs to experiment %s: delete the experiment instead", id, exp)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return dbErr(err)
		}
	}
	return s.changed(ctx, res, id, "delete")
}
