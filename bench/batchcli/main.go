// Command batchcli measures the command line's batch simulation of an SWF
// trace as a whole process against the simulation alone, and against a
// peer simulator when one is installed.
//
//	go run ./bench/batchcli [-policy easy] [-trace solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz] [-n 15] [-full] [-bin PATH] [-peer 'CMD']
//
// It builds ./cmd/schedlab (or takes -bin), runs
//
//	schedlab run --strategy cyclic --variant batch --workload TRACE --param policy=POLICY --out /dev/null [--full]
//
// n times and reads each process's CPU time (user + system, from the
// kernel's rusage: the Go runtime's start, reading the trace, simulating,
// building and writing the report, the garbage collector's threads) and
// wall time (the report as the CLI writes it by default: the per-job table
// paged out, never built). It then times batch.Simulate alone on the same
// jobs in this process, n times, by this process's CPU time around the
// call (the collector included, with the CLI's one-shot settings,
// execute.OneShot, so the simulation costs here what it costs there): the
// simulation warm, its memory already the process's. It also times it
// cold, as the CLI process pays it: this command started again as a
// fresh process (-cold-once) that reads the trace, sets the CLI's
// collector and times one batch.Simulate by its CPU time, n times. It
// prints the medians and the share of the CLI process's CPU the
// simulation is, warm and cold. With -peer, the shell
// command is run n times the same way (e.g. a tuned pyss on the same
// trace) and the ratio of its median wall time to ours is printed. Run it
// on an idle machine: wall times measure the load as much as the code.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"schedlab/execute"
	"schedlab/solvers"
	"schedlab/solvers/batch"
	"schedlab/solvers/formats"
)

func main() {
	policy := flag.String("policy", "easy", "fcfs, easy or conservative")
	trace := flag.String("trace", "solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz", "SWF trace")
	n := flag.Int("n", 15, "runs of each measurement")
	bin := flag.String("bin", "", "schedlab binary (default: go build ./cmd/schedlab)")
	peer := flag.String("peer", "", "shell command of a peer simulator to time the same way")
	full := flag.Bool("full", false, "run the CLI with --full (the per-job table built and written in the report)")
	coldOnce := flag.Bool("cold-once", false, "time one simulation in this fresh process and print its CPU time in ns (used by the cold measurement)")
	flag.Parse()
	if *coldOnce {
		if err := simulateCold(*policy, *trace); err != nil {
			fmt.Fprintln(os.Stderr, "batchcli:", err)
			os.Exit(1)
		}
		return
	}
	if err := measure(*policy, *trace, *n, *bin, *peer, *full); err != nil {
		fmt.Fprintln(os.Stderr, "batchcli:", err)
		os.Exit(1)
	}
}

type sample struct{ cpu, wall time.Duration }

func measure(policy, trace string, n int, bin, peer string, full bool) error {
	if bin == "" {
		dir, err := os.MkdirTemp("", "batchcli")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "schedlab")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/schedlab").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	cli := make([]sample, 0, n)
	for range n {
		args := []string{"run", "--strategy", "cyclic", "--variant", "batch", "--workload", trace, "--param", "policy=" + policy, "--out", os.DevNull}
		if full {
			args = append(args, "--full")
		}
		s, err := timeProcess(exec.Command(bin, args...))
		if err != nil {
			return err
		}
		cli = append(cli, s)
	}
	sim, jobs, err := simulateAlone(policy, trace, n)
	if err != nil {
		return err
	}
	cold, err := simulateColdRuns(policy, trace, n)
	if err != nil {
		return err
	}
	cpu, wall := median(cli, func(s sample) time.Duration { return s.cpu }), median(cli, func(s sample) time.Duration { return s.wall })
	simCPU := median(sim, func(s sample) time.Duration { return s.cpu })
	coldCPU := median(cold, func(s sample) time.Duration { return s.cpu })
	fmt.Printf("trace %s, policy %s, %d jobs, %d runs each (medians)\n", filepath.Base(trace), policy, jobs, n)
	fmt.Printf("CLI process:            cpu %7.1f ms  wall %7.1f ms\n", ms(cpu), ms(wall))
	fmt.Printf("simulation alone, warm: cpu %7.1f ms  wall %7.1f ms\n", ms(simCPU), ms(median(sim, func(s sample) time.Duration { return s.wall })))
	fmt.Printf("simulation alone, cold: cpu %7.1f ms  (one run in a fresh process, as the CLI pays it)\n", ms(coldCPU))
	fmt.Printf("simulation share of the process's CPU: %.0f %% warm, %.0f %% cold\n", 100*float64(simCPU)/float64(cpu), 100*float64(coldCPU)/float64(cpu))
	if peer != "" {
		var ps []sample
		for range n {
			s, err := timeProcess(exec.Command("sh", "-c", peer))
			if err != nil {
				return fmt.Errorf("peer: %w", err)
			}
			ps = append(ps, s)
		}
		pw := median(ps, func(s sample) time.Duration { return s.wall })
		fmt.Printf("peer process:     cpu %7.1f ms  wall %7.1f ms  (ours %.1f× faster by wall)\n",
			ms(median(ps, func(s sample) time.Duration { return s.cpu })), ms(pw), float64(pw)/float64(wall))
	}
	return nil
}

// timeProcess runs cmd and returns its CPU time (user + system) and wall
// time; its standard error is kept for a failure's message.
func timeProcess(cmd *exec.Cmd) (sample, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("%s: %w\n%s", cmd, err, stderr.Bytes())
	}
	wall := time.Since(start)
	return sample{cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), wall: wall}, nil
}

// simulateAlone times batch.Simulate on the trace's jobs n times by this
// process's CPU time.
func simulateAlone(policy, trace string, n int) ([]sample, int, error) {
	data, err := os.ReadFile(trace)
	if err != nil {
		return nil, 0, err
	}
	s, err := formats.ReadSWF(filepath.Base(trace), data)
	if err != nil {
		return nil, 0, err
	}
	sj, err := batch.FromSWF(s, batch.SWFOptions{})
	if err != nil {
		return nil, 0, err
	}
	defer execute.OneShot(solvers.Budget{})() // the collector as the CLI sets it
	out := make([]sample, 0, n)
	for range n {
		c0, t0 := cpuNow(), time.Now()
		if _, err := batch.Simulate(context.Background(), sj.Jobs, sj.Procs, batch.Policy(policy), nil); err != nil {
			return nil, 0, err
		}
		out = append(out, sample{cpu: cpuNow() - c0, wall: time.Since(t0)})
	}
	return out, len(sj.Jobs), nil
}

// simulateColdRuns starts this command n times with -cold-once and reads
// the CPU time each prints.
func simulateColdRuns(policy, trace string, n int) ([]sample, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	out := make([]sample, 0, n)
	for range n {
		b, err := exec.Command(self, "-cold-once", "-policy", policy, "-trace", trace).Output()
		if err != nil {
			return nil, fmt.Errorf("cold run: %w", err)
		}
		var ns int64
		if _, err := fmt.Sscan(string(b), &ns); err != nil {
			return nil, fmt.Errorf("cold run printed %q: %w", b, err)
		}
		out = append(out, sample{cpu: time.Duration(ns)})
	}
	return out, nil
}

// simulateCold sets the collector as the CLI does, reads the trace as the
// CLI does (ScanSWF into a batch.SWFBuilder), and prints the CPU time of one batch.Simulate in ns: the simulation in a
// fresh process, its memory new to it, as in the CLI's.
func simulateCold(policy, trace string) error {
	f, err := os.Open(trace)
	if err != nil {
		return err
	}
	defer f.Close()
	defer execute.OneShot(solvers.Budget{})()
	// The trace read as the CLI reads it: records straight into the jobs.
	ctx, name := context.Background(), filepath.Base(trace)
	b := batch.NewSWFBuilder(ctx, name, batch.SWFOptions{})
	sum, err := formats.ScanSWF(ctx, name, f, formats.SWFLimits{}, b.Add)
	if err != nil {
		return err
	}
	sj, err := b.Finish(&sum.Header)
	if err != nil {
		return err
	}
	c0 := cpuNow()
	if _, err := batch.Simulate(context.Background(), sj.Jobs, sj.Procs, batch.Policy(policy), nil); err != nil {
		return err
	}
	fmt.Println(int64(cpuNow() - c0))
	return nil
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(s []sample, f func(sample) time.Duration) time.Duration {
	v := make([]time.Duration, len(s))
	for i, x := range s {
		v[i] = f(x)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
