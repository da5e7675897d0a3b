package batsim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"schedlab/errs"
	"schedlab/solvers/batch"
	"schedlab/solvers/des"
)

// Options of a simulation through the protocol.
type Options struct {
	// Name is the scheduler's name, for messages.
	Name string
	// Workload names the trace in SIMULATION_BEGINS.
	Workload string
	// Timeout is the wait for one reply (DefaultTimeout when 0).
	Timeout time.Duration
	// Progress (may be nil) hears how many jobs have started.
	Progress func(done, total int)
}

// Outcome is a schedule made by a decision process.
type Outcome struct {
	// Result is the schedule as package batch keeps it; the placement of
	// a rejected job is zero.
	Result *batch.Result
	// Rejected[i] says the decision process rejected jobs[i].
	Rejected []bool
	// NRejected and Killed count rejected and killed jobs.
	NRejected, Killed int
	// Rounds counts request-reply exchanges, SIMULATION_BEGINS and
	// SIMULATION_ENDS included.
	Rounds int
	// IDs are the job ids as the decision process saw them.
	IDs []string
}

// job states.
const (
	notSubmitted uint8 = iota
	waiting
	running
	finished
	rejected
)

// run is a started job on the completion heap.
type run struct {
	job int
	end float64
}

// kill is a job a KILL_JOB named: ran says it was running (progress is
// the share of its duration done), not already finished.
type kill struct {
	id       string
	ran      bool
	progress float64
}

// sim is one simulation's state.
type sim struct {
	jobs  []batch.Job
	order []int
	p     int
	c     Conn
	o     Options

	ids   []string
	index map[string]int
	state []uint8
	owner []int32       // processor → job index + 1; 0: free
	run   des.Heap[run] // by endsFirst
	calls []float64
	kills []kill // jobs killed by the last reply, for JOB_KILLED

	out     *Outcome
	buf     []byte
	summary []string // the events of the message being built, for errors
	started int
	done    int // finished or rejected
}

// Simulate runs jobs on p processors with the decision process at the
// other end of c, by the event rules of the package doc, and checks every
// decision. The first bad decision, a reply that is not the protocol, a
// reply later than the timeout or a decision process that ends mid-run
// fails the simulation with an error naming the message and the decision.
func Simulate(ctx context.Context, jobs []batch.Job, p int, c Conn, o Options) (*Outcome, error) {
	if err := batch.Validate(jobs, p); err != nil {
		return nil, err
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	n := len(jobs)
	s := &sim{jobs: jobs, p: p, c: c, o: o, index: make(map[string]int, n), state: make([]uint8, n),
		owner: make([]int32, p), run: des.NewHeap(endsFirst),
		out: &Outcome{Result: &batch.Result{P: p, Policy: batch.Policy(VariantPrefix + o.Name), Placements: make([]batch.Placement, n)},
			Rejected: make([]bool, n)}}
	s.ids = jobIDs(jobs)
	for i, id := range s.ids {
		s.index[id] = i
	}
	s.out.IDs = s.ids
	s.order = make([]int, n)
	for i := range s.order {
		s.order[i] = i
	}
	sort.SliceStable(s.order, func(a, b int) bool { return jobs[s.order[a]].Submit < jobs[s.order[b]].Submit })
	if err := s.loop(ctx); err != nil {
		if k, ok := c.(interface{ Kill() }); ok {
			k.Kill()
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &errs.Error{Kind: errs.Invalid, Field: "external scheduler " + o.Name, Err: err}
	}
	if o.Progress != nil {
		o.Progress(n, n)
	}
	return s.out, nil
}

// jobIDs are the ids the decision process sees: "w0!" and the trace's job
// number, or the record's position (1-based) when numbers repeat.
func jobIDs(jobs []batch.Job) []string {
	ids := make([]string, len(jobs))
	seen := make(map[int]bool, len(jobs))
	for i, j := range jobs {
		if seen[j.ID] {
			for i := range jobs {
				ids[i] = "w0!#" + strconv.Itoa(i+1)
			}
			return ids
		}
		seen[j.ID] = true
		ids[i] = "w0!" + strconv.Itoa(j.ID)
	}
	return ids
}

// loop is the simulation: SIMULATION_BEGINS, one message per event time
// until every job has finished or been rejected, SIMULATION_ENDS.
func (s *sim) loop(ctx context.Context) error {
	n := len(s.jobs)
	first := s.jobs[s.order[0]].Submit
	now := min(0, first)
	s.begin(now)
	if err := s.round(ctx, now); err != nil {
		return err
	}
	next := 0 // next submission in order
	sameTime, last := 0, now
	for rounds := 0; s.done < n; rounds++ {
		if rounds%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if s.o.Progress != nil {
				s.o.Progress(s.started, n)
			}
		}
		if len(s.kills) > 0 {
			// A kill is acknowledged at once, at the same time.
			s.msg(now)
			s.killed(now)
		} else {
			now = math.Inf(1)
			if next < n {
				now = s.jobs[s.order[next]].Submit
			}
			if s.run.Len() > 0 {
				now = min(now, s.run.Min().end)
			}
			if len(s.calls) > 0 {
				now = min(now, s.calls[0])
			}
			if math.IsInf(now, 1) {
				return s.stuck()
			}
			s.msg(now)
			for s.run.Len() > 0 && s.run.Min().end <= now {
				s.complete(s.run.Pop().job)
			}
			for next < n && s.jobs[s.order[next]].Submit <= now {
				s.submit(now, s.order[next])
				next++
				if next == n {
					s.notify(now, "no_more_static_job_to_submit")
				}
			}
			for len(s.calls) > 0 && s.calls[0] <= now {
				s.calls = s.calls[1:]
				s.event(now, "REQUESTED_CALL", "{}")
				s.summary = append(s.summary, "REQUESTED_CALL")
			}
		}
		if now == last {
			if sameTime++; sameTime > maxSameTime {
				return fmt.Errorf("at t=%s: more than %d messages at the same time (the decision process keeps asking to be called now)", fmtTime(now), maxSameTime)
			}
		} else {
			sameTime, last = 0, now
		}
		if err := s.round(ctx, now); err != nil {
			return err
		}
	}
	s.msg(now)
	s.event(now, "SIMULATION_ENDS", "{}")
	s.summary = append(s.summary, "SIMULATION_ENDS")
	s.end()
	replyNow, evs, err := s.exchange(ctx, now)
	if err != nil {
		return err
	}
	if replyNow < now {
		return fmt.Errorf("the reply to SIMULATION_ENDS (message %d) has now=%s, before the message's %s: time cannot go backwards", s.out.Rounds, fmtTime(replyNow), fmtTime(now))
	}
	if len(evs) > 0 {
		return fmt.Errorf("the reply to SIMULATION_ENDS (message %d) has %d events (the first: %s); the simulation is over and cannot apply them", s.out.Rounds, len(evs), evs[0].Type)
	}
	return nil
}

// maxSameTime bounds the messages at one time (CALL_ME_LATER at now, over
// and over, would never end).
const maxSameTime = 10000

// stuck is the error of a simulation with jobs left and nothing to come.
func (s *sim) stuck() error {
	var wait []string
	count := 0
	for i, st := range s.state {
		if st == waiting {
			count++
			if len(wait) < 5 {
				wait = append(wait, s.ids[i])
			}
		}
	}
	return fmt.Errorf("after message %d: %d jobs are waiting (%s) with no job running and no call requested; the decision process must start or reject them, or ask to be called (CALL_ME_LATER)",
		s.out.Rounds, count, strings.Join(wait, ", "))
}

// round sends the message built at now, reads the reply and applies it.
func (s *sim) round(ctx context.Context, now float64) error {
	s.end()
	replyNow, evs, err := s.exchange(ctx, now)
	if err != nil {
		return err
	}
	return s.apply(now, replyNow, evs)
}

// exchange sends s.buf and decodes the reply.
func (s *sim) exchange(ctx context.Context, now float64) (float64, []event, error) {
	s.out.Rounds++
	b, err := s.c.Exchange(ctx, s.buf, s.o.Timeout)
	what := fmt.Sprintf("message %d (t=%s: %s)", s.out.Rounds, fmtTime(now), s.describe())
	if err != nil {
		if errors.Is(err, ErrTimeout) {
			return 0, nil, fmt.Errorf("no reply to %s within %v", what, s.o.Timeout)
		}
		return 0, nil, fmt.Errorf("no reply to %s: %w", what, err)
	}
	replyNow, evs, err := decodeReply(b)
	if err != nil {
		return 0, nil, fmt.Errorf("reply to %s: %w", what, err)
	}
	return replyNow, evs, nil
}

// describe is the message's events in short.
func (s *sim) describe() string {
	if len(s.summary) <= 4 {
		return strings.Join(s.summary, ", ")
	}
	return strings.Join(s.summary[:4], ", ") + fmt.Sprintf(" and %d more events", len(s.summary)-4)
}

// apply checks and carries out a reply's decisions, in order, at now.
func (s *sim) apply(now, replyNow float64, evs []event) error {
	where := func(k int, ev event, subject string) string {
		w := fmt.Sprintf("at t=%s, decision %d of the reply to message %d, %s", fmtTime(now), k+1, s.out.Rounds, ev.Type)
		if subject != "" {
			w += " " + subject
		}
		return w
	}
	if replyNow < now {
		return fmt.Errorf("the reply to message %d (t=%s) has now=%s: time cannot go backwards", s.out.Rounds, fmtTime(now), fmtTime(replyNow))
	}
	for k, ev := range evs {
		if ev.Timestamp < now {
			return fmt.Errorf("%s: timestamp %s is before the message's time %s: time cannot go backwards", where(k, ev, ""), fmtTime(ev.Timestamp), fmtTime(now))
		}
		if ev.Timestamp > now {
			return fmt.Errorf("%s: timestamp %s is after the message's time %s; schedlab applies decisions at the time of the events they answer (a decision process that takes simulated time is not supported)", where(k, ev, ""), fmtTime(ev.Timestamp), fmtTime(now))
		}
		var err error
		subject := ""
		switch ev.Type {
		case "EXECUTE_JOB":
			subject, err = s.execute(now, ev.Data)
		case "REJECT_JOB":
			subject, err = s.reject(ev.Data)
		case "CALL_ME_LATER":
			err = s.callMeLater(now, ev.Data)
		case "KILL_JOB":
			subject, err = s.kill(now, ev.Data)
		case "NOTIFY":
			subject, err = s.notified(ev.Data)
		default:
			err = fmt.Errorf("schedlab's batch simulator does not support %s (it supports EXECUTE_JOB, REJECT_JOB, CALL_ME_LATER, KILL_JOB and NOTIFY registration_finished; see the package doc)", ev.Type)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", where(k, ev, subject), err)
		}
	}
	return nil
}

// fields checks that data holds only the known keys.
func fields(data map[string]json.RawMessage, known ...string) error {
	for k := range data {
		found := false
		for _, kn := range known {
			found = found || k == kn
		}
		if !found {
			return fmt.Errorf("field %q is not supported (only %s)", k, strings.Join(known, ", "))
		}
	}
	return nil
}

// jobOf reads data.job_id and finds the job.
func (s *sim) jobOf(data map[string]json.RawMessage) (string, int, error) {
	var id string
	raw, ok := data["job_id"]
	if !ok {
		return "", -1, fmt.Errorf("no job_id")
	}
	if err := str(raw, &id); err != nil {
		return "", -1, fmt.Errorf("job_id %v", err)
	}
	j, ok := s.index[id]
	if !ok {
		return id, -1, fmt.Errorf("there is no job %q in this simulation (ids are like %s)", id, s.ids[0])
	}
	return id, j, nil
}

// notStartable says why job j cannot start or be rejected now, or nil.
func (s *sim) notStartable(j int) error {
	switch s.state[j] {
	case notSubmitted:
		return fmt.Errorf("the job is not submitted yet (its submission time is %s)", fmtTime(s.jobs[j].Submit))
	case running:
		return fmt.Errorf("the job is already running (started at %s)", fmtTime(s.out.Result.Placements[j].Start))
	case finished:
		if s.out.Rejected[j] {
			return fmt.Errorf("the job was rejected")
		}
		return fmt.Errorf("the job already ran (from %s to %s)", fmtTime(s.out.Result.Placements[j].Start), fmtTime(s.out.Result.Placements[j].End))
	}
	return nil
}

// execute starts a job on its allocation.
func (s *sim) execute(now float64, data map[string]json.RawMessage) (string, error) {
	id, j, err := s.jobOf(data)
	if err != nil {
		return id, err
	}
	if err := fields(data, "job_id", "alloc"); err != nil {
		return id, err
	}
	if err := s.notStartable(j); err != nil {
		return id, err
	}
	var alloc string
	if err := str(data["alloc"], &alloc); err != nil {
		return id, fmt.Errorf("alloc %v", err)
	}
	procs, err := ParseIntervals(alloc)
	if err != nil {
		return id, fmt.Errorf("alloc %q: %v", alloc, err)
	}
	job := s.jobs[j]
	for _, c := range procs {
		if c >= s.p {
			return id, fmt.Errorf("resource %d does not exist (the machine has %d: 0-%d)", c, s.p, s.p-1)
		}
		if o := s.owner[c]; o != 0 {
			return id, fmt.Errorf("resource %d is busy with job %s", c, s.ids[o-1])
		}
	}
	if len(procs) != job.Size {
		return id, fmt.Errorf("alloc %q has %d resources; the job requests %d", alloc, len(procs), job.Size)
	}
	for _, c := range procs {
		s.owner[c] = int32(j + 1)
	}
	if job.Run > job.Estimate {
		s.out.Result.Capped++
	}
	end := now + job.Duration()
	s.out.Result.Placements[j] = batch.Placement{Start: now, End: end, Procs: procs}
	s.state[j] = running
	s.run.Push(run{job: j, end: end})
	s.started++
	return id, nil
}

// reject takes a waiting job out of the simulation.
func (s *sim) reject(data map[string]json.RawMessage) (string, error) {
	id, j, err := s.jobOf(data)
	if err != nil {
		return id, err
	}
	if err := fields(data, "job_id"); err != nil {
		return id, err
	}
	if err := s.notStartable(j); err != nil {
		return id, err
	}
	s.state[j] = finished
	s.out.Rejected[j] = true
	s.out.NRejected++
	s.done++
	return id, nil
}

// callMeLater books a REQUESTED_CALL.
func (s *sim) callMeLater(now float64, data map[string]json.RawMessage) error {
	if err := fields(data, "timestamp"); err != nil {
		return err
	}
	raw, ok := data["timestamp"]
	if !ok {
		return fmt.Errorf("no timestamp (when to call)")
	}
	t, err := number(raw)
	if err != nil {
		return fmt.Errorf("timestamp %v", err)
	}
	if t < now {
		return fmt.Errorf("asks to be called at %s, before now (%s): time cannot go backwards", fmtTime(t), fmtTime(now))
	}
	i := sort.SearchFloat64s(s.calls, t)
	for i < len(s.calls) && s.calls[i] == t {
		i++ // after the calls at the same time: one REQUESTED_CALL each
	}
	s.calls = append(s.calls, 0)
	copy(s.calls[i+1:], s.calls[i:])
	s.calls[i] = t
	return nil
}

// kill ends running jobs now; JOB_KILLED follows at once.
func (s *sim) kill(now float64, data map[string]json.RawMessage) (string, error) {
	if err := fields(data, "job_ids"); err != nil {
		return "", err
	}
	var ids []json.RawMessage
	if raw, ok := data["job_ids"]; !ok || json.Unmarshal(raw, &ids) != nil || raw[0] != '[' {
		return "", fmt.Errorf("job_ids must be a list of job ids")
	}
	for _, raw := range ids {
		id, j, err := s.jobOf(map[string]json.RawMessage{"job_id": raw})
		if err != nil {
			return id, err
		}
		switch {
		case s.state[j] == running:
			pl := &s.out.Result.Placements[j]
			progress := (now - pl.Start) / (pl.End - pl.Start)
			pl.End = now
			for _, c := range pl.Procs {
				s.owner[c] = 0
			}
			s.state[j] = finished
			s.remove(j)
			s.done++
			s.out.Killed++
			s.kills = append(s.kills, kill{id: id, ran: true, progress: progress})
		case s.state[j] == finished && !s.out.Rejected[j]:
			s.kills = append(s.kills, kill{id: id}) // ended before the kill: acknowledged without progress
		default:
			return id, fmt.Errorf("the job is not running, so it cannot be killed")
		}
	}
	return "", nil
}

// notified accepts the NOTIFY types that need nothing of a simulation
// without dynamic jobs.
func (s *sim) notified(data map[string]json.RawMessage) (string, error) {
	var typ string
	if err := str(data["type"], &typ); err != nil {
		return "", fmt.Errorf("type %v", err)
	}
	switch typ {
	case "registration_finished", "continue_registration":
		return typ, nil // dynamic registration is off: nothing to finish
	}
	return typ, fmt.Errorf("NOTIFY %q is not supported (only registration_finished and continue_registration, which change nothing here)", typ)
}

// --- the completion heap -------------------------------------------------

func endsFirst(a, b run) bool { return a.end < b.end || a.end == b.end && a.job < b.job }

// remove takes job j off the heap (a kill).
func (s *sim) remove(j int) {
	for i, r := range s.run.Items() {
		if r.job == j {
			s.run.Remove(i)
			return
		}
	}
}
