package report

import (
	"cmp"
	"fmt"
	"math"
)

// TimeFrame is the one time frame of a report: every time the report holds
// (the bars of its Gantts, the x values of its plots marked XTime) is a
// number of Unit on one clock, and the page draws each of them as
// (t − Origin) in Display, the frame stated once ("Times: hours since the
// first submission"). Notes that speak of times use At and Duration, so
// that they read in the same unit as the charts.
//
// Unit is the data's unit: a time unit that converts to seconds ("ms",
// "s", "min", "h", "d") or one that does not ("slot", "time units",
// "round"). Display is a convertible unit when Unit is one (the frame's
// choice, see NewTimeFrame), else Unit itself; "" means Unit. OriginName
// says what Origin is ("the first submission", "the start of the
// simulation"); "" means the clock's zero.
type TimeFrame struct {
	Unit       string  `json:"unit"`
	Origin     float64 `json:"origin,omitempty"`
	OriginName string  `json:"origin_name,omitempty"`
	Display    string  `json:"display,omitempty"`
}

// secondsPer is how many seconds one unit is, for the units that convert.
var secondsPer = map[string]float64{"ms": 0.001, "s": 1, "min": 60, "h": 3600, "d": 86400}

// unitNames are the long names of the convertible units, for the frame's
// statement ("hours since …").
var unitNames = map[string]string{"ms": "milliseconds", "s": "seconds", "min": "minutes", "h": "hours", "d": "days"}

// SecondsPer is how many seconds one unit is, and whether unit converts to
// seconds at all ("slot" and "time units" do not).
func SecondsPer(unit string) (float64, bool) {
	s, ok := secondsPer[unit]
	return s, ok
}

// NewTimeFrame is the frame of data in unit whose times span span units
// from origin (named originName). Its display unit is chosen from the
// span, for data that converts to seconds: hours from 3 h, minutes from
// 3 min, else seconds (so a Gantt's axis reads 0–48 h, not 0–172,800 s);
// data in other units (slots) is shown in its own unit.
func NewTimeFrame(unit string, origin float64, originName string, span float64) *TimeFrame {
	f := &TimeFrame{Unit: unit, Origin: origin, OriginName: originName, Display: unit}
	if per, ok := secondsPer[unit]; ok {
		switch s := math.Abs(span) * per; {
		case s >= 3*3600:
			f.Display = "h"
		case s >= 3*60:
			f.Display = "min"
		default:
			f.Display = "s"
		}
	}
	return f
}

// Validate checks that the frame can be applied: a unit, a finite origin,
// and a display unit the data converts to.
func (f *TimeFrame) Validate() error {
	if f.Unit == "" {
		return fmt.Errorf("time frame has no unit")
	}
	if !isFinite(f.Origin) {
		return notFinite("time frame origin", f.Origin)
	}
	if f.Display == "" || f.Display == f.Unit {
		return nil
	}
	_, from := secondsPer[f.Unit]
	_, to := secondsPer[f.Display]
	if !from || !to {
		return fmt.Errorf("time frame: data in %q cannot be shown in %q (time units convert among ms, s, min, h and d only)", f.Unit, f.Display)
	}
	return nil
}

// Shown is the display unit of the page ("h", "slot").
func (f *TimeFrame) Shown() string { return cmp.Or(f.Display, f.Unit) }

// Scale is how many data units one display unit is (3600 for data in s
// shown in h; 1 when the units are the same or do not convert).
func (f *TimeFrame) Scale() float64 {
	from, ok1 := secondsPer[f.Unit]
	to, ok2 := secondsPer[f.Shown()]
	if !ok1 || !ok2 {
		return 1
	}
	return to / from
}

// Show maps a time t of the data (in Unit, on the data's clock) to the
// frame: (t − Origin) in the display unit.
func (f *TimeFrame) Show(t float64) float64 { return (t - f.Origin) / f.Scale() }

// DisplaySeconds is how many seconds one display unit is, and whether the
// display unit converts to seconds (for human durations).
func (f *TimeFrame) DisplaySeconds() (float64, bool) { return SecondsPer(f.Shown()) }

// AxisName is the name of a time axis in the frame: "time since the first
// submission (h)", or "time (slot)" when the origin has no name.
func (f *TimeFrame) AxisName() string {
	s := "time"
	if f.OriginName != "" {
		s += " since " + f.OriginName
	}
	return s + " (" + f.Shown() + ")"
}

// Statement is the frame said once for a page: "Times: hours since the
// first submission", "Times: slots".
func (f *TimeFrame) Statement() string {
	u := f.Shown()
	name, ok := unitNames[u]
	if !ok {
		name = pluralUnit(u)
	}
	s := "Times: " + name
	if f.OriginName != "" {
		s += " since " + f.OriginName
	}
	return s
}

// At writes the data time t in the frame, for a note: "12.5 h", "7 slots".
func (f *TimeFrame) At(t float64) string {
	if _, ok := secondsPer[f.Shown()]; ok {
		return formatNumber(f.Show(t)) + " " + f.Shown()
	}
	return FormatCount(f.Show(t), f.Shown())
}

// Duration writes a length d of data time for people: "11 h 47 min",
// "42 s", "3 slots".
func (f *TimeFrame) Duration(d float64) string {
	if per, ok := secondsPer[f.Unit]; ok {
		return HumanDuration(d * per)
	}
	return FormatCount(d, f.Unit)
}
