package report

import (
	"math"
	"strings"
	"testing"
)

func TestHumanDurationWritesTheTwoLargestUnitsRoundedAtTheLast(t *testing.T) {
	for _, c := range []struct {
		sec  float64
		want string
	}{
		{0, "0 s"},
		{0.0004, "0 ms"},
		{0.25, "250 ms"},
		{0.9996, "1 s"}, // rounds to 1000 ms: written as a second
		{4.54, "4.5 s"},
		{9.96, "10 s"},
		{42.4, "42 s"},
		{59.4, "59 s"},
		{59.6, "1 min"}, // rounds up into minutes: no "60 s"
		{200, "3 min 20 s"},
		{180, "3 min"},
		{3599.6, "1 h"}, // 3600 s: into hours, no "60 min"
		{11*3600 + 47*60 + 10, "11 h 47 min"},
		{11*3600 + 47*60 + 40, "11 h 48 min"},
		{7200, "2 h"},
		{86400 - 20, "1 d"},
		{2*86400 + 3*3600 + 100, "2 d 3 h"},
		{-90, "−1 min 30 s"},
		{2e15, "23148148148.15 d"},
	} {
		if got := HumanDuration(c.sec); got != c.want {
			t.Errorf("HumanDuration(%v) = %q, want %q", c.sec, got, c.want)
		}
	}
}

func TestCountSaysOneUnitInTheSingular(t *testing.T) {
	for _, c := range []struct {
		n          float64
		unit, want string
	}{
		{1, "slot", "1 slot"},
		{3, "slot", "3 slots"},
		{1, "time units", "1 time unit"},
		{2.5, "time units", "2.5 time units"},
		{0.999, "slot", "1 slot"},
		{4, "", "4"},
	} {
		if got := FormatCount(c.n, c.unit); got != c.want {
			t.Errorf("FormatCount(%v, %q) = %q, want %q", c.n, c.unit, got, c.want)
		}
	}
}

func TestNewTimeFrameChoosesTheDisplayUnitFromTheSpan(t *testing.T) {
	for _, c := range []struct {
		unit    string
		span    float64
		display string
	}{
		{"s", 48 * 3600, "h"},
		{"s", 3 * 3600, "h"},
		{"s", 3*3600 - 1, "min"},
		{"s", 7221, "min"},
		{"s", 180, "min"},
		{"s", 179, "s"},
		{"ms", 200_000, "min"},
		{"h", 5, "h"},
		{"slot", 1e6, "slot"},
		{"time units", 600, "time units"},
	} {
		if f := NewTimeFrame(c.unit, 0, "", c.span); f.Shown() != c.display {
			t.Errorf("NewTimeFrame(%q, span %v) shows %q, want %q", c.unit, c.span, f.Shown(), c.display)
		}
	}
}

func TestTimeFrameShowsTimesFromItsOriginInItsDisplayUnit(t *testing.T) {
	f := &TimeFrame{Unit: "s", Origin: 600000, OriginName: "the first submission", Display: "h"}
	if got := f.Show(600000 + 5400); got != 1.5 {
		t.Errorf("Show = %v, want 1.5 (h after the origin)", got)
	}
	if got := f.At(600000 + 48*3600); got != "48 h" {
		t.Errorf("At = %q, want 48 h", got)
	}
	if got := f.Duration(11*3600 + 47*60); got != "11 h 47 min" {
		t.Errorf("Duration = %q", got)
	}
	if got := f.AxisName(); got != "time since the first submission (h)" {
		t.Errorf("AxisName = %q", got)
	}
	if got := f.Statement(); got != "Times: hours since the first submission" {
		t.Errorf("Statement = %q", got)
	}
	slots := &TimeFrame{Unit: "slot", OriginName: "the start of the schedule"}
	if slots.Show(7) != 7 || slots.At(7) != "7 slots" || slots.Duration(3) != "3 slots" || slots.Duration(1) != "1 slot" {
		t.Errorf("slot frame: Show %v, At %q, Duration %q / %q", slots.Show(7), slots.At(7), slots.Duration(3), slots.Duration(1))
	}
	if got := slots.Statement(); got != "Times: slots since the start of the schedule" {
		t.Errorf("slot Statement = %q", got)
	}
	if got := (&TimeFrame{Unit: "time units"}).AxisName(); got != "time (time units)" {
		t.Errorf("AxisName without an origin name = %q", got)
	}
}

func TestTimeFrameValidateRefusesWhatCannotBeShown(t *testing.T) {
	for _, c := range []struct {
		f    TimeFrame
		want string // "" = valid
	}{
		{TimeFrame{Unit: "s", Display: "h"}, ""},
		{TimeFrame{Unit: "slot"}, ""},
		{TimeFrame{Unit: "slot", Display: "slot"}, ""},
		{TimeFrame{}, "no unit"},
		{TimeFrame{Unit: "slot", Display: "h"}, `"slot" cannot be shown in "h"`},
		{TimeFrame{Unit: "s", Display: "weeks"}, `cannot be shown in "weeks"`},
		{TimeFrame{Unit: "s", Origin: math.Inf(1)}, "origin"},
	} {
		err := c.f.Validate()
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: Validate = %v, want %q", c.f, err, c.want)
		}
	}
}

func TestReportValidateChecksTheTimeFrameAgainstItsCharts(t *testing.T) {
	plot := Plot{Title: "usage", XTime: true, Lines: []Line{{Points: [][2]float64{{0, 1}}}}}
	if err := (&Report{Series: []Plot{plot}}).Validate(); err == nil || !strings.Contains(err.Error(), "no time frame") {
		t.Errorf("an XTime plot without a frame: %v", err)
	}
	frame := &TimeFrame{Unit: "s", Display: "h"}
	if err := (&Report{Series: []Plot{plot}, Time: frame}).Validate(); err != nil {
		t.Errorf("an XTime plot with a frame: %v", err)
	}
	g := Gantt{Title: "slots", TimeUnit: "slot", Lanes: []string{"r"}}
	if err := (&Report{Gantts: []Gantt{g}, Time: frame}).Validate(); err == nil || !strings.Contains(err.Error(), `gantt "slots" is in "slot"`) {
		t.Errorf("a Gantt in another unit than the frame: %v", err)
	}
	g.TimeUnit = "s"
	if err := (&Report{Gantts: []Gantt{g}, Time: frame}).Validate(); err != nil {
		t.Errorf("a Gantt in the frame's unit: %v", err)
	}
	if err := (&Report{Time: &TimeFrame{Unit: "slot", Display: "h"}}).Validate(); err == nil {
		t.Error("a frame showing slots in hours was accepted")
	}
}
