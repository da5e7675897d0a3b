package cyclic

import (
	"context"
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
	for _, v := range solvers.VariantsFor(s, w.Format) {
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
