package critical

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
)

// ReadingCell is one reading of the collision steps at one deadline
// factor on one set of graphs (MeasureReadings).
type ReadingCell struct {
	Reading   string
	Factor    float64
	Instances int
	Scheduled int     // checked schedules (CheckSchedule)
	StopRate  float64 // 1 − Scheduled / Instances
	// OverHEFT and OverLB are the means, over the scheduled instances, of
	// makespan / HEFT's makespan on the same processors and makespan /
	// the lower bound over the processors used.
	OverHEFT, OverLB float64
	// Stops counts the stops by where they happened.
	StopsPlanning, StopsCollision int
}

// RandomGraphs is n random DAGs of the random preset's defaults (30
// tasks, 6 layers, 4 processors), seeds 1..n: the measurement's random set.
func RandomGraphs(n int) ([]*Graph, error) {
	gs := make([]*Graph, 0, n)
	for i := range n {
		g, err := Generate(DefaultGenConfig(), rand.New(rand.NewSource(int64(i+1))))
		if err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// MeasureReadings runs variant critical-works under every reading at
// every deadline factor (× HEFT's makespan) on graphs (each with its
// processors; WfFormat graphs on wf_processors of base), the rest of base
// as given. A run counts as scheduled when it is complete and its
// schedule passes CheckSchedule.
func MeasureReadings(ctx context.Context, graphs []*Graph, readings []string, factors []float64, base RunConfig) ([]ReadingCell, error) {
	var cells []ReadingCell
	for _, r := range readings {
		for _, f := range factors {
			c := ReadingCell{Reading: r, Factor: f}
			for _, g := range graphs {
				cfg := base
				cfg.CollisionProcessors, cfg.DeadlineFactor, cfg.Deadline = r, f, 0
				gp, err := withPlatform(g, cfg)
				if err != nil {
					return nil, err
				}
				o, err := Solve(ctx, gp, VariantCritical, cfg, nil)
				if err != nil {
					return nil, fmt.Errorf("%s, %s at %v: %w", g.Name, r, f, err)
				}
				c.Instances++
				if !o.Complete {
					if o.Plan != nil && o.Plan.StopWork == 0 {
						c.StopsCollision++
					} else {
						c.StopsPlanning++
					}
					continue
				}
				if err := CheckSchedule(o.D, o.Sched); err != nil {
					return nil, fmt.Errorf("%s, %s at %v: schedule fails the checker: %w", g.Name, r, f, err)
				}
				c.Scheduled++
				ms := o.Sched.Makespan()
				c.OverHEFT += ms / HEFT(o.D).Makespan()
				c.OverLB += ms / o.Bounds.Lower
			}
			if c.Scheduled > 0 {
				c.OverHEFT /= float64(c.Scheduled)
				c.OverLB /= float64(c.Scheduled)
			}
			if c.Instances > 0 {
				c.StopRate = 1 - float64(c.Scheduled)/float64(c.Instances)
			}
			cells = append(cells, c)
		}
	}
	return cells, nil
}

// FormatReadings is cells as a plain-text table.
func FormatReadings(title string, cells []ReadingCell) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%-9s %6s %9s %9s %10s %9s %11s %11s\n", title, "reading", "factor", "instances", "scheduled", "stop rate", "ms/HEFT", "ms/LB", "stops p/c")
	for _, c := range cells {
		h, l := "-", "-"
		if c.Scheduled > 0 {
			h, l = fmt.Sprintf("%.3f", c.OverHEFT), fmt.Sprintf("%.3f", c.OverLB)
		}
		fmt.Fprintf(&b, "%-9s %6.2g %9d %9d %9.1f%% %9s %11s %5d/%d\n", c.Reading, c.Factor, c.Instances, c.Scheduled, 100*c.StopRate, h, l, c.StopsPlanning, c.StopsCollision)
	}
	return b.String()
}
