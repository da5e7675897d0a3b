package cyclic

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

// TestAlternativesAreTheCyclicSchemes: backfill starts each job in the one
// window it finds, so its n_alternatives is 1 per planned job by
// construction and not meaningful; the slot model's utilization is every
// slot variant's (and not batch's).
func TestAlternativesAreTheCyclicSchemes(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "12", "jobs": "8"})
	for _, v := range s.VariantsFor(w.Format) {
		r, err := s.Run(context.Background(), w, v.Name, solvers.Params{"cycles": "4"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if err := solverstest.CheckMetricVariants(s, r); err != nil {
			t.Error(err)
		}
		alt, _ := r.Metric("n_alternatives")
		if got, want := alt.MeaningfulFor(v.Name), v.Name != VariantBackfill; got != want {
			t.Errorf("n_alternatives of %s: meaningful %v, want %v", v.Name, got, want)
		}
		if v.Name == VariantBackfill {
			planned, _ := r.Metric("jobs_planned")
			jobs := planned.Value + metricOf(t, r, "jobs_postponed")
			if want := planned.Value / jobs; alt.Value != want {
				t.Errorf("backfill's n_alternatives %v, want planned / jobs = %v (one window each)", alt.Value, want)
			}
		}
		if u, _ := r.Metric("utilization"); !u.MeaningfulFor(v.Name) || u.MeaningfulFor(VariantBatch) {
			t.Errorf("utilization of %s declares %q", v.Name, u.Variants)
		}
		for _, m := range r.Metrics {
			if m.Name != "n_alternatives" && !m.MeaningfulFor(v.Name) {
				t.Errorf("%s of %s is not meaningful for its own variant", m.Name, v.Name)
			}
		}
	}
}

// TestCSSPlansTheWholeBatchWhateverK: css plans the batch at once (its
// table row), so k changes nothing and the report says it is ignored;
// fair cuts the batch into k sub-batches, which changes its plans.
func TestCSSPlansTheWholeBatchWhateverK(t *testing.T) {
	in, err := Generate(smallGen(3))
	if err != nil {
		t.Fatal(err)
	}
	run := func(variant string, k int) *Result {
		res, err := RunConfig(t.Context(), in, SimConfig{Variant: variant, Strategy: StratRuntime, K: k, Cycles: 20, GanttCycle: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res.Gantt = nil
		return res
	}
	if a, b := run(VariantCSS, 1), run(VariantCSS, 5); !reflect.DeepEqual(a.Cycles, b.Cycles) {
		t.Error("css with k = 5 differs from k = 1")
	}
	if a, b := run(VariantFair, 1), run(VariantFair, 5); reflect.DeepEqual(a.Cycles, b.Cycles) {
		t.Error("fair with k = 5 plans as k = 1: the sub-batches are not cut")
	}
	notes := strings.Join(runNotes(in, SimConfig{Variant: VariantCSS, Strategy: StratRuntime, K: 5, Cycles: 1}, &Result{}), "\n")
	if !strings.Contains(notes, "k = 1,") || !strings.Contains(notes, "k is ignored") {
		t.Errorf("css notes with k = 5 do not say k is 1 and ignored:\n%s", notes)
	}
}
