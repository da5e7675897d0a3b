package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"schedlab/runtypes"
	"strings"
)

// ExperimentRunFilter selects a page of an experiment's runs for its run
// list: empty fields match everything.
type ExperimentRunFilter struct {
	Status  string // one status
	Variant string
	Limit   int // at most this many (default 50, at most 500)
	Offset  int // skip this many, in the list's order
	// Positions, when set, selects the runs at these positions only
	// (at most 500 are read): the runs a caller found in the results.
	Positions []int
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
	f.Limit = runtypes.OrDefault(f.Limit, 50)
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
	where := ` FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
		WHERE er.experiment_id = ? AND (? = '' OR r.status = ?) AND (? = '' OR r.variant = ?)`
	args := []any{id, f.Status, f.Status, f.Variant, f.Variant}
	if len(f.Positions) > 0 {
		ps := f.Positions[:min(len(f.Positions), 500)]
		where += " AND er.position IN (?" + strings.Repeat(", ?", len(ps)-1) + ")"
		for _, p := range ps {
			args = append(args, p)
		}
	}
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

// ExperimentMetricDecls returns, for each variant of experiment id with a
// done run, the metrics array of the report of its first done run (JSON,
// a []report.Metric), in the order of those runs' positions: the
// declarations (unit, better, kind, bounds, variants) of its metrics,
// which the stored run_metrics do not keep. One report per variant, not
// the first report of all: a critical-works run that stopped carries no
// makespan, HEFT's beside it does (issue 38 item 4). Empty when no run
// is done yet.
// The experiment's page finds these runs in its snapshot and reads their
// reports by ID (RunOutcomes); this query of the whole experiment is
// what checks it.
func (s *Store) ExperimentMetricDecls(ctx context.Context, id string) ([]json.RawMessage, error) {
	rows, err := s.db.QueryContext(ctx, `WITH firsts AS (
			SELECT min(er.position) AS position
			FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
			WHERE er.experiment_id = ? AND r.status = 'done' GROUP BY r.variant)
		SELECT json_extract(rr.report, '$.metrics')
		FROM firsts JOIN experiment_runs AS er ON er.experiment_id = ? AND er.position = firsts.position
			JOIN run_reports AS rr ON rr.run_id = er.run_id
		ORDER BY firsts.position`, id, id)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	var out []json.RawMessage
	for rows.Next() {
		var decls sql.NullString
		if err := rows.Scan(&decls); err != nil {
			return nil, dbErr(err)
		}
		if decls.Valid {
			out = append(out, json.RawMessage(decls.String))
		}
	}
	return out, dbErr(rows.Err())
}

// RunOutcome is what a run list needs of a done run's report to say why
// it gave no result: its metrics array and its notes (JSON, as stored).
type RunOutcome struct {
	Metrics json.RawMessage
	Notes   json.RawMessage
}

// RunOutcomes returns the metrics and notes of the reports of the runs
// ids that have one (at most 500 ids are read), by run ID.
func (s *Store) RunOutcomes(ctx context.Context, ids []string) (map[string]RunOutcome, error) {
	out := map[string]RunOutcome{}
	if len(ids) == 0 {
		return out, nil
	}
	ids = ids[:min(len(ids), 500)]
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT run_id, json_extract(report, '$.metrics'), json_extract(report, '$.notes')
		FROM run_reports WHERE run_id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var ms, notes sql.NullString
		if err := rows.Scan(&id, &ms, &notes); err != nil {
			return nil, dbErr(err)
		}
		var o RunOutcome
		if ms.Valid {
			o.Metrics = json.RawMessage(ms.String)
		}
		if notes.Valid {
			o.Notes = json.RawMessage(notes.String)
		}
		out[id] = o
	}
	return out, dbErr(rows.Err())
}
