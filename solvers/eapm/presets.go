package eapm

import (
	"context"
	"fmt"
	"math/rand/v2"

	"schedlab/solvers"
)

// Preset names (a public contract).
const (
	PresetTarplee = "tarplee"
	PresetCase1   = "zhang2022-case1"
	PresetCase2   = "zhang2022-case2"
	PresetCase3   = "zhang2022-case3"
)

// presets lists the generators: Tarplee's data and the seed's three cases.
func presets() []solvers.PresetDef {
	return []solvers.PresetDef{
		solvers.NewPreset(PresetTarplee, "Tarplee et al.'s data (CCGrid 2014): 30 task types × 9 machine types from OpenBenchmarking, 40 machines per type (MPT.csv), the 11,000-task bag TPT.csv as a stream of 30 users, one per task type with its whole demand. Use γ 1.01–1.46 to compare with his price sweep.",
			DefaultTarpleeConfig, genTarplee, sizeOf30Users[TarpleeConfig]("order")),
		solvers.NewPreset(PresetCase1, "The seed's case 1 (Table 1): Tarplee's matrices, 1 machine per type, 30 users each of a different task type in random order, a_i ∈ [200, 1000].",
			DefaultCase1Config, genSeedCase1, sizeOf30Users[Case1Config]("instance")),
		solvers.NewPreset(PresetCase2, "The seed's case 2 (Figs. 1–2): n users of uniformly random task types, a_i ∈ [200, 1000], 1 machine per type.",
			DefaultCase2Config, genSeedCase2, sizeCase2),
		solvers.NewPreset(PresetCase3, "The seed's case 3 (Fig. 3): 30 users of random task types in four arrival orders of big (a ∈ [500, 1000]) and small (a ∈ [1, 200]) bags, 1 machine per type.",
			DefaultCase3Config, genSeedCase3, sizeOf30Users[Case3Config]("instance")),
	}
}

func presetRand(seed int64) *rand.Rand { return rand.New(rand.NewPCG(uint64(seed), 0xea9a2022)) }

func genTarplee(_ context.Context, c TarpleeConfig, seed int64) (*solvers.Workload, error) {
	in, name := tarpleeInstance(c.Order == "shuffled", presetRand(seed))
	return newWorkload(in, name, "preset", "Tarplee's profit1 data set (data/tarplee_profit1: ETC.csv, EPC.csv, MPT.csv, TPT.csv)")
}

func genSeedCase1(_ context.Context, c Case1Config, seed int64) (*solvers.Workload, error) {
	k, in := c.Instance, tarpleeMatrices()
	if k >= 0 {
		in.Users = cloneUsers(seedCase1()[k])
	} else {
		in.Users = genCase1(presetRand(seed))
	}
	return seedWorkload(in, PresetCase1, "", k, seed,
		fmt.Sprintf("data/seed_instances/case1_gamma_n30.csv instance %d (the authors' ist%d.txt)", k, k))
}

func genSeedCase2(_ context.Context, c Case2Config, seed int64) (*solvers.Workload, error) {
	k, n, in := c.Instance, c.Users(), tarpleeMatrices()
	if k >= 0 {
		in.Users = cloneUsers(seedCase2()[n][k])
	} else {
		in.Users = genCase2(presetRand(seed), n)
	}
	return seedWorkload(in, PresetCase2, fmt.Sprintf(" n=%d", n), k, seed,
		fmt.Sprintf("data/seed_instances/case2_variable_n.csv.gz n=%d instance %d", n, k))
}

func genSeedCase3(_ context.Context, c Case3Config, seed int64) (*solvers.Workload, error) {
	k, in := c.Instance, tarpleeMatrices()
	if k >= 0 {
		in.Users = cloneUsers(seedCase3()[c.Order][k])
	} else {
		in.Users = genCase3(presetRand(seed), c.Order)
	}
	return seedWorkload(in, PresetCase3, " "+c.Order, k, seed,
		fmt.Sprintf("data/seed_instances/case3_bigsmall.csv %s instance %d", c.Order, k))
}

// seedWorkload names a workload of the seed's presets: "preset setting
// instance k" and its stored source, or "preset setting random (seed s)"
// from the seed's generator when k is -1.
func seedWorkload(in *Instance, preset, setting string, k int, seed int64, source string) (*solvers.Workload, error) {
	name := fmt.Sprintf("%s%s instance %d", preset, setting, k)
	if k < 0 {
		name = fmt.Sprintf("%s%s random (seed %d)", preset, setting, seed)
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
