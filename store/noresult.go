package store

import (
	"context"
	"slices"
)

// A MetricNeed says that a done run of Strategy's Variant must give a
// finite value of metric Name, or it gave no result (report.Needed: a
// ranked result meaningful for the variant).
type MetricNeed struct {
	Strategy, Variant, Name string
}

// noResultJudge is true of a row of runs (a done run) that lacks a finite
// value of a metric its strategy and variant need (metric_needs): it gave
// no result. run_metrics keeps only numbers; NaN and ±Inf fail BETWEEN.
const noResultJudge = `EXISTS (SELECT 1 FROM metric_needs AS n
	WHERE n.strategy = runs.strategy AND n.variant = runs.variant
	AND NOT EXISTS (SELECT 1 FROM run_metrics AS m WHERE m.run_id = runs.id AND m.name = n.name
		AND m.value BETWEEN -1.7976931348623157e308 AND 1.7976931348623157e308))`

// judgeEnded marks run ?1, just ended, no_result when it is done and
// gave no result (End, in its transaction).
const judgeEnded = `UPDATE runs SET no_result = 1 WHERE id = ?1 AND status = 'done' AND kind = 'run' AND ` + noResultJudge

// SetMetricNeeds makes needs the metrics every done run must give (the
// families' declarations, which the server knows and the store does
// not), in one transaction, and judges again the done runs of each
// strategy whose needs changed (marking runs.no_result, which triggers
// count in experiment_counts): the server calls it when it starts, so
// runs done before migration 0013, or before a family declared its
// results, are counted as their run pages show them. It returns the
// strategies judged again (none when needs are as stored).
func (s *Store) SetMetricNeeds(ctx context.Context, needs []MetricNeed) ([]string, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, dbErr(err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, "SELECT strategy, variant, name FROM metric_needs")
	if err != nil {
		return nil, dbErr(err)
	}
	had := map[MetricNeed]bool{}
	for rows.Next() {
		var n MetricNeed
		if err := rows.Scan(&n.Strategy, &n.Variant, &n.Name); err != nil {
			rows.Close()
			return nil, dbErr(err)
		}
		had[n] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, dbErr(err)
	}
	want := map[MetricNeed]bool{}
	for _, n := range needs {
		want[n] = true
	}
	var changed []string
	for n := range want {
		if !had[n] {
			changed = append(changed, n.Strategy)
		}
	}
	for n := range had {
		if !want[n] {
			changed = append(changed, n.Strategy)
		}
	}
	if len(changed) == 0 {
		return nil, nil
	}
	slices.Sort(changed)
	changed = slices.Compact(changed)
	if _, err := tx.ExecContext(ctx, "DELETE FROM metric_needs"); err != nil {
		return nil, dbErr(err)
	}
	for n := range want {
		if _, err := tx.ExecContext(ctx, "INSERT INTO metric_needs (strategy, variant, name) VALUES (?, ?, ?)",
			n.Strategy, n.Variant, n.Name); err != nil {
			return nil, dbErr(err)
		}
	}
	for _, st := range changed {
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET no_result = `+noResultJudge+`
			WHERE strategy = ? AND status = 'done' AND kind = 'run' AND no_result != `+noResultJudge, st); err != nil {
			return nil, dbErr(err)
		}
	}
	return changed, dbErr(tx.Commit())
}
