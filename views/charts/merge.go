package charts

import (
	"strconv"

	"schedlab/solvers"
)

// Sep joins a run label to a line, lane or group name.
const Sep = " · "

// runLabel is runLabels[i], or "run i+1" when the list is short or the
// label empty.
func runLabel(runLabels []string, i int) string {
	if i < len(runLabels) && runLabels[i] != "" {
		return runLabels[i]
	}
	return "run " + strconv.Itoa(i+1)
}

// MergePlots overlays plots of the same title from several runs (plots[i]
// belongs to run runLabels[i]) into one plot: every line of every run, in
// run order, named "runLabel · lineName", or just runLabel when that run's
// plot has a single line. Title, axis labels, kind and log flags come from
// the first plot (the compare page merges plots with equal titles, which
// come from the same strategy). Points are shared, not copied.
func MergePlots(runLabels []string, plots []solvers.Plot) solvers.Plot {
	if len(plots) == 0 {
		return solvers.Plot{}
	}
	first := plots[0]
	out := solvers.Plot{
		Title: first.Title, XLabel: first.XLabel, YLabel: first.YLabel,
		Kind: first.Kind, XLog: first.XLog, YLog: first.YLog,
	}
	for i, p := range plots {
		label := runLabel(runLabels, i)
		for j, l := range p.Lines {
			name := label
			if len(p.Lines) > 1 {
				ln := l.Name
				if ln == "" {
					ln = "line " + strconv.Itoa(j+1)
				}
				name = label + Sep + ln
			}
			out.Lines = append(out.Lines, solvers.Line{Name: name, Points: l.Points, Dashed: l.Dashed})
		}
	}
	return out
}

// StackGantts stacks the Gantts of several runs (gs[i] belongs to run
// runLabels[i]) on one time axis: run i's lanes follow run i-1's, each
// named "runLabel · lane"; bars move to their lane's new index and their
// group becomes "runLabel · group" (just runLabel when the bar had none),
// so the same group name in two runs gets its own colour. Labels and kinds
// are kept. Title and time unit come from the first Gantt that has them.
func StackGantts(runLabels []string, gs []solvers.Gantt) solvers.Gantt {
	var out solvers.Gantt
	for i, g := range gs {
		if out.Title == "" {
			out.Title = g.Title
		}
		if out.TimeUnit == "" {
			out.TimeUnit = g.TimeUnit
		}
		label := runLabel(runLabels, i)
		base := len(out.Lanes)
		for _, lane := range g.Lanes {
			out.Lanes = append(out.Lanes, label+Sep+lane)
		}
		for _, b := range g.Bars {
			if b.Lane < 0 || b.Lane >= len(g.Lanes) {
				continue // not on any lane of its own Gantt
			}
			group := label
			if b.Group != "" {
				group = label + Sep + b.Group
			}
			out.Bars = append(out.Bars, solvers.Bar{
				Lane: base + b.Lane, Start: b.Start, End: b.End,
				Label: b.Label, Group: group, Kind: b.Kind,
			})
		}
	}
	return out
}
