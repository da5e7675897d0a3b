package experiments

import (
	"strings"
	"testing"

	"schedlab/report"
	"schedlab/runtypes"
)

// stoppingRuns: two variants on three instances; "paper" stops on
// instances 1 and 2 (done, no makespan: the critical works method's stop)
// and "heft" schedules all three. The first run of all is a stopped one,
// so a declaration read from the first report would not know makespan.
func stoppingRuns() []RunResult {
	var runs []RunResult
	add := func(v string, i int, m map[string]float64) {
		runs = append(runs, RunResult{Params: map[string]string{"instance": string(rune('0' + i))}, Variant: v,
			Status: runtypes.StatusDone, Replicate: 0, Metrics: m})
	}
	add("paper", 1, map[string]float64{"collisions": 7, "stopped": 1})
	add("heft", 1, map[string]float64{"collisions": 0, "stopped": 0, "makespan": 10})
	add("paper", 0, map[string]float64{"collisions": 2, "stopped": 0, "makespan": 12})
	add("heft", 0, map[string]float64{"collisions": 0, "stopped": 0, "makespan": 11})
	add("paper", 2, map[string]float64{"collisions": 9, "stopped": 1})
	add("heft", 2, map[string]float64{"collisions": 0, "stopped": 0, "makespan": 20})
	add("list", 0, map[string]float64{"collisions": 0, "stopped": 0, "makespan": 15})
	add("list", 1, map[string]float64{"collisions": 0, "stopped": 0, "makespan": 10})
	add("list", 2, map[string]float64{"collisions": 0, "stopped": 0, "makespan": 30})
	return runs
}

var stoppingDecls = []report.Metric{
	{Name: "makespan", Better: report.Lower},
	{Name: "collisions", Variants: []string{"paper"}},
	{Name: "stopped", Variants: []string{"paper"}},
}

// A run that ended done without the makespan its objective needs is
// failed for makespan in every count: the rows (failed, no_result), the
// header, the paired view, the pairwise table and the profile, where it
// is never within τ; the profile is drawn though the first run carried
// no makespan, and the page opens on the primary result, not on
// "collisions" (issues 38 items 3 and 4, 42 item 6).
func TestNoResultIsAFailureEverywhere(t *testing.T) {
	runs := stoppingRuns()
	infos := Infos(stoppingDecls)
	rows := AggregateWith(runs, Options{Keep: []string{}, Infos: infos})
	for _, r := range rows {
		if r.Metric != "makespan" {
			continue
		}
		want := map[string][3]int{"paper": {1, 2, 2}, "heft": {3, 0, 0}, "list": {3, 0, 0}}[r.Variant]
		if r.N != want[0] || r.Failed != want[1] || r.NoResult != want[2] || r.Runs != 3 {
			t.Errorf("%s makespan: n %d failed %d no_result %d runs %d, want n %d failed %d no_result %d of 3",
				r.Variant, r.N, r.Failed, r.NoResult, r.Runs, want[0], want[1], want[2])
		}
	}
	an := Analyze(runs, infos, nil, Query{Variants: []string{"paper", "heft", "list"}, Primary: "makespan"})
	if an.Query.Metric != "makespan" {
		t.Fatalf("the page opens on %q, want the primary result makespan", an.Query.Metric)
	}
	if an.Ended != 9 || an.NoResult != 2 || an.Failed != 0 {
		t.Errorf("header: ended %d, no result %d, failed %d; want 9, 2, 0", an.Ended, an.NoResult, an.Failed)
	}
	if an.Paired == nil || an.Paired.AFailed != 2 || an.Paired.BothDone != 1 {
		t.Errorf("paired paper against heft: %+v, want paper failed on 2, both done on 1", an.Paired)
	}
	if len(an.Pairwise) != 3 || an.Pairwise[0].AFailed != 2 {
		t.Errorf("pairwise: %+v", an.Pairwise)
	}
	if !an.ProfileDrawn {
		t.Fatalf("no performance profile of makespan: %q", an.ProfileCaption)
	}
	// At τ = 1 paper is best on instance 0 only (12 > 11: no, heft is);
	// paper's two stops are never within any τ.
	last := an.Profile.Lines[0].Points[len(an.Profile.Lines[0].Points)-1]
	if an.Profile.Lines[0].Name != "paper" || last[1] > 1.0/3+1e-9 {
		t.Errorf("paper's profile ends at %v, want at most 1/3 (two of three instances unsolved)", last)
	}
	if an.Pivot == nil || !strings.Contains(an.Pivot.CellText(1, indexOf(an.Pivot, "paper")), "(0 of 1 done)") {
		t.Errorf("pivot does not count paper's stop on instance 1: %q", an.Pivot.CellText(1, indexOf(an.Pivot, "paper")))
	}
	// Without the family's declarations the page still opens on a ranked
	// result, never on the alphabetically first metric.
	if an := Analyze(runs, Infos([]report.Metric{{Name: "collisions"}, {Name: "makespan", Better: report.Lower}}), nil, Query{}); an.Query.Metric != "makespan" {
		t.Errorf("opens on %q", an.Query.Metric)
	}
	// A metric not needed of a variant (collisions, declared for paper)
	// is not counted for the others.
	for _, r := range AggregateWith(runs, Options{Keep: []string{}, Infos: Infos([]report.Metric{{Name: "collisions", Variants: []string{"paper"}}})}) {
		if r.Metric == "collisions" && r.Failed != 0 {
			t.Errorf("collisions of %s: failed %d", r.Variant, r.Failed)
		}
	}
}

func indexOf(p *Pivot, variant string) int {
	for j := range p.ColHeads {
		if strings.Contains(p.HeadText(j), variant) {
			return j
		}
	}
	return -1
}
