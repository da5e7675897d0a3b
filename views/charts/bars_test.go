package charts

import (
	"encoding/json"
	"testing"
)

func TestBarsMarkTheBestRunsAndSkipMissingValues(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	m := MetricBars{Metric: "makespan", Unit: "s", Labels: []string{"heft", "list", "critical-works"},
		Values: []*float64{f(10), nil, f(10)}, Best: []bool{true, false, true}}
	doc, _ := render(t, Bars(m))
	assertChart(t, doc, "bars", "makespan")
	raw, err := BarsOption(m)
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		XAxis []struct {
			Data      []string `json:"data"`
			AxisLabel struct {
				Rotate float64 `json:"rotate"`
			} `json:"axisLabel"`
		} `json:"xAxis"`
		Series []struct {
			Type string `json:"type"`
			Data []struct {
				Name      string `json:"name"`
				Value     any    `json:"value"`
				Best      bool   `json:"best"`
				ItemStyle struct {
					Color string `json:"color"`
				} `json:"itemStyle"`
			} `json:"data"`
		} `json:"series"`
		Meta map[string]string `json:"schedlab"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	if len(o.XAxis) != 1 || len(o.XAxis[0].Data) != 3 || o.XAxis[0].Data[2] != "critical-works" {
		t.Fatalf("x axis = %+v, want the three run labels", o.XAxis)
	}
	if o.XAxis[0].AxisLabel.Rotate != 30 {
		t.Errorf("three run labels lean %v°, want 30° (they would overlap)", o.XAxis[0].AxisLabel.Rotate)
	}
	if len(o.Series) != 1 || o.Series[0].Type != "bar" || len(o.Series[0].Data) != 3 {
		t.Fatalf("series = %+v, want one bar series of 3 bars", o.Series)
	}
	want := []struct {
		value  any
		best   bool
		colour string
	}{{10.0, true, BarBestColour}, {"-", false, BarOtherColour}, {10.0, true, BarBestColour}}
	for i, w := range want {
		d := o.Series[0].Data[i]
		if d.Value != w.value || d.Best != w.best || d.ItemStyle.Color != w.colour || d.Name != m.Labels[i] {
			t.Errorf("bar %d = %+v, want value %v best %v colour %s", i, d, w.value, w.best, w.colour)
		}
	}
	if o.Meta["unit"] != "s" || o.Meta["metric"] != "makespan" {
		t.Errorf("meta = %v", o.Meta)
	}
}

func TestBarsLeaveOutTheRunsTheMetricIsNotMeaningfulFor(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	m := MetricBars{Metric: "messages", Labels: []string{"dpop", "exact", "dpop-wd"},
		Values: []*float64{f(38), f(0), f(26)}, Best: []bool{false, false, true}, Omit: []bool{false, true, false}}
	if got := m.Shown(); len(got) != 2 || got[0] != "dpop" || got[1] != "dpop-wd" {
		t.Errorf("shown %q, want dpop and dpop-wd", got)
	}
	if got := m.Omitted(); len(got) != 1 || got[0] != "exact" {
		t.Errorf("omitted %q, want exact", got)
	}
	raw, err := BarsOption(m)
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		XAxis []struct {
			Data []string `json:"data"`
		} `json:"xAxis"`
		Series []struct {
			Data []struct {
				Name  string  `json:"name"`
				Value float64 `json:"value"`
				Best  bool    `json:"best"`
			} `json:"data"`
		} `json:"series"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	if len(o.XAxis) != 1 || len(o.XAxis[0].Data) != 2 || o.XAxis[0].Data[0] != "dpop" || o.XAxis[0].Data[1] != "dpop-wd" {
		t.Fatalf("x axis = %+v, want dpop and dpop-wd alone", o.XAxis)
	}
	if len(o.Series) != 1 || len(o.Series[0].Data) != 2 {
		t.Fatalf("series = %+v, want two bars", o.Series)
	}
	for i, w := range []struct {
		name  string
		value float64
		best  bool
	}{{"dpop", 38, false}, {"dpop-wd", 26, true}} {
		if d := o.Series[0].Data[i]; d.Name != w.name || d.Value != w.value || d.Best != w.best {
			t.Errorf("bar %d = %+v, want %+v", i, d, w)
		}
	}
}
