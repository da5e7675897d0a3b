package worker

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"schedlab/buildinfo"
	"schedlab/cache"
	"schedlab/errs"
	"schedlab/execute"
	"schedlab/queue/wire"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
)

// Config configures a worker. Zero fields take the defaults.
type Config struct {
	// Lookup finds the strategies this worker can execute.
	Lookup func(name string) (*solvers.Strategy, bool)
	// Concurrency is how many runs it executes at once (1: each run has
	// the process, and its memory budget, to itself).
	Concurrency int
	// ExitWhenIdle, when positive, stops the worker after it has had no
	// run for that long (a pilot job that gives its allocation back).
	ExitWhenIdle time.Duration
	// Name identifies it on the /workers page and on its runs (host:pid).
	Name string
	// Key is the worker's own key, as wire.ConnectWorker returns it: its
	// results go out under it (schedlab.result.<key>.<run>), the only
	// result subject the embedded server lets it publish to. Empty: a
	// deployment without per-worker keys (schedlab.result.<run>).
	Key string
	// HeartbeatInterval (wire.DefaultHeartbeatInterval) and ProgressInterval
	// (execute.DefaultProgressInterval).
	HeartbeatInterval, ProgressInterval time.Duration
	// CacheBytes bounds the workloads kept in memory (256 MiB).
	CacheBytes int
	// Logger (slog.Default()).
	Logger *slog.Logger
}

// fetchWait is how long one pull request waits for a run.
const fetchWait = 2 * time.Second

// worker is one worker process's state.
type worker struct {
	cfg     Config
	nc      *nats.Conn
	js      jetstream.JetStream
	cons    jetstream.Consumer
	reports jetstream.ObjectStore
	objs    jetstream.Stream // wire.WorkloadsBucket's stream, read message by message
	log     *slog.Logger
	ackWait time.Duration
	started time.Time

	mu       sync.Mutex
	running  map[string]context.CancelCauseFunc
	canceled map[string]time.Time               // cancels of runs not (yet) here
	cache    *cache.LRU[string, cachedWorkload] // workloads by SHA-256, within CacheBytes
	// generated are the workloads this worker generated, by workload ID
	// (forgotten past maxGenerated); gens generates each once at a time.
	generated map[string]*wire.Generated
	gens      execute.Generations
	tag       string // random, this process's: its generated objects' names (generatedNames)
	memLimit  int64
	lastBusy  time.Time
	done      atomic.Int64
	idleExit  atomic.Bool // stopped by ExitWhenIdle
}

// Run connects a worker to the queue over nc and executes runs until
// ctx is done (or it has been idle for cfg.ExitWhenIdle). It waits for the
// server to have created the queue. Runs cut off by ctx go back to the
// queue for another worker.
func Run(ctx context.Context, nc *nats.Conn, cfg Config) error {
	if cfg.Lookup == nil {
		return errors.New("queue: a worker needs strategies")
	}
	cfg.Concurrency = runtypes.OrDefault(cfg.Concurrency, 1)
	if cfg.Name == "" {
		host, _ := os.Hostname()
		cfg.Name = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	cfg.HeartbeatInterval = runtypes.OrDefault(cfg.HeartbeatInterval, wire.DefaultHeartbeatInterval)
	cfg.ProgressInterval = runtypes.OrDefault(cfg.ProgressInterval, execute.DefaultProgressInterval)
	cfg.CacheBytes = runtypes.OrDefault(cfg.CacheBytes, 256<<20)
	cfg.Logger = cmp.Or(cfg.Logger, slog.Default())
	w := &worker{cfg: cfg, nc: nc, log: cfg.Logger, started: time.Now(), lastBusy: time.Now(),
		running: map[string]context.CancelCauseFunc{}, canceled: map[string]time.Time{}, cache: cache.New[string, cachedWorkload](cfg.CacheBytes),
		memLimit: debug.SetMemoryLimit(-1), tag: randomTag()}
	var err error
	if w.js, err = jetstream.New(nc); err != nil {
		return err
	}
	// The server creates the queue; a worker started first waits for it.
	err = wire.WaitFor(ctx, time.Second, func() error {
		if w.cons, err = w.js.Consumer(ctx, wire.RunsStream, wire.RunsConsumer); err != nil {
			return err
		}
		if _, err = w.js.ObjectStore(ctx, wire.WorkloadsBucket); err != nil {
			return err
		}
		if w.objs, err = w.js.Stream(ctx, "OBJ_"+wire.WorkloadsBucket); err != nil {
			return err
		}
		w.reports, err = w.js.ObjectStore(ctx, wire.ReportsBucket)
		return err
	})
	if err != nil {
		return fmt.Errorf("waiting for the schedlab queue on %s: %w", nc.ConnectedUrlRedacted(), err)
	}
	w.ackWait = runtypes.OrDefault(w.cons.CachedInfo().Config.AckWait, wire.DefaultAckWait)
	sub, err := nc.Subscribe(wire.CancelSubject, w.onCancel)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()

	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Add(1)
		go func() { defer wg.Done(); w.slot(wctx, stop) }()
	}
	hbDone := make(chan struct{})
	go func() { defer close(hbDone); w.heartbeats(wctx) }()
	w.log.Info("schedlab worker ready", "name", cfg.Name, "nats", nc.ConnectedUrlRedacted(), "concurrency", cfg.Concurrency)
	wg.Wait()
	stop()
	<-hbDone
	if w.idleExit.Load() {
		w.log.Info("schedlab worker idle, exiting", "idle_for", cfg.ExitWhenIdle)
	}
	w.beat(true)
	nc.Flush()
	return nil
}

// slot fetches and executes runs one at a time until ctx is done.
func (w *worker) slot(ctx context.Context, stop context.CancelFunc) {
	for ctx.Err() == nil {
		fctx, cancel := context.WithTimeout(ctx, fetchWait)
		msg, err := w.cons.Next(jetstream.FetchContext(fctx))
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
				w.log.Warn("queue: asking for a run", "err", err)
				// Disconnected, or the queue is being set up again: wait a little.
				select {
				case <-ctx.Done():
				case <-time.After(250 * time.Millisecond):
				}
			}
			if w.idle() {
				w.idleExit.Store(true)
				stop()
				return
			}
			continue
		}
		w.handle(ctx, msg)
	}
}

// track makes run id's context, which a cancel of it (onCancel, or one
// received before it came) stops; done forgets it.
func (w *worker) track(ctx context.Context, id string) (rctx context.Context, done func()) {
	rctx, cancel := context.WithCancelCause(ctx)
	w.mu.Lock()
	w.running[id] = cancel
	_, wasCanceled := w.canceled[id]
	w.mu.Unlock()
	if wasCanceled {
		cancel(execute.ErrUserCanceled)
	}
	return rctx, func() {
		cancel(nil)
		w.mu.Lock()
		delete(w.running, id)
		w.lastBusy = time.Now()
		w.mu.Unlock()
	}
}

// idle reports whether the worker has had no run for ExitWhenIdle.
func (w *worker) idle() bool {
	if w.cfg.ExitWhenIdle <= 0 {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.running) == 0 && time.Since(w.lastBusy) >= w.cfg.ExitWhenIdle
}

// handle executes one run's message and acknowledges it once its result
// is in ResultsStream. A run cut off because the worker is stopping is
// handed back (Nak) for another worker; JetStream counts that as a
// delivery. A run delivered again says which attempt it is in its
// progress note.
func (w *worker) handle(ctx context.Context, msg jetstream.Msg) {
	var job wire.Job
	if err := json.Unmarshal(msg.Data(), &job); err != nil || job.ID == "" {
		w.log.Error("queue: dropping a malformed run message", "subject", msg.Subject(), "err", err)
		msg.Term()
		return
	}
	if job.Kind == wire.KindBatch {
		w.handleBatch(ctx, msg, &job)
		return
	}
	rctx, done := w.track(ctx, job.ID)
	defer done()

	defer w.keepAlive(msg)()

	note := ""
	if md, err := msg.Metadata(); err == nil && md.NumDelivered > 1 {
		note = fmt.Sprintf("attempt %d: the worker of the last one stopped before finishing it", md.NumDelivered)
		// Its last worker may have sent its end and died before
		// acknowledging it: then it is not executed again.
		if left := w.pending(ctx, &wire.Job{ID: job.ID, Kind: wire.KindBatch, Dispatch: job.Dispatch, Runs: []wire.Job{job}}); len(left) == 0 {
			actx, acancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer acancel()
			msg.DoubleAck(actx)
			return
		}
	}
	start := time.Now()
	pub := w.progressPublisher(&job, note, false)
	rep, gen, err := w.execute(rctx, &job, pub.progress)
	pub.stop()

	if err != nil && errs.KindOf(err) == errs.Canceled && !errors.Is(err, execute.ErrUserCanceled) {
		// Cut off by this worker stopping: give it back at once.
		msg.Nak()
		return
	}
	res := wire.Result{ID: job.ID, Worker: w.cfg.Name, StartedAt: pub.cur.Started, Generated: gen, Build: buildinfo.Current(),
		Dispatch: job.Dispatch, Claim: job.Claim, Elapsed: time.Since(start)}
	res.Status, res.Report, res.Error, res.Field = execute.Ended(w.log, "queue", job.ID, job.Strategy, rep, err)
	if err := w.sendResult(ctx, &res); err != nil {
		w.log.Error("queue: sending a result, the run goes back to the queue", "run", job.ID, "err", err)
		msg.Nak()
		return
	}
	w.done.Add(1)
	actx, acancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer acancel()
	msg.DoubleAck(actx) // an error: deleted by a cancel, or redelivered; the result is stored once either way
}

// execute resolves a job's strategy and workload (generating it first
// when the job carries its recipe) and runs it with the server's budget;
// the process's soft memory limit covers its runs. gen names the workload
// generated for the run, if any.
func (w *worker) execute(ctx context.Context, job *wire.Job, progress solvers.Progress) (rep *report.Report, gen *wire.Generated, err error) {
	s, ok := w.cfg.Lookup(job.Strategy)
	if !ok {
		return nil, nil, &errs.Error{Kind: errs.NotFound, Field: "strategy",
			Err: fmt.Errorf("strategy %q is not in the build of worker %s", job.Strategy, w.cfg.Name)}
	}
	w.raiseMemoryLimit(job.Memory)
	if job.Kind == runtypes.KindReproduce {
		rep, err := execute.Reproduce(ctx, s, job.Params, progress, budgetOf(job))
		return rep, nil, err
	}
	if job.Workload == nil {
		return nil, nil, &errs.Error{Kind: errs.Invalid, Field: "workload_id", Err: errors.New("the run names no workload")}
	}
	ref := *job.Workload
	var data []byte
	var memo *solvers.Memo
	if ref.Generate != nil {
		var generated []byte
		if gen, generated, err = w.generate(ctx, s, job); err != nil {
			return nil, nil, err
		}
		ref.SHA256 = gen.SHA256
		data, memo = w.remember(gen.SHA256, generated) // the server has not stored it yet
	} else {
		data, memo, err = w.workload(ctx, ref.SHA256)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, gen, &errs.Error{Kind: errs.Canceled, Err: context.Cause(ctx)}
		}
		return nil, gen, errs.Wrap(errs.Internal, err)
	}
	sw := &solvers.Workload{Name: ref.Name, Format: ref.Format, Summary: ref.Summary, Data: data, Decoded: memo}
	rep, err = execute.Run(ctx, s, sw, job.Variant, job.Params, progress, budgetOf(job))
	return rep, gen, err
}

// generate generates the workload of job's recipe with s under the job's
// budget, once per workload however many of its runs this worker holds
// (execute.Generations), and puts its data (wire.GeneratedData of its SHA-256)
// and description in wire.ReportsBucket for the server to store.
func (w *worker) generate(ctx context.Context, s *solvers.Strategy, job *wire.Job) (*wire.Generated, []byte, error) {
	g := job.Workload.Generate
	w.mu.Lock()
	done := w.generated[g.WorkloadID]
	var data []byte
	if done != nil {
		c, ok := w.cache.Get(done.SHA256)
		if !ok {
			done = nil // its data left the cache: generate it again (the same bytes)
		}
		data = c.data
	}
	w.mu.Unlock()
	if done != nil {
		return done, data, nil
	}
	dataObj, metaObj := w.generatedNames(g.WorkloadID)
	sw, err := w.gens.Do(ctx, g.WorkloadID, func(ctx context.Context) (*runtypes.Workload, error) {
		sw, err := execute.GenerateRecipe(ctx, s, &runtypes.Recipe{WorkloadID: g.WorkloadID, Strategy: job.Strategy,
			Preset: g.Preset, Params: g.Params, Seed: g.Seed}, budgetOf(job))
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(sw.Data)
		sw.SHA256 = hex.EncodeToString(sum[:])
		meta, err := json.Marshal(wire.GeneratedMeta{Name: sw.Name, Format: sw.Format, Summary: sw.Summary, Preview: sw.Preview})
		if err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
		// Into wire.ReportsBucket, the one bucket a worker may write, under
		// names of this generation's own (wire.Generated): the server
		// checks the data's SHA-256, stores it and deletes both.
		if _, err := w.reports.PutBytes(ctx, dataObj, sw.Data); err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
		if _, err := w.reports.PutBytes(ctx, metaObj, meta); err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
		return sw, nil
	})
	if err != nil {
		return nil, nil, err
	}
	done = &wire.Generated{WorkloadID: g.WorkloadID, SHA256: sw.SHA256, Meta: metaObj, Data: dataObj}
	w.mu.Lock()
	if w.generated == nil || len(w.generated) >= maxGenerated {
		w.generated = map[string]*wire.Generated{}
	}
	w.generated[g.WorkloadID] = done
	w.mu.Unlock()
	return done, sw.Data, nil
}

// generatedNames are the objects this worker writes for a workload it
// generates: names of its own (its process's random tag), so that two
// workers generating one workload at once never write one object
// (wire.Generated). A worker generates a workload again only once the
// server has stored and deleted its objects (or its run was lost), so
// its own names never meet a pending object either.
func (w *worker) generatedNames(id string) (data, meta string) {
	return "generated-data-" + id + "-" + w.tag, "generated-" + id + "-" + w.tag
}

// randomTag is 16 random hex digits.
func randomTag() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// maxGenerated bounds the generated workloads a worker remembers: past
// it, it forgets them all (a run of one then fetches it again or, if the
// server has not stored it yet, generates it again: the same bytes).
const maxGenerated = 10_000

// raiseMemoryLimit sets the Go soft memory limit to the budget of the runs
// this process may hold at once, plus room for the runtime (budget ×
// Concurrency + 256 MiB): the GC works harder near a run's budget, and
// the watchdog stops the run past it.
func (w *worker) raiseMemoryLimit(budget int64) {
	want := int64(min(budget, 1<<50))*int64(w.cfg.Concurrency) + 256<<20
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.memLimit < 0 || want > w.memLimit || w.memLimit == int64(^uint64(0)>>1) {
		w.memLimit = want
		debug.SetMemoryLimit(want)
	}
}

// cachedWorkload is a workload's data and the memo of its decoded forms
// (solvers.Workload.Decoded), shared by the runs of the workload.
type cachedWorkload struct {
	data []byte
	memo *solvers.Memo
}

// workload returns the data of a workload, from the cache or the bucket,
// with the memo its runs share (nil for a workload not kept).
func (w *worker) workload(ctx context.Context, sha string) ([]byte, *solvers.Memo, error) {
	if c, ok := w.cache.Get(sha); ok {
		return c.data, c.memo, nil
	}
	b, err := readObject(ctx, w.objs, wire.WorkloadsBucket, sha)
	if err != nil {
		return nil, nil, err
	}
	data, memo := w.remember(sha, b)
	return data, memo, nil
}

// remember keeps workload data b (of SHA-256 sha) in the cache, within
// CacheBytes (least recently used out first), and returns what the cache
// holds for it (b without a memo when b alone is larger than the cache).
func (w *worker) remember(sha string, b []byte) ([]byte, *solvers.Memo) {
	w.mu.Lock() // one memo per workload: no two callers put the same sha
	defer w.mu.Unlock()
	if c, ok := w.cache.Get(sha); ok {
		return c.data, c.memo
	}
	if len(b) > w.cfg.CacheBytes {
		return b, nil
	}
	c := cachedWorkload{data: b, memo: solvers.NewMemo()}
	w.cache.Put(sha, c, len(b))
	return c.data, c.memo
}

// sendResult publishes res on ResultsStream (a report too large for a
// message through wire.ReportsBucket), retrying while the connection is down
// (a server restarting) until the worker stops, then for AckWait more.
// Meanwhile InProgress keeps the run this worker's once reconnected; if
// it went to another worker all the same, the result is stored once.
func (w *worker) sendResult(wctx context.Context, res *wire.Result) error {
	ctx, cancel := context.WithCancel(context.WithoutCancel(wctx))
	defer cancel()
	stop := context.AfterFunc(wctx, func() { time.AfterFunc(w.ackWait, cancel) })
	defer stop()
	if err := w.bigReport(ctx, res); err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	subject := wire.ResultSubjectPrefix + res.ID
	if w.cfg.Key != "" {
		subject = wire.ResultSubjectPrefix + w.cfg.Key + "." + res.ID
	}
	return wire.WaitFor(ctx, 250*time.Millisecond, func() error {
		_, err := w.js.Publish(ctx, subject, b, jetstream.WithMsgID(wire.ResultMsgID(res.ID, res.Claim)))
		return err
	})
}

// bigReport moves a report too large for a message (one of a batch's
// Results holds up to maxEnds reports) to wire.ReportsBucket: a name no
// other client can guess, and the report's digest in the result, which
// only this worker can publish (claim.go).
func (w *worker) bigReport(ctx context.Context, res *wire.Result) error {
	if len(res.Report) <= bigReportBytes {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.ackWait)
	defer cancel()
	name := res.ID + "." + nuid.Next()
	if _, err := w.reports.PutBytes(ctx, name, res.Report); err != nil {
		return err
	}
	sum := sha256.Sum256(res.Report)
	res.Report, res.ReportObject, res.ReportSHA256 = nil, name, hex.EncodeToString(sum[:])
	return nil
}

// bigReportBytes is the largest report sent inside a result: maxEnds of
// them stay within NATS's default 1 MiB message.
const bigReportBytes = 16 << 10

// onCancel stops a run if it executes here; a cancel of a run
// not here is remembered a while, in case its message is on its way.
func (w *worker) onCancel(m *nats.Msg) {
	id := string(m.Data)
	w.mu.Lock()
	cancel := w.running[id]
	if cancel == nil {
		now := time.Now()
		for k, t := range w.canceled {
			if now.Sub(t) > time.Minute {
				delete(w.canceled, k)
			}
		}
		w.canceled[id] = now
	}
	w.mu.Unlock()
	if cancel != nil {
		cancel(execute.ErrUserCanceled)
	}
}

// progressPublisher sends a run's progress on its subject at most once
// per ProgressInterval, at once when the run starts (which tells the
// server which worker has it) and once more at the end.
type progressPublisher struct {
	w      *worker
	subj   string
	mu     sync.Mutex
	cur    wire.Progress
	sent   bool
	dirty  bool
	last   time.Time
	stopCh chan struct{}
	done   chan struct{}
}

// late, for a run of a batch, sends the first progress only once the run
// has taken ProgressInterval, so a batch's short runs send none (the
// worker's heartbeat names the run it executes).
func (w *worker) progressPublisher(job *wire.Job, note string, late bool) *progressPublisher {
	p := &progressPublisher{w: w, subj: wire.ProgressPrefix + job.ID, cur: wire.Progress{Worker: w.cfg.Name, Note: note, Started: time.Now(),
		Dispatch: job.Dispatch, Claim: job.Claim},
		stopCh: make(chan struct{}), done: make(chan struct{})}
	if !late {
		p.send()
	}
	go func() {
		defer close(p.done)
		t := time.NewTicker(w.cfg.ProgressInterval)
		defer t.Stop()
		for {
			select {
			case <-p.stopCh:
				p.mu.Lock()
				sent := p.sent
				p.mu.Unlock()
				if sent {
					p.send()
				}
				return
			case <-t.C:
				p.send()
			}
		}
	}()
	return p
}

func (p *progressPublisher) progress(done, total int, note string) {
	p.mu.Lock()
	p.cur.Done, p.cur.Total, p.cur.Note, p.dirty = done, total, note, true
	p.mu.Unlock()
}

func (p *progressPublisher) send() {
	p.mu.Lock()
	if p.sent && !p.dirty {
		p.mu.Unlock()
		return
	}
	b, _ := json.Marshal(p.cur)
	p.sent, p.dirty = true, false
	p.mu.Unlock()
	p.w.nc.Publish(p.subj, b)
}

func (p *progressPublisher) stop() {
	close(p.stopCh)
	<-p.done
}

// heartbeats publishes the worker's state every HeartbeatInterval.
func (w *worker) heartbeats(ctx context.Context) {
	w.beat(false)
	runtypes.Every(ctx, w.cfg.HeartbeatInterval, func() { w.beat(false) })
}

func (w *worker) beat(leaving bool) {
	host, _ := os.Hostname()
	w.mu.Lock()
	running := make([]string, 0, len(w.running))
	for id := range w.running {
		running = append(running, id)
	}
	w.mu.Unlock()
	sort.Strings(running)
	hb := wire.Heartbeat{WorkerStatus: runtypes.WorkerStatus{Name: w.cfg.Name, Host: host, PID: os.Getpid(),
		Concurrency: w.cfg.Concurrency, Running: running, Done: int(w.done.Load()), Started: w.started},
		Interval: w.cfg.HeartbeatInterval, Leaving: leaving}
	b, _ := json.Marshal(hb)
	w.nc.Publish(wire.HeartbeatSubject, b)
}

// readObject reads object name of bucket through its stream s, a message
// at a time (a direct get of its entry, then of each chunk), and checks
// its digest. The object store's own Get would create a consumer, which
// a worker may not (WorkerPermissions): a consumer's delivery subject is
// any subject its creator names.
func readObject(ctx context.Context, s jetstream.Stream, bucket, name string) ([]byte, error) {
	meta, err := s.GetLastMsgForSubject(ctx, "$O."+bucket+".M."+base64.URLEncoding.EncodeToString([]byte(name)))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		err = jetstream.ErrObjectNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("object %s of %s: %w", name, bucket, err)
	}
	var info jetstream.ObjectInfo
	if err := json.Unmarshal(meta.Data, &info); err != nil {
		return nil, fmt.Errorf("object %s of %s: its entry does not decode: %w", name, bucket, err)
	}
	if info.Deleted {
		return nil, fmt.Errorf("object %s of %s: %w", name, bucket, jetstream.ErrObjectNotFound)
	}
	chunks := "$O." + bucket + ".C." + info.NUID
	data := make([]byte, 0, min(info.Size, 256<<20))
	h := sha256.New()
	seq := uint64(1)
	for range info.Chunks {
		m, err := s.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(chunks))
		if err != nil {
			return nil, fmt.Errorf("object %s of %s: a chunk: %w", name, bucket, err)
		}
		data = append(data, m.Data...)
		h.Write(m.Data)
		seq = m.Sequence + 1
	}
	want := "SHA-256=" + base64.URLEncoding.EncodeToString(h.Sum(nil))
	if uint64(len(data)) != info.Size || info.Digest != want {
		return nil, fmt.Errorf("object %s of %s: its chunks do not match its size and digest", name, bucket)
	}
	return data, nil
}

// budgetOf is the server's budget of one run, as job carries it.
func budgetOf(job *wire.Job) solvers.Budget {
	return solvers.Budget{Timeout: job.Timeout, Memory: job.Memory}
}

// keepAlive keeps msg ours while it executes (InProgress every AckWait/3)
// until the returned function is called.
func (w *worker) keepAlive(msg jetstream.Msg) func() {
	alive := make(chan struct{})
	go func() {
		t := time.NewTicker(w.ackWait / 3)
		defer t.Stop()
		for {
			select {
			case <-alive:
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	}()
	return func() { close(alive) }
}
