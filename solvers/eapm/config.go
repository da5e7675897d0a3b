package eapm

import (
	"slices"
	"strconv"

	"schedlab/solvers"
)

// Config is a run's parameters: the prices and the machines of the model
// (doc.go, Model). Every variant reads all of them.
type Config struct {
	// Gamma is the price markup γ (×): a task of type t sells for
	// p_t = γ·c·min_j ETC_tj·APC_tj.
	Gamma float64
	// C is the energy cost c per joule ($/J); it scales prices and energy
	// cost alike.
	C float64
	// MachinesPerType overrides the workload's machines per type M_j:
	// "" keeps them, "40" sets every type, "40,40,…" gives m counts.
	MachinesPerType string
}

// DefaultConfig is the run parameters' defaults.
func DefaultConfig() Config {
	return Config{
		Gamma:           1.2, // ×: the one value in every experiment of the paper (Table 1 spans 1.05–1.5; Figs. 1–3 use 1.2, 1.3, 1.5)
		C:               1,   // $/J: as in the authors' code; the objective is proportional to c
		MachinesPerType: "",  // the workload's own counts: the seed's instances have 1 per type, Tarplee's 40
	}
}

// Declare binds the run parameters (a public contract: names, units,
// limits and docs).
func (c *Config) Declare(ps *solvers.ParamSet) {
	ps.Float(&c.Gamma, "gamma", "×", 0, 100,
		"Price markup γ: a task of type t sells for p_t = γ·c·min_j ETC_tj·APC_tj, γ times the least energy cost it can have. Must be > 0; with γ ≤ 1 no schedule makes a profit (the run says so). Default 1.2: the one value in every experiment of the paper (Table 1 spans 1.05–1.5; Figs. 1–3 use 1.2, 1.3 and 1.5).")
	ps.Float(&c.C, "c", "$/J", 0, 1e9,
		"Energy cost c per joule; scales prices and energy cost alike, so the objective is proportional to c. Must be > 0. Default 1, as in the authors' code.")
	ps.String(&c.MachinesPerType, "machines_per_type", "machines",
		"Machines M_j of each type (a type's load is ETC/M_j): empty = the workload's own counts; one integer = that many of every type; or a comma list of m positive integers. Default empty: the seed's instances have 1 per type, Tarplee's 40.").
		WithCheck(checkMachinesPerType)
}

// TarpleeConfig is the parameters of preset tarplee.
type TarpleeConfig struct {
	// Order is the arrival order of the 30 users: "type" or "shuffled".
	Order string
}

// DefaultTarpleeConfig is preset tarplee's defaults.
func DefaultTarpleeConfig() TarpleeConfig {
	return TarpleeConfig{
		Order: "type", // task type order 0–29: deterministic, the natural reading of a bag
	}
}

// Declare binds preset tarplee's parameters.
func (c *TarpleeConfig) Declare(ps *solvers.ParamSet) {
	ps.Choice(&c.Order, "order", []string{"type", "shuffled"},
		"Arrival order of the 30 users: type = task type order 0–29 (deterministic, the natural reading of a bag); shuffled = a random permutation drawn with the run's seed.")
}

// declareInstance binds the instance parameter the seed's presets share.
func declareInstance(ps *solvers.ParamSet, k *int) {
	ps.Int(k, "instance", "", -1, 99,
		"Which of the seed's 100 stored instances (0–99), or -1 for a fresh random instance from the seed's generator (all_exp.py) drawn with the run's seed.")
}

// Case1Config is the parameters of preset zhang2022-case1.
type Case1Config struct {
	// Instance is the seed's stored instance 0–99, or -1 for a fresh one.
	Instance int
}

// DefaultCase1Config is preset zhang2022-case1's defaults.
func DefaultCase1Config() Case1Config {
	return Case1Config{
		Instance: 0, // the seed's first stored instance: the authors' ist0.txt
	}
}

// Declare binds preset zhang2022-case1's parameters.
func (c *Case1Config) Declare(ps *solvers.ParamSet) { declareInstance(ps, &c.Instance) }

// Case2Config is the parameters of preset zhang2022-case2.
type Case2Config struct {
	// Instance is the seed's stored instance 0–99, or -1 for a fresh one.
	Instance int
	// N is the number of users, one of the paper's case-2 sizes (a choice,
	// so kept as its text; Users reads it).
	N string
}

// DefaultCase2Config is preset zhang2022-case2's defaults.
func DefaultCase2Config() Case2Config {
	return Case2Config{
		Instance: 0,    // the seed's first stored instance
		N:        "30", // users: the smallest of the paper's case 2, the size of case 1
	}
}

// Declare binds preset zhang2022-case2's parameters.
func (c *Case2Config) Declare(ps *solvers.ParamSet) {
	declareInstance(ps, &c.Instance)
	ps.Choice(&c.N, "n", []string{"30", "100", "500", "1000", "2000"}, "Number of users, as in the paper's case 2.")
}

// Users is N as a number.
func (c Case2Config) Users() int {
	n, _ := strconv.Atoi(c.N)
	return n
}

// Case3Config is the parameters of preset zhang2022-case3.
type Case3Config struct {
	// Instance is the seed's stored instance 0–99, or -1 for a fresh one.
	Instance int
	// Order is the arrival order of big and small bags (case3Orders).
	Order string
}

// DefaultCase3Config is preset zhang2022-case3's defaults.
func DefaultCase3Config() Case3Config {
	return Case3Config{
		Instance: 0,     // the seed's first stored instance
		Order:    "BaS", // big bags then small: the first bar group of Fig. 3
	}
}

// Declare binds preset zhang2022-case3's parameters.
func (c *Case3Config) Declare(ps *solvers.ParamSet) {
	declareInstance(ps, &c.Instance)
	ps.Choice(&c.Order, "order", slices.Clone(case3Orders),
		"BaS: 15 big bags then 15 small; SaB: small then big; Rand: a ∈ [1, 1000] throughout; Equal: every a = 400.")
}

// ReproConfig is the parameters of the seed experiment (Reproduce).
type ReproConfig struct {
	// Instances is how many of the seed's 100 instances per setting to
	// average.
	Instances int
	// MaxN is the largest n of case 2 to run (a choice of the paper's
	// sizes, kept as its text; MaxUsers reads it).
	MaxN string
	// Fig3Gamma is the γ of the Fig 3 bars (a choice of the paper's three,
	// kept as its text; Fig3 reads it).
	Fig3Gamma string
	// Bounds solves the LP bound for every instance of cases 2 and 3 too.
	Bounds bool
}

// DefaultReproConfig is the seed experiment's defaults: the paper's whole
// grid.
func DefaultReproConfig() ReproConfig {
	return ReproConfig{
		Instances: 100,    // instances per setting: all of the seed's, as the paper
		MaxN:      "2000", // users: the paper's largest case 2
		Fig3Gamma: "1.2",  // ×: the first of the paper's three γ
		Bounds:    true,   // the bound beside every mean; about half the run time
	}
}

// Declare binds the seed experiment's parameters.
func (c *ReproConfig) Declare(ps *solvers.ParamSet) {
	ps.Int(&c.Instances, "instances", "instances", 1, 100,
		"How many of the seed's 100 instances per setting to average (the paper uses all 100; fewer is faster, and the comparison with the authors' means, taken over 100, becomes approximate).")
	ps.Choice(&c.MaxN, "max_n", []string{"30", "100", "500", "1000", "2000"}, "Largest n of case 2 (Figs. 1–2) to run; smaller is faster.")
	ps.Choice(&c.Fig3Gamma, "fig3_gamma", []string{"1.2", "1.3", "1.5"}, "γ of the Fig 3 bars (the paper draws 1.2, 1.3 and 1.5; the Case 3 table has all three).")
	ps.Bool(&c.Bounds, "bounds", "Solve the LP bound for every instance of cases 2 and 3 too (case 1 always): about half the run time.")
}

// MaxUsers is MaxN as a number.
func (c ReproConfig) MaxUsers() int {
	n, _ := strconv.Atoi(c.MaxN)
	return n
}

// Fig3 is Fig3Gamma as a number.
func (c ReproConfig) Fig3() float64 {
	g, _ := strconv.ParseFloat(c.Fig3Gamma, 64)
	return g
}
