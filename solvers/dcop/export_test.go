package dcop

import (
	"bytes"
	"context"
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/solvers"
)

func exportWorkload(t *testing.T, in *Instance, name string) *solvers.Workload {
	t.Helper()
	w, err := newWorkload(in, name, "json")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func mustExport(t *testing.T, w *solvers.Workload, format string) []byte {
	t.Helper()
	out, err := exporter().Export(w, format)
	if err != nil {
		t.Fatalf("Export(%s): %v", format, err)
	}
	again, err := exporter().Export(w, format)
	if err != nil || !bytes.Equal(out, again) {
		t.Fatalf("Export(%s) is not deterministic (err %v)", format, err)
	}
	return out
}

// yamlSections counts, per top-level key, the entries indented by two
// spaces (a line-based reading: no YAML dependency).
func yamlSections(t *testing.T, doc string) (map[string][]string, map[string]string) {
	t.Helper()
	sections := map[string][]string{}
	top := map[string]string{}
	cur := ""
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case !strings.HasPrefix(line, " "):
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				t.Fatalf("bad top-level line %q", line)
			}
			cur = k
			top[k] = strings.TrimSpace(v)
		case strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   "):
			k, _, ok := strings.Cut(strings.TrimSpace(line), ":")
			if !ok {
				t.Fatalf("bad entry line %q", line)
			}
			sections[cur] = append(sections[cur], k)
		}
	}
	return sections, top
}

func TestExportPyDCOPSeedExample(t *testing.T) {
	in := seedExample(2, 1, 3, 1, 2)
	edges := in.ConstraintGraph().Edges()
	out := string(mustExport(t, exportWorkload(t, in, "seed \"fig1\""), ExportPyDCOP))
	sec, top := yamlSections(t, out)
	if top["objective"] != "min" || top["name"] != `"seed \"fig1\""` {
		t.Errorf("objective %q, name %q", top["objective"], top["name"])
	}
	if got := len(sec["variables"]); got != len(in.Jobs)+1 {
		t.Errorf("%d variables, want %d jobs + makespan", got, len(in.Jobs))
	}
	if got := len(sec["constraints"]); got != edges+len(in.Jobs) {
		t.Errorf("%d constraints, want %d edges + %d makespan bounds", got, edges, len(in.Jobs))
	}
	if got := len(sec["agents"]); got != len(in.Jobs)+1 {
		t.Errorf("%d agents, want %d", got, len(in.Jobs)+1)
	}
	for _, want := range []string{
		"  start_L3:\n    values: [1 .. 18]\n",
		"  E3:\n    domain: start_L3\n",
		"  makespan:\n    domain: makespan\n    cost_function: makespan\n",
		"  c_E1_E2:\n    type: intention\n    function: 0 if E1 + 2 <= E2 or E2 + 1 <= E1 else 1000000000\n",
		"  ms_E3:\n    type: intention\n    function: 0 if makespan >= E3 + 2 else 1000000000\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

type xInstance struct {
	Presentation struct {
		Name     string `xml:"name,attr"`
		Arity    string `xml:"maxConstraintArity,attr"`
		Maximize string `xml:"maximize,attr"`
		Format   string `xml:"format,attr"`
	} `xml:"presentation"`
	Agents []struct {
		Name string `xml:"name,attr"`
	} `xml:"agents>agent"`
	Domains []struct {
		Name     string `xml:"name,attr"`
		NbValues int    `xml:"nbValues,attr"`
		Values   string `xml:",chardata"`
	} `xml:"domains>domain"`
	Variables []struct {
		Name   string `xml:"name,attr"`
		Domain string `xml:"domain,attr"`
		Agent  string `xml:"agent,attr"`
	} `xml:"variables>variable"`
	Relations []struct {
		Name     string `xml:"name,attr"`
		Arity    int    `xml:"arity,attr"`
		NbTuples int    `xml:"nbTuples,attr"`
		Default  string `xml:"defaultCost,attr"`
		Body     string `xml:",chardata"`
	} `xml:"relations>relation"`
	Constraints []struct {
		Name      string `xml:"name,attr"`
		Scope     string `xml:"scope,attr"`
		Reference string `xml:"reference,attr"`
	} `xml:"constraints>constraint"`
}

// xModel is a parsed FRODO export, evaluable by brute force.
type xModel struct {
	doms   map[string][]int              // variable → values
	rels   map[string]map[string]float64 // relation → tuple → cost
	cons   [][]string                    // scope
	ref    []string
	vars   []string
	parsed xInstance
}

func parseFRODO(t *testing.T, out []byte) *xModel {
	t.Helper()
	var x xInstance
	if err := xml.Unmarshal(out, &x); err != nil {
		t.Fatalf("FRODO export is not XML: %v", err)
	}
	m := &xModel{doms: map[string][]int{}, rels: map[string]map[string]float64{}, parsed: x}
	dom := map[string][]int{}
	for _, d := range x.Domains {
		lo, hi, ok := strings.Cut(d.Values, "..")
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if !ok || err1 != nil || err2 != nil || b-a+1 != d.NbValues {
			t.Fatalf("domain %s: %q with nbValues %d", d.Name, d.Values, d.NbValues)
		}
		for v := a; v <= b; v++ {
			dom[d.Name] = append(dom[d.Name], v)
		}
	}
	for _, v := range x.Variables {
		m.doms[v.Name] = dom[v.Domain]
		m.vars = append(m.vars, v.Name)
	}
	for _, r := range x.Relations {
		tuples := map[string]float64{}
		cost := 0.0
		body := strings.TrimSpace(r.Body)
		if body != "" {
			for _, tu := range strings.Split(body, "|") {
				if c, rest, ok := strings.Cut(tu, ":"); ok {
					if c = strings.TrimSpace(c); c == "infinity" {
						cost = math.Inf(1)
					} else {
						f, err := strconv.ParseFloat(c, 64)
						if err != nil {
							t.Fatalf("relation %s: cost %q", r.Name, c)
						}
						cost = f
					}
					tu = rest
				}
				tuples[strings.Join(strings.Fields(tu), " ")] = cost
			}
		}
		if len(tuples) != r.NbTuples || r.Default != "0" {
			t.Fatalf("relation %s: %d tuples, nbTuples %d, defaultCost %q", r.Name, len(tuples), r.NbTuples, r.Default)
		}
		m.rels[r.Name] = tuples
	}
	for _, c := range x.Constraints {
		if m.rels[c.Reference] == nil && !strings.HasPrefix(c.Reference, "overlap") {
			t.Fatalf("constraint %s: unknown relation %s", c.Name, c.Reference)
		}
		m.cons = append(m.cons, strings.Fields(c.Scope))
		m.ref = append(m.ref, c.Reference)
	}
	return m
}

// optimum is the brute-force minimum total cost of the model.
func (m *xModel) optimum() float64 {
	val := map[string]int{}
	best := math.Inf(1)
	var rec func(i int)
	rec = func(i int) {
		if i == len(m.vars) {
			c := 0.0
			for k, scope := range m.cons {
				var parts []string
				for _, v := range scope {
					parts = append(parts, strconv.Itoa(val[v]))
				}
				c += m.rels[m.ref[k]][strings.Join(parts, " ")]
			}
			best = min(best, c)
			return
		}
		for _, v := range m.doms[m.vars[i]] {
			val[m.vars[i]] = v
			rec(i + 1)
		}
	}
	rec(0)
	return best
}

func TestExportFRODOSeedExample(t *testing.T) {
	in := seedExample(2, 1, 3, 1, 2)
	edges := in.ConstraintGraph().Edges()
	m := parseFRODO(t, mustExport(t, exportWorkload(t, in, "a<b&\"c\""), ExportFRODO))
	x := m.parsed
	p := x.Presentation
	if p.Name != "a<b&\"c\"" || p.Arity != "2" || p.Maximize != "false" || p.Format != "XCSP 2.1_FRODO" {
		t.Errorf("presentation %+v", p)
	}
	if len(x.Variables) != len(in.Jobs)+1 || len(x.Agents) != len(in.Jobs)+1 {
		t.Fatalf("%d variables, %d agents, want %d", len(x.Variables), len(x.Agents), len(in.Jobs)+1)
	}
	for k, j := range in.Jobs {
		v := x.Variables[k]
		if v.Name != j.ID || v.Agent == "" || len(m.doms[v.Name]) != in.Horizon-j.Duration+1 {
			t.Errorf("variable %+v: want %s with %d values", v, j.ID, in.Horizon-j.Duration+1)
		}
	}
	if d := m.doms[MakespanVar]; len(d) == 0 || d[0] != LowerBound(in) || d[len(d)-1] != in.Horizon {
		t.Errorf("makespan domain %v", d)
	}
	if len(x.Constraints) != edges+len(in.Jobs)+1 {
		t.Errorf("%d constraints, want %d edges + %d bounds + 1 cost", len(x.Constraints), edges, len(in.Jobs))
	}
	// E1 (2 slots) and E2 (1 slot) share A: E1 at 1 and E2 at 2 overlap,
	// E1 at 1 and E2 at 3 do not.
	found := false
	for k, scope := range m.cons {
		if strings.Join(scope, " ") == "E1 E2" {
			found = true
			rel := m.rels[m.ref[k]]
			if c, ok := rel["1 2"]; !ok || !math.IsInf(c, 1) {
				t.Errorf("overlapping (1, 2) not infeasible in %s", m.ref[k])
			}
			if _, ok := rel["1 3"]; ok {
				t.Errorf("non-overlapping (1, 3) listed in %s", m.ref[k])
			}
		}
		if strings.Join(scope, " ") == "E1 E5" || strings.Join(scope, " ") == "E2 E5" {
			t.Errorf("constraint between jobs sharing no resource: %v", scope)
		}
	}
	if !found {
		t.Error("no constraint E1 E2")
	}
}

// The FRODO model's optimum is the instance's optimal makespan.
func TestExportFRODOOptimumIsMakespan(t *testing.T) {
	for _, durs := range [][]int{{1, 1, 1, 1, 1}, {2, 1, 2, 1, 1}} {
		in := seedExample(durs...)
		in.Horizon = 6
		m := parseFRODO(t, mustExport(t, exportWorkload(t, in, "tiny"), ExportFRODO))
		ex := Exact(context.Background(), in, DomainStarts, 5*time.Second)
		if !ex.Proven {
			t.Fatal("exact not proven")
		}
		if got := m.optimum(); got != float64(ex.Makespan) {
			t.Errorf("durations %v: FRODO optimum %v, optimal makespan %d", durs, got, ex.Makespan)
		}
	}
}

func TestExportNamesAreIdentifiers(t *testing.T) {
	in := &Instance{Horizon: 5, Resources: []string{"R"}}
	for _, id := range []string{"1st", "a-b", "a_b", "if", "makespan", "yes", "x<y>"} {
		in.Jobs = append(in.Jobs, Job{ID: id, Resources: []int{0}, Duration: 1, Value: 1})
	}
	w := exportWorkload(t, in, "names")
	m := parseFRODO(t, mustExport(t, w, ExportFRODO))
	want := []string{"j1st", "a_b", "a_b_2", "if_2", "makespan_2", "yes_2", "x_y_", MakespanVar}
	if strings.Join(m.vars, " ") != strings.Join(want, " ") {
		t.Errorf("variables %v, want %v", m.vars, want)
	}
	sec, _ := yamlSections(t, string(mustExport(t, w, ExportPyDCOP)))
	if strings.Join(sec["variables"], " ") != strings.Join(want, " ") {
		t.Errorf("YAML variables %v, want %v", sec["variables"], want)
	}
}

func TestExportErrors(t *testing.T) {
	s := exporter()
	if len(s.Exports) != 2 || s.Exports[0].Name != ExportPyDCOP || s.Exports[1].Name != ExportFRODO {
		t.Errorf("Exports %+v", s.Exports)
	}
	w := exportWorkload(t, seedExample(1, 1, 1, 1, 1), "x")
	_, err := s.Export(w, "minizinc")
	if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "format" {
		t.Errorf("unknown format: %v (kind %v, field %q)", err, errs.KindOf(err), errs.FieldOf(err))
	}
	if _, err := s.Export(nil, ExportPyDCOP); !errs.Is(err, errs.Invalid) {
		t.Errorf("nil workload: %v", err)
	}
	big := seedExample(1, 1, 1, 1, 1)
	big.Horizon = 5000
	if _, err := s.Export(exportWorkload(t, big, "big"), ExportFRODO); !errs.Is(err, errs.TooLarge) {
		t.Errorf("huge FRODO export: %v", err)
	}
}

// exporter is the family, whose Export the tests call.
func exporter() *solvers.Strategy { return New() }
