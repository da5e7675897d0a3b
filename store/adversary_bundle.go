package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"schedlab/errs"
)

// SearchSnapshot is an ended adversarial search as it travels in a
// bundle (package bundle): its row, its evaluations in order, and its
// best instance's workload and runs (when kept), reports whole.
type SearchSnapshot struct {
	Search      AdversarySearch
	Evaluations []AdversaryEvaluation
	Workload    *SnapshotWorkload
	Runs        []SnapshotRun
}

// ExportAdversarySearch reads search id for a bundle, in one read
// transaction. A running search is errs.Conflict: it could not go on
// from a bundle.
func (s *Store) ExportAdversarySearch(ctx context.Context, id string) (*SearchSnapshot, error) {
	a, err := s.GetAdversarySearch(ctx, id)
	if err != nil {
		return nil, err
	}
	if a.Status == SearchRunning {
		return nil, errs.New(errs.Conflict, "id", "search %s is still running: export it once it has ended", id)
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, dbErr(err)
	}
	defer tx.Rollback()
	snap := &SearchSnapshot{Search: *a}
	if snap.Evaluations, err = s.AdversaryEvaluations(ctx, id); err != nil {
		return nil, err
	}
	if a.BestWorkloadID != "" {
		if err := snapshotWorkloads(ctx, tx, "id = ?", []any{a.BestWorkloadID}, func(w *SnapshotWorkload) error {
			snap.Workload = w
			return nil
		}); err != nil {
			return nil, dbErr(err)
		}
		if err := snapshotRuns(ctx, tx, `SELECT 0, '{}', 0, `+snapshotRunColumns+`
			FROM runs AS r LEFT JOIN run_reports AS rr ON rr.run_id = r.id
			WHERE r.workload_id = ? ORDER BY r.created_at, r.id`, []any{a.BestWorkloadID}, func(r *SnapshotRun) error {
			c := *r
			c.Report = append(json.RawMessage(nil), r.Report...)
			snap.Runs = append(snap.Runs, c)
			return nil
		}); err != nil {
			return nil, dbErr(err)
		}
	}
	return snap, nil
}

// ImportAdversarySearch stores an ended search read from a bundle,
// keeping its IDs, owned by owner, in one transaction. A search or run ID
// already here is errs.Conflict; the best's workload is reused when this
// database has it with the same data (and errs.Conflict with other data).
func (s *Store) ImportAdversarySearch(ctx context.Context, snap *SearchSnapshot, owner string) error {
	a := snap.Search
	if a.Status == SearchRunning || !isJSONObject(a.Config) || !isJSONObject(a.Best) {
		return invalid("search", "a bundle's search must have ended and carry JSON objects")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return dbErr(err)
	}
	defer tx.Rollback()
	conflict := func(format string, args ...any) error {
		return errs.New(errs.Conflict, "bundle", format, args...)
	}
	if err := exists(ctx, tx, "SELECT 1 FROM adversary_searches WHERE id = ?", a.ID); err == nil {
		return conflict("search %s is already in this database", a.ID)
	} else if !errors.Is(err, sql.ErrNoRows) {
		return dbErr(err)
	}
	ins, err := newImporter(ctx, tx)
	if err != nil {
		return dbErr(err)
	}
	defer ins.close()
	if w := snap.Workload; w != nil {
		var have string
		err := tx.QueryRowContext(ctx, "SELECT sha256 FROM workloads WHERE id = ?", w.ID).Scan(&have)
		switch {
		case err == nil && have != w.SHA256:
			return conflict("workload %s is already in this database with other data", w.ID)
		case errors.Is(err, sql.ErrNoRows):
			if err := ins.workload(ctx, w, owner); err != nil {
				return dbErr(err)
			}
		case err != nil:
			return dbErr(err)
		}
	}
	for i := range snap.Runs {
		err := ins.run(ctx, "", &snap.Runs[i], owner)
		if isIDCollision(err) {
			return conflict("run %s is already in this database", snap.Runs[i].ID)
		}
		if err != nil {
			return dbErr(err)
		}
	}
	var ended sql.NullString
	if a.EndedAt != nil {
		ended = sql.NullString{String: fmtTime(*a.EndedAt), Valid: true}
	}
	var best sql.NullString
	if snap.Workload != nil {
		best = sql.NullString{String: snap.Workload.ID, Valid: true}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO adversary_searches (id, strategy, config, owner, status, error, best,
		best_workload_id, build_version, build_commit, build_modified, created_at, ended_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, a.ID, a.Strategy, string(a.Config), nullString(owner), a.Status, a.Error,
		string(a.Best), best, a.Build.Version, a.Build.Commit, a.Build.Modified, fmtTime(a.CreatedAt), ended); err != nil {
		return dbErr(err)
	}
	for _, e := range snap.Evaluations {
		if !isJSONObject(e.Evaluation) {
			return invalid("evaluation", "evaluation %d is not a JSON object", e.Position)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO adversary_evaluations (search_id, position, key, evaluation) VALUES (?, ?, ?, ?)`,
			a.ID, e.Position, e.Key, string(e.Evaluation)); err != nil {
			return dbErr(err)
		}
	}
	return dbErr(tx.Commit())
}
