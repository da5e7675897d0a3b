package compare

import (
	"strings"
	"testing"

	"schedlab/report"
)

// A run whose report has no value of a ranked result asked of its variant
// (critical-works that stopped: no makespan) shows the failure with the
// reason its report gives, not a blank; a metric declared for other
// variants is not asked of it (issue 38 item 3).
func TestJoinShowsANoResultRunWithItsReason(t *testing.T) {
	runs := []Run{{ID: "a", Strategy: "critical", WorkloadID: "w", Variant: "critical-works"},
		{ID: "b", Strategy: "critical", WorkloadID: "w", Variant: "heft"}}
	stopped := &report.Report{Metrics: []report.Metric{{Name: "stopped", Value: 1, Variants: []string{"critical-works"}}},
		Notes: []string{"Collisions: 3 pairs.", "STOPPED: every one of the 4 variants kept a collision."}}
	heft := &report.Report{Metrics: []report.Metric{{Name: "makespan", Value: 10, Better: report.Lower},
		{Name: "heft_only", Value: 2, Better: report.Lower, Variants: []string{"heft"}}, {Name: "stopped", Value: 0, Variants: []string{"critical-works"}}}}
	res := Join(runs, []*report.Report{stopped, heft})
	for _, m := range res.Metrics {
		switch m.Name {
		case "makespan":
			if len(m.NoResult) != 2 || !strings.HasPrefix(m.NoResult[0], "no makespan: STOPPED: every one") || m.NoResult[1] != "" {
				t.Errorf("makespan no-result %q", m.NoResult)
			}
		case "heft_only":
			if len(m.NoResult) != 0 {
				t.Errorf("heft_only is not asked of critical-works: %q", m.NoResult)
			}
		}
	}
}
