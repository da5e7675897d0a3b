package cyclic

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"schedlab/report"
	"schedlab/solvers"
)

// The pins below guard the speed work on the alternatives search and the
// reproduce: an optimisation must not change any result. They are
// regression pins, not references: when a change is meant to move the
// results, regenerate them with CYCLIC_PIN=update go test -run
// 'TestPinned' ./solvers/cyclic/ and say so in the commit.

const pinFile = "testdata/pinned.json"

// pinned is the stored pins: per configuration the hash of every cycle's
// plan, and the reduced reproduce's report.
type pinned struct {
	Plans  map[string]string `json:"plans"`
	Report json.RawMessage   `json:"report"`
}

func readPins(t *testing.T) *pinned {
	t.Helper()
	var p pinned
	b, err := os.ReadFile(pinFile)
	if err != nil {
		if os.Getenv("CYCLIC_PIN") == "update" {
			return &pinned{Plans: map[string]string{}}
		}
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	if p.Plans == nil {
		p.Plans = map[string]string{}
	}
	return &p
}

func writePins(t *testing.T, p *pinned) {
	t.Helper()
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(pinFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pinFile, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hashPlanner hashes every plan its planner makes: each job's id, its
// alternatives in order (start, nodes, times, exact cost), the chosen
// index and the planned and actual windows.
type hashPlanner struct {
	p Planner
	h hash.Hash
}

func (hp *hashPlanner) Plan(ctx context.Context, d *Domain, batch []Job, waited []int) (*CyclePlan, error) {
	cp, err := hp.p.Plan(ctx, d, batch, waited)
	if err != nil {
		return nil, err
	}
	put := func(vs ...int) {
		for _, v := range vs {
			_ = binary.Write(hp.h, binary.LittleEndian, int64(v))
		}
	}
	win := func(w Window) {
		put(w.Start, len(w.Nodes))
		put(w.Nodes...)
		put(w.Times...)
		_ = binary.Write(hp.h, binary.LittleEndian, math.Float64bits(w.Cost))
	}
	for _, jp := range cp.Jobs {
		fmt.Fprint(hp.h, jp.Job.ID)
		put(jp.Waited, len(jp.Alts), jp.Chosen)
		for _, w := range jp.Alts {
			win(w)
		}
		win(jp.Planned)
		win(jp.Actual)
	}
	put(cp.Raised)
	for _, l := range cp.Limits {
		_ = binary.Write(hp.h, binary.LittleEndian, math.Float64bits(l))
	}
	return cp, nil
}

// pinRuns are the configurations whose plans are pinned: every search
// mode (first fit, the four AEP criteria, backfilling's cheapest), every
// VO strategy, sub-batches, shift, early completion and the combined
// method, on the seed's 24 nodes, the study's 150 and the old uniform
// job law (wide, long jobs).
func pinRuns(t *testing.T) map[string]func() (*Instance, SimConfig) {
	t.Helper()
	gen := func(mod func(*GenConfig)) *Instance {
		g := Toporkov2014()
		mod(&g)
		in, err := Generate(g)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	seed := gen(func(*GenConfig) {})
	wide := gen(func(g *GenConfig) { g.Nodes = 150 })
	high := gen(func(g *GenConfig) { g.LocalLoad = 0.15; g.Seed = 3 })
	uniform := gen(func(g *GenConfig) { g.JobLaw = JobLawUniform; g.Seed = 2 })
	runs := map[string]func() (*Instance, SimConfig){}
	add := func(name string, in *Instance, cycles int, cfg SimConfig) {
		cfg.Cycles, cfg.GanttCycle, cfg.Seed = cycles, 1, 1
		if cfg.K == 0 {
			cfg.K = 1
		}
		runs[name] = func() (*Instance, SimConfig) { return in, cfg }
	}
	for _, inst := range []struct {
		name   string
		in     *Instance
		cycles int
	}{{"seed", seed, 20}, {"150", wide, 4}, {"high", high, 15}, {"uniform", uniform, 15}} {
		for _, st := range Strategies() {
			add(inst.name+" fair "+st, inst.in, inst.cycles, SimConfig{Variant: VariantFair, Strategy: st, Independent: true})
		}
		add(inst.name+" css runtime", inst.in, inst.cycles, SimConfig{Variant: VariantCSS, Strategy: StratRuntime, Independent: true})
		add(inst.name+" css+shift proctime", inst.in, inst.cycles, SimConfig{Variant: VariantCSS, Strategy: StratProcTime, Shift: true, Independent: true})
		add(inst.name+" fair k=3 carry", inst.in, inst.cycles, SimConfig{Variant: VariantFair, Strategy: StratProcTime, K: 3})
		add(inst.name+" fair k=20 early", inst.in, inst.cycles, SimConfig{Variant: VariantFair, Strategy: StratProcTime, K: 20, EarlyMin: 0.2, Independent: true})
		add(inst.name+" backfill easy early", inst.in, inst.cycles, SimConfig{Variant: VariantBackfill, Depth: 1, EarlyMin: 0.2, Independent: true})
		add(inst.name+" backfill conservative", inst.in, inst.cycles, SimConfig{Variant: VariantBackfill, Depth: DepthInf})
		add(inst.name+" combined", inst.in, inst.cycles, SimConfig{Variant: VariantCombined, Strategy: StratProcTime, Depth: 1, Share: 0.5, Priority: PriorityQueue, Independent: true})
	}
	return runs
}

// TestPinnedPlans: every plan of the pinned configurations is the one
// stored (alternatives in the same order, the same choices).
func TestPinnedPlans(t *testing.T) {
	p := readPins(t)
	update := os.Getenv("CYCLIC_PIN") == "update"
	runs := pinRuns(t)
	for name, mk := range runs {
		in, cfg := mk()
		pl, before := plannerOf(cfg)
		hp := &hashPlanner{p: pl, h: sha256.New()}
		res, err := Simulate(context.Background(), in, cfg, hp, before, solvers.NoProgress)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.All.Alternatives == 0 {
			t.Fatalf("%s: no alternatives: the pin would pin nothing", name)
		}
		got := hex.EncodeToString(hp.h.Sum(nil))
		if update {
			p.Plans[name] = got
			continue
		}
		if want, ok := p.Plans[name]; !ok {
			t.Errorf("%s: no pin stored", name)
		} else if got != want {
			t.Errorf("%s: plans changed (hash %s, pinned %s)", name, got[:12], want[:12])
		}
	}
	if update {
		for name := range p.Plans {
			if _, ok := runs[name]; !ok {
				delete(p.Plans, name)
			}
		}
		writePins(t, p)
	} else if len(p.Plans) != len(runs) {
		t.Errorf("%d pins stored, %d configurations", len(p.Plans), len(runs))
	}
}

// TestPinnedReproduce: the reproduce on few cycles (every part of it, the
// node study up to 150 nodes included) gives the stored report.
func TestPinnedReproduce(t *testing.T) {
	p := readPins(t)
	shared, err := smallReproduce()
	if err != nil {
		t.Fatal(err)
	}
	r := *shared
	r.Tables = slices.Clone(shared.Tables) // the Claims rows are filtered below: the shared report stays whole
	// The sensitivity rows of Claims read data/sensitivity.json, which
	// has its own command: not pinned here.
	for i, tb := range r.Tables {
		if tb.Title != "Claims" {
			continue
		}
		rows := tb.Rows[:0:0]
		for _, row := range tb.Rows {
			if c, ok := row[0].(string); !ok || !strings.HasPrefix(c, "Sensitivity") {
				rows = append(rows, row)
			}
		}
		r.Tables[i].Rows = rows
	}
	got, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("CYCLIC_PIN") == "update" {
		p.Report = got
		writePins(t, p)
		return
	}
	var want bytes.Buffer
	if err := json.Compact(&want, p.Report); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		var a, b report.Report
		_ = json.Unmarshal(got, &a)
		_ = json.Unmarshal(want.Bytes(), &b)
		for i := range min(len(a.Tables), len(b.Tables)) {
			ga, _ := json.Marshal(a.Tables[i])
			gb, _ := json.Marshal(b.Tables[i])
			if !bytes.Equal(ga, gb) {
				t.Errorf("table %q changed:\n got %s\nwant %s", a.Tables[i].Title, ga, gb)
			}
		}
		t.Fatalf("the reduced reproduce's report changed")
	}
}
