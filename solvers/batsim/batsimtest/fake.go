// Package batsimtest is a fake decision process for tests: a Go ZeroMQ REP
// side that schedules FCFS (the queue head while it fits, lowest free
// processor ids) and can misbehave on purpose at a chosen message. A test
// binary becomes one when started with the environment variables of Env
// (call Main from TestMain), so tests start it as a command like any
// registered scheduler, with no file outside the repository.
package batsimtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-zeromq/zmq4"

	"schedlab/solvers/batch"
)

// Modes of the fake.
const (
	FCFS      = "fcfs"      // behaves
	Echo      = "echo"      // answers every message with no events
	WrongJob  = "wrong-job" // starts a job that does not exist
	Busy      = "busy"      // starts a job on a processor in use
	Early     = "early"     // starts job 99, which tests submit late
	Twice     = "twice"     // starts a running job again
	Malformed = "malformed" // answers with broken JSON
	Silent    = "silent"    // stops answering
	Crash     = "crash"     // exits with status 3
	Backwards = "backwards" // answers with a time before the message's
	Unknown   = "unknown"   // sends a decision type Batsim does not have
	Huge      = "huge"      // answers with a reply of HugeBytes bytes
	Reject    = "reject"    // FCFS that rejects every job whose number is a multiple of 7 and, from message at, kills the last started job once
	Spawn     = "spawn"     // starts a child that never ends (its pid in PIDFile), then crashes
	sleeper   = "sleeper"   // the child: blocks until killed
)

// HugeBytes is the size of Huge's reply.
const HugeBytes = 2 << 20

// PIDFile is the environment variable naming the file Spawn writes its
// child's pid to.
const PIDFile = "SCHEDLAB_BATSIMTEST_PIDFILE"

// modeVar and atVar select the mode and the message (1-based; 0: 3) at
// which a misbehaving mode misbehaves.
const (
	modeVar = "SCHEDLAB_BATSIMTEST_MODE"
	atVar   = "SCHEDLAB_BATSIMTEST_AT"
)

// Command is the argv that starts the test binary as the fake in mode,
// misbehaving at message at: give it to batsim.Scheduler (the process
// reads the endpoint from its last argument).
func Command(mode string, at int, env ...string) []string {
	argv := append([]string{"/usr/bin/env", modeVar + "=" + mode, atVar + "=" + strconv.Itoa(at)}, env...)
	return append(argv, os.Args[0], "-test.run=^$", "{endpoint}")
}

// Main runs the fake and exits when the environment asks for it; else it
// returns at once. Call it first in TestMain.
func Main() {
	mode := os.Getenv(modeVar)
	if mode == "" {
		return
	}
	if mode == sleeper {
		select {} // until the group is killed
	}
	if mode == Spawn {
		child := exec.Command(os.Args[0], "-test.run=^$")
		child.Env = append(os.Environ(), modeVar+"="+sleeper)
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "batsimtest:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(os.Getenv(PIDFile), []byte(strconv.Itoa(child.Process.Pid)), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "batsimtest:", err)
			os.Exit(1)
		}
		mode = Crash
	}
	at, _ := strconv.Atoi(os.Getenv(atVar))
	if at <= 0 {
		at = 3
	}
	if err := Serve(context.Background(), os.Args[len(os.Args)-1], mode, at); err != nil {
		fmt.Fprintln(os.Stderr, "batsimtest:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Serve answers on endpoint until SIMULATION_ENDS.
func Serve(ctx context.Context, endpoint, mode string, at int) error {
	sock := zmq4.NewRep(ctx)
	defer sock.Close()
	if err := sock.Listen(endpoint); err != nil {
		return err
	}
	f := &fake{mode: mode, at: at}
	for {
		m, err := sock.Recv()
		if err != nil {
			return err
		}
		f.n++
		reply, end := f.answer(m.Frames[0])
		if reply == nil {
			select {} // silent: never answer
		}
		if err := sock.Send(zmq4.NewMsg(reply)); err != nil {
			return err
		}
		if end {
			time.Sleep(50 * time.Millisecond) // let the reply leave
			return nil
		}
	}
}

type job struct {
	id  string
	res int
}

type fake struct {
	mode    string
	at, n   int
	p       int
	free    []int
	queue   []job
	running map[string][]int
	last    string // the last job started
	killed  bool   // Reject killed its job
}

type msg struct {
	Now    float64 `json:"now"`
	Events []struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	} `json:"events"`
}

type out struct {
	Timestamp float64 `json:"timestamp"`
	Type      string  `json:"type"`
	Data      any     `json:"data"`
}

// answer is the reply to one message (nil: say nothing) and whether the
// simulation ends.
func (f *fake) answer(b []byte) ([]byte, bool) {
	var m msg
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	end := false
	var rejected []string
	for _, ev := range m.Events {
		var d struct {
			JobID string `json:"job_id"`
			Job   struct {
				Res int `json:"res"`
			} `json:"job"`
			NbComputeResources int `json:"nb_compute_resources"`
		}
		json.Unmarshal(ev.Data, &d)
		switch ev.Type {
		case "SIMULATION_BEGINS":
			f.p = d.NbComputeResources
			f.running = map[string][]int{}
			for c := range f.p {
				f.free = append(f.free, c)
			}
		case "JOB_SUBMITTED":
			if n, _ := strconv.Atoi(strings.TrimPrefix(d.JobID, "w0!")); f.mode == Reject && n%7 == 0 {
				rejected = append(rejected, d.JobID)
				continue
			}
			f.queue = append(f.queue, job{d.JobID, d.Job.Res})
		case "JOB_COMPLETED":
			f.free = append(f.free, f.running[d.JobID]...)
			sort.Ints(f.free)
			delete(f.running, d.JobID)
		case "SIMULATION_ENDS":
			end = true
		}
	}
	var evs []out
	exec := func(id string, procs []int) {
		evs = append(evs, out{m.Now, "EXECUTE_JOB", map[string]string{"job_id": id, "alloc": batch.Intervals(procs)}})
	}
	now := m.Now
	for _, id := range rejected {
		evs = append(evs, out{m.Now, "REJECT_JOB", map[string]string{"job_id": id}})
	}
	if f.mode == Reject && f.n >= f.at && !f.killed && !end && f.running[f.last] != nil {
		evs = append(evs, out{m.Now, "KILL_JOB", map[string][]string{"job_ids": {f.last}}})
		f.killed = true
	}
	if f.n == f.at && !end {
		switch f.mode {
		case Malformed:
			return []byte(`{"now": 12, "events": [`), false
		case Huge:
			return []byte(`{"now": 12, "events": [], "pad": "` + strings.Repeat("x", HugeBytes) + `"}`), false
		case Silent:
			return nil, false
		case Crash:
			fmt.Fprintln(os.Stderr, "batsimtest: crashing on purpose")
			os.Exit(3)
		case Backwards:
			now -= 1
		case WrongJob:
			exec("w0!999999", []int{0})
		case Unknown:
			evs = append(evs, out{m.Now, "MIGRATE_JOB", map[string]string{"job_id": "w0!1"}})
		}
	}
	if f.mode != Echo && !end {
		for len(f.queue) > 0 && len(f.free) >= f.queue[0].res {
			j := f.queue[0]
			f.queue = f.queue[1:]
			procs := append([]int(nil), f.free[:j.res]...)
			f.free = f.free[j.res:]
			f.running[j.id] = procs
			exec(j.id, procs)
			f.last = j.id
		}
	}
	if f.n >= f.at && !end && f.last != "" {
		switch f.mode {
		case Busy:
			if procs := f.running[f.last]; procs != nil && len(f.queue) > 0 {
				exec(f.queue[0].id, procs) // on the last started job's processors
			}
		case Early:
			exec("w0!99", []int{0}) // tests give job 99 a late submission
		case Twice:
			if procs := f.running[f.last]; procs != nil {
				exec(f.last, procs)
			}
		}
	}
	r, _ := json.Marshal(map[string]any{"now": now, "events": append([]out{}, evs...)})
	return r, end
}
