package batch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/solvers/formats"
)

// viaFromSWF is the old way: read every record, then FromSWF.
func viaFromSWF(data []byte, lim formats.SWFLimits, o SWFOptions) (*SWFJobs, error) {
	s, err := formats.ReadSWFFrom(context.Background(), "t.swf", bytes.NewReader(data), lim)
	if err != nil {
		return nil, err
	}
	return FromSWF(s, o)
}

// viaBuilder is the streaming way: ScanSWF hands each record to an
// SWFBuilder.
func viaBuilder(ctx context.Context, data []byte, lim formats.SWFLimits, o SWFOptions) (*SWFJobs, error) {
	b := NewSWFBuilder(ctx, "t.swf", o)
	sum, err := formats.ScanSWF(ctx, "t.swf", bytes.NewReader(data), lim, b.Add)
	if err != nil {
		return nil, err
	}
	return b.Finish(&sum.Header)
}

// sameJobs fails unless both ways made the same jobs, counts and notes, or
// the same error.
func sameJobs(t *testing.T, what string, data []byte, lim formats.SWFLimits, o SWFOptions) (*SWFJobs, error) {
	t.Helper()
	want, errWant := viaFromSWF(data, lim, o)
	got, err := viaBuilder(context.Background(), data, lim, o)
	if (err == nil) != (errWant == nil) || err != nil && (err.Error() != errWant.Error() || errs.KindOf(err) != errs.KindOf(errWant)) {
		t.Fatalf("%s: FromSWF says %v, the builder %v", what, errWant, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the builder's jobs differ from FromSWF's\nbuilder %+v\nFromSWF %+v", what, brief(got), brief(want))
	}
	return got, err
}

func brief(j *SWFJobs) string {
	if j == nil {
		return "nil"
	}
	c := *j
	c.Jobs = nil
	return fmt.Sprintf("%d jobs %+v", len(j.Jobs), c)
}

var builderOptions = []SWFOptions{{}, {Size: "allocated", Estimates: "exact"}, {Procs: 64}, {Procs: 10, Size: "allocated"}, {Procs: 1}, {Size: "max"}, {Estimates: "guess"}}

// TestSWFBuilderEqualsFromSWFOnTheTraces: on the three committed traces,
// under options that skip none, some and most records, the streaming path
// makes exactly what FromSWF makes of the whole trace.
func TestSWFBuilderEqualsFromSWFOnTheTraces(t *testing.T) {
	for _, f := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz", "hpc2n.swf"} {
		data, err := os.ReadFile("../formats/testdata/swf/" + f)
		if err != nil {
			t.Fatal(err)
		}
		tooBig := 0
		for _, o := range builderOptions {
			j, err := sameJobs(t, fmt.Sprintf("%s %+v", f, o), data, formats.SWFLimits{}, o)
			if o.Size == "max" || o.Estimates == "guess" {
				if err == nil {
					t.Errorf("%s %+v accepted", f, o)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s %+v: %v", f, o, err)
			}
			tooBig += j.SkippedTooBig
		}
		if tooBig == 0 {
			t.Errorf("%s: no option dropped a record larger than the machine", f)
		}
	}
}

const rec = "%d %d 0 %d %d -1 -1 %d %d -1 1 1 1 1 1 1 -1 -1\n"

// swfBuilderCases are the edge cases: a header after the jobs, records
// skipped for each reason, no requested time among records too big, all
// skipped, no header size.
var swfBuilderCases = map[string]string{
	"header after jobs": fmt.Sprintf(rec, 1, 0, 10, 4, 4, 20) + fmt.Sprintf(rec, 2, 1, 10, 16, 16, -1) + "; MaxProcs: 8\n" + fmt.Sprintf(rec, 3, 2, 10, 2, 2, -1),
	"header twice":      "; MaxProcs: 2\n" + fmt.Sprintf(rec, 1, 0, 10, 4, 4, 20) + fmt.Sprintf(rec, 2, 1, 10, 1, 1, 5) + "; MaxProcs: 8\n",
	"skips": "; MaxProcs: 8\n; MaxRecords: 5\n" + fmt.Sprintf(rec, 1, 0, 0, 4, 4, 20) + fmt.Sprintf(rec, 2, 1, 10, -1, -1, 20) +
		fmt.Sprintf(rec, 3, 2, 10, 9, 9, -1) + fmt.Sprintf(rec, 4, 3, 10, 3, -1, -1) + fmt.Sprintf(rec, 5, 4, 10, 0, 0, 20) + fmt.Sprintf(rec, 6, 5, -1, 1, 1, 20) + fmt.Sprintf(rec, 7, -1, 30, 1, 1, 20),
	"all skipped": "; MaxProcs: 8\n" + fmt.Sprintf(rec, 1, 0, 0, 4, 4, 20) + fmt.Sprintf(rec, 2, 1, 10, 9, 9, 20),
	"all too big": "; MaxNodes: 2\n" + fmt.Sprintf(rec, 1, 0, 10, 4, 4, 20) + fmt.Sprintf(rec, 2, 1, 10, 9, 9, -1),
	"no machine":  fmt.Sprintf(rec, 1, 0, 10, 4, 4, 20),
}

// TestSWFBuilderEdgeCases: on each edge case, under each option, and under
// a record limit the trace passes, both ways agree; the cases that must
// fail or skip do.
func TestSWFBuilderEdgeCases(t *testing.T) {
	for name, trace := range swfBuilderCases {
		for _, o := range builderOptions {
			for _, lim := range []formats.SWFLimits{{}, {MaxRecords: 2}} {
				sameJobs(t, fmt.Sprintf("%s %+v %+v", name, o, lim), []byte(trace), lim, o)
			}
		}
	}
	j, err := viaBuilder(context.Background(), []byte(swfBuilderCases["header after jobs"]), formats.SWFLimits{}, SWFOptions{})
	if err != nil || j.Procs != 8 || len(j.Jobs) != 2 || j.SkippedTooBig != 1 || j.NoEstimate != 1 || j.Jobs[1].ID != 3 {
		t.Errorf("header after jobs: %s, %v; want 8 processors, jobs 1 and 3, job 2 too big and its missing estimate not counted", brief(j), err)
	}
	j, err = viaBuilder(context.Background(), []byte(swfBuilderCases["skips"]), formats.SWFLimits{}, SWFOptions{})
	if err != nil || len(j.Jobs) != 2 || j.SkippedRuntime != 2 || j.SkippedSize != 2 || j.SkippedTooBig != 1 || j.SizeFallbacks != 1 || j.NoEstimate != 1 || j.Jobs[0].Size != 3 || j.Jobs[1].Submit != 0 {
		t.Errorf("skips: %s, %v", brief(j), err)
	}
	for _, name := range []string{"all skipped", "all too big", "no machine"} {
		if _, err := viaBuilder(context.Background(), []byte(swfBuilderCases[name]), formats.SWFLimits{}, SWFOptions{}); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%s: %v, want Invalid", name, err)
		}
	}
	_, err = viaBuilder(context.Background(), []byte(swfBuilderCases["skips"]), formats.SWFLimits{MaxRecords: 6}, SWFOptions{})
	if errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "more than 6 job records (line 9)") {
		t.Errorf("7 records under a limit of 6: %v, want TooLarge at line 9", err)
	}
}

// TestSWFBuilderReservesWhatItKeeps: 20,000 jobs (40 bytes each and
// more) are refused under a budget of 256 KiB, naming the file; 1,000 pass.
func TestSWFBuilderReservesWhatItKeeps(t *testing.T) {
	lines := func(n int) []byte {
		var b strings.Builder
		b.WriteString("; MaxProcs: 8\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, rec, i, i, 10, 1, 1, 20)
		}
		return []byte(b.String())
	}
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 256 << 10})
	if _, err := viaBuilder(ctx, lines(20000), formats.SWFLimits{}, SWFOptions{}); errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "t.swf" {
		t.Errorf("20,000 jobs under 256 KiB: %v, want TooLarge on the file", err)
	}
	if j, err := viaBuilder(ctx, lines(1000), formats.SWFLimits{}, SWFOptions{}); err != nil || len(j.Jobs) != 1000 {
		t.Errorf("1,000 jobs under 256 KiB: %v", err)
	}
}

// FuzzSWFBuilder checks the streaming path against ReadSWF and FromSWF on
// any input, record by record: the same jobs, counts and notes, or the
// same error.
func FuzzSWFBuilder(f *testing.F) {
	for _, c := range swfBuilderCases {
		f.Add([]byte(c), 0, false)
	}
	f.Add([]byte("; MaxProcs: 4\n1 0.5 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n\n2 1 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1"), 2, true)
	f.Fuzz(func(t *testing.T, data []byte, procs int, alt bool) {
		o := SWFOptions{Procs: procs % 1000}
		if alt {
			o.Size, o.Estimates = "allocated", "exact"
		}
		sameJobs(t, "fuzz", data, formats.SWFLimits{MaxRecords: 50}, o)
	})
}
