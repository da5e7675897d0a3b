package main

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"schedlab/experiments"
	"schedlab/service"
	"schedlab/solvers/registry"
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

// TestEAPMTable1AsAnExperimentMatchesTheReproduce runs the seed's Table 1
// (objective against γ over case 1's instances, per method) as an
// experiment and checks its means equal the reproduce's Table 1 at the
// same instances.
func TestEAPMTable1AsAnExperimentMatchesTheReproduce(t *testing.T) {
	slowTier(t)
	dir := t.TempDir()
	def := filepath.Join(dir, "table1.json")
	os.WriteFile(def, []byte(`{"name": "EAPM Table 1", "strategy": "eapm",
 "workload": {"preset": "zhang2022-case1", "grid": {"instance": {"from": 0, "to": 2}}},
 "variants": ["online", "greedy-min-energy", "greedy-max-objective", "average"],
 "grid": {"gamma": [1.05, 1.2, 1.4]}}`), 0o644)
	out := filepath.Join(dir, "rows.json")
	if err := run(context.Background(), []string{"sweep", def, "--keep", "gamma", "--out", out}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Rows []struct {
			Params  map[string]string `json:"params"`
			Variant string            `json:"variant"`
			Metric  string            `json:"metric"`
			N       int               `json:"n"`
			Mean    *float64          `json:"mean"`
		} `json:"rows"`
	}
	b, _ := os.ReadFile(out)
	json.Unmarshal(b, &res)
	repro := filepath.Join(dir, "repro.json")
	if err := run(context.Background(), []string{"reproduce", "eapm", "--param", "instances=3", "--param", "max_n=30",
		"--param", "bounds=false", "--out", repro}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Tables []struct {
			Title   string   `json:"title"`
			Columns []string `json:"columns"`
			Rows    [][]any  `json:"rows"`
		} `json:"tables"`
	}
	rb, _ := os.ReadFile(repro)
	json.Unmarshal(rb, &rep)
	column := map[string]string{"online": "online", "greedy-min-energy": "greedy_min_energy",
		"greedy-max-objective": "greedy_max_objective", "average": "average"}
	checked := 0
	for _, tb := range rep.Tables {
		if tb.Title != "Table 1" {
			continue
		}
		for _, row := range tb.Rows {
			gamma := strconv.FormatFloat(row[0].(float64), 'g', -1, 64)
			for _, r := range res.Rows {
				if r.Metric != "objective" || r.Params["gamma"] != gamma {
					continue
				}
				if r.N != 3 || r.Mean == nil {
					t.Fatalf("γ %s %s: n %d", gamma, r.Variant, r.N)
				}
				for j, c := range tb.Columns {
					if c == column[r.Variant] {
						want := row[j].(float64)
						if math.Abs(*r.Mean-want) > 1e-9*math.Max(1, math.Abs(want)) {
							t.Errorf("γ %s %s: experiment mean %v, reproduce Table 1 %v", gamma, r.Variant, *r.Mean, want)
						}
						checked++
					}
				}
			}
		}
	}
	if checked != 3*4 {
		t.Errorf("compared %d means, want 3 γ × 4 methods", checked)
	}
}

// TestSweepTakesASeedExperimentByName: `schedlab sweep seed:FAMILY/NAME`
// runs the definition /reproduce lists, and a wrong name lists the right
// ones.
func TestSweepTakesASeedExperimentByName(t *testing.T) {
	exps := service.New(nil, sweepLookup, service.Options{})
	def, err := sweepDefinition(exps, "seed:gossip/sens-table1")
	if err != nil {
		t.Fatal(err)
	}
	for _, sw := range registry.All() {
		if sw.SeedExperiments == nil || sw.Info.Name != "gossip" {
			continue
		}
		for _, e := range sw.SeedExperiments() {
			b, _ := e.Definition.JSON()
			if want, _ := experiments.ParseJSON(b); e.Name == "sens-table1" && !reflect.DeepEqual(want, def) {
				t.Error("seed:gossip/sens-table1 is not gossip's definition")
			}
		}
	}
	_, err = sweepDefinition(exps, "seed:gossip/nosuch")
	if err == nil || !strings.Contains(err.Error(), "sens-table1") {
		t.Errorf("an unknown seed experiment: %v, want the known names listed", err)
	}
	if _, err := sweepDefinition(exps, "seed:nosuch/x"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("an unknown family: %v", err)
	}
	err = run(context.Background(), []string{"sweep", "seed:eapm/nosuch"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "table1") {
		t.Errorf("sweep of an unknown seed experiment: %v", err)
	}
}
