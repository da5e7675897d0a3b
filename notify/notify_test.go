package notify

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"schedlab/runtypes"
	"schedlab/store"
)

// receiver is a local webhook that records every body, by path.
type receiver struct {
	mu     sync.Mutex
	bodies map[string][]Body
}

func newReceiver(t *testing.T) (*receiver, *httptest.Server) {
	rc := &receiver{bodies: map[string][]Body{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b Body
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s with %q, want a JSON POST", r.Method, r.URL, r.Header.Get("Content-Type"))
		}
		if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
			t.Errorf("body: %v", err)
		}
		rc.mu.Lock()
		rc.bodies[r.URL.Path] = append(rc.bodies[r.URL.Path], b)
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return rc, srv
}

func (rc *receiver) got(path string) []Body {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Body(nil), rc.bodies[path]...)
}

// experiment stores an experiment of n queued runs with definition def and
// claims them all, returning the run IDs in order.
func experiment(t *testing.T, s *store.Store, name, def string, n int) (*store.Experiment, []string) {
	t.Helper()
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "tiny", Format: "json", Summary: "1 user", Data: []byte(`{"etc":[[1,2]]}`)}
	if err := s.CreateWorkload(ctx, w); err != nil {
		t.Fatal(err)
	}
	runs := make([]*runtypes.Run, n)
	cells := make([]store.ExperimentCell, n)
	for i := range runs {
		runs[i] = &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: "eapm", Variant: "online", Params: map[string]string{"gamma": "1.2"}, Seed: int64(i)}
		cells[i] = store.ExperimentCell{Cell: json.RawMessage(`{}`), Replicate: i}
	}
	e := &store.Experiment{Name: name, Strategy: "eapm", Definition: json.RawMessage(def)}
	if err := s.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, n)
	for i, r := range runs {
		ids[i] = r.ID
	}
	return e, ids
}

func claimAll(t *testing.T, s *store.Store) {
	t.Helper()
	for {
		r, err := s.ClaimNext(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if r == nil {
			return
		}
	}
}

func end(t *testing.T, s *store.Store, id, status string) {
	t.Helper()
	var rep json.RawMessage
	msg := "γ must be ≥ 1"
	if status == runtypes.StatusDone {
		rep, msg = json.RawMessage(`{"metrics":[]}`), ""
	}
	if err := s.Finish(context.Background(), id, status, rep, msg, ""); err != nil {
		t.Fatal(err)
	}
}

// TestWebhookIsCalledOnceWhenAnExperimentEndsAndOnceWhenItFails: an
// experiment whose runs are all done is announced "done" to the server's
// default URL; one with a failed run "failed" to the URL its definition
// names; each once, however often the watcher looks; an experiment with a
// run still queued, or interrupted (queued again at the next start), is
// not announced, nor marked done.
func TestWebhookIsCalledOnceWhenAnExperimentEndsAndOnceWhenItFails(t *testing.T) {
	rc, srv := newReceiver(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "n.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	ok, okRuns := experiment(t, s, "all done", `{"name":"all done"}`, 2)
	bad, badRuns := experiment(t, s, "one failed", `{"name":"one failed","notify_url":"`+srv.URL+`/own"}`, 2)
	open, openRuns := experiment(t, s, "still going", `{"name":"still going"}`, 2)
	cut, cutRuns := experiment(t, s, "cut off", `{"name":"cut off"}`, 1)
	claimAll(t, s)
	end(t, s, okRuns[0], runtypes.StatusDone)
	end(t, s, okRuns[1], runtypes.StatusDone)
	end(t, s, badRuns[0], runtypes.StatusDone)
	end(t, s, badRuns[1], runtypes.StatusFailed)
	end(t, s, openRuns[0], runtypes.StatusDone) // openRuns[1] still running
	end(t, s, cutRuns[0], runtypes.StatusInterrupted)

	w := &Watcher{Store: s, Default: srv.URL + "/default", Base: "http://lab:8080/", Poster: Poster{Backoff: time.Millisecond, Guard: loopbackAllowed}}
	for range 3 {
		if err := w.Check(ctx); err != nil {
			t.Fatal(err)
		}
		w.Wait()
	}
	want := map[string]Body{
		"/default": {ID: ok.ID, Name: "all done", Strategy: "eapm", Status: "done", RunsDone: 2, RunsFailed: 0, RunsTotal: 2, URL: "http://lab:8080/experiments/" + ok.ID},
		"/own":     {ID: bad.ID, Name: "one failed", Strategy: "eapm", Status: "failed", RunsDone: 1, RunsFailed: 1, RunsTotal: 2, URL: "http://lab:8080/experiments/" + bad.ID},
	}
	for path, b := range want {
		if got := rc.got(path); len(got) != 1 || got[0] != b {
			t.Errorf("%s received %+v, want once %+v", path, got, b)
		}
	}
	if n := len(rc.got("/default")) + len(rc.got("/own")); n != 2 {
		t.Errorf("%d notifications, want 2", n)
	}
	for e, status := range map[string]string{ok.ID: store.ExperimentDone, bad.ID: store.ExperimentDone,
		open.ID: store.ExperimentRunning, cut.ID: store.ExperimentRunning} {
		got, err := s.GetExperiment(ctx, e)
		if err != nil || got.Status != status {
			t.Errorf("experiment %s (%s) is %v (%v), want %s", e, got.Name, got.Status, err, status)
		}
	}
	// The last run of the open experiment ends: it is announced then.
	end(t, s, openRuns[1], runtypes.StatusDone)
	if err := w.Check(ctx); err != nil {
		t.Fatal(err)
	}
	w.Wait()
	if got := rc.got("/default"); len(got) != 2 || got[1].ID != open.ID || got[1].Status != "done" {
		t.Errorf("after the open experiment ended, /default received %+v", got)
	}
}

// lookCounter is a store that says each time the watcher looks.
type lookCounter struct {
	*store.Store
	looked chan struct{}
}

func (l lookCounter) EndedExperiments(ctx context.Context) ([]string, error) {
	ids, err := l.Store.EndedExperiments(ctx)
	select {
	case l.looked <- struct{}{}:
	default:
	}
	return ids, err
}

// TestKickLooksAtOnce: with an Interval of an hour, Run announces an
// experiment whose last run ended as soon as it is kicked.
func TestKickLooksAtOnce(t *testing.T) {
	rc, srv := newReceiver(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "n.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	e, runs := experiment(t, s, "kicked", `{"name":"kicked"}`, 1)
	claimAll(t, s)
	looked := make(chan struct{}, 100)
	w := &Watcher{Store: lookCounter{s, looked}, Default: srv.URL + "/default", Interval: time.Hour, Poster: Poster{Backoff: time.Millisecond, Guard: loopbackAllowed}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	<-looked // Run's first look, before the run ended: the next is the kick's
	end(t, s, runs[0], runtypes.StatusDone)
	for len(rc.got("/default")) == 0 {
		w.Kick()
		time.Sleep(10 * time.Millisecond) // polls the receiver; the test's own deadline bounds it
	}
	if got := rc.got("/default"); got[0].ID != e.ID || got[0].Status != "done" {
		t.Errorf("received %+v, want experiment %s done", got, e.ID)
	}
}

// TestPostGivesUpAfterBoundedAttempts: an attempt that gets no answer
// within the timeout, or a 5xx, is tried again, up to Attempts in all; a
// 4xx is not retried; a URL that is not http or https is never fetched.
func TestPostGivesUpAfterBoundedAttempts(t *testing.T) {
	// serve answers call n (from 1) with the status answer(n), 0 = hang
	// until the client gives up; calls counts them.
	serve := func(t *testing.T, answer func(n int32) int) (srv *httptest.Server, calls *atomic.Int32) {
		calls = &atomic.Int32{}
		release := make(chan struct{})
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			code := answer(calls.Add(1))
			if code == 0 {
				select { // no answer: the client's timeout ends the attempt
				case <-r.Context().Done():
				case <-release:
				}
				return
			}
			w.WriteHeader(code)
		}))
		t.Cleanup(func() { close(release); srv.Close() })
		return srv, calls
	}
	// The timeout must be long enough for every answer the server does
	// give on a loaded machine (50 ms was not, issue 41): a hanging
	// attempt costs it, so the cases, each with its own server, run in
	// parallel. A case whose server never answers cannot be answered
	// late: it takes a short timeout (its three hangs 0.6 s, not 6 s).
	p := Poster{Timeout: 2 * time.Second, Attempts: 3, Backoff: time.Millisecond, Guard: loopbackAllowed}
	never := p
	never.Timeout = 200 * time.Millisecond
	b := Body{ID: "e1", Status: "done"}
	cases := []struct {
		name         string
		answer       func(int32) int
		wantCalls    int32
		wantErr      string
		neverAnswers bool
	}{
		{"hangs, then 503, then 204", func(n int32) int { return []int{0, 0, 503, 204}[n] }, 3, "", false},
		{"hangs every time", func(int32) int { return 0 }, 3, "attempt 3 of 3", true},
		{"500 every time", func(int32) int { return 500 }, 3, "500 Internal Server Error", false},
		{"404", func(int32) int { return 404 }, 1, "attempt 1 of 3", false},
		{"429 then 200", func(n int32) int { return []int{0, 429, 200}[n] }, 2, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := serve(t, c.answer)
			poster := p
			if c.neverAnswers {
				poster = never
			}
			err := poster.Post(context.Background(), srv.URL+"/hook", b)
			if got := calls.Load(); got != c.wantCalls {
				t.Errorf("%d attempts, want %d", got, c.wantCalls)
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("%v, want delivered", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("error %v, want one saying %q", err, c.wantErr)
			}
		})
	}
	t.Run("not http", func(t *testing.T) {
		t.Parallel()
		srv, calls := serve(t, func(int32) int { return 204 })
		for _, u := range []string{"ftp://" + strings.TrimPrefix(srv.URL, "http://") + "/hook", "file:///etc/passwd", "/relative"} {
			if err := p.Post(context.Background(), u, b); err == nil || !strings.Contains(err.Error(), "http") {
				t.Errorf("Post(%q) = %v, want refused: only http and https", u, err)
			}
		}
		if n := calls.Load(); n != 0 {
			t.Errorf("refused URLs were fetched %d times", n)
		}
	})
}
