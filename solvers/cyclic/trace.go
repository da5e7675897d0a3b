package cyclic

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/batch"
	"schedlab/solvers/formats"
)

// A real trace in the Standard Workload Format is a cyclic workload of
// Format "swf": its Data is the JSON of a Trace, the header facts and the
// six fields of each record a simulation reads, so the full KTH log (28,000
// records) is about 1 MB stored. The variant batch runs it on a homogeneous
// machine of P processors (package batch); the slot variants plan it cut
// into cycles (Cycles).

// VariantBatch is the classic batch simulation of an SWF trace (a public
// contract).
const VariantBatch = "batch"

// FormatSWF is the Format of a workload read from an SWF trace.
const FormatSWF = "swf"

// MaxTraceJobs bounds the records of a stored trace (the largest archive
// logs have a few hundred thousand).
const MaxTraceJobs = 1_000_000

// Trace is an SWF trace as stored: header facts and, per record in file
// order, [job number, submit s, run s, allocated processors, requested
// processors, requested time s] with -1 where the trace does not know.
type Trace struct {
	Name     string       `json:"name"`
	Computer string       `json:"computer,omitempty"`
	MaxProcs int          `json:"max_procs,omitempty"`
	MaxNodes int          `json:"max_nodes,omitempty"`
	MaxJobs  int          `json:"max_jobs,omitempty"`
	Jobs     [][6]float64 `json:"jobs"`
}

// isSWFFile tells an SWF upload by its form field or its file name.
func isSWFFile(f solvers.File) bool {
	n := strings.ToLower(f.Name)
	return f.Field == "swf" || (f.Field != "file" && (strings.HasSuffix(n, ".swf") || strings.HasSuffix(n, ".swf.gz")))
}

// traceFromSWF reads an SWF file (plain or gzip) into a Trace.
// The reader stops at MaxTraceJobs records and checks them against the
// memory budget in ctx as they arrive.
func traceFromSWF(ctx context.Context, name string, data []byte) (*Trace, error) {
	s, err := formats.ReadSWFLimited(ctx, name, data, formats.SWFLimits{MaxRecords: MaxTraceJobs})
	if err != nil {
		return nil, err
	}
	if len(s.Jobs) == 0 {
		return nil, errs.Invalidf(name, "the trace has no job records")
	}
	if len(s.Jobs) > MaxTraceJobs {
		return nil, errs.New(errs.TooLarge, name, "%d job records, more than the %d a workload holds", len(s.Jobs), MaxTraceJobs)
	}
	// The stored trace: its records, their JSON and the preview's points.
	if err := solvers.Reserve(ctx, name, solvers.SatMul(int64(len(s.Jobs)), 6*8+6*24+8), "the trace as stored"); err != nil {
		return nil, err
	}
	t := &Trace{Name: name, Computer: s.Header.Computer, MaxProcs: s.Header.MaxProcs, MaxNodes: s.Header.MaxNodes,
		MaxJobs: s.Header.MaxJobs, Jobs: make([][6]float64, len(s.Jobs))}
	for i, j := range s.Jobs {
		t.Jobs[i] = [6]float64{float64(j.ID), j.Submit, j.Run, float64(j.Alloc), float64(j.Req), j.ReqTime}
	}
	return t, nil
}

// procs is the machine size the header gives (MaxProcs, else MaxNodes).
func (t *Trace) procs() int {
	h := formats.SWFHeader{MaxProcs: t.MaxProcs, MaxNodes: t.MaxNodes}
	return h.Procs()
}

func (t *Trace) swf() *formats.SWF {
	s := &formats.SWF{Header: formats.SWFHeader{Computer: t.Computer, MaxProcs: t.MaxProcs, MaxNodes: t.MaxNodes, MaxJobs: t.MaxJobs},
		Jobs: make([]formats.SWFJob, len(t.Jobs))}
	for i, r := range t.Jobs {
		s.Jobs[i] = formats.SWFJob{Line: i + 1, ID: int(r[0]), Submit: r[1], Run: r[2], Alloc: int(r[3]), Req: int(r[4]), ReqTime: r[5]}
	}
	return s
}

func traceWorkload(ctx context.Context, f solvers.File) (*solvers.Workload, error) {
	t, err := traceFromSWF(ctx, f.Name, f.Data)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(strings.TrimSuffix(f.Name, ".gz"), ".swf")
	if name == "" {
		name = "trace"
	}
	return &solvers.Workload{Name: name, Format: FormatSWF, Summary: traceSummary(t), Data: data, Preview: tracePreview(t)}, nil
}

func traceSummary(t *Trace) string {
	procs := t.procs()
	if t.Computer == "" {
		return fmt.Sprintf("SWF trace: %d records, %d processors", len(t.Jobs), procs)
	}
	return fmt.Sprintf("SWF trace %s: %d records, %d processors", t.Computer, len(t.Jobs), procs)
}

// notInHeader is a header field's cell in the Trace table when the header
// does not give it: said in words, not as an empty cell or a 0 that
// would read as a value or a failed parse (issue 42).
const notInHeader = "not in the header"

// headerCell is a header field's cell in the Trace table: v when the
// header gives it (given).
func headerCell[T any](v T, given bool) any {
	if !given {
		return notInHeader
	}
	return v
}

// procsSource names the header field the machine size comes from.
func (t *Trace) procsSource() string {
	switch {
	case t.MaxProcs > 0:
		return "MaxProcs"
	case t.MaxNodes > 0:
		return "MaxNodes (the header gives no MaxProcs)"
	}
	return "neither MaxProcs nor MaxNodes: give the parameter procs"
}

// tracePreview shows the header facts and how jobs arrive.
func tracePreview(t *Trace) *report.Report {
	procs := t.procs()
	r := &report.Report{}
	r.Metrics = []report.Metric{
		{Name: "records", Value: float64(len(t.Jobs)), Unit: "jobs"},
		{Name: "processors", Value: float64(procs)},
	}
	r.Tables = []report.Table{{Title: "Trace", Columns: []string{"field", "value"}, Rows: [][]any{
		{"file", t.Name}, {"Computer", headerCell(t.Computer, t.Computer != "")}, {"MaxProcs", headerCell(t.MaxProcs, t.MaxProcs > 0)},
		{"MaxNodes", headerCell(t.MaxNodes, t.MaxNodes > 0)}, {"MaxJobs", headerCell(t.MaxJobs, t.MaxJobs > 0)}, {"records", len(t.Jobs)}, {"processors from", t.procsSource()},
	}}}
	sub := make([]float64, 0, len(t.Jobs))
	noReq := 0
	for _, j := range t.Jobs {
		sub = append(sub, j[1])
		if j[5] <= 0 {
			noReq++
		}
	}
	slices.Sort(sub)
	step := max(1, len(sub)/500)
	var pts [][2]float64
	for i := 0; i < len(sub); i += step {
		pts = append(pts, [2]float64{sub[i], float64(i + 1)})
	}
	pts = append(pts, [2]float64{sub[len(sub)-1], float64(len(sub))})
	r.Time = report.NewTimeFrame("s", sub[0], "the first submission", sub[len(sub)-1]-sub[0])
	r.Series = []report.Plot{{Title: "Jobs submitted", XLabel: r.Time.AxisName(), XTime: true, YLabel: "jobs submitted so far", Kind: report.PlotStep,
		Lines: []report.Line{{Name: "submitted", Points: pts}}}}
	if noReq > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("Warning: %d records have no requested time (-1); batch uses their runtime as the estimate (with estimates=user they are scheduled with perfect information).", noReq))
	}
	if procs <= 0 {
		r.Notes = append(r.Notes, "The header gives neither MaxProcs nor MaxNodes: give the machine size with the parameter procs.")
	}
	return r
}

func loadTrace(w *solvers.Workload) (*Trace, error) {
	if w == nil || len(w.Data) == 0 {
		return nil, errs.Invalidf("workload", "no workload data")
	}
	return decodeTrace(w.Data, MaxTraceJobs)
}

// decodeTrace reads a stored trace, refusing one of more than limit
// records as they are decoded (errs.TooLarge on "jobs"): a stored trace
// that did not come from traceFromSWF (an imported bundle, an older
// database) is held to the limit of an upload without decoding it whole.
func decodeTrace(data []byte, limit int) (*Trace, error) {
	var raw struct {
		Trace
		Jobs json.RawMessage `json:"jobs"`
	}
	if err := formats.DecodeStrict(data, &raw, "trace"); err != nil {
		return nil, err
	}
	t := raw.Trace
	jobs, err := decodeTraceJobs(raw.Jobs, limit)
	if err != nil {
		return nil, err
	}
	t.Jobs = jobs
	if len(t.Jobs) == 0 {
		return nil, errs.Invalidf("jobs", "the trace has no job records")
	}
	return &t, nil
}

// decodeTraceJobs reads the records of a stored trace one by one, at most
// limit of them. raw is valid JSON (DecodeStrict checked it). A record in
// the stored form, [n,n,n,n,n,n] of JSON numbers, is read in place with
// strconv.ParseFloat, as encoding/json reads a number; anything else (a
// record of other length, null, a string) goes through encoding/json, so
// the values and the errors are those of decoding [][6]float64.
func decodeTraceJobs(raw json.RawMessage, limit int) ([][6]float64, error) {
	p := jsonScanner{b: raw}
	p.space()
	if p.peek() == 'n' { // null: no records
		return nil, nil
	}
	if !p.eat('[') {
		return nil, errs.Invalidf("jobs", "must be a list of records, got JSON %s", jsonKind(p.peek()))
	}
	var out [][6]float64
	p.space()
	if p.eat(']') {
		return out, nil
	}
	for {
		if len(out) >= limit {
			return nil, errs.New(errs.TooLarge, "jobs", "more than %d job records: over the limit of a workload", limit)
		}
		start := p.i
		rec, ok := p.record()
		if !ok {
			// Not in the stored form: encoding/json decides.
			p.i = start
			end, err := p.skipValue()
			if err != nil {
				return nil, errs.Invalidf("jobs", "record %d: %v", len(out)+1, err)
			}
			rec = [6]float64{}
			if err := json.Unmarshal(raw[start:end], &rec); err != nil {
				return nil, errs.Invalidf(fmt.Sprintf("jobs[%d]", len(out)), "must be a record of 6 numbers: %v", strings.TrimPrefix(err.Error(), "json: "))
			}
			p.i = end
		}
		out = append(out, rec)
		p.space()
		if p.eat(']') {
			return out, nil
		}
		if !p.eat(',') {
			return nil, errs.Invalidf("jobs", "record %d: malformed list", len(out))
		}
		p.space()
	}
}

// jsonScanner walks valid JSON bytes.
type jsonScanner struct {
	b []byte
	i int
}

func (p *jsonScanner) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *jsonScanner) peek() byte {
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

func (p *jsonScanner) eat(c byte) bool {
	if p.peek() == c {
		p.i++
		return true
	}
	return false
}

// record reads [n,n,n,n,n,n]; ok is false for anything else.
func (p *jsonScanner) record() (rec [6]float64, ok bool) {
	if !p.eat('[') {
		return rec, false
	}
	for k := 0; k < 6; k++ {
		p.space()
		start := p.i
		for p.i < len(p.b) && isNumberByte(p.b[p.i]) {
			p.i++
		}
		if p.i == start {
			return rec, false
		}
		x, err := strconv.ParseFloat(unsafe.String(&p.b[start], p.i-start), 64)
		if err != nil {
			return rec, false // out of range: encoding/json's error
		}
		rec[k] = x
		p.space()
		sep := byte(',')
		if k == 5 {
			sep = ']'
		}
		if !p.eat(sep) {
			return rec, false
		}
	}
	return rec, true
}

// isNumberByte is a byte a JSON number may hold (the JSON is valid, so
// these bytes in a row are a number).
func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// skipValue returns the end of the JSON value at p.i.
func (p *jsonScanner) skipValue() (int, error) {
	dec := json.NewDecoder(bytes.NewReader(p.b[p.i:]))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return 0, err
	}
	return p.i + int(dec.InputOffset()), nil
}

// jsonKind names the JSON value starting with c, for messages.
func jsonKind(c byte) string {
	switch {
	case c == '{':
		return "object"
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "bool"
	case c == '-' || c >= '0' && c <= '9':
		return "number"
	}
	return "value"
}

// batchFits is batch's fit (Strategy.VariantFits): batch runs only on an
// SWF trace; the slot variants run on both (a trace cut into cycles, Cycles).
func batchFits(format, _ string) error {
	if format != FormatSWF {
		return errs.Invalidf("variant", "batch simulates an SWF trace on P processors; this workload is a slot domain (%s): upload a trace (.swf or .swf.gz) or choose css or fair", format)
	}
	return nil
}

func runBatch(ctx context.Context, w *solvers.Workload, _ string, c Config, progress solvers.Progress) (*report.Report, error) {
	_, sj, start, err := traceJobs(ctx, w, batchFits(w.Format, VariantBatch), c)
	if err != nil {
		return nil, err
	}
	return simulateJobs(ctx, sj, start, c, progress)
}

// traceJobs is the stored trace of a batch-like run, its records reserved
// against the budget, and its jobs under c, with when their making began
// (the wall time's start); fits is the variant's fit to the workload (an
// error stops here).
func traceJobs(ctx context.Context, w *solvers.Workload, fits error, c Config) (*Trace, *batch.SWFJobs, time.Time, error) {
	if fits != nil {
		return nil, nil, time.Time{}, fits
	}
	t, err := loadTrace(w)
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	if err := solvers.Reserve(ctx, "workload", solvers.SatMul(int64(len(t.Jobs)), 2*int64(unsafe.Sizeof(formats.SWFJob{}))), "the trace's records"); err != nil {
		return nil, nil, time.Time{}, err
	}
	start := time.Now()
	sj, err := batch.FromSWF(t.swf(), batch.SWFOptions{Procs: c.Procs, Size: c.Size, Estimates: c.Estimates})
	return t, sj, start, err
}

// runsFile is Strategy.RunsFile: batch runs straight from an
// SWF file.
func runsFile(name, variant string) bool {
	return variantOf(variant).streams && isSWFFile(solvers.File{Name: name})
}

// runFile is Strategy.RunFile: the batch simulation of an SWF
// file read as it streams (the command line's path), without the stored
// trace, its JSON or its preview. It reads what traceFromSWF reads, under
// the same record limit, and simulates what runBatch would on the stored
// trace: the same report.
func runFile(ctx context.Context, name string, r io.Reader, variant string, c Config, progress solvers.Progress) (*report.Report, error) {
	if !runsFile(name, variant) {
		return nil, errs.Invalidf("variant", "%s runs on a workload, not straight from the file %s", variant, name)
	}
	// The records go straight into the batch jobs as they are read: no
	// []formats.SWFJob is built. The wall time starts when the jobs are
	// made, as on a stored trace (it is the simulation's, not the file's).
	b := batch.NewSWFBuilder(ctx, name, batch.SWFOptions{Procs: c.Procs, Size: c.Size, Estimates: c.Estimates})
	sum, err := formats.ScanSWF(ctx, name, r, formats.SWFLimits{MaxRecords: MaxTraceJobs}, b.Add)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	sj, err := b.Finish(&sum.Header)
	if err != nil {
		return nil, err
	}
	return simulateJobs(ctx, sj, start, c, progress)
}

// simulateJobs runs batch on a trace's jobs and reports it; start is when
// the work began, for the wall time.
func simulateJobs(ctx context.Context, sj *batch.SWFJobs, start time.Time, c Config, progress solvers.Progress) (*report.Report, error) {
	res, err := batch.Simulate(ctx, sj.Jobs, sj.Procs, batch.Policy(c.Policy), func(done, total int) {
		progress(done, total, fmt.Sprintf("%d of %d jobs started", done, total))
	})
	if err != nil {
		return nil, err
	}
	rep := batchReport(sj, sj.Jobs, res, start, c, batchMetricVariants())
	rep.Notes = append(rep.Notes, "Simultaneous events: all completions at a time are processed first, then the arrivals, then one scheduling pass.")
	return rep, nil
}

// batchReport is the report of a batch simulation of jobs (sj's, or those
// of them a decision process did not reject): batch.BuildReport, the wall
// time since start, sj's notes; utilization is marked for the variants
// given.
func batchReport(sj *batch.SWFJobs, jobs []batch.Job, res *batch.Result, start time.Time, c Config, variants []string) *report.Report {
	rep := batch.BuildReport(jobs, res, batch.ReportOptions{GanttStart: c.GanttStartH * 3600, GanttSpan: c.GanttSpanH * 3600}, sj.Skipped)
	rep.Metrics = append(rep.Metrics, report.Metric{Name: "wall_ms", Value: float64(time.Since(start).Microseconds()) / 1000, Unit: "ms", Better: report.Lower, Kind: report.KindCost})
	for i := range rep.Metrics {
		if rep.Metrics[i].Name == "utilization" {
			rep.Metrics[i].Variants = variants // not the slot variants' utilization
		}
	}
	rep.Notes = append(slices.Clone(sj.Notes), rep.Notes...)
	return rep
}

// uploads is Strategy.Uploads: an SWF trace besides the native
// JSON.
func uploads() []solvers.Upload {
	return []solvers.Upload{{Field: "swf", Label: "SWF trace (.swf, .swf.gz)", Accept: ".swf,.gz",
		Doc: "A job trace in the Standard Workload Format of the Parallel Workloads Archive, plain or gzip-compressed as the archive ships it: the variant batch simulates it on its processors; css, fair, backfill and combined plan it cut into cycles."},
		{Field: "batsim", Label: "Batsim workload (JSON)", Accept: ".json,application/json",
			Doc: "A Batsim 4 workload (nb_res, jobs, profiles), run as a trace: delay, parallel, parallel_homogeneous(_total) and composed profiles without communication; profiles in flops need the platform below."},
		{Field: "platform", Label: "SimGrid platform (XML, with a Batsim workload)", Accept: ".xml",
			Doc: "Optional, uploaded together with a Batsim workload: its compute hosts are the machine and their speed turns flops into seconds; links, routes and energy are not read."}}
}

// TraceInterval is the planning interval of a trace cut into cycles (the
// seed's T).
const TraceInterval = 600

// Cycles cuts a trace into planning cycles on the slot model: the machine
// becomes procs homogeneous nodes of performance 1 and price 1 with no
// owners' load; one time unit is unit seconds (0: the least whole number of
// seconds that lets the longest estimate fit the interval T = 600); a job's
// volume is its estimate in time units (rounded up), its nodes its size,
// its budget its cost at unit price, its criterion start; cycle c holds
// the jobs submitted in [(c−1)·T·unit, c·T·unit) after the first
// submission. It returns the instance (cycle 1's jobs and the later
// cycles'), the number of cycles, the unit and a note for the report.
func (t *Trace) Cycles(procs int, size, estimates string, unit int) (*Instance, int, int, []string, error) {
	sj, err := batch.FromSWF(t.swf(), batch.SWFOptions{Procs: procs, Size: size, Estimates: estimates})
	if err != nil {
		return nil, 0, 0, nil, err
	}
	if unit <= 0 {
		longest := 0.0
		for _, j := range sj.Jobs {
			longest = max(longest, j.Estimate)
		}
		unit = max(1, int(math.Ceil(longest/TraceInterval)))
	}
	in := &Instance{Interval: TraceInterval, Nodes: make([]Node, sj.Procs)}
	for i := range in.Nodes {
		in.Nodes[i] = Node{ID: fmt.Sprintf("p%d", i), Perf: 1, Price: 1}
	}
	t0 := sj.Jobs[0].Submit
	for _, j := range sj.Jobs {
		t0 = min(t0, j.Submit)
	}
	span := float64(TraceInterval * unit)
	var cycles [][]Job
	tooLong := 0
	for _, j := range sj.Jobs {
		units := math.Ceil(j.Estimate / float64(unit))
		if units > TraceInterval {
			tooLong++
			continue
		}
		c := int((j.Submit - t0) / span)
		for len(cycles) <= c {
			cycles = append(cycles, nil)
		}
		cycles[c] = append(cycles[c], Job{ID: fmt.Sprintf("j%d", j.ID), Nodes: j.Size, Volume: units, MinPerf: 1,
			MaxPrice: units * float64(j.Size), Criterion: CritStart})
	}
	if len(cycles) == 0 {
		return nil, 0, 0, nil, errs.Invalidf("unit_s", "no job's estimate fits the interval of %d units of %d s", TraceInterval, unit)
	}
	in.Jobs, in.Later = cycles[0], cycles[1:]
	if in.Later == nil {
		in.Later = [][]Job{}
	}
	notes := append(slices.Clone(sj.Notes), fmt.Sprintf("The trace cut into %d planning cycles of T = %d units of %d s (%.1f h each): %d homogeneous nodes of performance 1 and price 1, no owners' load; a job's volume is its estimate in units (rounded up), its nodes its size, its budget its cost, its criterion start; the cycle of a job is that of its submission. %d jobs longer than the interval were skipped.",
		len(cycles), TraceInterval, unit, span/3600, sj.Procs, tooLong))
	return in, len(cycles), unit, notes, nil
}

func runTraceCycles(ctx context.Context, w *solvers.Workload, cfg SimConfig, c Config, progress solvers.Progress) (*report.Report, error) {
	t, err := loadTrace(w)
	if err != nil {
		return nil, err
	}
	procs := cmp.Or(max(c.Procs, 0), t.procs())
	// The slot model holds a node per processor and, per cycle, its slots.
	est := solvers.SatAdd(solvers.SatMul(int64(procs), 256), solvers.SatMul(int64(len(t.Jobs)), 512))
	if err := solvers.Reserve(ctx, "procs", est, fmt.Sprintf("%d processors as nodes for %d jobs", procs, len(t.Jobs))); err != nil {
		return nil, err
	}
	in, n, _, notes, err := t.Cycles(c.Procs, c.Size, c.Estimates, c.UnitS)
	if err != nil {
		return nil, err
	}
	cfg.Cycles, cfg.Seed = n, 1
	if cfg.EarlyMin > 0 && c.Estimates != "exact" {
		// The trace knows how long each job really ran.
		share := make(map[string]float64, len(t.Jobs))
		for _, r := range t.Jobs {
			if r[5] > 0 && r[2] > 0 {
				share[fmt.Sprintf("j%d", int(r[0]))] = min(1, r[2]/r[5])
			}
		}
		cfg.Early = func(j *Job) float64 {
			if f, ok := share[j.ID]; ok {
				return f
			}
			return 1 // no requested time: the runtime was the estimate
		}
		notes = append(notes, "Early completion on a trace: each job runs its recorded runtime out of its requested time (SWF fields 4 and 9), not the U[early_min, 1] law.")
	}
	if cfg.GanttCycle > n {
		return nil, errs.Invalidf("gantt_cycle", "the trace has %d cycles, got %d", n, cfg.GanttCycle)
	}
	start := time.Now()
	res, err := RunConfig(ctx, in, cfg, progress)
	if err != nil {
		return nil, err
	}
	rep := runReport(in, cfg, res, float64(time.Since(start).Microseconds())/1000)
	rep.Notes = append(notes, rep.Notes...)
	return rep, nil
}
