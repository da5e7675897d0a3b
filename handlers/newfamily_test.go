package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/eapm"
)

// toyConfig is the run config of a family written for this test.
type toyConfig struct{ Scale float64 }

func (c *toyConfig) Declare(ps *solvers.ParamSet) {
	ps.Float(&c.Scale, "scale", "×", 0, 10, "How much to scale the one metric.")
}

type toyPreset struct{ Size int }

func (c *toyPreset) Declare(ps *solvers.ParamSet) {
	ps.Int(&c.Size, "size", "items", 1, 100, "How many items.")
}

// toyFamily is a whole new family: one solvers.Def, nothing else.
func toyFamily() *solvers.Strategy {
	def := &solvers.Def[toyConfig, *toyConfig]{
		Name:        "toy",
		Info:        solvers.Info{Title: "Toy family", Summary: "A family added by a test."},
		VariantList: []solvers.Variant{{Name: "only", Doc: "The one variant."}},
		Config:      func() toyConfig { return toyConfig{Scale: 2} },
		Run: func(ctx context.Context, w *solvers.Workload, variant string, cfg toyConfig, progress solvers.Progress) (*report.Report, error) {
			var in struct{ Size int }
			if err := json.Unmarshal(w.Data, &in); err != nil {
				return nil, err
			}
			progress(1, 1, "done")
			return &report.Report{Metrics: []report.Metric{{Name: "scaled", Value: cfg.Scale * float64(in.Size)}}}, nil
		},
		PresetList: []solvers.PresetDef{solvers.NewPreset("tiny", "A tiny instance.", func() toyPreset { return toyPreset{Size: 3} },
			func(ctx context.Context, cfg toyPreset, seed int64) (*solvers.Workload, error) {
				b, _ := json.Marshal(map[string]int{"size": cfg.Size})
				return &solvers.Workload{Name: "toy", Format: "json", Summary: "toy instance", Data: b}, nil
			},
			func(toyPreset) solvers.Estimate { return solvers.Estimate{Bytes: 64, Field: "size"} })},
	}
	return def.Strategy()
}

// TestANewFamilyNeedsOnlyItsDefAndARegistryLine serves a family the
// catalogue has never heard of, registered the way the registry lists
// them: it is on the home page and in /api/strategies, its preset
// generates, and its run decodes the typed config from the API's params.
func TestANewFamilyNeedsOnlyItsDefAndARegistryLine(t *testing.T) {
	a := newAppWith(t, "", 0, []*solvers.Strategy{eapm.New(), toyFamily()})
	if err := toyFamily().CheckNames(); err != nil {
		t.Fatal(err)
	}
	_, home := a.do(t, http.MethodGet, "/", "", nil)
	if !strings.Contains(string(home), "Toy family") {
		t.Error("the home page does not list the new family")
	}
	_, b := a.do(t, http.MethodGet, "/api/strategies", "", nil)
	var list []solvers.Description
	json.Unmarshal(b, &list)
	found := false
	for _, d := range list {
		if d.Name == "toy" {
			found = d.Built && len(d.Params) == 1 && d.Params[0].Default == "2"
		}
	}
	if !found {
		t.Errorf("/api/strategies does not describe toy with its parameter: %s", b)
	}
	status, b := a.postJSON(t, "/api/workloads/generate", `{"strategy":"toy","preset":"tiny","params":{"size":7}}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	run := a.startRun(t, `{"workload_id":"`+w.ID+`","params":{"scale":1.5}}`)
	if run.Status != "done" {
		t.Fatalf("run: %s %s", run.Status, run.Error)
	}
	_, rep := a.do(t, http.MethodGet, "/api/runs/"+run.ID+"/report", "", nil)
	var r report.Report
	json.Unmarshal(rep, &r)
	if m, ok := r.Metric("scaled"); !ok || m.Value != 10.5 {
		t.Errorf("scaled = %v, want 1.5 × 7", m.Value)
	}
}
