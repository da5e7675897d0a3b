package queue_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"schedlab/queue"
	"schedlab/queue/queuetest"
	"schedlab/queue/wire"
	qworker "schedlab/queue/worker"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/store"
)

// workerEnv, set in a process's environment, makes this test binary a
// worker process (worker.Main with queuetest.Lookup) instead of running
// the tests: the tests start it as their real worker processes. One binary
// already linked, instead of a `go build` of a separate worker command at
// every run of the package (some 3 s of the -short tier, issue 41).
const workerEnv = "SCHEDLAB_QUEUE_TEST_WORKER"

// workerBin is this test binary, which startWorker runs as a worker.
var workerBin string

// parallelTests is how many parallel tests the package runs at once when
// -test.parallel is not given (go test's default is GOMAXPROCS): its
// tests mostly wait, for JetStream's AckWait and for worker processes,
// rather than compute, so on 2 cores the default of 2 left the CPU idle
// for most of the package's time.
const parallelTests = 8

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := qworker.Main(ctx, os.Args[1:], queuetest.Lookup, os.Stderr)
		stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "test worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "the test binary's path:", err)
		os.Exit(1)
	}
	workerBin = exe
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(max(parallelTests, runtime.GOMAXPROCS(0))))
	}
	os.Exit(m.Run())
}

// Short intervals so that deaths and restarts show within a test.
const (
	testAckWait   = 2 * time.Second
	testHeartbeat = 200 * time.Millisecond
)

// server is the schedlab server side: an embedded NATS server, the store,
// a Dispatcher and the runner over it, all in this process.
type server struct {
	dir  string
	addr string
	emb  *queue.Embedded
	st   *store.Store
	nc   *nats.Conn
	d    *queue.Dispatcher
	rn   *runner.Runner
	// exp is the ID of the experiment sweep stored last.
	exp string
	// log is what the dispatcher logged.
	log *lockedBuilder
}

// startServer starts a server on dir (the same dir again: a restart)
// listening on addr ("" for a free port).
func startServer(t testing.TB, dir, addr string) *server {
	t.Helper()
	return startServerBudget(t, dir, addr, 1<<30)
}

// startServerBudget is startServer with a memory budget of memory bytes per run.
func startServerBudget(t testing.TB, dir, addr string, memory int64) *server {
	t.Helper()
	return startServerWith(t, dir, addr, memory, queue.EmbeddedOptions{})
}

// startServerWith is startServerBudget with the embedded server's options
// opt (its Dir and Listen are set here).
func startServerWith(t testing.TB, dir, addr string, memory int64, opt queue.EmbeddedOptions) *server {
	t.Helper()
	if addr == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr = ln.Addr().String()
		ln.Close()
	}
	opt.Dir, opt.Listen = filepath.Join(dir, "nats"), addr
	emb, err := queue.StartEmbedded(opt)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	nc, err := emb.Connect("test server")
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuilder{&sync.Mutex{}, &strings.Builder{}}
	d := queue.NewDispatcher(st, nc, queue.Config{AckWait: testAckWait, HeartbeatInterval: testHeartbeat,
		PollInterval: 200 * time.Millisecond, Budget: solvers.Budget{Timeout: time.Minute, Memory: memory},
		Logger: slog.New(slog.NewTextHandler(io.MultiWriter(logs, os.Stderr), nil))})
	rn := runner.New(st, queuetest.Lookup, runner.Options{Backend: d, Timeout: time.Minute, MemoryBudget: memory})
	if err := rn.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := &server{dir: dir, addr: addr, emb: emb, st: st, nc: nc, d: d, rn: rn, log: logs}
	t.Cleanup(s.stop)
	return s
}

// stop shuts the server down (again: no-op).
func (s *server) stop() {
	if s.emb == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.rn.Shutdown(ctx)
	s.nc.Close()
	s.st.Close()
	s.emb.Shutdown()
	s.emb = nil
}

// worker is a testworker process.
type worker struct {
	cmd    *exec.Cmd
	exited chan struct{}
	stderr *strings.Builder
	mu     *sync.Mutex
}

type lockedBuilder struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (l lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startWorker starts a worker process connected to s; logFile records its executions.
func startWorker(t testing.TB, s *server, logFile string, args ...string) *worker {
	t.Helper()
	w := &worker{exited: make(chan struct{}), stderr: &strings.Builder{}, mu: &sync.Mutex{}}
	w.cmd = exec.Command(workerBin, append([]string{"--nats", "nats://" + s.addr, "--creds", s.emb.SeedFile,
		"--heartbeat", testHeartbeat.String()}, args...)...)
	w.cmd.Env = append(os.Environ(), queuetest.LogEnv+"="+logFile, workerEnv+"=1")
	w.cmd.Stderr = lockedBuilder{w.mu, w.stderr}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.cmd.Wait(); close(w.exited) }()
	t.Cleanup(func() {
		w.cmd.Process.Kill()
		<-w.exited
		if t.Failed() {
			w.mu.Lock()
			t.Logf("worker %d stderr:\n%s", w.cmd.Process.Pid, w.stderr.String())
			w.mu.Unlock()
		}
	})
	return w
}

// sweep stores n runs of variant (params i = 0..n-1 plus extra) as one
// experiment, as the experiments handler does, and wakes the runner.
func sweep(t testing.TB, s *server, n int, variant string, extra map[string]string) []string {
	t.Helper()
	return sweepOn(t, s.st, s.rn, func(id string) { s.exp = id }, n, variant, extra)
}

// sweepOn stores the sweep of sweep in st through rn; stored gets the
// experiment's ID.
func sweepOn(t testing.TB, st *store.Store, rn *runner.Runner, stored func(string), n int, variant string, extra map[string]string) []string {
	t.Helper()
	ctx := context.Background()
	w, err := queuetest.Strategy.Generate(ctx, "tiny", map[string]string{"n": "4"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	sw := &runtypes.Workload{Strategy: queuetest.Name, Name: w.Name, Format: w.Format, Summary: w.Summary, Data: w.Data}
	if err := st.CreateWorkload(ctx, sw); err != nil {
		t.Fatal(err)
	}
	runs := make([]*runtypes.Run, n)
	cells := make([]store.ExperimentCell, n)
	for i := range runs {
		p := map[string]string{"i": strconv.Itoa(i)}
		for k, v := range extra {
			p[k] = v
		}
		r, err := rn.Prepare(ctx, &runtypes.Run{WorkloadID: sw.ID, Strategy: queuetest.Name, Variant: variant, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = r
		cells[i] = store.ExperimentCell{Cell: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}
	}
	e := &store.Experiment{Name: "sweep", Strategy: queuetest.Name, Definition: json.RawMessage(`{}`)}
	if err := st.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	stored(e.ID)
	rn.Wake()
	ids := make([]string, n)
	for i, r := range runs {
		ids[i] = r.ID
	}
	return ids
}

// waitFinal waits until every run of ids is final and returns them.
func waitFinal(t testing.TB, st *store.Store, ids []string, within time.Duration) map[string]*runtypes.Run {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		out := map[string]*runtypes.Run{}
		pending := 0
		for _, id := range ids {
			r, err := st.GetRunInfo(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			out[id] = r
			if !runtypes.Final(r.Status) {
				pending++
			}
		}
		if pending == 0 {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d runs not final after %v", pending, len(ids), within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// executions reads a log of executions: how often each tag ran, and by which pids.
func executions(t testing.TB, file string) (map[int]int, map[int]bool) {
	t.Helper()
	count, pids := map[int]int{}, map[int]bool{}
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return count, pids
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var i, pid int
		if _, err := fmt.Sscan(sc.Text(), &i, &pid); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		count[i]++
		pids[pid] = true
	}
	return count, pids
}

// TestWorkersDrainSweep: N worker processes drain a 1,000-run sweep, every
// run done exactly once, its report stored and its worker named.
func TestWorkersDrainSweep(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	const n, workers = 1000, 3
	for range workers {
		startWorker(t, s, log, "--concurrency", "2")
	}
	ids := sweep(t, s, n, queuetest.VariantOK, nil)
	runs := waitFinal(t, s.st, ids, time.Minute)
	names := map[string]bool{}
	for _, r := range runs {
		if r.Status != runtypes.StatusDone {
			t.Fatalf("run %s: %s %s", r.ID, r.Status, r.Error)
		}
		if r.Worker == "" {
			t.Fatalf("run %s names no worker", r.ID)
		}
		// Started by its worker, not when the dispatcher claimed it.
		if r.StartedAt == nil || r.FinishedAt == nil || r.StartedAt.Before(r.CreatedAt) || r.FinishedAt.Before(*r.StartedAt) {
			t.Fatalf("run %s: created %v, started %v, finished %v", r.ID, r.CreatedAt, r.StartedAt, r.FinishedAt)
		}
		names[r.Worker] = true
	}
	if len(names) != workers {
		t.Errorf("runs executed by %d workers, want all %d: %v", len(names), workers, names)
	}
	count, pids := executions(t, log)
	if len(count) != n {
		t.Fatalf("%d distinct runs executed, want %d", len(count), n)
	}
	for i, c := range count {
		if c != 1 {
			t.Errorf("run i=%d executed %d times", i, c)
		}
	}
	if len(pids) != workers {
		t.Errorf("%d worker processes executed runs, want %d", len(pids), workers)
	}
	r, err := s.st.GetRun(context.Background(), ids[7])
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Metrics []struct{ Value float64 }
	}
	if err := json.Unmarshal(r.Report, &rep); err != nil || len(rep.Metrics) != 1 || rep.Metrics[0].Value != 4+7 {
		t.Fatalf("report of i=7: %s (%v), want objective 11", r.Report, err)
	}
	ws := s.rn.Workers()
	if len(ws) != workers {
		t.Fatalf("Workers() lists %d, want %d: %+v", len(ws), workers, ws)
	}
	for _, w := range ws {
		if w.Concurrency != 2 || w.Lost || !names[w.Name] {
			t.Errorf("worker %+v: want concurrency 2, alive, and among the runs' workers", w)
		}
	}
}

// waitRunning waits until run id is running on a worker and returns the
// worker's name.
func waitRunning(t testing.TB, s *server, id string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, w := range s.rn.Workers() {
			for _, r := range w.Running {
				if r == id {
					return w.Name
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("run %s never ran on a worker", id)
	return ""
}

// waitExecuted waits until run i of the sweep has begun executing: its line
// is in the execution log.
func waitExecuted(t testing.TB, log string, i int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if count, _ := executions(t, log); count[i] > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("run %d never began executing", i)
}

// TestKilledWorkerRunRedelivered: a worker killed with SIGKILL mid-run
// loses its run to another worker, which finishes it.
func TestKilledWorkerRunRedelivered(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	a := startWorker(t, s, log)
	ids := sweep(t, s, 1, queuetest.VariantOK, map[string]string{"ms": "1500"})
	first := waitRunning(t, s, ids[0])
	// The worker says it runs the run before the run's code has begun (and
	// logged its execution): on a busy machine a kill in between was the
	// run's only execution.
	waitExecuted(t, log, 0)
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-a.exited
	b := startWorker(t, s, log)
	r := waitFinal(t, s.st, ids, 30*time.Second)[ids[0]]
	if r.Status != runtypes.StatusDone {
		t.Fatalf("run ended %s (%s), want done", r.Status, r.Error)
	}
	second := fmt.Sprintf("%s:%d", mustHost(t), b.cmd.Process.Pid)
	if r.Worker != second || r.Worker == first {
		t.Errorf("run finished by %q, want the second worker %q (the first was %q)", r.Worker, second, first)
	}
	if count, _ := executions(t, log); count[0] != 2 {
		t.Errorf("run executed %d times, want 2 (killed, then redelivered)", count[0])
	}
}

func mustHost(t testing.TB) string {
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestDyingRunFailsAfterMaxDeliver: a run that kills every worker it is
// given (as an out-of-memory kill would) fails with "worker died: ..."
// after MaxDeliver deliveries, and is not given to a fourth worker.
func TestDyingRunFailsAfterMaxDeliver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	for range queue.DefaultMaxDeliver + 1 {
		startWorker(t, s, log)
	}
	ids := sweep(t, s, 1, queuetest.VariantDie, nil)
	r := waitFinal(t, s.st, ids, 30*time.Second)[ids[0]]
	if r.Status != runtypes.StatusFailed || !strings.HasPrefix(r.Error, "worker died: ") {
		t.Fatalf("run ended %s (%q), want failed with worker died: ...", r.Status, r.Error)
	}
	if !strings.Contains(r.Error, fmt.Sprintf("%d times", queue.DefaultMaxDeliver)) || r.Worker == "" {
		t.Errorf("message %q (worker %q) should say how often it was given and name the last worker", r.Error, r.Worker)
	}
	time.Sleep(testAckWait + time.Second) // a fourth delivery would come by now
	if count, _ := executions(t, log); count[0] != queue.DefaultMaxDeliver {
		t.Errorf("run executed %d times, want MaxDeliver = %d", count[0], queue.DefaultMaxDeliver)
	}
	// The server serves on: the next run is done by the surviving worker.
	ids = sweep(t, s, 1, queuetest.VariantOK, nil)
	if r := waitFinal(t, s.st, ids, 30*time.Second)[ids[0]]; r.Status != runtypes.StatusDone {
		t.Fatalf("next run ended %s (%s), want done", r.Status, r.Error)
	}
}

// TestMaxDeliveriesWhileTheServerIsDown: a run whose every delivery dies
// while the server is down (its dispatcher and runner stopped, NATS up, as
// with an external NATS deployment or during a restart) still fails with
// "worker died: ..." once the server is back: JetStream's MAX_DELIVERIES
// advisory, a core message nobody was there to hear, is kept in
// AdvisoriesStream until the server takes it.
func TestMaxDeliveriesWhileTheServerIsDown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	ids := sweep(t, s, 1, queuetest.VariantDie, nil)
	waitPublished(t, s, ids[0])
	s.downKeepingNATS(t)
	for range queue.DefaultMaxDeliver + 1 {
		startWorker(t, s, log)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if count, _ := executions(t, log); count[0] >= queue.DefaultMaxDeliver {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run was not given to a worker MaxDeliver times")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// JetStream sends the advisory when the last delivery's AckWait runs
	// out: by now it has, to nobody.
	time.Sleep(testAckWait + 2*time.Second)
	if r, err := s.st.GetRun(context.Background(), ids[0]); err != nil || r.Status != runtypes.StatusRunning {
		t.Fatalf("before the server is back the run is %v (%v), want running", r, err)
	}
	s.upAgain(t)
	r := waitFinal(t, s.st, ids, 30*time.Second)[ids[0]]
	if r.Status != runtypes.StatusFailed || !strings.HasPrefix(r.Error, "worker died: ") {
		t.Fatalf("run ended %s (%q), want failed with worker died: ...", r.Status, r.Error)
	}
	if count, _ := executions(t, log); count[0] != queue.DefaultMaxDeliver {
		t.Errorf("run executed %d times, want MaxDeliver = %d", count[0], queue.DefaultMaxDeliver)
	}
}

// waitPublished waits until run id's message is in RunsStream, and
// returns it.
func waitPublished(t testing.TB, s *server, id string) *jetstream.RawStreamMsg {
	t.Helper()
	js, err := jetstream.New(s.nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stream, err := js.Stream(ctx, wire.RunsStream)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if raw, err := stream.GetLastMsgForSubject(ctx, "schedlab.run."+id); err == nil {
			return raw
		}
	}
	t.Fatal("the run was never published")
	return nil
}

// downKeepingNATS stops the server's runner and dispatcher, and closes its
// connection; the embedded NATS server and the store stay.
func (s *server) downKeepingNATS(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.rn.Shutdown(ctx)
	s.nc.Close()
}

// upAgain starts a new dispatcher and runner on the same NATS and store.
func (s *server) upAgain(t testing.TB) {
	t.Helper()
	nc, err := s.emb.Connect("test server")
	if err != nil {
		t.Fatal(err)
	}
	s.nc = nc
	s.d = queue.NewDispatcher(s.st, nc, queue.Config{AckWait: testAckWait, HeartbeatInterval: testHeartbeat,
		PollInterval: 200 * time.Millisecond, Budget: solvers.Budget{Timeout: time.Minute, Memory: 1 << 30}})
	s.rn = runner.New(s.st, queuetest.Lookup, runner.Options{Backend: s.d, Timeout: time.Minute, MemoryBudget: 1 << 30})
	if err := s.rn.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestRepeatedPublishOneRun: the same run published twice (a dispatcher
// retry after a lost acknowledgement) executes once.
func TestRepeatedPublishOneRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	ids := sweep(t, s, 1, queuetest.VariantOK, nil)
	raw := waitPublished(t, s, ids[0])
	js, err := jetstream.New(s.nc)
	if err != nil {
		t.Fatal(err)
	}
	ack, err := js.Publish(context.Background(), raw.Subject, raw.Data, jetstream.WithMsgID(ids[0]))
	if err != nil {
		t.Fatal(err)
	}
	if !ack.Duplicate {
		t.Errorf("the repeated publish was not seen as a duplicate: %+v", ack)
	}
	startWorker(t, s, log)
	if r := waitFinal(t, s.st, ids, 30*time.Second)[ids[0]]; r.Status != runtypes.StatusDone {
		t.Fatalf("run ended %s (%s)", r.Status, r.Error)
	}
	time.Sleep(500 * time.Millisecond)
	if count, _ := executions(t, log); count[0] != 1 {
		t.Errorf("run executed %d times, want 1", count[0])
	}
}

// TestCancelReachesWorker: cancel of a run a worker process executes stops
// it there, and the worker stores it canceled.
func TestCancelReachesWorker(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	startWorker(t, s, log)
	ids := sweep(t, s, 1, queuetest.VariantWait, nil)
	name := waitRunning(t, s, ids[0])
	// A second run waits in the stream: the only worker is busy. Canceled,
	// it ends at once (no worker answers) and never executes.
	waiting := sweep(t, s, 1, queuetest.VariantOK, map[string]string{"i": "7"})
	if err := s.rn.Cancel(context.Background(), waiting[0]); err != nil {
		t.Fatal(err)
	}
	if r, err := s.st.GetRunInfo(context.Background(), waiting[0]); err != nil || r.Status != runtypes.StatusCanceled || r.Worker != "" {
		t.Fatalf("waiting run after cancel: %+v %v, want canceled by no worker", r, err)
	}
	start := time.Now()
	if err := s.rn.Cancel(context.Background(), ids[0]); err != nil {
		t.Fatal(err)
	}
	r := waitFinal(t, s.st, ids, 20*time.Second)[ids[0]]
	if r.Status != runtypes.StatusCanceled || r.Error != runtypes.MsgCanceled {
		t.Fatalf("run ended %s (%s), want canceled", r.Status, r.Error)
	}
	// The worker stored it (the server's own fallback waits 10 s and names none).
	if took := time.Since(start); took > 5*time.Second || r.Worker != name {
		t.Errorf("canceled after %v by worker %q, want at once by %q", took, r.Worker, name)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ws := s.rn.Workers()
		if len(ws) == 1 && len(ws[0].Running) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker still runs the canceled run: %+v", ws)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := s.rn.Cancel(context.Background(), ids[0]); err == nil {
		t.Error("cancel of a canceled run: want a conflict")
	}
	time.Sleep(500 * time.Millisecond) // the worker is free: it would take the waiting run now
	if count, _ := executions(t, log); count[7] != 0 {
		t.Errorf("the run canceled while waiting executed %d times", count[7])
	}
}

// TestServerRestartMidSweep: the server (NATS included) stops mid-sweep
// and starts again on the same directory; the workers reconnect and the
// sweep finishes, each run stored once and done.
func TestServerRestartMidSweep(t *testing.T) {
	// Parallel with the rest: it mostly waits (up to the results
	// consumer's 30 s AckWait for a result the stopped server had been
	// given). Its restart takes its old port again, as startServer takes
	// a port it found free: another test binding it in between is the
	// same small risk every startServer runs.
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	for range 2 {
		startWorker(t, s, log, "--concurrency", "2")
	}
	const n = 300
	ids := sweep(t, s, n, queuetest.VariantOK, map[string]string{"ms": "20"})
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, _ := executions(t, log)
		if len(c) >= n/3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sweep did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.stop()
	before, _ := executions(t, log)
	if len(before) == n {
		t.Fatal("the sweep finished before the restart: make it longer")
	}
	time.Sleep(300 * time.Millisecond)
	s = startServer(t, dir, s.addr)
	runs := waitFinal(t, s.st, ids, time.Minute)
	for _, r := range runs {
		if r.Status != runtypes.StatusDone {
			t.Fatalf("run %s: %s %s", r.ID, r.Status, r.Error)
		}
	}
	count, _ := executions(t, log)
	again := 0
	for i := range n {
		switch c := count[i]; {
		case c == 0:
			t.Errorf("run i=%d never executed", i)
		case c > 1:
			again++
		}
	}
	t.Logf("%d of %d runs executed before the restart, %d executed twice", len(before), n, again)
	if again > 4 { // at most those in flight on the 2 × 2 slots
		t.Errorf("%d runs executed more than once, want at most the 4 in flight", again)
	}
}

// TestMemoryBudgetInWorker: a run that outgrows the memory budget is
// stopped by its worker process, which stays up and executes the next run.
func TestMemoryBudgetInWorker(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServerBudget(t, dir, "", 64<<20)
	w := startWorker(t, s, filepath.Join(dir, "exec.log"))
	ids := sweep(t, s, 1, queuetest.VariantGrow, nil)
	r := waitFinal(t, s.st, ids, 30*time.Second)[ids[0]]
	if r.Status != runtypes.StatusFailed || r.Error != "run stopped: Go heap exceeded the memory budget of 64 MiB" {
		t.Fatalf("run ended %s (%q), want failed over the budget", r.Status, r.Error)
	}
	ids = sweep(t, s, 1, queuetest.VariantOK, nil)
	if r := waitFinal(t, s.st, ids, 30*time.Second)[ids[0]]; r.Status != runtypes.StatusDone || r.Worker != fmt.Sprintf("%s:%d", mustHost(t), w.cmd.Process.Pid) {
		t.Fatalf("next run: %s by %q (%s), want done by the same worker", r.Status, r.Worker, r.Error)
	}
}

// TestWorkerFlags: the worker command refuses bad flags naming them.
func TestWorkerFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "--nats: missing"},
		{[]string{"--nats", "nats://127.0.0.1:1", "--concurrency", "0"}, "--concurrency: must be at least 1"},
		{[]string{"--nats", "nats://127.0.0.1:1", "--exit-when-idle", "-1s"}, "--exit-when-idle: must not be negative"},
		{[]string{"--nats", "nats://127.0.0.1:1", "--creds", "/nonexistent/worker.nk"}, "--creds"},
	} {
		err := qworker.Main(context.Background(), c.args, queuetest.Lookup, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("worker %v: %v, want an error with %q", c.args, err, c.want)
		}
	}
}

// TestExitWhenIdle: a worker with --exit-when-idle leaves once it has had
// nothing to do for that long, and says so (its heartbeat says leaving).
func TestExitWhenIdle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	w := startWorker(t, s, filepath.Join(dir, "exec.log"), "--exit-when-idle", "1s")
	ids := sweep(t, s, 3, queuetest.VariantOK, nil)
	waitFinal(t, s.st, ids, 30*time.Second)
	select {
	case <-w.exited:
	case <-time.After(15 * time.Second):
		t.Fatal("the idle worker did not exit")
	}
	if code := w.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(s.rn.Workers()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the worker that left is still listed: %+v", s.rn.Workers())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestKilledWorkerHoldingABatch: a worker killed with SIGKILL in the
// middle of a batch of short runs loses nothing: its batch goes to
// another worker, every run ends done, and no run whose end was stored
// before the kill is executed again (the second worker asks which runs of
// the batch are left, wire.PendingSubject).
func TestKilledWorkerHoldingABatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, "")
	log := filepath.Join(dir, "exec.log")
	a := startWorker(t, s, log)
	const n = 400
	ids := sweep(t, s, n, queuetest.VariantOK, map[string]string{"ms": "5"})
	// Batches form once runs have ended (their time sizes them): kill
	// the worker once a good part of the sweep is done.
	ctx := context.Background()
	for {
		_, done, _, _, err := s.st.ExperimentProgress(ctx, s.exp)
		if err != nil {
			t.Fatal(err)
		}
		if done >= n/4 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-a.exited
	atKill, _ := executions(t, log)
	before := map[int]bool{} // runs whose end was stored before the kill
	for i, id := range ids {
		r, err := s.st.GetRunInfo(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == runtypes.StatusDone {
			before[i] = true
		}
	}
	startWorker(t, s, log)
	runs := waitFinal(t, s.st, ids, time.Minute)
	for _, r := range runs {
		if r.Status != runtypes.StatusDone {
			t.Fatalf("run %s: %s %s", r.ID, r.Status, r.Error)
		}
	}
	count, _ := executions(t, log)
	twice := 0
	for i := range n {
		switch c := count[i]; {
		case c == 0:
			t.Errorf("run i=%d never executed", i)
		case c > 2:
			t.Errorf("run i=%d executed %d times", i, c)
		case c == 2 && before[i]:
			t.Errorf("run i=%d was stored done before the kill and executed again", i)
		case c == 2:
			twice++
		}
	}
	// Only the killed batch's runs not stored yet execute again.
	if twice > 64 {
		t.Errorf("%d runs executed twice: more than one batch", twice)
	}
	t.Logf("%d runs executed and %d done before the kill, %d executed again", len(atKill), len(before), twice)
}
