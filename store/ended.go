package store

import (
	"context"
	"schedlab/runtypes"
)

// activeOrResumable are the run statuses that keep an experiment going: a
// queued or running run, and an interrupted one, which the next start
// queues again (RequeueExperimentRuns), so a shutdown never ends an
// experiment.
const activeOrResumable = `r.status IN ('` + runtypes.StatusQueued + `', '` + runtypes.StatusRunning + `', '` + runtypes.StatusInterrupted + `')`

// EndedExperiments lists the running experiments whose runs have all
// ended (none queued, running or interrupted), oldest first: the ones
// MarkExperimentEnded marks done. Each experiment's runs are looked at
// from its last position back, where a sweep's pending runs are (runs are
// claimed in position order), so an experiment still under way costs a
// few index steps (BenchmarkEndedExperimentsPoll).
func (s *Store) EndedExperiments(ctx context.Context) ([]string, error) {
	// A scalar subquery, not NOT EXISTS: SQLite drops the ORDER BY of an
	// EXISTS subquery and would walk the runs from the first position.
	rows, err := s.db.QueryContext(ctx, `SELECT e.id FROM experiments AS e WHERE e.status = ? AND (
			SELECT er.position FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
			WHERE er.experiment_id = e.id AND `+activeOrResumable+` ORDER BY er.position DESC LIMIT 1) IS NULL
		ORDER BY e.created_at, e.id`, ExperimentRunning)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, dbErr(err)
		}
		ids = append(ids, id)
	}
	return ids, dbErr(rows.Err())
}

// MarkExperimentEnded marks experiment id done if it is running and its
// runs have all ended, in one statement, and says whether this call did:
// of several callers (processes) that see it end, exactly one gets true,
// the one that announces it.
func (s *Store) MarkExperimentEnded(ctx context.Context, id string) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE experiments SET status = ?1 WHERE id = ?2 AND status = ?3 AND NOT EXISTS (
			SELECT 1 FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
			WHERE er.experiment_id = ?2 AND `+activeOrResumable+`)`, ExperimentDone, id, ExperimentRunning)
	if err != nil {
		return false, dbErr(err)
	}
	n, err := res.RowsAffected()
	return n == 1, dbErr(err)
}
