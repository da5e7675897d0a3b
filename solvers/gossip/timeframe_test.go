package gossip

import (
	"context"
	"strings"
	"testing"

	"schedlab/solvers"
)

// A simulation's report has one time frame, seconds from the start of the
// simulation shown in hours for a 4 h run: the Gantt's bars and every time
// plot are on that clock (the plots' last points near 4 h = 14,400 s, not
// 4), and the warm-up note reads in it.
func TestSimReportIsInOneTimeFrame(t *testing.T) {
	w := genWorkload(t, solvers.Params{"nodes": "120", "sites": "6", "duration_h": "4"}, 3)
	r, err := New().Run(context.Background(), w, VariantGossip, solvers.Params{"gantt_nodes": "20", "warmup_h": "1.5"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := r.Time
	if f == nil || f.Unit != "s" || f.Origin != 0 || f.Shown() != "h" || f.OriginName != "the start of the simulation" {
		t.Fatalf("frame %+v, want seconds from the start of the simulation shown in h", f)
	}
	if r.Gantts[0].TimeUnit != "s" {
		t.Errorf("Gantt in %q", r.Gantts[0].TimeUnit)
	}
	for _, title := range []string{"Utilization over time", "Messages per node per period", "Bytes per node per period", "Staleness of records", "Table coverage"} {
		p := r.Plot(title)
		if p == nil || !p.XTime {
			t.Fatalf("plot %q missing or not on the frame's clock", title)
		}
		pts := p.Lines[0].Points
		if last := pts[len(pts)-1][0]; last < 3*3600 || last > 4*3600 {
			t.Errorf("%s: last point at x = %v, want seconds near 14,400", title, last)
		}
	}
	if w := r.Plot("Utilization over time").Lines[2].Points[0][0]; w != 1.5*3600 {
		t.Errorf("warm-up line at %v s, want 5400", w)
	}
	found := false
	for _, n := range r.Notes {
		found = found || strings.Contains(n, "after 1 h 30 min (warm-up)")
	}
	if !found {
		t.Errorf("no note gives the warm-up as a duration in the frame: %q", r.Notes)
	}
	if p := w.Preview.Plot("Offered load over time"); w.Preview.Time == nil || p == nil || !p.XTime || p.Lines[0].Points[0][0] < 60 {
		t.Errorf("preview: frame %+v, offered load plot %+v", w.Preview.Time, p)
	}
}
