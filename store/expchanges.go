package store

import (
	"context"
	"database/sql"
	"errors"
	"schedlab/runtypes"
	"slices"
	"strings"
)

// ExperimentState is one run of an experiment as its page keeps it:
// ExperimentResult with what the page's Cite block and worker list count
// (the run's ID, worker, workload and build).
type ExperimentState struct {
	ExperimentResult
	RunID      string
	Worker     string
	WorkloadID string
	Build      runtypes.Build
}

// Epoch is the epoch of version v of an experiment: a version of
// another epoch is of another experiment stored under the same ID (one
// deleted and imported again).
func Epoch(v int64) int64 { return v >> 32 }

// ExperimentChanges are the runs of an experiment read at one version of
// it (experiment_counts.version: its runs' status changes so far).
type ExperimentChanges struct {
	Version int64
	Counts  Counts
	// Runs are, in position order, every run (a full read) or those
	// that changed after the version asked.
	Runs []ExperimentState
}

// ExperimentVersion returns the kept counts of experiment id and its
// version, which moves on with every change of one of its runs' status or
// worker (and so with every end, which writes its metrics, report and
// build with its final status); errs.NotFound for an unknown experiment.
// One row. Its epoch (Epoch) is new each time the experiment is stored:
// changes are read since a version of the same epoch.
func (s *Store) ExperimentVersion(ctx context.Context, id string) (Counts, int64, error) {
	var c Counts
	var v int64
	err := s.db.QueryRowContext(ctx, "SELECT "+countsColumns+", version FROM experiment_counts WHERE experiment_id = ?", id).
		Scan(&c.Queued, &c.Running, &c.Done, &c.Failed, &c.Canceled, &c.Interrupted, &c.NoResult, &v)
	if errors.Is(err, sql.ErrNoRows) {
		return c, 0, notFound("experiment", id)
	}
	return c, v, dbErr(err)
}

// ExperimentChangesSince reads experiment id's runs that changed (their
// status or worker) after version since, with their metrics, in one read
// transaction; since < 0 reads every run. An unknown experiment is
// errs.NotFound. The changed runs are found through the index
// experiment_runs_changed: after one run ended, a few rows are read
// whatever the experiment's size.
func (s *Store) ExperimentChangesSince(ctx context.Context, id string, since int64) (*ExperimentChanges, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, dbErr(err)
	}
	defer tx.Rollback()
	out := &ExperimentChanges{}
	c := &out.Counts
	err = tx.QueryRowContext(ctx, "SELECT "+countsColumns+", version FROM experiment_counts WHERE experiment_id = ?", id).
		Scan(&c.Queued, &c.Running, &c.Done, &c.Failed, &c.Canceled, &c.Interrupted, &c.NoResult, &out.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("experiment", id)
	}
	if err != nil {
		return nil, dbErr(err)
	}
	const cols = `SELECT er.position, er.cell, er.replicate, r.status, r.variant, r.id, r.worker,
			coalesce(r.workload_id, ''), r.build_version, r.build_commit, r.build_modified
		FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id `
	in := interner{}
	if since < 0 {
		if out.Runs, err = scanStates(ctx, tx, in, out.Counts.Total(), cols+"WHERE er.experiment_id = ? ORDER BY er.position", id); err != nil {
			return nil, dbErr(err)
		}
		if err := allMetrics(ctx, tx, in, id, out.Runs); err != nil {
			return nil, dbErr(err)
		}
		return out, nil
	}
	// No ORDER BY: by position, SQLite might walk the primary key (every
	// run) rather than sort the few the index finds.
	if out.Runs, err = scanStates(ctx, tx, in, 0, cols+"WHERE er.experiment_id = ? AND er.changed > ?", id, since); err != nil {
		return nil, dbErr(err)
	}
	slices.SortFunc(out.Runs, func(a, b ExperimentState) int { return a.Position - b.Position })
	if err := someMetrics(ctx, tx, in, out.Runs); err != nil {
		return nil, dbErr(err)
	}
	return out, nil
}

// scanStates reads the runs query selects (the columns of
// ExperimentChangesSince), strings made once per distinct value.
func scanStates(ctx context.Context, tx *sql.Tx, in interner, n int, query string, args ...any) ([]ExperimentState, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]ExperimentState, 0, n)
	var (
		st                                    ExperimentState
		cell, status, variant, runID, worker  sql.RawBytes
		workload, bVersion, bCommit, bModifed sql.RawBytes
	)
	for rows.Next() {
		if err := rows.Scan(&st.Position, &cell, &st.Replicate, &status, &variant, &runID, &worker,
			&workload, &bVersion, &bCommit, &bModifed); err != nil {
			return nil, err
		}
		st.Cell, st.Status, st.Variant = in.str(cell), in.str(status), in.str(variant)
		st.RunID, st.Worker, st.WorkloadID = string(runID), in.str(worker), in.str(workload)
		st.Build = runtypes.Build{Version: in.str(bVersion), Commit: in.str(bCommit), Modified: in.str(bModifed)}
		out = append(out, st)
	}
	return out, rows.Err()
}

// allMetrics gives runs, all of experiment id's in position order, their
// metrics: all runs' in one array, each run's in name order. The metrics
// are selected by run_id IN (the experiment's runs), in key order of
// run_metrics, each placed by the link found in the index
// experiment_runs_run, also in key order: a join from the links in
// position order would seek run_metrics at random (slower by half at
// 100,000 runs).
func allMetrics(ctx context.Context, tx *sql.Tx, in interner, id string, runs []ExperimentState) error {
	at := func(pos int) int {
		if pos >= 0 && pos < len(runs) && runs[pos].Position == pos {
			return pos
		}
		i, ok := slices.BinarySearchFunc(runs, pos, func(r ExperimentState, p int) int { return r.Position - p })
		if !ok {
			return -1
		}
		return i
	}
	rows, err := tx.QueryContext(ctx, `WITH er AS MATERIALIZED (
			SELECT run_id, position FROM experiment_runs WHERE experiment_id = ? ORDER BY run_id)
		SELECT er.position, m.name, m.value FROM er CROSS JOIN run_metrics AS m ON m.run_id = er.run_id`, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	type posMetric struct {
		i int
		m Metric
	}
	read := make([]posMetric, 0, 4*len(runs))
	var (
		pos   int
		name  sql.RawBytes
		value float64
	)
	for rows.Next() {
		if err := rows.Scan(&pos, &name, &value); err != nil {
			return err
		}
		if i := at(pos); i >= 0 {
			read = append(read, posMetric{i, Metric{Name: in.str(name), Value: value}})
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	count := make([]int32, len(runs)+1)
	for _, pm := range read {
		count[pm.i+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	metrics := make([]Metric, len(read))
	next := slices.Clone(count[:len(runs)])
	for _, pm := range read {
		metrics[next[pm.i]] = pm.m
		next[pm.i]++
	}
	for i := range runs {
		if count[i+1] > count[i] {
			ms := metrics[count[i]:count[i+1]:count[i+1]]
			slices.SortFunc(ms, func(a, b Metric) int { return strings.Compare(a.Name, b.Name) })
			runs[i].Metrics = ms
		}
	}
	return nil
}

// someMetrics gives the done runs of runs their metrics, each run's in
// name order, read by run ID.
func someMetrics(ctx context.Context, tx *sql.Tx, in interner, runs []ExperimentState) error {
	index := map[string]int{}
	var ids []any
	for i := range runs {
		if runs[i].Status == runtypes.StatusDone {
			index[runs[i].RunID] = i
			ids = append(ids, runs[i].RunID)
		}
	}
	for chunk := range slices.Chunk(ids, 500) {
		rows, err := tx.QueryContext(ctx, "SELECT run_id, name, value FROM run_metrics WHERE run_id IN (?"+
			strings.Repeat(", ?", len(chunk)-1)+")", chunk...)
		if err != nil {
			return err
		}
		var (
			runID, name sql.RawBytes
			value       float64
		)
		for rows.Next() {
			if err := rows.Scan(&runID, &name, &value); err != nil {
				rows.Close()
				return err
			}
			r := &runs[index[string(runID)]]
			r.Metrics = append(r.Metrics, Metric{Name: in.str(name), Value: value})
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return err
		}
		rows.Close()
	}
	for i := range runs {
		slices.SortFunc(runs[i].Metrics, func(a, b Metric) int { return strings.Compare(a.Name, b.Name) })
	}
	return nil
}
