package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"schedlab/bundle"
	"schedlab/runtypes"
	"schedlab/store"
)

// The server the hostile corpus runs against: its own limits are small so
// that a request at every limit finishes quickly, and the budget the RSS
// is held to is known.
const (
	hostileMemoryMB = 1024
	hostileUploadMB = 8
	// hostileRSSMargin is what the process may hold beyond its Go heap
	// budget: the runtime's own overhead and fragmentation, SQLite's page
	// cache, the binary, and the request buffers of the moment.
	hostileRSSMargin = 512 << 20
)

// server is the real schedlab binary serving a fresh database.
type server struct {
	cmd    *exec.Cmd
	base   string
	db     string
	stderr *bytes.Buffer
	exited chan error
}

// built is the binary buildBinary made, shared by the tests of the package
// (TestMain removes it).
var built struct {
	once     sync.Once
	dir, bin string
	err      error
	out      []byte
}

// slowTier skips t under go test -short: the quick tier leaves out the
// tests that build and serve the real binary or run a full experiment
// (minutes on a loaded machine); go test ./... and .ci/run run them.
func slowTier(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("slow tier (builds the binary or runs a full experiment): not under -short; go test ./... runs it")
	}
}

// buildBinary builds cmd/schedlab once for the package's tests.
func buildBinary(t testing.TB) string {
	t.Helper()
	slowTier(t)
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "schedlab-bin"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "schedlab")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// startServer starts bin serve on a free loopback port and waits for
// /healthz.
func startServer(t testing.TB, bin string, args ...string) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &server{base: "http://" + addr, db: filepath.Join(t.TempDir(), "hostile.db"), stderr: &bytes.Buffer{}, exited: make(chan error, 1)}
	s.cmd = exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", s.db}, args...)...)
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.exited <- s.cmd.Wait() }()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			<-s.exited
		}
	})
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(s.base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		select {
		case err := <-s.exited:
			t.Fatalf("schedlab exited at start: %v\n%s", err, s.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("schedlab did not answer /healthz\n%s", s.stderr)
		}
	}
}

// alive fails the test if the process died or /healthz does not answer.
func (s *server) alive(t *testing.T, after string) {
	t.Helper()
	select {
	case err := <-s.exited:
		s.exited <- err
		t.Fatalf("schedlab died after %s: %v\n%s", after, err, tail(s.stderr.String(), 3000))
	default:
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(s.base + "/healthz")
	if err != nil {
		t.Fatalf("/healthz after %s: %v\n%s", after, err, tail(s.stderr.String(), 3000))
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz after %s: %d", after, resp.StatusCode)
	}
}

// peakRSS is the process's peak resident memory (VmHWM), in bytes.
func (s *server) peakRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		t.Fatalf("reading the server's memory: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// hostile is one request of the corpus and what it may get back.
type hostile struct {
	name         string
	method, path string
	ctype        string
	body         []byte
	// status is the answer wanted; 0 accepts any 4xx. A 201 start of a
	// run must end in a final state, and a failed one must say why.
	status int
	// field, if set, must be named by the error (or the failed run).
	field string
}

func jsonReq(name, path, body string, status int, field string) hostile {
	return hostile{name: name, method: http.MethodPost, path: path, ctype: "application/json", body: []byte(body), status: status, field: field}
}

// bundleReq posts body as an experiment bundle.
func bundleReq(name string, status int, body string) hostile {
	return hostile{name: name, method: http.MethodPost, path: "/api/experiments/import", ctype: "application/gzip", body: []byte(body), status: status}
}

// upload builds a multipart upload of files (field → name, content).
func upload(name, strategy string, status int, field string, files ...[3]string) hostile {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("strategy", strategy)
	for _, f := range files {
		w, _ := mw.CreateFormFile(f[0], f[1])
		w.Write([]byte(f[2]))
	}
	mw.Close()
	return hostile{name: name, method: http.MethodPost, path: "/api/workloads", ctype: mw.FormDataContentType(), body: buf.Bytes(), status: status, field: field}
}

// gzipOf compresses what write writes.
func gzipOf(write func(io.Writer)) string {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed) // 1 GiB of zeros in ~1.4 s, to 1.3 MB
	write(zw)
	zw.Close()
	return buf.String()
}

// reportBundleReq imports reportBundle(report), which must be refused
// for its run's report.
func reportBundleReq(name, report string) hostile {
	h := bundleReq(name, 400, reportBundle(report))
	h.field = "run.report"
	return h
}

// reportBundle is a bundle of one finished reproduce run whose report is
// report, as an edited or old export could hold.
func reportBundle(report string) string {
	now := time.Now().UTC()
	recs := []any{
		map[string]any{"header": bundle.NewHeader()},
		map[string]any{"experiment": bundle.Experiment{ID: "hhhhhhhhhh", Name: "hostile", Strategy: "eapm",
			Definition: json.RawMessage(`{"name":"hostile","strategy":"eapm","grid":{"gamma":["1.1"]}}`), Status: "done", RunsTotal: 1, CreatedAt: now}},
		map[string]any{"run": bundle.Run{ID: "hhhhhhhhh2", Kind: "reproduce", Strategy: "eapm", Status: "done", CreatedAt: now,
			Cell: json.RawMessage(`{}`), Report: json.RawMessage(report)}},
	}
	return gzipOf(func(w io.Writer) {
		for _, r := range recs {
			b, _ := json.Marshal(r)
			w.Write(append(b, '\n'))
		}
	})
}

// apiStrategies is what GET /api/strategies says of the limits.
type apiStrategies []struct {
	Name     string `json:"name"`
	Built    bool   `json:"built"`
	Variants []struct {
		Name string `json:"name"`
	} `json:"variants"`
	Params  []spec `json:"params"`
	Presets []struct {
		Name   string `json:"name"`
		Params []spec `json:"params"`
	} `json:"presets"`
	ReproduceParams []spec `json:"reproduce_params"`
}

type spec struct {
	Name    string  `json:"name"`
	Kind    string  `json:"kind"`
	Default string  `json:"default"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	HasMin  bool    `json:"has_min"`
	HasMax  bool    `json:"has_max"`
}

// beyond is a value just past a spec's maximum, in its own kind.
func (s spec) beyond() string {
	if s.Kind == "int" {
		return strconv.FormatInt(int64(s.Max)+1, 10)
	}
	return strconv.FormatFloat(s.Max*1.5+1, 'g', -1, 64)
}

func (s spec) atMax() string {
	if s.Kind == "int" {
		return strconv.FormatInt(int64(s.Max), 10)
	}
	return strconv.FormatFloat(s.Max, 'g', -1, 64)
}

// budgetKnob reports whether a run parameter is a budget the server caps
// (its own memory or time), whose maximum is the server's, not the spec's.
func budgetKnob(name string) bool {
	return name == "memory_mb" || name == "time_limit_s"
}

func TestHostileRequestsNeverTakeTheServerDown(t *testing.T) {
	bin := buildBinary(t)
	s := startServer(t, bin, "--timeout", "4s", "--memory-mb", strconv.Itoa(hostileMemoryMB),
		"--max-upload-mb", strconv.Itoa(hostileUploadMB), "--workers", "2")
	st, err := store.Open(s.db) // the same file, to count what is stored
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()

	var families apiStrategies
	resp, err := http.Get(s.base + "/api/strategies")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&families)
	resp.Body.Close()

	// One good workload per family, from its first preset at defaults.
	good := map[string]string{}
	for _, f := range families {
		if !f.Built || len(f.Presets) == 0 {
			continue
		}
		st, b := send(t, s, jsonReq("", "/api/workloads/generate", fmt.Sprintf(`{"strategy":%q,"preset":%q}`, f.Name, f.Presets[0].Name), 0, ""))
		if st != http.StatusCreated {
			t.Fatalf("generating a %s workload: %d %s", f.Name, st, b)
		}
		var w struct{ ID string }
		json.Unmarshal(b, &w)
		good[f.Name] = w.ID
	}

	corpus := []hostile{
		// The audit's own calls.
		jsonReq("gossip memory_mb raised past the server's budget", "/api/runs",
			`{"workload_id":"`+good["gossip"]+`","params":{"rescale_nodes":"100000","memory_mb":"1048576"}}`, 400, "memory_mb"),
		jsonReq("dcop memory_mb raised past the server's budget", "/api/runs",
			`{"workload_id":"`+good["dcop"]+`","params":{"memory_mb":"1048576"}}`, 400, "memory_mb"),
		jsonReq("gossip rescaled to 100,000 nodes inside the budget knob", "/api/runs",
			`{"workload_id":"`+good["gossip"]+`","variant":"gossip","params":{"rescale_nodes":"100000"}}`, http.StatusCreated, ""),
		jsonReq("dcop generate at every size limit", "/api/workloads/generate",
			`{"strategy":"dcop","preset":"namekata2008","params":{"jobs":1000,"resources":1000,"per_job":1000,"horizon":10000,"dur_max":10000}}`, 0, ""),
		// Integers as JSON numbers of any size within a limit are exact;
		// string parameters are checked at submit, not when the run starts.
		jsonReq("an integer as a JSON number ≥ 1e6", "/api/runs",
			`{"workload_id":"`+good["gossip"]+`","variant":"rumor","params":{"k":1e9,"max_rounds":10}}`, http.StatusCreated, ""),
		jsonReq("gossip gantt_lanes malformed", "/api/runs",
			`{"workload_id":"`+good["gossip"]+`","params":{"gantt_lanes":"0-x"}}`, 400, "gantt_lanes"),
		jsonReq("eapm machines_per_type malformed", "/api/runs",
			`{"workload_id":"`+good["eapm"]+`","params":{"machines_per_type":"1,two"}}`, 400, "machines_per_type"),
		jsonReq("gossip fig9_nodes malformed", "/api/reproduce/gossip",
			`{"params":{"fig9_nodes":"10,,x"}}`, 400, "fig9_nodes"),
		// Malformed and wrong-shaped bodies.
		jsonReq("malformed JSON", "/api/runs", `{"workload_id":`, 400, "body"),
		jsonReq("JSON array", "/api/runs", `[1,2,3]`, 400, ""),
		jsonReq("deep nesting", "/api/runs", `{"params":`+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+`}`, 400, ""),
		jsonReq("params nested", "/api/runs", `{"workload_id":"`+good["eapm"]+`","params":{"gamma":{"x":1}}}`, 400, "gamma"),
		jsonReq("NaN", "/api/runs", `{"workload_id":"`+good["eapm"]+`","params":{"gamma":"NaN"}}`, 400, "gamma"),
		jsonReq("Inf", "/api/runs", `{"workload_id":"`+good["eapm"]+`","params":{"gamma":"+Inf"}}`, 400, "gamma"),
		jsonReq("negative", "/api/runs", `{"workload_id":"`+good["eapm"]+`","params":{"gamma":-1}}`, 400, "gamma"),
		jsonReq("huge exponent", "/api/runs", `{"workload_id":"`+good["eapm"]+`","params":{"gamma":1e308}}`, 400, "gamma"),
		jsonReq("wrong type", "/api/runs", `{"workload_id":"`+good["eapm"]+`","seed":"x"}`, 400, "seed"),
		{name: "text/plain JSON", method: http.MethodPost, path: "/api/runs", ctype: "text/plain", body: []byte(`{"workload_id":"` + good["eapm"] + `"}`), status: 415},
		jsonReq("body over 1 MiB", "/api/runs", `{"params":{"x":"`+strings.Repeat("a", 2<<20)+`"}}`, 413, ""),
		// Unknown ids.
		jsonReq("unknown workload", "/api/runs", `{"workload_id":"zzzzzzzzzz"}`, 404, "workload_id"),
		jsonReq("unknown strategy", "/api/reproduce/nosuch", `{}`, 404, "strategy"),
		{name: "unknown run", method: http.MethodGet, path: "/api/runs/zzzzzzzzzz", status: 404},
		{name: "unknown run page", method: http.MethodGet, path: "/runs/zzzzzzzzzz", status: 404},
		{name: "unknown workload page", method: http.MethodGet, path: "/workloads/zzzzzzzzzz", status: 404},
		{name: "cancel unknown", method: http.MethodPost, path: "/api/runs/zzzzzzzzzz/cancel", status: 404},
		{name: "delete unknown", method: http.MethodDelete, path: "/api/runs/zzzzzzzzzz", status: 404},
		{name: "compare unknown", method: http.MethodGet, path: "/compare?runs=zzzzzzzzzz,yyyyyyyyyy", status: 404},
		{name: "compare too many", method: http.MethodGet, path: "/compare?runs=" + strings.Repeat("a,", 5000), status: 0},
		{name: "report of unknown", method: http.MethodGet, path: "/api/runs/zzzzzzzzzz/report", status: 404},
		{name: "table of unknown", method: http.MethodGet, path: "/runs/zzzzzzzzzz/tables/0.csv", status: 404},
		{name: "static directory", method: http.MethodGet, path: "/static/", status: 404},
		// Uploads: oversize, bombs, garbage.
		upload("upload over the limit", "gossip", 413, "file", [3]string{"swf", "big.swf", strings.Repeat("; comment\n", (hostileUploadMB<<20)/10+10)}),
		upload("gzip of zeros", "gossip", 0, "", [3]string{"swf", "zeros.swf.gz", gzipOf(func(w io.Writer) {
			zeros := make([]byte, 1<<20)
			for i := 0; i < 1024; i++ {
				w.Write(zeros)
			}
		})}),
		upload("gzip of 6.5 M SWF lines", "cyclic", 0, "", [3]string{"swf", "many.swf.gz", gzipOf(func(w io.Writer) {
			chunk := bytes.Repeat([]byte("1 0 0 100 4 -1 -1 4 100 -1 1 1 1 1 1 -1 -1 -1\n"), 20_000)
			for i := 0; i < 325; i++ {
				w.Write(chunk)
			}
		})}),
		upload("gzip that is not gzip", "cyclic", 400, "", [3]string{"swf", "bad.swf.gz", "\x1f\x8bnot really"}),
		upload("no strategy", "", 0, "strategy", [3]string{"file", "w.json", "{}"}),
		upload("no file", "eapm", 400, "file"),
		upload("eapm CSV garbage", "eapm", 400, "", [3]string{"etc", "etc.csv", "a,b\n\x00\x01"}, [3]string{"apc", "apc.csv", "1"}, [3]string{"users", "users.csv", "x"}),
		upload("eapm NaN in a matrix", "eapm", 400, "", [3]string{"etc", "etc.csv", "NaN,1\n1,1\n"}, [3]string{"apc", "apc.csv", "1,1\n1,1\n"}, [3]string{"users", "users.csv", "type,tasks\n0,1\n"}),
		upload("eapm a billion tasks", "eapm", 0, "", [3]string{"etc", "etc.csv", "1,1\n1,1\n"}, [3]string{"apc", "apc.csv", "1,1\n1,1\n"}, [3]string{"users", "users.csv", "type,tasks\n0,1000000000\n"}),
		upload("critical WfFormat garbage", "critical", 400, "", [3]string{"wfformat", "w.json", `{"workflow":{"tasks":"no"}}`}),
		// Experiment bundles: a bomb inside a record, garbage, oversize.
		bundleReq("bundle bomb: 1 GiB of blanks in its first record", 413, gzipOf(func(w io.Writer) {
			w.Write([]byte(`{"header":`))
			blanks := bytes.Repeat([]byte(" "), 1<<20)
			for i := 0; i < 1024; i++ {
				w.Write(blanks)
			}
		})),
		bundleReq("bundle that is not gzip", 400, "\x1f\x8bnot really"),
		bundleReq("bundle of JSON garbage", 400, gzipOf(func(w io.Writer) { w.Write([]byte(`{"header":[`)) })),
		bundleReq("bundle over the upload limit", 413, strings.Repeat("x", (hostileUploadMB+1)<<20)),
		{name: "bundle as text/plain", method: http.MethodPost, path: "/api/experiments/import", ctype: "text/plain", body: []byte("x"), status: 415},
		{name: "bundle of an unknown experiment", method: http.MethodGet, path: "/api/experiments/zzzzzzzzzz/bundle", status: 404},
		// Bundles whose reports a run could not have stored: refused
		// whole, naming the run's report.
		reportBundleReq("bundle report with metrics a string", `{"metrics":"x"}`),
		reportBundleReq("bundle report of 100,000 metrics", `{"metrics":[`+strings.Repeat(`{"name":"m","value":1},`, 99_999)+`{"name":"m","value":1}]}`),
		reportBundleReq("bundle report with a ragged heat map", `{"heatmaps":[{"title":"h","x":["a"],"y":[],"values":[[1]]}]}`),
		// Experiments whose generated workloads would fill the disk:
		// refused from the families' estimates before anything is
		// generated or stored, naming the budget.
		jsonReq("experiment: 200 replicates of a gossip day on 100,000 nodes (15 GB of workloads)", "/api/experiments",
			`{"name":"gossip day","strategy":"gossip","variants":["gossip"],"workload":{"preset":"umeda2006","grid":{"nodes":[100000],"duration_h":[12]}},"replicates":200}`,
			400, "budget"),
		jsonReq("experiment: 1,000 replicates of critical graphs of 20,000 tasks", "/api/experiments",
			`{"name":"big graphs","strategy":"critical","workload":{"preset":"random","grid":{"tasks":[20000],"density":[1]}},"replicates":1000}`,
			400, "budget"),
	}
	for _, f := range families {
		if !f.Built {
			continue
		}
		corpus = append(corpus,
			upload(f.Name+" binary garbage", f.Name, 400, "", [3]string{"file", "w.json", "\x00\xff\xfe garbage"}),
			upload(f.Name+" empty object", f.Name, 400, "", [3]string{"file", "w.json", "{}"}),
			upload(f.Name+" array", f.Name, 400, "", [3]string{"file", "w.json", "[]"}),
			upload(f.Name+" deep nesting", f.Name, 400, "", [3]string{"file", "w.json", strings.Repeat(`{"a":`, 50000) + "1" + strings.Repeat("}", 50000)}),
			jsonReq(f.Name+" unknown variant", "/api/runs", `{"workload_id":"`+good[f.Name]+`","variant":"nosuch"}`, 400, "variant"),
			jsonReq(f.Name+" unknown parameter", "/api/runs", `{"workload_id":"`+good[f.Name]+`","params":{"nosuch":1}}`, 400, "nosuch"),
			jsonReq(f.Name+" unknown preset", "/api/workloads/generate", `{"strategy":"`+f.Name+`","preset":"nosuch"}`, 400, "preset"),
		)
		// Every run parameter just beyond its limit is refused; all at
		// their limits at once start a run that ends cleanly.
		atMax := map[string]string{}
		for _, p := range f.Params {
			if (p.Kind != "int" && p.Kind != "float") || !p.HasMax {
				continue
			}
			corpus = append(corpus, jsonReq(f.Name+" run "+p.Name+" beyond its limit", "/api/runs",
				fmt.Sprintf(`{"workload_id":%q,"params":{%q:%q}}`, good[f.Name], p.Name, p.beyond()), 400, p.Name))
			if !budgetKnob(p.Name) {
				atMax[p.Name] = p.atMax()
			}
		}
		for _, v := range f.Variants {
			b, _ := json.Marshal(map[string]any{"workload_id": good[f.Name], "variant": v.Name, "params": atMax})
			corpus = append(corpus, jsonReq(f.Name+" "+v.Name+" with every run parameter at its limit", "/api/runs", string(b), 0, ""))
		}
		for _, pr := range f.Presets {
			all := map[string]string{}
			for _, p := range pr.Params {
				if (p.Kind != "int" && p.Kind != "float") || !p.HasMax {
					continue
				}
				corpus = append(corpus, jsonReq(f.Name+" preset "+pr.Name+" "+p.Name+" beyond its limit", "/api/workloads/generate",
					fmt.Sprintf(`{"strategy":%q,"preset":%q,"params":{%q:%q}}`, f.Name, pr.Name, p.Name, p.beyond()), 400, p.Name))
				all[p.Name] = p.atMax()
			}
			b, _ := json.Marshal(map[string]any{"strategy": f.Name, "preset": pr.Name, "params": all})
			corpus = append(corpus, jsonReq(f.Name+" preset "+pr.Name+" with every parameter at its limit", "/api/workloads/generate", string(b), 0, ""))
		}
		for _, p := range f.ReproduceParams {
			if (p.Kind != "int" && p.Kind != "float") || !p.HasMax {
				continue
			}
			corpus = append(corpus, jsonReq(f.Name+" reproduce "+p.Name+" beyond its limit", "/api/reproduce/"+f.Name,
				fmt.Sprintf(`{"params":{%q:%q}}`, p.Name, p.beyond()), 400, p.Name))
		}
	}

	var started []string
	for _, h := range corpus {
		runsBefore, workloadsBefore := count(t, st, ctx)
		status, body := send(t, s, h)
		s.alive(t, h.name)
		runsAfter, workloadsAfter := count(t, st, ctx)
		switch {
		case h.status == http.StatusCreated || (h.status == 0 && status == http.StatusCreated):
			if status != http.StatusCreated {
				t.Errorf("%s: %d, want 201: %.300s", h.name, status, body)
				continue
			}
			var r struct{ ID, URL string }
			json.Unmarshal(body, &r)
			if strings.HasPrefix(r.URL, "/runs/") {
				started = append(started, r.ID)
			}
			continue
		case h.status != 0 && status != h.status:
			t.Errorf("%s: %d, want %d: %.300s", h.name, status, h.status, body)
		case h.status == 0 && (status < 400 || status >= 500):
			t.Errorf("%s: %d, want a 4xx: %.300s", h.name, status, body)
		}
		if status >= 400 && h.method != http.MethodGet {
			var e struct{ Error, Field string }
			if json.Unmarshal(body, &e) != nil || e.Error == "" {
				t.Errorf("%s: %d with no JSON error: %.300s", h.name, status, body)
			}
			if h.field != "" && !strings.Contains(e.Field, h.field) && !strings.Contains(e.Error, h.field) {
				t.Errorf("%s: error does not name %q: field %q, error %q", h.name, h.field, e.Field, e.Error)
			}
			if runsAfter != runsBefore || workloadsAfter != workloadsBefore {
				t.Errorf("%s: refused, yet runs %d → %d, workloads %d → %d", h.name, runsBefore, runsAfter, workloadsBefore, workloadsAfter)
			}
		}
	}

	// Every run started ends, done or failed with a reason; none leaves
	// the server down.
	for _, id := range started {
		r := waitFinal(t, s, st, id)
		switch r.Status {
		case runtypes.StatusDone:
		case runtypes.StatusFailed:
			if r.Error == "" {
				t.Errorf("run %s failed without saying why", id)
			}
		default:
			t.Errorf("run %s ended %s: %s", id, r.Status, r.Error)
		}
	}
	s.alive(t, "the runs at every limit")
	if rss, limit := s.peakRSS(t), int64(hostileMemoryMB<<20)+hostileRSSMargin; rss > limit {
		t.Errorf("peak RSS %d MiB, over the budget %d MiB + margin %d MiB", rss>>20, hostileMemoryMB, hostileRSSMargin>>20)
	} else {
		t.Logf("peak RSS %d MiB (budget %d MiB + margin %d MiB); %d requests, %d runs", rss>>20, hostileMemoryMB, hostileRSSMargin>>20, len(corpus), len(started))
	}

	// SIGTERM drains and exits 0, even with a slow client holding a
	// connection open.
	slow, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	fmt.Fprintf(slow, "POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	time.Sleep(100 * time.Millisecond)
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.exited:
		if err != nil {
			t.Errorf("after SIGTERM schedlab exited with %v, want 0\n%s", err, tail(s.stderr.String(), 2000))
		}
	case <-time.After(40 * time.Second):
		t.Fatal("schedlab did not exit 40 s after SIGTERM")
	}
}

func send(t *testing.T, s *server, h hostile) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(h.method, s.base+h.path, bytes.NewReader(h.body))
	if err != nil {
		t.Fatal(err)
	}
	if h.ctype != "" {
		req.Header.Set("Content-Type", h.ctype)
	}
	req.Header.Set("Accept", "application/json")
	client := &http.Client{Timeout: 60 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s: %v\n%s", h.name, err, tail(s.stderr.String(), 3000))
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, b
}

func count(t *testing.T, st *store.Store, ctx context.Context) (runs, workloads int) {
	t.Helper()
	rs, err := st.ListRuns(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := st.ListWorkloads(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(rs), len(ws)
}

func waitFinal(t *testing.T, s *server, st *store.Store, id string) *runtypes.Run {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		r, err := st.GetRun(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if runtypes.Final(r.Status) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s still %s after 3 min", id, r.Status)
		}
		s.alive(t, "waiting for run "+id)
	}
}
