package store

import (
	"context"
	"testing"

	"schedlab/errs"
	"schedlab/runtypes"
)

// checkCounts compares the kept counts of experiment id with a count of
// its runs, and with want.
func checkCounts(t *testing.T, s *Store, id, step string, want Counts) {
	t.Helper()
	ctx := context.Background()
	kept, err := s.ExperimentCounts(ctx, id)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	scanned, err := s.CountExperimentRuns(ctx, id)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if kept != scanned {
		t.Fatalf("%s: kept counts %+v, the runs say %+v", step, kept, scanned)
	}
	if kept != want {
		t.Fatalf("%s: counts %+v, want %+v", step, kept, want)
	}
	total, done, failed, active, err := s.ExperimentProgress(ctx, id)
	if err != nil || total != want.Total() || done != want.Done-want.NoResult || failed != want.Failed+want.Canceled+want.Interrupted+want.NoResult ||
		active != want.Queued+want.Running {
		t.Fatalf("%s: progress %d %d %d %d %v from %+v", step, total, done, failed, active, err, want)
	}
}

func TestExperimentCountsFollowEveryStatusChange(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e, runs := addExperiment(t, s, w, 10)
	other, _ := addExperiment(t, s, w, 3) // queued after e's runs
	checkCounts(t, s, e.ID, "created", Counts{Queued: 10})
	checkCounts(t, s, other.ID, "created", Counts{Queued: 3})

	// Claims, one and several; a claim handed back.
	claim(t, s, runs[0].ID)
	got, err := s.ClaimUpTo(ctx, 3)
	if err != nil || len(got) != 3 {
		t.Fatalf("ClaimUpTo = %v, %v", got, err)
	}
	checkCounts(t, s, e.ID, "claimed 4", Counts{Queued: 6, Running: 4})
	if err := s.Unclaim(ctx, []string{got[2].ID}); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, e.ID, "unclaimed 1", Counts{Queued: 7, Running: 3})

	// Ends: done and failed one at a time, then a group with a run that
	// is not running (a conflict, which changes nothing).
	if err := s.Finish(ctx, runs[0].ID, runtypes.StatusDone, []byte(`{"metrics":[{"name":"m","value":1}]}`), "", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, got[0].ID, runtypes.StatusFailed, nil, "boom", "gamma"); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, e.ID, "one done, one failed", Counts{Queued: 7, Running: 1, Done: 1, Failed: 1})
	outs := s.End(ctx, []Ending{{ID: got[1].ID, Status: runtypes.StatusDone, Report: []byte(`{}`)}, {ID: runs[0].ID, Status: runtypes.StatusFailed}})
	if outs[0] != nil || !errs.Is(outs[1], errs.Conflict) {
		t.Fatalf("End = %v", outs)
	}
	checkCounts(t, s, e.ID, "group end", Counts{Queued: 7, Done: 2, Failed: 1})

	// A queued run canceled alone; a finished one cannot be.
	var queued []string
	for _, r := range runs {
		if rr, _ := s.GetRunInfo(ctx, r.ID); rr.Status == runtypes.StatusQueued {
			queued = append(queued, r.ID)
		}
	}
	if err := s.CancelQueued(ctx, queued[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelQueued(ctx, runs[0].ID); err == nil {
		t.Fatal("canceled a done run")
	}
	checkCounts(t, s, e.ID, "one canceled", Counts{Queued: 6, Done: 2, Failed: 1, Canceled: 1})

	// The experiment canceled with a run running: the queued ones are
	// canceled, the running one stays until its end is stored.
	claim(t, s, queued[1])
	running, err := s.CancelExperiment(ctx, e.ID)
	if err != nil || len(running) != 1 || running[0] != queued[1] {
		t.Fatalf("CancelExperiment = %v, %v", running, err)
	}
	checkCounts(t, s, e.ID, "experiment canceled", Counts{Running: 1, Done: 2, Failed: 1, Canceled: 6})
	if err := s.Finish(ctx, queued[1], runtypes.StatusCanceled, nil, runtypes.MsgCanceled, ""); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, e.ID, "running run canceled", Counts{Done: 2, Failed: 1, Canceled: 7})

	// Resumed: the canceled runs are queued again; failed stays failed.
	if n, err := s.ResumeExperiment(ctx, e.ID); err != nil || n != 7 {
		t.Fatalf("ResumeExperiment = %d, %v", n, err)
	}
	checkCounts(t, s, e.ID, "resumed", Counts{Queued: 7, Done: 2, Failed: 1})

	// A restart: running runs become interrupted, and an experiment's are
	// queued again.
	claim(t, s, queued[0])
	claim(t, s, queued[1])
	if n, err := s.MarkInterrupted(ctx); err != nil || n != 2 {
		t.Fatalf("MarkInterrupted = %d, %v", n, err)
	}
	checkCounts(t, s, e.ID, "interrupted", Counts{Queued: 5, Done: 2, Failed: 1, Interrupted: 2})
	if n, err := s.RequeueExperimentRuns(ctx); err != nil || n != 2 {
		t.Fatalf("RequeueExperimentRuns = %d, %v", n, err)
	}
	checkCounts(t, s, e.ID, "requeued", Counts{Queued: 7, Done: 2, Failed: 1})

	// A re-run of an experiment's run is a new run outside the experiment:
	// the experiment's counts do not change as it runs.
	re, err := s.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: w.Strategy, Variant: "online", RerunOf: got[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	for {
		r, err := s.ClaimNext(ctx)
		if err != nil || r == nil {
			t.Fatalf("claiming up to the re-run: %v, %v", r, err)
		}
		if err := s.Finish(ctx, r.ID, runtypes.StatusDone, []byte(`{}`), "", ""); err != nil {
			t.Fatal(err)
		}
		if r.ID == re.ID {
			break
		}
	}
	checkCounts(t, s, e.ID, "every run done", Counts{Done: 9, Failed: 1})
	checkCounts(t, s, other.ID, "the other experiment, claimed on the way", Counts{Done: 3})

	// Exported, deleted (its counts go with it), imported: counted again.
	snap := exportMem(t, s, e.ID)
	if err := s.DeleteExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ExperimentCounts(ctx, e.ID); !errs.Is(err, errs.NotFound) {
		t.Fatalf("counts of a deleted experiment: %v", err)
	}
	if n := count(t, s, "experiment_counts"); n != 1 {
		t.Errorf("%d rows of counts left, want the other experiment's", n)
	}
	if _, err := s.ImportExperiment(ctx, snap, ""); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, e.ID, "imported", Counts{Done: 9, Failed: 1})
}

// TestExperimentCountsBackfilled opens a file of schema 10 holding an
// experiment whose runs are in several statuses: migration 0011 counts them.
func TestExperimentCountsBackfilled(t *testing.T) {
	const at = "2026-01-02T03:04:05.000000Z"
	path := oldDatabase(t, 10,
		`INSERT INTO workloads (id, strategy, name, sha256, bytes, data, created_at) VALUES ('w', 'eapm', 'w', '', 0, x'', '`+at+`')`,
		`INSERT INTO runs (id, kind, workload_id, strategy, status, created_at) VALUES
			('r1', 'run', 'w', 'eapm', 'done', '`+at+`'), ('r2', 'run', 'w', 'eapm', 'failed', '`+at+`'),
			('r3', 'run', 'w', 'eapm', 'queued', '`+at+`'), ('r4', 'run', 'w', 'eapm', 'done', '`+at+`'),
			('r5', 'run', 'w', 'eapm', 'interrupted', '`+at+`'), ('r6', 'run', 'w', 'eapm', 'done', '`+at+`')`,
		`INSERT INTO experiments (id, strategy, definition, status, runs_total, created_at) VALUES
			('x', 'eapm', '{}', 'running', 5, '`+at+`'), ('empty', 'eapm', '{}', 'canceled', 0, '`+at+`')`,
		`INSERT INTO experiment_runs (experiment_id, position, run_id) VALUES ('x', 0, 'r1'), ('x', 1, 'r2'),
			('x', 2, 'r3'), ('x', 3, 'r4'), ('x', 4, 'r5')`,
	)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkCounts(t, s, "x", "backfilled", Counts{Queued: 1, Done: 2, Failed: 1, Interrupted: 1})
	checkCounts(t, s, "empty", "backfilled, no runs", Counts{})
	// And kept from then on.
	claim(t, s, "r3")
	checkCounts(t, s, "x", "claimed after the migration", Counts{Running: 1, Done: 2, Failed: 1, Interrupted: 1})
}
