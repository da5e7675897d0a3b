package eapm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/solvers"
)

// Preset names (a public contract).
const (
	PresetTarplee = "tarplee"
	PresetCase1   = "zhang2022-case1"
	PresetCase2   = "zhang2022-case2"
	PresetCase3   = "zhang2022-case3"
)

func instanceSpec() solvers.ParamSpec {
	return solvers.IntSpec("instance", "0", "",
		"Which of the seed's 100 stored instances (0–99), or -1 for a fresh random instance from the seed's generator (all_exp.py) drawn with the run's seed.", -1, 99)
}

// Presets implements solvers.Strategy.
func (s *Strategy) Presets() []solvers.Preset {
	return []solvers.Preset{
		{Name: PresetTarplee, Doc: "Tarplee et al.'s data (CCGrid 2014): 30 task types × 9 machine types from OpenBenchmarking, 40 machines per type (MPT.csv), the 11,000-task bag TPT.csv as a stream of 30 users, one per task type with its whole demand. Use γ 1.01–1.46 to compare with his price sweep.",
			Params: []solvers.ParamSpec{solvers.ChoiceSpec("order", "type",
				"Arrival order of the 30 users: type = task type order 0–29 (deterministic, the natural reading of a bag); shuffled = a random permutation drawn with the run's seed.",
				"type", "shuffled")}},
		{Name: PresetCase1, Doc: "The seed's case 1 (Table 1): Tarplee's matrices, 1 machine per type, 30 users each of a different task type in random order, a_i ∈ [200, 1000].",
			Params: []solvers.ParamSpec{instanceSpec()}},
		{Name: PresetCase2, Doc: "The seed's case 2 (Figs. 1–2): n users of uniformly random task types, a_i ∈ [200, 1000], 1 machine per type.",
			Params: []solvers.ParamSpec{instanceSpec(), solvers.ChoiceSpec("n", "30", "Number of users, as in the paper's case 2.", "30", "100", "500", "1000", "2000")}},
		{Name: PresetCase3, Doc: "The seed's case 3 (Fig. 3): 30 users of random task types in four arrival orders of big (a ∈ [500, 1000]) and small (a ∈ [1, 200]) bags, 1 machine per type.",
			Params: []solvers.ParamSpec{instanceSpec(), solvers.ChoiceSpec("order", "BaS",
				"BaS: 15 big bags then 15 small; SaB: small then big; Rand: a ∈ [1, 1000] throughout; Equal: every a = 400.",
				case3Orders...)}},
	}
}

// Generate implements solvers.Strategy.
func (s *Strategy) Generate(ctx context.Context, preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	w, err := s.generate(preset, params, seed)
	return w, errs.Wrap("eapm.Generate", errs.Internal, err)
}

func (s *Strategy) generate(preset string, params solvers.Params, seed int64) (*solvers.Workload, error) {
	var specs []solvers.ParamSpec
	var names []string
	for _, p := range s.Presets() {
		names = append(names, p.Name)
		if p.Name == preset {
			specs = p.Params
		}
	}
	if specs == nil {
		return nil, errs.Invalidf("preset", "unknown preset %q (known: %s)", preset, strings.Join(names, ", "))
	}
	p, err := solvers.Resolve(specs, params)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0xea9a2022))
	if preset == PresetTarplee {
		in, name := tarpleeInstance(p.String("order") == "shuffled", rng)
		return newWorkload(in, name, "preset", "Tarplee's profit1 data set (data/tarplee_profit1: ETC.csv, EPC.csv, MPT.csv, TPT.csv)")
	}
	k := p.Int("instance")
	in := tarpleeMatrices()
	var name, source string
	seeds := seedOnce()
	switch preset {
	case PresetCase1:
		if k >= 0 {
			in.Users = cloneUsers(seeds.case1[k])
		} else {
			in.Users = genCase1(rng)
		}
		name, source = fmt.Sprintf("%s instance %d", preset, k), fmt.Sprintf("data/seed_instances/case1_gamma_n30.csv instance %d (the authors' ist%d.txt)", k, k)
	case PresetCase2:
		n, _ := strconv.Atoi(p.String("n"))
		if k >= 0 {
			in.Users = cloneUsers(seeds.case2[n][k])
		} else {
			in.Users = genCase2(rng, n)
		}
		name, source = fmt.Sprintf("%s n=%d instance %d", preset, n, k), fmt.Sprintf("data/seed_instances/case2_variable_n.csv.gz n=%d instance %d", n, k)
	case PresetCase3:
		order := p.String("order")
		if k >= 0 {
			in.Users = cloneUsers(seeds.case3[order][k])
		} else {
			in.Users = genCase3(rng, order)
		}
		name, source = fmt.Sprintf("%s %s instance %d", preset, order, k), fmt.Sprintf("data/seed_instances/case3_bigsmall.csv %s instance %d", order, k)
	}
	if k < 0 {
		name = fmt.Sprintf("%s random (seed %d)", name[:len(name)-len(" instance -1")], seed)
		source = fmt.Sprintf("the seed's generator (all_exp.py) re-implemented, seed %d", seed)
	}
	return newWorkload(in, name, "preset", source)
}

// tarpleeInstance is Tarplee's instance: his bag becomes one user per task
// type with demand, in type order (or shuffled), 40 machines per type.
func tarpleeInstance(shuffle bool, rng *rand.Rand) (*Instance, string) {
	d := tarpleeOnce()
	in := tarpleeMatrices()
	in.Machines = append([]int(nil), d.mpt...)
	for t, a := range d.tpt {
		if a > 0 {
			in.Users = append(in.Users, User{Type: t, Tasks: a})
		}
	}
	name := "tarplee"
	if shuffle {
		rng.Shuffle(len(in.Users), func(i, j int) { in.Users[i], in.Users[j] = in.Users[j], in.Users[i] })
		name = "tarplee shuffled"
	}
	return in, name
}

func cloneUsers(u []User) []User { return append([]User(nil), u...) }

// randint is Python's random.randint(lo, hi): inclusive at both ends.
func randint(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// genCase1: a random permutation of the 30 task types, a ∈ [200, 1000].
func genCase1(rng *rand.Rand) []User {
	types := rng.Perm(30)
	users := make([]User, 30)
	for i, t := range types {
		users[i] = User{Type: t, Tasks: randint(rng, 200, 1000)}
	}
	return users
}

// genCase2: n users of uniform task types 0–29, a ∈ [200, 1000].
func genCase2(rng *rand.Rand, n int) []User {
	users := make([]User, n)
	for i := range users {
		users[i].Type = randint(rng, 0, 29)
	}
	for i := range users {
		users[i].Tasks = randint(rng, 200, 1000)
	}
	return users
}

// genCase3: 30 users of uniform task types; the first half's bags from the
// order's first range, the second half's from its second (all_exp.py).
func genCase3(rng *rand.Rand, order string) []User {
	ranges := map[string][4]int{"BaS": {500, 1000, 1, 200}, "SaB": {1, 200, 500, 1000}, "Rand": {1, 1000, 1, 1000}, "Equal": {400, 400, 400, 400}}[order]
	users := make([]User, 30)
	for i := range users {
		users[i].Type = randint(rng, 0, 29)
	}
	for i := range users {
		if i < 15 {
			users[i].Tasks = randint(rng, ranges[0], ranges[1])
		} else {
			users[i].Tasks = randint(rng, ranges[2], ranges[3])
		}
	}
	return users
}
