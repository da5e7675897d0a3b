package notify

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"schedlab/experiments"
	"schedlab/store"
)

// Defaults of a Poster and a Watcher.
const (
	DefaultTimeout  = 10 * time.Second // one attempt: a webhook answers in well under a second
	DefaultAttempts = 3                // a restart of the receiver, not an outage
	DefaultBackoff  = time.Second      // before the second attempt; doubled before each next one
	DefaultInterval = 2 * time.Second  // how often Watcher looks for ended experiments
)

// Body is what a notification POSTs, as JSON.
type Body struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Strategy   string `json:"strategy"`
	Status     string `json:"status"` // "done" or "failed"
	RunsDone   int    `json:"runs_done"`
	RunsFailed int    `json:"runs_failed"` // failed, canceled, interrupted, or done without a result (store.ExperimentProgress)
	RunsTotal  int    `json:"runs_total"`
	URL        string `json:"url"` // the experiment's page
}

// Poster delivers a Body; its zero value uses the defaults.
type Poster struct {
	Timeout  time.Duration // of one attempt
	Attempts int           // in all, the first included
	Backoff  time.Duration // before the second attempt, doubled before each next
	// Guard decides which addresses a notification may reach: public
	// ones, and internal ones only inside Guard.Allow (guard.go). It is
	// applied when a connection is made, to the literal URL, to the
	// address a name resolves to and to every redirect.
	Guard Guard
	// Resolver and Dial replace the system's name lookup and connection
	// (tests: a resolver that answers an internal address, a dial that
	// takes a "public" address to a local test server). Whatever they
	// answer passes Guard first.
	Resolver Resolver
	Dial     DialFunc
}

func (p Poster) client() *http.Client {
	tr := &http.Transport{
		Proxy:               nil, // a proxy would connect on our behalf, past the guard
		DialContext:         p.Guard.dialContext(p.Resolver, p.Dial),
		TLSHandshakeTimeout: cmp.Or(p.Timeout, DefaultTimeout),
		DisableKeepAlives:   true, // one POST per experiment: nothing to reuse
	}
	return &http.Client{Transport: tr, Timeout: cmp.Or(p.Timeout, DefaultTimeout), CheckRedirect: func(r *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("more than 5 redirects")
		}
		if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
			return fmt.Errorf("redirected to a %s URL: only http and https", r.URL.Scheme)
		}
		return nil
	}}
}

// errPermanent marks an answer a retry would not change.
var errPermanent = errors.New("not retried")

// Post sends b to url, trying again as the package doc says, and returns
// nil once an attempt is answered 2xx, or the last attempt's error.
func (p Poster) Post(ctx context.Context, url string, b Body) error {
	if err := experiments.CheckNotifyURL(url); err != nil {
		return fmt.Errorf("notify URL: %w", err)
	}
	payload, err := json.Marshal(b)
	if err != nil {
		return err
	}
	c := p.client()
	wait := cmp.Or(p.Backoff, DefaultBackoff)
	attempts := cmp.Or(p.Attempts, DefaultAttempts)
	for i := 1; ; i++ {
		err = p.attempt(ctx, c, url, payload)
		if err == nil {
			return nil
		}
		if errors.Is(err, errPermanent) || i >= attempts {
			return fmt.Errorf("notify %s (attempt %d of %d): %w", url, i, attempts, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("notify %s: %w (after attempt %d: %v)", url, ctx.Err(), i, err)
		case <-time.After(wait):
		}
		wait *= 2
	}
}

func (p Poster) attempt(ctx context.Context, c *http.Client, url string, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return fmt.Errorf("%w: %v", errPermanent, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "schedlab-notify")
	res, err := c.Do(req)
	if errors.Is(err, ErrInternal) {
		return fmt.Errorf("%w: %w", errPermanent, err) // the address will not change
	}
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return nil
	case res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests:
		return fmt.Errorf("answered %s", res.Status)
	default:
		return fmt.Errorf("%w: answered %s", errPermanent, res.Status)
	}
}

// Store is what Watcher reads and marks (package store's *Store).
type Store interface {
	EndedExperiments(ctx context.Context) ([]string, error)
	MarkExperimentEnded(ctx context.Context, id string) (bool, error)
	GetExperiment(ctx context.Context, id string) (*store.Experiment, error)
	ExperimentProgress(ctx context.Context, id string) (total, done, failed, active int, err error)
}

// Watcher finds ended experiments, marks them done and announces them.
type Watcher struct {
	Store Store
	// Default is the URL of experiments whose definition names none
	// (schedlab serve --notify-url); empty: only those that name one.
	Default string
	// Base is the server's address as a reader reaches it
	// ("http://lab:8080"), put before each experiment's path.
	Base     string
	Interval time.Duration // DefaultInterval when 0
	Poster   Poster
	Logger   *slog.Logger // slog.Default() when nil

	posts sync.WaitGroup
	once  sync.Once
	kick  chan struct{}
}

// kickGap is how long Run waits after a Kick before it looks: the ends
// of a sweep's last runs arrive in a few groups, one look serves them.
const kickGap = 50 * time.Millisecond

// Kick says runs have ended: Run looks for ended experiments within
// kickGap instead of at its next Interval (issue 43: a sweep was marked
// done up to 2 s after its last run). It never blocks.
func (w *Watcher) Kick() {
	select {
	case w.kicks() <- struct{}{}:
	default:
	}
}

func (w *Watcher) kicks() chan struct{} {
	w.once.Do(func() { w.kick = make(chan struct{}, 1) })
	return w.kick
}

// Run checks every Interval, and after each Kick, until ctx is done, then waits for the
// deliveries under way (which ctx cancels).
func (w *Watcher) Run(ctx context.Context) {
	t := time.NewTicker(cmp.Or(w.Interval, DefaultInterval))
	defer t.Stop()
	for {
		if err := w.Check(ctx); err != nil && ctx.Err() == nil {
			w.log().Error("notify: looking for ended experiments", "err", err)
		}
		select {
		case <-ctx.Done():
			w.posts.Wait()
			return
		case <-t.C:
		case <-w.kicks():
			select {
			case <-ctx.Done():
			case <-time.After(kickGap):
			}
		}
	}
}

// Check marks every ended experiment done and starts its notification;
// Wait waits for them.
func (w *Watcher) Check(ctx context.Context) error {
	ids, err := w.Store.EndedExperiments(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		mine, err := w.Store.MarkExperimentEnded(ctx, id)
		if err != nil {
			return err
		}
		if !mine {
			continue
		}
		b, url, err := w.body(ctx, id)
		if err != nil {
			w.log().Error("notify: reading an ended experiment", "experiment", id, "err", err)
			continue
		}
		if url == "" {
			continue
		}
		w.posts.Add(1)
		go func() {
			defer w.posts.Done()
			if err := w.Poster.Post(ctx, url, b); err != nil {
				w.log().Error("notify: the experiment ended but its notification was not delivered", "experiment", id, "err", err)
			}
		}()
	}
	return nil
}

// body is the notification of ended experiment id, and where it goes.
func (w *Watcher) body(ctx context.Context, id string) (Body, string, error) {
	e, err := w.Store.GetExperiment(ctx, id)
	if err != nil {
		return Body{}, "", err
	}
	total, done, failed, _, err := w.Store.ExperimentProgress(ctx, id)
	if err != nil {
		return Body{}, "", err
	}
	url := w.Default
	if def, err := experiments.ParseJSON(e.Definition); err == nil && def.NotifyURL != "" {
		url = def.NotifyURL
	}
	status := "done"
	if failed > 0 {
		status = "failed"
	}
	return Body{ID: e.ID, Name: e.Name, Strategy: e.Strategy, Status: status, RunsDone: done, RunsFailed: failed,
		RunsTotal: total, URL: strings.TrimSuffix(w.Base, "/") + "/experiments/" + e.ID}, url, nil
}

func (w *Watcher) log() *slog.Logger { return cmp.Or(w.Logger, slog.Default()) }
