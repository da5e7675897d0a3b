package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/runtypes"
)

// recipeExperiment stores an experiment of n recipes, each used by two
// runs (two variants).
func recipeExperiment(t *testing.T, s *Store, n int, estimate int64) (*Experiment, []runtypes.Recipe) {
	t.Helper()
	var recipes []runtypes.Recipe
	var runs []*runtypes.Run
	var cells []ExperimentCell
	for i := range n {
		r := runtypes.Recipe{WorkloadID: NewID(), Strategy: "eapm", Name: fmt.Sprintf("case seed %d", i), Preset: "zhang2022-case1",
			Params: map[string]string{"instance": "-1"}, Seed: int64(i), EstimatedBytes: estimate, Owner: ""}
		recipes = append(recipes, r)
		for _, v := range []string{"online", "greedy-min-energy"} {
			runs = append(runs, &runtypes.Run{WorkloadID: r.WorkloadID, Strategy: "eapm", Variant: v, Seed: int64(i)})
			cells = append(cells, ExperimentCell{Cell: json.RawMessage(`{}`), Replicate: i})
		}
	}
	e := &Experiment{Name: "generated", Strategy: "eapm", Definition: json.RawMessage(`{}`)}
	if err := s.CreateExperiment(context.Background(), e, runs, cells, recipes...); err != nil {
		t.Fatal(err)
	}
	return e, recipes
}

func TestRecipesAreFilledOnceAndCountedInTheUsage(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	addWorkload(t, s, "eapm") // an upload: its bytes count too
	_, recipes := recipeExperiment(t, s, 3, 1000)
	u, err := s.WorkloadUsage(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	uploaded := int64(len(`{"etc":[[1,2]]}`) + len(`{"metrics":[]}`))
	if u.Workloads != 4 || u.Bytes != 3*1000+uploaded {
		t.Fatalf("usage %+v, want 4 workloads of %d bytes", u, 3*1000+uploaded)
	}
	rec, err := s.WorkloadRecipe(ctx, recipes[1].WorkloadID)
	if err != nil || rec == nil || rec.Preset != "zhang2022-case1" || rec.Seed != 1 || rec.Params["instance"] != "-1" || rec.EstimatedBytes != 1000 {
		t.Fatalf("recipe %+v, %v", rec, err)
	}
	first := &runtypes.Workload{Name: "case 1 fresh", Format: "preset", Summary: "30 users", Data: []byte(`{"users":[1]}`), Preview: json.RawMessage(`{"metrics":[]}`)}
	w, err := s.FillWorkload(ctx, recipes[1].WorkloadID, first)
	if err != nil || w.SHA256 == "" || w.Bytes != len(first.Data) || w.Name != "case 1 fresh" || string(w.Data) != string(first.Data) {
		t.Fatalf("filled: %+v, %v", w, err)
	}
	// A second fill (another worker generated it too) keeps the first.
	w, err = s.FillWorkload(ctx, recipes[1].WorkloadID, &runtypes.Workload{Name: "other", Data: []byte(`{"users":[2]}`)})
	if err != nil || string(w.Data) != `{"users":[1]}` || w.Name != "case 1 fresh" {
		t.Fatalf("second fill: %+v, %v", w, err)
	}
	if rec, err := s.WorkloadRecipe(ctx, recipes[1].WorkloadID); err != nil || rec != nil {
		t.Fatalf("a filled workload still has a recipe to generate: %+v %v", rec, err)
	}
	if u, _ := s.WorkloadUsage(ctx, ""); u.Bytes != 2*1000+int64(len(first.Data)+len(first.Preview))+uploaded {
		t.Errorf("usage after a fill: %+v", u)
	}
	if _, err := s.FillWorkload(ctx, recipes[0].WorkloadID, &runtypes.Workload{Data: []byte("not json")}); !errs.Is(err, errs.Invalid) {
		t.Errorf("filling with garbage: %v", err)
	}
	if _, err := s.WorkloadRecipe(ctx, "zzzzzzzzzz"); !errs.Is(err, errs.NotFound) {
		t.Errorf("recipe of an unknown workload: %v", err)
	}
}

func TestDeletingAnExperimentDeletesItsWorkloadsAndGivesTheSpaceBack(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	var mode int
	if err := s.db.QueryRow("PRAGMA auto_vacuum").Scan(&mode); err != nil || mode != 2 {
		t.Fatalf("auto_vacuum %d (%v), want 2 (incremental) in a new file", mode, err)
	}
	kept := addWorkload(t, s, "eapm")
	before, err := s.FileBytes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e, recipes := recipeExperiment(t, s, 8, 1<<20)
	data := []byte(`{"pad":"` + strings.Repeat("x", 1<<20) + `"}`)
	for _, r := range recipes {
		if _, err := s.FillWorkload(ctx, r.WorkloadID, &runtypes.Workload{Data: data}); err != nil {
			t.Fatal(err)
		}
	}
	full, _ := s.FileBytes(ctx)
	if full < before+8<<20 {
		t.Fatalf("file %d bytes after 8 MiB of workloads, from %d", full, before)
	}
	if _, err := s.CancelExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteExperiment(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	after, _ := s.FileBytes(ctx)
	t.Logf("file: %d bytes before, %d with the workloads, %d after deleting the experiment", before, full, after)
	if after > before+256<<10 {
		t.Errorf("file %d bytes after the delete, want about %d: the space was not given back", after, before)
	}
	if n := count(t, s, "workloads"); n != 1 {
		t.Errorf("%d workloads left, want the upload", n)
	}
	if _, err := s.GetWorkloadInfo(ctx, kept.ID); err != nil {
		t.Errorf("the upload: %v", err)
	}
	if n := count(t, s, "workload_recipes"); n != 0 {
		t.Errorf("%d recipes left", n)
	}
}

func TestAnExperimentWithWorkloadsNotGeneratedIsNotExported(t *testing.T) {
	s, _ := openTemp(t)
	e, _ := recipeExperiment(t, s, 2, 100)
	if _, err := s.CancelExperiment(context.Background(), e.ID); err != nil {
		t.Fatal(err)
	}
	m := &memSnapshot{}
	err := s.ExportExperiment(context.Background(), e.ID, m)
	if m.exp.ID != "" {
		t.Error("the experiment was given to the sink before the refusal")
	}
	checkKind(t, "ExportExperiment", err, errs.Conflict, "2 workloads not generated yet")
}
