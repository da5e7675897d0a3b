package eapm

import (
	"fmt"
	"math"

	"schedlab/report"
)

// Display budgets: past these a report aggregates or samples and says so.
const (
	maxPlotPoints   = 2000    // points of a per-user line
	maxTableRows    = 2000    // rows of the Allocation table
	maxUsersTable   = 200     // users listed in a workload preview
	maxGanttBlocks  = 500     // bars per lane of the Gantt
	maxHeatmapCells = 250_000 // cells of an ETC/APC heat map
)

// preview is a workload's report before any run: its matrices, machine
// pools, demand per task type and the user stream.
func preview(in *Instance) *report.Report {
	r := &report.Report{}
	T, m := in.T(), in.M()
	xs, ys := make([]string, m), make([]string, T)
	for j := range xs {
		xs[j] = in.MachineName(j)
	}
	for t := range ys {
		ys[t] = in.TaskName(t)
	}
	if T*m <= maxHeatmapCells {
		r.Heatmaps = append(r.Heatmaps,
			report.Heatmap{Title: "ETC (s)", XLabel: "machine type", YLabel: "task type", Unit: "s", X: xs, Y: ys, Values: in.ETC},
			report.Heatmap{Title: "APC (W)", XLabel: "machine type", YLabel: "task type", Unit: "W", X: xs, Y: ys, Values: in.APC})
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("The ETC and APC heat maps are not drawn: %d×%d cells is over the display budget of %d.", T, m, maxHeatmapCells))
	}
	mt := report.Table{Title: "Machine types", Columns: []string{"index", "machine type", "machines"}}
	for j := range m {
		mt.Rows = append(mt.Rows, []any{j, in.MachineName(j), in.MachineCount(j)})
	}
	demand, users := make([]int, T), make([]int, T)
	for _, u := range in.Users {
		demand[u.Type] += u.Tasks
		users[u.Type]++
	}
	tt := report.Table{Title: "Task types", Columns: []string{"index", "task type", "users", "tasks", "min energy per task (J)", "cheapest machine type"}}
	for t := range T {
		if users[t] == 0 {
			continue
		}
		best := 0
		for j := range m {
			if in.ETC[t][j]*in.APC[t][j] < in.ETC[t][best]*in.APC[t][best] {
				best = j
			}
		}
		tt.Rows = append(tt.Rows, []any{t, in.TaskName(t), users[t], demand[t], in.ETC[t][best] * in.APC[t][best], in.MachineName(best)})
	}
	r.Tables = append(r.Tables, mt, tt)
	stream, note := userStream(in)
	r.Series = append(r.Series, stream)
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	if len(in.Users) <= maxUsersTable {
		ut := report.Table{Title: "Users", Columns: []string{"user", "type", "task type", "tasks"}}
		for i, u := range in.Users {
			ut.Rows = append(ut.Rows, []any{i + 1, u.Type, in.TaskName(u.Type), u.Tasks})
		}
		r.Tables = append(r.Tables, ut)
	}
	r.Metrics = []report.Metric{
		{Name: "users", Value: float64(len(in.Users))},
		{Name: "tasks", Value: float64(in.TotalTasks())},
		{Name: "machine_types", Value: float64(m)},
		{Name: "task_types", Value: float64(T)},
		{Name: "machines", Value: float64(totalMachines(in))},
	}
	return r
}

func totalMachines(in *Instance) int {
	s := 0
	for j := range in.M() {
		s += in.MachineCount(j)
	}
	return s
}

// userStream is the bar plot of tasks per user in arrival order; beyond
// maxPlotPoints users it shows the mean bag of consecutive blocks.
func userStream(in *Instance) (report.Plot, string) {
	n := len(in.Users)
	p := report.Plot{Title: "User stream", XLabel: "user (arrival order)", YLabel: "tasks", Kind: report.PlotBar}
	block := (n + maxPlotPoints - 1) / maxPlotPoints
	line := report.Line{Name: "tasks"}
	for s := 0; s < n; s += block {
		e := min(s+block, n)
		sum := 0
		for _, u := range in.Users[s:e] {
			sum += u.Tasks
		}
		line.Points = append(line.Points, [2]float64{float64(s + 1), float64(sum) / float64(e-s)})
	}
	p.Lines = []report.Line{line}
	if block > 1 {
		p.YLabel = fmt.Sprintf("tasks per user (mean of blocks of %d users)", block)
		return p, fmt.Sprintf("The user stream plot shows the mean bag of blocks of %d consecutive users (%d users in all).", block, n)
	}
	return p, ""
}

// tracePlotLine samples an objective trace to at most maxPlotPoints points
// (always keeping the last), x = users arrived.
func traceLine(name string, trace []float64) report.Line {
	n := len(trace)
	step := (n + maxPlotPoints - 1) / maxPlotPoints
	l := report.Line{Name: name}
	for i := 0; i < n; i += step {
		l.Points = append(l.Points, [2]float64{float64(i + 1), finite(trace[i])})
	}
	if (n-1)%step != 0 {
		l.Points = append(l.Points, [2]float64{float64(n), finite(trace[n-1])})
	}
	return l
}

// finite maps a non-finite value (which a Report cannot hold) to 0.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

func runReport(in *Instance, variant string, s *Schedule, b *Bound, boundNote string, wallMS float64) *report.Report {
	r := &report.Report{}
	m, n := in.M(), len(in.Users)
	r.Metrics = []report.Metric{
		{Name: "objective", Value: finite(s.Objective), Unit: "$/s", Better: report.Higher},
		{Name: "makespan", Value: s.Makespan, Unit: "s", Better: report.Lower},
		{Name: "energy", Value: s.Energy, Unit: "J", Better: report.Lower},
		{Name: "revenue", Value: s.Revenue, Unit: "$"},
		{Name: "machines", Value: float64(totalMachines(in)), Kind: report.KindInfo},
	}
	// A bound not computed is not reported, nor a ratio to a bound of 0:
	// a 0 in their place would be ranked, averaged and plotted as a value.
	if b != nil {
		r.Metrics = append(r.Metrics, report.Metric{Name: "upper_bound", Value: b.Value, Unit: "$/s", Kind: report.KindInfo})
		if b.Value > 0 {
			r.Metrics = append(r.Metrics, report.Metric{Name: "bound_ratio", Value: finite(s.Objective / b.Value), Better: report.Higher})
		}
	}
	r.Metrics = append(r.Metrics, report.Metric{Name: "wall_ms", Value: wallMS, Unit: "ms", Better: report.Lower, Kind: report.KindCost})
	if in.Gamma <= 1 {
		r.Notes = append(r.Notes, fmt.Sprintf("γ = %g ≤ 1: every task is sold for at most its least possible energy cost, so no schedule can make a profit; the best objective is at most 0 and the bound is 0: bound_ratio (objective ÷ bound) is undefined and not reported.", in.Gamma))
	}
	if boundNote != "" {
		r.Notes = append(r.Notes, boundNote)
	}
	if b != nil && b.Value == 0 && in.Gamma > 1 {
		r.Notes = append(r.Notes, "The LP bound is 0: bound_ratio (objective ÷ bound) is undefined and not reported.")
	}

	obj := report.Plot{Title: "Objective after each arrival", XLabel: "users arrived", YLabel: "objective (R − c·E)/MS ($/s)",
		Lines: []report.Line{traceLine(variant, s.Trace)}}
	if b != nil {
		obj.Lines = append(obj.Lines, report.Line{Name: "LP upper bound (whole stream)", Dashed: true,
			Points: [][2]float64{{1, b.Value}, {float64(n), b.Value}}})
	}
	if n > maxPlotPoints {
		r.Notes = append(r.Notes, fmt.Sprintf("The objective trace is sampled: %d of %d users shown.", len(obj.Lines[0].Points), n))
	}
	load := report.Plot{Title: "Per-machine load", Kind: report.PlotBar, XLabel: "machine type", YLabel: "load per machine (s)"}
	for j := range m {
		load.XNames = append(load.XNames, in.MachineName(j))
	}
	ll := report.Line{Name: variant}
	for j := range m {
		ll.Points = append(ll.Points, [2]float64{float64(j), s.Load[j]})
	}
	load.Lines = []report.Line{ll}
	if b != nil && b.X != nil {
		bl := report.Line{Name: "LP optimum", Dashed: true}
		for j := range m {
			v := 0.0
			for t := range b.X {
				if b.X[t] != nil {
					v += b.X[t][j] * in.ETC[t][j] / float64(in.MachineCount(j))
				}
			}
			bl.Points = append(bl.Points, [2]float64{float64(j), v})
		}
		load.Lines = append(load.Lines, bl)
	}
	r.Series = []report.Plot{obj, load}

	// Machine types: tasks, load, energy.
	mt := report.Table{Title: "Machine types", Columns: []string{"index", "machine type", "machines", "tasks", "load per machine (s)", "energy (J)", "load / makespan"}}
	tasks, energy := make([]int, m), make([]float64, m)
	for i, u := range in.Users {
		for j := range m {
			x := s.Tasks(i, j)
			tasks[j] += x
			energy[j] += float64(x) * in.ETC[u.Type][j] * in.APC[u.Type][j]
		}
	}
	for j := range m {
		mt.Rows = append(mt.Rows, []any{j, in.MachineName(j), in.MachineCount(j), tasks[j], s.Load[j], energy[j], s.Load[j] / s.Makespan})
	}
	r.Tables = append(r.Tables, allocationTable(in, s, r), mt)
	r.Gantts = []report.Gantt{gantt(in, s, r)}
	r.Time = report.NewTimeFrame("s", 0, "the start of the schedule", s.Makespan)
	return r
}

// allocationTable lists x_ij per user; beyond maxTableRows users the first
// maxTableRows−1 are listed and the rest summed in one row.
func allocationTable(in *Instance, s *Schedule, r *report.Report) report.Table {
	m, n := in.M(), len(in.Users)
	t := report.Table{Title: "Allocation", Columns: []string{"user", "type", "tasks"}}
	for j := range m {
		t.Columns = append(t.Columns, in.MachineName(j))
	}
	shown := n
	if n > maxTableRows {
		shown = maxTableRows - 1
	}
	for i := range shown {
		u := in.Users[i]
		row := []any{i + 1, in.TaskName(u.Type), u.Tasks}
		for j := range m {
			row = append(row, s.Tasks(i, j))
		}
		t.Rows = append(t.Rows, row)
	}
	if shown < n {
		sum := make([]int, m)
		total := 0
		for i := shown; i < n; i++ {
			total += in.Users[i].Tasks
			for j := range m {
				sum[j] += s.Tasks(i, j)
			}
		}
		row := []any{fmt.Sprintf("%d–%d", shown+1, n), "(all)", total}
		for j := range m {
			row = append(row, sum[j])
		}
		t.Rows = append(t.Rows, row)
		r.Notes = append(r.Notes, fmt.Sprintf("The Allocation table lists the first %d users; the last row sums users %d–%d.", shown, shown+1, n))
	}
	return t
}

// gantt draws one lane per machine type and each user's share on it as a
// bar along the type's load (start = load before, end = load after, in
// seconds of ETC/M_j). Beyond maxGanttBlocks users, consecutive users are
// merged into blocks.
func gantt(in *Instance, s *Schedule, r *report.Report) report.Gantt {
	m, n := in.M(), len(in.Users)
	g := report.Gantt{Title: "Machine types", TimeUnit: "s"}
	for j := range m {
		g.Lanes = append(g.Lanes, fmt.Sprintf("%s ×%d", in.MachineName(j), in.MachineCount(j)))
	}
	block := (n + maxGanttBlocks - 1) / maxGanttBlocks
	at := make([]float64, m)
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		for j := range m {
			start, tasks := at[j], 0
			for i := lo; i < hi; i++ {
				x := s.Tasks(i, j)
				tasks += x
				at[j] += float64(x) * in.ETC[in.Users[i].Type][j] / float64(in.MachineCount(j))
			}
			if tasks == 0 {
				continue
			}
			bar := report.Bar{Lane: j, Start: start, End: at[j]}
			if block == 1 {
				u := in.Users[lo]
				bar.Group = fmt.Sprintf("user %d", lo+1)
				bar.Label = fmt.Sprintf("user %d: %s × %d tasks", lo+1, in.TaskName(u.Type), tasks)
			} else {
				bar.Group = fmt.Sprintf("users %d–%d", lo+1, hi)
				bar.Label = fmt.Sprintf("users %d–%d: %d tasks", lo+1, hi, tasks)
			}
			g.Bars = append(g.Bars, bar)
		}
	}
	if block > 1 {
		r.Notes = append(r.Notes, fmt.Sprintf("The Gantt merges blocks of %d consecutive users into one bar per machine type.", block))
	}
	return g
}
