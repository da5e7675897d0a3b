package adversary

import (
	"context"
	"errors"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

// named is a strategy of which Direction reads only the name and the
// declared metrics, decls.
func named(decls ...solvers.Metric) *solvers.Strategy {
	return &solvers.Strategy{Info: solvers.Info{Name: "fam"}, Metrics: decls}
}

func TestDirectionFromTheDeclaredMetrics(t *testing.T) {
	st := named(solvers.Metric{Name: "makespan", Better: solvers.Lower}, solvers.Metric{Name: "profit", Better: solvers.Higher},
		solvers.Metric{Name: "tasks", Kind: solvers.KindInfo}, solvers.Metric{Name: "wall_ms", Kind: solvers.KindCost, Better: solvers.Lower})
	probed := false
	probe := func(context.Context) (*solvers.Report, error) {
		probed = true
		return &solvers.Report{Metrics: []solvers.Metric{{Name: "makespan", Better: solvers.Higher}}}, nil
	}
	for metric, want := range map[string]string{"makespan": solvers.Lower, "profit": solvers.Higher} {
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
	rep := &solvers.Report{Metrics: []solvers.Metric{{Name: "profit", Better: solvers.Higher}}}
	got, err := Direction(context.Background(), named(), "profit", func(context.Context) (*solvers.Report, error) { return rep, nil })
	if err != nil || got != solvers.Higher {
		t.Errorf("%q, %v; want higher from the report", got, err)
	}
	if _, err := Direction(context.Background(), named(), "makespan", func(context.Context) (*solvers.Report, error) { return rep, nil }); err == nil ||
		!strings.Contains(err.Error(), "fam reports profit") {
		t.Errorf("a metric the report lacks: %v", err)
	}
	if _, err := Direction(context.Background(), named(), "profit", func(context.Context) (*solvers.Report, error) { return nil, errNoRun }); err == nil ||
		!strings.Contains(err.Error(), errNoRun.Error()) {
		t.Errorf("no run: %v", err)
	}
}
