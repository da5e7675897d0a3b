package store

import (
	"context"
	"schedlab/runtypes"
	"slices"
	"strings"
	"testing"
	"time"
)

// changedSince is the positions of experiment id's runs that changed since
// version since, and the version read.
func changedSince(t *testing.T, s *Store, id string, since int64) ([]int, int64, *ExperimentChanges) {
	t.Helper()
	ch, err := s.ExperimentChangesSince(context.Background(), id, since)
	if err != nil {
		t.Fatal(err)
	}
	var pos []int
	for _, r := range ch.Runs {
		pos = append(pos, r.Position)
	}
	_, v, err := s.ExperimentVersion(context.Background(), id)
	if err != nil || v != ch.Version {
		t.Fatalf("ExperimentVersion %d, %v; the changes were read at %d", v, err, ch.Version)
	}
	return pos, ch.Version, ch
}

// TestExperimentChangesSince: every change of a run's status or worker
// moves its experiment's version on, and the runs read since a version
// are exactly those changed after it, with their status, worker, build
// and metrics; a full read has every run in position order.
func TestExperimentChangesSince(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e, runs := addExperiment(t, s, w, 10)
	other, _ := addExperiment(t, s, w, 3)
	pos, v0, _ := changedSince(t, s, e.ID, 0)
	if len(pos) != 0 {
		t.Fatalf("changed at creation: %v", pos)
	}
	claim(t, s, runs[0].ID)
	claim(t, s, runs[1].ID)
	pos, v1, ch := changedSince(t, s, e.ID, v0)
	if !slices.Equal(pos, []int{0, 1}) || v1 != v0+2 || ch.Runs[1].Status != runtypes.StatusRunning || ch.Counts.Running != 2 {
		t.Fatalf("after 2 claims: %v at %d (from %d), %+v", pos, v1, v0, ch)
	}
	// A worker starting a run changes it; the same worker again does not.
	if err := s.SetProgressBy(ctx, runs[1].ID, "host:1", time.Now(), 1, 3, ""); err != nil {
		t.Fatal(err)
	}
	pos, v2, ch := changedSince(t, s, e.ID, v1)
	if !slices.Equal(pos, []int{1}) || ch.Runs[0].Worker != "host:1" {
		t.Fatalf("after a start: %v %+v", pos, ch.Runs)
	}
	if err := s.SetProgressBy(ctx, runs[1].ID, "host:1", time.Now(), 2, 3, ""); err != nil {
		t.Fatal(err)
	}
	if pos, v, _ := changedSince(t, s, e.ID, v2); len(pos) != 0 || v != v2 {
		t.Fatalf("progress alone changed %v (version %d, was %d)", pos, v, v2)
	}
	b := runtypes.Build{Version: "v9", Commit: "abc", Modified: "true"}
	outs := s.End(ctx, []Ending{{ID: runs[1].ID, Worker: "host:1", Build: b, Status: runtypes.StatusDone,
		Report: []byte(`{"metrics":[{"name":"z","value":2},{"name":"a","value":1}]}`)},
		{ID: runs[0].ID, Status: runtypes.StatusFailed, Error: "boom"}})
	if outs[0] != nil || outs[1] != nil {
		t.Fatal(outs)
	}
	pos, _, ch = changedSince(t, s, e.ID, v2)
	if !slices.Equal(pos, []int{0, 1}) {
		t.Fatalf("after 2 ends: %v", pos)
	}
	done := ch.Runs[1]
	if done.Status != runtypes.StatusDone || done.Build != b || done.RunID != runs[1].ID || done.WorkloadID != w.ID ||
		len(done.Metrics) != 2 || done.Metrics[0] != (Metric{"a", 1}) || done.Metrics[1] != (Metric{"z", 2}) {
		t.Fatalf("the done run read: %+v", done)
	}
	if ch.Runs[0].Status != runtypes.StatusFailed || ch.Runs[0].Metrics != nil {
		t.Fatalf("the failed run read: %+v", ch.Runs[0])
	}
	// Another experiment's changes are its own.
	if pos, _, _ := changedSince(t, s, other.ID, 0); len(pos) != 0 {
		t.Fatalf("the other experiment changed: %v", pos)
	}
	// A cancel changes every queued run.
	if _, err := s.CancelExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	pos, v3, _ := changedSince(t, s, e.ID, v2)
	if !slices.Equal(pos, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("after a cancel: %v", pos)
	}
	if _, err := s.ResumeExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	if pos, _, _ := changedSince(t, s, e.ID, v3); !slices.Equal(pos, []int{2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("after a resume: %v", pos)
	}
	// A full read: every run, in position order, the done one's metrics.
	pos, _, ch = changedSince(t, s, e.ID, -1)
	if !slices.Equal(pos, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) || len(ch.Runs[1].Metrics) != 2 || ch.Runs[1].Worker != "host:1" {
		t.Fatalf("full read: %v %+v", pos, ch.Runs[1])
	}
}

// TestExperimentChangesUseTheIndex: the runs changed since a version are
// found through experiment_runs_changed, not by reading every run.
func TestExperimentChangesUseTheIndex(t *testing.T) {
	s, _ := openTemp(t)
	rows, err := s.db.Query(`EXPLAIN QUERY PLAN SELECT er.position, er.cell, er.replicate, r.status, r.variant, r.id, r.worker,
			coalesce(r.workload_id, ''), r.build_version, r.build_commit, r.build_modified
		FROM experiment_runs AS er JOIN runs AS r ON r.id = er.run_id WHERE er.experiment_id = ? AND er.changed > ?`, "x", 3)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if !strings.Contains(strings.Join(plan, "\n"), "USING COVERING INDEX experiment_runs_changed (experiment_id=? AND changed>?)") &&
		!strings.Contains(strings.Join(plan, "\n"), "USING INDEX experiment_runs_changed (experiment_id=? AND changed>?)") {
		t.Fatalf("plan:\n%s", strings.Join(plan, "\n"))
	}
}

// TestExperimentChangesAfterMigration opens a file of schema 12 holding an
// experiment: its runs count as unchanged (0013), and change from then on.
func TestExperimentChangesAfterMigration(t *testing.T) {
	const at = "2026-01-02T03:04:05.000000Z"
	path := oldDatabase(t, 12,
		`INSERT INTO workloads (id, strategy, name, sha256, bytes, data, created_at) VALUES ('w', 'eapm', 'w', '', 0, x'', '`+at+`')`,
		`INSERT INTO runs (id, kind, workload_id, strategy, status, created_at) VALUES
			('r1', 'run', 'w', 'eapm', 'done', '`+at+`'), ('r2', 'run', 'w', 'eapm', 'queued', '`+at+`')`,
		`INSERT INTO experiments (id, strategy, definition, status, runs_total, created_at) VALUES
			('x', 'eapm', '{}', 'running', 2, '`+at+`')`,
		`INSERT INTO experiment_runs (experiment_id, position, run_id) VALUES ('x', 0, 'r1'), ('x', 1, 'r2')`,
	)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pos, v, _ := changedSince(t, s, "x", 0)
	if len(pos) != 0 || v != 0 {
		t.Fatalf("after the migration: %v at %d", pos, v)
	}
	claim(t, s, "r2")
	if pos, _, ch := changedSince(t, s, "x", v); !slices.Equal(pos, []int{1}) || ch.Counts.Running != 1 {
		t.Fatalf("claimed after the migration: %v", pos)
	}
}
