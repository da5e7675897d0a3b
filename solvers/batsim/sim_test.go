package batsim

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"schedlab/solvers/batch"
	"schedlab/solvers/batsim/batsimtest"
)

func TestMain(m *testing.M) {
	batsimtest.Main() // the test binary as a fake decision process, when asked
	os.Exit(m.Run())
}

// funcConn is an in-memory decision process: each request goes to reply.
type funcConn struct {
	reply func(req map[string]any) string
	sent  []string
}

func (f *funcConn) Exchange(_ context.Context, msg []byte, _ time.Duration) ([]byte, error) {
	f.sent = append(f.sent, string(msg))
	var req map[string]any
	if err := json.Unmarshal(msg, &req); err != nil {
		return nil, err
	}
	return []byte(f.reply(req)), nil
}

func (f *funcConn) Close() error { return nil }

// small is three jobs on 4 processors: 1 (t=0, 2 procs, 10 s), 2 (t=0, 4
// procs, 5 s), 99 (t=100, 1 proc, 1 s).
var small = []batch.Job{
	{ID: 1, Submit: 0, Size: 2, Estimate: 10, Run: 10},
	{ID: 2, Submit: 0, Size: 4, Estimate: 5, Run: 5},
	{ID: 99, Submit: 100, Size: 1, Estimate: 1, Run: 1},
}

// script answers the k-th request (1-based) with replies[k-1]'s events
// at the request's now (an empty reply past the end).
func script(replies ...string) *funcConn {
	f := &funcConn{}
	f.reply = func(req map[string]any) string {
		now, _ := json.Marshal(req["now"])
		k := len(f.sent)
		evs := ""
		if k <= len(replies) {
			evs = strings.ReplaceAll(replies[k-1], "NOW", string(now))
		}
		return `{"now":` + string(now) + `,"events":[` + evs + `]}`
	}
	return f
}

func execJob(id, alloc string) string {
	return `{"timestamp":NOW,"type":"EXECUTE_JOB","data":{"job_id":"` + id + `","alloc":"` + alloc + `"}}`
}

// TestScriptedScheduleIsApplied: a decision process's starts become the
// schedule; completions come before submissions at one time; the messages
// are Batsim's.
func TestScriptedScheduleIsApplied(t *testing.T) {
	c := script(
		"",                     // SIMULATION_BEGINS
		execJob("w0!1", "0-1"), // t=0: 1 and 2 submitted
		execJob("w0!2", "0-3"), // t=10: 1 completes
		"",                     // t=15: 2 completes
		execJob("w0!99", "3"),  // t=100: 99 submitted
		"",                     // t=101
	)
	out, err := Simulate(context.Background(), small, 4, c, Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	want := []batch.Placement{{Start: 0, End: 10, Procs: []int{0, 1}}, {Start: 10, End: 15, Procs: []int{0, 1, 2, 3}}, {Start: 100, End: 101, Procs: []int{3}}}
	for i, w := range want {
		g := out.Result.Placements[i]
		if g.Start != w.Start || g.End != w.End || batch.Intervals(g.Procs) != batch.Intervals(w.Procs) {
			t.Errorf("job %d: %+v, want %+v", small[i].ID, g, w)
		}
	}
	if out.Rounds != 7 {
		t.Errorf("%d round trips, want 7 (begin, 0, 10, 15, 100, 101, end)", out.Rounds)
	}
	for _, sub := range []string{`"type":"SIMULATION_BEGINS"`, `"nb_compute_resources":4`, `"profiles-forwarded-on-submission":false`, `"profiles":{"w0":{"p1":{},"p2":{},"p99":{}}}`, `"zone_properties":{}`} {
		if !strings.Contains(c.sent[0], sub) {
			t.Errorf("SIMULATION_BEGINS lacks %s: %s", sub, c.sent[0])
		}
	}
	if !strings.Contains(c.sent[1], `"job":{"id":"w0!1","subtime":0,"walltime":10,"res":2,"profile":"p1"}`) {
		t.Errorf("JOB_SUBMITTED as pybatsim reads it missing: %s", c.sent[1])
	}
	if !strings.Contains(c.sent[4], `"type":"NOTIFY","data":{"type":"no_more_static_job_to_submit"}`) {
		t.Errorf("the last submission is not followed by NOTIFY no_more_static_job_to_submit: %s", c.sent[4])
	}
	if !strings.Contains(c.sent[6], "SIMULATION_ENDS") {
		t.Errorf("the last message is not SIMULATION_ENDS: %s", c.sent[6])
	}
}

// TestCompletionsComeBeforeSubmissionsAtOneTime: at t=10 job 1 ends and
// job 3 arrives; one message holds both, the completion first.
func TestCompletionsComeBeforeSubmissionsAtOneTime(t *testing.T) {
	jobs := []batch.Job{{ID: 1, Submit: 0, Size: 1, Estimate: 10, Run: 10}, {ID: 3, Submit: 10, Size: 1, Estimate: 1, Run: 1}}
	c := script("", execJob("w0!1", "0"), execJob("w0!3", "0"))
	if _, err := Simulate(context.Background(), jobs, 1, c, Options{Name: "test"}); err != nil {
		t.Fatal(err)
	}
	m := c.sent[2]
	done, sub := strings.Index(m, "JOB_COMPLETED"), strings.Index(m, "JOB_SUBMITTED")
	if done < 0 || sub < 0 || done > sub {
		t.Fatalf("message at t=10 should hold the completion, then the submission: %s", m)
	}
}

// TestBadDecisionsFailTheRunNamingTheDecision: each bad decision is an
// error that names the message, the decision and what is wrong.
func TestBadDecisionsFailTheRunNamingTheDecision(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []string
		want    []string
	}{
		{"unknown job", []string{"", execJob("w0!7", "0")}, []string{"decision 1 of the reply to message 2", "EXECUTE_JOB w0!7", "no job"}},
		{"busy resources", []string{"", execJob("w0!1", "0-1") + "," + execJob("w0!2", "1-4")}, []string{"decision 2", "EXECUTE_JOB w0!2", "resource 1 is busy with job w0!1"}},
		{"nonexistent resources", []string{"", execJob("w0!1", "3-4")}, []string{"EXECUTE_JOB w0!1", "resource 4 does not exist"}},
		{"wrong size", []string{"", execJob("w0!1", "0")}, []string{"EXECUTE_JOB w0!1", "has 1 resources; the job requests 2"}},
		{"before submission", []string{"", execJob("w0!99", "0")}, []string{"EXECUTE_JOB w0!99", "not submitted yet", "100"}},
		{"started twice", []string{"", execJob("w0!1", "0-1") + "," + execJob("w0!1", "2-3")}, []string{"decision 2", "EXECUTE_JOB w0!1", "already running"}},
		{"timestamp after the reply's now", []string{"", `{"timestamp":5,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0-1"}}`}, []string{"decision 1", "EXECUTE_JOB", "timestamp 5 is after the reply's now (0)", "timestamp ≤ now"}},
		{"call in the past", []string{"", `{"timestamp":NOW,"type":"CALL_ME_LATER","data":{"timestamp":-5}}`}, []string{"CALL_ME_LATER", "not after the current time 0", "awaken in the past"}},
		{"call at exactly now", []string{"", `{"timestamp":NOW,"type":"CALL_ME_LATER","data":{"timestamp":0}}`}, []string{"CALL_ME_LATER", "called at 0, which is not after the current time 0"}},
		{"call with another field", []string{"", `{"timestamp":NOW,"type":"CALL_ME_LATER","data":{"timestamp":9,"x":1}}`}, []string{"CALL_ME_LATER", "exactly one field"}},
		{"bad interval set", []string{"", execJob("w0!1", "1-0")}, []string{"alloc \"1-0\"", "not a range"}},
		{"registration off", []string{"", `{"timestamp":NOW,"type":"REGISTER_JOB","data":{}}`}, []string{"REGISTER_JOB", "dynamic job registration is off"}},
		{"not a decision", []string{"", `{"timestamp":NOW,"type":"MIGRATE_JOB","data":{}}`}, []string{"MIGRATE_JOB is not a decision of Batsim's protocol"}},
		{"message to a job", []string{"", `{"timestamp":NOW,"type":"TO_JOB_MSG","data":{"job_id":"w0!1","msg":"x"}}`}, []string{"TO_JOB_MSG is not supported"}},
		{"pstate without power", []string{"", `{"timestamp":NOW,"type":"SET_RESOURCE_STATE","data":{"resources":"0","state":"1"}}`}, []string{"SET_RESOURCE_STATE", "no power model"}},
		{"energy without power", []string{"", `{"timestamp":NOW,"type":"QUERY","data":{"requests":{"consumed_energy":{}}}}`}, []string{"QUERY consumed_energy", "no power model"}},
		{"unknown query", []string{"", `{"timestamp":NOW,"type":"QUERY","data":{"requests":{"air_temperature":{}}}}`}, []string{"QUERY air_temperature", "only the request consumed_energy"}},
		{"unknown answer", []string{"", `{"timestamp":NOW,"type":"ANSWER","data":{"guess":{}}}`}, []string{"ANSWER guess", "only the ANSWER estimate_waiting_time"}},
		{"job state running", []string{"", `{"timestamp":NOW,"type":"CHANGE_JOB_STATE","data":{"job_id":"w0!1","job_state":"RUNNING"}}`}, []string{"CHANGE_JOB_STATE w0!1", "to RUNNING is not supported"}},
		{"job state unknown", []string{"", `{"timestamp":NOW,"type":"CHANGE_JOB_STATE","data":{"job_id":"w0!1","job_state":"DONE"}}`}, []string{"CHANGE_JOB_STATE w0!1", "must be one of"}},
		{"metadata with quotes", []string{"", `{"timestamp":NOW,"type":"SET_JOB_METADATA","data":{"job_id":"w0!1","metadata":"a\"b"}}`}, []string{"SET_JOB_METADATA w0!1", "double quotes"}},
		{"storage mapping", []string{"", `{"timestamp":NOW,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0-1","storage_mapping":{"pfs":2}}}`}, []string{"EXECUTE_JOB w0!1", "storage_mapping", "no storage"}},
		{"notify unknown", []string{"", `{"timestamp":NOW,"type":"NOTIFY","data":{"type":"hello"}}`}, []string{"NOTIFY hello", "registration_finished, continue_registration"}},
		{"unsupported field", []string{"", `{"timestamp":NOW,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0-1","mapping":{}}}`}, []string{"field \"mapping\" is not supported", "one executor each"}},
		{"nothing ever starts", []string{""}, []string{"after message 3: 3 jobs are waiting", "w0!1"}},
		{"kill a waiting job", []string{"", `{"timestamp":NOW,"type":"KILL_JOB","data":{"job_ids":["w0!1"]}}`}, []string{"KILL_JOB w0!1", "neither running nor completed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Simulate(context.Background(), small, 4, script(tc.replies...), Options{Name: "bad"})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if !strings.Contains(err.Error(), "external scheduler bad") {
				t.Errorf("error %q does not name the scheduler", err)
			}
		})
	}
}

// TestRejectKillAndCallMeLater: a rejected job leaves the simulation; a
// killed job ends at the kill and JOB_KILLED follows at once with its
// progress; a requested call comes at its time.
func TestRejectKillAndCallMeLater(t *testing.T) {
	c := script(
		"",
		`{"timestamp":NOW,"type":"REJECT_JOB","data":{"job_id":"w0!2"}},`+execJob("w0!1", "0-1")+`,{"timestamp":NOW,"type":"CALL_ME_LATER","data":{"timestamp":4}}`,
		`{"timestamp":NOW,"type":"KILL_JOB","data":{"job_ids":["w0!1"]}}`, // t=4: the call
		"", // JOB_COMPLETED (killed) and JOB_KILLED
		execJob("w0!99", "0"),
	)
	out, err := Simulate(context.Background(), small, 4, c, Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Rejected[1] || out.NRejected != 1 || out.Killed != 1 {
		t.Fatalf("rejected %v (%d), killed %d", out.Rejected, out.NRejected, out.Killed)
	}
	if pl := out.Result.Placements[0]; pl.Start != 0 || pl.End != 4 {
		t.Errorf("killed job ran %v–%v, want 0–4", pl.Start, pl.End)
	}
	if !strings.Contains(c.sent[2], `"now":4`) || !strings.Contains(c.sent[2], "REQUESTED_CALL") {
		t.Errorf("message 3 should be the requested call at 4: %s", c.sent[2])
	}
	if !strings.Contains(c.sent[3], `"job_progress":{"w0!1":{"profile":"p1","progress":0.4}}`) {
		t.Errorf("message 4 should acknowledge the kill with progress 0.4: %s", c.sent[3])
	}
	if k, d := strings.Index(c.sent[3], "JOB_KILLED"), strings.Index(c.sent[3], `"job_state":"COMPLETED_KILLED"`); d < 0 || d > k {
		t.Errorf("message 4 should hold the killed job's JOB_COMPLETED (COMPLETED_KILLED) before JOB_KILLED, as Batsim's killer sends them: %s", c.sent[3])
	}
	if out.States[0] != "COMPLETED_KILLED" || out.States[1] != "REJECTED" || out.States[2] != "COMPLETED_SUCCESSFULLY" {
		t.Errorf("final states %v", out.States)
	}
}

// TestMalformedRepliesAreErrorsInWords: replies that are not the
// protocol's messages are refused in words, never Go type names.
func TestMalformedRepliesAreErrorsInWords(t *testing.T) {
	for _, tc := range []struct{ reply, want string }{
		{`{"now": 0, "events": [`, "not JSON"},
		{`[1,2]`, "must be a JSON object, got a list"},
		{`{"events": []}`, "no now"},
		{`{"now": "zero", "events": []}`, "must be a number"},
		{`{"now": 0, "events": {}}`, "events must be a list"},
		{`{"now": 0, "events": [{"type": "EXECUTE_JOB"}]}`, "has no timestamp"},
		{`{"now": 0, "events": [{"timestamp": 0, "type": 5}]}`, "type must be a non-empty string"},
		{`{"now": 0, "events": [], "extra": 1}`, `field "extra"`},
	} {
		f := &funcConn{}
		f.reply = func(map[string]any) string { return tc.reply }
		_, err := Simulate(context.Background(), small, 4, f, Options{Name: "bad"})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "reply to message 1") {
			t.Errorf("reply %s: error %v, want one naming message 1 and saying %q", tc.reply, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "json.")) {
			t.Errorf("reply %s: error names Go types: %v", tc.reply, err)
		}
	}
}

func TestParseIntervals(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"0-3 7", "0-3 7", ""},
		{"7 0-3", "0-3 7", ""},
		{" 5 ", "5", ""},
		{"", "", "no resources"},
		{"1-0", "", "not a range"},
		{"a", "", "not a resource id"},
		{"-1", "", "not a resource id"},
		{"0-2 2", "0-2", ""},
		{"1-2 1-3 5 7", "1-3 5 7", ""},
		{"3-3", "3", ""},
		{"1--2", "", "not a range"},
		{"+1", "", "not a resource id"},
		{"1-2-3", "", "not a range"},
		{"0-9999999999", "", "more than"},
	} {
		ids, err := ParseIntervals(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || batch.Intervals(ids) != tc.want {
			t.Errorf("%q: %v %v, want %s", tc.in, ids, err, tc.want)
		}
	}
}
