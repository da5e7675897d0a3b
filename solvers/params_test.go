package solvers

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"schedlab/errs"
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
	bad := []Report{
		{Metrics: []Metric{{Name: "x", Value: math.NaN()}}},
		{Metrics: []Metric{{Name: "x", Value: 1, Better: "up"}}},
		{Tables: []Table{{Title: "t", Columns: []string{"a", "b"}, Rows: [][]any{{1.0}}}}},
		{Series: []Plot{{Title: "p", Lines: []Line{{Name: "l", Points: [][2]float64{{0, math.Inf(1)}}}}}}},
		{Gantts: []Gantt{{Title: "g", Lanes: []string{"a"}, Bars: []Bar{{Lane: 1, Start: 0, End: 1}}}}},
		{Gantts: []Gantt{{Title: "g", Lanes: []string{"a"}, Bars: []Bar{{Lane: 0, Start: 2, End: 1}}}}},
		{Heatmaps: []Heatmap{{Title: "h", X: []string{"a"}, Y: []string{"r"}, Values: [][]float64{{1, 2}}}}},
		{Graphs: []Graph{{Title: "g", Nodes: []GraphNode{{ID: "a"}}, Edges: []GraphEdge{{Source: "a", Target: "b"}}}}},
	}
	for i, r := range bad {
		if err := r.Validate(); err == nil {
			t.Errorf("case %d: Validate accepted %+v", i, r)
		}
	}
	good := Report{Metrics: []Metric{{Name: "x", Value: 1, Better: Higher}},
		Gantts: []Gantt{{Title: "g", Lanes: []string{"a"}, Bars: []Bar{{Lane: 0, Start: 0, End: 1}}}}}
	if err := good.Validate(); err != nil {
		t.Errorf("Validate rejected a good report: %v", err)
	}
}

func TestPresetParamsFindsThePresetOrNamesTheKnownOnes(t *testing.T) {
	presets := []Preset{{Name: "a", Params: []ParamSpec{IntSpec("n", "3", "", "", 1, 9)}}, {Name: "b"}}
	p, err := PresetParams(presets, "a", Params{})
	if err != nil || p.Int("n") != 3 {
		t.Errorf("preset a: %v %v", p, err)
	}
	if _, err := PresetParams(presets, "a", Params{"n": "99"}); errs.FieldOf(err) != "n" {
		t.Errorf("out of range: %v", err)
	}
	_, err = PresetParams(presets, "c", nil)
	if errs.FieldOf(err) != "preset" || !strings.Contains(err.Error(), "a, b") {
		t.Errorf("unknown preset: %v", err)
	}
}
