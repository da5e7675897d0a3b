package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
)

// ExperimentRunFilter selects a page of an experiment's runs for its run
// list: empty fields match everything.
type ExperimentRunFilter struct {
	Status  string // one status
	Variant string
	Limit   int // at most this many (default 50, at most 500)
	Offset  int // skip this many, in the list's order
}

// ExperimentRunItem is one run of an experiment's run list.
type ExperimentRunItem struct {
	Position  int
	RunID     string
	Status    string
	Error     string
	Variant   string
	Cell      json.RawMessage
	Replicate int
}

// ExperimentRunList returns a page of the runs of experiment id that f
// selects, the runs that ended other than done first (failed, canceled,
// interrupted), then the others, each group in position order; and how
// many runs f selects in all. An unknown experiment is errs.NotFound.
func (s *Store) ExperimentRunList(ctx context.Context, id string, f ExperimentRunFilter) ([]ExperimentRunItem, int, error) {
	if f.Limit <= 0 {
		f.Limit = 50
	}
	f.Limit = min(f.Limit, 500)
	f.Offset = max(f.Offset, 0)
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, dbErr(err)
	}
	defer tx.Rollback()
	var one int
	if err := tx.QueryRowContext(ctx, "SELECT 1 FROM experiments WHERE id = ?", id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return nil, 0, notFound("experiment", id)
	} else if err != nil {
		return nil, 0, dbErr(err)
	}
	const where = ` FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
		WHERE er.experiment_id = ? AND (? = '' OR r.status = ?) AND (? = '' OR r.variant = ?)`
	args := []any{id, f.Status, f.Status, f.Variant, f.Variant}
	var total int
	if err := tx.QueryRowContext(ctx, "SELECT count(*)"+where, args...).Scan(&total); err != nil {
		return nil, 0, dbErr(err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT er.position, r.id, r.status, coalesce(r.error, ''), r.variant, er.cell, er.replicate`+where+`
		ORDER BY r.status IN ('done', 'queued', 'running'), er.position LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, dbErr(err)
	}
	defer rows.Close()
	var out []ExperimentRunItem
	for rows.Next() {
		var it ExperimentRunItem
		var cell string
		if err := rows.Scan(&it.Position, &it.RunID, &it.Status, &it.Error, &it.Variant, &cell, &it.Replicate); err != nil {
			return nil, 0, dbErr(err)
		}
		it.Cell = json.RawMessage(cell)
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, dbErr(err)
	}
	return out, total, nil
}

// ExperimentMetricDecls returns the metrics array of the report of the
// first done run of experiment id (JSON, a []solvers.Metric): the
// declarations (unit, better, kind, bounds) of its metrics, which the
// stored run_metrics do not keep; nil when no run is done yet.
func (s *Store) ExperimentMetricDecls(ctx context.Context, id string) (json.RawMessage, error) {
	var decls sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT json_extract(rr.report, '$.metrics')
		FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id JOIN run_reports AS rr ON rr.run_id = r.id
		WHERE er.experiment_id = ? AND r.status = 'done'
		ORDER BY er.position LIMIT 1`, id).Scan(&decls)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !decls.Valid {
		return nil, nil
	}
	if err != nil {
		return nil, dbErr(err)
	}
	return json.RawMessage(decls.String), nil
}
