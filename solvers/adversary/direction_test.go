package adversary

import (
	"context"
	"errors"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// named is a strategy of which Direction reads only the name and the
// declared metrics, decls.
func named(decls ...report.Metric) *solvers.Strategy {
	return &solvers.Strategy{Info: solvers.Info{Name: "fam"}, Metrics: decls}
}

func TestDirectionFromTheDeclaredMetrics(t *testing.T) {
	st := named(report.Metric{Name: "makespan", Better: report.Lower}, report.Metric{Name: "profit", Better: report.Higher},
		report.Metric{Name: "tasks", Kind: report.KindInfo}, report.Metric{Name: "wall_ms", Kind: report.KindCost, Better: report.Lower})
	probed := false
	probe := func(context.Context) (*report.Report, error) {
		probed = true
		return &report.Report{Metrics: []report.Metric{{Name: "makespan", Better: report.Higher}}}, nil
	}
	for metric, want := range map[string]report.Direction{"makespan": report.Lower, "profit": report.Higher} {
		got, err := Direction(context.Background(), st, metric, probe)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", metric, got, err, want)
		}
	}
	if probed {
		t.Error("a family that declares its metrics was probed by a run")
	}
	for metric, says := range map[string]string{"nope": `unknown metric "nope": fam declares makespan, profit`,
		"tasks": "tasks is not a ranked result", "wall_ms": "wall_ms is not a ranked result", "": "name the metric"} {
		_, err := Direction(context.Background(), st, metric, probe)
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Invalid || e.Field != "metric" || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want an invalid metric saying %q", metric, err, says)
		}
	}
}

func TestDirectionFromAReportWithoutDeclarations(t *testing.T) {
	rep := &report.Report{Metrics: []report.Metric{{Name: "profit", Better: report.Higher}}}
	got, err := Direction(context.Background(), named(), "profit", func(context.Context) (*report.Report, error) { return rep, nil })
	if err != nil || got != report.Higher {
		t.Errorf("%q, %v; want higher from the report", got, err)
	}
	if _, err := Direction(context.Background(), named(), "makespan", func(context.Context) (*report.Report, error) { return rep, nil }); err == nil ||
		!strings.Contains(err.Error(), "fam reports profit") {
		t.Errorf("a metric the report lacks: %v", err)
	}
	if _, err := Direction(context.Background(), named(), "profit", func(context.Context) (*report.Report, error) { return nil, errNoRun }); err == nil ||
		!strings.Contains(err.Error(), errNoRun.Error()) {
		t.Errorf("no run: %v", err)
	}
}
