package charts

import (
	"reflect"
	"strings"
	"testing"

	"schedlab/report"
)

// framedReport is a batch-like report: trace seconds from 600,000, a
// Gantt, a time plot with a region and a plot whose x is not time.
func framedReport() *report.Report {
	return &report.Report{
		Time: &report.TimeFrame{Unit: "s", Origin: 600000, OriginName: "the first submission", Display: "h"},
		Gantts: []report.Gantt{{Title: "Processors", TimeUnit: "s", Lanes: []string{"P0"},
			Bars: []report.Bar{{Lane: 0, Start: 600000 + 3600, End: 600000 + 9000, Label: "7"}}}},
		Series: []report.Plot{
			{Title: "Processors in use", XLabel: "old", XTime: true, Lines: []report.Line{{Name: "peak", Points: [][2]float64{{600000, 3}, {600000 + 7200, 5}}}},
				Regions: []report.Region{{Name: "claim", X0: 600000, X1: 600000 + 1800, Y0: 0, Y1: 1}}},
			{Title: "Fig", XLabel: "nodes", Lines: []report.Line{{Points: [][2]float64{{600000, 1}}}}},
		},
	}
}

func TestInFrameDrawsGanttsAndTimePlotsInTheFrameOnly(t *testing.T) {
	r := framedReport()
	keep := framedReport()
	got := InFrame(r)
	if got.Time != nil {
		t.Errorf("the framed copy still has a frame to apply: %+v", got.Time)
	}
	g := got.Gantts[0]
	if g.TimeUnit != "h" || g.TimeLabel != "time since the first submission (h)" {
		t.Errorf("Gantt unit %q, axis %q", g.TimeUnit, g.TimeLabel)
	}
	if b := g.Bars[0]; b.Start != 1 || b.End != 2.5 || b.Label != "7" {
		t.Errorf("bar %+v, want 1 h to 2.5 h after the first submission", b)
	}
	p := got.Series[0]
	if p.XTime || p.XLabel != "time since the first submission (h)" {
		t.Errorf("time plot: XTime %v, x label %q", p.XTime, p.XLabel)
	}
	if want := [][2]float64{{0, 3}, {2, 5}}; !reflect.DeepEqual(p.Lines[0].Points, want) {
		t.Errorf("time plot points %v, want %v", p.Lines[0].Points, want)
	}
	if rg := p.Regions[0]; rg.X0 != 0 || rg.X1 != 0.5 || rg.Y1 != 1 {
		t.Errorf("region %+v, want x 0..0.5 h", rg)
	}
	if !reflect.DeepEqual(got.Series[1], r.Series[1]) {
		t.Errorf("a plot whose x is not time changed: %+v", got.Series[1])
	}
	if !reflect.DeepEqual(r, keep) {
		t.Error("InFrame changed the report it was given")
	}
	if plain := (&report.Report{}); InFrame(plain) != plain {
		t.Error("a report without a frame is not drawn as it is")
	}
}

func TestFramedGanttOptionNamesTheAxisAndTellsTheTooltipSecondsPerUnit(t *testing.T) {
	g := InFrame(framedReport()).Gantts[0]
	o := option(t)(GanttOption(g))
	if name := str(t, o, "xAxis", 0, "name"); name != "time since the first submission (h)" {
		t.Errorf("axis name %q", name)
	}
	if min, max := get(t, o, "xAxis", 0, "min"), get(t, o, "xAxis", 0, "max"); min != 1.0 || max != 2.5 {
		t.Errorf("axis %v..%v, want 1..2.5 (h)", min, max)
	}
	meta := ganttMeta(t, o)
	if meta["unit"] != "h" || meta["sec"] != 3600.0 {
		t.Errorf("meta unit %v, sec %v; want h, 3600", meta["unit"], meta["sec"])
	}
	slots := report.Gantt{Title: "Schedule", TimeUnit: "slot", Lanes: []string{"r"}, Bars: []report.Bar{{Lane: 0, Start: 0, End: 3}}}
	so := option(t)(GanttOption(slots))
	if m := ganttMeta(t, so); m["sec"] != 0.0 {
		t.Errorf("slots: sec %v, want 0 (a count of slots, not a duration in seconds)", m["sec"])
	}
	if name := str(t, so, "xAxis", 0, "name"); name != "time (slot)" {
		t.Errorf("unframed axis name %q", name)
	}
	tip := str(t, o, "series", 0, "tooltip", "formatter")
	for _, want := range []string{"M.sec > 0 ? human(", "count(v[2] - v[1], M.unit)"} {
		if !strings.Contains(tip, want) {
			t.Errorf("tooltip lacks %q", want)
		}
	}
}

func TestJoinFramesSharesAFrameOnlyWhenEveryTimedRunHasTheSame(t *testing.T) {
	batch := func(origin float64) *report.Report {
		r := framedReport()
		r.Time.Origin = origin
		r.Gantts[0].Bars[0].Start, r.Gantts[0].Bars[0].End = origin+3600, origin+7200
		return r
	}
	untimed := &report.Report{Metrics: []report.Metric{{Name: "m", Value: 1}}}
	out, f, differ := JoinFrames([]*report.Report{batch(600000), untimed, batch(0)})
	if f == nil || differ || f.Statement() != "Times: hours since the first submission" {
		t.Fatalf("shared frame %+v, differ %v", f, differ)
	}
	for _, i := range []int{0, 2} {
		if b := out[i].Gantts[0].Bars[0]; b.Start != 1 || b.End != 2 {
			t.Errorf("run %d: bar %+v, want 1..2 h from its own first submission", i, b)
		}
	}
	if out[1] != untimed {
		t.Error("a report with nothing timed was changed")
	}

	minutes := batch(0)
	minutes.Time.Display = "min"
	out, f, differ = JoinFrames([]*report.Report{minutes, batch(0)})
	if f == nil || differ || f.Shown() != "h" {
		t.Fatalf("a run shown in min beside one in h: shared %+v, differ %v; want both in h", f, differ)
	}
	if b := out[0].Gantts[0].Bars[0]; b.Start != 1 || out[0].Gantts[0].TimeUnit != "h" {
		t.Errorf("the run shown in min on its own: bar %+v in %q, want 1 h", b, out[0].Gantts[0].TimeUnit)
	}
	if minutes.Time.Display != "min" {
		t.Error("JoinFrames changed a run's own frame")
	}
	slots := batch(0)
	slots.Time = &report.TimeFrame{Unit: "slot", OriginName: "the first submission"}
	raw := []*report.Report{batch(0), slots}
	out, f, differ = JoinFrames(raw)
	if f != nil || !differ || out[0] != raw[0] || out[1] != raw[1] {
		t.Errorf("frames in s and in slots: shared %+v, differ %v; want none, raw reports", f, differ)
	}
	old := batch(0)
	old.Time = nil
	if _, f, differ = JoinFrames([]*report.Report{batch(0), old}); f != nil || !differ {
		t.Errorf("a run without a frame beside one with: shared %+v, differ %v", f, differ)
	}
	if _, f, differ = JoinFrames([]*report.Report{old, old}); f != nil || differ {
		t.Errorf("no frames at all: shared %+v, differ %v", f, differ)
	}
	other := batch(0)
	other.Time.OriginName = "the start of the simulation"
	if _, f, _ = JoinFrames([]*report.Report{batch(0), other}); f != nil {
		t.Errorf("origins of different names shared a frame: %+v", f)
	}
}

// BenchmarkInFrame30000Bars is the cost the frame adds to drawing a
// run page with the largest Gantt the families send (30,000 bars) and a
// 2,000-point time plot.
func BenchmarkInFrame30000Bars(b *testing.B) {
	r := framedReport()
	bars := make([]report.Bar, 30000)
	for i := range bars {
		bars[i] = report.Bar{Lane: 0, Start: 600000 + float64(i), End: 600000 + float64(i) + 30}
	}
	r.Gantts[0].Bars = bars
	pts := make([][2]float64, 2000)
	for i := range pts {
		pts[i] = [2]float64{600000 + float64(i)*60, 1}
	}
	r.Series[0].Lines[0].Points = pts
	for b.Loop() {
		if InFrame(r).Gantts[0].Bars[29999].Start != 29999.0/3600 {
			b.Fatal("bar not in the frame")
		}
	}
}
