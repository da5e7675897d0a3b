package batch

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"schedlab/errs"
)

// at is a hand-worked expectation: start and end of each job.
type at [][2]float64

func check(t *testing.T, name string, jobs []Job, p int, pol Policy, want at) {
	t.Helper()
	r, err := Simulate(context.Background(), jobs, p, pol, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for i, w := range want {
		pl := r.Placements[i]
		if pl.Start != w[0] || pl.End != w[1] {
			t.Errorf("%s %s: job %d ran %v–%v, want %v–%v", name, pol, jobs[i].ID, pl.Start, pl.End, w[0], w[1])
		}
	}
	verify(t, name+" "+string(pol), jobs, r)
}

// fourJobs: on 4 processors the head (J2) leaves one processor spare at its
// shadow time, which EASY gives to the long J4, delaying J3; conservative
// protects J3 too.
var fourJobs = []Job{
	{ID: 1, Submit: 0, Size: 3, Estimate: 10, Run: 10},
	{ID: 2, Submit: 0, Size: 3, Estimate: 10, Run: 10},
	{ID: 3, Submit: 0, Size: 4, Estimate: 10, Run: 10},
	{ID: 4, Submit: 1, Size: 1, Estimate: 30, Run: 30},
}

func TestPoliciesOnHandWorkedTrace(t *testing.T) {
	check(t, "four jobs", fourJobs, 4, FCFS, at{{0, 10}, {10, 20}, {20, 30}, {30, 60}})
	check(t, "four jobs", fourJobs, 4, EASY, at{{0, 10}, {10, 20}, {31, 41}, {1, 31}})
	check(t, "four jobs", fourJobs, 4, Conservative, at{{0, 10}, {10, 20}, {20, 30}, {30, 60}})
}

func TestEarlyEndCompressesConservativeAndStartsEASYHead(t *testing.T) {
	jobs := append([]Job(nil), fourJobs...)
	jobs[0].Run = 5 // J1 ends at 5 instead of its estimated 10
	// Conservative: J2 moves 10 → 5, J3 20 → 15, J4 30 → 25.
	check(t, "early end", jobs, 4, Conservative, at{{0, 5}, {5, 15}, {15, 25}, {25, 55}})
	// EASY: J4 was backfilled at 1 on the spare processor; J2 starts as
	// soon as J1 ends; J3 waits for J4's estimated end.
	check(t, "early end", jobs, 4, EASY, at{{0, 5}, {5, 15}, {31, 41}, {1, 31}})
	// FCFS: everything in order, as early as the head allows.
	check(t, "early end", jobs, 4, FCFS, at{{0, 5}, {5, 15}, {15, 25}, {25, 55}})
}

func TestEASYBackfillsShortJobBeforeShadowTime(t *testing.T) {
	// P = 4. J1 holds 2 processors until 10; the head J2 needs all 4
	// (shadow 10, nothing spare); J3 (2 procs, 8 s) ends by 9 and
	// backfills at 1; J4 (1 proc, 20 s) would outlast the shadow time and
	// waits until J2 is done.
	jobs := []Job{
		{ID: 1, Submit: 0, Size: 2, Estimate: 10, Run: 10},
		{ID: 2, Submit: 0, Size: 4, Estimate: 5, Run: 5},
		{ID: 3, Submit: 1, Size: 2, Estimate: 8, Run: 8},
		{ID: 4, Submit: 2, Size: 1, Estimate: 20, Run: 20},
	}
	check(t, "shadow", jobs, 4, EASY, at{{0, 10}, {10, 15}, {1, 9}, {15, 35}})
	check(t, "shadow", jobs, 4, Conservative, at{{0, 10}, {10, 15}, {1, 9}, {15, 35}})
	check(t, "shadow", jobs, 4, FCFS, at{{0, 10}, {10, 15}, {15, 23}, {15, 35}})
}

func TestRuntimeOverEstimateIsCut(t *testing.T) {
	jobs := []Job{{ID: 7, Submit: 3, Size: 1, Estimate: 10, Run: 25}}
	r, err := Simulate(context.Background(), jobs, 2, EASY, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pl := r.Placements[0]; pl.Start != 3 || pl.End != 13 || r.Capped != 1 {
		t.Errorf("ran %v–%v, capped %d; want 3–13 and 1 capped", pl.Start, pl.End, r.Capped)
	}
}

// verify replays a schedule: no job before its submission, each job runs
// min(run, estimate) on Size distinct processors, no processor holds two
// jobs at once, and no job starts after a reservation it was given (under
// FCFS, nobody overtakes an earlier job).
func verify(t *testing.T, name string, jobs []Job, r *Result) {
	t.Helper()
	type ev struct {
		t     float64
		delta int
	}
	var evs []ev
	owner := map[int][][3]float64{} // processor → intervals (start, end, job)
	for i, j := range jobs {
		pl := r.Placements[i]
		if pl.Start < j.Submit {
			t.Fatalf("%s: job %d starts at %v before its submission %v", name, j.ID, pl.Start, j.Submit)
		}
		if d := pl.End - pl.Start; math.Abs(d-j.Duration()) > 1e-9 {
			t.Fatalf("%s: job %d runs %v, want %v", name, j.ID, d, j.Duration())
		}
		if len(pl.Procs) != j.Size || !sort.IntsAreSorted(pl.Procs) {
			t.Fatalf("%s: job %d holds processors %v, want %d ascending", name, j.ID, pl.Procs, j.Size)
		}
		for k, c := range pl.Procs {
			if c < 0 || c >= r.P || (k > 0 && pl.Procs[k-1] == c) {
				t.Fatalf("%s: job %d holds bad processor list %v", name, j.ID, pl.Procs)
			}
			owner[c] = append(owner[c], [3]float64{pl.Start, pl.End, float64(i)})
		}
		evs = append(evs, ev{pl.Start, j.Size}, ev{pl.End, -j.Size})
	}
	sort.Slice(evs, func(a, b int) bool {
		if evs[a].t != evs[b].t {
			return evs[a].t < evs[b].t
		}
		return evs[a].delta < evs[b].delta // ends before starts at the same time
	})
	used := 0
	for _, e := range evs {
		used += e.delta
		if used > r.P {
			t.Fatalf("%s: %d processors in use at %v on a machine of %d", name, used, e.t, r.P)
		}
	}
	for c, ivs := range owner {
		sort.Slice(ivs, func(a, b int) bool { return ivs[a][0] < ivs[b][0] })
		for k := 1; k < len(ivs); k++ {
			if ivs[k][0] < ivs[k-1][1] {
				t.Fatalf("%s: processor %d runs jobs %v and %v at once", name, c, ivs[k-1][2], ivs[k][2])
			}
		}
	}
	for _, rv := range r.Reservations {
		if s := r.Placements[rv.Job].Start; s > rv.Start {
			t.Fatalf("%s: job %d promised %v at %v started later, at %v", name, jobs[rv.Job].ID, rv.Start, rv.Made, s)
		}
	}
	if r.Policy == FCFS {
		idx := make([]int, len(jobs))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return jobs[idx[a]].Submit < jobs[idx[b]].Submit })
		for k := 1; k < len(idx); k++ {
			if r.Placements[idx[k]].Start < r.Placements[idx[k-1]].Start {
				t.Fatalf("%s: FCFS job %d overtook job %d", name, jobs[idx[k]].ID, jobs[idx[k-1]].ID)
			}
		}
	}
}

// randomTrace draws n jobs on p processors with estimates above the real
// runtime (by up to 5×), in bursts so that queues form.
func randomTrace(rng *rand.Rand, n, p int) []Job {
	jobs := make([]Job, n)
	t := 0.0
	for i := range jobs {
		if rng.Intn(3) == 0 {
			t += float64(rng.Intn(20))
		}
		run := float64(1 + rng.Intn(50))
		est := run
		if rng.Intn(2) == 0 {
			est = run * (1 + 4*rng.Float64())
		}
		if rng.Intn(10) == 0 {
			run = est * 1.5 // overruns its estimate: cut
		}
		jobs[i] = Job{ID: i + 1, Submit: t, Size: 1 + rng.Intn(p), Estimate: est, Run: run}
	}
	return jobs
}

func TestSchedulesReplayCleanOnRandomTraces(t *testing.T) {
	for seed := int64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		p := 1 + rng.Intn(16)
		jobs := randomTrace(rng, 5+rng.Intn(60), p)
		for _, pol := range Policies() {
			r, err := Simulate(context.Background(), jobs, p, pol, nil)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, pol, err)
			}
			verify(t, fmt.Sprintf("seed %d %s", seed, pol), jobs, r)
		}
	}
}

func TestBackfillingNeverWaitsLongerThanFCFSForTheFirstBlockedJob(t *testing.T) {
	// The queue head at any moment is protected by both EASY and
	// conservative, so the first job that FCFS makes wait starts no later
	// under them than under FCFS when estimates are exact.
	for seed := int64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		p := 2 + rng.Intn(8)
		jobs := randomTrace(rng, 30, p)
		for i := range jobs {
			jobs[i].Run = jobs[i].Estimate
		}
		f, _ := Simulate(context.Background(), jobs, p, FCFS, nil)
		first := -1
		for i, j := range jobs {
			if f.Placements[i].Start > j.Submit {
				first = i
				break
			}
		}
		if first < 0 {
			continue
		}
		for _, pol := range []Policy{EASY, Conservative} {
			r, _ := Simulate(context.Background(), jobs, p, pol, nil)
			if r.Placements[first].Start > f.Placements[first].Start {
				t.Errorf("seed %d %s: job %d starts %v, FCFS %v", seed, pol, jobs[first].ID, r.Placements[first].Start, f.Placements[first].Start)
			}
		}
	}
}

func TestSimulateRejectsBadJobs(t *testing.T) {
	good := Job{ID: 1, Submit: 0, Size: 1, Estimate: 5, Run: 5}
	cases := []struct {
		name  string
		job   Job
		p     int
		pol   Policy
		field string
	}{
		{"size over P", Job{ID: 1, Size: 9, Estimate: 5, Run: 5}, 8, EASY, "jobs[0].size"},
		{"zero size", Job{ID: 1, Size: 0, Estimate: 5, Run: 5}, 8, EASY, "jobs[0].size"},
		{"no estimate", Job{ID: 1, Size: 1, Estimate: 0, Run: 5}, 8, EASY, "jobs[0].estimate"},
		{"negative run", Job{ID: 1, Size: 1, Estimate: 5, Run: -1}, 8, EASY, "jobs[0].run"},
		{"NaN submit", Job{ID: 1, Submit: math.NaN(), Size: 1, Estimate: 5, Run: 5}, 8, EASY, "jobs[0].submit"},
		{"no processors", good, 0, EASY, "processors"},
		{"unknown policy", good, 4, "sjf", "policy"},
	}
	for _, c := range cases {
		_, err := Simulate(context.Background(), []Job{c.job}, c.p, c.pol, nil)
		if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != c.field {
			t.Errorf("%s: %v (field %q), want Invalid on %q", c.name, err, errs.FieldOf(err), c.field)
		}
	}
	if _, err := Simulate(context.Background(), nil, 4, EASY, nil); errs.FieldOf(err) != "jobs" {
		t.Errorf("no jobs: %v", err)
	}
}

func TestSimulateHonoursCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	jobs := randomTrace(rand.New(rand.NewSource(1)), 2000, 8)
	if _, err := Simulate(ctx, jobs, 8, EASY, nil); err != context.Canceled {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestSummaryByHand(t *testing.T) {
	// EASY on fourJobs: waits 0, 10, 31, 0; runs 10, 10, 10, 30.
	r, _ := Simulate(context.Background(), fourJobs, 4, EASY, nil)
	s := Summarize(fourJobs, r)
	if s.Jobs != 4 || s.WaitMean != 41.0/4 || s.WaitP95 != 31 || s.Makespan != 41 {
		t.Errorf("summary %+v", s)
	}
	// bsld: max(1, (w+r)/max(r,10)) = 1, 2, 4.1, 1 → mean 2.025.
	if math.Abs(s.BSLDMean-2.025) > 1e-12 {
		t.Errorf("bsld %v, want 2.025", s.BSLDMean)
	}
	// work 3·10 + 3·10 + 4·10 + 1·30 = 130 over 4 × 41.
	if math.Abs(s.Utilization-130.0/164) > 1e-12 {
		t.Errorf("utilization %v, want %v", s.Utilization, 130.0/164)
	}
}

func TestBatsimCSV(t *testing.T) {
	r, _ := Simulate(context.Background(), fourJobs, 4, EASY, nil)
	var b strings.Builder
	if err := WriteBatsimCSV(&b, fourJobs, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != strings.Join(BatsimColumns(), ",") || len(lines) != 5 {
		t.Fatalf("csv:\n%s", b.String())
	}
	// J3: submitted 0, 4 procs, requested 10, ran 31–41 on all four.
	if want := "3,0,4,10,31,10,41,31,41,4.1,0-3"; lines[3] != want {
		t.Errorf("J3 line %q, want %q", lines[3], want)
	}
	for _, c := range []struct {
		ids  []int
		want string
	}{{[]int{0, 1, 2, 3, 7, 9, 10}, "0-3 7 9-10"}, {[]int{5}, "5"}, {nil, ""}} {
		if got := Intervals(c.ids); got != c.want {
			t.Errorf("Intervals(%v) = %q, want %q", c.ids, got, c.want)
		}
	}
}

func TestConservativeCompressesAfterOnTimeEnd(t *testing.T) {
	// P = 2. J1 ends early at 50: J4 moves ahead to 50 (ending on time at
	// 93), J3 had been compressed to 94 behind J4's old place; the
	// on-time end at 93 must pull J3 to 93, not leave a hole until 94.
	jobs := []Job{
		{ID: 1, Submit: 0, Size: 1, Estimate: 98, Run: 50},
		{ID: 2, Submit: 18, Size: 1, Estimate: 33, Run: 33},
		{ID: 3, Submit: 18, Size: 2, Estimate: 54, Run: 16},
		{ID: 4, Submit: 18, Size: 1, Estimate: 43, Run: 43},
		{ID: 5, Submit: 18, Size: 2, Estimate: 110, Run: 38},
	}
	check(t, "on-time end", jobs, 2, Conservative, at{{0, 50}, {18, 51}, {93, 109}, {50, 93}, {109, 147}})
}
