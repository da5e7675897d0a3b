package service

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/solvers/sweep"
	"schedlab/store"
)

// memStore is a Store in memory: the workloads it holds, what it was
// asked to store.
type memStore struct {
	workloads map[string]*runtypes.Workload
	stored    map[string]*runtypes.Run // runs stored before, by ID
	usage     store.Usage
	created   int
	runs      []*runtypes.Run
	cells     []store.ExperimentCell
	recipes   []runtypes.Recipe
	fail      error // CreateExperiment's error
}

func (m *memStore) GetWorkloadInfo(_ context.Context, id string) (*runtypes.Workload, error) {
	if w, ok := m.workloads[id]; ok {
		return w, nil
	}
	return nil, errs.New(errs.NotFound, "id", "no workload %s", id)
}

func (m *memStore) GetRunInfo(_ context.Context, id string) (*runtypes.Run, error) {
	if r, ok := m.stored[id]; ok {
		return r, nil
	}
	return nil, errs.New(errs.NotFound, "id", "no run %s", id)
}

func (m *memStore) WorkloadUsage(context.Context, string) (store.Usage, error) { return m.usage, nil }

func (m *memStore) CreateExperiment(_ context.Context, e *store.Experiment, runs []*runtypes.Run, cells []store.ExperimentCell, recipes ...runtypes.Recipe) error {
	if m.fail != nil {
		return m.fail
	}
	m.created++
	e.ID = "e1"
	m.runs, m.cells, m.recipes = runs, cells, recipes
	return nil
}

func lookup(name string) (*solvers.Strategy, error) {
	if st, ok := registry.Lookup(name); ok {
		return st, nil
	}
	return nil, errs.New(errs.NotFound, "strategy", "unknown strategy %q", name)
}

func parse(t *testing.T, text string) *sweep.Definition {
	t.Helper()
	d, err := experiments.ParseJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

const eapmSweep = `{"name": "s", "strategy": "eapm", "variants": ["online", "average"],
 "workload": {"preset": "zhang2022-case1", "grid": {"instance": {"from": 0, "to": 2}}},
 "grid": {"gamma": [1.1, 1.30]}, "replicates": 2, "seed": 5}`

// A definition becomes its runs, stored at once: 3 instances × 2 γ × 2
// variants × 2 replicates, one recipe per instance and replicate, each
// run's parameters the family's as solvers.Resolve makes them from the
// run's own values (checked once, not per run).
func TestStartStoresTheRunsOfADefinition(t *testing.T) {
	m := &memStore{}
	woken := 0
	s := New(m, lookup, Options{Stored: func() { woken++ }})
	e, err := s.Start(context.Background(), parse(t, eapmSweep), "u1")
	if err != nil {
		t.Fatal(err)
	}
	if e.ID != "e1" || m.created != 1 || woken != 1 || len(m.runs) != 24 || len(m.cells) != 24 || len(m.recipes) != 6 {
		t.Fatalf("stored %d times (woken %d): %d runs, %d cells, %d recipes", m.created, woken, len(m.runs), len(m.cells), len(m.recipes))
	}
	st, _ := registry.Lookup("eapm")
	recipes := map[string]runtypes.Recipe{}
	for _, rc := range m.recipes {
		recipes[rc.WorkloadID] = rc
		want, err := solvers.Resolve(st.Presets[1].Params, solvers.Params{"instance": rc.Params["instance"]})
		if err != nil || !maps.Equal(rc.Params, want) || rc.Owner != "u1" || rc.EstimatedBytes <= 0 {
			t.Errorf("recipe %+v, want params %v (%v)", rc, want, err)
		}
	}
	gammas := map[string]int{}
	for i, r := range m.runs {
		var cell map[string]string
		if err := json.Unmarshal(m.cells[i].Cell, &cell); err != nil {
			t.Fatal(err)
		}
		want, err := solvers.Resolve(st.Params, solvers.Params{"gamma": cell["gamma"]})
		if err != nil || !maps.Equal(r.Params, want) {
			t.Errorf("run %d params %v, want %v (%v)", i, r.Params, want, err)
		}
		rc, ok := recipes[r.WorkloadID]
		if !ok || rc.Params["instance"] != cell["workload.instance"] || rc.Seed != r.Seed || r.Seed != 5+int64(m.cells[i].Replicate) {
			t.Errorf("run %d on %s (recipe %+v), cell %v, seed %d", i, r.WorkloadID, rc, cell, r.Seed)
		}
		if r.Kind != runtypes.KindRun || r.Owner != "u1" || r.Strategy != "eapm" {
			t.Errorf("run %d: %+v", i, r)
		}
		gammas[r.Params["gamma"]]++
	}
	if gammas["1.1"] != 12 || gammas["1.3"] != 12 {
		t.Errorf("γ values %v, want 1.1 and 1.3 (the number 1.30 is 1.3) 12 times each", gammas)
	}
}

// A swept boolean reaches the run as true or false, however it was
// written: Validate writes the checked value back.
func TestStartWritesCheckedValuesAsTheRunGetsThem(t *testing.T) {
	m := &memStore{workloads: map[string]*runtypes.Workload{"w1": {ID: "w1", Strategy: "cyclic", Format: "preset"}}}
	def := parse(t, `{"name": "b", "strategy": "cyclic", "variants": ["css"], "workload": {"ids": ["w1"]}, "grid": {"shift": ["yes", "0"]}}`)
	if _, err := New(m, lookup, Options{}).Start(context.Background(), def, ""); err != nil {
		t.Fatal(err)
	}
	if len(m.runs) != 2 || m.runs[0].Params["shift"] != "true" || m.runs[1].Params["shift"] != "false" || m.runs[0].WorkloadID != "w1" {
		t.Fatalf("runs %+v", m.runs)
	}
	if strings.Join(def.Grid["shift"], ",") != "true,false" {
		t.Errorf("the definition kept %v", def.Grid["shift"])
	}
}

// A bad definition is refused with every problem, each naming its
// field, before anything is stored.
func TestStartRefusesBadDefinitionsStoringNothing(t *testing.T) {
	cases := []struct {
		name, def string
		fields    []string
		opt       Options
		usage     store.Usage
	}{
		{"a bad value and an unknown variant", `{"name": "x", "strategy": "eapm", "variants": ["onlin"], "workload": {"preset": "zhang2022-case1"}, "grid": {"gamma": [1.1, "x"]}}`,
			[]string{"variants[0]", "grid.gamma[1]"}, Options{}, store.Usage{}},
		{"an unknown preset and no name", `{"name": "", "strategy": "eapm", "workload": {"preset": "zhang2099"}}`,
			[]string{"name", "workload.preset"}, Options{}, store.Usage{}},
		{"an unknown family", `{"name": "x", "strategy": "nope", "workload": {"preset": "p"}}`, []string{"strategy"}, Options{}, store.Usage{}},
		{"a stored workload that is not there", `{"name": "x", "strategy": "eapm", "workload": {"ids": ["w9"]}}`, []string{"workload_id"}, Options{}, store.Usage{}},
		{"a stored workload of another family", `{"name": "x", "strategy": "eapm", "workload": {"ids": ["w1"]}}`, []string{"workload_id"}, Options{}, store.Usage{}},
		{"over the experiment's budget", eapmSweep, []string{"budget"}, Options{Budget: Budget{ExperimentWorkloads: 5}}, store.Usage{}},
		{"over the user's budget", eapmSweep, []string{"budget"}, Options{}, store.Usage{Bytes: 20 << 30}},
		{"a notify URL the server may not reach", `{"name": "x", "strategy": "eapm", "workload": {"preset": "zhang2022-case1"}, "notify_url": "http://127.0.0.1/hook"}`,
			[]string{"notify_url"}, Options{CheckNotify: func(string) error { return errs.Invalidf("notify_url", "loopback") }}, store.Usage{}},
		{"a knob over the runner's limit", `{"name": "x", "strategy": "gossip", "workload": {"preset": "umeda2006"}, "variants": ["gossip"], "grid": {"memory_mb": [64, 4096]}}`,
			[]string{"memory_mb"}, Options{Limits: solvers.Budget{Memory: 1 << 30}}, store.Usage{}},
	}
	for _, c := range cases {
		m := &memStore{usage: c.usage, workloads: map[string]*runtypes.Workload{"w1": {ID: "w1", Strategy: "gossip"}}}
		woken := false
		c.opt.Stored = func() { woken = true }
		_, err := New(m, lookup, c.opt).Start(context.Background(), parse(t, c.def), "")
		var fields []string
		for _, e := range errs.All(err) {
			fields = append(fields, errs.FieldOf(e))
		}
		for _, f := range c.fields {
			if !strings.Contains(" "+strings.Join(fields, " ")+" ", " "+f+" ") {
				t.Errorf("%s: problems on %v (%v), want one on %s", c.name, fields, err, f)
			}
		}
		if m.created != 0 || woken {
			t.Errorf("%s: stored %d experiments (woken %v)", c.name, m.created, woken)
		}
	}
}

// A store that refuses the experiment is the error of Start, and the
// runner is not woken.
func TestStartReturnsTheStoresRefusal(t *testing.T) {
	m := &memStore{fail: errors.New("disk full")}
	woken := false
	_, err := New(m, lookup, Options{Stored: func() { woken = true }}).Start(context.Background(), parse(t, eapmSweep), "")
	if err == nil || !strings.Contains(err.Error(), "disk full") || woken {
		t.Errorf("Start: %v (woken %v), want the store's error", err, woken)
	}
}

// Where the service meets the store and the runner: the runs Start
// stores over SQLite are the runs the runner's own per-run check
// (runner.Prepare, as a run submitted alone) makes of the same inputs,
// though Start checked each swept value once rather than each run.
func TestStartedRunsAreWhatTheRunnerWouldPrepare(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rn := runner.New(db, registry.Lookup, runner.Options{})
	s := New(db, lookup, Options{Limits: rn.Budget()})
	for _, text := range []string{eapmSweep,
		`{"name": "c", "strategy": "cyclic", "workload": {"preset": "toporkov2014", "grid": {"jobs": [5, 6]}},
		  "variants": ["css", "backfill"], "grid": {"shift": ["yes", "off"], "early": [true]}}`} {
		e, err := s.Start(ctx, parse(t, text), "")
		if err != nil {
			t.Fatal(err)
		}
		runs, err := db.ExperimentRuns(ctx, e.ID)
		if err != nil || len(runs) == 0 {
			t.Fatalf("%d runs stored (%v)", len(runs), err)
		}
		for _, r := range runs {
			stored, err := db.GetRun(ctx, r.RunID)
			if err != nil {
				t.Fatal(err)
			}
			again, err := rn.Prepare(ctx, &runtypes.Run{WorkloadID: stored.WorkloadID, Strategy: stored.Strategy, Variant: stored.Variant, Params: stored.Params, Seed: stored.Seed})
			if err != nil || again.Variant != stored.Variant || !maps.Equal(again.Params, stored.Params) {
				t.Fatalf("run %s: stored %s %v, the runner prepares %+v (%v)", r.RunID, stored.Variant, stored.Params, again, err)
			}
		}
	}
}

// A sweep started from stored runs takes their workloads, variants and
// the values they gave each parameter that applies to them, the first
// run's seed; runs of two families or a reproduce run are refused on
// field runs. A seed experiment is found by family/name.
func TestStartersFromRunsAndSeeds(t *testing.T) {
	m := &memStore{stored: map[string]*runtypes.Run{
		"r1": {ID: "r1", Kind: runtypes.KindRun, Strategy: "eapm", WorkloadID: "w1", Variant: "online", Params: map[string]string{"gamma": "1.1", "c": "1"}, Seed: 7},
		"r2": {ID: "r2", Kind: runtypes.KindRun, Strategy: "eapm", WorkloadID: "w2", Variant: "average", Params: map[string]string{"gamma": "1.3", "c": "1"}, Seed: 9},
		"r3": {ID: "r3", Kind: runtypes.KindRun, Strategy: "gossip", WorkloadID: "w3", Variant: "gossip"},
	}}
	s := New(m, lookup, Options{})
	d, err := s.FromRuns(context.Background(), []string{"r1", "r2", "r1"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Strategy != "eapm" || d.Seed != 7 || strings.Join(d.Workload.IDs, ",") != "w1,w2" || strings.Join(d.Variants, ",") != "online,average" ||
		strings.Join(d.Grid["gamma"], ",") != "1.1,1.3" || strings.Join(d.Grid["c"], ",") != "1" || d.Replicates != 1 {
		t.Errorf("from runs: %+v", d)
	}
	for _, ids := range [][]string{{"r1", "r3"}, {"r9"}} {
		if _, err := s.FromRuns(context.Background(), ids); err == nil || (errs.FieldOf(err) != "runs" && !errs.Is(err, errs.NotFound)) {
			t.Errorf("from runs %v: %v, want a refusal", ids, err)
		}
	}
	if d, err := s.Seed("eapm/table1"); err != nil || d.Strategy != "eapm" || len(d.References) == 0 {
		t.Errorf("seed eapm/table1: %+v %v", d, err)
	}
	if _, err := s.Seed("eapm/nosuch"); !errs.Is(err, errs.NotFound) || errs.FieldOf(err) != "seed" {
		t.Errorf("an unknown seed experiment: %v", err)
	}
}
