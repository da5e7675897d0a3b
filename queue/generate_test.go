package queue_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"schedlab/queue/queuetest"
	"schedlab/runtypes"
	"schedlab/store"
)

// TestWorkersGenerateExperimentWorkloads stores an experiment whose two
// workloads are recipes (no data): the worker processes generate each
// before running its runs, the server stores what they generated in the
// workloads' rows, and every run ran on its own workload.
func TestWorkersGenerateExperimentWorkloads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	for range 2 {
		startWorker(t, s, log, "--concurrency", "2")
	}
	ctx := context.Background()
	sizes := []int{5, 7}
	var recipes []runtypes.Recipe
	var known []*runtypes.Workload
	for i, n := range sizes {
		id := store.NewID()
		recipes = append(recipes, runtypes.Recipe{WorkloadID: id, Strategy: queuetest.Name, Name: fmt.Sprintf("tiny seed %d", i),
			Preset: "tiny", Params: map[string]string{"n": strconv.Itoa(n)}, Seed: int64(i), EstimatedBytes: 64})
		known = append(known, &runtypes.Workload{ID: id, Strategy: queuetest.Name, Format: store.FormatPreset})
	}
	const perWorkload = 6
	var runs []*runtypes.Run
	var cells []store.ExperimentCell
	for w := range sizes {
		for i := range perWorkload {
			runs = append(runs, &runtypes.Run{WorkloadID: recipes[w].WorkloadID, Strategy: queuetest.Name, Variant: queuetest.VariantOK,
				Params: map[string]string{"i": strconv.Itoa(100*w + i)}})
			cells = append(cells, store.ExperimentCell{Cell: json.RawMessage(fmt.Sprintf(`{"w":%d}`, w)), Replicate: i})
		}
	}
	runs, err := s.rn.PrepareAll(ctx, runs, known...)
	if err != nil {
		t.Fatal(err)
	}
	e := &store.Experiment{Name: "generated", Strategy: queuetest.Name, Definition: json.RawMessage(`{}`)}
	if err := s.st.CreateExperiment(ctx, e, runs, cells, recipes...); err != nil {
		t.Fatal(err)
	}
	s.rn.Wake()
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	done := waitFinal(t, s.st, ids, time.Minute)
	for i, id := range ids {
		r, err := s.st.GetRun(ctx, id)
		if err != nil || done[id] == nil {
			t.Fatal(id, err)
		}
		var rep struct{ Metrics []struct{ Value float64 } }
		if r.Status != runtypes.StatusDone || json.Unmarshal(r.Report, &rep) != nil || len(rep.Metrics) != 1 {
			t.Fatalf("run %d: %s %s %s", i, r.Status, r.Error, r.Report)
		}
		w, k := i/perWorkload, i%perWorkload
		if want := float64(sizes[w] + 100*w + k); rep.Metrics[0].Value != want {
			t.Errorf("run %d: objective %v, want %v (its workload's n plus its i)", i, rep.Metrics[0].Value, want)
		}
	}
	for i, rc := range recipes {
		w, err := s.st.GetWorkload(ctx, rc.WorkloadID)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"n":%d}`, sizes[i]); string(w.Data) != want || w.SHA256 == "" || w.Bytes != len(want) || w.Summary != "tiny" {
			t.Errorf("workload %d after its runs: %+v", i, w)
		}
		if left, err := s.st.WorkloadRecipe(ctx, rc.WorkloadID); err != nil || left != nil {
			t.Errorf("workload %d is still to be generated: %+v %v", i, left, err)
		}
	}
}
