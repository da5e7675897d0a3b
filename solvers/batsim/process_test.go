package batsim

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"schedlab/solvers/batsim/batsimtest"
)

// fakeRun simulates small with the fake decision process in mode (a real
// process over ZeroMQ), misbehaving at message 3.
func fakeRun(t *testing.T, mode string, at int, timeout time.Duration, env ...string) (*Outcome, error) {
	t.Helper()
	s := Scheduler{Name: mode, Command: batsimtest.Command(mode, at, env...), Timeout: timeout, MaxReply: batsimtest.HugeBytes / 2}
	c, err := s.Open(context.Background())
	if err != nil {
		t.Fatalf("starting the fake: %v", err)
	}
	defer c.Close()
	return Simulate(context.Background(), small, 4, c, Options{Name: mode, Timeout: timeout})
}

// TestFakeProcessSchedulesFCFS: the fake behaving is a correct decision
// process, so the failures below are its misbehaviour's.
func TestFakeProcessSchedulesFCFS(t *testing.T) {
	out, err := fakeRun(t, batsimtest.FCFS, 3, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Result.Placements[1].Start; got != 10 {
		t.Errorf("job 2 starts at %v, want 10 (after job 1, FCFS)", got)
	}
}

// TestBadDecisionProcessesFailTheirRun: a decision process that decides
// wrong, answers garbage, falls silent or crashes mid-run fails the run
// with an error naming the message (and the decision). Only the silent one
// needs the reply timeout, and it is silent from the first message: no
// case depends on how fast a loaded machine answers (a started process is
// waited for until it listens, whatever the reply timeout).
func TestBadDecisionProcessesFailTheirRun(t *testing.T) {
	for _, tc := range []struct {
		mode string
		at   int
		want []string
	}{
		{batsimtest.WrongJob, 3, []string{"decision 1 of the reply to message 3", "EXECUTE_JOB w0!999999", "no job"}},
		{batsimtest.Busy, 2, []string{"decision 2 of the reply to message 2", "EXECUTE_JOB w0!2", "resource 0 is busy with job w0!1"}},
		{batsimtest.Early, 3, []string{"reply to message 3", "EXECUTE_JOB w0!99", "not submitted yet"}},
		{batsimtest.Twice, 3, []string{"reply to message 3", "decision 2", "EXECUTE_JOB w0!2", "already running"}},
		{batsimtest.Backwards, 3, []string{"reply to message 3", "time cannot go backwards"}},
		{batsimtest.Unknown, 3, []string{"reply to message 3", "MIGRATE_JOB is not a decision of Batsim's protocol"}},
		{batsimtest.Malformed, 3, []string{"reply to message 3 (t=10: JOB_COMPLETED w0!1)", "not JSON"}},
		{batsimtest.Silent, 1, []string{"no reply to message 1 (t=0: SIMULATION_BEGINS) within 300ms"}},
		{batsimtest.Huge, 3, []string{"reply to message 3", "schedlab accepts at most 1048576 bytes"}},
		{batsimtest.Crash, 3, []string{"no reply to message 3", "exit status 3", "crashing on purpose"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			timeout := time.Minute
			if tc.mode == batsimtest.Silent {
				timeout = 300 * time.Millisecond
			}
			_, err := fakeRun(t, tc.mode, tc.at, timeout)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestSchedulerRegistrations: --scheduler's forms and its refusals.
func TestSchedulerRegistrations(t *testing.T) {
	s, err := ParseScheduler("easy=python3 sched.py --policy easy {endpoint}")
	if err != nil || s.Name != "easy" || len(s.Command) != 5 || s.Variant() != "external:easy" {
		t.Fatalf("%+v %v", s, err)
	}
	if s, err := ParseScheduler("mine=tcp://10.0.0.5:28000"); err != nil || s.Endpoint != "tcp://10.0.0.5:28000" {
		t.Fatalf("%+v %v", s, err)
	}
	for spec, want := range map[string]string{
		"easy":                      "want NAME=COMMAND",
		"Easy=python3 x {endpoint}": "lower-case",
		"easy=python3 sched.py":     "{endpoint}",
		"easy=tcp://nohost":         "tcp://host:port",
	} {
		if _, err := ParseScheduler(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", spec, err, want)
		}
	}
	if err := CheckUnique([]Scheduler{{Name: "a"}, {Name: "a"}}); err == nil {
		t.Error("a name registered twice is accepted")
	}
}

// TestDecisionProcessGroupEnds: what a decision process started (here a
// child that never ends) is killed with it when its run fails.
func TestDecisionProcessGroupEnds(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	_, err := fakeRun(t, batsimtest.Spawn, 3, time.Minute, batsimtest.PIDFile+"="+pidFile)
	if err == nil || !strings.Contains(err.Error(), "crashing on purpose") {
		t.Fatalf("error %v, want the crash", err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	// The kill is sent before Simulate returns; wait until the kernel has
	// ended the child (gone, or a zombie waiting for init).
	deadline := time.Now().Add(time.Minute)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the decision process's child %d still runs after its run failed", pid)
		}
		runtime.Gosched()
	}
}

// alive says process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
