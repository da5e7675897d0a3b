// Command dcop-peers runs schedlab's DPOP side by side with the public
// peers FRODO 2 (Java) and pyDCOP (Python) on one co-allocation instance,
// and prints each one's time, peak memory and optimum, and whether the
// optima agree (issue 23).
//
//	go run ./bench/dcop-peers -jobs 20 -seed 1
//	go run ./bench/dcop-peers -workload instance.json -keep /tmp/peers
//
// The instance is the namekata2008 preset (-jobs, -seed; the seed's
// setting) or a native JSON workload (-workload). It is exported with the
// package's own exports (FRODO XCSP 2.1 and pyDCOP YAML: the makespan
// objective, exactly, over the fit domain, with an auxiliary makespan
// variable; solvers/dcop/doc.go, "Export"), and ours solves the same model
// (objective makespan, domain fit) in this process on the pseudo-tree of
// -heuristic (default max-degree: most connected root and children first,
// the closest of ours to FRODO's default DFS; the trees still differ, see
// doc.go "The kernel").
//
// The peers are fetched and built outside the repository and never
// committed; they are found through environment variables:
//
//	FRODO_JAR        FRODO 2's jar (frodo2.*.jar with its lib/ beside it)
//	FRODO_AGENT      optional agent configuration (default: the jar's DPOPagent.xml)
//	FRODO_JAVA_OPTS  optional JVM options, space-separated (e.g. -Xmx12g)
//	JAVA             optional java executable (default java)
//	PYDCOP           the pydcop executable
//
// FRODO runs as java -cp $FRODO_JAR frodo2.algorithms.AgentFactory
// -timeout MS problem.xml [agent.xml] and its "Total optimal cost" line is
// the optimum; pyDCOP runs as pydcop -t SECONDS solve --algo dpop
// problem.yaml and its JSON "cost" is the optimum (a cost of BigM or more
// means no schedule). A peer that is not configured is reported as absent
// and the command still exits 0; a peer that fails or times out is
// reported with its stdout's last lines (its stderr is passed through). Times are wall-clock, peers'
// include their start-up (JVM, Python); peak memory is the child's maximum
// resident set (ours: this process's).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"schedlab/solvers"
	"schedlab/solvers/dcop"
)

type outcome struct {
	name    string
	absent  string // why the peer was not run
	failed  string
	optimum float64 // NaN when none (no schedule or no result)
	elapsed time.Duration
	maxRSS  int64 // bytes, 0 if unknown
	note    string
}

func main() {
	jobs := flag.Int("jobs", 20, "namekata2008 jobs (ignored with -workload)")
	seed := flag.Int64("seed", 1, "generator seed (ignored with -workload)")
	workload := flag.String("workload", "", "native JSON co-allocation workload instead of the preset")
	heuristic := flag.String("heuristic", dcop.HeuristicMaxDegree, "our pseudo-tree heuristic")
	timeout := flag.Duration("timeout", 600*time.Second, "time limit of each peer")
	memMB := flag.Int64("memory-mb", 4096, "our UTIL budget, MiB")
	keep := flag.String("keep", "", "write the exported files here (default: a temporary directory, removed)")
	flag.Parse()
	if err := run(*jobs, *seed, *workload, *heuristic, *timeout, *memMB, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "dcop-peers:", err)
		os.Exit(1)
	}
}

func run(jobs int, seed int64, workload, heuristic string, timeout time.Duration, memMB int64, keep string) error {
	in, w, err := instance(jobs, seed, workload)
	if err != nil {
		return err
	}
	dir := keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "dcop-peers-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	st := dcop.New()
	files := map[string]string{}
	for format, ext := range map[string]string{dcop.ExportFRODO: ".xml", dcop.ExportPyDCOP: ".yaml"} {
		b, _, err := st.ExportWorkload(w, format)
		if err != nil {
			return fmt.Errorf("export %s: %w", format, err)
		}
		files[format] = filepath.Join(dir, w.Name+ext)
		if err := os.WriteFile(files[format], b, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("instance %s: %d jobs, %d resources, horizon %d; exported to %s\n", w.Name, len(in.Jobs), len(in.Resources), in.Horizon, dir)
	fmt.Println("model: makespan objective over the fit domain (starts 1..T-L+1), as both exports write it")

	res := []outcome{ours(in, heuristic, memMB), frodo(files[dcop.ExportFRODO], timeout), pydcop(files[dcop.ExportPyDCOP], timeout)}
	fmt.Printf("\n%-8s %12s %12s %10s  %s\n", "solver", "time", "peak RSS", "optimum", "note")
	for _, r := range res {
		switch {
		case r.absent != "":
			fmt.Printf("%-8s %12s %12s %10s  absent: %s\n", r.name, "-", "-", "-", r.absent)
		case r.failed != "":
			fmt.Printf("%-8s %12s %12s %10s  failed: %s\n", r.name, r.elapsed.Round(time.Microsecond), mb(r.maxRSS), "-", r.failed)
		default:
			fmt.Printf("%-8s %12s %12s %10s  %s\n", r.name, r.elapsed.Round(time.Microsecond), mb(r.maxRSS), opt(r.optimum), r.note)
		}
	}
	base := res[0]
	for _, r := range res[1:] {
		if r.absent != "" || r.failed != "" || base.failed != "" {
			continue
		}
		agree := r.optimum == base.optimum || (math.IsNaN(r.optimum) && math.IsNaN(base.optimum))
		ratio := r.elapsed.Seconds() / base.elapsed.Seconds()
		fmt.Printf("%s vs ours: optima %s (%s vs %s), time ×%.3g\n", r.name, map[bool]string{true: "agree", false: "DISAGREE"}[agree], opt(r.optimum), opt(base.optimum), ratio)
	}
	return nil
}

// instance is the preset draw or the given workload, as a solvers.Workload
// for the exports.
func instance(jobs int, seed int64, path string) (*dcop.Instance, *solvers.Workload, error) {
	var data []byte
	name := fmt.Sprintf("namekata2008-%d-s%d", jobs, seed)
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		data, name = b, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	} else {
		in, err := dcop.GenerateContext(context.Background(), dcop.Namekata2008(jobs), rand.New(rand.NewSource(seed)))
		if err != nil {
			return nil, nil, err
		}
		if data, err = json.Marshal(in); err != nil {
			return nil, nil, err
		}
	}
	in, err := dcop.ParseJSON(data)
	if err != nil {
		return nil, nil, err
	}
	return in, &solvers.Workload{Name: name, Format: "json", Data: data}, nil
}

func ours(in *dcop.Instance, heuristic string, memMB int64) outcome {
	o := outcome{name: "schedlab", optimum: math.NaN()}
	start := time.Now()
	r, err := dcop.Solve(context.Background(), in, dcop.Options{Objective: dcop.ObjectiveMakespan, Domain: dcop.DomainFit, Heuristic: heuristic, MemoryBytes: memMB << 20})
	o.elapsed = time.Since(start)
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		o.maxRSS = ru.Maxrss * 1024
	}
	if err != nil {
		o.failed = err.Error()
		return o
	}
	if r.Feasible {
		o.optimum = r.Cost
	}
	o.note = fmt.Sprintf("DPOP on %s, width %d, %.4g join entries (%.3g M/s)", heuristic, r.Tree.Width(), r.Stats.JoinOps, r.Stats.JoinOps/o.elapsed.Seconds()/1e6)
	return o
}

func frodo(problem string, timeout time.Duration) outcome {
	o := outcome{name: "FRODO", optimum: math.NaN()}
	jar := os.Getenv("FRODO_JAR")
	if jar == "" {
		o.absent = "set FRODO_JAR to FRODO 2's jar"
		return o
	}
	if _, err := os.Stat(jar); err != nil {
		o.absent = err.Error()
		return o
	}
	java := os.Getenv("JAVA")
	if java == "" {
		java = "java"
	}
	if _, err := exec.LookPath(java); err != nil {
		o.absent = "no java: " + err.Error()
		return o
	}
	args := strings.Fields(os.Getenv("FRODO_JAVA_OPTS"))
	args = append(args, "-cp", jar, "frodo2.algorithms.AgentFactory", "-timeout", strconv.FormatInt(timeout.Milliseconds(), 10), problem)
	if a := os.Getenv("FRODO_AGENT"); a != "" {
		args = append(args, a)
	}
	out, err := runPeer(&o, timeout, java, args...)
	if err != nil {
		o.failed = fmt.Sprintf("%v: %s", err, tail(out))
		return o
	}
	m := regexp.MustCompile(`Total optimal (?:cost|utility): (\S+)`).FindSubmatch(out)
	if m == nil {
		o.failed = "no \"Total optimal cost\" line: " + tail(out)
		return o
	}
	v, perr := strconv.ParseFloat(string(m[1]), 64)
	if perr != nil || math.IsInf(v, 0) {
		o.note = "no schedule (cost " + string(m[1]) + ")"
		return o
	}
	o.optimum = v
	o.note = "AgentFactory, default DPOP agent unless FRODO_AGENT"
	return o
}

func pydcop(problem string, timeout time.Duration) outcome {
	o := outcome{name: "pyDCOP", optimum: math.NaN()}
	bin := os.Getenv("PYDCOP")
	if bin == "" {
		o.absent = "set PYDCOP to the pydcop executable"
		return o
	}
	if _, err := exec.LookPath(bin); err != nil {
		o.absent = err.Error()
		return o
	}
	secs := strconv.Itoa(int(math.Ceil(timeout.Seconds())))
	out, err := runPeer(&o, timeout+30*time.Second, bin, "-t", secs, "solve", "--algo", "dpop", problem)
	if err != nil && len(out) == 0 {
		o.failed = err.Error()
		return o
	}
	// the JSON result is stdout's first {...} block
	i := bytes.IndexByte(out, '{')
	var r struct {
		Status string  `json:"status"`
		Cost   float64 `json:"cost"`
	}
	if i < 0 || json.Unmarshal(out[i:], &r) != nil {
		o.failed = fmt.Sprintf("no JSON result (%v): %s", err, tail(out))
		return o
	}
	if r.Status != "FINISHED" {
		o.failed = "status " + r.Status
		return o
	}
	if r.Cost < dcop.BigM {
		o.optimum = r.Cost
		o.note = "solve --algo dpop"
	} else {
		o.note = "no schedule (cost ≥ big-M)"
	}
	return o
}

// runPeer runs a peer with a time limit, recording its wall time and peak
// resident set; it returns the peer's stdout (its stderr goes to ours, so
// that log lines never mix with a result).
func runPeer(o *outcome, limit time.Duration, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, os.Stderr
	start := time.Now()
	err := cmd.Run()
	o.elapsed = time.Since(start)
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			o.maxRSS = ru.Maxrss * 1024
		}
	}
	if ctx.Err() != nil {
		return buf.Bytes(), errors.New("timed out after " + limit.String())
	}
	return buf.Bytes(), err
}

func tail(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, " | ")
}

func mb(b int64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MB", float64(b)/1e6)
}

func opt(v float64) string {
	if math.IsNaN(v) {
		return "none"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
