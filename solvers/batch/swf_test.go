package batch

import (
	"context"
	"os"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers/formats"
)

func readTrace(tb testing.TB, file string) *formats.SWF {
	tb.Helper()
	data, err := os.ReadFile("../formats/testdata/swf/" + file)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := formats.ReadSWF(file, data)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestFromSWFDecisions(t *testing.T) {
	const trace = `; MaxProcs: 8
1 0 0 100 4 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1
2 5 0 50 3 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1
3 6 0 0 2 -1 -1 2 60 -1 0 1 1 -1 -1 -1 -1 -1
4 7 0 10 -1 -1 -1 -1 60 -1 1 1 1 -1 -1 -1 -1 -1
5 8 0 10 9 -1 -1 16 60 -1 1 1 1 -1 -1 -1 -1 -1
`
	s, err := formats.ReadSWF("t.swf", []byte(trace))
	if err != nil {
		t.Fatal(err)
	}
	j, err := FromSWF(s, SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if j.Procs != 8 || len(j.Jobs) != 2 || j.SkippedRuntime != 1 || j.SkippedSize != 1 || j.SkippedTooBig != 1 {
		t.Fatalf("got %+v", j)
	}
	// Job 1: requested 2 processors, 200 s requested; job 2 falls back to
	// its 3 allocated processors and, without a requested time, its runtime.
	if j.Jobs[0] != (Job{ID: 1, Submit: 0, Size: 2, Estimate: 200, Run: 100}) || j.Jobs[1] != (Job{ID: 2, Submit: 5, Size: 3, Estimate: 50, Run: 50}) {
		t.Errorf("jobs %+v", j.Jobs)
	}
	if j.NoEstimate != 1 || j.SizeFallbacks != 1 || !strings.Contains(strings.Join(j.Notes, " "), "Warning: 1 records have no requested time") {
		t.Errorf("notes %q", j.Notes)
	}
	a, _ := FromSWF(s, SWFOptions{Size: "allocated", Estimates: "exact", Procs: 10})
	if a.Jobs[0].Size != 4 || a.Jobs[0].Estimate != 100 || a.Procs != 10 || len(a.Jobs) != 3 {
		t.Errorf("allocated/exact/10 procs: %+v", a)
	}
	for _, o := range []SWFOptions{{Size: "max"}, {Estimates: "guess"}} {
		if _, err := FromSWF(s, o); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%+v accepted: %v", o, err)
		}
	}
}

func TestEASYOnRealKTHReplaysClean(t *testing.T) {
	j, err := FromSWF(readTrace(t, "KTH-SP2-1996-2.1-cln.first2000.swf"), SWFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range Policies() {
		r, err := Simulate(context.Background(), j.Jobs, j.Procs, pol, nil)
		if err != nil {
			t.Fatal(err)
		}
		verify(t, "KTH first 2000 "+string(pol), j.Jobs, r)
		s := Summarize(j.Jobs, r)
		if s.Utilization <= 0 || s.Utilization > 1 || s.BSLDMean < 1 || s.WaitP95 < s.WaitMean && s.WaitMean > 0 {
			t.Errorf("%s: implausible summary %+v", pol, s)
		}
		t.Logf("%s: %+v", pol, s)
	}
}

// BenchmarkEASYFullKTH is the speed target: EASY over the whole KTH SP2
// trace (27,992 jobs, 100 processors) ≤ 1 s.
func BenchmarkEASYFullKTH(b *testing.B) {
	j, err := FromSWF(readTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz"), SWFOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Simulate(context.Background(), j.Jobs, j.Procs, EASY, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(j.Jobs)), "jobs")
}

// BenchmarkConservativeFullKTH measures the slow policy on the same trace.
func BenchmarkConservativeFullKTH(b *testing.B) {
	j, err := FromSWF(readTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz"), SWFOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Simulate(context.Background(), j.Jobs, j.Procs, Conservative, nil); err != nil {
			b.Fatal(err)
		}
	}
}
