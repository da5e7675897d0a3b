package compare

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"schedlab/report"
)

// Kinds of Field.
const (
	FieldFamily   = "family"
	FieldWorkload = "workload"
	FieldVariant  = "variant"
	FieldParam    = "param"
	FieldSeed     = "seed"
	FieldResource = "resource"
)

// Field is one property of the compared runs: Values[i] is run i's ("" where
// it has none). Differs says the values are not all equal.
type Field struct {
	Kind    string // FieldFamily, FieldWorkload, …
	Name    string // "variant", "policy", "processors": what a label calls it
	Values  []string
	Differs bool
}

// Fields returns the runs' fields, those that differ first, each part in
// the order family, workload, variant, parameters (by name), seed,
// resources (in report.ResourceMetrics order). reports[i] is run i's
// report (nil or empty where it has none); resources are read from its
// metrics. A resource no run reports is left out, and so is a seed where
// every run has 0 (no seed asked). A resource is read from an info metric
// (report.KindInfo) only.
func Fields(runs []Run, reports []*report.Report) []Field {
	n := len(runs)
	col := func(kind, name string, value func(int) string) Field {
		f := Field{Kind: kind, Name: name, Values: make([]string, n)}
		for i := range runs {
			f.Values[i] = value(i)
			if f.Values[i] != f.Values[0] {
				f.Differs = true
			}
		}
		return f
	}
	all := []Field{
		col(FieldFamily, "family", func(i int) string { return runs[i].Strategy }),
		col(FieldWorkload, "workload", workloadNames(runs)),
		col(FieldVariant, "variant", func(i int) string { return runs[i].variant() }),
	}
	names := map[string]bool{}
	for _, r := range runs {
		for k := range r.Params {
			names[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(names)) {
		all = append(all, col(FieldParam, k, func(i int) string { return runs[i].Params[k] }))
	}
	seeds := col(FieldSeed, "seed", func(i int) string { return strconv.FormatInt(runs[i].Seed, 10) })
	if seeds.Differs || seeds.Values[0] != "0" {
		all = append(all, seeds)
	}
	for _, name := range report.ResourceMetrics() {
		reported := false
		f := col(FieldResource, name, func(i int) string {
			v, ok := infoValue(reportAt(reports, i), name)
			if !ok {
				return ""
			}
			reported = true
			return num(v)
		})
		if reported {
			all = append(all, f)
		}
	}
	out := make([]Field, 0, len(all))
	for _, f := range all {
		if f.Differs {
			out = append(out, f)
		}
	}
	for _, f := range all {
		if !f.Differs {
			out = append(out, f)
		}
	}
	return out
}

// workloadNames names each run's workload by its name, with its id where
// two workloads of the runs share a name (or it has none); "" for a
// reproduction, which has no workload.
func workloadNames(runs []Run) func(int) string {
	ids := map[string]map[string]bool{}
	for _, r := range runs {
		if ids[r.WorkloadName] == nil {
			ids[r.WorkloadName] = map[string]bool{}
		}
		ids[r.WorkloadName][r.WorkloadID] = true
	}
	return func(i int) string {
		r := runs[i]
		switch {
		case r.WorkloadID == "":
			return ""
		case r.WorkloadName == "" || len(ids[r.WorkloadName]) > 1:
			return strings.TrimSpace(r.WorkloadName + " " + r.WorkloadID)
		}
		return r.WorkloadName
	}
}

// Labels names each run by its values of the differing fields (see the
// package doc): "easy", "policy=easy", "heft, processors=4".
func Labels(runs []Run, fields []Field) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		var parts []string
		for _, f := range fields {
			if !f.Differs {
				continue
			}
			v := cmp.Or(f.Values[i], "—")
			if f.Kind == FieldVariant {
				parts = append(parts, v)
			} else {
				parts = append(parts, f.Name+"="+v)
			}
		}
		switch {
		case len(parts) > 0:
			out[i] = strings.Join(parts, ", ")
		case r.Name != "":
			out[i] = r.Name
		default:
			out[i] = "run " + strconv.Itoa(i+1)
		}
	}
	seen := map[string]int{}
	for _, l := range out {
		seen[l]++
	}
	for i, l := range out {
		if seen[l] > 1 {
			out[i] = l + " #" + strconv.Itoa(i+1)
		}
	}
	return out
}

// num writes a metric's value as short as it reads back exactly.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func reportAt(reports []*report.Report, i int) *report.Report {
	if i < len(reports) {
		return reports[i]
	}
	return nil
}

// infoValue is the value of the report's info metric of that name (a
// resource is stated as an info metric; a result of the same name, such
// as the processors a schedule used, is not what the run had).
func infoValue(r *report.Report, name string) (float64, bool) {
	if r == nil {
		return 0, false
	}
	for _, m := range r.Metrics {
		if m.Name == name && m.Kind == report.KindInfo {
			return m.Value, true
		}
	}
	return 0, false
}
