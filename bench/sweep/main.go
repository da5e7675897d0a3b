// Command sweep measures what a sweep of many short runs costs the
// schedlab server, through the real path: a `schedlab serve` process
// (its embedded NATS, SQLite), an experiment POSTed to its API, and
// either its own local worker processes (--workers N) or in-process fake
// workers (--fake N) that take batches and answer every run done with no
// work at all: the server's own ceiling. It prints the runs per second,
// the server's CPU per run and the workers' CPU per run (each process's
// user + system time, from /proc, over the sweep).
//
// The no-op runs are those of the queue's test strategy qtest (variant
// ok, ms=0), which a binary has only when built with -tags
// schedlab_bench:
//
//	go build -tags schedlab_bench -o /tmp/schedlab-bench ./cmd/schedlab
//	go run ./bench/sweep -bin /tmp/schedlab-bench -def noop -runs 10000 -workers 1
//	go run ./bench/sweep -bin /tmp/schedlab-bench -def noop -runs 10000 -fake 16
//	go run ./bench/sweep -bin /tmp/schedlab -def eapm -workers 2
//
// -def eapm is the 1,000-run EAPM sweep (zhang2022-case2, 30 users, 50
// instances × 2 variants × 10 γ), which any build has. Figures:
// bench/README.md, "queue".
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"schedlab/buildinfo"
	"schedlab/queue/wire"
	"schedlab/runtypes"
)

func main() {
	bin := flag.String("bin", "", "the schedlab binary (built with -tags schedlab_bench for -def noop)")
	def := flag.String("def", "noop", "noop (qtest's no-op runs) or eapm (the 1,000-run EAPM sweep)")
	runs := flag.Int("runs", 10000, "runs of the noop sweep")
	workers := flag.Int("workers", 0, "local worker processes of the server")
	fake := flag.Int("fake", 0, "in-process fake workers (no work: every run done at once)")
	flag.Parse()
	if *bin == "" || (*workers == 0) == (*fake == 0) {
		log.Fatal("usage: sweep -bin SCHEDLAB [-def noop|eapm] [-runs N] (-workers N | -fake N)")
	}
	var body string
	switch *def {
	case "noop":
		body = fmt.Sprintf(`{"name": "noop", "strategy": "qtest", "workload": {"preset": "tiny"}, "variants": ["ok"],
 "grid": {"i": {"from": 0, "to": %d}}, "replicates": 1, "seed": 1}`, *runs-1)
	case "eapm":
		body = `{"name": "bench", "strategy": "eapm",
 "workload": {"preset": "zhang2022-case2", "grid": {"n": [30], "instance": {"from": 0, "to": 49}}},
 "variants": ["online", "greedy-min-energy"],
 "grid": {"gamma": [1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0]},
 "replicates": 1, "seed": 1}`
	default:
		log.Fatalf("-def %q: noop or eapm", *def)
	}
	if err := bench(*bin, body, *workers, *fake); err != nil {
		log.Fatal(err)
	}
}

func bench(bin, def string, workers, fake int) error {
	dir, err := os.MkdirTemp("", "sweep-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, "serve", "--addr", addr, "--db", filepath.Join(dir, "bench.db"), "--workers", strconv.Itoa(workers))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	natsLine := regexp.MustCompile(`--nats (\S+) --creds (\S+)`)
	found := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := natsLine.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1:]:
				default:
				}
			}
		}
	}()
	base := "http://" + addr
	var nc []string
	select {
	case nc = <-found:
	case <-time.After(time.Minute):
		return errors.New("the server did not say where its NATS is")
	}
	if err := waitHTTP(base); err != nil {
		return err
	}
	stopFakes := func() {}
	want := workers
	if fake > 0 {
		want = fake
		if stopFakes, err = startFakes(nc[0], nc[1], fake); err != nil {
			return err
		}
	}
	defer stopFakes()
	pids, err := waitWorkers(base, want)
	if err != nil {
		return err
	}
	if fake > 0 {
		pids = nil // in this process
	}
	server0, workers0 := cpu(cmd.Process.Pid), cpuOf(pids)
	start := time.Now()
	var accepted time.Time
	var serverAccepted time.Duration
	n, err := sweep(base, def, func() { accepted, serverAccepted = time.Now(), cpu(cmd.Process.Pid) })
	if err != nil {
		return err
	}
	wall := time.Since(start)
	server, work := cpu(cmd.Process.Pid)-server0, cpuOf(pids)-workers0
	create := serverAccepted - server0
	out, _ := exec.Command("uptime").Output()
	fmt.Printf("runs %d  workers %d  fake %d  wall %.2f s  runs/s %.0f  server CPU %.3f ms/run (%.2f s; storing the experiment %.2f s in %.2f s wall, then %.3f ms/run)",
		n, workers, fake, wall.Seconds(), float64(n)/wall.Seconds(), server.Seconds()*1000/float64(n), server.Seconds(),
		create.Seconds(), accepted.Sub(start).Seconds(), (server-create).Seconds()*1000/float64(n))
	if fake == 0 {
		fmt.Printf("  worker CPU %.3f ms/run (%.2f s)", work.Seconds()*1000/float64(n), work.Seconds())
	}
	fmt.Printf("  load: %s", strings.TrimSpace(string(out)))
	fmt.Println()
	return nil
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func waitHTTP(base string) error {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/api/workers"); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("the server never answered")
}

// waitWorkers waits until n workers have joined and returns their PIDs.
func waitWorkers(base string, n int) ([]int, error) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(base + "/api/workers")
		if err != nil {
			return nil, err
		}
		var ws struct {
			Workers []struct {
				PID int `json:"pid"`
			} `json:"workers"`
		}
		err = json.NewDecoder(resp.Body).Decode(&ws)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(ws.Workers) >= n {
			var pids []int
			for _, w := range ws.Workers {
				pids = append(pids, w.PID)
			}
			return pids, nil
		}
	}
	return nil, fmt.Errorf("fewer than %d workers joined", n)
}

// sweep posts def and waits until its experiment's runs have ended; it
// returns how many there were. stored is called once the POST returned
// (the experiment and its runs are stored).
func sweep(base, def string, stored func()) (int, error) {
	resp, err := http.Post(base+"/api/experiments", "application/json", strings.NewReader(def))
	if err != nil {
		return 0, err
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var e struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(b, &e); err != nil || e.ID == "" {
		return 0, fmt.Errorf("POST /api/experiments: %d %s", resp.StatusCode, b)
	}
	stored()
	for deadline := time.Now().Add(30 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(base + "/api/experiments/" + e.ID)
		if err != nil {
			return 0, err
		}
		var st struct {
			Status string `json:"status"`
			Total  int    `json:"runs_total"`
			Done   int    `json:"runs_done"`
			Failed int    `json:"runs_failed"`
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			return 0, err
		}
		if st.Status == "done" {
			if st.Failed > 0 || st.Done != st.Total {
				return 0, fmt.Errorf("%d of %d runs done, %d failed", st.Done, st.Total, st.Failed)
			}
			return st.Done, nil
		}
	}
	return 0, errors.New("the sweep did not end within 30 min")
}

// cpu is process pid's user + system time so far.
func cpu(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

func cpuOf(pids []int) time.Duration {
	var t time.Duration
	for _, p := range pids {
		t += cpu(p)
	}
	return t
}

// startFakes starts n fake workers: each takes one message at a time
// (a run or a batch) and answers each of its runs done with a one-metric
// report, all of a batch's in one Results message, as a worker does.
func startFakes(url, creds string, n int) (func(), error) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var conns []*nats.Conn
	var served atomic.Int64
	for i := range n {
		name := fmt.Sprintf("fake-%d", i)
		c, key, err := wire.ConnectWorker(url, creds, name)
		if err != nil {
			cancel()
			return nil, err
		}
		conns = append(conns, c)
		js, err := jetstream.New(c)
		if err != nil {
			cancel()
			return nil, err
		}
		cons, err := js.Consumer(ctx, wire.RunsStream, wire.RunsConsumer)
		if err != nil {
			cancel()
			return nil, err
		}
		hb, _ := json.Marshal(wire.Heartbeat{WorkerStatus: runtypes.WorkerStatus{Name: name, Host: "fake", PID: os.Getpid(), Concurrency: 1,
			Started: time.Now()}, Interval: wire.DefaultHeartbeatInterval})
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(wire.DefaultHeartbeatInterval)
			defer t.Stop()
			for {
				c.Publish(wire.HeartbeatSubject, hb)
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
			}
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				m, err := cons.Next(jetstream.FetchMaxWait(time.Second))
				if err != nil {
					continue
				}
				var job wire.Job
				if json.Unmarshal(m.Data(), &job) != nil {
					m.Term()
					continue
				}
				jobs := []wire.Job{job}
				if job.Kind == wire.KindBatch {
					jobs = job.Runs
				}
				var ends []wire.Result
				for _, j := range jobs {
					ends = append(ends, wire.Result{ID: j.ID, Worker: name, Status: runtypes.StatusDone,
						Report:   json.RawMessage(`{"metrics":[{"name":"objective","value":1,"better":"higher"}]}`),
						Dispatch: j.Dispatch, Claim: j.Claim, StartedAt: time.Now(), Build: buildinfo.Current(), Elapsed: time.Microsecond})
				}
				var b []byte
				if len(ends) == 1 {
					b, _ = json.Marshal(ends[0])
				} else {
					b, _ = json.Marshal(wire.Results{Ends: ends})
				}
				subj := wire.ResultSubjectPrefix + ends[0].ID
				if key != "" {
					subj = wire.ResultSubjectPrefix + key + "." + ends[0].ID
				}
				id := wire.ResultMsgID(ends[0].ID, ends[0].Claim) + "." + strconv.Itoa(len(ends))
				if _, err := js.Publish(ctx, subj, b, jetstream.WithMsgID(id)); err != nil {
					m.Nak()
					continue
				}
				m.Ack()
				served.Add(int64(len(ends)))
			}
		}()
	}
	return func() {
		cancel()
		wg.Wait()
		for _, c := range conns {
			c.Close()
		}
	}, nil
}
