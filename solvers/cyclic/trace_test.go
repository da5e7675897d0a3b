package cyclic

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/formats"
	"schedlab/solvers/solverstest"
)

const kth2000 = "../formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf"

func readKTH(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(kth2000)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func metricOf(t *testing.T, r *report.Report, name string) float64 {
	t.Helper()
	for _, m := range r.Metrics {
		if m.Name == name {
			return m.Value
		}
	}
	t.Fatalf("report lacks metric %s", name)
	return 0
}

// The stored trace keeps every field a simulation reads, record for record.
func TestTraceStoresWhatBatchReads(t *testing.T) {
	data := readKTH(t)
	w, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "kth.swf", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	if w.Format != FormatSWF || w.Preview == nil {
		t.Fatalf("format %q, preview %v", w.Format, w.Preview != nil)
	}
	if err := w.Preview.Validate(); err != nil {
		t.Fatal(err)
	}
	tr, err := loadTrace(w)
	if err != nil {
		t.Fatal(err)
	}
	want, err := formats.ReadSWF("kth.swf", data)
	if err != nil {
		t.Fatal(err)
	}
	got := tr.swf()
	if got.Header.Procs() != want.Header.Procs() || got.Header.MaxJobs != want.Header.MaxJobs || len(got.Jobs) != len(want.Jobs) {
		t.Fatalf("header %d/%d procs, %d/%d records", got.Header.Procs(), want.Header.Procs(), len(got.Jobs), len(want.Jobs))
	}
	for i, g := range got.Jobs {
		x := want.Jobs[i]
		if g.ID != x.ID || g.Submit != x.Submit || g.Run != x.Run || g.Alloc != x.Alloc || g.Req != x.Req || g.ReqTime != x.ReqTime {
			t.Fatalf("record %d: stored %+v, trace %+v", i, g, x)
		}
	}

	// The gzip-compressed trace, as the archive ships it, stores the same.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	wz, err := New().ParseWorkload(context.Background(), []solvers.File{{Name: "kth.swf.gz", Data: gz.Bytes()}})
	if err != nil {
		t.Fatal(err)
	}
	var a, b Trace
	formats.DecodeStrict(w.Data, &a, "a")
	formats.DecodeStrict(wz.Data, &b, "b")
	a.Name, b.Name = "", ""
	if !reflect.DeepEqual(a, b) {
		t.Error("the gzip-compressed trace stores something else than the plain one")
	}
}

func TestBatchRunsATrace(t *testing.T) {
	s := New()
	w, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "kth.swf", Data: readKTH(t)}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(params solvers.Params) *report.Report {
		t.Helper()
		r, err := s.Run(context.Background(), w, VariantBatch, params, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		return r
	}
	easy := run(solvers.Params{"policy": "easy"})
	jobs, skipped := metricOf(t, easy, "jobs"), metricOf(t, easy, "jobs_skipped")
	if int(jobs+skipped) != 2000 || jobs < 1900 {
		t.Errorf("jobs %v + skipped %v, want the 2000 records with few skipped", jobs, skipped)
	}
	var table *report.Table
	for i := range easy.Tables {
		if easy.Tables[i].Title == "Jobs (Batsim columns)" {
			table = &easy.Tables[i]
		}
	}
	if table == nil || table.NumRows() != int(jobs) {
		t.Fatalf("no Batsim table with one row per job")
	}
	rows, err := table.AllRows()
	if err != nil || len(rows) != int(jobs) {
		t.Fatalf("the Batsim table's rows: %d (%v)", len(rows), err)
	}
	if strings.Join(table.Columns, ",") != "job_id,submission_time,requested_number_of_resources,requested_time,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources" {
		t.Errorf("Batsim columns %v", table.Columns)
	}
	for _, row := range rows {
		if row[7].(float64) < 0 || row[2].(int) > 100 {
			t.Fatalf("row %v: a job started before its submission or exceeds the 100 processors", row)
		}
	}
	if u := metricOf(t, easy, "utilization"); u <= 0 || u > 1 {
		t.Errorf("utilization %v outside (0, 1]", u)
	}
	// batch's utilization (Σ run × size / (P × makespan)) is not the slot
	// variants' (planned processor time / the cycles' node time).
	if m, _ := easy.Metric("utilization"); !m.MeaningfulFor(VariantBatch) || m.MeaningfulFor(VariantCSS) {
		t.Errorf("batch's utilization declares %q, want batch alone", m.Variants)
	}
	if err := solverstest.CheckMetricVariants(s, easy); err != nil {
		t.Error(err)
	}

	// Determinism, and the parameters reach the simulation.
	if again := run(solvers.Params{"policy": "easy"}); tablesJSON(t, again) != tablesJSON(t, easy) {
		t.Error("two runs of the same trace differ")
	}
	fcfs := run(solvers.Params{"policy": "fcfs"})
	if tablesJSON(t, fcfs) == tablesJSON(t, easy) {
		t.Error("policy fcfs gave the same schedule as easy")
	}
	small := run(solvers.Params{"procs": "32"})
	if metricOf(t, small, "jobs_skipped") <= skipped {
		t.Error("a 32-processor machine skipped no more jobs than the 100-processor one")
	}
	if exact := run(solvers.Params{"estimates": "exact"}); tablesJSON(t, exact) == tablesJSON(t, easy) {
		t.Error("exact estimates gave the same schedule as user estimates")
	}
}

// eagerTables replaces r's tables by the same tables with their rows in
// hand (a lazy table's built), so that reports compare by their cells.
func eagerTables(t *testing.T, r *report.Report) {
	t.Helper()
	for i, tb := range r.Tables {
		rows, err := tb.AllRows()
		if err != nil {
			t.Fatal(err)
		}
		r.Tables[i] = report.Table{Title: tb.Title, Columns: tb.Columns, Rows: rows, Paged: tb.Paged, RowCount: tb.RowCount}
	}
}

// tablesJSON is the JSON of r's tables, every row built.
func tablesJSON(t *testing.T, r *report.Report) string {
	t.Helper()
	b, err := json.Marshal(r.Tables)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestVariantsFitTheirWorkloads(t *testing.T) {
	s := New()
	f, ok := s, s.VariantFits != nil
	if !ok {
		t.Fatal("the cyclic strategy has no VariantFits")
	}
	for _, c := range []struct {
		format, variant string
		ok              bool
	}{
		{"preset", VariantBatch, false}, {"json", VariantBatch, false}, {FormatSWF, VariantBatch, true},
		{FormatSWF, VariantCSS, true}, {FormatSWF, VariantFair, true}, {FormatSWF, VariantBackfill, true}, {"preset", VariantCSS, true}, {"json", VariantFair, true},
	} {
		err := f.VariantFits(c.format, c.variant)
		if (err == nil) != c.ok || (err != nil && errs.FieldOf(err) != "variant") {
			t.Errorf("%s on %s: %v", c.variant, c.format, err)
		}
	}
	// Run refuses the same, naming the variant.
	w, err := s.Generate(context.Background(), PresetToporkov2014, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), w, VariantBatch, nil, nil); errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "variant" {
		t.Errorf("batch on a slot workload: %v", err)
	}
}

func TestBadTraceNamesTheLine(t *testing.T) {
	data := "; MaxProcs: 8\n1 0 5 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n2 3 x 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n"
	_, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "bad.swf", Data: []byte(data)}})
	if errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "bad.swf") {
		t.Errorf("bad trace: %v, want an Invalid error naming bad.swf line 3", err)
	}
	_, err = New().ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "empty.swf", Data: []byte("; MaxProcs: 8\n")}})
	if errs.KindOf(err) != errs.Invalid {
		t.Errorf("a trace without records: %v", err)
	}
}

// A hand-built trace cut into cycles: 600-unit intervals of 10 s (the
// longest estimate, 6000 s, fits exactly), jobs by submission.
func TestTraceCutIntoCycles(t *testing.T) {
	swf := "; MaxProcs: 8\n" +
		"1 0 50 5 2 -1 -1 2 6000 -1 1 1 1 1 1 1 -1 -1\n" + // cycle 1, 600 units on 2 nodes
		"2 5999 50 5 4 -1 -1 4 95 -1 1 1 1 1 1 1 -1 -1\n" + // cycle 1 (5999 < 6000), ⌈9.5⌉ = 10 units
		"3 6000 50 5 1 -1 -1 1 100 -1 1 1 1 1 1 1 -1 -1\n" + // cycle 2
		"4 20000 50 5 9 -1 -1 9 100 -1 1 1 1 1 1 1 -1 -1\n" + // 9 > 8 processors: skipped
		"5 20000 0 0 1 -1 -1 1 100 -1 1 1 1 1 1 1 -1 -1\n" + // runtime 0: skipped
		"6 18001 50 5 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n" // cycle 4
	tr, err := traceFromSWF(context.Background(), "hand.swf", []byte(swf))
	if err != nil {
		t.Fatal(err)
	}
	in, n, unit, _, err := tr.Cycles(0, "requested", "user", 0)
	if err != nil {
		t.Fatal(err)
	}
	if unit != 10 || n != 4 || len(in.Nodes) != 8 || in.Interval != TraceInterval {
		t.Fatalf("unit %d, %d cycles, %d nodes, T %d; want 10, 4, 8, 600", unit, n, len(in.Nodes), in.Interval)
	}
	ids := func(js []Job) (out []string) {
		for _, j := range js {
			out = append(out, fmt.Sprintf("%s:%dx%g", j.ID, j.Nodes, j.Volume))
		}
		return out
	}
	got := [][]string{ids(in.Jobs)}
	for _, js := range in.Later {
		got = append(got, ids(js))
	}
	want := [][]string{{"j1:2x600", "j2:4x10"}, {"j3:1x10"}, nil, {"j6:1x1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cycles %v, want %v", got, want)
	}
	// A slot variant runs the trace cycle by cycle.
	w, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "hand.swf", Data: []byte(swf)}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := New().Run(context.Background(), w, VariantBackfill, solvers.Params{"depth": "inf"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if p := metricOf(t, r, "jobs_planned"); p != 4 {
		t.Errorf("%v jobs planned, want the 4 runnable ones", p)
	}
	// Early completion on a trace runs each job its recorded runtime:
	// every job ran 5 s, far less than it requested (10 to 6000 s).
	r, err = New().Run(context.Background(), w, VariantBackfill, solvers.Params{"early": "on"}, nil) // an old link's spelling of true
	if err != nil {
		t.Fatal(err)
	}
	if a, p := metricOf(t, r, "actual_runtime"), metricOf(t, r, "planned_runtime"); a >= p/2 {
		t.Errorf("early on a trace: actual runtime %v, planned %v; the recorded runtimes are far shorter", a, p)
	}
	// With 1 s units j1 (6000 s) no longer fits the 600-unit interval.
	r, err = New().Run(context.Background(), w, VariantCSS, solvers.Params{"unit_s": "1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := metricOf(t, r, "jobs_planned"); p != 3 {
		t.Errorf("unit_s 1: %v jobs planned, want 3 (j1 is longer than the interval)", p)
	}
}

// TestBatchFromTheFileEqualsTheStoredTrace runs batch straight from the
// SWF file (the command line's path) and on the workload an upload stores,
// under every policy and both estimates: the same report but for the wall
// time.
func TestBatchFromTheFileEqualsTheStoredTrace(t *testing.T) {
	data, err := os.ReadFile(kth2000)
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	fr, ok := s, s.RunFile != nil
	if !ok || !fr.RunsFile("kth.swf", VariantBatch) || !fr.RunsFile("kth.swf.gz", VariantBatch) {
		t.Fatal("cyclic does not run batch straight from an SWF file")
	}
	if fr.RunsFile("kth.swf", VariantCSS) || fr.RunsFile("kth.json", VariantBatch) {
		t.Error("cyclic claims to run a slot variant, or a JSON file, straight from the file")
	}
	w, err := s.ParseWorkload(context.Background(), []solvers.File{{Name: "kth.swf", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	dropWall := func(r *report.Report) {
		r.Metrics = slices.DeleteFunc(r.Metrics, func(m report.Metric) bool { return m.Name == "wall_ms" })
	}
	for _, params := range []solvers.Params{{"policy": "fcfs"}, {"policy": "easy"}, {"policy": "conservative", "estimates": "exact"}, {"policy": "easy", "procs": "64", "size": "allocated"}} {
		want, err := s.Run(context.Background(), w, VariantBatch, params, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fr.RunFile(context.Background(), "kth.swf", bytes.NewReader(data), VariantBatch, params, nil)
		if err != nil {
			t.Fatal(err)
		}
		dropWall(want)
		dropWall(got)
		eagerTables(t, want)
		eagerTables(t, got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: the report from the file differs from the stored trace's", params)
		}
	}
	if _, err := fr.RunFile(context.Background(), "kth.swf", bytes.NewReader(data), VariantCSS, nil, nil); errs.KindOf(err) != errs.Invalid {
		t.Errorf("css straight from a file: %v, want Invalid", err)
	}
}

// TestStoredTraceRefusedAtTheLimitAsItIsDecoded: a stored trace of more
// records than the limit (an imported bundle, an older database) is
// refused naming the limit, having decoded only up to it.
func TestStoredTraceRefusedAtTheLimitAsItIsDecoded(t *testing.T) {
	tr := Trace{Name: "big", MaxProcs: 8}
	for i := range 50000 {
		tr.Jobs = append(tr.Jobs, [6]float64{float64(i + 1), float64(i), 10, 1, 1, 20})
	}
	data, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(limit int) (uint64, error) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := decodeTrace(data, limit)
		runtime.ReadMemStats(&after)
		if err == nil && !reflect.DeepEqual(*got, tr) {
			t.Fatal("the trace read back differs")
		}
		return after.TotalAlloc - before.TotalAlloc, err
	}
	whole, err := allocs(50000)
	if err != nil {
		t.Fatalf("50,000 records at a limit of 50,000: %v", err)
	}
	const limit = 1000
	part, err := allocs(limit)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "jobs" || !strings.Contains(err.Error(), "more than 1000 job records") {
		t.Fatalf("50,000 records under a limit of %d: %v, want TooLarge naming the limit", limit, err)
	}
	// Decoded up to the limit only: the 49,000 records past it (48 bytes
	// each) were never made.
	if part+49000*48 > whole {
		t.Errorf("refusing at %d records allocated %d bytes, reading all 50,000 %d: it decoded past the limit", limit, part, whole)
	}
}

// FuzzDecodeTrace checks the stored trace's reader against encoding/json:
// the records it reads are those of decoding [][6]float64, and what
// encoding/json refuses it refuses.
func FuzzDecodeTrace(f *testing.F) {
	f.Add([]byte(`{"name":"t","max_procs":8,"jobs":[[1,0,10,1,1,20],[2,5.5,1e3,2,-1,-1]]}`))
	f.Add([]byte(`{"name":"t","jobs":[[1,2],[1,2,3,4,5,6,7], null, [null,1,2,3,4,5]]}`))
	f.Add([]byte(`{"name":"t","jobs":[ [ 1 , 2 , 3 , 4 , 5 , 6 ] ]}`))
	f.Add([]byte(`{"name":"t","jobs":[[1e999,0,0,0,0,0]]}`))
	f.Add([]byte(`{"name":"t","jobs":[["1",0,0,0,0,0]]}`))
	f.Add([]byte(`{"name":"t","jobs":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeTrace(data, 100)
		var want Trace
		werr := formats.DecodeStrict(data, &want, "trace")
		if werr != nil {
			if err == nil {
				t.Fatalf("encoding/json refuses (%v), decodeTrace reads %+v", werr, got)
			}
			return
		}
		if len(want.Jobs) > 100 || len(want.Jobs) == 0 {
			if err == nil {
				t.Fatalf("%d records read under a limit of 100", len(want.Jobs))
			}
			return
		}
		if err != nil {
			t.Fatalf("encoding/json reads %d records, decodeTrace refuses: %v", len(want.Jobs), err)
		}
		if fmt.Sprint(*got) != fmt.Sprint(want) {
			t.Fatalf("decodeTrace %+v, encoding/json %+v", *got, want)
		}
	})
}
