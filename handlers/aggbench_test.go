package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"time"

	"schedlab/experiments"
	"schedlab/runtypes"
	"schedlab/store"
)

// BenchmarkAggregateStored100k aggregates an experiment of 100,000 stored
// done runs with 3 metrics each (1,000 cells × 100 replicates) from the
// database to the rows, as GET /api/experiments/:id/results does (all
// cells) and as the experiment's page does (pooled by one parameter).
// Target (issue 16): ≤ 1 s.
func BenchmarkAggregateStored100k(b *testing.B) {
	a := newApp(b, "", 0)
	ctx := context.Background()
	e := storeExperiment100k(b, a)
	for _, c := range []struct {
		name string
		keep []string
		rows int
	}{{"cells", nil, 3000}, {"by-gamma", []string{"gamma"}, 30}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				rows, err := a.server.experimentResults(ctx, e.ID, c.keep)
				if err != nil {
					b.Fatal(err)
				}
				if len(rows) != c.rows || rows[0].N != 100 && c.keep == nil {
					b.Fatalf("%d rows, first %+v", len(rows), rows[0])
				}
			}
		})
	}
}

// storeExperiment100k stores an experiment of 100,000 done runs with 3
// metrics each (1,000 cells × 100 replicates) in a's database, fast
// (store.FillExperiment).
func storeExperiment100k(b *testing.B, a *app) *store.Experiment {
	return storeExperiment100kAs(b, a, store.ExperimentDone, runtypes.StatusDone)
}

// storeExperiment100kAs is storeExperiment100k with the experiment's
// status and its runs' given.
func storeExperiment100kAs(b *testing.B, a *app, status, runStatus string) *store.Experiment {
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Data: []byte(`{}`)}
	if err := a.store.CreateWorkload(ctx, w); err != nil {
		b.Fatal(err)
	}
	const n = 100_000
	// The definition the runs would come from (1,000 cells of γ and
	// instance, 100 replicates), as the experiment's page reads it.
	def := `{"name":"big","strategy":"eapm","workload":{"ids":["` + w.ID + `"]},"variants":["online"],"grid":{"gamma":["1.0","1.1","1.2","1.3","1.4","1.5","1.6","1.7","1.8","1.9"],"instance":{"from":0,"to":99}},"replicates":100}`
	e := &store.Experiment{Name: "big", Strategy: "eapm", Definition: json.RawMessage(def), Status: status}
	start := time.Now()
	err := a.store.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online", Status: runStatus,
		Params: map[string]string{"gamma": "1.3", "order": "fifo"}}, n,
		func(i int) store.ExperimentCell {
			return store.ExperimentCell{Cell: json.RawMessage(`{"gamma":"1.` + strconv.Itoa(i/100%10) +
				`","instance":"` + strconv.Itoa(i/100) + `"}`), Replicate: i % 100}
		},
		func(i int) []store.Metric {
			return []store.Metric{{Name: "objective", Value: float64(i)}, {Name: "energy", Value: float64(i) / 3}, {Name: "time", Value: 1}}
		})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("filled %d runs in %v", n, time.Since(start))
	return e
}

// oldExperimentResults is experimentResults as it was before the lean
// read: every run through ExperimentRuns, a cell decoded and a metrics map
// made per run.
func oldExperimentResults(s *Server, ctx context.Context, id string, keep []string) ([]experiments.Row, error) {
	runs, err := s.store.(*store.Store).ExperimentRuns(ctx, id) // the old read: not a handler's method
	if err != nil {
		return nil, err
	}
	results := make([]experiments.RunResult, len(runs))
	for i, r := range runs {
		var cell map[string]string
		if err := json.Unmarshal(r.Cell, &cell); err != nil {
			return nil, err
		}
		m := make(map[string]float64, len(r.Metrics))
		for _, x := range r.Metrics {
			m[x.Name] = x.Value
		}
		results[i] = experiments.RunResult{Params: cell, Variant: r.Variant, Status: r.Status, Metrics: m}
	}
	if keep != nil {
		return experiments.AggregateBy(results, keep), nil
	}
	return experiments.Aggregate(results), nil
}

// TestLeanResultsEqualOld: the lean read gives the rows the old path gave,
// on experiments whose runs are done (some without a metric, some with an
// infinite value) or failed.
func TestLeanResultsEqualOld(t *testing.T) {
	a := newApp(t, "", 0)
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Data: []byte(`{}`)}
	if err := a.store.CreateWorkload(ctx, w); err != nil {
		t.Fatal(err)
	}
	for _, status := range []string{runtypes.StatusDone, runtypes.StatusFailed} {
		e := &store.Experiment{Strategy: "eapm", Definition: json.RawMessage(`{}`)}
		err := a.store.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online", Status: status}, 60,
			func(i int) store.ExperimentCell {
				return store.ExperimentCell{Cell: json.RawMessage(`{"gamma":"1.` + strconv.Itoa(i%3) +
					`","instance":"` + strconv.Itoa(i/3%4) + `"}`), Replicate: i / 12}
			},
			func(i int) []store.Metric {
				switch {
				case status == runtypes.StatusFailed && i%2 == 0:
					return nil
				case i%7 == 0:
					return []store.Metric{{Name: "objective", Value: math.Inf(1)}}
				case i%5 == 0:
					return []store.Metric{{Name: "zeta", Value: 2}, {Name: "energy", Value: float64(i) * 1.1}}
				}
				return []store.Metric{{Name: "objective", Value: float64(i*i) / 7}, {Name: "energy", Value: float64(i) / 3}}
			})
		if err != nil {
			t.Fatal(err)
		}
		for _, keep := range [][]string{nil, {"gamma"}, {"instance", "gamma"}, {}} {
			want, err := oldExperimentResults(a.server, ctx, e.ID, keep)
			if err != nil {
				t.Fatal(err)
			}
			got, err := a.server.experimentResults(ctx, e.ID, keep)
			if err != nil {
				t.Fatal(err)
			}
			wj, _ := json.Marshal(want)
			gj, _ := json.Marshal(got)
			if len(want) == 0 || !bytes.Equal(wj, gj) {
				t.Errorf("%s, keep %v:\n got %s\nwant %s", status, keep, gj, wj)
			}
		}
	}
}
