package batsim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
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

	// DynamicJobs is Batsim's --enable-dynamic-jobs: REGISTER_JOB and
	// REGISTER_PROFILE are accepted, and the simulation ends only after
	// the decision process sent NOTIFY registration_finished.
	DynamicJobs bool
	// AckDynamicJobs is Batsim's --acknowledge-dynamic-jobs: a registered
	// job is acknowledged by a JOB_SUBMITTED at its registration.
	AckDynamicJobs bool
	// ForwardRuntime gives every trace job a delay profile of its runtime
	// (as Batsim's SWF converter writes them). Off (the default) a job's
	// profile has no type: a real scheduler does not know the runtime.
	ForwardRuntime bool
	// HostSpeed (flop/s, 0: none) lets a parallel_homogeneous profile
	// run: cpu / HostSpeed seconds. Without it such a profile is refused.
	HostSpeed float64
	// Power, when not nil, is the hosts' power model: SET_RESOURCE_STATE,
	// QUERY consumed_energy and Outcome.Energy. Nil: both are refused, as
	// Batsim refuses them without --energy.
	Power *Power
}

// Power is a host's power model (every host the same), the part of a
// SimGrid platform's pstates Batsim reads: pstates 0 to SleepPState-1
// compute (IdleW when idle, ComputeW when running a job; a delay job's
// duration does not depend on the pstate, in Batsim as here), pstate
// SleepPState sleeps (SleepW). Switching to sleep takes SwitchOffS
// seconds, waking SwitchOnS; a switching host draws IdleW. Batsim's
// energy_platform_homogeneous.xml, which pybatsim's fcfsSchedSleep
// assumes, has SleepPState 3 (three compute pstates).
type Power struct {
	IdleW, ComputeW, SleepW float64 // W per host, ≥ 0
	SwitchOffS, SwitchOnS   float64 // s, ≥ 0
	SleepPState             int     // the sleeping pstate; ≥ 1 (0 means 1)
}

// sleep is the sleeping pstate.
func (p *Power) sleep() int { return max(p.SleepPState, 1) }

// Check refuses a power model with a negative value.
func (p *Power) Check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"idle watts", p.IdleW}, {"computing watts", p.ComputeW}, {"sleeping watts", p.SleepW}, {"switch-off seconds", p.SwitchOffS}, {"switch-on seconds", p.SwitchOnS}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("power model: %s must be a finite number ≥ 0, got %v", f.name, f.v)
		}
	}
	if p.SleepPState < 0 || p.SleepPState > 1000 {
		return fmt.Errorf("power model: the sleeping pstate must be 1 to 1000, got %d", p.SleepPState)
	}
	return nil
}

// Outcome is a schedule made by a decision process.
type Outcome struct {
	// Result is the schedule of the trace's jobs as package batch keeps
	// it; the placement of a rejected job is zero, a killed job ends at
	// its kill.
	Result *batch.Result
	// Rejected[i] says the decision process rejected jobs[i].
	Rejected []bool
	// States[i] is jobs[i]'s final state as Batsim names it
	// (COMPLETED_SUCCESSFULLY, COMPLETED_WALLTIME_REACHED,
	// COMPLETED_KILLED, REJECTED).
	States []string
	// Metadata[i] is what SET_JOB_METADATA last set for jobs[i].
	Metadata []string
	// NRejected and Killed count rejected and killed jobs (trace and
	// registered).
	NRejected, Killed int
	// Rounds counts request-reply exchanges, SIMULATION_BEGINS and
	// SIMULATION_ENDS included.
	Rounds int
	// IDs are the job ids as the decision process saw them.
	IDs []string
	// Profiles[i] is the name of jobs[i]'s profile as the decision process
	// saw it ("p" and the job's number).
	Profiles []string
	// Dynamic are the jobs the decision process registered, in order.
	Dynamic []DynamicJob
	// Energy is the hosts' consumed energy in J (0 without a power model).
	Energy float64
}

// DynamicJob is a job the decision process registered (REGISTER_JOB).
type DynamicJob struct {
	ID       string
	Profile  string
	Submit   float64 // its registration
	Size     int
	Walltime float64 // -1: none
	batch.Placement
	State    string
	Metadata string
}

// job states.
const (
	notSubmitted uint8 = iota
	waiting
	running
	finished
)

// host states (with a power model).
const (
	hostOn uint8 = iota
	hostSleeping
	hostSwitchingOff
	hostSwitchingOn
)

type run struct {
	job int
	end float64
}

// profile is what schedlab knows of a profile: how long a job of it runs.
type profile struct {
	runtime float64
	json    string // as sent (forwarded profiles)
}

type switchReq struct {
	at    float64
	hosts []int
	state int
}

// sim is one simulation's state. Jobs are indexed trace first (0..n-1),
// then registered ones in registration order.
type sim struct {
	jobs  []batch.Job
	n     int // trace jobs
	order []int
	p     int
	c     Conn
	o     Options

	ids      []string
	profiles []string // each job's profile name
	index    map[string]int
	state    []uint8
	place    []batch.Placement
	final    []string
	meta     []string
	owner    []int32       // processor → job index + 1; 0: free
	run      des.Heap[run] // by endsFirst
	calls    []float64
	next     int // next trace submission in order
	noMore   bool

	workloads map[string]map[string]profile // workload → profile name → profile
	regDone   bool                          // NOTIFY registration_finished received

	host     []uint8
	pstate   []int     // each host's pstate (with a power model)
	hostFrom []float64 // when the host's current power state began
	switches []switchReq
	energy   float64

	clock   float64
	out     *Outcome
	ev      []byte   // the events of the next message
	buf     []byte   // the message
	summary []string // the next message's events in short, for errors
	sent    []string // the summary of the message last sent
	started int
	done    int // jobs in a final state
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
	if o.Power != nil {
		if err := o.Power.Check(); err != nil {
			return nil, &errs.Error{Kind: errs.Invalid, Field: "power", Err: err}
		}
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	n := len(jobs)
	s := &sim{jobs: append([]batch.Job(nil), jobs...), n: n, p: p, c: c, o: o, index: make(map[string]int, n),
		state: make([]uint8, n), place: make([]batch.Placement, n), final: make([]string, n), meta: make([]string, n),
		owner: make([]int32, p), run: des.NewHeap(endsFirst), workloads: map[string]map[string]profile{"w0": {}},
		host: make([]uint8, p), hostFrom: make([]float64, p), pstate: make([]int, p),
		out: &Outcome{Result: &batch.Result{P: p, Policy: batch.Policy(VariantPrefix + o.Name)}}}
	s.ids = jobIDs(jobs)
	s.profiles = make([]string, n)
	for i, id := range s.ids {
		s.index[id] = i
		s.profiles[i] = "p" + strings.TrimPrefix(id, "w0!")
		pr := profile{runtime: jobs[i].Run, json: "{}"}
		if o.ForwardRuntime {
			pr.json = `{"type":"delay","delay":` + string(appendFloat(nil, jobs[i].Run)) + `}`
		}
		s.workloads["w0"][s.profiles[i]] = pr
	}
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
	s.finish()
	return s.out, nil
}

func (s *sim) finish() {
	n := s.n
	s.out.Result.Placements = s.place[:n]
	s.out.Rejected = make([]bool, n)
	for i := range n {
		s.out.Rejected[i] = s.final[i] == "REJECTED"
	}
	s.out.States, s.out.Metadata, s.out.IDs, s.out.Profiles = s.final[:n], s.meta[:n], s.ids[:n], s.profiles[:n]
	for j := n; j < len(s.jobs); j++ {
		wall := s.jobs[j].Estimate
		if math.IsInf(wall, 1) {
			wall = -1
		}
		s.out.Dynamic = append(s.out.Dynamic, DynamicJob{ID: s.ids[j], Profile: s.profiles[j], Submit: s.jobs[j].Submit,
			Size: s.jobs[j].Size, Walltime: wall, Placement: s.place[j], State: s.final[j], Metadata: s.meta[j]})
	}
	if s.o.Power != nil {
		for c := range s.p {
			s.hostEnergy(c, s.clock)
		}
		s.out.Energy = s.energy
	}
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

// loop is the simulation: SIMULATION_BEGINS; then, while anything is to
// come, one message with the events gathered since the last one (those
// that happened while the decision process thought, or the next event
// time's); SIMULATION_ENDS.
func (s *sim) loop(ctx context.Context) error {
	if s.n > 0 {
		s.clock = min(0, s.jobs[s.order[0]].Submit)
	}
	s.begin(s.clock)
	if err := s.round(ctx); err != nil {
		return err
	}
	sameTime, last := 0, s.clock
	for rounds := 0; ; rounds++ {
		if rounds%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if s.o.Progress != nil {
				s.o.Progress(s.started, s.n)
			}
		}
		if len(s.summary) == 0 {
			if s.over() {
				break
			}
			t := s.nextTime()
			if math.IsInf(t, 1) {
				return s.stuck()
			}
			s.advance(t)
		}
		if s.clock == last {
			if sameTime++; sameTime > maxSameTime {
				return fmt.Errorf("at t=%s: more than %d messages at the same time (the decision process keeps answering with decisions that call for another message now)", fmtTime(s.clock), maxSameTime)
			}
		} else {
			sameTime, last = 0, s.clock
		}
		if err := s.round(ctx); err != nil {
			return err
		}
	}
	at := s.clock
	s.event(at, "SIMULATION_ENDS", "{}", "SIMULATION_ENDS")
	s.compose()
	replyNow, evs, err := s.exchange(ctx)
	if err != nil {
		return err
	}
	if replyNow < at {
		return fmt.Errorf("the reply to SIMULATION_ENDS (message %d) has now=%s, before the message's %s: time cannot go backwards", s.out.Rounds, fmtTime(replyNow), fmtTime(at))
	}
	if len(evs) > 0 {
		return fmt.Errorf("the reply to SIMULATION_ENDS (message %d) has %d events (the first: %s); the simulation is over and cannot apply them", s.out.Rounds, len(evs), evs[0].Type)
	}
	return nil
}

// maxSameTime bounds the messages at one time.
const maxSameTime = 10000

// over says the simulation is finished as Batsim says it: every trace job
// submitted, every submitted job finished, no call pending, no host
// switching, and dynamic registration off or finished.
func (s *sim) over() bool {
	return s.next == s.n && s.done == len(s.jobs) && len(s.calls) == 0 && len(s.switches) == 0 &&
		(!s.o.DynamicJobs || s.regDone)
}

func (s *sim) nextTime() float64 {
	t := math.Inf(1)
	if s.next < s.n {
		t = s.jobs[s.order[s.next]].Submit
	}
	if s.run.Len() > 0 {
		t = min(t, s.run.Min().end)
	}
	if len(s.calls) > 0 {
		t = min(t, s.calls[0])
	}
	for _, sw := range s.switches {
		t = min(t, sw.at)
	}
	return t
}

// advance runs the simulation's own events up to t, in time order, each
// recorded for the next message at its time (at one time: completions,
// submissions, finished switches, requested calls), and sets the clock to t.
func (s *sim) advance(t float64) {
	for {
		e := s.nextTime()
		if e > t {
			break
		}
		s.clock = max(s.clock, e)
		for s.run.Len() > 0 && s.run.Min().end <= e {
			s.complete(s.run.Pop().job, e)
		}
		for s.next < s.n && s.jobs[s.order[s.next]].Submit <= e {
			s.submit(e, s.order[s.next])
			s.next++
			if s.next == s.n {
				s.event(e, "NOTIFY", `{"type":"no_more_static_job_to_submit"}`, "NOTIFY no_more_static_job_to_submit")
			}
		}
		s.switches = slices.DeleteFunc(s.switches, func(sw switchReq) bool {
			if sw.at <= e {
				s.switched(sw)
			}
			return sw.at <= e
		})
		for len(s.calls) > 0 && s.calls[0] <= e {
			s.calls = s.calls[1:]
			s.event(e, "REQUESTED_CALL", "{}", "REQUESTED_CALL")
		}
	}
	s.clock = max(s.clock, t)
}

// stuck is the error of a simulation with something left and nothing to come.
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
	if count == 0 && s.o.DynamicJobs && !s.regDone {
		return fmt.Errorf("after message %d: every job has finished, dynamic jobs are enabled and the decision process has not sent NOTIFY registration_finished: nothing else can happen (Batsim would wait for ever)", s.out.Rounds)
	}
	return fmt.Errorf("after message %d: %d jobs are waiting (%s) with no job running and no call requested; the decision process must start or reject them, or ask to be called (CALL_ME_LATER)",
		s.out.Rounds, count, strings.Join(wait, ", "))
}

// round sends the events gathered at the clock, reads the reply and
// applies it.
func (s *sim) round(ctx context.Context) error {
	msgNow := s.clock
	s.compose()
	replyNow, evs, err := s.exchange(ctx)
	if err != nil {
		return err
	}
	return s.apply(msgNow, replyNow, evs)
}

// compose writes the message at the clock with the events gathered, and
// starts gathering the next one's.
func (s *sim) compose() {
	b := append(s.buf[:0], `{"now":`...)
	b = appendFloat(b, s.clock)
	b = append(b, `,"events":[`...)
	b = append(b, s.ev...)
	s.buf = append(b, "]}"...)
	s.ev = s.ev[:0]
	s.sent = append(s.sent[:0], s.summary...)
	s.summary = s.summary[:0]
}

func (s *sim) exchange(ctx context.Context) (float64, []event, error) {
	s.out.Rounds++
	b, err := s.c.Exchange(ctx, s.buf, s.o.Timeout)
	what := fmt.Sprintf("message %d (t=%s: %s)", s.out.Rounds, fmtTime(s.clock), s.describe())
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

func (s *sim) describe() string {
	if len(s.sent) <= 4 {
		return strings.Join(s.sent, ", ")
	}
	return strings.Join(s.sent[:4], ", ") + fmt.Sprintf(" and %d more events", len(s.sent)-4)
}

// apply checks and carries out a reply's decisions in order, each at its
// timestamp (Batsim's reader waits until it; one in the past is applied at
// the current time), the simulation's own events running in between; then
// the clock moves to the reply's now.
func (s *sim) apply(msgNow, replyNow float64, evs []event) error {
	if replyNow < msgNow {
		return fmt.Errorf("the reply to message %d (t=%s) has now=%s: time cannot go backwards", s.out.Rounds, fmtTime(msgNow), fmtTime(replyNow))
	}
	for k, ev := range evs {
		if ev.Timestamp > replyNow {
			return fmt.Errorf("at t=%s, decision %d of the reply to message %d, %s: its timestamp %s is after the reply's now (%s); Batsim requires timestamp ≤ now",
				fmtTime(s.clock), k+1, s.out.Rounds, ev.Type, fmtTime(ev.Timestamp), fmtTime(replyNow))
		}
		s.advance(max(s.clock, ev.Timestamp))
		subject, err := s.decide(ev)
		if err != nil {
			w := fmt.Sprintf("at t=%s, decision %d of the reply to message %d, %s", fmtTime(s.clock), k+1, s.out.Rounds, ev.Type)
			if subject != "" {
				w += " " + subject
			}
			return fmt.Errorf("%s: %w", w, err)
		}
	}
	s.advance(replyNow)
	return nil
}

// decisions are the decisions Batsim's protocol has, by type.
var decisions = map[string]func(*sim, map[string]json.RawMessage) (string, error){
	"EXECUTE_JOB": (*sim).execute, "REJECT_JOB": (*sim).reject, "KILL_JOB": (*sim).kill,
	"CALL_ME_LATER": func(s *sim, d map[string]json.RawMessage) (string, error) { return "", s.callMeLater(d) },
	"NOTIFY":        (*sim).notified, "REGISTER_JOB": (*sim).registerJob, "REGISTER_PROFILE": (*sim).registerProfile,
	"SET_JOB_METADATA": (*sim).setMetadata, "CHANGE_JOB_STATE": (*sim).changeState, "QUERY": (*sim).query,
	"ANSWER": (*sim).answer, "SET_RESOURCE_STATE": (*sim).setResourceState,
}

func (s *sim) decide(ev event) (string, error) {
	if f, ok := decisions[ev.Type]; ok {
		return f(s, ev.Data)
	}
	if ev.Type == "TO_JOB_MSG" {
		return "", fmt.Errorf("TO_JOB_MSG is not supported: it talks to a job of a message-passing profile (send/recv), which schedlab's jobs are not")
	}
	return "", fmt.Errorf("%s is not a decision of Batsim's protocol (EXECUTE_JOB, REJECT_JOB, CALL_ME_LATER, KILL_JOB, NOTIFY, REGISTER_JOB, REGISTER_PROFILE, SET_JOB_METADATA, CHANGE_JOB_STATE, QUERY, ANSWER, SET_RESOURCE_STATE; see the package doc)", ev.Type)
}

// fields checks that data holds only the known keys.
func fields(data map[string]json.RawMessage, known ...string) error {
	for k := range data {
		if !slices.Contains(known, k) {
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
		like := "w0!1"
		if len(s.ids) > 0 {
			like = s.ids[0]
		}
		return id, -1, fmt.Errorf("there is no job %q in this simulation (ids are like %s)", id, like)
	}
	return id, j, nil
}

// notStartable says why job j cannot start or be rejected now, or nil.
func (s *sim) notStartable(j int) error {
	switch s.state[j] {
	case notSubmitted:
		return fmt.Errorf("the job is not submitted yet (its submission time is %s)", fmtTime(s.jobs[j].Submit))
	case running:
		return fmt.Errorf("the job is already running (started at %s)", fmtTime(s.place[j].Start))
	case finished:
		if s.final[j] == "REJECTED" {
			return fmt.Errorf("the job was rejected")
		}
		return fmt.Errorf("the job already ran (from %s to %s)", fmtTime(s.place[j].Start), fmtTime(s.place[j].End))
	}
	return nil
}

func (s *sim) execute(data map[string]json.RawMessage) (string, error) {
	id, j, err := s.jobOf(data)
	if err != nil {
		return id, err
	}
	for _, f := range []string{"mapping", "storage_mapping", "additional_io_job"} {
		if _, ok := data[f]; ok {
			return id, fmt.Errorf("field %q is not supported: it maps executors or storage onto hosts, and schedlab's jobs are rigid delay jobs with no storage (the allocation is the job's hosts, one executor each)", f)
		}
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
			return id, fmt.Errorf("resource %d is busy with job %s: compute sharing is off (allow_compute_sharing is false), so a host runs one job at a time, as Batsim refuses it", c, s.ids[o-1])
		}
		if s.host[c] != hostOn {
			return id, fmt.Errorf("resource %d cannot compute now: it is %s (SET_RESOURCE_STATE it to a computing pstate first)", c, hostStateName[s.host[c]])
		}
	}
	if len(procs) != job.Size {
		return id, fmt.Errorf("alloc %q has %d resources; the job requests %d", alloc, len(procs), job.Size)
	}
	now := s.clock
	for _, c := range procs {
		s.hostEnergy(c, now) // the time before, at its power
		s.owner[c] = int32(j + 1)
	}
	if j < s.n && job.Run > job.Estimate {
		s.out.Result.Capped++
	}
	end := now + job.Duration()
	s.place[j] = batch.Placement{Start: now, End: end, Procs: procs}
	s.state[j] = running
	s.run.Push(run{job: j, end: end})
	if j < s.n {
		s.started++
	}
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
	if s.state[j] != waiting {
		return id, fmt.Errorf("to be rejected a job must be submitted and not started: %v", s.notStartable(j))
	}
	s.rejectJob(j)
	return id, nil
}

func (s *sim) rejectJob(j int) {
	s.state[j] = finished
	s.final[j] = "REJECTED"
	s.out.NRejected++
	s.done++
}

// callMeLater books a REQUESTED_CALL strictly after now: Batsim refuses a
// call at the current time or before ("You asked to be awaken in the
// past").
func (s *sim) callMeLater(data map[string]json.RawMessage) error {
	if len(data) != 1 {
		return fmt.Errorf("data must hold exactly one field, timestamp (got %d)", len(data))
	}
	raw, ok := data["timestamp"]
	if !ok {
		return fmt.Errorf("no timestamp (when to call)")
	}
	t, err := number(raw)
	if err != nil {
		return fmt.Errorf("timestamp %v", err)
	}
	if t <= s.clock {
		return fmt.Errorf("asks to be called at %s, which is not after the current time %s; Batsim refuses a call at the current time or before (\"You asked to be awaken in the past\")", fmtTime(t), fmtTime(s.clock))
	}
	i, _ := slices.BinarySearch(s.calls, t) // one REQUESTED_CALL each, even at one time
	s.calls = slices.Insert(s.calls, i, t)
	return nil
}

// kill ends running jobs now: a JOB_COMPLETED (COMPLETED_KILLED) for each
// job really killed, then one JOB_KILLED for them all, as Batsim's
// killer does.
func (s *sim) kill(data map[string]json.RawMessage) (string, error) {
	if err := fields(data, "job_ids"); err != nil {
		return "", err
	}
	var ids []json.RawMessage
	if raw, ok := data["job_ids"]; !ok || json.Unmarshal(raw, &ids) != nil || raw[0] != '[' {
		return "", fmt.Errorf("job_ids must be a list of job ids")
	}
	if len(ids) == 0 {
		return "", fmt.Errorf("job_ids must not be empty")
	}
	type killed struct {
		id       string
		ran      bool
		progress float64
		profile  string
	}
	var ks []killed
	now := s.clock
	for _, raw := range ids {
		id, j, err := s.jobOf(map[string]json.RawMessage{"job_id": raw})
		if err != nil {
			return id, err
		}
		switch {
		case s.state[j] == running:
			pl := &s.place[j]
			progress := (now - pl.Start) / (pl.End - pl.Start)
			pl.End = now
			s.run.Remove(slices.IndexFunc(s.run.Items(), func(r run) bool { return r.job == j }))
			s.free(j, now)
			s.state[j] = finished
			s.final[j] = "COMPLETED_KILLED"
			s.done++
			s.out.Killed++
			s.completedEvent(j, now)
			ks = append(ks, killed{id, true, progress, s.profiles[j]})
		case s.state[j] == finished && s.final[j] != "REJECTED":
			ks = append(ks, killed{id: id}) // ended before the kill: acknowledged without progress
		default:
			return id, fmt.Errorf("the job is neither running nor completed, so it cannot be killed (Batsim: \"refers to a job not being executed nor completed\")")
		}
	}
	s.openEvent(now, "JOB_KILLED", "JOB_KILLED")
	b := append(s.ev, `{"job_ids":[`...)
	for i, k := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k.id)
	}
	b = append(b, `],"job_progress":{`...)
	open := len(b)
	for _, k := range ks {
		if !k.ran {
			continue
		}
		if len(b) > open {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k.id)
		b = append(b, `:{"profile":`...)
		b = strconv.AppendQuote(b, k.profile)
		b = append(b, `,"progress":`...)
		b = appendFloat(b, k.progress)
		b = append(b, '}')
	}
	s.ev = append(b, `}}}`...)
	return "", nil
}

// notified applies the NOTIFY types Batsim reads from a decision process.
func (s *sim) notified(data map[string]json.RawMessage) (string, error) {
	var typ string
	if err := str(data["type"], &typ); err != nil {
		return "", fmt.Errorf("type %v", err)
	}
	switch typ {
	case "registration_finished":
		s.regDone = true
		return typ, nil
	case "continue_registration":
		s.regDone = false
		return typ, nil
	}
	return typ, fmt.Errorf("NOTIFY %q is not one Batsim reads from a decision process (registration_finished, continue_registration)", typ)
}

// dynamicAllowed says why REGISTER_* cannot be applied, or nil.
func (s *sim) dynamicAllowed() error {
	if !s.o.DynamicJobs {
		return fmt.Errorf("dynamic job registration is off in this run (SIMULATION_BEGINS said dynamic-jobs-enabled: false; turn the run's dynamic_jobs parameter on)")
	}
	if s.regDone {
		return fmt.Errorf("dynamic registration was finished by NOTIFY registration_finished (send continue_registration first)")
	}
	return nil
}

// registerProfile adds a profile to a workload (created if new).
func (s *sim) registerProfile(data map[string]json.RawMessage) (string, error) {
	if err := s.dynamicAllowed(); err != nil {
		return "", err
	}
	if err := fields(data, "workload_name", "profile_name", "profile"); err != nil {
		return "", err
	}
	var wl, name string
	if err := str(data["workload_name"], &wl); err != nil {
		return "", fmt.Errorf("workload_name %v", err)
	}
	if err := str(data["profile_name"], &name); err != nil {
		return "", fmt.Errorf("profile_name %v", err)
	}
	subject := wl + "!" + name
	if strings.Contains(wl, "!") || wl == "" || name == "" {
		return subject, fmt.Errorf("workload_name and profile_name must be non-empty, without '!'")
	}
	raw := data["profile"]
	if len(raw) == 0 || raw[0] != '{' {
		return subject, fmt.Errorf("profile must be an object, got %s", kindOf(raw))
	}
	if _, ok := s.workloads[wl][name]; ok {
		return subject, fmt.Errorf("profile %q already exists in workload %q (Batsim: \"Invalid new profile registration\")", name, wl)
	}
	pr, err := s.readProfile(raw)
	if err != nil {
		return subject, err
	}
	if s.workloads[wl] == nil {
		s.workloads[wl] = map[string]profile{}
	}
	s.workloads[wl][name] = pr
	return subject, nil
}

// readProfile reads a registered profile: the types whose duration
// schedlab can work out.
func (s *sim) readProfile(raw json.RawMessage) (profile, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return profile{}, fmt.Errorf("profile: %v", err)
	}
	var typ string
	if err := str(m["type"], &typ); err != nil {
		return profile{}, fmt.Errorf("profile type %v", err)
	}
	num := func(k string) (float64, error) {
		v, ok := m[k]
		if !ok {
			return 0, fmt.Errorf("a %s profile needs %q", typ, k)
		}
		f, err := number(v)
		if err != nil || f < 0 {
			return 0, fmt.Errorf("profile %s: must be a number ≥ 0", k)
		}
		return f, nil
	}
	switch typ {
	case "delay":
		d, err := num("delay")
		if err != nil {
			return profile{}, err
		}
		return profile{runtime: d, json: string(raw)}, nil
	case "parallel_homogeneous":
		if s.o.HostSpeed <= 0 {
			return profile{}, fmt.Errorf("a parallel_homogeneous profile needs the hosts' speed, which this run does not give (only delay profiles run without a platform)")
		}
		cpu, err := num("cpu")
		if err != nil {
			return profile{}, err
		}
		if com, err := num("com"); err != nil || com != 0 {
			return profile{}, fmt.Errorf("a parallel_homogeneous profile with com ≠ 0 needs a network model, which schedlab does not have (com must be 0)")
		}
		return profile{runtime: cpu / s.o.HostSpeed, json: string(raw)}, nil
	}
	return profile{}, fmt.Errorf("profile type %q is not supported (delay, and parallel_homogeneous with com 0 when the run gives a host speed)", typ)
}

// registerJob submits a job of a registered or existing profile now.
func (s *sim) registerJob(data map[string]json.RawMessage) (string, error) {
	if err := s.dynamicAllowed(); err != nil {
		return "", err
	}
	var id string
	if err := str(data["job_id"], &id); err != nil {
		return "", fmt.Errorf("job_id %v", err)
	}
	if err := fields(data, "job_id", "job"); err != nil {
		return id, err
	}
	wl, name, ok := strings.Cut(id, "!")
	if !ok || wl == "" || name == "" {
		return id, fmt.Errorf("job_id must be WORKLOAD!NAME")
	}
	if _, ok := s.workloads[wl]; !ok {
		return id, fmt.Errorf("workload %q does not exist (register one of its profiles first)", wl)
	}
	if _, ok := s.index[id]; ok {
		return id, fmt.Errorf("job %q already exists (Batsim: \"Cannot register new job\")", id)
	}
	raw, ok := data["job"]
	if !ok {
		return id, fmt.Errorf("no job (the job's description; schedlab has no Redis)")
	}
	var jd map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &jd) != nil {
		return id, fmt.Errorf("job must be an object, got %s", kindOf(raw))
	}
	var jid, prof string
	if err := str(jd["id"], &jid); err != nil {
		return id, fmt.Errorf("job.id %v", err)
	}
	if jid != id && jid != name {
		return id, fmt.Errorf("job.id %q is neither the job_id nor its name %q", jid, name)
	}
	if err := str(jd["profile"], &prof); err != nil {
		return id, fmt.Errorf("job.profile %v", err)
	}
	pr, ok := s.workloads[wl][prof]
	if !ok {
		return id, fmt.Errorf("workload %q has no profile %q (register it with REGISTER_PROFILE before the job)", wl, prof)
	}
	resF, err := number(jd["res"])
	if err != nil || resF != math.Trunc(resF) || resF < 1 {
		return id, fmt.Errorf("job.res must be a whole number ≥ 1")
	}
	res := int(resF)
	if res > s.p {
		return id, fmt.Errorf("job.res %d is more than the machine's %d resources", res, s.p)
	}
	wall := math.Inf(1)
	if w, ok := jd["walltime"]; ok {
		f, err := number(w)
		if err != nil {
			return id, fmt.Errorf("job.walltime %v", err)
		}
		if f > 0 {
			wall = f
		} else if f != -1 {
			return id, fmt.Errorf("job.walltime must be > 0, or -1 for none; got %s", fmtTime(f))
		}
	}
	j := len(s.jobs)
	now := s.clock
	s.jobs = append(s.jobs, batch.Job{ID: -1, Submit: now, Size: res, Estimate: wall, Run: pr.runtime})
	s.ids = append(s.ids, id)
	s.profiles = append(s.profiles, prof)
	s.index[id] = j
	s.state = append(s.state, waiting)
	s.place = append(s.place, batch.Placement{})
	s.final = append(s.final, "")
	s.meta = append(s.meta, "")
	if s.o.AckDynamicJobs {
		s.openEvent(now, "JOB_SUBMITTED", "JOB_SUBMITTED "+id)
		b := append(s.ev, `{"job_id":`...)
		b = strconv.AppendQuote(b, id)
		b = append(b, `,"job":`...)
		b = append(b, raw...)
		s.ev = append(b, `}}`...)
	}
	return id, nil
}

// setMetadata records a job's metadata (a string without double quotes,
// as Batsim's CSV output needs).
func (s *sim) setMetadata(data map[string]json.RawMessage) (string, error) {
	if len(data) != 2 {
		return "", fmt.Errorf("data must hold exactly job_id and metadata")
	}
	id, j, err := s.jobOf(data)
	if err != nil {
		return id, err
	}
	var m string
	if err := str(data["metadata"], &m); err != nil {
		return id, fmt.Errorf("metadata %v", err)
	}
	if strings.Contains(m, `"`) {
		return id, fmt.Errorf("metadata must not contain double quotes (Batsim writes it in a CSV field)")
	}
	s.meta[j] = m
	return id, nil
}

// changeState applies the CHANGE_JOB_STATE schedlab can carry out: a
// submitted job to REJECTED (as REJECT_JOB). Batsim also lets a submitted
// job be marked RUNNING with no hosts and a running job be marked
// completed while its execution goes on; schedlab refuses those (its
// schedule could not say where or until when the job ran): use
// EXECUTE_JOB and KILL_JOB.
func (s *sim) changeState(data map[string]json.RawMessage) (string, error) {
	id, j, err := s.jobOf(data)
	if err != nil {
		return id, err
	}
	if err := fields(data, "job_id", "job_state"); err != nil {
		return id, err
	}
	var st string
	if err := str(data["job_state"], &st); err != nil {
		return id, fmt.Errorf("job_state %v", err)
	}
	switch st {
	case "NOT_SUBMITTED", "RUNNING", "COMPLETED_SUCCESSFULLY", "COMPLETED_WALLTIME_REACHED", "COMPLETED_KILLED", "REJECTED":
	default:
		return id, fmt.Errorf("job_state must be one of NOT_SUBMITTED, RUNNING, COMPLETED_SUCCESSFULLY, COMPLETED_WALLTIME_REACHED, COMPLETED_KILLED, REJECTED; got %q", st)
	}
	if st == "REJECTED" && s.state[j] == waiting {
		s.rejectJob(j)
		return id, nil
	}
	return id, fmt.Errorf("changing a job to %s is not supported: schedlab carries out only a submitted job to REJECTED (a job runs through EXECUTE_JOB and ends early through KILL_JOB, so that its schedule says where and until when it ran)", st)
}

// query answers the QUERY Batsim answers: consumed_energy.
func (s *sim) query(data map[string]json.RawMessage) (string, error) {
	if err := fields(data, "requests"); err != nil {
		return "", err
	}
	var reqs map[string]json.RawMessage
	raw := data["requests"]
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &reqs) != nil || len(reqs) == 0 {
		return "", fmt.Errorf("requests must be a non-empty object")
	}
	for k, v := range reqs {
		if k != "consumed_energy" {
			return k, fmt.Errorf("Batsim answers only the request consumed_energy, not %q", k)
		}
		if string(v) != "{}" && strings.ReplaceAll(string(v), " ", "") != "{}" {
			return k, fmt.Errorf("the consumed_energy request must be {}")
		}
		if s.o.Power == nil {
			return k, fmt.Errorf("this run has no power model (energy is off, as Batsim without --energy), so there is no consumed energy to answer")
		}
		for c := range s.p {
			s.hostEnergy(c, s.clock)
		}
		s.openEvent(s.clock, "ANSWER", "ANSWER consumed_energy")
		b := append(s.ev, `{"consumed_energy":`...)
		b = appendFloat(b, s.energy)
		s.ev = append(b, `}}`...)
	}
	return "consumed_energy", nil
}

// answer accepts the ANSWER Batsim reads (estimate_waiting_time, which it
// only logs).
func (s *sim) answer(data map[string]json.RawMessage) (string, error) {
	if len(data) == 0 {
		return "", fmt.Errorf("data must not be empty")
	}
	for k, v := range data {
		if k != "estimate_waiting_time" {
			return k, fmt.Errorf("Batsim reads only the ANSWER estimate_waiting_time, not %q", k)
		}
		var m map[string]json.RawMessage
		if len(v) == 0 || v[0] != '{' || json.Unmarshal(v, &m) != nil {
			return k, fmt.Errorf("estimate_waiting_time must be an object")
		}
		var id string
		if err := str(m["job_id"], &id); err != nil {
			return k, fmt.Errorf("job_id %v", err)
		}
		if _, err := number(m["estimated_waiting_time"]); err != nil {
			return k, fmt.Errorf("estimated_waiting_time %v", err)
		}
	}
	return "estimate_waiting_time", nil
}

// --- hosts, power and energy -------------------------------------------------

var hostStateName = [...]string{hostOn: "on", hostSleeping: "sleeping", hostSwitchingOff: "switching off", hostSwitchingOn: "switching on"}

func (s *sim) watts(c int) float64 {
	pm := s.o.Power
	switch s.host[c] {
	case hostSleeping:
		return pm.SleepW
	case hostSwitchingOff, hostSwitchingOn:
		return pm.IdleW
	}
	if s.owner[c] != 0 {
		return pm.ComputeW
	}
	return pm.IdleW
}

// hostEnergy adds host c's energy since its last change up to t.
func (s *sim) hostEnergy(c int, t float64) {
	if s.o.Power == nil {
		return
	}
	if t > s.hostFrom[c] {
		s.energy += s.watts(c) * (t - s.hostFrom[c])
	}
	s.hostFrom[c] = t
}

// setResourceState switches hosts between state 0 (on) and 1 (asleep).
func (s *sim) setResourceState(data map[string]json.RawMessage) (string, error) {
	if s.o.Power == nil {
		return "", fmt.Errorf("this run has no power model (energy is off, as Batsim without --energy refuses a pstate change): give the run its host power model")
	}
	if len(data) != 2 {
		return "", fmt.Errorf("data must hold exactly resources and state")
	}
	var res, st string
	if err := str(data["resources"], &res); err != nil {
		return "", fmt.Errorf("resources %v", err)
	}
	if err := str(data["state"], &st); err != nil {
		return res, fmt.Errorf("state %v", err)
	}
	hosts, err := ParseIntervals(res)
	if err != nil {
		return res, fmt.Errorf("resources %q: %v", res, err)
	}
	sleep := s.o.Power.sleep()
	ps, err := strconv.Atoi(st)
	if err != nil || ps < 0 || ps > sleep {
		return res, fmt.Errorf("state %q does not exist: the power model has pstates 0 to %d computing and %d sleeping", st, sleep-1, sleep)
	}
	now := s.clock
	toSleep := ps == sleep
	for _, c := range hosts {
		if c >= s.p {
			return res, fmt.Errorf("resource %d does not exist (the machine has %d: 0-%d)", c, s.p, s.p-1)
		}
		switch {
		case s.host[c] == hostSwitchingOff || s.host[c] == hostSwitchingOn:
			return res, fmt.Errorf("resource %d is %s", c, hostStateName[s.host[c]])
		case toSleep && s.owner[c] != 0:
			return res, fmt.Errorf("resource %d is computing job %s and cannot sleep", c, s.ids[s.owner[c]-1])
		}
	}
	sw, delay := switchReq{hosts: hosts, state: ps}, 0.0
	for _, c := range hosts {
		switch {
		case toSleep && s.host[c] == hostOn:
			s.hostEnergy(c, now)
			s.host[c] = hostSwitchingOff
			delay = max(delay, s.o.Power.SwitchOffS)
		case !toSleep && s.host[c] == hostSleeping:
			s.hostEnergy(c, now)
			s.host[c] = hostSwitchingOn
			delay = max(delay, s.o.Power.SwitchOnS)
		default:
			s.pstate[c] = ps // compute to compute, or already asleep: at once
		}
	}
	if sw.at = now + delay; delay == 0 {
		s.switched(sw)
	} else {
		s.switches = append(s.switches, sw)
	}
	return res, nil
}

// switched ends a switch: the hosts are in their new state, told by
// RESOURCE_STATE_CHANGED.
func (s *sim) switched(sw switchReq) {
	at := max(sw.at, s.clock)
	for _, c := range sw.hosts {
		s.hostEnergy(c, at)
		s.pstate[c] = sw.state
		if sw.state == s.o.Power.sleep() {
			s.host[c] = hostSleeping
		} else {
			s.host[c] = hostOn
		}
	}
	s.openEvent(at, "RESOURCE_STATE_CHANGED", "RESOURCE_STATE_CHANGED")
	b := append(s.ev, `{"resources":"`...)
	b = append(b, batch.Intervals(sw.hosts)...)
	b = append(b, `","state":"`...)
	b = strconv.AppendInt(b, int64(sw.state), 10)
	s.ev = append(b, `"}}`...)
}

func (s *sim) free(j int, t float64) {
	for _, c := range s.place[j].Procs {
		s.hostEnergy(c, t)
		s.owner[c] = 0
	}
}

// --- the completion heap -------------------------------------------------

func endsFirst(a, b run) bool { return a.end < b.end || a.end == b.end && a.job < b.job }
