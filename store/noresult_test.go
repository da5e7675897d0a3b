package store

import (
	"context"
	"schedlab/runtypes"
	"testing"
)

// TestNoResultCounted: a done run without a finite value of a metric its
// strategy and variant need counts in NoResult, and as failed in
// ExperimentProgress, whether it ended after the needs were set (End),
// before (SetMetricNeeds judges the runs again) or came with its
// experiment (recount); needs that change judge the runs again, and
// needs as stored change nothing.
func TestNoResultCounted(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e, runs := addExperiment(t, s, w, 6)
	end := func(i int, status, report string) {
		t.Helper()
		claim(t, s, runs[i].ID)
		if err := s.Finish(ctx, runs[i].ID, status, []byte(report), "", ""); err != nil {
			t.Fatal(err)
		}
	}
	// Before any needs: nothing is without a result.
	end(0, runtypes.StatusDone, `{"metrics":[{"name":"energy","value":3}]}`)
	checkCounts(t, s, e.ID, "no needs", Counts{Queued: 5, Done: 1})
	judged, err := s.SetMetricNeeds(ctx, []MetricNeed{{"eapm", "online", "objective"}, {"eapm", "other", "energy"}})
	if err != nil || len(judged) != 1 || judged[0] != "eapm" {
		t.Fatalf("SetMetricNeeds = %v, %v", judged, err)
	}
	checkCounts(t, s, e.ID, "needs set: run 0 has no objective", Counts{Queued: 5, Done: 1, NoResult: 1})
	end(1, runtypes.StatusDone, `{"metrics":[{"name":"objective","value":1},{"name":"energy","value":3}]}`)
	end(2, runtypes.StatusDone, `{"metrics":[{"name":"objective","value":"many"}]}`)
	end(3, runtypes.StatusDone, ``)
	end(4, runtypes.StatusFailed, ``)
	checkCounts(t, s, e.ID, "ended", Counts{Queued: 1, Done: 4, Failed: 1, NoResult: 3})
	if judged, err := s.SetMetricNeeds(ctx, []MetricNeed{{"eapm", "other", "energy"}, {"eapm", "online", "objective"}}); err != nil || judged != nil {
		t.Fatalf("the same needs again: %v, %v", judged, err)
	}
	// Needs no longer: judged again.
	if _, err := s.SetMetricNeeds(ctx, []MetricNeed{{"eapm", "online", "energy"}}); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, e.ID, "energy needed", Counts{Queued: 1, Done: 4, Failed: 1, NoResult: 2})
	// Exported, deleted and imported: judged with its experiment.
	end(5, runtypes.StatusDone, `{"metrics":[{"name":"energy","value":1e999}]}`)
	checkCounts(t, s, e.ID, "an infinite energy", Counts{Done: 5, Failed: 1, NoResult: 3})
	snap := exportMem(t, s, e.ID)
	_, before, _ := s.ExperimentVersion(ctx, e.ID)
	if err := s.DeleteExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportExperiment(ctx, snap, ""); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, s, e.ID, "imported", Counts{Done: 5, Failed: 1, NoResult: 3})
	// Imported under its ID, it is another experiment to a page that
	// read it before: another epoch.
	if _, after, _ := s.ExperimentVersion(ctx, e.ID); Epoch(after) <= Epoch(before) {
		t.Errorf("version %x before the delete, %x after the import: the same epoch", before, after)
	}
}
