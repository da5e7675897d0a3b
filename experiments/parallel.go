package experiments

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"schedlab/report"
)

// MaxParallelCells is how many cells a parallel-coordinates chart draws;
// past it the page says so and the pivot table is the way in.
const MaxParallelCells = 5000

// Parallel is the parallel-coordinates chart of an experiment's cells
// for metric: an axis per swept parameter that takes more than one value
// (numeric, or its values as categories), one for the variant and one for
// the metric's mean over the cell's replicates; a line per cell, coloured
// by variant. It is drawn when at least two parameters vary; with too many
// cells, the returned Parallel's Title says why it is not drawn (ok false).
func Parallel(rows []Row, metric string, swept []string) (report.Parallel, bool) {
	par := report.Parallel{Title: metric + " across the swept parameters (cell means)"}
	var cellRows []Row
	values := map[string]map[string]bool{}
	for _, r := range rows {
		if r.Metric != metric || r.Mean == nil {
			continue
		}
		cellRows = append(cellRows, r)
		for _, k := range swept {
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			values[k][r.Params[k]] = true
		}
	}
	var varying []string
	for _, k := range swept {
		if len(values[k]) > 1 {
			varying = append(varying, k)
		}
	}
	if len(varying) < 2 {
		return report.Parallel{}, false
	}
	if len(cellRows) > MaxParallelCells {
		return report.Parallel{Title: fmt.Sprintf("Parallel coordinates are not drawn: %d cells are more than %d; use the pivot table.", len(cellRows), MaxParallelCells)}, false
	}
	// Each varying parameter is a numeric axis if every value parses, else
	// a category axis of its values in order.
	index := make([]map[string]float64, len(varying))
	for j, k := range varying {
		var names []string
		numeric := true
		for v := range values[k] {
			names = append(names, v)
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				numeric = false
			}
		}
		axis := report.ParallelAxis{Name: k}
		index[j] = map[string]float64{}
		if numeric {
			for _, v := range names {
				index[j][v], _ = strconv.ParseFloat(v, 64)
			}
		} else {
			sort.Strings(names)
			axis.Categories = names
			for i, v := range names {
				index[j][v] = float64(i)
			}
		}
		par.Axes = append(par.Axes, axis)
	}
	groups := map[string]int{}
	var variants []string
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range cellRows {
		if _, ok := groups[r.Variant]; !ok {
			groups[r.Variant] = len(variants)
			variants = append(variants, r.Variant)
			par.Groups = append(par.Groups, report.ParallelGroup{Name: r.Variant})
		}
		lo, hi = math.Min(lo, *r.Mean), math.Max(hi, *r.Mean)
	}
	par.Axes = append(par.Axes, report.ParallelAxis{Name: "variant", Categories: variants},
		report.ParallelAxis{Name: metric, Log: SpansDecades(lo, hi)})
	for _, r := range cellRows {
		g := groups[r.Variant]
		row := make([]float64, 0, len(par.Axes))
		for j, k := range varying {
			row = append(row, index[j][r.Params[k]])
		}
		row = append(row, float64(g), *r.Mean)
		par.Groups[g].Rows = append(par.Groups[g].Rows, row)
	}
	return par, true
}
