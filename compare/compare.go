package compare

import (
	"slices"
	"strings"

	"schedlab/report"
)

// Run is one compared run: what compare needs to know of it besides its
// report.
type Run struct {
	ID   string
	Name string // the name a user gave the run; may be empty
	// Reproduce: a reproduction of a seed experiment (no workload, no
	// variant).
	Reproduce    bool
	Strategy     string
	WorkloadID   string
	WorkloadName string
	Variant      string
	// Reference: the variant computes a bound or an optimum
	// (solvers.Variant.Reference), never ranked.
	Reference bool
	Params    map[string]string // resolved: every parameter, defaults included
	Seed      int64
}

// variant is the variant a label shows: "reproduce" for a reproduction.
func (r Run) variant() string {
	if r.Reproduce {
		return "reproduce"
	}
	return r.Variant
}

// Row is one metric across the compared runs; Values[i] is nil where run i
// lacks it.
type Row struct {
	Name   string
	Unit   string
	Better report.Direction  // report.Higher, Lower or ""
	Kind   report.MetricKind // report.KindResult, KindCost or KindInfo
	Values []*float64
	// Best marks the runs holding the best value, when the row is ranked.
	Best []bool
	// NA marks the runs whose variant the metric is not meaningful for
	// (report.Metric.Variants): shown "n/a", never best, not in the bars.
	NA []bool
	// Apart marks the runs whose metric of this name is defined for other
	// variants than the ranked runs' (gossip's rumor beside gossip): shown,
	// not ranked against the others.
	Apart []bool
	// Ranked says the best value among the runs was looked for: a result
	// with a direction, on equal terms, at least two comparable values.
	Ranked bool
	// Bound: the metric is a bound or an optimum (IsBoundMetric), a
	// reference, never ranked.
	Bound bool
	// Unranked, for a result with a direction that is not ranked, says
	// why ("processors differ (4, 40)").
	Unranked string
	// NoResult, where run i has a report but no value of a result the
	// metric's declaration asks of its variant (report.NoResult: a
	// critical-works run that stopped has no makespan), says so with the
	// reason its report gives: a failure for this metric, not a blank.
	NoResult []string
}

// Bars is one metric as a bar chart: a bar per run not omitted.
type Bars struct {
	Metric, Unit string
	Better       report.Direction
	Kind         report.MetricKind
	Labels       []string
	Values       []*float64
	Best         []bool // the ranked best; all false for a cost or an unranked result
	Omit         []bool // NA or Apart: not drawn
	Reference    []bool // a reference run: drawn marked as such
	Ranked       bool
}

// Result is a compare of runs, in the order of the runs given.
type Result struct {
	// Fields are the runs' family, workload, variant, parameters, seed and
	// resources, those that differ first (Fields).
	Fields []Field
	// Labels name the runs by what differs (Labels); never an id.
	Labels []string
	// Reference marks the runs whose variant is a reference.
	Reference []bool
	Metrics   []Row
	// Ranked: results are ranked (one family, equal terms); Notes say why
	// not, and what else to keep in mind.
	Ranked bool
	Notes  []string
	// Bars has a bar chart per result metric, Costs one per cost metric
	// (runs of one family only).
	Bars, Costs []Bars
}

// IsBoundMetric says whether a metric's name makes it a bound or an
// optimum, a reference rather than a result: lower_bound and upper_bound,
// alone or with a prefix or suffix (lp_upper_bound, lower_bound_jobs),
// and any optimal_*. A ratio to a bound (makespan_over_bound) is a result.
func IsBoundMetric(name string) bool {
	for _, b := range []string{"lower_bound", "upper_bound"} {
		if name == b || strings.HasSuffix(name, "_"+b) || strings.HasPrefix(name, b+"_") {
			return true
		}
	}
	return strings.HasPrefix(name, "optimal_")
}

// Join compares runs by their reports (reports[i] is run i's; nil or empty
// where it has none: a run not finished or failed). See the package doc
// for what is ranked and how runs are named.
func Join(runs []Run, reports []*report.Report) Result {
	n := len(runs)
	res := Result{Fields: Fields(runs, reports), Reference: make([]bool, n)}
	res.Labels = Labels(runs, res.Fields)
	for i, r := range runs {
		res.Reference[i] = r.Reference
	}
	index := map[string]int{}
	// declared[k][i] is the variants run i's metric k is meaningful for.
	var declared [][][]string
	for i := range runs {
		rep := reportAt(reports, i)
		if rep == nil {
			continue
		}
		for _, m := range rep.Metrics {
			k, ok := index[m.Name]
			if !ok {
				k = len(res.Metrics)
				index[m.Name] = k
				res.Metrics = append(res.Metrics, Row{Name: m.Name, Unit: m.Unit, Better: m.Better, Kind: m.Kind, Bound: IsBoundMetric(m.Name),
					Values: make([]*float64, n), Best: make([]bool, n), NA: make([]bool, n), Apart: make([]bool, n)})
				declared = append(declared, make([][]string, n))
			}
			v := m.Value
			res.Metrics[k].Values[i] = &v
			res.Metrics[k].NA[i] = !m.MeaningfulFor(runs[i].Variant)
			declared[k][i] = m.Variants
		}
	}
	for k := range res.Metrics {
		m := &res.Metrics[k]
		decl := report.Metric{Name: m.Name, Kind: m.Kind, Better: m.Better}
		for i := range runs {
			if m.Values[i] != nil {
				decl.Variants = declared[k][i]
				break
			}
		}
		for i := range runs {
			rep := reportAt(reports, i)
			if m.Values[i] != nil || rep == nil || len(rep.Metrics) == 0 || runs[i].Reproduce || m.Bound ||
				!report.NoResult(decl, runs[i].Variant, 0, false) {
				continue
			}
			if m.NoResult == nil {
				m.NoResult = make([]string, n)
			}
			m.NoResult[i] = report.NoResultReason([]string{m.Name}, rep.StopReason())
		}
	}
	oneFamily := true
	for _, r := range runs {
		oneFamily = oneFamily && r.Strategy == runs[0].Strategy
	}
	var unequal []string
	if !oneFamily {
		res.Notes = append(res.Notes, "These runs are of different families: their metrics are shown side by side, none is ranked (units and definitions differ).")
	} else {
		unequal = Unequal(runs, res.Fields, reported(reports))
		if len(unequal) > 0 {
			res.Notes = append(res.Notes, "Not ranked: "+strings.Join(unequal, "; ")+". A result is ranked only among runs on the same workload with the same resources; these are shown side by side.")
		}
	}
	res.Ranked = oneFamily && len(unequal) == 0
	if slices.Contains(res.Reference, true) {
		res.Notes = append(res.Notes, "A run marked reference computes a bound or an optimum: its values are a yardstick, never ranked or best.")
	}
	for k := range res.Metrics {
		m := &res.Metrics[k]
		if m.Kind != report.KindResult || m.Bound || (m.Better != report.Higher && m.Better != report.Lower) {
			continue
		}
		if !oneFamily {
			m.Unranked = "runs of different families"
			continue
		}
		if len(unequal) > 0 {
			m.Unranked = strings.Join(unequal, "; ")
			continue
		}
		if markApart(m, runs, declared[k]) >= 2 {
			m.Ranked = true
			markBest(m, res.Reference)
		}
	}
	if oneFamily {
		for _, m := range res.Metrics {
			b := Bars{Metric: m.Name, Unit: m.Unit, Better: m.Better, Kind: m.Kind, Labels: res.Labels, Values: m.Values,
				Best: m.Best, Omit: make([]bool, n), Reference: res.Reference, Ranked: m.Ranked}
			drawn := 0
			for i := range b.Omit {
				b.Omit[i] = m.NA[i] || m.Apart[i]
				if !b.Omit[i] && m.Values[i] != nil {
					drawn++
				}
			}
			if drawn < 2 || m.Bound {
				continue
			}
			switch m.Kind {
			case report.KindResult:
				res.Bars = append(res.Bars, b)
			case report.KindCost:
				res.Costs = append(res.Costs, b)
			}
		}
	}
	return res
}

// reported marks the runs whose report has metrics.
func reported(reports []*report.Report) func(int) bool {
	return func(i int) bool {
		r := reportAt(reports, i)
		return r != nil && len(r.Metrics) > 0
	}
}

// Unequal says what keeps the runs for which has(i) holds, reference runs
// left out, from being on equal terms: "the workloads differ (KTH,
// Montage)", "processors differ (4, 40)", one phrase per workload or
// resource field, in field order; nil when they are on equal terms. A
// resource some runs do not report is compared among those that do.
func Unequal(runs []Run, fields []Field, has func(int) bool) []string {
	var out []string
	for _, f := range fields {
		if !f.Differs || (f.Kind != FieldWorkload && f.Kind != FieldResource) {
			continue
		}
		var values []string
		for i, v := range f.Values {
			if !has(i) || runs[i].Reference || v == "" || slices.Contains(values, v) {
				continue
			}
			values = append(values, v)
		}
		if len(values) < 2 {
			continue
		}
		what := f.Name + " differ"
		if f.Kind == FieldWorkload {
			what = "the workloads differ"
		}
		out = append(out, what+" ("+strings.Join(values, ", ")+")")
	}
	return out
}

// markApart splits the runs that have a meaningful value of metric m
// (m.NA false) into groups whose metrics are comparable: runs i and j are
// when each one's declared variants (declared[i]; empty: all) hold the
// other's variant, so that both numbers measure one thing. A run joins
// the first group every member of which it is comparable with. The
// largest group (the first of equal ones) is ranked; the runs of the
// others are marked Apart. It returns the size of the ranked group,
// reference runs not counted.
func markApart(m *Row, runs []Run, declared [][]string) int {
	holds := report.Covers
	var groups [][]int
	for i, v := range m.Values {
		if v == nil || m.NA[i] {
			continue
		}
		joined := false
		for g := range groups {
			ok := true
			for _, j := range groups[g] {
				ok = ok && holds(declared[i], runs[j].Variant) && holds(declared[j], runs[i].Variant)
			}
			if ok {
				groups[g] = append(groups[g], i)
				joined = true
				break
			}
		}
		if !joined {
			groups = append(groups, []int{i})
		}
	}
	if len(groups) == 0 {
		return 0
	}
	ranked := 0
	for g := range groups {
		if len(groups[g]) > len(groups[ranked]) {
			ranked = g
		}
	}
	for g := range groups {
		if g != ranked {
			for _, i := range groups[g] {
				m.Apart[i] = true
			}
		}
	}
	size := 0
	for _, i := range groups[ranked] {
		if !runs[i].Reference {
			size++
		}
	}
	return size
}

// markBest marks the runs holding the best value; nothing is marked when the
// metric has no direction or fewer than two runs have it, or all are equal.
// The runs the metric is not meaningful for (NA), not comparable with the
// others (Apart) or that are references take no part.
func markBest(m *Row, reference []bool) {
	if m.Better != report.Higher && m.Better != report.Lower {
		return
	}
	ranked := func(i int) bool {
		return m.Values[i] != nil && !m.NA[i] && !m.Apart[i] && !(i < len(reference) && reference[i])
	}
	var best *float64
	n := 0
	for i, v := range m.Values {
		if !ranked(i) {
			continue
		}
		n++
		if best == nil || (m.Better == report.Higher && *v > *best) || (m.Better == report.Lower && *v < *best) {
			best = v
		}
	}
	if n < 2 {
		return
	}
	all := true
	for i, v := range m.Values {
		if ranked(i) && *v != *best {
			all = false
		}
	}
	if all {
		return
	}
	for i, v := range m.Values {
		m.Best[i] = ranked(i) && *v == *best
	}
}
