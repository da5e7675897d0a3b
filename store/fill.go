package store

import (
	"context"
	"encoding/json"
	"time"
)

// FillRuns inserts n copies of r in one transaction, for tests and
// benchmarks that need a large database fast (10,000 runs take well under a
// second where CreateRun would commit each). Each copy gets a fresh ID and a
// created_at one millisecond after the previous, starting at from; Status,
// Params, Report and the rest are copied as given, without the checks
// CreateRun makes.
func (s *Store) FillRuns(ctx context.Context, r Run, n int, from time.Time) error {
	const op = "store.FillRuns"
	params, err := json.Marshal(r.Params)
	if err != nil || r.Params == nil {
		params = []byte("{}")
	}
	if r.Kind == "" {
		r.Kind = KindRun
	}
	if r.Status == "" {
		r.Status = StatusQueued
	}
	var report any
	if len(r.Report) > 0 {
		report = string(r.Report)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(op, err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO runs
		(id, kind, workload_id, strategy, variant, params, seed, status, created_at, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return dbErr(op, err)
	}
	defer stmt.Close()
	rep, err := tx.PrepareContext(ctx, "INSERT INTO run_reports (run_id, report) VALUES (?, ?)")
	if err != nil {
		return dbErr(op, err)
	}
	defer rep.Close()
	for i := 0; i < n; i++ {
		created := fmtTime(from.Add(time.Duration(i) * time.Millisecond))
		var finished any
		if Final(r.Status) {
			finished = created
		}
		id := NewID()
		if _, err := stmt.ExecContext(ctx, id, r.Kind, nullString(r.WorkloadID), r.Strategy, r.Variant,
			string(params), r.Seed, r.Status, created, finished); err != nil {
			return dbErr(op, err)
		}
		if report != nil {
			if _, err := rep.ExecContext(ctx, id, report); err != nil {
				return dbErr(op, err)
			}
		}
	}
	return dbErr(op, tx.Commit())
}
