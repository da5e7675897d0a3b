package solvers

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/report"
)

var specs = []ParamSpec{
	FloatSpec("gamma", "1.3", "", "price markup", 0, math.Inf(1)),
	IntSpec("instance", "0", "", "instance number", 0, 99),
	ChoiceSpec("order", "BaS", "arrival order", "BaS", "SaB"),
}

func TestResolveFillsDefaultsAndKeepsGivenValues(t *testing.T) {
	got, err := Resolve(specs, Params{"gamma": " 1.2 "})
	if err != nil {
		t.Fatal(err)
	}
	want := Params{"gamma": "1.2", "instance": "0", "order": "BaS"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if got.Float("gamma") != 1.2 || got.Int("instance") != 0 || got.String("order") != "BaS" {
		t.Errorf("typed getters disagree with %v", got)
	}
}

func TestResolveRejectsBadValuesNamingTheParameter(t *testing.T) {
	cases := []struct {
		p     Params
		field string
	}{
		{Params{"gamma": "abc"}, "gamma"},
		{Params{"gamma": "NaN"}, "gamma"},
		{Params{"gamma": "-1"}, "gamma"},
		{Params{"instance": "100"}, "instance"},
		{Params{"instance": "1.5"}, "instance"},
		{Params{"order": "Rand"}, "order"},
		{Params{"gama": "1.2"}, "gama"},
	}
	for _, tc := range cases {
		_, err := Resolve(specs, tc.p)
		if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != tc.field {
			t.Errorf("Resolve(%v) = %v (kind %v, field %q), want Invalid on %s", tc.p, err, errs.KindOf(err), errs.FieldOf(err), tc.field)
		}
	}
}

func TestParamsJSONAcceptsNumbersAndStrings(t *testing.T) {
	var p Params
	if err := json.Unmarshal([]byte(`{"gamma": 1.25, "instance": "3", "flag": true, "none": null}`), &p); err != nil {
		t.Fatal(err)
	}
	if p["gamma"] != "1.25" || p["instance"] != "3" || p["flag"] != "true" {
		t.Errorf("decoded %v", p)
	}
	if _, ok := p["none"]; ok {
		t.Error("null kept as a value")
	}
	if err := json.Unmarshal([]byte(`{"gamma": [1]}`), &p); errs.FieldOf(err) != "gamma" {
		t.Errorf("array value: %v, want an error on gamma", err)
	}
}

func TestValidateRejectsWhatJSONAndChartsCannotShow(t *testing.T) {
	bad := []report.Report{
		{Metrics: []report.Metric{{Name: "x", Value: math.NaN()}}},
		{Metrics: []report.Metric{{Name: "x", Value: 1, Better: "up"}}},
		{Tables: []report.Table{{Title: "t", Columns: []string{"a", "b"}, Rows: [][]any{{1.0}}}}},
		{Series: []report.Plot{{Title: "p", Lines: []report.Line{{Name: "l", Points: [][2]float64{{0, math.Inf(1)}}}}}}},
		{Series: []report.Plot{{Title: "p", Lines: []report.Line{{Name: "l", Points: [][2]float64{{0, 1}}, Band: [][2]float64{{2, 0}}}}}}},
		{Series: []report.Plot{{Title: "p", Lines: []report.Line{{Name: "l", Points: [][2]float64{{0, 1}, {1, 1}}, Band: [][2]float64{{0, 2}}}}}}},
		{Gantts: []report.Gantt{{Title: "g", Lanes: []string{"a"}, Bars: []report.Bar{{Lane: 1, Start: 0, End: 1}}}}},
		{Gantts: []report.Gantt{{Title: "g", Lanes: []string{"a"}, Bars: []report.Bar{{Lane: 0, Start: 2, End: 1}}}}},
		{Heatmaps: []report.Heatmap{{Title: "h", X: []string{"a"}, Y: []string{"r"}, Values: [][]float64{{1, 2}}}}},
		{Graphs: []report.Graph{{Title: "g", Nodes: []report.GraphNode{{ID: "a"}}, Edges: []report.GraphEdge{{Source: "a", Target: "b"}}}}},
		{Parallels: []report.Parallel{{Title: "p", Axes: []report.ParallelAxis{{Name: "a"}, {Name: "b"}}, Groups: []report.ParallelGroup{{Name: "g", Rows: [][]float64{{1}}}}}}},
		{Parallels: []report.Parallel{{Title: "p", Axes: []report.ParallelAxis{{Name: "a"}}, Groups: []report.ParallelGroup{{Name: "g", Rows: [][]float64{{math.NaN()}}}}}}},
		{Parallels: []report.Parallel{{Title: "p", Axes: []report.ParallelAxis{{Name: "v", Categories: []string{"x", "y"}}}, Groups: []report.ParallelGroup{{Name: "g", Rows: [][]float64{{2}}}}}}},
		{Parallels: []report.Parallel{{Title: "p", Axes: []report.ParallelAxis{{Name: "v", Categories: []string{"x", "y"}}}, Groups: []report.ParallelGroup{{Name: "g", Rows: [][]float64{{0.5}}}}}}},
		{Series: []report.Plot{{Title: "p", Regions: []report.Region{{Name: "b", X0: 0, X1: 1, Y0: math.NaN(), Y1: 1}}}}},
		{Series: []report.Plot{{Title: "p", Regions: []report.Region{{Name: "b", X0: 2, X1: 1, Y0: 0, Y1: 1}}}}},
	}
	for i, r := range bad {
		if err := r.Validate(); err == nil {
			t.Errorf("case %d: Validate accepted %+v", i, r)
		}
	}
	good := report.Report{Metrics: []report.Metric{{Name: "x", Value: 1, Better: report.Higher}},
		Gantts:    []report.Gantt{{Title: "g", Lanes: []string{"a"}, Bars: []report.Bar{{Lane: 0, Start: 0, End: 1}}}},
		Parallels: []report.Parallel{{Title: "p", Axes: []report.ParallelAxis{{Name: "v", Categories: []string{"x", "y"}}, {Name: "m"}}, Groups: []report.ParallelGroup{{Name: "g", Rows: [][]float64{{1, -3.5}}}}}},
		Series:    []report.Plot{{Title: "p", Regions: []report.Region{{Name: "b", X0: 1000, X1: 3000, Y0: 1, Y1: 1.1}}}}}
	if err := good.Validate(); err != nil {
		t.Errorf("Validate rejected a good report: %v", err)
	}
}

func TestParamsJSONKeepsIntegersExact(t *testing.T) {
	cases := map[string]string{
		`1000000000`:          "1000000000",
		`1e9`:                 "1000000000",
		`1E+6`:                "1000000",
		`2.0`:                 "2",
		`9007199254740993`:    "9007199254740993", // 2^53+1: a float64 would round it
		`1.5`:                 "1.5",
		`-3`:                  "-3",
		`0.000001`:            "1e-06",
		`123456789012345678`:  "123456789012345678",
		`1.2345678901234e+20`: "1.2345678901234e+20", // beyond int64: float text
	}
	for in, want := range cases {
		var p Params
		if err := json.Unmarshal([]byte(`{"n": `+in+`}`), &p); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if p["n"] != want {
			t.Errorf("%s decoded as %q, want %q", in, p["n"], want)
		}
	}
	big := []ParamSpec{IntSpec("jobs", "1", "", "", 1, 2000000000)}
	var p Params
	if err := json.Unmarshal([]byte(`{"jobs": 1e9}`), &p); err != nil {
		t.Fatal(err)
	}
	if r, err := Resolve(big, p); err != nil || r.Int("jobs") != 1e9 {
		t.Errorf("jobs 1e9 resolved to %v, %v", r, err)
	}
}

func TestParamsJSONRefusesNestedValuesNamingTheKey(t *testing.T) {
	for _, in := range []string{`{"a": 1, "deep": {"x": 1}}`, `{"deep": [1, 2]}`} {
		var p Params
		err := json.Unmarshal([]byte(in), &p)
		if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "deep" || !strings.Contains(err.Error(), "object or a list") {
			t.Errorf("%s: %v, want Invalid on deep", in, err)
		}
	}
}

func TestResolveRunsTheCheckOfAStringParameter(t *testing.T) {
	lanes := ParamSpec{Name: "lanes", Kind: ParamString, Check: func(v string) error {
		if strings.Contains(v, "x") {
			return errors.New("no x allowed")
		}
		return nil
	}}
	named := ParamSpec{Name: "list", Kind: ParamString, Default: "ok", Check: func(v string) error {
		if v != "ok" {
			return errs.Invalidf("list", "want ok, got %q", v)
		}
		return nil
	}}
	ss := []ParamSpec{lanes, named}
	if _, err := Resolve(ss, Params{"lanes": "1,2"}); err != nil {
		t.Errorf("good value refused: %v", err)
	}
	_, err := Resolve(ss, Params{"lanes": "1,x"})
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "lanes" || !strings.Contains(err.Error(), "no x allowed") {
		t.Errorf("bad lanes: %v, want Invalid on lanes", err)
	}
	_, err = Resolve(ss, Params{"list": "bad"})
	if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "list" {
		t.Errorf("bad list: %v, want Invalid on list", err)
	}
}

// FuzzParamsResolve decodes API params and resolves them: it must never
// panic, and what Resolve accepts must read back through the typed getters.
func FuzzParamsResolve(f *testing.F) {
	for _, s := range []string{`{"gamma": 1.2, "instance": 3}`, `{"instance": 1e9}`, `{"order": "SaB", "gamma": "2"}`,
		`{"gamma": null}`, `{"x": {}}`, `{"instance": "99"}`, `{"gamma": -1e308}`, `[]`, `{"instance": 1.0}`, `{"lanes": "1-3,x"}`} {
		f.Add([]byte(s))
	}
	fs := append(slices.Clone(specs), ParamSpec{Name: "lanes", Kind: ParamString, Check: func(v string) error {
		if strings.ContainsAny(v, "x") {
			return errors.New("bad")
		}
		return nil
	}})
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Params
		if err := json.Unmarshal(b, &p); err != nil {
			return
		}
		r, err := Resolve(fs, p)
		if err != nil {
			if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) == "" {
				t.Fatalf("Resolve(%v) = %v: want Invalid naming a parameter", p, err)
			}
			return
		}
		_ = r.Float("gamma")
		if n := r.Int("instance"); n < 0 || n > 99 {
			t.Fatalf("instance %d out of its range", n)
		}
		_ = r.String("order")
	})
}

func TestValidateRefusesAnUnknownMetricKind(t *testing.T) {
	r := report.Report{Metrics: []report.Metric{{Name: "x", Value: 1, Kind: "speed"}}}
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "kind") {
		t.Errorf("kind speed: %v", err)
	}
	for _, k := range []report.MetricKind{report.KindResult, report.KindCost, report.KindInfo} {
		if err := (&report.Report{Metrics: []report.Metric{{Name: "x", Value: 1, Kind: k}}}).Validate(); err != nil {
			t.Errorf("kind %q: %v", k, err)
		}
	}
}

func TestValidateRefusesEmptyOrRepeatedMetricVariants(t *testing.T) {
	for _, c := range []struct {
		variants []string
		want     string // "" = valid
	}{
		{nil, ""},
		{[]string{"dpop"}, ""},
		{[]string{"dpop", "dpop-wd"}, ""},
		{[]string{"dpop", ""}, "variant 2"},
		{[]string{"dpop", "dpop-wd", "dpop"}, `"dpop" is named twice`},
	} {
		err := (&report.Report{Metrics: []report.Metric{{Name: "messages", Value: 1, Variants: c.variants}}}).Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("variants %q: %v", c.variants, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "messages")):
			t.Errorf("variants %q: %v, want an error naming the metric and %s", c.variants, err, c.want)
		}
	}
}

func TestMetricMeaningfulForItsVariantsOrEveryVariant(t *testing.T) {
	all := report.Metric{Name: "makespan"}
	some := report.Metric{Name: "messages", Variants: []string{"dpop", "dpop-wd"}}
	for _, c := range []struct {
		m       report.Metric
		variant string
		want    bool
	}{
		{all, "exact", true},
		{all, "", true},
		{some, "dpop", true},
		{some, "dpop-wd", true},
		{some, "exact", false},
		{some, "", false},
	} {
		if got := c.m.MeaningfulFor(c.variant); got != c.want {
			t.Errorf("%s (variants %q) meaningful for %q: %v, want %v", c.m.Name, c.m.Variants, c.variant, got, c.want)
		}
	}
}
