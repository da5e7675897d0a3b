package critical

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"schedlab/report"
	"schedlab/solvers"
)

// TestDeclaredMetricsAreTheReports: the family's declared metrics are the
// ones a complete run (heft) reports, with the same unit, direction, kind
// and variants; a critical-works run that stops (a deadline far below the
// critical work) leaves them out and says why in a STOPPED note, which
// solvers.Missing and StopReason read (issue 38 items 3 and 4).
func TestDeclaredMetricsAreTheReports(t *testing.T) {
	s := New()
	decls := s.Metrics
	if report.Primary(decls) != "makespan" {
		t.Fatalf("primary %q, want makespan", report.Primary(decls))
	}
	w := genWorkload(t, nil, 7)
	full, err := s.Run(context.Background(), w, VariantHEFT, solvers.Params{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range decls {
		found := false
		for _, m := range full.Metrics {
			if m.Name == d.Name {
				found = true
				m.Value = 0
				if !reflect.DeepEqual(m, d) {
					t.Errorf("declared %+v, reported %+v", d, m)
				}
			}
		}
		if !found {
			t.Errorf("%s is declared but heft does not report it", d.Name)
		}
	}
	stopped, err := s.Run(context.Background(), w, VariantCritical, solvers.Params{"deadline_factor": "0.01"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	missing := stopped.Missing(decls, VariantCritical)
	if !reflect.DeepEqual(missing, []string{"makespan", "makespan_over_bound", "processor_load_mean", "processor_load_deadline", "cost"}) {
		t.Errorf("a stopped run misses %q", missing)
	}
	if r := stopped.StopReason(); !strings.HasPrefix(r, "STOPPED") {
		t.Errorf("stop reason %q", r)
	}
	if m := full.Missing(decls, VariantHEFT); len(m) != 0 {
		t.Errorf("heft misses %q", m)
	}
}
