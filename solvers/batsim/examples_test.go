package batsim

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"

	"schedlab/solvers/batch"
	"schedlab/solvers/formats"
)

// pythonWithZMQ is a Python 3 that imports zmq (Debian's python3-zmq):
// python3 on the PATH, else /usr/bin/python3. Without one the test skips,
// saying so, unless SCHEDLAB_REQUIRE_PYZMQ=1 (.ci/run sets it), where it
// fails.
func pythonWithZMQ(tb testing.TB) string {
	tb.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import zmq").Run() == nil {
			return py
		}
	}
	if os.Getenv("SCHEDLAB_REQUIRE_PYZMQ") == "1" {
		tb.Fatal("no python3 with zmq (apt-get install python3-zmq), and SCHEDLAB_REQUIRE_PYZMQ=1")
	}
	tb.Skip("no python3 with zmq: apt-get install python3-zmq to run the Python examples (.ci/run does)")
	return ""
}

// kth is the full KTH SP2 trace as batch jobs.
func kth(tb testing.TB) *batch.SWFJobs {
	tb.Helper()
	const file = "KTH-SP2-1996-2.1-cln.swf.gz"
	data, err := os.ReadFile("../formats/testdata/swf/" + file)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := formats.ReadSWF(file, data)
	if err != nil {
		tb.Fatal(err)
	}
	sj, err := batch.FromSWF(s, batch.SWFOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return sj
}

// examplePolicy is the Python example run with --policy pol.
func examplePolicy(py, pol string) Scheduler {
	return Scheduler{Name: pol + "-py", Command: []string{py, "../../examples/batsim/sched.py", "--policy", pol, "{endpoint}"}}
}

// TestPythonExamplesGiveTheBuiltInSchedulesOnKTH: the Python FCFS and EASY
// of examples/batsim, run through the protocol on the full KTH SP2 trace,
// start every job at the time and on the processors the built-in fcfs and
// easy give it.
func TestPythonExamplesGiveTheBuiltInSchedulesOnKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("slow tier (the Python examples over the whole KTH trace (5 min at load 35)): not under -short; go test ./... runs it")
	}
	py := pythonWithZMQ(t)
	sj := kth(t)
	for _, pol := range []batch.Policy{batch.FCFS, batch.EASY} {
		want, err := batch.Simulate(context.Background(), sj.Jobs, sj.Procs, pol, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := examplePolicy(py, string(pol)).Open(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got, err := Simulate(context.Background(), sj.Jobs, sj.Procs, c, Options{Name: string(pol) + "-py", Workload: "kth"})
		c.Close()
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		if got.NRejected != 0 || got.Killed != 0 {
			t.Fatalf("%s: %d rejected, %d killed", pol, got.NRejected, got.Killed)
		}
		bad := 0
		for i, j := range sj.Jobs {
			g, w := got.Result.Placements[i], want.Placements[i]
			if g.Start != w.Start || g.End != w.End || !slices.Equal(g.Procs, w.Procs) {
				if bad == 0 {
					t.Errorf("%s: job %d (#%d, submit %v, size %d, estimate %v): through the protocol %v–%v on %v, built in %v–%v on %v",
						pol, j.ID, i, j.Submit, j.Size, j.Estimate, g.Start, g.End, batch.Intervals(g.Procs), w.Start, w.End, batch.Intervals(w.Procs))
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d jobs differ", pol, bad, len(sj.Jobs))
		}
		if got.Result.Capped != want.Capped {
			t.Errorf("%s: %d capped, built in %d", pol, got.Result.Capped, want.Capped)
		}
		t.Logf("%s: %d jobs, %d round trips", pol, len(sj.Jobs), got.Rounds)
	}
}
