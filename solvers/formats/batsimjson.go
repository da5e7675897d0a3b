package formats

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/solvers"
)

// Batsim workloads (issue 39): ReadBatsimWorkload reads a Batsim 4.x JSON
// workload (docs/input-workload.rst of oar-team/batsim at v4.2.1) into the
// rigid jobs a batch simulation runs: for each job its id, submission
// time, resources, walltime and a runtime worked out from its profile.
// What is read and how:
//
//   - nb_res (a whole number ≥ 1) is the machine size unless a platform
//     gives its compute hosts (Batsim itself takes the platform's).
//   - jobs: id (Batsim 4: a string; a number is accepted, as older
//     workloads give), subtime (≥ 0 s), res (a whole number ≥ 1), profile
//     (a name in profiles), walltime (optional; absent or -1: none, else
//     > 0 s). Ids must be unique. An id that is a whole number ≥ 0 is the
//     job's number in schedlab's output; when any id is not, every job is
//     numbered 1..n in file order and BatsimWorkload.Renumbered says so
//     (the original id stays in BatsimJob.ID). Any other job field is
//     allowed and ignored, as Batsim forwards it to the scheduler only.
//   - profiles, by type: delay (delay ≥ 0 s: the runtime); parallel (cpu:
//     an array of one flop count per allocated host, its length res; com:
//     res × res bytes, which must all be 0; runtime max(cpu) / speed);
//     parallel_homogeneous (cpu flops on each host, com must be 0; runtime
//     cpu / speed); parallel_homogeneous_total (cpu flops spread over the
//     res hosts, com must be 0; runtime cpu / res / speed); composed (seq:
//     profile names, repeat ≥ 1, default 1; runtime repeat × the sum of
//     seq's, a cycle refused). A profile's ret other than 0 is refused (a
//     failing job needs Batsim's COMPLETED_FAILED, which the batch model
//     does not have).
//   - Refused with an error naming the job and the profile: any other
//     profile type (smpi, usage_trace, parallel_homogeneous_pfs,
//     data_staging, send, recv, ...: they need SimGrid's application or
//     storage models), communication (com > 0: its time depends on
//     SimGrid's network model, which schedlab does not have), and flops
//     with no host speed (give a platform).
//
// A runtime from flops assumes that every host computes at the
// platform's one speed and that nothing else shares it: what SimGrid
// computes for a parallel task without communication on identical hosts.

// BatsimJob is one job of a Batsim workload.
type BatsimJob struct {
	ID       string  // as the workload gives it
	Num      int     // its number in schedlab (the id, or its rank when renumbered)
	Subtime  float64 // s
	Res      int
	Walltime float64 // s; -1: none
	Profile  string
	Runtime  float64 // s, from the profile
}

// BatsimWorkload is a Batsim JSON workload as a batch simulation reads it.
type BatsimWorkload struct {
	NbRes      int
	Jobs       []BatsimJob
	Renumbered bool           // ids were not all whole numbers: Num is the rank
	Types      map[string]int // jobs per profile type, for the preview
}

// BatsimLimits bound what ReadBatsimWorkload accepts.
type BatsimLimits struct {
	MaxJobs int // 0: no limit
}

// batsimProfile is a profile's fields schedlab reads.
type batsimProfile struct {
	Type   string          `json:"type"`
	Delay  *float64        `json:"delay"`
	CPU    json.RawMessage `json:"cpu"`
	Com    json.RawMessage `json:"com"`
	Repeat *float64        `json:"repeat"`
	Seq    []string        `json:"seq"`
	Ret    *float64        `json:"ret"`
}

// batsimJobJSON is a job's fields schedlab reads.
type batsimJobJSON struct {
	ID       json.RawMessage `json:"id"`
	Subtime  *float64        `json:"subtime"`
	Res      *float64        `json:"res"`
	Profile  *string         `json:"profile"`
	Walltime *float64        `json:"walltime"`
}

// LooksLikeBatsimWorkload tells a Batsim workload from other JSON by its
// top-level members: jobs and profiles (and nb_res) are all there.
func LooksLikeBatsimWorkload(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, jobs := top["jobs"]
	_, profiles := top["profiles"]
	_, nb := top["nb_res"]
	return jobs && profiles && nb
}

// ReadBatsimWorkload reads a Batsim JSON workload named name. speed is the
// hosts' speed in flop/s (0: unknown), needed only by profiles given in
// flops. Errors are errs.Invalid naming the file, the job (its rank and
// id) or the profile, and the field.
func ReadBatsimWorkload(ctx context.Context, name string, data []byte, speed float64, lim BatsimLimits) (*BatsimWorkload, error) {
	fail := func(field, format string, args ...any) error {
		return errs.Invalidf(name+": "+field, format, args...)
	}
	var top struct {
		NbRes    *float64                   `json:"nb_res"`
		Jobs     []json.RawMessage          `json:"jobs"`
		Profiles map[string]json.RawMessage `json:"profiles"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fail("json", "not a Batsim workload: %v", jsonWhere(data, err))
	}
	if top.NbRes == nil {
		return nil, fail("nb_res", "missing: a Batsim workload says how many resources it was made for")
	}
	nb, ok := wholeNumber(*top.NbRes)
	if !ok || nb < 1 {
		return nil, fail("nb_res", "must be a whole number ≥ 1, got %v", *top.NbRes)
	}
	if top.Jobs == nil {
		return nil, fail("jobs", "missing: a Batsim workload has an array of jobs")
	}
	if len(top.Jobs) == 0 {
		return nil, fail("jobs", "the workload has no jobs")
	}
	if lim.MaxJobs > 0 && len(top.Jobs) > lim.MaxJobs {
		return nil, errs.New(errs.TooLarge, name+": jobs", "%d jobs, more than the %d a workload holds", len(top.Jobs), lim.MaxJobs)
	}
	if top.Profiles == nil {
		return nil, fail("profiles", "missing: a Batsim workload has an object of profiles")
	}
	if err := solvers.Reserve(ctx, name, solvers.SatMul(int64(len(top.Jobs)), 160), "the workload's jobs"); err != nil {
		return nil, err
	}
	p := &profileReader{name: name, raw: top.Profiles, speed: speed, runtime: map[string]float64{}, kind: map[string]string{}, busy: map[string]bool{}}
	w := &BatsimWorkload{NbRes: nb, Jobs: make([]BatsimJob, 0, len(top.Jobs)), Types: map[string]int{}}
	seen := make(map[string]int, len(top.Jobs))
	numeric := true
	for i, raw := range top.Jobs {
		var j batsimJobJSON
		where := fmt.Sprintf("jobs[%d]", i)
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fail(where, "%v", jsonWhere(raw, err))
		}
		id, err := batsimID(j.ID)
		if err != nil {
			return nil, fail(where+".id", "%v", err)
		}
		where = fmt.Sprintf("jobs[%d] (id %q)", i, id)
		if k, dup := seen[id]; dup {
			return nil, fail(where+".id", "the id of jobs[%d] too: ids must be unique", k)
		}
		seen[id] = i
		if j.Subtime == nil {
			return nil, fail(where+".subtime", "missing: the submission time in seconds")
		}
		if *j.Subtime < 0 {
			return nil, fail(where+".subtime", "must be ≥ 0, got %v", *j.Subtime)
		}
		if j.Res == nil {
			return nil, fail(where+".res", "missing: the number of resources the job requests")
		}
		res, ok := wholeNumber(*j.Res)
		if !ok || res < 1 {
			return nil, fail(where+".res", "must be a whole number ≥ 1, got %v", *j.Res)
		}
		wall := -1.0
		if j.Walltime != nil && *j.Walltime != -1 {
			if *j.Walltime <= 0 {
				return nil, fail(where+".walltime", "must be > 0 s, or -1 for none, got %v", *j.Walltime)
			}
			wall = *j.Walltime
		}
		if j.Profile == nil {
			return nil, fail(where+".profile", "missing: the name of the job's profile")
		}
		run, err := p.runtimeOf(*j.Profile, res)
		if err != nil {
			return nil, fail(where+".profile", "%v", err)
		}
		n, err := strconv.Atoi(id)
		if err != nil || n < 0 {
			numeric = false
		}
		w.Jobs = append(w.Jobs, BatsimJob{ID: id, Num: n, Subtime: *j.Subtime, Res: res, Walltime: wall, Profile: *j.Profile, Runtime: run})
		w.Types[p.kind[*j.Profile]]++
	}
	if !numeric {
		w.Renumbered = true
		for i := range w.Jobs {
			w.Jobs[i].Num = i + 1
		}
	}
	return w, nil
}

func wholeNumber(x float64) (int, bool) {
	if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return 0, false
	}
	return int(x), true
}

// batsimID reads a job id: a string, or a number as older workloads give.
func batsimID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", fmt.Errorf("missing: every job has an id")
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		if s == "" {
			return "", fmt.Errorf("empty")
		}
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", fmt.Errorf("must be a string or a number, got %.40s", raw)
	}
	return n.String(), nil
}

// jsonWhere adds the line of a JSON syntax error.
func jsonWhere(data []byte, err error) error {
	if se, ok := err.(*json.SyntaxError); ok {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Errorf("line %d: %v", line, err)
	}
	return err
}

// profileReader works out profiles' runtimes, each once.
type profileReader struct {
	name    string
	raw     map[string]json.RawMessage
	speed   float64
	runtime map[string]float64 // by profile name (and res for those that depend on it)
	kind    map[string]string
	busy    map[string]bool // profiles being worked out: a composed cycle
}

func (p *profileReader) runtimeOf(name string, res int) (float64, error) {
	key := name + "\x00" + strconv.Itoa(res)
	if r, ok := p.runtime[key]; ok {
		return r, nil
	}
	raw, ok := p.raw[name]
	if !ok {
		return 0, fmt.Errorf("no profile %q in profiles", name)
	}
	if p.busy[name] {
		return 0, fmt.Errorf("profile %q is composed of itself", name)
	}
	p.busy[name] = true
	defer delete(p.busy, name)
	var pr batsimProfile
	if err := json.Unmarshal(raw, &pr); err != nil {
		return 0, fmt.Errorf("profile %q: %v", name, jsonWhere(raw, err))
	}
	p.kind[name] = pr.Type
	r, err := p.compute(name, &pr, res)
	if err != nil {
		return 0, fmt.Errorf("profile %q (%s): %v", name, pr.Type, err)
	}
	if math.IsInf(r, 0) || math.IsNaN(r) || r > 1e15 {
		return 0, fmt.Errorf("profile %q (%s): runtime %v s is out of range", name, pr.Type, r)
	}
	p.runtime[key] = r
	return r, nil
}

func (p *profileReader) compute(name string, pr *batsimProfile, res int) (float64, error) {
	if pr.Ret != nil && *pr.Ret != 0 {
		return 0, fmt.Errorf("ret %v: a job that fails (Batsim's COMPLETED_FAILED) is not modelled", *pr.Ret)
	}
	switch pr.Type {
	case "":
		return 0, fmt.Errorf("no type")
	case "delay":
		if pr.Delay == nil {
			return 0, fmt.Errorf("delay: missing (seconds)")
		}
		if *pr.Delay < 0 {
			return 0, fmt.Errorf("delay: must be ≥ 0 s, got %v", *pr.Delay)
		}
		return *pr.Delay, nil
	case "parallel":
		cpu, err := numbers(pr.CPU, "cpu", res, res)
		if err != nil {
			return 0, err
		}
		if err := noCom(pr.Com, res); err != nil {
			return 0, err
		}
		return p.seconds(max(0, slices.Max(cpu)))
	case "parallel_homogeneous", "parallel_homogeneous_total":
		cpu, err := numbers(pr.CPU, "cpu", 0, res)
		if err != nil {
			return 0, err
		}
		if err := noCom(pr.Com, 0); err != nil {
			return 0, err
		}
		if pr.Type == "parallel_homogeneous_total" {
			return p.seconds(cpu[0] / float64(res))
		}
		return p.seconds(cpu[0])
	case "composed":
		repeat := 1.0
		if pr.Repeat != nil {
			if r, ok := wholeNumber(*pr.Repeat); !ok || r < 1 {
				return 0, fmt.Errorf("repeat: must be a whole number ≥ 1, got %v", *pr.Repeat)
			}
			repeat = *pr.Repeat
		}
		if len(pr.Seq) == 0 {
			return 0, fmt.Errorf("seq: missing or empty (the profiles to run in turn)")
		}
		sum := 0.0
		for _, s := range pr.Seq {
			r, err := p.runtimeOf(s, res)
			if err != nil {
				return 0, fmt.Errorf("seq: %v", err)
			}
			sum += r
		}
		return repeat * sum, nil
	}
	return 0, fmt.Errorf("profile type %q is not supported: schedlab runs delay, parallel, parallel_homogeneous, parallel_homogeneous_total and composed profiles; the others need SimGrid's application, network or storage models", pr.Type)
}

func (p *profileReader) seconds(flops float64) (float64, error) {
	if flops == 0 {
		return 0, nil
	}
	if p.speed <= 0 {
		return 0, fmt.Errorf("cpu is %g flops: its runtime needs the hosts' speed; upload the SimGrid platform (field platform) beside the workload", flops)
	}
	return flops / p.speed, nil
}

// numbers reads cpu or com: a number, or an array of n numbers (n 0: a
// single number wanted) for a job on hosts hosts, each finite and ≥ 0.
func numbers(raw json.RawMessage, field string, n, hosts int) ([]float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("%s: missing", field)
	}
	var out []float64
	if n == 0 {
		var x float64
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, fmt.Errorf("%s: must be a number of flops", field)
		}
		out = []float64{x}
	} else {
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, fmt.Errorf("%s: must be an array of numbers", field)
		}
		if len(out) != n {
			return nil, fmt.Errorf("%s: %d values, want %d for a job on %d hosts", field, len(out), n, hosts)
		}
	}
	for _, x := range out {
		if x < 0 {
			return nil, fmt.Errorf("%s: %v is negative", field, x)
		}
	}
	return out, nil
}

// noCom checks that a profile communicates nothing (com absent or 0):
// a number, or (hosts > 0) an array of hosts × hosts numbers.
func noCom(raw json.RawMessage, hosts int) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var vals []float64
	if raw[0] == '[' {
		if hosts == 0 {
			return fmt.Errorf("com: must be a number of bytes")
		}
		var err error
		if vals, err = numbers(raw, "com", hosts*hosts, hosts); err != nil {
			return err
		}
	} else {
		var x float64
		if err := json.Unmarshal(raw, &x); err != nil {
			return fmt.Errorf("com: must be a number of bytes")
		}
		vals = []float64{x}
	}
	for _, v := range vals {
		if v != 0 {
			return fmt.Errorf("com is %g bytes: communication time depends on SimGrid's network model, which schedlab does not have (only com 0 is read)", v)
		}
	}
	return nil
}

// ProfileTypes lists a workload's profile types with their job counts, for
// a note: "delay 10, parallel_homogeneous 2".
func (w *BatsimWorkload) ProfileTypes() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(w.Types)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, w.Types[k]))
	}
	return strings.Join(parts, ", ")
}
