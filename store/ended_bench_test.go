package store

import (
	"context"
	"path/filepath"
	"schedlab/runtypes"
	"testing"
)

// BenchmarkEndedExperimentsPoll is one look of the notify watcher (every
// 2 s) over a 20,000-run experiment with its last run still queued and a
// finished 20,000-run experiment already marked done: the cost a running
// server pays per poll.
//
//	go test ./store -run XXX -bench EndedExperimentsPoll -benchtime 200x
func BenchmarkEndedExperimentsPoll(b *testing.B) {
	ctx := context.Background()
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Format: "json", Data: []byte(`{}`)}
	if err := s.CreateWorkload(ctx, w); err != nil {
		b.Fatal(err)
	}
	for k := range 2 {
		runs, cells := sweep(w, []string{"online", "average"}, []string{"1.1", "1.2", "1.3", "1.4"}, 2500)
		if err := s.CreateExperiment(ctx, &Experiment{Name: "big", Strategy: "eapm", Definition: []byte(`{}`)}, runs, cells); err != nil {
			b.Fatal(err)
		}
		claimed, err := s.ClaimUpTo(ctx, len(runs))
		if err != nil {
			b.Fatal(err)
		}
		n := len(claimed)
		if k == 0 {
			n-- // the last run stays running: the experiment is under way
		}
		ends := make([]Ending, n)
		for i := range ends {
			ends[i] = Ending{ID: claimed[i].ID, Status: runtypes.StatusDone}
		}
		s.End(ctx, ends)
	}
	ids, err := s.EndedExperiments(ctx)
	if err != nil || len(ids) != 1 {
		b.Fatalf("ended %v, %v: want the finished one", ids, err)
	}
	if ok, err := s.MarkExperimentEnded(ctx, ids[0]); !ok || err != nil {
		b.Fatal(ok, err)
	}
	b.ResetTimer()
	for range b.N {
		ids, err := s.EndedExperiments(ctx)
		if err != nil || len(ids) != 0 {
			b.Fatal(ids, err)
		}
	}
}
