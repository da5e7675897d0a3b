package queue

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/store"

	"schedlab/queue/wire"
)

// Config configures a Dispatcher. Zero fields take the defaults.
type Config struct {
	// Budget is the per-run budget sent with every run.
	Budget solvers.Budget
	// AckWait is how long a worker may go without a sign of life for a run
	// (it sends one every AckWait/3) before JetStream gives the run to
	// another worker (wire.DefaultAckWait).
	AckWait time.Duration
	// MaxDeliver caps the deliveries of one run (DefaultMaxDeliver); a run
	// whose workers all died ends failed with "worker died: ...".
	MaxDeliver int
	// Window is the least number of runs published ahead of the workers
	// (DefaultWindow); it grows to twice the workers' concurrency. Runs
	// are claimed (status running) only as they are published, so a
	// 10,000-run experiment shows a few dozen running, not all of them,
	// and a restarted server has few to take over.
	Window int
	// HeartbeatInterval is the workers' heartbeat interval: a worker not
	// heard from for three intervals is lost (wire.DefaultHeartbeatInterval).
	HeartbeatInterval time.Duration
	// ProgressInterval is the least time between two progress writes of a
	// run to SQLite (execute.DefaultProgressInterval).
	ProgressInterval time.Duration
	// PollInterval is how often the dispatcher looks for queued runs it
	// was not told about (runner.DefaultPollInterval).
	PollInterval time.Duration
	// Logger (slog.Default()).
	Logger *slog.Logger
	// Ended, when set, is called after each group of ends is stored (the
	// server kicks its notify.Watcher with it).
	Ended func()
}

// Defaults of Config (and wire.DefaultAckWait, wire.DefaultHeartbeatInterval).
const (
	DefaultMaxDeliver = 3
	DefaultWindow     = 16
)

func (c Config) withDefaults() Config {
	c.AckWait = runtypes.OrDefault(c.AckWait, wire.DefaultAckWait)
	c.MaxDeliver = runtypes.OrDefault(c.MaxDeliver, DefaultMaxDeliver)
	c.Window = runtypes.OrDefault(c.Window, DefaultWindow)
	c.HeartbeatInterval = runtypes.OrDefault(c.HeartbeatInterval, wire.DefaultHeartbeatInterval)
	c.ProgressInterval = runtypes.OrDefault(c.ProgressInterval, execute.DefaultProgressInterval)
	c.PollInterval = runtypes.OrDefault(c.PollInterval, runner.DefaultPollInterval)
	c.Logger = cmp.Or(c.Logger, slog.Default())
	return c
}

// Dispatcher is the server's side of the queue, a runner.Backend: it
// claims queued runs, publishes them to wire.RunsStream, and stores what
// the workers send back (the only writer of the store for those runs).
type Dispatcher struct {
	st  *store.Store
	nc  *nats.Conn
	cfg Config
	log *slog.Logger

	js        jetstream.JetStream
	claims    claims
	runs      jetstream.Stream
	workloads jetstream.ObjectStore
	reports   jetstream.ObjectStore
	wake      chan struct{}

	resultsCons jetstream.Consumer
	results     chan result // results read, on their way to the store

	mu          sync.Mutex
	outstanding map[string]bool      // published runs not ended yet, by ID
	unpublished []*runtypes.Run      // claimed, publishing failed: tried again first
	progress    map[string]*liveRun  // by run ID
	workers     map[string]*workerAt // by name
	refs        map[string]*wire.WorkloadRef
	perRun      float64         // mean time a run executed, in ns (learn); 0: none yet
	split       map[string]bool // runs of a batch given again, published alone since (onPending)
	filled      map[string]bool // generated workloads stored (forgetRecipe)
	inBucket    map[string]bool // SHA-256s known to be in wire.WorkloadsBucket
	heldSince   time.Time       // results held for a full disk since (zero: none)

	stop   context.CancelFunc
	subs   []*nats.Subscription
	cc     jetstream.ConsumeContext
	advCC  jetstream.ConsumeContext // wire.AdvisoriesStream's
	wg     sync.WaitGroup
	closed bool
}

// liveRun is the latest progress of a running run.
type liveRun struct {
	wire.Progress
	version, written int
}

type workerAt struct {
	hb   wire.Heartbeat
	seen time.Time
}

var _ runner.Backend = (*Dispatcher)(nil)

// NewDispatcher returns a Dispatcher over st publishing on nc.
func NewDispatcher(st *store.Store, nc *nats.Conn, cfg Config) *Dispatcher {
	cfg = cfg.withDefaults()
	return &Dispatcher{st: st, nc: nc, cfg: cfg, log: cfg.Logger, wake: make(chan struct{}, 1),
		outstanding: map[string]bool{}, progress: map[string]*liveRun{}, workers: map[string]*workerAt{},
		refs: map[string]*wire.WorkloadRef{}, split: map[string]bool{}, filled: map[string]bool{}, inBucket: map[string]bool{}, results: make(chan result, runner.MaxGroup)}
}

// result is a run's end read from the results stream, to store and then
// acknowledge.
type result struct {
	ack    *msgAck // of the message it came in
	end    store.Ending
	object string // the report's object in wire.ReportsBucket, deleted once stored
}

// advisoriesMaxAge is how long an advisory waits for the server: a server
// down longer leaves that run running (its message stays in wire.RunsStream,
// so Cancel or a new advisory ends it).
const advisoriesMaxAge = 30 * 24 * time.Hour

// maxWaiting is how many pull requests, one per idle worker slot, the
// runs consumer holds at once (JetStream's default, 512, would refuse the
// idle slots of a few hundred workers; refused ones ask again).
const maxWaiting = 8192

// Setup creates (or updates) the streams, the consumers and the buckets.
func Setup(ctx context.Context, js jetstream.JetStream, cfg Config) error {
	cfg = cfg.withDefaults()
	server := func(durable string) jetstream.ConsumerConfig {
		return jetstream.ConsumerConfig{Durable: durable, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
			MaxDeliver: -1, Description: "the schedlab server"}
	}
	for _, q := range []struct {
		stream   jetstream.StreamConfig
		consumer jetstream.ConsumerConfig
	}{
		{jetstream.StreamConfig{Name: wire.RunsStream, Subjects: []string{wire.RunSubjectPrefix + "*"}, Duplicates: 10 * time.Minute,
			Description: "schedlab: runs waiting for a worker"},
			jetstream.ConsumerConfig{Durable: wire.RunsConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: cfg.AckWait,
				MaxDeliver: cfg.MaxDeliver, MaxAckPending: -1, MaxWaiting: maxWaiting, Description: "schedlab workers"}},
		{jetstream.StreamConfig{Name: wire.ResultsStream, Subjects: []string{wire.ResultSubjectPrefix + ">"}, Duplicates: 10 * time.Minute,
			Description: "schedlab: ends of runs waiting to be stored"}, server(wire.ResultsConsumer)},
		{jetstream.StreamConfig{Name: wire.AdvisoriesStream, Subjects: []string{wire.MaxDeliveriesAdvisory}, MaxAge: advisoriesMaxAge,
			Description: "schedlab: runs whose every delivery died, until the server has ended them"}, server(wire.AdvisoriesConsumer)},
	} {
		q.stream.Retention, q.stream.Storage = jetstream.WorkQueuePolicy, jetstream.FileStorage
		if _, err := js.CreateOrUpdateStream(ctx, q.stream); err != nil {
			return fmt.Errorf("stream %s: %w", q.stream.Name, err)
		}
		if _, err := js.CreateOrUpdateConsumer(ctx, q.stream.Name, q.consumer); err != nil {
			return fmt.Errorf("consumer %s: %w", q.consumer.Durable, err)
		}
	}
	for _, b := range []string{wire.WorkloadsBucket, wire.ReportsBucket} {
		if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: b, Storage: jetstream.FileStorage}); err != nil {
			return fmt.Errorf("object store %s: %w", b, err)
		}
	}
	return nil
}

// Start sets the queue up, takes over the runs left running (see
// recover), and starts dispatching and storing results.
func (d *Dispatcher) Start(ctx context.Context) error {
	return errs.Wrap(errs.Internal, d.start(ctx))
}

func (d *Dispatcher) start(ctx context.Context) (err error) {
	if d.js, err = jetstream.New(d.nc); err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := Setup(sctx, d.js, d.cfg); err != nil {
		return err
	}
	if d.claims, err = loadClaims(sctx, d.js); err != nil {
		return err
	}
	if d.runs, err = d.js.Stream(sctx, wire.RunsStream); err != nil {
		return err
	}
	if d.workloads, err = d.js.ObjectStore(sctx, wire.WorkloadsBucket); err != nil {
		return err
	}
	if d.reports, err = d.js.ObjectStore(sctx, wire.ReportsBucket); err != nil {
		return err
	}
	running, err := d.st.ListRuns(ctx, store.RunFilter{Status: runtypes.StatusRunning})
	if err != nil {
		return err
	}
	for _, r := range running {
		d.outstanding[r.ID] = true
	}
	for subj, h := range map[string]nats.MsgHandler{
		wire.ProgressSubjects: d.onProgress, wire.HeartbeatSubject: d.onHeartbeat, wire.PendingSubject: d.onPending,
	} {
		sub, err := d.nc.Subscribe(subj, h)
		if err != nil {
			return err
		}
		d.subs = append(d.subs, sub)
	}
	if d.resultsCons, err = d.js.Consumer(sctx, wire.ResultsStream, wire.ResultsConsumer); err != nil {
		return err
	}
	adv, err := d.js.Consumer(sctx, wire.AdvisoriesStream, wire.AdvisoriesConsumer)
	if err != nil {
		return err
	}
	dctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	d.stop = stop
	if d.cc, err = d.resultsCons.Consume(func(m jetstream.Msg) { d.onResult(dctx, m) }, jetstream.PullMaxMessages(256)); err != nil {
		stop()
		return err
	}
	if d.advCC, err = adv.Consume(func(m jetstream.Msg) { d.onMaxDeliveries(dctx, m) }); err != nil {
		d.cc.Stop()
		stop()
		return err
	}
	d.wg.Add(4)
	go func() { defer d.wg.Done(); d.record(dctx) }()
	go func() { defer d.wg.Done(); d.dispatchLoop(dctx) }()
	go func() { defer d.wg.Done(); runtypes.Every(dctx, d.cfg.ProgressInterval, func() { d.flush(dctx) }) }()
	go func() { defer d.wg.Done(); d.recover(dctx, running) }()
	go func() { <-ctx.Done(); d.Shutdown(context.Background()) }()
	return nil
}

// Shutdown stops dispatching and storing results. Runs published stay in
// the stream and their workers go on: the next Start takes them over.
func (d *Dispatcher) Shutdown(ctx context.Context) error {
	d.mu.Lock()
	if d.closed || d.stop == nil {
		d.closed = true
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	d.cc.Stop()
	d.advCC.Stop()
	for _, s := range d.subs {
		s.Unsubscribe()
	}
	d.stop()
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return errs.Wrap(errs.Canceled, ctx.Err())
	}
	d.flush(context.Background())
	return nil
}

// Wake says runs were queued.
func (d *Dispatcher) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// window is how many runs may be published and not ended: at least
// Config.Window, and two batches for each slot of the live workers.
func (d *Dispatcher) window() int {
	capacity := 0
	for _, w := range d.workers {
		if !d.lost(w) {
			capacity += w.hb.Concurrency
		}
	}
	return max(d.cfg.Window, 2*capacity*d.batchSize())
}

func (d *Dispatcher) lost(w *workerAt) bool {
	return time.Since(w.seen) > 3*max(w.hb.Interval, d.cfg.HeartbeatInterval)
}

// claimGroup bounds the runs the dispatcher claims in one transaction.
const claimGroup = 256

// Batches (package doc): batchWork is about how long a batch's runs take
// together by their mean time (perRun): long enough that the server pays
// per batch, not per run; short enough that a slot's batch does not hold
// runs back from idle workers.
const (
	batchWork = 50 * time.Millisecond
	maxBatch  = 64
)

// batchSize is how many runs go in one message: batchWork over the mean
// time of recent runs, 1 until a run has ended.
func (d *Dispatcher) batchSize() int {
	if d.perRun <= 0 {
		return 1
	}
	return int(min(max(float64(batchWork)/d.perRun, 1), maxBatch))
}

// learn takes the time a run executed into perRun (an exponentially
// weighted mean over about the last 64 runs).
func (d *Dispatcher) learn(elapsed time.Duration) {
	if elapsed <= 0 {
		return
	}
	d.mu.Lock()
	if d.perRun <= 0 {
		d.perRun = float64(elapsed)
	} else {
		d.perRun += (float64(elapsed) - d.perRun) / 64
	}
	d.mu.Unlock()
}

// dispatchLoop publishes runs while fewer than the window are out.
func (d *Dispatcher) dispatchLoop(ctx context.Context) {
	poll := time.NewTicker(d.cfg.PollInterval)
	defer poll.Stop()
	for ctx.Err() == nil {
		d.dispatch(ctx)
		select {
		case <-ctx.Done():
		case <-d.wake:
		case <-poll.C:
		}
	}
}

func (d *Dispatcher) dispatch(ctx context.Context) {
	for ctx.Err() == nil {
		d.mu.Lock()
		size := d.batchSize()
		if len(d.unpublished) == 0 {
			room := d.window() - len(d.outstanding)
			if room <= 0 || d.st.Disk().Paused() {
				// A low or full disk claims nothing until Disk clears it.
				d.mu.Unlock()
				return
			}
			d.mu.Unlock()
			// At most claimGroup in one transaction (one commit).
			runs, err := d.st.ClaimUpTo(ctx, min(room, claimGroup))
			if err != nil {
				// A full disk is logged once, by the store's Disk.
				if ctx.Err() == nil && !d.st.Disk().Full(err) {
					d.log.Error("queue: claiming a run", "err", err)
				}
				return
			}
			if len(runs) == 0 {
				return
			}
			d.mu.Lock()
			for _, r := range runs {
				d.outstanding[r.ID] = true
			}
			d.unpublished = append(d.unpublished, runs...)
		}
		n := min(size, len(d.unpublished))
		batch := d.unpublished[:n:n]
		d.unpublished = d.unpublished[n:]
		d.mu.Unlock()
		failed, err := d.publishRuns(ctx, batch)
		if err != nil {
			d.log.Warn("queue: publishing runs, will try again", "runs", len(failed), "first", failed[0].ID, "err", err)
			d.mu.Lock()
			d.unpublished = append(failed[:len(failed):len(failed)], d.unpublished...)
			d.mu.Unlock()
			return
		}
	}
}

// publishRuns publishes runs: one alone as its own message (publish), more
// as one batch. A run that cannot be sent (its workload is gone) is ended
// failed; on an error of the queue it returns the runs to publish again.
func (d *Dispatcher) publishRuns(ctx context.Context, runs []*runtypes.Run) ([]*runtypes.Run, error) {
	id := runs[0].ID
	if len(runs) > 1 {
		id = wire.BatchPrefix + nuid.Next()
	}
	batch := wire.Job{ID: id, Kind: wire.KindBatch, Dispatch: id}
	var sent []*runtypes.Run
	for _, run := range runs {
		job, err := d.job(ctx, run, id)
		if err != nil {
			if errs.KindOf(err) == errs.Internal || ctx.Err() != nil {
				return runs, err
			}
			status, msg, field := execute.Outcome(err) // it cannot be sent
			d.finish(ctx, run.ID, "", status, nil, msg, field)
			continue
		}
		batch.Runs = append(batch.Runs, job)
		sent = append(sent, run)
	}
	if len(sent) == 0 {
		return nil, nil
	}
	if len(runs) == 1 {
		return sent, d.send(ctx, id, id, batch.Runs[0])
	}
	return sent, d.send(ctx, id, id, batch)
}

// send publishes job on the subject of subjectID with message ID msgID.
func (d *Dispatcher) send(ctx context.Context, subjectID, msgID string, job wire.Job) error {
	b, err := json.Marshal(job)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := d.js.Publish(pctx, wire.RunSubjectPrefix+subjectID, b, jetstream.WithMsgID(msgID)); err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return nil
}

// job is run as a worker receives it, published as dispatch msgID.
func (d *Dispatcher) job(ctx context.Context, run *runtypes.Run, msgID string) (wire.Job, error) {
	job := wire.Job{ID: run.ID, Kind: run.Kind, Strategy: run.Strategy, Variant: run.Variant, Params: run.Params,
		Seed: run.Seed, Timeout: d.cfg.Budget.Timeout, Memory: d.cfg.Budget.Memory,
		Dispatch: msgID, Claim: d.claims.claim(run.ID, msgID)}
	if run.Kind == runtypes.KindRun {
		ref, err := d.workloadRef(ctx, run.WorkloadID)
		if err != nil {
			return job, err
		}
		job.Workload = ref
	}
	return job, nil
}

// publish sends run to the workers with message ID msgID (the run ID, so
// that publishing it again within the stream's duplicate window, 10 min,
// is one run) and the claim of that dispatch.
func (d *Dispatcher) publish(ctx context.Context, run *runtypes.Run, msgID string) error {
	job, err := d.job(ctx, run, msgID)
	if err != nil {
		return err
	}
	return d.send(ctx, run.ID, msgID, job)
}

// workloadRef returns the reference of workload id, putting its data in
// wire.WorkloadsBucket the first time.
func (d *Dispatcher) workloadRef(ctx context.Context, id string) (*wire.WorkloadRef, error) {
	d.mu.Lock()
	ref := d.refs[id]
	d.mu.Unlock()
	if ref != nil {
		return ref, nil
	}
	w, err := d.st.GetWorkload(ctx, id)
	if err != nil {
		if errs.Is(err, errs.NotFound) {
			return nil, &errs.Error{Kind: errs.NotFound, Field: "workload_id", Err: fmt.Errorf("workload %s was deleted", id)}
		}
		return nil, errs.Wrap(errs.Internal, err)
	}
	if w.SHA256 == "" {
		// An experiment's workload not generated yet: the worker generates
		// it. Kept until fillGenerated stores it (then it is sent as
		// data): a sweep's runs share it, and two queries per run were
		// the largest cost of dispatching them (issue 43).
		rec, err := d.st.WorkloadRecipe(ctx, id)
		if err != nil {
			return nil, err
		}
		if rec == nil { // generated and stored since it was read
			return d.workloadRef(ctx, id)
		}
		ref = &wire.WorkloadRef{Name: w.Name, Format: w.Format, Summary: w.Summary,
			Generate: &wire.Recipe{WorkloadID: id, Preset: rec.Preset, Params: rec.Params, Seed: rec.Seed}}
	} else {
		_, err := d.workloads.GetInfo(ctx, w.SHA256)
		if errors.Is(err, jetstream.ErrObjectNotFound) {
			_, err = d.workloads.PutBytes(ctx, w.SHA256, w.Data)
		}
		if err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
		ref = &wire.WorkloadRef{SHA256: w.SHA256, Name: w.Name, Format: w.Format, Summary: w.Summary}
	}
	d.mu.Lock()
	d.refs[id] = ref
	d.mu.Unlock()
	return ref, nil
}

// forgetRecipe drops the reference of workload id if it is a recipe (its
// next runs get it as data) and remembers it stored (filled), so that the
// next results naming it cost no query.
func (d *Dispatcher) forgetRecipe(id string) {
	d.mu.Lock()
	if ref := d.refs[id]; ref != nil && ref.Generate != nil {
		delete(d.refs, id)
	}
	if len(d.filled) >= maxFilled {
		clear(d.filled)
	}
	d.filled[id] = true
	d.mu.Unlock()
}

// maxFilled bounds the workloads Dispatcher.filled remembers.
const maxFilled = 10_000

// onResult reads a result, or the Results of several runs of a batch,
// and hands them to record, which stores them and then acknowledges the
// message (once every end in it is stored). An end without the claim of
// its run (claim.go) is refused: logged, the run left to its holder; a
// message with no acceptable end is terminated.
func (d *Dispatcher) onResult(ctx context.Context, m jetstream.Msg) {
	var msg struct {
		wire.Result
		Ends []wire.Result `json:"ends"`
	}
	if err := json.Unmarshal(m.Data(), &msg); err != nil {
		d.log.Error("queue: dropping a malformed result", "subject", m.Subject(), "err", err)
		m.Term()
		return
	}
	ends := msg.Ends
	if len(ends) == 0 {
		ends = []wire.Result{msg.Result}
	}
	var rs []result
	refused, repeats := 0, 0
	for i := range ends {
		res := &ends[i]
		if res.ID == "" || !runtypes.Final(res.Status) {
			d.log.Error("queue: dropping a malformed result", "subject", m.Subject(), "run", res.ID, "status", res.Status)
			refused++
			continue
		}
		if !d.claims.holds(res.ID, res.Dispatch, res.Claim) {
			d.log.Warn("queue: refused a result that does not carry its run's claim: the sender does not hold the run",
				"run", res.ID, "claimed_worker", res.Worker, "sender", senderOf(m.Subject()), "status", res.Status)
			refused++
			continue
		}
		d.learn(res.Elapsed)
		report := res.Report
		if res.ReportObject != "" {
			b, err := d.reports.GetBytes(ctx, res.ReportObject)
			if err != nil {
				if errors.Is(err, jetstream.ErrObjectNotFound) {
					// Stored and deleted already: this is a repeat.
					repeats++
					continue
				}
				d.log.Warn("queue: reading a report", "run", res.ID, "err", err)
				m.NakWithDelay(time.Second)
				return
			}
			if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != res.ReportSHA256 {
				// Its holder's result, but another client replaced the report.
				d.log.Error("queue: the report of a run was replaced in the object store after its worker wrote it",
					"run", res.ID, "worker", res.Worker, "object", res.ReportObject)
				res.Status, res.Field, b = runtypes.StatusFailed, "", nil
				res.Error = "the report of this run was replaced in the queue by another client before the server read it; run it again"
			}
			report = b
		}
		if res.Generated != nil {
			if err := d.fillGenerated(ctx, res.Generated); err != nil {
				d.log.Warn("queue: storing a generated workload", "run", res.ID, "workload", res.Generated.WorkloadID, "err", err)
				m.NakWithDelay(time.Second)
				return
			}
		}
		rs = append(rs, result{object: res.ReportObject, end: store.Ending{ID: res.ID, Worker: res.Worker, Status: res.Status,
			Report: report, Error: res.Error, ErrorField: res.Field, StartedAt: res.StartedAt, Build: runtypes.Build(res.Build)}})
	}
	if len(rs) == 0 {
		if refused > 0 && repeats == 0 {
			m.Term()
		} else {
			m.Ack()
		}
		return
	}
	ack := &msgAck{m: m, left: len(rs)}
	for _, r := range rs {
		r.ack = ack
		select {
		case d.results <- r:
		case <-ctx.Done(): // not acknowledged: delivered again after the next Start
			return
		}
	}
}

// msgAck acknowledges a results message once each of its ends is
// stored, or hands it back (NakWithDelay, the longest delay asked) if one
// was not: its stored ends are then repeats, acknowledged and dropped.
type msgAck struct {
	m     jetstream.Msg
	mu    sync.Mutex
	left  int
	delay time.Duration // > 0: one end was not stored
}

// done says one end was stored (delay 0) or not (delay > 0).
func (a *msgAck) done(delay time.Duration) {
	a.mu.Lock()
	a.left--
	a.delay = max(a.delay, delay)
	last, delay := a.left == 0, a.delay
	a.mu.Unlock()
	switch {
	case !last:
	case delay > 0:
		a.m.NakWithDelay(delay)
	default:
		a.m.Ack()
	}
}

// fillGenerated stores the workload a worker generated for a run in the
// workload's row (the first one stored stays: generating is
// deterministic), reading its data and description from wire.ReportsBucket
// (the bucket a worker may write) and checking the data's SHA-256, then
// deletes them there. A workload stored already, or deleted since, needs
// nothing; data replaced by another client is not stored.
func (d *Dispatcher) fillGenerated(ctx context.Context, g *wire.Generated) error {
	if !g.Named() {
		// A result may name only its workload's generated objects: the
		// server reads and deletes them, which a worker may not.
		d.log.Error("queue: a result names generated objects not of its workload", "workload", g.WorkloadID, "meta", g.Meta, "data", g.Data)
		return nil // the run's end is stored; the next run generates it again
	}
	d.mu.Lock()
	filled := d.filled[g.WorkloadID]
	d.mu.Unlock()
	if filled {
		d.dropGenerated(ctx, g)
		return nil
	}
	rec, err := d.st.WorkloadRecipe(ctx, g.WorkloadID)
	if errs.Is(err, errs.NotFound) || (err == nil && rec == nil) {
		d.forgetRecipe(g.WorkloadID)
		d.dropGenerated(ctx, g)
		return nil
	}
	if err != nil {
		return err
	}
	data, err := d.reports.GetBytes(ctx, g.DataObject())
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != g.SHA256 {
		d.log.Error("queue: a generated workload was replaced in the object store after its worker wrote it", "workload", g.WorkloadID)
		return nil // the run's end is stored; the next run generates it again
	}
	metaJSON, err := d.reports.GetBytes(ctx, g.Meta)
	if err != nil {
		return err
	}
	var meta wire.GeneratedMeta
	if err := json.Unmarshal(metaJSON, &meta); err != nil {
		return err
	}
	_, err = d.st.FillWorkload(ctx, g.WorkloadID, &runtypes.Workload{Name: meta.Name, Format: meta.Format, Summary: meta.Summary,
		Data: data, Preview: meta.Preview})
	if err == nil {
		d.forgetRecipe(g.WorkloadID)
	}
	if errs.Is(err, errs.Invalid) {
		d.log.Error("queue: a worker's generated workload is not storable", "workload", g.WorkloadID, "err", err)
		return nil // the run's end is stored; the next run generates it again
	}
	if err == nil {
		d.reports.Delete(ctx, g.Meta)
		d.reports.Delete(ctx, g.DataObject())
	}
	return err
}

// dropGenerated deletes the objects of a generation the server does not
// need (its workload stored already, or gone), when they are that
// generation's own (Generated.Data set): objects of the shared older
// names may still be another result's to read.
func (d *Dispatcher) dropGenerated(ctx context.Context, g *wire.Generated) {
	if g.Data != "" {
		d.reports.Delete(ctx, g.Meta)
		d.reports.Delete(ctx, g.Data)
	}
}

// record stores the results onResult reads in groups (runner.GroupCommit),
// acknowledging each once stored; one for a run not running (a repeat, or
// canceled meanwhile) is acknowledged and dropped; one the store failed to
// write comes back a second later; one the disk had no room for stays in
// wire.ResultsStream, held, never dropped, delivered again with a doubling
// back-off (fullBackoff) and logged when the holding begins and ends.
func (d *Dispatcher) record(ctx context.Context) {
	runner.GroupCommit(ctx, d.results, func(r result) store.Ending { return r.end }, d.st.End, func(group []result, outcomes []error) {
		held := 0
		for i, err := range outcomes {
			r := group[i]
			if d.st.Disk().Full(err) {
				held++
				r.ack.done(fullBackoff(r.ack.m))
				continue
			}
			if d.stored(r.end, err) != nil {
				r.ack.done(time.Second)
				continue
			}
			r.ack.done(0)
			if r.object != "" {
				d.reports.Delete(ctx, r.object)
			}
		}
		d.holding(held, len(group))
		d.Wake()
		if d.cfg.Ended != nil {
			d.cfg.Ended()
		}
	})
}

const (
	fullBackoffMin = 250 * time.Millisecond
	fullBackoffMax = 10 * time.Second
)

// fullBackoff is the delay before m, held for a full disk, is delivered
// again: fullBackoffMin on its first delivery, doubled on each next.
func fullBackoff(m jetstream.Msg) time.Duration {
	n := uint64(1)
	if md, err := m.Metadata(); err == nil && md.NumDelivered > 0 {
		n = md.NumDelivered
	}
	return min(fullBackoffMin<<min(n-1, 10), fullBackoffMax)
}

// holding logs when results begin to be held for a full disk (held of a
// group of n) and when they are stored again: once per change.
func (d *Dispatcher) holding(held, n int) {
	d.mu.Lock()
	was := d.heldSince
	switch {
	case held > 0 && was.IsZero():
		d.heldSince = time.Now()
	case held == 0 && n > 0 && !was.IsZero():
		d.heldSince = time.Time{}
	default:
		d.mu.Unlock()
		return
	}
	d.mu.Unlock()
	if held > 0 {
		d.log.Warn("queue: the disk is full: results are held in the results stream, unacknowledged, until they can be stored", "results", held)
		return
	}
	d.log.Info("queue: storing results again after the disk was full", "held_for", time.Since(was).Round(time.Millisecond).String())
}

// finish stores the end of a run (Conflict: it ended already, fine) and
// forgets it; an error is one of the store, to try again.
func (d *Dispatcher) finish(ctx context.Context, id, worker, status string, report json.RawMessage, msg, field string) error {
	e := store.Ending{ID: id, Worker: worker, Status: status, Report: report, Error: msg, ErrorField: field}
	if err := d.stored(e, d.st.End(ctx, []store.Ending{e})[0]); err != nil {
		return err
	}
	d.Wake()
	return nil
}

// stored takes the outcome err of storing end: the run is forgotten unless
// err is an error of the store (returned, to try again); Conflict (it
// ended already) and NotFound (deleted) are fine.
func (d *Dispatcher) stored(end store.Ending, err error) error {
	if err != nil && !errs.Is(err, errs.Conflict) && !errs.Is(err, errs.NotFound) {
		d.log.Error("queue: storing the end of a run", "run", end.ID, "status", end.Status, "err", err)
		return err
	}
	d.mu.Lock()
	delete(d.outstanding, end.ID)
	delete(d.progress, end.ID)
	delete(d.split, end.ID)
	d.mu.Unlock()
	return nil
}

func (d *Dispatcher) onProgress(m *nats.Msg) {
	id := strings.TrimPrefix(m.Subject, wire.ProgressPrefix)
	var p wire.Progress
	if json.Unmarshal(m.Data, &p) != nil || !d.claims.holds(id, p.Dispatch, p.Claim) {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.outstanding[id] {
		return // ended already
	}
	lr := d.progress[id]
	if lr == nil {
		lr = &liveRun{}
		d.progress[id] = lr
	}
	lr.Progress = p
	lr.version++
}

// Progress is the live progress of a run a worker executes.
func (d *Dispatcher) Progress(id string) (done, total int, note string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	lr := d.progress[id]
	if lr == nil {
		return 0, 0, "", false
	}
	return lr.Done, lr.Total, lr.Note, true
}

// flush writes the progress received since to the store (every
// ProgressInterval).
func (d *Dispatcher) flush(ctx context.Context) {
	type write struct {
		id string
		p  wire.Progress
		v  int
	}
	var ws []write
	d.mu.Lock()
	for id, lr := range d.progress {
		if lr.version != lr.written {
			ws = append(ws, write{id: id, p: lr.Progress, v: lr.version})
		}
	}
	d.mu.Unlock()
	for _, w := range ws {
		if err := d.st.SetProgressBy(ctx, w.id, w.p.Worker, w.p.Started, w.p.Done, w.p.Total, w.p.Note); err != nil {
			d.st.Disk().Full(err)
			continue
		}
		d.mu.Lock()
		if lr := d.progress[w.id]; lr != nil {
			lr.written = w.v
		}
		d.mu.Unlock()
	}
}

func (d *Dispatcher) onHeartbeat(m *nats.Msg) {
	var hb wire.Heartbeat
	if json.Unmarshal(m.Data, &hb) != nil || hb.Name == "" {
		return
	}
	d.mu.Lock()
	old := d.workers[hb.Name]
	grew := !hb.Leaving && (old == nil || d.lost(old) || old.hb.Concurrency < hb.Concurrency)
	if hb.Leaving {
		delete(d.workers, hb.Name)
	} else {
		d.workers[hb.Name] = &workerAt{hb: hb, seen: time.Now()}
	}
	d.mu.Unlock()
	if grew {
		d.Wake() // the window may have grown
	}
}

// workerGrace is how long a lost worker stays listed (marked lost, with
// where its runs went) before it is dropped: long enough to be seen, short
// enough that a dead worker does not stay on /workers as running runs
// that others have since finished.
const workerGrace = 2 * time.Minute

// Workers lists the workers heard from, by name; lost ones last, and
// dropped workerGrace after they were lost.
func (d *Dispatcher) Workers() []runtypes.WorkerStatus {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []runtypes.WorkerStatus
	for name, w := range d.workers {
		if time.Since(w.seen) > 3*max(w.hb.Interval, d.cfg.HeartbeatInterval)+workerGrace {
			delete(d.workers, name)
			continue
		}
		s := w.hb.WorkerStatus
		s.LastSeen, s.Lost = w.seen, d.lost(w)
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Lost != out[j].Lost {
			return !out[i].Lost
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// workerOf names the worker that last reported on run id, if any.
func (d *Dispatcher) workerOf(id string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if lr := d.progress[id]; lr != nil {
		return lr.Worker
	}
	return ""
}

// onMaxDeliveries ends a run every delivery of which died with its
// worker: JetStream gave it MaxDeliver times and no worker acknowledged it
// (m is its MAX_DELIVERIES advisory, kept in wire.AdvisoriesStream): it
// is stored failed ("worker died: ...") and its message deleted. The
// advisory is acknowledged once the run is ended (or was already, or its
// message is gone); a store error leaves it to be taken again.
func (d *Dispatcher) onMaxDeliveries(ctx context.Context, m jetstream.Msg) {
	var adv struct {
		StreamSeq  uint64 `json:"stream_seq"`
		Deliveries uint64 `json:"deliveries"`
	}
	if json.Unmarshal(m.Data(), &adv) != nil {
		m.Term() // not an advisory: never again
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	raw, err := d.runs.GetMsg(ctx, adv.StreamSeq)
	if err != nil {
		d.log.Warn("queue: a run reached its last delivery and its message is gone", "seq", adv.StreamSeq, "err", err)
		m.Ack()
		return
	}
	id := strings.TrimPrefix(raw.Subject, wire.RunSubjectPrefix)
	ids := []string{id}
	if strings.HasPrefix(id, wire.BatchPrefix) {
		ids = d.diedInBatch(ctx, raw.Data)
	}
	for _, id := range ids {
		if err := d.died(ctx, id, adv.Deliveries); err != nil {
			m.NakWithDelay(time.Second)
			return
		}
	}
	d.runs.DeleteMsg(ctx, adv.StreamSeq)
	m.Ack()
}

// pendingWait bounds how long a batch given again waits for the results
// sent before it to be stored.
const pendingWait = 5 * time.Second

// diedInBatch lists the runs of a batch whose every delivery died that
// are neither ended nor published alone since (onPending).
func (d *Dispatcher) diedInBatch(ctx context.Context, data []byte) []string {
	var batch wire.Job
	if json.Unmarshal(data, &batch) != nil {
		return nil
	}
	var ids []string
	for _, r := range batch.Runs {
		d.mu.Lock()
		left := d.outstanding[r.ID] && !d.split[r.ID]
		d.mu.Unlock()
		if !left {
			continue
		}
		if _, err := d.runs.GetLastMsgForSubject(ctx, wire.RunSubjectPrefix+r.ID); err == nil {
			continue // published alone since (a restarted server does not remember split)
		}
		ids = append(ids, r.ID)
	}
	return ids
}

// died ends run id failed: its worker died deliveries times.
func (d *Dispatcher) died(ctx context.Context, id string, deliveries uint64) error {
	msg := fmt.Sprintf("worker died: the run was given to a worker %d times and each stopped before finishing it (a fatal error such as running out of memory, or a killed process)", deliveries)
	w := d.workerOf(id)
	if w != "" {
		msg += "; last on " + w
	}
	return d.finish(ctx, id, w, runtypes.StatusFailed, nil, msg, "")
}

// onPending answers a worker given a batch again (wire.PendingSubject;
// package doc): the first of its runs not ended yet; the others are
// published alone (a new dispatch each, as recover does).
func (d *Dispatcher) onPending(m *nats.Msg) {
	var batch wire.Job
	if json.Unmarshal(m.Data, &batch) != nil {
		return
	}
	go d.answerPending(m, batch)
}

// answerPending answers onPending's request once the results published
// before it are stored (the last worker may have sent ends just before
// it died), or after pendingWait.
func (d *Dispatcher) answerPending(m *nats.Msg, batch wire.Job) {
	ctx, cancel := context.WithTimeout(context.Background(), pendingWait)
	defer cancel()
	if s, err := d.js.Stream(ctx, wire.ResultsStream); err == nil {
		last := s.CachedInfo().State.LastSeq
		wire.WaitFor(ctx, 20*time.Millisecond, func() error {
			info, err := d.resultsCons.Info(ctx)
			if err != nil {
				return err
			}
			if info.AckFloor.Stream < last {
				return errors.New("results before the request not stored yet")
			}
			return nil
		})
	}
	var left []string
	d.mu.Lock()
	for _, r := range batch.Runs {
		if d.claims.holds(r.ID, r.Dispatch, r.Claim) && d.outstanding[r.ID] && !d.split[r.ID] {
			left = append(left, r.ID)
		}
	}
	rest := []string{}
	if len(left) > 1 {
		rest = left[1:]
		left = left[:1]
		for _, id := range rest {
			d.split[id] = true
		}
	}
	d.mu.Unlock()
	b, _ := json.Marshal(wire.Pending{Runs: left})
	m.Respond(b)
	if len(rest) == 0 {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, id := range rest {
			run, err := d.st.GetRunInfo(ctx, id)
			if err != nil || run.Status != runtypes.StatusRunning {
				continue
			}
			if err := d.publish(ctx, run, fmt.Sprintf("%s.%d", id, time.Now().UnixNano())); err != nil {
				d.log.Warn("queue: publishing alone a run of a batch given again", "run", id, "err", err)
				d.mu.Lock()
				delete(d.split, id) // the batch's advisory ends it
				d.mu.Unlock()
			}
		}
	}()
}

// cancelGrace is how long the worker running a canceled run has to store
// it canceled before the server does.
const cancelGrace = 10 * time.Second

// Cancel stops a running run: its message leaves the stream if it is still
// there, every worker is told (the one running it stops it; the others
// remember it a minute, in case its message is on its way to them), and
// the run is stored canceled at once unless a worker is known to run it
// (its progress or heartbeat named it); then that worker stores it, or
// the server does after cancelGrace. An experiment's cancel thus ends the
// runs waiting in the stream at once, without a round trip each.
func (d *Dispatcher) Cancel(ctx context.Context, id string) error {
	if raw, err := d.runs.GetLastMsgForSubject(ctx, wire.RunSubjectPrefix+id); err == nil {
		d.runs.DeleteMsg(ctx, raw.Sequence)
	}
	if err := d.nc.Publish(wire.CancelSubject, []byte(id)); err != nil {
		d.log.Warn("queue: telling the workers of a cancel", "run", id, "err", err)
	}
	d.mu.Lock()
	for i, r := range d.unpublished {
		if r.ID == id {
			d.unpublished = append(d.unpublished[:i:i], d.unpublished[i+1:]...)
			break
		}
	}
	_, onWorker := d.progress[id]
	for _, w := range d.workers {
		for _, r := range w.hb.Running {
			onWorker = onWorker || r == id
		}
	}
	d.mu.Unlock()
	if onWorker {
		time.AfterFunc(cancelGrace, func() {
			d.finish(context.Background(), id, "", runtypes.StatusCanceled, nil, runtypes.MsgCanceled, "")
		})
		return nil
	}
	return d.finish(ctx, id, "", runtypes.StatusCanceled, nil, runtypes.MsgCanceled, "")
}

// notInBatches returns the runs of runs that no batch waiting in
// wire.RunsStream holds: it reads the stream's messages (a few windows at
// most: a message leaves it once its runs have ended).
func (d *Dispatcher) notInBatches(ctx context.Context, runs []runtypes.Run) []runtypes.Run {
	held := map[string]bool{}
	for seq := uint64(1); ctx.Err() == nil; {
		raw, err := d.runs.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(wire.RunSubjectPrefix+"*"))
		if err != nil {
			break
		}
		seq = raw.Sequence + 1
		if !strings.HasPrefix(raw.Subject, wire.RunSubjectPrefix+wire.BatchPrefix) {
			continue
		}
		var batch wire.Job
		if json.Unmarshal(raw.Data, &batch) == nil {
			for _, r := range batch.Runs {
				held[r.ID] = true
			}
		}
	}
	var out []runtypes.Run
	for _, r := range runs {
		if !held[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// recoveryGrace is how long Start waits for heartbeats before it decides
// which runs left running no worker has.
func (d *Dispatcher) recoveryGrace() time.Duration { return 2*d.cfg.HeartbeatInterval + time.Second }

// recover takes over the runs a previous server left running. A run whose
// message is still in wire.RunsStream waits for its worker; one a worker says
// it runs (heartbeats) will come back as a result; the rest, claimed but
// never published or lost, are published again (a fresh message ID, since
// the old one may still be in the stream's duplicate window).
func (d *Dispatcher) recover(ctx context.Context, running []runtypes.Run) {
	var suspects []runtypes.Run
	for _, r := range running {
		if _, err := d.runs.GetLastMsgForSubject(ctx, wire.RunSubjectPrefix+r.ID); err == nil {
			continue
		}
		suspects = append(suspects, r)
	}
	if len(suspects) > 0 {
		suspects = d.notInBatches(ctx, suspects)
	}
	if len(suspects) == 0 {
		return
	}
	select {
	case <-ctx.Done():
		return
	case <-time.After(d.recoveryGrace()):
	}
	// Results waiting in wire.ResultsStream end their runs: store them first.
	wire.WaitFor(ctx, 100*time.Millisecond, func() error {
		info, err := d.resultsCons.Info(ctx)
		if err != nil {
			return err
		}
		if info.NumPending > 0 || info.NumAckPending > 0 {
			return fmt.Errorf("%d results still to store", info.NumPending+uint64(info.NumAckPending))
		}
		return nil
	})
	busy := map[string]bool{}
	for _, w := range d.Workers() {
		for _, id := range w.Running {
			busy[id] = true
		}
	}
	for _, r := range suspects {
		if busy[r.ID] {
			continue
		}
		cur, err := d.st.GetRunInfo(ctx, r.ID)
		if err != nil || cur.Status != runtypes.StatusRunning {
			continue
		}
		if _, err := d.runs.GetLastMsgForSubject(ctx, wire.RunSubjectPrefix+r.ID); err == nil {
			continue
		}
		if len(d.notInBatches(ctx, []runtypes.Run{*cur})) == 0 {
			continue
		}
		d.log.Info("queue: publishing again a run no worker has", "run", r.ID)
		if err := d.publish(ctx, cur, fmt.Sprintf("%s.%d", r.ID, time.Now().UnixNano())); err != nil {
			d.log.Warn("queue: publishing a run again", "run", r.ID, "err", err)
		}
	}
}
