// Command load measures schedlab under concurrent clients on loopback.
//
//	go run ./bench/load seed -addr 127.0.0.1:8080 -swf solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz
//	go run ./bench/load -addr 127.0.0.1:8080 -c 100 -d 30s -pid $(pgrep -n schedlab)
//
// seed fills a fresh server with the fixture: the KTH SP2 trace uploaded as a
// cyclic and a gossip workload, three cyclic batch runs over it (FCFS, EASY,
// conservative backfilling) and the gossip and central gossip runs, and
// waits until they are done.
//
// The load mode hits four targets in turn, each for -d with -c clients
// looping request after request: "/", the page of the run with the largest
// report, /compare of the three largest runs sharing a workload, and that
// largest run's /api/runs/:id/report. A page's charts fetch their data
// (data-chart-src): each client then fetches those addresses too, one
// after the other as a browser opening the page for the first time (no
// cache), and the page's latency is the page and its chart data together;
// the "charts" column is how many chart requests a page made. Flags -run and -compare pick other
// runs. It prints per target the requests per second, the 50th and 99th
// percentile and the slowest latency, the errors (transport errors, time-outs
// and statuses other than 200; -encoding says whether the clients take
// gzip, as browsers do), and, given -pid, the server's largest
// resident set seen while the target ran (VmRSS sampled every 50 ms) and its
// VmHWM at the end. Only loopback addresses are accepted.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) > 0 && args[0] == "seed" {
		return seed(args[1:])
	}
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "server address (loopback only)")
	clients := fs.Int("c", 100, "concurrent clients")
	dur := fs.Duration("d", 30*time.Second, "duration per target")
	pid := fs.Int("pid", 0, "server process id, to read its memory from /proc")
	runID := fs.String("run", "", "run whose page and report to load (default: the largest report)")
	compare := fs.String("compare", "", "runs to compare, ID,ID,ID (default: the three largest sharing a workload)")
	fs.StringVar(&acceptEncoding, "encoding", "gzip", "Accept-Encoding of the clients: gzip (bodies not decoded, as a browser elsewhere), decode (decoded here too), identity")
	only := fs.String("only", "", "comma-separated target names to run (home, run, compare, report); default all")
	timeout := fs.Duration("timeout", 30*time.Second, "client time-out of one request")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *clients < 1 || *clients > 1000 || *dur <= 0 || *dur > 10*time.Minute {
		return errors.New("-c must be 1..1000 and -d at most 10m")
	}
	base, err := loopback(*addr)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: *timeout, Transport: &http.Transport{
		MaxIdleConns: *clients, MaxIdleConnsPerHost: *clients, IdleConnTimeout: time.Minute}}
	if *runID == "" || *compare == "" {
		largest, cmp, err := pick(client, base)
		if err != nil {
			return err
		}
		if *runID == "" {
			*runID = largest
		}
		if *compare == "" {
			*compare = cmp
		}
	}
	targets := []struct{ name, path string }{
		{"home", "/"},
		{"run", "/runs/" + *runID},
		{"compare", "/compare?runs=" + *compare},
		{"report", "/api/runs/" + *runID + "/report"},
	}
	fmt.Printf("%d clients, %s per target, %s\n", *clients, *dur, base)
	fmt.Printf("%-8s %-44s %8s %9s %9s %9s %7s %6s %10s %10s\n", "target", "path", "req/s", "p50", "p99", "max", "errors", "charts", "RSS max", "VmHWM")
	for _, t := range targets {
		if *only != "" && !contains(strings.Split(*only, ","), t.name) {
			continue
		}
		res := hammer(client, base+t.path, *clients, *dur, *pid)
		path := t.path
		if len(path) > 44 {
			path = path[:41] + "..."
		}
		fmt.Printf("%-8s %-44s %8.1f %9s %9s %9s %7d %6d %10s %10s\n", t.name, path, res.rate, ms(res.p50), ms(res.p99), ms(res.max),
			res.errors, res.charts, mib(res.rssMax), mib(hwm(*pid)))
		if res.firstErr != "" {
			fmt.Printf("         first error: %s\n", res.firstErr)
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if strings.TrimSpace(y) == x {
			return true
		}
	}
	return false
}

// loopback checks addr is a loopback address and returns its base URL.
func loopback(addr string) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("-addr %q: %v", addr, err)
	}
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("-addr %q: only loopback addresses are load-tested", addr)
	}
	return "http://" + addr, nil
}

type result struct {
	rate          float64
	p50, p99, max time.Duration
	errors        int
	firstErr      string
	charts        int   // chart requests a page made
	rssMax        int64 // KiB
}

// hammer runs c clients against url for d.
func hammer(client *http.Client, url string, c int, d time.Duration, pid int) result {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var lat []time.Duration
	var res result
	var wg sync.WaitGroup
	var rssMax int64
	stopRSS := make(chan struct{})
	rssDone := make(chan struct{})
	go func() {
		defer close(rssDone)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			if v := procKiB(pid, "VmRSS:"); v > rssMax {
				rssMax = v
			}
			select {
			case <-stopRSS:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	for i := 0; i < c; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				t0 := time.Now()
				charts, err := fetchPage(client, url)
				el := time.Since(t0)
				mu.Lock()
				res.charts = max(res.charts, charts)
				if err != nil {
					res.errors++
					if res.firstErr == "" {
						res.firstErr = err.Error()
					}
				} else {
					lat = append(lat, el)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stopRSS)
	<-rssDone
	res.rssMax = rssMax
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	res.rate = float64(len(lat)) / elapsed.Seconds()
	if n := len(lat); n > 0 {
		res.p50, res.p99, res.max = lat[n/2], lat[min(n-1, n*99/100)], lat[n-1]
	}
	return res
}

// acceptEncoding is what the load clients send as Accept-Encoding (flag
// -encoding): "gzip", like a browser, with the body counted as received
// and not decoded (a browser decodes on its own machine, not the
// server's); "decode", the same with the body decoded here (Go's
// transport), so this machine also pays the browser's work; "identity",
// no compression.
var acceptEncoding = "gzip"

// chartSrc finds the chart data addresses of a page.
var chartSrc = regexp.MustCompile(`data-chart-src="([^"]+)"`)

// fetchPage fetches url and, when it is a page, the data of its charts,
// each address once; it returns how many chart requests it made.
func fetchPage(client *http.Client, u string) (int, error) {
	body, hdr, err := fetch(client, u)
	if err != nil || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		return 0, err
	}
	if hdr.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		if body, err = io.ReadAll(zr); err != nil {
			return 0, err
		}
	}
	base, err := url.Parse(u)
	if err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	for _, m := range chartSrc.FindAllSubmatch(body, -1) {
		src := html.UnescapeString(string(m[1]))
		if seen[src] {
			continue
		}
		seen[src] = true
		ref, err := base.Parse(src)
		if err != nil {
			return len(seen), err
		}
		if _, _, err := fetch(client, ref.String()); err != nil {
			return len(seen), err
		}
	}
	return len(seen), nil
}

func fetch(client *http.Client, url string) ([]byte, http.Header, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	switch acceptEncoding {
	case "gzip", "identity":
		req.Header.Set("Accept-Encoding", acceptEncoding) // set by hand: the transport then leaves the body as sent
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	var body []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		body, err = io.ReadAll(resp.Body) // a page: its chart addresses are read
	} else {
		_, err = io.Copy(io.Discard, resp.Body)
	}
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("%s: status %d", url, resp.StatusCode)
	}
	return body, resp.Header, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/1e6) }

func mib(kib int64) string {
	if kib <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0fMiB", float64(kib)/1024)
}

func hwm(pid int) int64 { return procKiB(pid, "VmHWM:") }

// procKiB reads one "Key:  N kB" line of /proc/pid/status.
func procKiB(pid int, key string) int64 {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

type apiRun struct {
	ID         string `json:"id"`
	WorkloadID string `json:"workload_id"`
	Status     string `json:"status"`
	ReportURL  string `json:"report_url"`
}

// pick finds the run with the largest report and the three largest runs
// sharing a workload, among the newest 50 done runs.
func pick(client *http.Client, base string) (string, string, error) {
	var runs []apiRun
	if err := getJSON(client, base+"/api/runs?status=done&limit=50", &runs); err != nil {
		return "", "", err
	}
	if len(runs) > 50 {
		runs = runs[:50]
	}
	size := map[string]int64{}
	for _, r := range runs {
		resp, err := client.Get(base + r.ReportURL)
		if err != nil {
			return "", "", err
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		size[r.ID] = n
	}
	if len(runs) == 0 {
		return "", "", errors.New("no done runs: seed the server first (go run ./bench/load seed)")
	}
	sort.SliceStable(runs, func(i, j int) bool { return size[runs[i].ID] > size[runs[j].ID] })
	byWorkload := map[string][]string{}
	var cmp []string
	for _, r := range runs {
		byWorkload[r.WorkloadID] = append(byWorkload[r.WorkloadID], r.ID)
		if len(byWorkload[r.WorkloadID]) == 3 && cmp == nil {
			cmp = byWorkload[r.WorkloadID]
		}
	}
	if cmp == nil {
		cmp = []string{runs[0].ID}
	}
	return runs[0].ID, strings.Join(cmp, ","), nil
}

func getJSON(client *http.Client, url string, v any) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func postJSON(client *http.Client, url, body string, v any) error {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("POST %s: %d %s", url, resp.StatusCode, b)
	}
	return json.Unmarshal(b, v)
}

// seed builds the load fixture on a running server.
func seed(args []string) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "server address (loopback only)")
	swf := fs.String("swf", "solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz", "the SWF trace to upload")
	wait := fs.Duration("wait", 15*time.Minute, "how long to wait for the runs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	base, err := loopback(*addr)
	if err != nil {
		return err
	}
	trace, err := os.ReadFile(*swf)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 5 * time.Minute}
	upload := func(strategy string) (string, error) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		mw.WriteField("strategy", strategy)
		fw, _ := mw.CreateFormFile("swf", filepath.Base(*swf))
		fw.Write(trace)
		mw.Close()
		resp, err := client.Post(base+"/api/workloads", mw.FormDataContentType(), &buf)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		var w struct{ ID string }
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusCreated {
			return "", fmt.Errorf("upload %s: %d %s", strategy, resp.StatusCode, b)
		}
		return w.ID, json.Unmarshal(b, &w)
	}
	var ids []string
	start := func(workload, variant, params string) error {
		var r apiRun
		err := postJSON(client, base+"/api/runs", `{"workload_id":"`+workload+`","variant":"`+variant+`","params":{`+params+`}}`, &r)
		ids = append(ids, r.ID)
		return err
	}
	cyc, err := upload("cyclic")
	if err != nil {
		return err
	}
	for _, p := range []string{"fcfs", "easy", "conservative"} {
		if err := start(cyc, "batch", `"policy":"`+p+`"`); err != nil {
			return err
		}
	}
	gos, err := upload("gossip")
	if err != nil {
		return err
	}
	for _, v := range []string{"central", "gossip"} {
		if err := start(gos, v, ""); err != nil {
			return err
		}
	}
	return waitDone(client, base, ids, *wait)
}

// waitDone waits until every run is done; any other end is an error.
func waitDone(client *http.Client, base string, ids []string, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for _, id := range ids {
		for {
			var r apiRun
			if err := getJSON(client, base+"/api/runs/"+id, &r); err != nil {
				return err
			}
			if r.Status == "done" {
				fmt.Println("done", id)
				break
			}
			if r.Status != "queued" && r.Status != "running" {
				return fmt.Errorf("run %s ended %s", id, r.Status)
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("run %s still %s after %s", id, r.Status, wait)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	return nil
}
