package queue_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"schedlab/queue"
	"schedlab/queue/queuetest"
	"schedlab/queue/wire"
	"schedlab/runtypes"
)

// asyncErrors collects the errors the NATS server sends a connection
// (permission violations arrive this way).
type asyncErrors struct {
	mu   sync.Mutex
	errs []string
	more chan struct{}
}

func newAsyncErrors() *asyncErrors { return &asyncErrors{more: make(chan struct{}, 1)} }

func (a *asyncErrors) handler(_ *nats.Conn, _ *nats.Subscription, err error) {
	a.mu.Lock()
	a.errs = append(a.errs, err.Error())
	a.mu.Unlock()
	select {
	case a.more <- struct{}{}:
	default:
	}
}

// waitFor waits until an error containing want has arrived.
func (a *asyncErrors) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		a.mu.Lock()
		for _, e := range a.errs {
			if strings.Contains(e, want) {
				a.mu.Unlock()
				return
			}
		}
		got := strings.Join(a.errs, "; ")
		a.mu.Unlock()
		select {
		case <-a.more:
		case <-deadline:
			t.Fatalf("no error %q from the server; got: %s", want, got)
		}
	}
}

// A second client holding the worker credential publishes a "done" result
// (and progress) for a run another worker holds, with the run ID as its
// message ID, as the audit did: the forgery is refused and logged, and the
// real result is stored.
func TestForgedResultRefusedAndTheRealOneStored(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir(), "")
	startWorker(t, s, filepath.Join(s.dir, "exec.log"))
	id := sweep(t, s, 1, queuetest.VariantOK, map[string]string{"ms": "1500"})[0]

	// The run is held once its worker's progress (which carries the claim)
	// has arrived.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, _, _, ok := s.d.Progress(id); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no worker took the run")
		}
		time.Sleep(20 * time.Millisecond)
	}

	nc, key, err := wire.ConnectWorker("nats://"+s.addr, s.emb.SeedFile, "forger")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if key == "" {
		t.Fatal("the embedded server did not take the forger's own key")
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	progress, _ := json.Marshal(map[string]any{"worker": "forger", "done": 1, "total": 1, "note": "forged", "dispatch": id, "claim": "x"})
	if err := nc.Publish("schedlab.progress."+id, progress); err != nil {
		t.Fatal(err)
	}
	forged := wire.Result{ID: id, Worker: "forger", Status: runtypes.StatusDone, Dispatch: id, Claim: "forged-claim",
		Report: json.RawMessage(`{"metrics":[{"name":"objective","value":999,"better":"higher"}]}`)}
	b, _ := json.Marshal(forged)
	if _, err := js.Publish(ctx, "schedlab.result."+key+"."+id, b, jetstream.WithMsgID(id)); err != nil {
		t.Fatal(err)
	}

	r := waitFinal(t, s.st, []string{id}, time.Minute)[id]
	if r.Status != runtypes.StatusDone || r.Worker == "forger" || r.Worker == "" {
		t.Fatalf("run %s: status %s by worker %q, want done by the worker that held it", id, r.Status, r.Worker)
	}
	full, err := s.st.GetRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Metrics []struct {
			Name  string
			Value float64
		}
	}
	if err := json.Unmarshal(full.Report, &rep); err != nil || len(rep.Metrics) != 1 || rep.Metrics[0].Value != 4 {
		t.Fatalf("stored report %s (%v), want the real one: objective 4", full.Report, err)
	}
	// The refusal is logged (if the real result came first, a moment later).
	want := "refused a result that does not carry its run's claim: the sender does not hold the run\" run=" + id +
		" claimed_worker=forger sender=" + key + " status=done"
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(s.log.String(), want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no log line %q; log:\n%s", want, s.log.String())
		}
	}
}

// The worker credential reaches a worker's subjects and nothing else: it
// cannot delete or create streams or consumers, read the runs, results or
// the server's claim key, publish runs, cancels or results under another
// worker's key, talk to the server's internal subjects, or read another
// worker's inbox; the credential alone, without a key of its own, is
// refused.
func TestWorkerCredentialCannotLeaveItsGrant(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir(), "")
	url := "nats://" + s.addr
	if _, err := wire.Connect(url, s.emb.SeedFile, "plain"); !errors.Is(err, nats.ErrAuthorization) {
		t.Fatalf("the credential alone: %v, want an authorization error", err)
	}
	aerr := newAsyncErrors()
	nc, key, err := wire.ConnectWorker(url, s.emb.SeedFile, "intruder", nats.ErrorHandler(aerr.handler))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	other, otherKey, err := wire.ConnectWorker(url, s.emb.SeedFile, "other")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	for _, subj := range []string{
		"$JS.API.STREAM.DELETE." + wire.RunsStream,
		"$JS.API.STREAM.PURGE." + wire.ResultsStream,
		"$JS.API.CONSUMER.DELETE." + wire.RunsStream + "." + wire.RunsConsumer,
		"$JS.API.CONSUMER.CREATE." + wire.RunsStream,
		"$JS.API.STREAM.MSG.GET." + wire.RunsStream,
		"$JS.API.DIRECT.GET.KV_" + queue.ClaimBucket + ".$KV." + queue.ClaimBucket + ".claim-key",
		"$JS.API.STREAM.DELETE.OBJ_" + wire.WorkloadsBucket,
		"$O." + wire.WorkloadsBucket + ".M.x",
		"$SYS.REQ.SERVER.PING",
		"schedlab.run.x",
		"schedlab.cancel",
		"schedlab.result.x",
		"schedlab.result." + otherKey + ".x",
	} {
		if err := nc.Publish(subj, []byte("{}")); err != nil {
			t.Fatal(err)
		}
		nc.Flush()
		aerr.waitFor(t, `Permissions Violation for Publish to "`+subj+`"`)
	}
	for _, subj := range []string{"_INBOX.>", "_I.>", "_I." + otherKey + ".>", "schedlab.run.>", "schedlab.result.>",
		"schedlab.progress.*", "$KV." + queue.ClaimBucket + ".>", "$JS.EVENT.>", ">"} {
		if _, err := nc.Subscribe(subj, func(*nats.Msg) {}); err != nil {
			t.Fatal(err)
		}
		nc.Flush()
		aerr.waitFor(t, `Permissions Violation for Subscription to "`+subj+`"`)
	}

	// Nothing of the queue is gone, and a JetStream call outside the grant
	// gets no answer.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	js, _ := jetstream.New(nc)
	if err := js.DeleteStream(ctx, wire.RunsStream); err == nil {
		t.Fatal("the worker credential deleted the runs stream")
	}
	sjs, _ := jetstream.New(s.nc)
	for _, name := range []string{wire.RunsStream, wire.ResultsStream, wire.AdvisoriesStream, "KV_" + queue.ClaimBucket} {
		if _, err := sjs.Stream(context.Background(), name); err != nil {
			t.Errorf("stream %s: %v", name, err)
		}
	}

	// What a worker needs still works with the same credential.
	if _, err := js.Consumer(context.Background(), wire.RunsStream, wire.RunsConsumer); err != nil {
		t.Fatalf("the runs consumer's info: %v", err)
	}
	if err := nc.Publish("schedlab.heartbeat", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := nc.Subscribe("_I."+key+".x", func(*nats.Msg) {}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	aerr.mu.Lock()
	defer aerr.mu.Unlock()
	for _, e := range aerr.errs {
		if strings.Contains(e, "heartbeat") || strings.Contains(e, key+".x") || strings.Contains(e, "CONSUMER.INFO") {
			t.Errorf("a worker's own subject refused: %s", e)
		}
	}
}

// A report too large for a message goes through the reports object
// store, which the worker credential may write, and is stored whole.
func TestLargeReportThroughTheObjectStore(t *testing.T) {
	t.Parallel()
	s := startServerWith(t, t.TempDir(), "", 1<<30, queue.EmbeddedOptions{MaxPayload: 256 << 10})
	startWorker(t, s, filepath.Join(s.dir, "exec.log"))
	id := sweep(t, s, 1, queuetest.VariantOK, map[string]string{"rows": "400"})[0]
	r := waitFinal(t, s.st, []string{id}, time.Minute)[id]
	if r.Status != runtypes.StatusDone {
		t.Fatalf("run %s: %s (%s)", id, r.Status, r.Error)
	}
	full, err := s.st.GetRun(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Report) < 400<<10 || !strings.Contains(string(full.Report), "padding") {
		t.Fatalf("stored report of %d bytes, want the table of 400 rows of 1 KiB", len(full.Report))
	}
}

// A worker's large report replaced in the object store by another client
// between its holder writing it and the server reading it is not stored:
// the run ends failed saying so (the digest in the holder's result no
// longer matches).
func TestReplacedReportObjectNotStored(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir(), "")
	id := sweep(t, s, 1, queuetest.VariantOK, nil)[0]

	// Act as the worker holding the run, by hand.
	nc, key, err := wire.ConnectWorker("nats://"+s.addr, s.emb.SeedFile, "by hand")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx := context.Background()
	js, _ := jetstream.New(nc)
	cons, err := js.Consumer(ctx, wire.RunsStream, wire.RunsConsumer)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := cons.Next(jetstream.FetchMaxWait(30 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var job wire.Job
	if err := json.Unmarshal(msg.Data(), &job); err != nil || job.ID != id || job.Claim == "" {
		t.Fatalf("job %+v (%v), want run %s with a claim", job, err, id)
	}
	reports, err := js.ObjectStore(ctx, wire.ReportsBucket)
	if err != nil {
		t.Fatal(err)
	}
	real := []byte(`{"metrics":[{"name":"objective","value":1,"better":"higher"}]}`)
	name := id + ".by-hand"
	if _, err := reports.PutBytes(ctx, name, real); err != nil {
		t.Fatal(err)
	}
	// Another client with the worker credential replaces it. The
	// credential may not purge the old object's chunks: the server
	// refuses that at once, and the client, which ignores the purge's
	// outcome, would wait out its 5 s timeout for an answer; the put ends
	// when the refusal has come instead.
	putCtx, refused := context.WithCancel(ctx)
	defer refused()
	nc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if strings.Contains(err.Error(), "PURGE") {
			refused()
		}
	})
	if _, err := reports.PutBytes(putCtx, name, []byte(`{"metrics":[{"name":"objective","value":999,"better":"higher"}]}`)); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(real)
	res, _ := json.Marshal(wire.Result{ID: id, Worker: "by hand", Status: runtypes.StatusDone, ReportObject: name,
		ReportSHA256: hex.EncodeToString(sum[:]), Dispatch: job.Dispatch, Claim: job.Claim})
	if _, err := js.Publish(ctx, "schedlab.result."+key+"."+id, res, jetstream.WithMsgID(id+".by-hand")); err != nil {
		t.Fatal(err)
	}
	msg.Ack()
	r := waitFinal(t, s.st, []string{id}, time.Minute)[id]
	if r.Status != runtypes.StatusFailed || !strings.Contains(r.Error, "replaced") {
		t.Fatalf("run %s: %s (%q), want failed: its report was replaced", id, r.Status, r.Error)
	}
}
