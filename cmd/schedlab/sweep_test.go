package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestSweepRunsADefinitionAndAggregatesIt runs the example
// definition, small, through `schedlab sweep`, and checks each aggregate
// against the same run made with `schedlab run`.
func TestSweepRunsADefinitionAndAggregatesIt(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "sweep.yaml")
	os.WriteFile(def, []byte(`name: eapm gamma sweep
strategy: eapm
workload:
  preset: zhang2022-case1
  grid:
    instance: [0, 1]
variants: [online, greedy-min-energy]
grid:
  gamma: [1.1, 1.3]
replicates: 1
seed: 1
`), 0o644)
	out := filepath.Join(dir, "results.json")
	if err := run(context.Background(), []string{"sweep", def, "--out", out}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Rows []struct {
			Params  map[string]string `json:"params"`
			Variant string            `json:"variant"`
			Metric  string            `json:"metric"`
			N       int               `json:"n"`
			Mean    *float64          `json:"mean"`
			Failed  int               `json:"failed"`
		} `json:"rows"`
	}
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	objectives, checked := 0, false
	for _, r := range res.Rows {
		if r.Metric != "objective" {
			continue
		}
		objectives++
		if r.N != 1 || r.Failed != 0 || r.Mean == nil {
			t.Errorf("%v %s: n %d failed %d", r.Params, r.Variant, r.N, r.Failed)
			continue
		}
		if r.Params["gamma"] == "1.3" && r.Params["workload.instance"] == "1" && r.Variant == "online" {
			checked = true
			// The same run by hand.
			rep := filepath.Join(dir, "one.json")
			if err := run(context.Background(), []string{"run", "--strategy", "eapm", "--variant", "online", "--preset", "zhang2022-case1",
				"--param", "instance=1", "--param", "gamma=1.3", "--out", rep}, io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
			var one struct {
				Metrics []struct {
					Name  string  `json:"name"`
					Value float64 `json:"value"`
				} `json:"metrics"`
			}
			rb, _ := os.ReadFile(rep)
			json.Unmarshal(rb, &one)
			for _, m := range one.Metrics {
				if m.Name == "objective" && m.Value != *r.Mean {
					t.Errorf("the sweep's objective %v, the same run by hand %v", *r.Mean, m.Value)
				}
			}
		}
	}
	if !checked {
		t.Error("no row for γ 1.3, instance 1, online: the cell keys are not what the issue's example expects")
	}
	if objectives != 2*2*2 {
		t.Errorf("%d objective rows, want 2 instances × 2 γ × 2 variants", objectives)
	}
}
