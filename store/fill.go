package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"schedlab/runtypes"
	"time"
)

// FillRuns inserts n copies of r in one transaction, for tests and
// benchmarks that need a large database fast (10,000 runs take well under a
// second where CreateRun would commit each). Each copy gets a fresh ID and a
// created_at one millisecond after the previous, starting at from; Status,
// Params, Report and the rest are copied as given, without the checks
// CreateRun makes.
func (s *Store) FillRuns(ctx context.Context, r runtypes.Run, n int, from time.Time) error {
	params, err := json.Marshal(r.Params)
	if err != nil || r.Params == nil {
		params = []byte("{}")
	}
	r.Kind = cmp.Or(r.Kind, runtypes.KindRun)
	r.Status = cmp.Or(r.Status, runtypes.StatusQueued)
	var report any
	if len(r.Report) > 0 {
		report = string(r.Report)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO runs
		(id, kind, workload_id, strategy, variant, params, seed, status, created_at, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return dbErr(err)
	}
	defer stmt.Close()
	rep, err := tx.PrepareContext(ctx, "INSERT INTO run_reports (run_id, report) VALUES (?, ?)")
	if err != nil {
		return dbErr(err)
	}
	defer rep.Close()
	for i := 0; i < n; i++ {
		created := fmtTime(from.Add(time.Duration(i) * time.Millisecond))
		var finished any
		if runtypes.Final(r.Status) {
			finished = created
		}
		id := NewID()
		if _, err := stmt.ExecContext(ctx, id, r.Kind, nullString(r.WorkloadID), r.Strategy, r.Variant,
			string(params), r.Seed, r.Status, created, finished); err != nil {
			return dbErr(err)
		}
		if report != nil {
			if _, err := rep.ExecContext(ctx, id, report); err != nil {
				return dbErr(err)
			}
		}
	}
	return dbErr(tx.Commit())
}

// FillExperiment stores e with n copies of r as its runs, in one
// transaction, for tests and benchmarks of large experiments (100,000 runs
// in seconds). Run i gets a fresh ID, created_at e's, cell(i) as its place
// and metrics(i) as its rows of run_metrics (no report is stored); Status
// (done if empty), Params and the rest are copied as given, without the
// checks CreateExperiment makes. It sets e's ID, Status (running if
// empty), RunsTotal and CreatedAt.
func (s *Store) FillExperiment(ctx context.Context, e *Experiment, r runtypes.Run, n int,
	cell func(i int) ExperimentCell, metrics func(i int) []Metric) error {
	return s.FillExperimentStatus(ctx, e, r, n, cell, metrics, nil)
}

// FillExperimentStatus is FillExperiment with run i's status status(i)
// (r.Status for a nil status): an experiment part done, part queued.
func (s *Store) FillExperimentStatus(ctx context.Context, e *Experiment, r runtypes.Run, n int,
	cell func(i int) ExperimentCell, metrics func(i int) []Metric, status func(i int) string) error {
	params, err := json.Marshal(r.Params)
	if err != nil || r.Params == nil {
		params = []byte("{}")
	}
	r.Kind = cmp.Or(r.Kind, runtypes.KindRun)
	r.Status = cmp.Or(r.Status, runtypes.StatusDone)
	e.Status = cmp.Or(e.Status, ExperimentRunning)
	e.ID, e.RunsTotal, e.CreatedAt = NewID(), n, now()
	created := fmtTime(e.CreatedAt)
	var finished any
	if runtypes.Final(r.Status) {
		finished = created
	}
	tags, _ := json.Marshal(e.Tags)
	if e.Tags == nil {
		tags = []byte("[]")
	}
	def := string(e.Definition)
	def = cmp.Or(def, "{}")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO experiments
		(id, name, strategy, definition, tags, notes, owner, status, runs_total, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.ID, e.Name, e.Strategy, def, string(tags), e.Notes,
		nullString(e.Owner), e.Status, n, created); err != nil {
		return dbErr(err)
	}
	var stmts [3]*sql.Stmt
	for i, q := range []string{
		`INSERT INTO runs (id, kind, workload_id, strategy, variant, params, seed, status, created_at, finished_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		`INSERT INTO experiment_runs (experiment_id, position, run_id, cell, replicate) VALUES (?, ?, ?, ?, ?)`,
		`INSERT INTO run_metrics (run_id, name, value) VALUES (?, ?, ?)`,
	} {
		if stmts[i], err = tx.PrepareContext(ctx, q); err != nil {
			return dbErr(err)
		}
		defer stmts[i].Close()
	}
	for i := 0; i < n; i++ {
		id := NewID()
		st, fin := r.Status, finished
		if status != nil {
			if st = status(i); runtypes.Final(st) {
				fin = created
			} else {
				fin = nil
			}
		}
		if _, err := stmts[0].ExecContext(ctx, id, r.Kind, nullString(r.WorkloadID), r.Strategy, r.Variant,
			string(params), r.Seed, st, created, fin); err != nil {
			return dbErr(err)
		}
		c := cell(i)
		cj := string(c.Cell)
		cj = cmp.Or(cj, "{}")
		if _, err := stmts[1].ExecContext(ctx, e.ID, i, id, cj, c.Replicate); err != nil {
			return dbErr(err)
		}
		for _, m := range metrics(i) {
			if _, err := stmts[2].ExecContext(ctx, id, m.Name, m.Value); err != nil {
				return dbErr(err)
			}
		}
	}
	if err := recountExperiment(ctx, tx, e.ID); err != nil {
		return dbErr(err)
	}
	return dbErr(tx.Commit())
}
