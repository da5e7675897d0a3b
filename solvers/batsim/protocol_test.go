package batsim

import (
	"context"
	"strings"
	"testing"

	"schedlab/solvers/batch"
)

// protocolRun runs small with testdata/protocol.py in mode.
func protocolRun(t *testing.T, mode string, o Options) (*Outcome, error) {
	t.Helper()
	py := pythonWithZMQ(t)
	s := Scheduler{Name: mode, Command: []string{py, "testdata/protocol.py", mode, "{endpoint}"}}
	c, err := s.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	o.Name = mode
	return Simulate(context.Background(), small, 4, c, o)
}

type place struct {
	start, end float64
	procs      string
}

func checkPlaces(t *testing.T, what string, got []batch.Placement, want []place) {
	t.Helper()
	for i, w := range want {
		g := got[i]
		if g.Start != w.start || g.End != w.end || batch.Intervals(g.Procs) != w.procs {
			t.Errorf("%s %d: %v–%v on %q, worked out by hand %v–%v on %q", what, i, g.Start, g.End, batch.Intervals(g.Procs), w.start, w.end, w.procs)
		}
	}
}

// TestThinkingTimeSchedule: FCFS taking 2 s per message that brings
// events (pybatsim's consume_time). Worked by hand on small: the
// submissions at 0 reach it at 2 (SIMULATION_BEGINS cost 2 s); it starts
// job 1 at 4 (0-1, 10 s: ends 14); at 14 it starts job 2 at 16 (0-3, ends
// 21); job 99 arrives at 100 and starts at 102 (ends 103).
func TestThinkingTimeSchedule(t *testing.T) {
	out, err := protocolRun(t, "think", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPlaces(t, "job", out.Result.Placements, []place{{4, 14, "0-1"}, {16, 21, "0-3"}, {102, 103, "0"}})
	// BEGINS, 2 (submissions), 14, 21, 100, 103, SIMULATION_ENDS at 105.
	if out.Rounds != 7 {
		t.Errorf("%d round trips, want 7", out.Rounds)
	}
}

// TestThinkingTimeMessages: events that happen while the decision process
// thinks reach it in the next message, at the reply's now, each with its
// own timestamp; a decision timestamped later than the message is
// applied at its timestamp, after the simulation's events before it.
func TestThinkingTimeMessages(t *testing.T) {
	c := script(
		`{"timestamp":3,"type":"CALL_ME_LATER","data":{"timestamp":20}}`, // BEGINS at 0, reply now 3
		"",
	)
	reply := c.reply
	c.reply = func(req map[string]any) string {
		r := reply(req)
		if len(c.sent) == 1 {
			return strings.Replace(r, `"now":0,`, `"now":3,`, 1)
		}
		if len(c.sent) == 2 { // at 3: 1 and 2, submitted at 0; start 1 at 12, reply at 12
			return `{"now":12,"events":[{"timestamp":12,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0-1"}}]}`
		}
		if len(c.sent) == 3 { // the call at 20: start 2 when 1 is done (22), reply at 25
			return `{"now":25,"events":[{"timestamp":23,"type":"EXECUTE_JOB","data":{"job_id":"w0!2","alloc":"0-3"}}]}`
		}
		if len(c.sent) == 5 { // at 100
			return `{"now":100,"events":[{"timestamp":100,"type":"EXECUTE_JOB","data":{"job_id":"w0!99","alloc":"2"}}]}`
		}
		return r
	}
	out, err := Simulate(context.Background(), small, 4, c, Options{Name: "think"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.sent[1], `{"now":3,`) || !strings.Contains(c.sent[1], `{"timestamp":0,"type":"JOB_SUBMITTED"`) {
		t.Errorf("message 2 should be at the reply's now (3) with the submissions at 0: %s", c.sent[1])
	}
	// Job 1 runs 12–22; the call at 20 comes at 20 (message 3).
	if !strings.HasPrefix(c.sent[2], `{"now":20,`) || !strings.Contains(c.sent[2], "REQUESTED_CALL") {
		t.Errorf("message 3 should be the call at 20: %s", c.sent[2])
	}
	// The reply at 25 starts job 2 at 23, after job 1's completion at 22
	// (which happened while it thought and comes in message 4, at 25).
	if !strings.HasPrefix(c.sent[3], `{"now":25,`) || !strings.Contains(c.sent[3], `{"timestamp":22,"type":"JOB_COMPLETED"`) {
		t.Errorf("message 4 should be at 25 with job 1's completion at 22: %s", c.sent[3])
	}
	checkPlaces(t, "job", out.Result.Placements, []place{{12, 22, "0-1"}, {23, 28, "0-3"}, {100, 101, "2"}})
}

// TestKillAndRequeueSchedule: dynamic jobs on, acknowledged. Worked by
// hand on small: w0!1 starts at 0 on 0-1; dyn!x (a registered 7 s delay
// profile) waits behind w0!2; at the call at 3 w0!1 is killed (progress
// 0.3) and registered again as w0!1#1 with its profile p1 (10 s) and
// metadata; w0!2 starts at 3 on 0-3 (ends 8); at 8 dyn!x starts on 0
// (ends 15) and w0!1#1 on 1-2 (ends 18); w0!99 runs 100–101 on 0; then
// registration_finished lets the simulation end.
func TestKillAndRequeueSchedule(t *testing.T) {
	out, err := protocolRun(t, "requeue", Options{DynamicJobs: true, AckDynamicJobs: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPlaces(t, "trace job", out.Result.Placements, []place{{0, 3, "0-1"}, {3, 8, "0-3"}, {100, 101, "0"}})
	if out.States[0] != "COMPLETED_KILLED" || out.Killed != 1 {
		t.Errorf("w0!1: state %s, %d killed", out.States[0], out.Killed)
	}
	if len(out.Dynamic) != 2 {
		t.Fatalf("%d registered jobs, want 2: %+v", len(out.Dynamic), out.Dynamic)
	}
	want := []struct {
		id, profile, meta string
		submit            float64
		p                 place
	}{
		{"dyn!x", "d7", "", 0, place{8, 15, "0"}},
		{"w0!1#1", "p1", "requeued from w0!1", 3, place{8, 18, "1-2"}},
	}
	for i, w := range want {
		g := out.Dynamic[i]
		if g.ID != w.id || g.Profile != w.profile || g.Metadata != w.meta || g.Submit != w.submit || g.State != "COMPLETED_SUCCESSFULLY" {
			t.Errorf("registered job %d: %+v, want %+v", i, g, w)
		}
		checkPlaces(t, w.id, []batch.Placement{g.Placement}, []place{w.p})
	}
}

// TestPowerStatesAndEnergy: power model idle 100 W, computing 200 W,
// asleep 10 W, 1 s to sleep, 2 s to wake. Worked by hand on small: hosts
// 2-3 sleep from 0 (asleep at 1), wake at 10 for job 2 (on at 12), which
// runs 12–17. Energy to 17: hosts 0-1 4000 + 400 + 2000, hosts 2-3 200 +
// 180 + 400 + 2000: 9180 J, the ANSWER the scheduler writes into job 99's
// metadata; to the end (101) four idle hosts add 33,600 J and job 99 100
// J: 42,880 J.
func TestPowerStatesAndEnergy(t *testing.T) {
	pm := &Power{IdleW: 100, ComputeW: 200, SleepW: 10, SwitchOffS: 1, SwitchOnS: 2}
	out, err := protocolRun(t, "energy", Options{Power: pm})
	if err != nil {
		t.Fatal(err)
	}
	checkPlaces(t, "job", out.Result.Placements, []place{{0, 10, "0-1"}, {12, 17, "0-3"}, {100, 101, "0"}})
	if out.Metadata[2] != "energy 9180" {
		t.Errorf("the energy answered at 17: %q, want energy 9180", out.Metadata[2])
	}
	if out.Energy != 42880 {
		t.Errorf("consumed energy %v J, want 42880", out.Energy)
	}
}

// TestPowerStateRefusals: a sleeping host cannot compute; a computing host
// cannot sleep; a pstate the model lacks is refused.
func TestPowerStateRefusals(t *testing.T) {
	pm := &Power{IdleW: 100, ComputeW: 200, SleepW: 10, SwitchOffS: 1, SwitchOnS: 2}
	for _, tc := range []struct {
		name    string
		replies []string
		want    string
	}{
		{"sleeping host", []string{`{"timestamp":NOW,"type":"SET_RESOURCE_STATE","data":{"resources":"0-1","state":"1"}}`, execJob("w0!1", "0-1")}, "resource 0 cannot compute now: it is switching off"},
		{"busy host", []string{"", execJob("w0!1", "0-1") + `,{"timestamp":NOW,"type":"SET_RESOURCE_STATE","data":{"resources":"1","state":"1"}}`}, "resource 1 is computing job w0!1 and cannot sleep"},
		{"no such pstate", []string{`{"timestamp":NOW,"type":"SET_RESOURCE_STATE","data":{"resources":"0","state":"7"}}`}, `state "7" does not exist: the power model has pstates 0 to 0 computing and 1 sleeping`},
	} {
		_, err := Simulate(context.Background(), small, 4, script(tc.replies...), Options{Name: "pw", Power: pm})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestDynamicRegistrationRefusals: REGISTER_JOB and REGISTER_PROFILE are
// checked as Batsim checks them.
func TestDynamicRegistrationRefusals(t *testing.T) {
	reg := func(data string) string { return `{"timestamp":NOW,"type":"REGISTER_JOB","data":` + data + `}` }
	prof := func(data string) string { return `{"timestamp":NOW,"type":"REGISTER_PROFILE","data":` + data + `}` }
	for _, tc := range []struct {
		name, reply, want string
	}{
		{"unknown workload", reg(`{"job_id":"zz!1","job":{"id":"zz!1","res":1,"profile":"p1"}}`), `workload "zz" does not exist`},
		{"unknown profile", reg(`{"job_id":"w0!n","job":{"id":"w0!n","res":1,"profile":"nope"}}`), `has no profile "nope"`},
		{"job exists", reg(`{"job_id":"w0!1","job":{"id":"w0!1","res":1,"profile":"p1"}}`), `job "w0!1" already exists`},
		{"too wide", reg(`{"job_id":"w0!n","job":{"id":"w0!n","res":9,"profile":"p1"}}`), "more than the machine's 4"},
		{"redis form", reg(`{"job_id":"w0!n"}`), "schedlab has no Redis"},
		{"no bang", reg(`{"job_id":"n","job":{"id":"n","res":1,"profile":"p1"}}`), "WORKLOAD!NAME"},
		{"profile twice", prof(`{"workload_name":"w0","profile_name":"p1","profile":{"type":"delay","delay":3}}`), `profile "p1" already exists`},
		{"profile type", prof(`{"workload_name":"w0","profile_name":"x","profile":{"type":"parallel","cpu":[1],"com":[0]}}`), `profile type "parallel" is not supported`},
		{"homogeneous without speed", prof(`{"workload_name":"w0","profile_name":"x","profile":{"type":"parallel_homogeneous","cpu":1e9,"com":0}}`), "needs the hosts' speed"},
		{"after finish", `{"timestamp":NOW,"type":"NOTIFY","data":{"type":"registration_finished"}},` + reg(`{"job_id":"w0!n","job":{"id":"w0!n","res":1,"profile":"p1"}}`), "finished by NOTIFY registration_finished"},
	} {
		_, err := Simulate(context.Background(), small, 4, script(tc.reply), Options{Name: "dyn", DynamicJobs: true})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestRegistrationMustFinish: with dynamic jobs on, the simulation waits
// for registration_finished, and says so when nothing else can happen.
func TestRegistrationMustFinish(t *testing.T) {
	c := script("", execJob("w0!1", "0-1"), execJob("w0!2", "0-3"), "", execJob("w0!99", "0"))
	_, err := Simulate(context.Background(), small, 4, c, Options{Name: "dyn", DynamicJobs: true})
	if err == nil || !strings.Contains(err.Error(), "has not sent NOTIFY registration_finished") {
		t.Fatalf("error %v", err)
	}
}

// TestParallelHomogeneousProfile: with a host speed, a registered
// parallel_homogeneous profile runs cpu/speed seconds.
func TestParallelHomogeneousProfile(t *testing.T) {
	c := script(`{"timestamp":NOW,"type":"REGISTER_PROFILE","data":{"workload_name":"w0","profile_name":"ph","profile":{"type":"parallel_homogeneous","cpu":5e9,"com":0}}},`+
		`{"timestamp":NOW,"type":"REGISTER_JOB","data":{"job_id":"w0!ph","job":{"id":"ph","res":2,"profile":"ph","walltime":-1}}},`+
		`{"timestamp":NOW,"type":"NOTIFY","data":{"type":"registration_finished"}}`,
		execJob("w0!ph", "2-3")+","+execJob("w0!1", "0-1"), "", execJob("w0!2", "0-3"), "", execJob("w0!99", "0"))
	out, err := Simulate(context.Background(), small, 4, c, Options{Name: "ph", DynamicJobs: true, HostSpeed: 1e9})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Dynamic) != 1 || out.Dynamic[0].End != 5 || out.Dynamic[0].Walltime != -1 {
		t.Fatalf("%+v, want w0!ph to run 0–5 with no walltime", out.Dynamic)
	}
}

// TestForwardedRuntimeIsADelayProfile: with ForwardRuntime each job's
// profile is Batsim's delay profile of its runtime; off, it has no type.
func TestForwardedRuntimeIsADelayProfile(t *testing.T) {
	c := script("", execJob("w0!1", "0-1"), execJob("w0!2", "0-3"), "", execJob("w0!99", "0"))
	if _, err := Simulate(context.Background(), small, 4, c, Options{Name: "fw", ForwardRuntime: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.sent[0], `"profiles":{"w0":{"p1":{"type":"delay","delay":10},"p2":{"type":"delay","delay":5},"p99":{"type":"delay","delay":1}}}`) {
		t.Errorf("profiles not forwarded as delay profiles: %s", c.sent[0])
	}
}

// TestMetadataAndChangeJobState: SET_JOB_METADATA is kept; CHANGE_JOB_STATE
// REJECTED rejects a waiting job.
func TestMetadataAndChangeJobState(t *testing.T) {
	c := script("",
		`{"timestamp":NOW,"type":"SET_JOB_METADATA","data":{"job_id":"w0!1","metadata":"tag=a"}},`+
			`{"timestamp":NOW,"type":"CHANGE_JOB_STATE","data":{"job_id":"w0!2","job_state":"REJECTED"}},`+
			`{"timestamp":NOW,"type":"ANSWER","data":{"estimate_waiting_time":{"job_id":"w0!1","estimated_waiting_time":3}}},`+execJob("w0!1", "0-1"),
		"", execJob("w0!99", "0"))
	out, err := Simulate(context.Background(), small, 4, c, Options{Name: "md"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Metadata[0] != "tag=a" || !out.Rejected[1] || out.States[1] != "REJECTED" {
		t.Errorf("metadata %q, rejected %v, states %v", out.Metadata[0], out.Rejected, out.States)
	}
}
