package dcop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"schedlab/solvers"
)

// The pins below guard the speed work on the DPOP kernel (issue 23): an
// optimisation must not change any result. They record, on generated
// instances, every variant's optimum, schedule, UTIL sizes, widths and
// message statistics (dpop, dpop-wd with each WD rule, dpop-split,
// dpop-split-wd) and the reduced reproduce's report, as computed by the
// code before the kernel was rewritten. They are regression pins, not
// references: when a change is meant to move the results, regenerate them
// with DCOP_PIN=update go test -run 'TestPinned' ./solvers/dcop/ and say
// so in the commit.

const pinFile = "testdata/pinned.json"

// pinned is the stored pins: per case the canonical JSON of its outcome,
// and the reduced reproduce's report (tables, series, notes).
type pinned struct {
	Cases     map[string]json.RawMessage `json:"cases"`
	Reproduce json.RawMessage            `json:"reproduce,omitempty"`
}

func pinUpdate() bool { return os.Getenv("DCOP_PIN") == "update" }

func readPins(t *testing.T) *pinned {
	t.Helper()
	p := &pinned{}
	b, err := os.ReadFile(pinFile)
	if err != nil {
		if pinUpdate() {
			return &pinned{Cases: map[string]json.RawMessage{}}
		}
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, p); err != nil {
		t.Fatal(err)
	}
	if p.Cases == nil {
		p.Cases = map[string]json.RawMessage{}
	}
	return p
}

// writePins writes one case a line, sorted, so that a diff names the cases
// that moved.
func writePins(t *testing.T, p *pinned) {
	t.Helper()
	names := make([]string, 0, len(p.Cases))
	for name := range p.Cases {
		names = append(names, name)
	}
	slices.Sort(names)
	var buf bytes.Buffer
	buf.WriteString("{\"cases\": {\n")
	for i, name := range names {
		k, _ := json.Marshal(name)
		var c bytes.Buffer
		if err := json.Compact(&c, p.Cases[name]); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&buf, "%s: %s", k, c.Bytes())
		if i < len(names)-1 {
			buf.WriteString(",")
		}
		buf.WriteString("\n")
	}
	buf.WriteString("}")
	if len(p.Reproduce) > 0 {
		var c bytes.Buffer
		if err := json.Compact(&c, p.Reproduce); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&buf, ",\n\"reproduce\": %s", c.Bytes())
	}
	buf.WriteString("}")
	b := buf.Bytes()
	if err := os.MkdirAll(filepath.Dir(pinFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pinFile, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dpopPin is what one DPOP run yields, in full.
type dpopPin struct {
	Err       string   `json:",omitempty"`
	Feasible  bool     `json:",omitempty"`
	Cost      float64  `json:",omitempty"`
	Schedule  Schedule `json:",omitempty"`
	Width     int      `json:",omitempty"`
	Allocated []int    `json:",omitempty"`
	Stats     *Stats   `json:",omitempty"`
}

func pinDPOP(r *Result, err error) dpopPin {
	if err != nil {
		return dpopPin{Err: err.Error()}
	}
	st := r.Stats
	return dpopPin{Feasible: r.Feasible, Cost: r.Cost, Schedule: r.Schedule, Width: r.Tree.Width(),
		Allocated: r.Allocated, Stats: &st}
}

// wdPin is a WidthDelete followed by DPOP on the reduced tree.
type wdPin struct {
	Err         string   `json:",omitempty"`
	Deleted     [][2]int `json:",omitempty"`
	WidthBefore int
	WidthAfter  int
	Domains     [][]int  `json:",omitempty"`
	DPOP        *dpopPin `json:",omitempty"`
}

// splitPin is a split run.
type splitPin struct {
	Err      string   `json:",omitempty"`
	Feasible bool     `json:",omitempty"`
	Cost     float64  `json:",omitempty"`
	Schedule Schedule `json:",omitempty"`
	EdgesCut int
	Deleted  int
	Stats    Stats
	First    *dpopPin `json:",omitempty"`
	Second   *dpopPin `json:",omitempty"`
}

func pinSplit(r *SplitResult, err error) splitPin {
	if err != nil {
		return splitPin{Err: err.Error()}
	}
	p := splitPin{Feasible: r.Feasible, Cost: r.Cost, Schedule: r.Schedule, EdgesCut: r.EdgesCut, Deleted: r.Deleted, Stats: r.Stats}
	if r.First != nil {
		f := pinDPOP(r.First, nil)
		p.First = &f
	}
	if r.Second != nil {
		s := pinDPOP(r.Second, nil)
		p.Second = &s
	}
	return p
}

// pinCap bounds the join entries of one pinned DPOP run (wdCap after WD,
// whose cases are many), so that the pins stay fast; a larger run is not
// pinned.
const (
	pinCap = 1e7
	wdCap  = 3e6
)

func joinEntries(t *PseudoTree, dom [][]int) float64 {
	size := make([]int, len(dom))
	for k := range dom {
		size[k] = len(dom[k])
	}
	j := 0.0
	for x := range t.Sep {
		j += t.Entries(x, size) * float64(size[x])
	}
	return j
}

// pinCases computes every pinned case: name → outcome.
func pinCases(t *testing.T) map[string]any {
	t.Helper()
	ctx := context.Background()
	out := map[string]any{}
	type inst struct {
		name string
		in   *Instance
	}
	var insts []inst
	for _, n := range []int{5, 8, 11, 14, 20} {
		for seed := int64(1); seed <= 3; seed++ {
			in, err := Generate(Namekata2008(n), rand.New(rand.NewSource(seed)))
			if err != nil {
				t.Fatal(err)
			}
			insts = append(insts, inst{fmt.Sprintf("n%d-s%d", n, seed), in})
		}
	}
	// A loose instance: values other than 1, a longer horizon, durations
	// up to 4, so that the value objective leaves some jobs out.
	cfg := Namekata2008(9)
	cfg.Horizon, cfg.DurMax, cfg.Resources, cfg.Filter = 8, 4, 6, FilterNone
	loose, err := Generate(cfg, rand.New(rand.NewSource(7)))
	if err != nil {
		t.Fatal(err)
	}
	for k := range loose.Jobs {
		loose.Jobs[k].Value = float64(1 + k%4)
	}
	insts = append(insts, inst{"loose", loose})

	objectives := []string{ObjectiveMakespan, ObjectiveValue}
	domains := []string{DomainStarts, DomainFit}
	for _, it := range insts {
		in := it.in
		g := in.ConstraintGraph()
		for _, h := range Heuristics {
			var src *rand.Rand
			if h == HeuristicRandom {
				src = rand.New(rand.NewSource(3))
			}
			pt, err := BuildPseudoTree(g, h, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, obj := range objectives {
				for _, dm := range domains {
					name := fmt.Sprintf("dpop/%s/%s/%s/%s", it.name, h, obj, dm)
					dom := Domains(in, obj, dm)
					if joinEntries(pt, dom) > pinCap {
						continue
					}
					r, err := Solve(ctx, in, Options{Objective: obj, Domain: dm, Tree: pt})
					out[name] = pinDPOP(r, err)
				}
			}
		}
		// dpop-wd: every rule, two limits, two trees, both objectives.
		for _, h := range []string{HeuristicMaxDegree, HeuristicMinFill} {
			pt, err := BuildPseudoTree(g, h, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, rule := range WDRules {
				for _, limit := range []int{2, 3} {
					for _, obj := range objectives {
						dom := Domains(in, obj, DomainStarts)
						var ref Schedule
						if rule == RuleGreedyGuided {
							ref = GreedyIn(in, dom)
							if ref == nil {
								continue
							}
						}
						name := fmt.Sprintf("dpop-wd/%s/%s/%s/%d/%s", it.name, h, rule, limit, obj)
						wd, err := WidthDelete(in, pt, dom, limit, rule, ref)
						p := wdPin{}
						if wd != nil {
							p.Deleted, p.WidthBefore, p.WidthAfter, p.Domains = wd.Deleted, wd.WidthBefore, wd.WidthAfter, wd.Domains
						}
						if err != nil {
							p.Err = err.Error()
						} else if joinEntries(wd.Tree, wd.Domains) <= wdCap {
							r, err := Solve(ctx, in, Options{Objective: obj, Tree: wd.Tree, Domains: wd.Domains})
							d := pinDPOP(r, err)
							p.DPOP = &d
						}
						out[name] = p
					}
				}
			}
		}
		// dpop-split and dpop-split-wd.
		for _, h := range []string{HeuristicMaxDegree, HeuristicMinFill} {
			for _, obj := range objectives {
				for _, dm := range domains {
					o := Options{Objective: obj, Domain: dm, Heuristic: h, MemoryBytes: 64 << 20}
					name := fmt.Sprintf("dpop-split/%s/%s/%s/%s", it.name, h, obj, dm)
					if len(in.Jobs) <= 14 {
						out[name] = pinSplit(Split(ctx, in, o))
					}
					for _, rule := range []string{RuleSeed, RuleBalanced, RuleGreedyGuided} {
						name := fmt.Sprintf("dpop-split-wd/%s/%s/%s/%s/%s", it.name, h, rule, obj, dm)
						out[name] = pinSplit(SplitWD(ctx, in, o, &HalfWD{Limit: 3, Rule: rule}))
					}
				}
			}
		}
	}
	return out
}

// TestPinnedResults compares every variant's results on the pinned
// instances with the pins.
func TestPinnedResults(t *testing.T) {
	p := readPins(t)
	got := pinCases(t)
	if len(got) < 500 {
		t.Fatalf("only %d pinned cases", len(got))
	}
	update := pinUpdate()
	if update {
		p.Cases = map[string]json.RawMessage{}
	}
	names := make([]string, 0, len(got))
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	bad := 0
	for _, name := range names {
		b, err := json.Marshal(got[name])
		if err != nil {
			t.Fatal(err)
		}
		if update {
			p.Cases[name] = b
			continue
		}
		want, ok := p.Cases[name]
		if !ok {
			t.Errorf("%s: no pin", name)
			continue
		}
		if string(want) != string(b) {
			if bad++; bad <= 10 {
				t.Errorf("%s:\n got %s\nwant %s", name, b, want)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%d cases differ in all", bad)
	}
	if !update && len(p.Cases) != len(got) {
		t.Errorf("%d pins, %d cases computed", len(p.Cases), len(got))
	}
	if update {
		writePins(t, p)
	}
}

// TestPinnedReproduce compares the reduced reproduce (one instance per
// size) with its pin: tables, series and notes.
func TestPinnedReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("slow tier (a full reproduction (29 s at load 35)): not under -short; go test ./... runs it")
	}
	r, err := New().Reproduce(context.Background(), solvers.Params{"instances": "1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(struct {
		Tables any
		Series any
		Notes  any
	}{r.Tables, r.Series, r.Notes})
	if err != nil {
		t.Fatal(err)
	}
	p := readPins(t)
	if pinUpdate() {
		p.Reproduce = b
		writePins(t, p)
		return
	}
	var want, got any
	if err := json.Unmarshal(p.Reproduce, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	if string(wb) != string(gb) {
		t.Errorf("the reproduce moved:\n got %.2000s\nwant %.2000s", gb, wb)
	}
}
