package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/runtypes"
)

// Experiment statuses. An experiment is created running; the caller marks
// it done when its runs are all final (SetExperimentStatus), and
// CancelExperiment marks it canceled.
const (
	ExperimentRunning  = "running"
	ExperimentCanceled = "canceled"
	ExperimentDone     = "done"
)

// Experiment is a sweep: ordinary runs of one strategy over a grid of
// parameters and workloads, with replicates. The store keeps its definition
// as given and does not read it.
type Experiment struct {
	ID       string
	Name     string
	Strategy string
	// Definition is the experiment's definition, a JSON object.
	Definition json.RawMessage
	Tags       []string
	Notes      string // markdown
	// Owner is the ID of the user who made the experiment; empty on a
	// server without accounts.
	Owner     string
	Status    string // ExperimentRunning, ExperimentCanceled or ExperimentDone
	RunsTotal int    // how many runs the experiment has
	CreatedAt time.Time
}

// ExperimentCell places one run of an experiment in its sweep.
type ExperimentCell struct {
	// Cell is the swept values of the run, a JSON object (say
	// {"gamma":"1.3","instance":2}); runs with equal cells are replicates
	// of each other. Empty is {}.
	Cell      json.RawMessage
	Replicate int // 0, 1, ...
}

// ExperimentRun is one run of an experiment as the experiment's page and
// aggregates need it: no report, only its metrics.
type ExperimentRun struct {
	Position   int // 0, 1, ... in the order CreateExperiment was given the runs
	RunID      string
	Status     string
	Error      string
	WorkloadID string
	Variant    string
	// Params are the run's resolved parameters. Runs with equal params
	// share one map: do not modify it.
	Params    map[string]string
	Seed      int64
	Cell      json.RawMessage
	Replicate int
	// Metrics are the numeric metrics of a done run's report, in name
	// order; empty for a run that is not done.
	Metrics []Metric
}

// Metric is one numeric metric of a run.
type Metric struct {
	Name  string
	Value float64
}

// ExperimentFilter selects experiments for ListExperimentsPage; empty
// fields match everything.
type ExperimentFilter struct {
	Owner  string // a user ID: only that user's experiments
	Limit  int    // ≤ 0: no limit
	Cursor Cursor // start after this position (a Next of a previous page)
}

// CreateExperiment stores e as a new running experiment with runs as its
// queued runs, cells[i] placing runs[i], all in one transaction: either
// everything is stored or nothing is. It sets e's ID, Status, RunsTotal
// and CreatedAt, and each run's ID, Status, CreatedAt (e's) and defaults,
// as CreateRun returns them. Each run is checked as CreateRun checks it and
// must be of e's strategy; an error names the run by its position.
// recipes are the workloads the experiment generates where its runs run,
// stored first in the same transaction (runs name them by their drawn
// WorkloadID).
func (s *Store) CreateExperiment(ctx context.Context, e *Experiment, runs []*runtypes.Run, cells []ExperimentCell, recipes ...runtypes.Recipe) error {
	switch {
	case strings.TrimSpace(e.Strategy) == "":
		return invalid("strategy", "missing: choose a strategy")
	case !isJSONObject(e.Definition):
		return invalid("definition", "must be a JSON object")
	case len(runs) == 0:
		return invalid("runs", "an experiment needs at least one run")
	case len(cells) != len(runs):
		return invalid("cells", "%d cells for %d runs: give one cell per run", len(cells), len(runs))
	}
	tags := e.Tags
	if tags == nil {
		tags = []string{}
	}
	tagsJSON, err := json.Marshal(tags)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	cellJSON := make([]string, len(cells))
	for i, c := range cells {
		switch {
		case len(c.Cell) == 0:
			cellJSON[i] = "{}"
		case isJSONObject(c.Cell):
			cellJSON[i] = string(c.Cell)
		default:
			return invalid("cells", "run %d: the cell must be a JSON object", i)
		}
		if c.Replicate < 0 {
			return invalid("cells", "run %d: replicate %d is negative", i, c.Replicate)
		}
		if runs[i] == nil || runs[i].Strategy != e.Strategy {
			return invalid("runs", "run %d: not a run of strategy %s", i, e.Strategy)
		}
	}

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	created := now()
	exp := *e
	exp.Status, exp.RunsTotal, exp.CreatedAt = ExperimentRunning, len(runs), created
	if exp.ID, err = insertNew(func(id string) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO experiments
			(id, name, strategy, definition, tags, notes, owner, status, runs_total, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, exp.Name, exp.Strategy, string(exp.Definition), string(tagsJSON), exp.Notes,
			nullString(exp.Owner), exp.Status, exp.RunsTotal, fmtTime(created))
		return err
	}); err != nil {
		return err
	}
	if err := insertRecipes(ctx, tx, exp.ID, recipes, fmtTime(created)); err != nil {
		return err
	}
	ins, err := newRunInserter(ctx, tx)
	if err != nil {
		return dbErr(err)
	}
	defer ins.close()
	link, err := tx.PrepareContext(ctx, `INSERT INTO experiment_runs (experiment_id, position, run_id, cell, replicate)
		VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return dbErr(err)
	}
	defer link.Close()
	stored := make([]*runtypes.Run, len(runs))
	for i, r := range runs {
		run, err := ins.insert(ctx, r, created)
		if err != nil {
			var ee *errs.Error
			if errors.As(err, &ee) {
				ee.Err = fmt.Errorf("run %d: %w", i, ee.Err)
			}
			return err
		}
		if _, err := link.ExecContext(ctx, exp.ID, i, run.ID, cellJSON[i], cells[i].Replicate); err != nil {
			return dbErr(err)
		}
		stored[i] = run
	}
	if err := recountExperiment(ctx, tx, exp.ID); err != nil {
		return dbErr(err)
	}
	if err := tx.Commit(); err != nil {
		return dbErr(err)
	}
	exp.Tags = tags
	*e = exp
	for i, r := range stored {
		*runs[i] = *r
	}
	return nil
}

// isJSONObject reports whether b is valid JSON whose value is an object.
func isJSONObject(b []byte) bool {
	return json.Valid(b) && strings.HasPrefix(strings.TrimLeft(string(b), " \t\r\n"), "{")
}

const experimentColumns = `id, name, strategy, definition, tags, notes, owner, status, runs_total, created_at`

func scanExperiment(sc scanner) (*Experiment, error) {
	var e Experiment
	var def, tags, created string
	var owner sql.NullString
	if err := sc.Scan(&e.ID, &e.Name, &e.Strategy, &def, &tags, &e.Notes, &owner, &e.Status, &e.RunsTotal, &created); err != nil {
		return nil, err
	}
	e.Definition, e.Owner = json.RawMessage(def), owner.String
	if err := json.Unmarshal([]byte(tags), &e.Tags); err != nil {
		return nil, fmt.Errorf("experiment %s: tags: %w", e.ID, err)
	}
	var err error
	if e.CreatedAt, err = parseTime(created); err != nil {
		return nil, fmt.Errorf("experiment %s: created_at: %w", e.ID, err)
	}
	return &e, nil
}

// GetExperiment returns the experiment, or errs.NotFound.
func (s *Store) GetExperiment(ctx context.Context, id string) (*Experiment, error) {
	e, err := scanExperiment(s.db.QueryRowContext(ctx, "SELECT "+experimentColumns+" FROM experiments WHERE id = ?", id))
	return one(e, err, notFound("experiment", id))
}

// ListExperimentsPage returns a page of the experiments f selects, newest
// first: at most f.Limit from f.Cursor on, and the cursor of the next page,
// empty when this page is the last. An f.Cursor that this list did not give
// is errs.Invalid on field "cursor".
func (s *Store) ListExperimentsPage(ctx context.Context, f ExperimentFilter) ([]Experiment, Cursor, error) {
	q, args, err := experimentsQuery(f)
	if err != nil {
		return nil, "", err
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, "", dbErr(err)
	}
	return scanPage(rows, f.Limit, scanExperiment)
}

// experimentsQuery is the SELECT of a page of experiments, served by the
// indexes experiments_created and experiments_owner_created without sorting.
func experimentsQuery(f ExperimentFilter) (string, []any, error) {
	var where []string
	var args []any
	if f.Owner != "" {
		where = append(where, "owner = ?")
		args = append(args, f.Owner)
	}
	return pageQuery("experiments", experimentColumns, where, args, f.Cursor, f.Limit)
}

// SetExperimentStatus sets the status of an experiment: done when its runs
// are all final, running again when it is resumed. An unknown status is
// errs.Invalid, an unknown experiment errs.NotFound.
func (s *Store) SetExperimentStatus(ctx context.Context, id, status string) error {
	switch status {
	case ExperimentRunning, ExperimentCanceled, ExperimentDone:
	default:
		return invalid("status", "must be %q, %q or %q, got %q", ExperimentRunning, ExperimentCanceled, ExperimentDone, status)
	}
	res, err := s.db.ExecContext(ctx, "UPDATE experiments SET status = ? WHERE id = ?", status, id)
	if err != nil {
		return dbErr(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return dbErr(err)
	} else if n == 0 {
		return notFound("experiment", id)
	}
	return nil
}

// DeleteExperiment deletes an experiment and its runs (with their reports
// and metrics), in one transaction. An experiment with a queued or running
// run is errs.Conflict: cancel it first; an unknown one errs.NotFound.
func (s *Store) DeleteExperiment(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	var active int
	err = tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM experiment_runs JOIN runs ON runs.id = run_id
		WHERE experiment_id = e.id AND status IN (?, ?)) FROM experiments AS e WHERE e.id = ?`,
		runtypes.StatusQueued, runtypes.StatusRunning, id).Scan(&active)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound("experiment", id)
	}
	if err != nil {
		return dbErr(err)
	}
	if active > 0 {
		return errs.New(errs.Conflict, "id", "experiment %s has %d queued or running runs: cancel it first", id, active)
	}
	// The links go first: their foreign key restricts deleting the runs.
	ids, err := queryStrings(ctx, tx, "SELECT run_id FROM experiment_runs WHERE experiment_id = ?", id)
	if err != nil {
		return dbErr(err)
	}
	idsJSON, err := json.Marshal(ids)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM experiments WHERE id = ?", id); err != nil {
		return dbErr(err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM runs WHERE id IN (SELECT value FROM json_each(?))", string(idsJSON)); err != nil {
		return dbErr(err)
	}
	if err := deleteRecipesOf(ctx, tx, id); err != nil {
		return dbErr(err)
	}
	if err := tx.Commit(); err != nil {
		return dbErr(err)
	}
	_, err = s.ReclaimSpace(ctx)
	return err
}

// queryStrings returns the one text column of a query's rows.
func queryStrings(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// ExperimentWorkers counts the runs of experiment id by the worker that
// ran them (Run.Worker), by worker name; runs without one are left out.
// The experiment's page counts the same from its snapshot; this query
// of the whole experiment is what checks it.
func (s *Store) ExperimentWorkers(ctx context.Context, id string) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.worker, COUNT(*) FROM experiment_runs er JOIN runs r ON r.id = er.run_id
		WHERE er.experiment_id = ? AND r.worker != '' GROUP BY r.worker`, id)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return nil, dbErr(err)
		}
		out[name] = n
	}
	return out, dbErr(rows.Err())
}

// ExperimentRuns returns the runs of an experiment in position order, each
// with its metrics (from run_metrics: no report is read). An unknown
// experiment is errs.NotFound. Runs and metrics are two queries of one
// deferred snapshot, metrics selected by run_id IN (…) (key order, faster
// than a join from experiment_runs), sharing repeated strings and params.
func (s *Store) ExperimentRuns(ctx context.Context, id string) ([]ExperimentRun, error) {
	// A read-only transaction is a deferred one: one snapshot for the two
	// queries below without taking the write lock.
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, dbErr(err)
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRowContext(ctx, "SELECT runs_total FROM experiments WHERE id = ?", id).Scan(&total); errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("experiment", id)
	} else if err != nil {
		return nil, dbErr(err)
	}
	out, err := experimentRuns(ctx, tx, id, total)
	if err != nil {
		return nil, dbErr(err)
	}
	if err := experimentMetrics(ctx, tx, id, out); err != nil {
		return nil, dbErr(err)
	}
	return out, nil
}

// interner keeps one copy of strings that repeat across rows (statuses,
// variants, metric names, cells): a lookup by RawBytes does not allocate.
type interner map[string]string

func (in interner) str(b sql.RawBytes) string {
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// experimentRuns reads the runs of an experiment, without metrics, in
// position order. Text is scanned as RawBytes: a string is made once per
// distinct value, params decoded once per distinct object.
func experimentRuns(ctx context.Context, tx *sql.Tx, id string, total int) ([]ExperimentRun, error) {
	rows, err := tx.QueryContext(ctx, `SELECT er.position, r.id, r.status, r.error, r.workload_id, r.variant,
			r.params, r.seed, er.cell, er.replicate
		FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
		WHERE er.experiment_id = ?
		ORDER BY er.position`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]ExperimentRun, 0, total)
	in := interner{}
	cells := map[string]json.RawMessage{}
	paramsOf := map[string]map[string]string{}
	var (
		er                                               ExperimentRun
		runID, status, errMsg, workload, variant, params sql.RawBytes
		cell                                             sql.RawBytes
	)
	for rows.Next() {
		if err := rows.Scan(&er.Position, &runID, &status, &errMsg, &workload, &variant, &params, &er.Seed,
			&cell, &er.Replicate); err != nil {
			return nil, err
		}
		var ok bool
		if er.Params, ok = paramsOf[string(params)]; !ok {
			if err := json.Unmarshal(params, &er.Params); err != nil {
				return nil, fmt.Errorf("run %s: params: %w", runID, err)
			}
			paramsOf[string(params)] = er.Params
		}
		if er.Cell, ok = cells[string(cell)]; !ok {
			er.Cell = json.RawMessage(string(cell))
			cells[string(cell)] = er.Cell
		}
		er.RunID, er.Status, er.Error = string(runID), in.str(status), in.str(errMsg)
		er.WorkloadID, er.Variant = in.str(workload), in.str(variant)
		out = append(out, er)
	}
	return out, rows.Err()
}

// experimentMetrics adds their metrics to runs, the experiment's runs, by
// name within a run. The metrics are selected by run_id IN (the
// experiment's runs): SQLite sorts those IDs first and reads run_metrics
// in key order, where a join from experiment_runs would seek it at random
// (four times slower at 100,000 runs, whose metrics outgrow the page cache).
func experimentMetrics(ctx context.Context, tx *sql.Tx, id string, runs []ExperimentRun) error {
	index := make(map[string]int, len(runs))
	for i := range runs {
		index[runs[i].RunID] = i
	}
	rows, err := tx.QueryContext(ctx, `SELECT run_id, name, value FROM run_metrics
		WHERE run_id IN (SELECT run_id FROM experiment_runs WHERE experiment_id = ?)`, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	in := interner{}
	var (
		runID, name sql.RawBytes
		value       float64
	)
	for rows.Next() {
		if err := rows.Scan(&runID, &name, &value); err != nil {
			return err
		}
		i, ok := index[string(runID)]
		if !ok {
			continue // a run linked since the runs were read: not in this snapshot
		}
		r := &runs[i]
		if r.Metrics == nil {
			r.Metrics = make([]Metric, 0, 4)
		}
		r.Metrics = append(r.Metrics, Metric{Name: in.str(name), Value: value})
		for j := len(r.Metrics) - 1; j > 0 && r.Metrics[j].Name < r.Metrics[j-1].Name; j-- {
			r.Metrics[j], r.Metrics[j-1] = r.Metrics[j-1], r.Metrics[j]
		}
	}
	return rows.Err()
}

// ExperimentProgress counts the runs of an experiment: all of them, the
// done ones with a result, the failed ones (failed, canceled or
// interrupted, and done without the result their family declares, as
// their run pages say: counted, never dropped) and the active ones
// (queued or running). An unknown
// experiment is errs.NotFound. It reads the experiment's row of
// experiment_counts, which triggers keep exact in every transaction that
// changes a run's status (migration 0011): one row, whatever the
// experiment's size.
func (s *Store) ExperimentProgress(ctx context.Context, id string) (total, done, failed, active int, err error) {
	c, err := s.ExperimentCounts(ctx, id)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	return c.Total(), c.Done - c.NoResult, c.Failed + c.Canceled + c.Interrupted + c.NoResult, c.Queued + c.Running, nil
}

// recountExperiment judges which done runs of experiment id gave no
// result (noResultJudge) and sets its counts from its runs, in tx: the
// transactions that link its runs call it once they are linked (a
// trigger keeps the counts from then on, as statuses change). One
// recount per transaction, not a trigger per link: that was too slow
// (bench/README.md, "store").
func recountExperiment(ctx context.Context, tx *sql.Tx, id string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE runs SET no_result = 1 WHERE status = 'done' AND kind = 'run' AND no_result = 0
		AND id IN (SELECT run_id FROM experiment_runs WHERE experiment_id = ?) AND `+noResultJudge, id); err != nil {
		return err
	}
	// The version starts at a new epoch (0013).
	var epoch int64
	if err := tx.QueryRowContext(ctx, "INSERT INTO experiment_epochs DEFAULT VALUES RETURNING id").Scan(&epoch); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM experiment_epochs"); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO experiment_counts
			(experiment_id, queued, running, done, failed, canceled, interrupted, no_result, version)
		SELECT ?1, coalesce(sum(r.status = 'queued'), 0), coalesce(sum(r.status = 'running'), 0),
			coalesce(sum(r.status = 'done'), 0), coalesce(sum(r.status = 'failed'), 0),
			coalesce(sum(r.status = 'canceled'), 0), coalesce(sum(r.status = 'interrupted'), 0),
			coalesce(sum(r.status = 'done' AND r.no_result), 0), ?2 << 32
		FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id WHERE er.experiment_id = ?1
		ON CONFLICT (experiment_id) DO UPDATE SET queued = excluded.queued, running = excluded.running,
			done = excluded.done, failed = excluded.failed, canceled = excluded.canceled,
			interrupted = excluded.interrupted, no_result = excluded.no_result, version = excluded.version`, id, epoch)
	return err
}

// Counts are how many runs of an experiment are in each status, and how
// many of the done ones gave no result (NoResult, runs.no_result: the
// result their family declares for their variant missing).
type Counts struct {
	Queued, Running, Done, Failed, Canceled, Interrupted int
	NoResult                                             int
}

// Total is the number of runs counted.
func (c Counts) Total() int {
	return c.Queued + c.Running + c.Done + c.Failed + c.Canceled + c.Interrupted
}

const countsColumns = "queued, running, done, failed, canceled, interrupted, no_result"

// ExperimentCounts returns the kept counts of experiment id, errs.NotFound
// for an unknown one.
func (s *Store) ExperimentCounts(ctx context.Context, id string) (Counts, error) {
	var c Counts
	err := s.db.QueryRowContext(ctx, "SELECT "+countsColumns+" FROM experiment_counts WHERE experiment_id = ?", id).
		Scan(&c.Queued, &c.Running, &c.Done, &c.Failed, &c.Canceled, &c.Interrupted, &c.NoResult)
	if errors.Is(err, sql.ErrNoRows) {
		return c, notFound("experiment", id)
	}
	return c, dbErr(err)
}

// CountExperimentRuns counts the runs of experiment id by status from the
// runs themselves (a scan of its runs): what ExperimentCounts keeps, for
// checking it.
func (s *Store) CountExperimentRuns(ctx context.Context, id string) (Counts, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.status, count(*), sum(r.no_result) FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
		WHERE er.experiment_id = ? GROUP BY r.status`, id)
	if err != nil {
		return Counts{}, dbErr(err)
	}
	defer rows.Close()
	var c Counts
	for rows.Next() {
		var status string
		var n, noResult int
		if err := rows.Scan(&status, &n, &noResult); err != nil {
			return Counts{}, dbErr(err)
		}
		switch status {
		case runtypes.StatusQueued:
			c.Queued = n
		case runtypes.StatusRunning:
			c.Running = n
		case runtypes.StatusDone:
			c.Done, c.NoResult = n, noResult
		case runtypes.StatusFailed:
			c.Failed = n
		case runtypes.StatusCanceled:
			c.Canceled = n
		case runtypes.StatusInterrupted:
			c.Interrupted = n
		}
	}
	return c, dbErr(rows.Err())
}

// CancelExperiment marks an experiment canceled and cancels its queued runs,
// in one transaction, and returns the IDs of its running runs, which the
// runner owns and the caller cancels through it. A done experiment is
// errs.Conflict; an unknown one errs.NotFound. Canceling a canceled
// experiment again cancels what is queued and returns the running runs
// again.
func (s *Store) CancelExperiment(ctx context.Context, id string) (running []string, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, dbErr(err)
	}
	defer tx.Rollback()
	var status string
	err = tx.QueryRowContext(ctx, "UPDATE experiments SET status = ?1 WHERE id = ?2 AND status != ?3 RETURNING status",
		ExperimentCanceled, id, ExperimentDone).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		tx.Rollback() // before GetExperiment, which reads through the pool
		if _, err := s.GetExperiment(ctx, id); err != nil {
			return nil, err
		}
		return nil, errs.New(errs.Conflict, "id", "cannot cancel experiment %s: it is done", id)
	}
	if err != nil {
		return nil, dbErr(err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE runs SET status = ?, error = ?, error_field = '', finished_at = ?
		WHERE status = ? AND id IN (SELECT run_id FROM experiment_runs WHERE experiment_id = ?)`,
		runtypes.StatusCanceled, runtypes.MsgCanceled, fmtTime(now()), runtypes.StatusQueued, id); err != nil {
		return nil, dbErr(err)
	}
	running, err = queryStrings(ctx, tx, `SELECT r.id FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
		WHERE er.experiment_id = ? AND r.status = ? ORDER BY er.position`, id, runtypes.StatusRunning)
	if err != nil {
		return nil, dbErr(err)
	}
	return running, dbErr(tx.Commit())
}

// ResumeExperiment starts a canceled experiment again: it marks it running
// and puts its canceled and interrupted runs back in the queue, in one
// transaction, and returns how many it queued. They are the same runs
// started again, not copies, so each cell keeps its replicates once; failed
// runs stay failed (a failure is a result). An experiment that is not
// canceled, or that still has a running run (a cancel not yet taken by
// the runner), is errs.Conflict; an unknown one errs.NotFound.
func (s *Store) ResumeExperiment(ctx context.Context, id string) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, dbErr(err)
	}
	defer tx.Rollback()
	var status string
	var running int
	err = tx.QueryRowContext(ctx, `SELECT e.status, (SELECT count(*) FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
			WHERE er.experiment_id = e.id AND r.status = ?2) FROM experiments AS e WHERE e.id = ?1`,
		id, runtypes.StatusRunning).Scan(&status, &running)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, notFound("experiment", id)
	}
	if err != nil {
		return 0, dbErr(err)
	}
	if status != ExperimentCanceled {
		return 0, errs.New(errs.Conflict, "id", "cannot resume experiment %s: it is %s, not canceled", id, status)
	}
	if running > 0 {
		return 0, errs.New(errs.Conflict, "id", "cannot resume experiment %s yet: %d of its runs are still stopping; try again in a moment", id, running)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE experiments SET status = ? WHERE id = ?", ExperimentRunning, id); err != nil {
		return 0, dbErr(err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE runs SET status = ?, error = '', error_field = '', started_at = NULL,
		finished_at = NULL, progress_done = 0, progress_total = 0, progress_note = ''
		WHERE status IN (?, ?) AND id IN (SELECT run_id FROM experiment_runs WHERE experiment_id = ?)`,
		runtypes.StatusQueued, runtypes.StatusCanceled, runtypes.StatusInterrupted, id)
	if err != nil {
		return 0, dbErr(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, dbErr(err)
	}
	return int(n), dbErr(tx.Commit())
}

// ExperimentResult is one run of an experiment as aggregation needs it:
// its place in the sweep, status, variant and metrics, nothing else.
type ExperimentResult struct {
	Position int
	Status   string
	Variant  string
	// Cell is the run's cell, a JSON object. Runs with equal cells share
	// one string, so a caller can decode each distinct cell once.
	Cell      string
	Replicate int
	// Metrics are the run's rows of run_metrics (a done run's numeric
	// metrics), in name order. The runs' metrics share one backing array:
	// do not append to them.
	Metrics []Metric
}

// ExperimentResults returns the runs of an experiment in position order as
// aggregation needs them: ExperimentRuns without run IDs, errors,
// workloads, params or seeds (the full read of ExperimentChangesSince).
// An unknown experiment is errs.NotFound.
func (s *Store) ExperimentResults(ctx context.Context, id string) ([]ExperimentResult, error) {
	ch, err := s.ExperimentChangesSince(ctx, id, -1)
	if err != nil {
		return nil, err
	}
	out := make([]ExperimentResult, len(ch.Runs))
	for i := range ch.Runs {
		out[i] = ch.Runs[i].ExperimentResult
	}
	return out, nil
}
