package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
)

// Batsim's output files, written from a batch run's report: the per-job
// _jobs.csv and the one-line _schedule.csv, with Batsim 4.2.1's columns,
// names, order and number format (src/export.cpp at v4.2.1, JobsTracer).
// They are built from the report's table BatsimJobsTable, the one every
// batch run (built-in policy or external decision process) stores, so a
// run stored before these files existed has them too. The columns that
// table lacks are derived as Batsim derives them (see BatsimJobs); a
// report that adds one of Batsim's columns to the table (final_state,
// profile, consumed_energy, metadata, workload_name) has it written as
// given.

// BatsimJobsTable is the title of the per-job table a batch report carries
// and the Batsim files are written from.
const BatsimJobsTable = "Jobs (Batsim columns)"

// BatsimWorkloadName is the workload_name Batsim gives the first workload
// of its command line (-w): "w0" (src/batsim.cpp at v4.2.1).
const BatsimWorkloadName = "w0"

// batsimJobColumns are _jobs.csv's columns in Batsim's order.
var batsimJobColumns = []string{"job_id", "workload_name", "profile", "submission_time",
	"requested_number_of_resources", "requested_time", "success", "final_state", "starting_time",
	"execution_time", "finish_time", "waiting_time", "turnaround_time", "stretch",
	"allocated_resources", "consumed_energy", "metadata"}

// Batsim's final states (docs/output-jobs.rst).
const (
	BatsimSuccess  = "COMPLETED_SUCCESSFULLY"
	BatsimWalltime = "COMPLETED_WALLTIME_REACHED"
	BatsimKilled   = "COMPLETED_KILLED"
	batsimFailed   = "COMPLETED_FAILED"
	BatsimRejected = "REJECTED"
)

// batsimNeeded are the columns of BatsimJobsTable a report must have.
var batsimNeeded = []string{"job_id", "submission_time", "requested_number_of_resources", "requested_time",
	"starting_time", "finish_time", "allocated_resources"}

// killedNote finds the number of killed jobs in an external run's note.
var killedNote = regexp.MustCompile(`jobs rejected \(left out of the metrics\), (\d+) killed`)

// BatsimTable returns the index of rep's BatsimJobsTable, or an error that
// says why Batsim's files cannot be written from rep: errs.NotFound when
// it has no such table (not a batch run), errs.Conflict when the table
// cannot say what Batsim's file would: an external run stored before its
// table had a final_state column, whose decision process rejected or
// killed jobs that the table neither lists nor marks (an external run's
// table lists every job with its final state since).
func BatsimTable(rep *Report) (int, error) {
	if rep == nil {
		return 0, errs.New(errs.NotFound, "report", "the run has no report")
	}
	index := slices.IndexFunc(rep.Tables, func(t Table) bool { return t.Title == BatsimJobsTable })
	if index < 0 {
		return 0, errs.New(errs.NotFound, "batsim", "the run is not a batch simulation: its report has no table %q to write Batsim's files from", BatsimJobsTable)
	}
	cols := rep.Tables[index].Columns
	for _, c := range batsimNeeded {
		if !slices.Contains(cols, c) {
			return 0, errs.Invalidf("batsim", "the table %q has no column %s", BatsimJobsTable, c)
		}
	}
	if !slices.Contains(cols, "final_state") {
		for _, m := range rep.Metrics {
			if m.Name == "jobs_rejected" && m.Value > 0 {
				return 0, errs.New(errs.Conflict, "batsim", "the decision process rejected %g jobs, which the report leaves out of its jobs table: Batsim's _jobs.csv lists them (final_state REJECTED), so it cannot be written from this report", m.Value)
			}
		}
		for _, n := range rep.Notes {
			if m := killedNote.FindStringSubmatch(n); m != nil && m[1] != "0" {
				return 0, errs.New(errs.Conflict, "batsim", "the decision process killed %s jobs and the report does not say which: Batsim's _jobs.csv marks them COMPLETED_KILLED, so it cannot be written from this report", m[1])
			}
		}
	}
	return index, nil
}

// BatsimRun is what Batsim's files say about a run beyond its jobs.
type BatsimRun struct {
	// Workload is the workload_name of jobs whose table does not give
	// one; "" is BatsimWorkloadName.
	Workload string
	// Machines is nb_computing_machines (the report's metric
	// "processors").
	Machines int
	// WallSeconds is simulation_time and scheduling_time, the real time
	// the run took (the report's wall_ms); < 0 when unknown (written -1).
	WallSeconds float64
	// Version is batsim_version: the simulator that wrote the files.
	Version string
	// Joules is consumed_joules: the hosts' energy over the run (the
	// report's metric consumed_energy, an external run with a power
	// model), 0 without energy, as Batsim writes it.
	Joules float64
}

// BatsimRunOf reads a BatsimRun from rep's metrics: processors, wall_ms
// and consumed_energy; Version "schedlab".
func BatsimRunOf(rep *Report) BatsimRun {
	r := BatsimRun{WallSeconds: -1, Version: "schedlab"}
	for _, m := range rep.Metrics {
		switch m.Name {
		case "processors":
			r.Machines = int(m.Value)
		case "wall_ms":
			r.WallSeconds = m.Value / 1000
		case "consumed_energy":
			r.Joules = m.Value
		}
	}
	return r
}

// BatsimJobs writes Batsim's _jobs.csv row by row and gathers the
// aggregates of its _schedule.csv (WriteSchedule), as Batsim's JobsTracer
// does (write_job, finalize). Per row:
//
//   - job_id, submission_time, requested_number_of_resources,
//     requested_time, starting_time, finish_time and allocated_resources
//     (Batsim's interval set, "0-3 7") are the table's;
//   - execution_time = finish − start, waiting_time = start − submission,
//     turnaround_time = finish − submission, stretch = turnaround /
//     execution (unbounded; "inf" for a zero execution), as Batsim;
//   - final_state, when the table has no such column, is Batsim's rule for
//     a delay profile (do_delay_task): a job that ran as long as its
//     requested time or longer reached its walltime
//     (COMPLETED_WALLTIME_REACHED, success 0; a job whose runtime equals
//     its request counts, as in Batsim, while the report's "capped" count
//     is of runtimes strictly longer); otherwise COMPLETED_SUCCESSFULLY
//     (success 1); a requested_time < 0 is no walltime. A job that had no
//     requested time in its input (SWF -1, a Batsim job without walltime)
//     was planned by batch with its runtime as the estimate, which the
//     table keeps as requested_time: it is written COMPLETED_WALLTIME_REACHED
//     where Batsim would write requested_time -1 and success (the table
//     does not say which estimates were substituted; the trace's preview
//     counts them);
//   - workload_name is Run.Workload, profile "delay" (a job of a trace is
//     simulated as a delay of its duration), consumed_energy -1 (Batsim's
//     value without energy), metadata "" — unless the table has the
//     column.
//
// Numbers are written as Batsim's std::to_string writes a double: six
// decimals ("3600.000000"); counts as integers. Fields are bare, as
// Batsim writes them, but quoted when CSV needs it (a comma or quote in
// an id or a profile name); metadata is always quoted, and a quote in it
// doubled (Batsim writes it unescaped). Rejected jobs (a
// final_state column saying REJECTED) have empty times, as in Batsim.
type BatsimJobs struct {
	w   *bufio.Writer
	run BatsimRun
	col map[string]int
	err error
	rec []string

	nJobs, nFinished, nSuccess, nKilled, nRejected int
	sumWait, sumTurn, sumSlow                      float64
	makespan, maxWait, maxTurn, maxSlow            float64
	computing                                      float64
	machines                                       map[int]*[2]float64 // last end, time computing
}

// NewBatsimJobs starts a _jobs.csv on w for rows of a BatsimJobsTable
// with these columns (BatsimTable checked them) and writes the header.
func NewBatsimJobs(w io.Writer, columns []string, run BatsimRun) *BatsimJobs {
	b := &BatsimJobs{w: bufio.NewWriterSize(w, 64<<10), run: run, col: map[string]int{},
		rec: make([]string, len(batsimJobColumns)), machines: map[int]*[2]float64{}}
	for i, c := range columns {
		if _, dup := b.col[c]; !dup {
			b.col[c] = i
		}
	}
	b.run.Workload = cmp.Or(b.run.Workload, BatsimWorkloadName)
	_, b.err = b.w.WriteString(strings.Join(batsimJobColumns, ",") + "\n")
	return b
}

// batsimFloat is a double as Batsim's std::to_string writes it ("%f").
func batsimFloat(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsNaN(x):
		return "nan"
	}
	return strconv.FormatFloat(x, 'f', 6, 64)
}

// cellFloat reads a numeric cell (a number as built or as decoded from
// JSON, or a numeric string).
func cellFloat(c any) (float64, bool) {
	switch v := c.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case int32:
		return float64(v), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f, err == nil
	}
	return 0, false
}

// cellText is a cell as text: integers without decimals.
func cellText(c any) string {
	switch v := c.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return csvCell(c)
}

// csvField quotes a field only when CSV needs it, as Batsim writes its
// fields bare.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// Row writes one job of the table (its cells in the table's column
// order). An error names the job and the column.
func (b *BatsimJobs) Row(row []any) error {
	if b.err != nil {
		return b.err
	}
	cell := func(name string) (any, bool) {
		i, ok := b.col[name]
		if !ok || i >= len(row) {
			return nil, false
		}
		return row[i], true
	}
	id, _ := cell("job_id")
	idText := cellText(id)
	num := func(name string) (float64, error) {
		c, _ := cell(name)
		f, ok := cellFloat(c)
		if !ok {
			return 0, errs.Invalidf("batsim", "job %s: column %s is %v, not a number", idText, name, c)
		}
		return f, nil
	}
	text := func(name, def string) string {
		if c, ok := cell(name); ok {
			return cellText(c)
		}
		return def
	}
	state := text("final_state", "")
	rejected := state == BatsimRejected
	names := []string{"submission_time", "requested_number_of_resources", "requested_time", "starting_time", "finish_time"}
	if rejected {
		names = names[:3]
	}
	var v [5]float64
	for i, name := range names {
		f, err := num(name)
		if err != nil {
			return err
		}
		v[i] = f
	}
	sub, size, req, start, end := v[0], v[1], v[2], v[3], v[4]
	exec := end - start
	if state == "" {
		state = BatsimSuccess
		if req >= 0 && exec >= req {
			state = BatsimWalltime
		}
	}
	success := 0
	if state == BatsimSuccess {
		success = 1
	}
	alloc := text("allocated_resources", "")
	energy := "-1.000000"
	if c, ok := cell("consumed_energy"); ok {
		if f, ok := cellFloat(c); ok {
			energy = batsimFloat(f)
		} else {
			energy = cellText(c)
		}
	}
	r := b.rec
	r[0], r[1], r[2] = csvField(idText), csvField(text("workload_name", b.run.Workload)), csvField(text("profile", "delay"))
	r[3], r[4], r[5] = batsimFloat(sub), strconv.FormatInt(int64(size), 10), batsimFloat(req)
	r[6], r[7] = strconv.Itoa(success), state
	if rejected {
		for k := 8; k <= 13; k++ {
			r[k] = ""
		}
		energy = ""
	} else {
		wait, turn := start-sub, end-sub
		r[8], r[9], r[10], r[11], r[12], r[13] = batsimFloat(start), batsimFloat(exec), batsimFloat(end),
			batsimFloat(wait), batsimFloat(turn), batsimFloat(turn/exec)
	}
	r[14], r[15] = csvField(alloc), energy
	r[16] = `"` + strings.ReplaceAll(text("metadata", ""), `"`, `""`) + `"`
	for k, f := range r {
		if k > 0 {
			b.w.WriteByte(',')
		}
		b.w.WriteString(f)
	}
	if _, b.err = b.w.WriteString("\n"); b.err != nil {
		return b.err
	}
	return b.count(rejected, success == 1, sub, start, end, alloc, idText)
}

// count adds one job to the schedule's aggregates, as JobsTracer's
// write_job does.
func (b *BatsimJobs) count(rejected, success bool, sub, start, end float64, alloc, id string) error {
	b.nJobs++
	if rejected {
		b.nRejected++
		return nil
	}
	b.nFinished++
	if success {
		b.nSuccess++
	} else {
		b.nKilled++
	}
	wait, turn, exec := start-sub, end-sub, end-start
	slow := turn / exec
	b.sumWait += wait
	b.sumTurn += turn
	b.sumSlow += slow
	b.makespan = max(b.makespan, end)
	b.maxWait = max(b.maxWait, wait)
	b.maxTurn = max(b.maxTurn, turn)
	b.maxSlow = max(b.maxSlow, slow)
	ranges, err := parseIntervals(alloc)
	if err != nil {
		return errs.Invalidf("batsim", "job %s: allocated_resources %q: %v", id, alloc, err)
	}
	for _, rg := range ranges {
		b.computing += exec * float64(rg[1]-rg[0]+1)
		for m := rg[0]; m <= rg[1]; m++ {
			st := b.machines[m]
			if st == nil {
				st = &[2]float64{}
				b.machines[m] = st
			}
			st[0] = max(st[0], end)
			st[1] += exec
		}
	}
	return nil
}

// maxIntervalIDs bounds the machine ids one allocation may name.
const maxIntervalIDs = 10_000_000

// parseIntervals reads an interval set "0-3 7" into inclusive ranges.
func parseIntervals(s string) ([][2]int, error) {
	var out [][2]int
	total := 0
	for _, part := range strings.Fields(s) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q is not a machine id", lo)
		}
		z := a
		if isRange {
			if z, err = strconv.Atoi(hi); err != nil || z < a {
				return nil, fmt.Errorf("%q is not a range of machine ids", part)
			}
		}
		if total += z - a + 1; total > maxIntervalIDs {
			return nil, fmt.Errorf("more than %d machines", maxIntervalIDs)
		}
		out = append(out, [2]int{a, z})
	}
	return out, nil
}

// Flush writes what is buffered and returns the first error of writing.
func (b *BatsimJobs) Flush() error {
	if b.err != nil {
		return b.err
	}
	return b.w.Flush()
}

// batsimScheduleColumns are the columns of Batsim's _schedule.csv:
// JobsTracer::finalize's keys, in the lexicographic order its std::map
// writes them.
func batsimScheduleColumns() []string {
	return slices.Sorted(maps.Keys((&BatsimJobs{}).schedule()))
}

// schedule is _schedule.csv's fields. Means are over every job, rejected
// ones included, as Batsim divides by nb_jobs; the machines' times are
// Batsim's machine-state accounting, which adds a state's time when the
// machine leaves it: time_computing = Σ execution × machines, time_idle
// per machine from 0 to the end of its last job minus its computing time
// (the idle time after a machine's last job is not counted, as Batsim's
// tracer never closes it); consumed_joules is Run.Joules (the run's
// energy with a power model, else 0); sleeping, switching and unavailable
// times and nb_machine_switches and nb_grouped_switches are 0: the
// report does not keep the hosts' state changes (an external run with a
// power model counts them in its energy only).
func (b *BatsimJobs) schedule() map[string]string {
	n := float64(b.nJobs)
	idle := 0.0
	for _, st := range b.machines {
		idle += st[0] - st[1]
	}
	f := batsimFloat
	wall := b.run.WallSeconds
	if wall < 0 {
		wall = -1
	}
	return map[string]string{
		"batsim_version":        csvField(b.run.Version),
		"consumed_joules":       f(b.run.Joules),
		"makespan":              f(b.makespan),
		"max_slowdown":          f(b.maxSlow),
		"max_turnaround_time":   f(b.maxTurn),
		"max_waiting_time":      f(b.maxWait),
		"mean_slowdown":         f(b.sumSlow / n),
		"mean_turnaround_time":  f(b.sumTurn / n),
		"mean_waiting_time":     f(b.sumWait / n),
		"nb_computing_machines": strconv.Itoa(b.run.Machines),
		"nb_grouped_switches":   "0",
		"nb_jobs":               strconv.Itoa(b.nJobs),
		"nb_jobs_finished":      strconv.Itoa(b.nFinished),
		"nb_jobs_killed":        strconv.Itoa(b.nKilled),
		"nb_jobs_rejected":      strconv.Itoa(b.nRejected),
		"nb_jobs_success":       strconv.Itoa(b.nSuccess),
		"nb_machine_switches":   "0",
		"scheduling_time":       f(wall),
		"simulation_time":       f(wall),
		"success_rate":          f(float64(b.nSuccess) / n),
		"time_computing":        f(b.computing),
		"time_idle":             f(idle),
		"time_sleeping":         f(0),
		"time_switching_off":    f(0),
		"time_switching_on":     f(0),
		"time_unavailable":      f(0),
	}
}

// WriteSchedule writes _schedule.csv from the rows written so far: the
// header and one line.
func (b *BatsimJobs) WriteSchedule(w io.Writer) error {
	m := b.schedule()
	cols := batsimScheduleColumns()
	vals := make([]string, len(cols))
	for i, c := range cols {
		vals[i] = m[c]
	}
	_, err := io.WriteString(w, strings.Join(cols, ",")+"\n"+strings.Join(vals, ",")+"\n")
	return err
}

// WriteBatsimFiles writes the Batsim files of a report held whole in
// memory (the command line's run): _jobs.csv to jobs and, when schedule
// is not nil, _schedule.csv to it.
func WriteBatsimFiles(rep *Report, run BatsimRun, jobs, schedule io.Writer) error {
	index, err := BatsimTable(rep)
	if err != nil {
		return err
	}
	t := &rep.Tables[index]
	rows, err := t.AllRows()
	if err != nil {
		return err
	}
	b := NewBatsimJobs(jobs, t.Columns, run)
	for _, row := range rows {
		if err := b.Row(row); err != nil {
			return err
		}
	}
	if err := b.Flush(); err != nil {
		return err
	}
	if schedule != nil {
		return b.WriteSchedule(schedule)
	}
	return nil
}
