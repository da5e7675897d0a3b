package store

import (
	"context"
	"schedlab/runtypes"
)

// BuildCount is a build and how many runs it executed.
type BuildCount struct {
	Build runtypes.Build
	Runs  int
}

// ExperimentCitation is what citing experiment id needs: the builds that
// executed its done runs, each with its count, in the order of their first
// run; and the IDs of the workloads its runs use, at most maxWorkloads of
// them in the order of the runs' positions, with the number of the others.
// The experiment's page counts the same from its snapshot, brought up to
// date as runs end (ExperimentChangesSince); this query of the whole
// experiment is what checks it.
func (s *Store) ExperimentCitation(ctx context.Context, id string, maxWorkloads int) (builds []BuildCount, workloads []string, more int, err error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.build_version, r.build_commit, r.build_modified, COUNT(*)
		FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
		WHERE er.experiment_id = ? AND r.status = ?
		GROUP BY r.build_version, r.build_commit, r.build_modified ORDER BY MIN(er.position)`, id, runtypes.StatusDone)
	if err != nil {
		return nil, nil, 0, dbErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var b BuildCount
		if err := rows.Scan(&b.Build.Version, &b.Build.Commit, &b.Build.Modified, &b.Runs); err != nil {
			return nil, nil, 0, dbErr(err)
		}
		builds = append(builds, b)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, 0, dbErr(err)
	}
	wrows, err := s.db.QueryContext(ctx, `SELECT r.workload_id FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id
		WHERE er.experiment_id = ? AND r.workload_id IS NOT NULL GROUP BY r.workload_id ORDER BY MIN(er.position)`, id)
	if err != nil {
		return nil, nil, 0, dbErr(err)
	}
	defer wrows.Close()
	for wrows.Next() {
		var w string
		if err := wrows.Scan(&w); err != nil {
			return nil, nil, 0, dbErr(err)
		}
		if len(workloads) < maxWorkloads {
			workloads = append(workloads, w)
		} else {
			more++
		}
	}
	return builds, workloads, more, dbErr(wrows.Err())
}
