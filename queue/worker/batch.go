package worker

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"schedlab/buildinfo"
	"schedlab/errs"
	"schedlab/execute"
	"schedlab/queue/wire"
)

// flushEvery is how long the ends of a batch's runs may wait to be sent
// together: the ends of short runs travel in one message, a long run's
// end within flushEvery of its finishing.
const flushEvery = 50 * time.Millisecond

// handleBatch executes a batch's runs one after the other in this slot
// (package queue's doc, "Batches"); it is acknowledged once every end is
// in ResultsStream. A batch given again sends each end at once, so a run
// that kills its worker takes none of the others' ends with it. A worker
// stopping sends the ends it has and hands the batch back (Nak).
func (w *worker) handleBatch(ctx context.Context, msg jetstream.Msg, batch *wire.Job) {
	defer w.keepAlive(msg)()
	runs := batch.Runs
	every := flushEvery
	note := ""
	if md, err := msg.Metadata(); err == nil && md.NumDelivered > 1 {
		note = "attempt " + strconv.FormatUint(md.NumDelivered, 10) + ": the worker of the last one stopped before finishing it"
		runs = w.pending(ctx, batch)
		every = 0
	}
	var ends []wire.Result
	first := time.Time{}
	flush := func() bool {
		if len(ends) == 0 {
			return true
		}
		if err := w.sendResults(ctx, ends); err != nil {
			w.log.Error("queue: sending the ends of a batch, the batch goes back to the queue", "batch", batch.ID, "err", err)
			return false
		}
		w.done.Add(int64(len(ends)))
		ends, first = nil, time.Time{}
		return true
	}
	for i := range runs {
		job := &runs[i]
		res, handBack := w.runOne(ctx, job, note)
		if handBack {
			if flush() {
				msg.Nak()
			}
			return
		}
		ends = append(ends, res)
		if first.IsZero() {
			first = time.Now()
		}
		if time.Since(first) >= every || len(ends) >= maxEnds {
			if !flush() {
				msg.Nak()
				return
			}
		}
	}
	if !flush() {
		msg.Nak()
		return
	}
	actx, acancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer acancel()
	msg.DoubleAck(actx)
}

// maxEnds bounds the ends in one Results message (a NATS message is at
// most 1 MiB by default; reports past 64 KiB travel apart, sendResult).
const maxEnds = 64

// runOne executes one run of a batch; handBack says the worker is
// stopping and the run did not end.
func (w *worker) runOne(ctx context.Context, job *wire.Job, note string) (res wire.Result, handBack bool) {
	rctx, done := w.track(ctx, job.ID)
	defer done()
	start := time.Now()
	pub := w.progressPublisher(job, note, true)
	rep, gen, err := w.execute(rctx, job, pub.progress)
	pub.stop()
	if err != nil && errs.KindOf(err) == errs.Canceled && !errors.Is(err, execute.ErrUserCanceled) {
		return res, true
	}
	res = wire.Result{ID: job.ID, Worker: w.cfg.Name, StartedAt: start, Generated: gen, Build: buildinfo.Current(),
		Dispatch: job.Dispatch, Claim: job.Claim, Elapsed: time.Since(start)}
	res.Status, res.Report, res.Error, res.Field = execute.Ended(w.log, "queue", job.ID, job.Strategy, rep, err)
	if err := w.bigReport(ctx, &res); err != nil {
		res.Status, res.Report, res.Error, res.Field = execute.Ended(w.log, "queue", job.ID, job.Strategy, nil, errs.Wrap(errs.Internal, err))
	}
	return res, false
}

// pending asks the server which of batch's runs are still to execute
// (wire.PendingSubject); with no answer, all of them (a run whose end was
// stored meanwhile is stored once all the same).
func (w *worker) pending(ctx context.Context, batch *wire.Job) []wire.Job {
	q := wire.Job{ID: batch.ID, Kind: wire.KindBatch, Dispatch: batch.Dispatch}
	for _, r := range batch.Runs {
		q.Runs = append(q.Runs, wire.Job{ID: r.ID, Dispatch: r.Dispatch, Claim: r.Claim})
	}
	b, _ := json.Marshal(q)
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	m, err := w.nc.RequestWithContext(rctx, wire.PendingSubject, b)
	if err != nil {
		w.log.Warn("queue: asking which runs of a batch given again are left; executing all", "batch", batch.ID, "err", err)
		return batch.Runs
	}
	var p wire.Pending
	if err := json.Unmarshal(m.Data, &p); err != nil {
		return batch.Runs
	}
	left := map[string]bool{}
	for _, id := range p.Runs {
		left[id] = true
	}
	var runs []wire.Job
	for _, r := range batch.Runs {
		if left[r.ID] {
			runs = append(runs, r)
		}
	}
	return runs
}

// sendResults publishes ends as one Results message on ResultsStream,
// retrying as sendResult does; its message ID is derived from the first
// end's claim and the number of ends, so a repeat is one message.
func (w *worker) sendResults(wctx context.Context, ends []wire.Result) error {
	if len(ends) == 1 {
		return w.sendResult(wctx, &ends[0])
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(wctx))
	defer cancel()
	stop := context.AfterFunc(wctx, func() { time.AfterFunc(w.ackWait, cancel) })
	defer stop()
	b, err := json.Marshal(wire.Results{Ends: ends})
	if err != nil {
		return err
	}
	subject := wire.ResultSubjectPrefix + ends[0].ID
	if w.cfg.Key != "" {
		subject = wire.ResultSubjectPrefix + w.cfg.Key + "." + ends[0].ID
	}
	id := wire.ResultMsgID(ends[0].ID, ends[0].Claim) + "." + strconv.Itoa(len(ends))
	return wire.WaitFor(ctx, 250*time.Millisecond, func() error {
		_, err := w.js.Publish(ctx, subject, b, jetstream.WithMsgID(id))
		return err
	})
}
