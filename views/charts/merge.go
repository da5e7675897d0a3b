package charts

import (
	"cmp"
	"maps"
	"math"
	"strconv"
	"strings"

	"schedlab/report"
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
// plot has a single line. Each run keeps one colour in every merged plot
// (RunColour(i); its second and later lines in lighter shades of it). A
// reference line (dashed) that is the same in every run that has it (the
// same name and points: a machine's size, a bound) is drawn once, under
// its own name. Title, axis labels, kind and log flags come from the
// first plot (the compare page merges plots with equal titles, which come
// from the same strategy). Points are shared, not copied.
func MergePlots(runLabels []string, plots []report.Plot) report.Plot {
	if len(plots) == 0 {
		return report.Plot{}
	}
	first := plots[0]
	out := report.Plot{
		Title: first.Title, XLabel: first.XLabel, YLabel: first.YLabel,
		Kind: first.Kind, XLog: first.XLog, YLog: first.YLog,
	}
	shared := sharedReferences(plots)
	drawn := map[string]bool{}
	for i, p := range plots {
		label := runLabel(runLabels, i)
		shade := 0
		for j, l := range p.Lines {
			if key := referenceKey(l); key != "" && shared[key] {
				if !drawn[key] {
					drawn[key] = true
					out.Lines = append(out.Lines, report.Line{Name: l.Name, Points: l.Points, Dashed: true, Colour: referenceGrey})
				}
				continue
			}
			name := label
			if len(p.Lines) > 1 {
				name = label + Sep + cmp.Or(l.Name, "line "+strconv.Itoa(j+1))
			}
			out.Lines = append(out.Lines, report.Line{Name: name, Points: l.Points, Dashed: l.Dashed,
				Colour: lighter(RunColour(i), shade)})
			shade++
		}
	}
	return out
}

// referenceGrey is the colour of a reference line drawn once.
const referenceGrey = "#555555"

// RunColour is the colour of run i of a compare in every chart of it.
func RunColour(i int) string { return palette[i%len(palette)] }

// referenceKey identifies a reference line (a dashed one) by its name and
// points; "" for a line that is not one.
func referenceKey(l report.Line) string {
	if !l.Dashed {
		return ""
	}
	var b strings.Builder
	b.WriteString(l.Name)
	for _, p := range l.Points {
		b.WriteByte('|')
		b.WriteString(strconv.FormatFloat(p[0], 'g', -1, 64))
		b.WriteByte(',')
		b.WriteString(strconv.FormatFloat(p[1], 'g', -1, 64))
	}
	return b.String()
}

// sharedReferences are the reference lines that more than one run draws
// identically.
func sharedReferences(plots []report.Plot) map[string]bool {
	count := map[string]int{}
	for _, p := range plots {
		seen := map[string]bool{}
		for _, l := range p.Lines {
			if k := referenceKey(l); k != "" && !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	out := map[string]bool{}
	for k, n := range count {
		if n > 1 {
			out[k] = true
		}
	}
	return out
}

// lighter mixes a #rrggbb colour with white, 35 % more for each step.
func lighter(hex string, steps int) string {
	if steps == 0 || len(hex) != 7 {
		return hex
	}
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if err != nil {
		return hex
	}
	f := math.Pow(0.65, float64(steps))
	mix := func(c uint64) uint64 { return uint64(255 - (255-float64(c))*f) }
	r, g, b := mix(v>>16&0xff), mix(v>>8&0xff), mix(v&0xff)
	return "#" + strconv.FormatUint(r<<16|g<<8|b|1<<24, 16)[1:]
}

// Aligned is the Gantts of several runs that share a title, made ready to
// be drawn one panel per run: the same lanes in the same order in every
// panel (the union of the runs' lanes, in the order first seen), one time
// span (From, To: the earliest start and latest end over all runs), and
// every bar keeping its own group, so a job has the same colour in every
// panel (GroupColour hashes the group).
type Aligned struct {
	Title    string
	Labels   []string       // Labels[i] names Panels[i]'s run
	Panels   []report.Gantt // one per run, lanes and bars remapped
	From, To float64
	// Moved[i][j] says that bar j of panel i differs from the first
	// panel: no bar of the same job there (same Label, or same Group when
	// the label is empty) has its lane, start and end. Moved[0] is nil
	// (the first panel is the reference); MovedCount[i] counts panel i's.
	Moved      [][]bool
	MovedCount []int
}

// AlignGantts lines up gs (gs[i] belongs to run runLabels[i]) as Aligned.
// Bars on a lane their Gantt does not have are dropped.
func AlignGantts(runLabels []string, gs []report.Gantt) Aligned {
	out := Aligned{From: math.Inf(1), To: math.Inf(-1)}
	lane := map[string]int{}
	var lanes []string
	for _, g := range gs {
		out.Title = cmp.Or(out.Title, g.Title)
		for _, l := range g.Lanes {
			if _, ok := lane[l]; !ok {
				lane[l] = len(lanes)
				lanes = append(lanes, l)
			}
		}
	}
	for i, g := range gs {
		p := report.Gantt{Title: g.Title, TimeUnit: g.TimeUnit, TimeLabel: g.TimeLabel, Lanes: lanes}
		for _, b := range g.Bars {
			if b.Lane < 0 || b.Lane >= len(g.Lanes) {
				continue
			}
			b.Lane = lane[g.Lanes[b.Lane]]
			p.Bars = append(p.Bars, b)
			out.From, out.To = math.Min(out.From, b.Start), math.Max(out.To, b.End)
		}
		out.Labels = append(out.Labels, runLabel(runLabels, i))
		out.Panels = append(out.Panels, p)
	}
	if out.From > out.To {
		out.From, out.To = 0, 0
	}
	out.Moved, out.MovedCount = movedBars(out.Panels)
	return out
}

// barPlace is where a bar is drawn.
type barPlace struct {
	lane       int
	start, end float64
}

// barJob is the job a bar belongs to, for matching bars across runs: its
// label, or its group when it has no label.
func barJob(b report.Bar) string {
	if b.Label != "" {
		return "l:" + b.Label
	}
	return "g:" + b.Group
}

// movedBars compares every panel's bars with the first panel's: a bar
// moved when the first panel has no unmatched bar of the same job at the
// same lane, start and end (a job with several bars, such as a
// co-allocated one, is matched bar for bar, each reference bar once).
func movedBars(panels []report.Gantt) ([][]bool, []int) {
	moved := make([][]bool, len(panels))
	count := make([]int, len(panels))
	if len(panels) < 2 {
		return moved, count
	}
	type key struct {
		job   string
		place barPlace
	}
	ref := map[key]int{}
	for _, b := range panels[0].Bars {
		ref[key{barJob(b), barPlace{b.Lane, b.Start, b.End}}]++
	}
	for i := 1; i < len(panels); i++ {
		left := maps.Clone(ref)
		moved[i] = make([]bool, len(panels[i].Bars))
		for j, b := range panels[i].Bars {
			k := key{barJob(b), barPlace{b.Lane, b.Start, b.End}}
			if left[k] > 0 {
				left[k]--
				continue
			}
			moved[i][j] = true
			count[i]++
		}
	}
	return moved, count
}
