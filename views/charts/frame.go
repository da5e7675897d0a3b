package charts

import (
	"slices"

	"schedlab/report"
)

// InFrame returns r with its times drawn in its time frame (r.Time): each
// Gantt's bars and each XTime plot's x values (and regions) mapped to
// (t − Origin) in the display unit, the Gantts' unit set to the display
// unit and their axis, like the plots' x axis, named after the frame
// ("time since the first submission (h)"). The copy has no Time (it is
// applied) and shares everything it does not change with r. Without a
// frame, r itself is returned.
func InFrame(r *report.Report) *report.Report {
	if r == nil || r.Time == nil {
		return r
	}
	out := *r
	out.Time = nil
	out.Gantts = make([]report.Gantt, len(r.Gantts))
	for i, g := range r.Gantts {
		out.Gantts[i] = FrameGantt(r.Time, g)
	}
	out.Series = make([]report.Plot, len(r.Series))
	for i, p := range r.Series {
		out.Series[i] = FramePlot(r.Time, p)
	}
	return &out
}

// FrameGantt is g in the frame f (see InFrame); g itself when f is nil.
func FrameGantt(f *report.TimeFrame, g report.Gantt) report.Gantt {
	if f == nil {
		return g
	}
	out := g
	out.TimeUnit, out.TimeLabel = f.Shown(), f.AxisName()
	show := shower(f)
	out.Bars = append([]report.Bar(nil), g.Bars...)
	for i := range out.Bars {
		b := &out.Bars[i]
		b.Start, b.End = show(b.Start), show(b.End)
	}
	return out
}

// FramePlot is p in the frame f when p's x is time (XTime): x values and
// regions mapped, the x axis named after the frame, XTime cleared (it is
// applied). Other plots, and any plot when f is nil, are returned as
// they are.
func FramePlot(f *report.TimeFrame, p report.Plot) report.Plot {
	if f == nil || !p.XTime {
		return p
	}
	out := p
	out.XTime, out.XLabel = false, f.AxisName()
	show := shower(f)
	out.Lines = make([]report.Line, len(p.Lines))
	for i, l := range p.Lines {
		pts := make([][2]float64, len(l.Points))
		for k, pt := range l.Points {
			pts[k] = [2]float64{show(pt[0]), pt[1]}
		}
		l.Points = pts
		out.Lines[i] = l
	}
	if p.Regions != nil {
		out.Regions = make([]report.Region, len(p.Regions))
		for i, g := range p.Regions {
			g.X0, g.X1 = show(g.X0), show(g.X1)
			out.Regions[i] = g
		}
	}
	return out
}

// JoinFrames puts the reports of a compare page in one time frame: when
// every report that has times to draw (a Gantt or an XTime plot) has a
// frame and they agree (SharedFrame), each is returned InFrame (each run
// from its own origin, all in the shared display unit) with the shared
// frame; else the reports are
// returned as they are, with differ set when some had a frame (the page
// then draws raw numbers and should say why). Reports without times to
// draw are returned as they are.
func JoinFrames(reports []*report.Report) (out []*report.Report, shared *report.TimeFrame, differ bool) {
	var frames []*report.TimeFrame
	for _, r := range reports {
		if timed(r) {
			frames = append(frames, r.Time)
			differ = differ || r.Time != nil
		}
	}
	shared = SharedFrame(frames)
	if shared == nil {
		return reports, nil, differ
	}
	out = make([]*report.Report, len(reports))
	for i, r := range reports {
		if r == nil || r.Time == nil {
			out[i] = r
			continue
		}
		own := *r
		f := *r.Time // the run's own origin, the shared display unit
		f.Display = shared.Display
		own.Time = &f
		out[i] = InFrame(&own)
	}
	return out, shared, false
}

// timed says whether r has times to draw: a Gantt or an XTime plot.
func timed(r *report.Report) bool {
	return r != nil && (len(r.Gantts) > 0 || slices.ContainsFunc(r.Series, func(p report.Plot) bool { return p.XTime }))
}

// shower is f.Show with the frame's origin and scale looked up once.
func shower(f *report.TimeFrame) func(float64) float64 {
	o, k := f.Origin, f.Scale()
	return func(t float64) float64 { return (t - o) / k }
}

// SharedFrame is the frame runs can be compared in: when every frame is
// set and all have the same unit and origin name (each run keeps its own
// origin, so "hours since the first submission" of two traces line up at
// their first submissions), it is the first of them shown in the largest
// display unit among them (a 2 h run beside a 24 h one: both in hours);
// else nil, and the runs are drawn in their raw numbers.
func SharedFrame(frames []*report.TimeFrame) *report.TimeFrame {
	if len(frames) == 0 || frames[0] == nil {
		return nil
	}
	shared := *frames[0]
	shared.Display = frames[0].Shown()
	for _, f := range frames[1:] {
		if f == nil || f.Unit != shared.Unit || f.OriginName != shared.OriginName {
			return nil
		}
		if f.Shown() == shared.Display {
			continue
		}
		a, ok1 := report.SecondsPer(shared.Display)
		b, ok2 := report.SecondsPer(f.Shown())
		if !ok1 || !ok2 {
			return nil
		}
		if b > a {
			shared.Display = f.Shown()
		}
	}
	return &shared
}
