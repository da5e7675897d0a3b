// Package sweep is the experiment definition as the user writes it: a
// strategy, a workload axis, the variants, a grid over run parameters,
// the replicates and the published values drawn beside ours. It is a
// leaf (it imports nothing of ours) so that the families write their seed
// experiments as typed literals; package experiments reads a definition
// from JSON or YAML strictly, validates it against its strategy and
// expands it into runs. The field tags are the JSON a stored experiment
// keeps: the public format of POST /api/experiments and `schedlab sweep`.
package sweep

// Definition is an experiment: a strategy, a workload axis, the variants,
// a grid over run parameters and the number of replicates.
type Definition struct {
	Name     string   `json:"name"`
	Strategy string   `json:"strategy"`
	Workload Workload `json:"workload"`
	// Variants to run; empty means every variant of the strategy.
	Variants []string `json:"variants,omitempty"`
	// Grid maps run parameter names to the values swept (a fixed value is
	// a one-element list).
	Grid Grid `json:"grid,omitempty"`
	// Replicates is how many times each cell runs (1..experiments.MaxReplicates);
	// replicate r uses Seed+r to generate its workload and to run.
	Replicates int `json:"replicates"`
	// Seed is the base seed (experiments.DefaultSeed when absent from the text).
	Seed       int64       `json:"seed"`
	Tags       []string    `json:"tags,omitempty"`
	Notes      string      `json:"notes,omitempty"` // markdown
	References []Reference `json:"references,omitempty"`
	// NotifyURL, when set, is POSTed a small JSON body naming the
	// experiment once its runs have all ended (package notify); http or
	// https only (experiments.CheckNotifyURL).
	NotifyURL string `json:"notify_url,omitempty"`
}

// Workload is the workload axis: either a preset of the strategy with a
// grid over its parameters (each combination generated per replicate), or
// stored workloads by id. Exactly one of Preset and IDs is set.
type Workload struct {
	Preset string   `json:"preset,omitempty"`
	Grid   Grid     `json:"grid,omitempty"`
	IDs    []string `json:"ids,omitempty"`
}

// Grid maps parameter names to the values swept, as solvers.Params holds
// them (text; integers exact). Names are expanded in sorted order.
type Grid map[string][]string

// Reference is a published value drawn as a dashed series beside ours: the
// value of Metric for Variant (empty: not tied to one) at the cell Params
// (keys as in experiments.Row.Params: run parameters bare, workload grid
// parameters as "workload.NAME"; keys not given match any value).
type Reference struct {
	Name    string            `json:"name"` // the source: "Zhang 2022, Table 1"
	Metric  string            `json:"metric"`
	Variant string            `json:"variant,omitempty"`
	Params  map[string]string `json:"params,omitempty"`
	Value   float64           `json:"value"`
}
