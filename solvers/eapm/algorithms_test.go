package eapm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// twoMachines is the hand-checked instance: one task type, machine 0 fast
// and hungry (ETC 1 s, APC 4 W: e = 4 J), machine 1 slow and frugal (ETC 2 s,
// APC 1 W: e = 2 J). The price is p = γ·c·min e = 2γ.
func twoMachines(gamma float64, bags ...int) *Instance {
	in := &Instance{ETC: [][]float64{{1, 2}}, APC: [][]float64{{4, 1}}, Gamma: gamma, C: 1}
	for _, a := range bags {
		in.Users = append(in.Users, User{Type: 0, Tasks: a})
	}
	return in
}

func TestOnlineClosedFormByHand(t *testing.T) {
	cases := []struct {
		name  string
		in    *Instance
		x     [][]int32
		trace []float64
	}{
		// γ = 1.5, p = 3. User 1 (a = 3, R = 9), L = (0, 0):
		//   τ = {1}:    level = 3/(1/2) = 6, x = (0, 3), E = 6,  value = (9−6)/6 = 0.5
		//   τ = {0, 1}: level = 3/(1+1/2) = 2, x = (2, 1), E = 8+2 = 10, value = (9−10)/2 = −0.5
		//   → (0, 3); L = (0, 6), E = 6, objective 0.5.
		// User 2 (a = 3, R = 18):
		//   τ = {1}:    level = (3 + 6/2)/(1/2) = 12, x = (0, 3), E = 12, value = 6/12 = 0.5
		//   τ = {0, 1}: level = (3 + 0 + 3)/1.5 = 4 < L_1 = 6: x_1 = −1, dropped
		//   → (0, 3); objective (18−12)/12 = 0.5.
		{"gamma 1.5 stays on the frugal machine", twoMachines(1.5, 3, 3), [][]int32{{0, 3}, {0, 3}}, []float64{0.5, 0.5}},
		// γ = 3, p = 6. User 1 (a = 3, R = 18): τ = {1}: (18−6)/6 = 2; τ = {0, 1}:
		//   level 2, x = (2, 1), E = 10, (18−10)/2 = 4 → (2, 1), L = (2, 2).
		// User 2 (a = 6, R = 54): τ = {1}: level = (6 + 1)/0.5 = 14, x = (0, 6),
		//   E = 10+12 = 22, (54−22)/14 = 2.29; τ = {0, 1}: level = (6 + 2 + 1)/1.5 = 6,
		//   x = (4, 2), E = 10+16+4 = 30, (54−30)/6 = 4 → (4, 2).
		{"gamma 3 spreads over both", twoMachines(3, 3, 6), [][]int32{{2, 1}, {4, 2}}, []float64{4, 4}},
		// γ = 3, a = 1: τ = {0, 1}: level 2/3, x = (2/3, 1/3), value (6 − 8/3 − 2/3)/(2/3) = 4
		//   beats τ = {1}: (6−2)/2 = 2. Rounding up from the cheapest machine:
		//   ⌈1/3⌉ = 1 on machine 1 places the bag: (0, 1), objective (6−2)/2 = 2.
		{"rounding up from the cheapest machine", twoMachines(3, 1), [][]int32{{0, 1}}, []float64{2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Online(context.Background(), c.in)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.x {
				if got := s.X[i*2 : i*2+2]; !reflect.DeepEqual(got, c.x[i]) {
					t.Errorf("user %d: x = %v, want %v", i, got, c.x[i])
				}
			}
			for i, v := range c.trace {
				if math.Abs(s.Trace[i]-v) > 1e-12 {
					t.Errorf("objective after user %d = %v, want %v", i+1, s.Trace[i], v)
				}
			}
		})
	}
}

func TestWaterfillByHand(t *testing.T) {
	// The γ = 1.5 case's second user: loads (0, 6), a = 3, τ = {0, 1}.
	// Pouring onto machine 0 alone gives level 3/1 = 3 ≤ L_1 = 6: machine 1
	// stays out, x = (3, 0), energy 3·4 = 12.
	L, tt, e := []float64{0, 6}, []float64{1, 2}, []float64{4, 2}
	lv, energy := waterfill(3, L, tt, e, []int{0, 1}, []int{0, 1}, 0)
	if lv != 3 || energy != 12 {
		t.Fatalf("level %v energy %v, want 3 and 12", lv, energy)
	}
	// With loads (1, 0) both take part: level = (3 + 1 + 0)/(1 + 1/2) = 8/3.
	lv, energy = waterfill(3, []float64{1, 0}, tt, e, []int{1, 0}, []int{0, 1}, 0)
	if math.Abs(lv-8.0/3) > 1e-12 || math.Abs(energy-(4*(8.0/3-1)+2*(8.0/3)/2)) > 1e-12 {
		t.Fatalf("level %v energy %v", lv, energy)
	}
	// And the whole run: the γ = 1.5 instance's τ = {0, 1} for user 2 is now
	// feasible, worth (18 − 6 − 12)/6 = 0 < 0.5, so the choice is unchanged.
	s, err := OnlineWaterfill(context.Background(), twoMachines(1.5, 3, 3))
	if err != nil || !reflect.DeepEqual(s.X, []int32{0, 3, 0, 3}) {
		t.Fatalf("x = %v, %v", s.X, err)
	}
}

func TestBaselinesByHand(t *testing.T) {
	in := twoMachines(3, 3, 6)
	ctx := context.Background()
	cases := []struct {
		name string
		f    func(context.Context, *Instance) (*Schedule, error)
		x    []int32
		obj  float64
	}{
		// Everything on machine 1: L_1 = 18, E = 18, R = 54: (54−18)/18 = 2.
		{"greedy-min-energy", GreedyMinEnergy, []int32{0, 3, 0, 6}, 2},
		// User 1: machine 0 → (18−12)/3 = 2, machine 1 → (18−6)/6 = 2: a tie,
		// broken by the lower energy (machine 1). User 2: machine 0 → (54−6−24)/6 = 4,
		// machine 1 → (54−6−12)/18 = 2 → machine 0. Objective 4.
		{"greedy-max-objective", GreedyMaxObjective, []int32{0, 3, 6, 0}, 4},
		// ⌈3/2⌉ = 2 then 1; ⌈6/2⌉ = 3 and 3: L = (5, 8), E = 2·4+1·2+3·4+3·2 = 28: (54−28)/8.
		{"average", Average, []int32{2, 1, 3, 3}, 26.0 / 8},
	}
	for _, c := range cases {
		s, err := c.f(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s.X, c.x) || math.Abs(s.Objective-c.obj) > 1e-12 {
			t.Errorf("%s: x = %v objective %v, want %v and %v", c.name, s.X, s.Objective, c.x, c.obj)
		}
	}
}

func TestUpperBoundByHand(t *testing.T) {
	// One type, d = 9, γ = 3 (p = 6, R = 54). With a share f on machine 0
	// (9f tasks, 9(1−f) on machine 1): E = 36f + 18(1−f) = 18 + 18f, the
	// loads are 9f and 18(1−f), balanced at f = 2/3 (MS = 6). For f ≤ 2/3 the
	// objective (36 − 18f)/(18(1−f)) grows with f; beyond, (36−18f)/(9f)
	// falls: the optimum is f = 2/3, (36−12)/6 = 4.
	b, err := UpperBound(twoMachines(3, 3, 6))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(b.Value-4) > 1e-9 || math.Abs(b.Makespan-6) > 1e-9 || math.Abs(b.X[0][0]-6) > 1e-9 || math.Abs(b.Energy-30) > 1e-9 {
		t.Fatalf("bound %+v", b)
	}
	// γ ≤ 1: no profit, the LP drives 1/MS to 0.
	b, err = UpperBound(twoMachines(1, 3, 6))
	if err != nil || b.Value != 0 || b.X != nil {
		t.Fatalf("γ = 1: %+v, %v", b, err)
	}
}

// onlineDirect is Online with every τ computed from scratch: the level by
// the seed's linear system (solved with gonum: unknowns MS and x_j, one row
// Σ x_j = a, one row MS − t_j·x_j = L_j per machine of S_τ), the energy and
// value by direct sums, O(m³) per τ. It must place every user as Online.
func onlineDirect(in *Instance) (*Schedule, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	return run(context.Background(), md, func(st *state, i int, x *alloc) {
		u := in.Users[i]
		t, o, m := u.Type, md.order[u.Type], md.m
		best, bestK := math.Inf(-1), m-1
		var bestShare []float64
		for k := m - 1; k >= 0; k-- {
			set := o[k:]
			dim := len(set) + 1
			A := mat.NewDense(dim, dim, nil)
			b := mat.NewVecDense(dim, nil)
			b.SetVec(0, float64(u.Tasks))
			for r, j := range set {
				A.Set(0, r+1, 1)
				A.Set(r+1, 0, 1)
				A.Set(r+1, r+1, -md.tt[t][j])
				b.SetVec(r+1, st.s.Load[j])
			}
			var sol mat.VecDense
			if err := sol.SolveVec(A, b); err != nil {
				panic(err)
			}
			lv := sol.AtVec(0)
			share := make([]float64, m)
			energy, feasible := st.energy, true
			for r, j := range set {
				share[j] = sol.AtVec(r + 1)
				if share[j] < -1e-7 {
					feasible = false
				}
				energy += md.e[t][j] * share[j]
			}
			if !feasible {
				continue
			}
			v := (st.rev + float64(u.Tasks)*md.price[t] - in.C*energy) / math.Max(st.ms, lv)
			if v >= best-1e-12*math.Abs(best) { // ties to the larger set, as Online
				best, bestK, bestShare = v, k, share
			}
		}
		roundUp(x, bestShare, o[bestK:], u.Tasks)
	})
}

// randomInstance draws a small instance: 1–4 task types, 1–4 machine
// types with 1–3 machines, 1–maxUsers users with bags of 1–maxTasks tasks,
// γ ∈ [0.8, 2.5].
func randomInstance(rng *rand.Rand, maxUsers, maxTasks int) *Instance {
	T, m := 1+rng.IntN(4), 1+rng.IntN(4)
	in := &Instance{Gamma: 0.8 + 1.7*rng.Float64(), C: 0.5 + rng.Float64()}
	for range T {
		etc, apc := make([]float64, m), make([]float64, m)
		for j := range m {
			etc[j] = 0.5 + 10*rng.Float64()
			apc[j] = 10 + 200*rng.Float64()
		}
		in.ETC, in.APC = append(in.ETC, etc), append(in.APC, apc)
	}
	in.Machines = make([]int, m)
	for j := range m {
		in.Machines[j] = 1 + rng.IntN(3)
	}
	for range 1 + rng.IntN(maxUsers) {
		in.Users = append(in.Users, User{Type: rng.IntN(T), Tasks: 1 + rng.IntN(maxTasks)})
	}
	return in
}

func TestOnlineSuffixSumsMatchTheSeedsLinearSystems(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 400 {
		in := randomInstance(rng, 30, 500)
		fast, err := Online(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := onlineDirect(in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast.X, slow.X) {
			t.Fatalf("trial %d: suffix sums %v, linear systems %v", trial, fast.X, slow.X)
		}
	}
}

func TestEarlyStopChangesNothingOnTheSeedsInstances(t *testing.T) {
	seeds := seedOnce()
	for _, gamma := range []float64{1.05, 1.2, 1.5, 3} {
		for _, users := range [][]User{seeds.case1[3], seeds.case2[500][7], seeds.case2[2000][1], seeds.case3["SaB"][2]} {
			in := seedInstance(users, gamma)
			for _, variant := range []string{"online", "online-waterfill"} {
				var got [2]*Schedule
				for k, full := range []bool{false, true} {
					md, err := newModel(in)
					if err != nil {
						t.Fatal(err)
					}
					md.fullScan = full
					if variant == "online" {
						got[k], err = md.online(context.Background())
					} else {
						got[k], err = md.onlineWaterfill(context.Background())
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if !reflect.DeepEqual(got[0].X, got[1].X) {
					t.Fatalf("γ=%v n=%d %s: early stop changed the schedule", gamma, len(users), variant)
				}
			}
			if len(users) <= 500 {
				fast, _ := Online(context.Background(), in)
				slow, _ := onlineDirect(in)
				if !reflect.DeepEqual(fast.X, slow.X) {
					t.Fatalf("γ=%v n=%d: suffix sums and linear systems disagree", gamma, len(users))
				}
			}
		}
	}
}

func TestSuffixSumLevelEqualsDirectSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	for range 1000 {
		m := 1 + rng.IntN(12)
		L, tt := make([]float64, m), make([]float64, m)
		for j := range m {
			L[j], tt[j] = 100*rng.Float64(), 0.1+5*rng.Float64()
		}
		a := float64(1 + rng.IntN(1000))
		var sInv, sLInv float64
		for k := m - 1; k >= 0; k-- {
			sInv += 1 / tt[k]
			sLInv += L[k] / tt[k]
			got := level(a, sInv, sLInv)
			// Direct O(m) sums over S_τ = {k..m−1}, and the defining
			// property: the shares (level − L_j)/t_j add up to a.
			var q, p, shares float64
			for j := k; j < m; j++ {
				q += 1 / tt[j]
				p += L[j] / tt[j]
			}
			want := (a + p) / q
			for j := k; j < m; j++ {
				shares += (want - L[j]) / tt[j]
			}
			if math.Abs(got-want) > 1e-9*want || math.Abs(shares-a) > 1e-7*a {
				t.Fatalf("m=%d k=%d: suffix %v, direct %v, shares %v of %v", m, k, got, want, shares, a)
			}
		}
	}
}

// allMethods runs every algorithm of the package on in.
func allMethods(t *testing.T, in *Instance) map[string]*Schedule {
	t.Helper()
	ctx := context.Background()
	out := map[string]*Schedule{}
	for name, f := range map[string]func(context.Context, *Instance) (*Schedule, error){
		"online": Online, "online-waterfill": OnlineWaterfill, "greedy-min-energy": GreedyMinEnergy,
		"greedy-max-objective": GreedyMaxObjective, "average": Average,
	} {
		s, err := f(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = s
	}
	s, _, err := OfflineLP(ctx, in)
	if err != nil {
		t.Fatalf("offline-lp: %v", err)
	}
	out["offline-lp"] = s
	return out
}

func TestEveryScheduleIsFeasibleAndBelowTheBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	for trial := range 500 {
		in := randomInstance(rng, 25, 300)
		b, err := UpperBound(in)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range allMethods(t, in) {
			// Evaluate re-checks Σ_j x_ij = a_i and x ≥ 0 and recomputes
			// every figure from X alone.
			ev, err := Evaluate(in, s.X)
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, name, err)
			}
			if math.Abs(ev.Objective-s.Objective) > 1e-9*math.Max(1, math.Abs(s.Objective)) {
				t.Fatalf("trial %d %s: objective %v, recomputed %v", trial, name, s.Objective, ev.Objective)
			}
			if s.Objective > b.Value+1e-9*math.Max(1, b.Value) {
				t.Fatalf("trial %d %s: objective %v above the bound %v (γ=%v)", trial, name, s.Objective, b.Value, in.Gamma)
			}
		}
	}
}

// bruteForce returns the best objective over every integral allocation.
func bruteForce(in *Instance) float64 {
	m := in.M()
	X := make([]int32, len(in.Users)*m)
	best := math.Inf(-1)
	var rec func(i, j, left int)
	rec = func(i, j, left int) {
		if i == len(in.Users) {
			s, err := Evaluate(in, X)
			if err != nil {
				panic(err)
			}
			best = math.Max(best, s.Objective)
			return
		}
		if j == m-1 {
			X[i*m+j] = int32(left)
			next := 0
			if i+1 < len(in.Users) {
				next = in.Users[i+1].Tasks
			}
			rec(i+1, 0, next)
			return
		}
		for v := 0; v <= left; v++ {
			X[i*m+j] = int32(v)
			rec(i, j+1, left-v)
		}
	}
	rec(0, 0, in.Users[0].Tasks)
	return best
}

func TestBoundIsAtLeastTheIntegralOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := range 300 {
		in := randomInstance(rng, 3, 4)
		if in.M() > 3 {
			in.ETC, in.APC = trimCols(in.ETC, 3), trimCols(in.APC, 3)
			in.Machines = in.Machines[:3]
		}
		b, err := UpperBound(in)
		if err != nil {
			t.Fatal(err)
		}
		opt := bruteForce(in)
		if opt > b.Value+1e-9*math.Max(1, b.Value) {
			t.Fatalf("trial %d: integral optimum %v above the bound %v", trial, opt, b.Value)
		}
		for name, s := range allMethods(t, in) {
			if s.Objective > opt+1e-9*math.Max(1, math.Abs(opt)) {
				t.Fatalf("trial %d: %s %v beats the exhaustive optimum %v", trial, name, s.Objective, opt)
			}
		}
	}
}

func trimCols(a [][]float64, m int) [][]float64 {
	for i := range a {
		a[i] = a[i][:m]
	}
	return a
}

func TestWaterfillSharesAreFeasible(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 4))
	for range 2000 {
		m := 1 + rng.IntN(10)
		L, tt, e := make([]float64, m), make([]float64, m), make([]float64, m)
		byLoad, pos := make([]int, m), make([]int, m)
		for j := range m {
			L[j], tt[j], e[j] = 50*rng.Float64()*float64(rng.IntN(2)), 0.1+3*rng.Float64(), 1+rng.Float64()
			byLoad[j], pos[j] = j, j
		}
		sortByLoad(byLoad, L)
		a := float64(1 + rng.IntN(200))
		k := rng.IntN(m)
		lv, energy := waterfill(a, L, tt, e, byLoad, pos, k)
		var sum, en float64
		for j := k; j < m; j++ {
			x := math.Max(0, (lv-L[j])/tt[j])
			sum += x
			en += e[j] * x
		}
		if math.Abs(sum-a) > 1e-9*a || math.Abs(en-energy) > 1e-9*math.Max(1, en) {
			t.Fatalf("shares sum to %v for a bag of %v (energy %v vs %v)", sum, a, en, energy)
		}
	}
}

func sortByLoad(idx []int, L []float64) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && L[idx[j]] < L[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

func TestRoundLargestRemainder(t *testing.T) {
	cases := []struct {
		x     []float64
		d     int
		order []int
		want  []int
	}{
		{[]float64{2.5, 2.5}, 5, []int{0, 1}, []int{2, 3}}, // tie: the cheaper (later in order) gets it
		{[]float64{1.2, 3.7, 0.1}, 5, []int{2, 1, 0}, []int{1, 4, 0}},
		{[]float64{3, 0, 0}, 3, []int{0, 1, 2}, []int{3, 0, 0}},
		{[]float64{0.999999999999, 1.000000000001}, 2, []int{0, 1}, []int{1, 1}},
	}
	for _, c := range cases {
		if got := roundLargestRemainder(c.x, c.d, c.order); !reflect.DeepEqual(got, c.want) {
			t.Errorf("round(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestAlgorithmsHonourCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := benchInstance(1000)
	for name, f := range map[string]func(context.Context, *Instance) (*Schedule, error){
		"online": Online, "online-waterfill": OnlineWaterfill, "greedy-min-energy": GreedyMinEnergy,
		"greedy-max-objective": GreedyMaxObjective, "average": Average,
	} {
		if _, err := f(ctx, in); err != context.Canceled {
			t.Errorf("%s: %v, want context.Canceled", name, err)
		}
	}
	if _, _, err := OfflineLP(ctx, in); err != context.Canceled {
		t.Errorf("offline-lp: %v", err)
	}
}

func ExampleOnline() {
	// Two machine types for one task type: 0 is fast but hungry (1 s at
	// 4 W: 4 J per task), 1 slow but frugal (2 s at 1 W: 2 J). Two users
	// bring 3 and 6 tasks; a task sells for γ = 3 times its least energy.
	in := &Instance{
		ETC:   [][]float64{{1, 2}},
		APC:   [][]float64{{4, 1}},
		Users: []User{{Type: 0, Tasks: 3}, {Type: 0, Tasks: 6}},
		Gamma: 3, C: 1,
	}
	s, err := Online(context.Background(), in)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range in.Users {
		fmt.Printf("user %d: %d fast, %d frugal\n", i+1, s.Tasks(i, 0), s.Tasks(i, 1))
	}
	fmt.Printf("makespan %g s, energy %g J, revenue %g, objective %g per s\n", s.Makespan, s.Energy, s.Revenue, s.Objective)
	b, _ := UpperBound(in)
	fmt.Printf("LP bound %.4g\n", b.Value)
	// Output:
	// user 1: 2 fast, 1 frugal
	// user 2: 4 fast, 2 frugal
	// makespan 6 s, energy 30 J, revenue 54, objective 4 per s
	// LP bound 4
}

func ExampleGreedyMinEnergy() {
	in := &Instance{ETC: [][]float64{{1, 2}}, APC: [][]float64{{4, 1}},
		Users: []User{{Type: 0, Tasks: 3}, {Type: 0, Tasks: 6}}, Gamma: 3, C: 1}
	s, _ := GreedyMinEnergy(context.Background(), in)
	fmt.Println(s.X, s.Objective, s.Trace)
	// Output: [0 3 0 6] 2 [2 2]
}

func ExampleUpperBound() {
	// One type, 9 tasks, a share f on the fast machine: E = 36f + 18(1−f),
	// loads 9f and 9(1−f) (the frugal pool's 2 machines take 2 s/2 = 1 s per
	// task), balanced at f = 1/2, where (54 − 27)/4.5 = 6 is the best.
	in := &Instance{ETC: [][]float64{{1, 2}}, APC: [][]float64{{4, 1}},
		Machines: []int{1, 2}, // two frugal machines
		Users:    []User{{Type: 0, Tasks: 9}}, Gamma: 3, C: 1}
	b, _ := UpperBound(in)
	fmt.Printf("objective ≤ %.4g, makespan %.4g s, %.4g tasks fast and %.4g frugal\n", b.Value, b.Makespan, b.X[0][0], b.X[0][1])
	// Output: objective ≤ 6, makespan 4.5 s, 4.5 tasks fast and 4.5 frugal
}
