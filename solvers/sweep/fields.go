package sweep

import (
	"maps"
	"slices"
	"strconv"
)

// Field is one thing an experiment's runs are defined by: its name and
// the values its runs take. It differs across the runs when it has more
// than one value.
type Field struct {
	Name   string
	Values []string
}

// Differs says the runs take more than one value.
func (f Field) Differs() bool { return len(f.Values) > 1 }

// Fields lists what the experiment's runs are made of, the swept ones
// (more than one value: what differs between runs) first, then the fixed
// ones, each part in the order workload, variant, workload parameters,
// run parameters (by name), replicate. variants is the list the runs use
// (the definition's, or every variant of the strategy when it names none).
func (d *Definition) Fields(variants []string) []Field {
	var fs []Field
	if d.Workload.Preset != "" {
		fs = append(fs, Field{"workload", []string{"preset " + d.Workload.Preset}})
	} else {
		fs = append(fs, Field{"workload", slices.Clone(d.Workload.IDs)})
	}
	if len(d.Variants) > 0 {
		variants = d.Variants
	}
	fs = append(fs, Field{"variant", slices.Clone(variants)})
	for _, k := range slices.Sorted(maps.Keys(d.Workload.Grid)) {
		fs = append(fs, Field{"workload." + k, slices.Clone(d.Workload.Grid[k])})
	}
	for _, k := range slices.Sorted(maps.Keys(d.Grid)) {
		fs = append(fs, Field{k, slices.Clone(d.Grid[k])})
	}
	reps := max(d.Replicates, 1)
	seeds := make([]string, 0, min(reps, 4))
	for r := range min(reps, 3) {
		seeds = append(seeds, strconv.FormatInt(d.Seed+int64(r), 10))
	}
	if reps > 3 {
		seeds = append(seeds, "… "+strconv.FormatInt(d.Seed+int64(reps-1), 10))
	}
	fs = append(fs, Field{"seed (replicate)", seeds})
	slices.SortStableFunc(fs, func(a, b Field) int {
		switch {
		case a.Differs() && !b.Differs():
			return -1
		case !a.Differs() && b.Differs():
			return 1
		}
		return 0
	})
	return fs
}
