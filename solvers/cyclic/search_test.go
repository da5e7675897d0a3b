package cyclic

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// handDomain: 3 nodes over [0, 20).
//
//	n0 p=2 c=2: busy [0,4)          free [4,20)
//	n1 p=4 c=3: busy [6,10)         free [0,6) [10,20)
//	n2 p=1 c=1: free [0,20)
func handDomain() *Domain {
	d := NewDomain(20, []float64{2, 4, 1}, []float64{2, 3, 1})
	must(d.Occupy(0, Interval{0, 4}))
	must(d.Occupy(1, Interval{6, 10}))
	return d
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func TestDomainFreeOccupyRelease(t *testing.T) {
	d := handDomain()
	if got := d.Free(1); len(got) != 2 || got[0] != (Interval{0, 6}) || got[1] != (Interval{10, 20}) {
		t.Fatalf("free n1 = %v", got)
	}
	if d.IsFree(1, Interval{5, 7}) || !d.IsFree(1, Interval{10, 12}) || d.IsFree(2, Interval{19, 21}) {
		t.Error("IsFree wrong")
	}
	if err := d.Occupy(1, Interval{5, 7}); err == nil {
		t.Error("overlapping occupy accepted")
	}
	must(d.Occupy(1, Interval{0, 6}))
	if got := d.Free(1); len(got) != 1 || got[0] != (Interval{10, 20}) {
		t.Fatalf("free n1 after occupy = %v", got)
	}
	must(d.Release(1, Interval{0, 6}))
	if err := d.Release(1, Interval{0, 6}); err == nil {
		t.Error("double release accepted")
	}
}

func TestFindWindowHandChecked(t *testing.T) {
	d := handDomain()
	// volume 8: times n0 4, n1 2, n2 8; costs 8, 6, 8.
	j := Job{ID: "a", Nodes: 2, Volume: 8, MaxPrice: 100}
	r := NewRequest(d, &j)
	if r.Time[0] != 4 || r.Time[1] != 2 || r.Time[2] != 8 || r.Cost[1] != 6 {
		t.Fatalf("times %v costs %v", r.Time, r.Cost)
	}
	cases := []struct {
		mode  string
		start int
		nodes []int
	}{
		// at 0: n1 [0,6) fits 2, n2 fits 8 → start 0 on n1, n2 (runtime 8)
		{ModeFirstFit, 0, []int{1, 2}},
		{CritStart, 0, []int{1, 2}},
		// shortest runtime: n0+n1 (4) first possible at 4 (n0 free from 4, n1 [4,6) fits 2)
		{CritRuntime, 4, []int{0, 1}},
		// finish: at 0 → 8; at 4 → 8 with n0,n1; tie on finish, cost 14 vs 14: earlier start wins
		{CritFinish, 0, []int{1, 2}},
		// cost: n1+n0 = 14, n1+n2 = 14, n0+n2 = 16: the search stops at the
		// first window of the least possible cost, n1+n2 at 0
		{CritCost, 0, []int{1, 2}},
	}
	for _, c := range cases {
		w, ok := FindWindow(d, r, c.mode)
		if !ok || w.Start != c.start || len(w.Nodes) != 2 || w.Nodes[0] != c.nodes[0] || w.Nodes[1] != c.nodes[1] {
			t.Errorf("%s: got %+v ok=%v, want start %d nodes %v", c.mode, w, ok, c.start, c.nodes)
		}
	}
	// budget 13 admits no pair: no window
	j.MaxPrice = 13
	if w, ok := FindWindow(d, NewRequest(d, &j), CritStart); ok {
		t.Errorf("window %+v over budget", w)
	}
	// min performance 3: only n1 eligible, 2 nodes impossible
	j.MaxPrice, j.MinPerf = 100, 3
	if _, ok := FindWindow(d, NewRequest(d, &j), CritStart); ok {
		t.Error("window with an ineligible node")
	}
}

func randomDomain(rng *rand.Rand, nodes, T int) *Domain {
	perf := make([]float64, nodes)
	price := make([]float64, nodes)
	for i := range perf {
		perf[i] = float64(1 + rng.Intn(5))
		price[i] = math.Round(perf[i]*(0.7+0.6*rng.Float64())*100) / 100
	}
	d := NewDomain(T, perf, price)
	for n := range nodes {
		at := rng.Intn(6)
		for at < T {
			l := 1 + rng.Intn(8)
			if rng.Intn(2) == 0 {
				must(d.Occupy(n, Interval{at, min(T, at+l)}))
			}
			at += l + 1 + rng.Intn(4)
		}
	}
	return d
}

// exhaustive enumerates every choice of m distinct nodes and one free slot
// on each, starting together at the latest slot start, and returns the
// best value of each criterion (+Inf when none fits).
func exhaustive(d *Domain, r *Request) map[string]float64 {
	best := map[string]float64{CritStart: math.Inf(1), CritRuntime: math.Inf(1), CritFinish: math.Inf(1), CritCost: math.Inf(1)}
	el := r.Eligible
	var rec func(k int, nodes []int, slots []Interval)
	rec = func(k int, nodes []int, slots []Interval) {
		if len(nodes) == r.M {
			s := 0
			for _, iv := range slots {
				s = max(s, iv.Start)
			}
			run, cost := 0, 0.0
			for i, n := range nodes {
				if s+r.Time[n] > slots[i].End {
					return
				}
				run = max(run, r.Time[n])
				cost += r.Cost[n]
			}
			if cost > r.Budget+1e-9 {
				return
			}
			best[CritStart] = min(best[CritStart], float64(s))
			best[CritRuntime] = min(best[CritRuntime], float64(run))
			best[CritFinish] = min(best[CritFinish], float64(s+run))
			best[CritCost] = min(best[CritCost], cost)
			return
		}
		if k == len(el) {
			return
		}
		rec(k+1, nodes, slots)
		for _, iv := range d.Free(el[k]) {
			rec(k+1, append(nodes, el[k]), append(slots, iv))
		}
	}
	rec(0, nil, nil)
	return best
}

func checkWindow(t *testing.T, d *Domain, r *Request, w Window) {
	t.Helper()
	if len(w.Nodes) != r.M {
		t.Fatalf("window has %d nodes, want %d", len(w.Nodes), r.M)
	}
	cost := 0.0
	for i, n := range w.Nodes {
		if i > 0 && n <= w.Nodes[i-1] {
			t.Fatalf("nodes %v not distinct ascending", w.Nodes)
		}
		eligible := false
		for _, e := range r.Eligible {
			eligible = eligible || e == n
		}
		if !eligible {
			t.Fatalf("node %d not eligible", n)
		}
		if w.Times[i] != r.Time[n] || !d.IsFree(n, w.Span(i)) {
			t.Fatalf("slot %d of %+v not free or wrong length", i, w)
		}
		cost += r.Cost[n]
	}
	if math.Abs(cost-w.Cost) > 1e-9 || cost > r.Budget+1e-9 {
		t.Fatalf("cost %v (window says %v) over budget %v", cost, w.Cost, r.Budget)
	}
}

func TestAEPAtLeastAsGoodAsExhaustiveEnumeration(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for it := range 400 {
		d := randomDomain(rng, 2+rng.Intn(4), 25)
		m := 1 + rng.Intn(3)
		j := Job{ID: "x", Nodes: m, Volume: float64(1 + rng.Intn(20)), MinPerf: float64(rng.Intn(3))}
		j.MaxPrice = float64(m) * j.Volume * (0.8 + rng.Float64())
		r := NewRequest(d, &j)
		ex := exhaustive(d, r)
		for _, mode := range append([]string{ModeFirstFit}, Criteria()...) {
			w, ok := FindWindow(d, r, mode)
			crit := mode
			if mode == ModeFirstFit {
				crit = CritStart
			}
			if ok != !math.IsInf(ex[crit], 1) {
				t.Fatalf("it %d %s: found=%v, exhaustive best %v", it, mode, ok, ex[crit])
			}
			if !ok {
				continue
			}
			checkWindow(t, d, r, w)
			got := map[string]float64{CritStart: float64(w.Start), CritRuntime: float64(w.Runtime()), CritFinish: float64(w.Finish()), CritCost: w.Cost}[crit]
			if got > ex[crit]+1e-9 {
				t.Fatalf("it %d %s: AEP value %v worse than exhaustive %v (window %+v)", it, mode, got, ex[crit], w)
			}
		}
	}
}

func TestAlternativesAreDisjointAndReleasable(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for range 50 {
		d := randomDomain(rng, 5, 60)
		before := d.Clone()
		var reqs []*Request
		var modes []string
		for i := range 4 {
			j := Job{ID: "x", Nodes: 1 + rng.Intn(2), Volume: float64(2 + rng.Intn(10)), MaxPrice: 1e9}
			reqs = append(reqs, NewRequest(d, &j))
			modes = append(modes, append([]string{ModeFirstFit}, Criteria()...)[i%5])
		}
		alts, err := FindAlternatives(t.Context(), d, reqs, modes)
		if err != nil {
			t.Fatal(err)
		}
		check := before.Clone()
		batch := d.Clone()
		for _, a := range alts {
			for _, w := range a {
				if err := check.OccupyWindow(w); err != nil {
					t.Fatalf("alternatives overlap: %v", err)
				}
				must(d.ReleaseWindow(w))
			}
		}
		// releaseAlternatives, all in one pass, restores the same domain
		must(batch.releaseAlternatives(alts))
		for n := range d.Nodes() {
			if !slices.Equal(d.Busy(n), before.Busy(n)) || !slices.Equal(batch.Busy(n), before.Busy(n)) {
				t.Fatal("releasing alternatives did not restore the domain")
			}
		}
		// a window not busy any more is an error, as ReleaseWindow's
		for _, a := range alts {
			if len(a) > 0 {
				if err := batch.releaseAlternatives([][]Window{a[:1]}); err == nil {
					t.Fatal("releasing a free window accepted")
				}
				break
			}
		}
	}
}

// refFind is the window search written plainly: every slot start of an
// eligible node in ascending order, the candidates there found by IsFree,
// the same pick rule, and the best (value, start). find must return the
// same window with all its sweeping, bounds and pruning.
func refFind(d *Domain, r *Request, mode string) (Window, bool) {
	var sr searcher
	sr.reset(d, r)
	el := r.Eligible
	var starts []int
	for _, n := range el {
		for _, iv := range d.Free(n) {
			if iv.Len() >= r.Time[n] {
				starts = append(starts, iv.Start)
			}
		}
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	var best prior
	var bestPick []int
	r.order()
	for _, s := range starts {
		sr.clearIn()
		for k, n := range el {
			if d.IsFree(n, Interval{s, s + r.Time[n]}) {
				sr.add(r, k)
				for _, iv := range d.Free(n) {
					if iv.Start <= s && s < iv.End {
						sr.slotStart[k] = iv.Start
					}
				}
			}
		}
		if sr.count < r.M {
			continue
		}
		pick, v, ok := sr.pickAt(r, mode, s)
		if !ok {
			continue
		}
		if !best.ok || better(v, best.value) {
			best, bestPick = prior{true, v, s}, slices.Clone(pick)
		}
	}
	if !best.ok {
		return Window{}, false
	}
	return makeWindow(r, el, best.start, bestPick), true
}

// refAlternatives is FindAlternatives on refFind.
func refAlternatives(d *Domain, reqs []*Request, modes []string) [][]Window {
	alts := make([][]Window, len(reqs))
	active := make([]bool, len(reqs))
	for i := range active {
		active[i] = true
	}
	for more := true; more; {
		more = false
		for i, r := range reqs {
			if !active[i] {
				continue
			}
			w, ok := refFind(d, r, modes[i])
			if !ok {
				active[i] = false
				continue
			}
			must(d.OccupyWindow(w))
			alts[i] = append(alts[i], w)
			more = true
		}
	}
	return alts
}

func TestFindAlternativesEqualsPlainSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	modes := append([]string{ModeFirstFit}, Criteria()...)
	// 300 random cases; the quick tier (-short) checks the first 100 of
	// them (the same cases, several-word bit sets among them).
	cases := 300
	if testing.Short() {
		cases = 100
	}
	for it := range cases {
		T := 30 + rng.Intn(60)
		if it%10 == 0 {
			T = 200 + rng.Intn(300) // several words of the bit set
		}
		d := randomDomain(rng, 3+rng.Intn(10), T)
		var reqs, refReqs []*Request
		var ms []string
		for range 2 + rng.Intn(5) {
			m := 1 + rng.Intn(3)
			j := Job{ID: "x", Nodes: m, Volume: float64(1 + rng.Intn(20)), MinPerf: float64(rng.Intn(3))}
			j.MaxPrice = float64(m) * j.Volume * (0.6 + rng.Float64())
			reqs = append(reqs, NewRequest(d, &j))
			refReqs = append(refReqs, NewRequest(d, &j))
			ms = append(ms, modes[rng.Intn(len(modes))])
		}
		ref := d.Clone()
		got, err := FindAlternatives(t.Context(), d, reqs, ms)
		if err != nil {
			t.Fatal(err)
		}
		want := refAlternatives(ref, refReqs, ms)
		for i := range want {
			if len(got[i]) != len(want[i]) {
				t.Fatalf("it %d job %d (%s): %d alternatives, plain search %d", it, i, ms[i], len(got[i]), len(want[i]))
			}
			for a := range want[i] {
				g, w := got[i][a], want[i][a]
				if g.Start != w.Start || !slices.Equal(g.Nodes, w.Nodes) {
					t.Fatalf("it %d job %d (%s) alternative %d: %+v, plain search %+v", it, i, ms[i], a, g, w)
				}
			}
		}
	}
}
