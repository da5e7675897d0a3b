package adversary

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// Direction is the declared direction (report.Higher or report.Lower)
// of the metric a search compares. A family that declares its metrics
// (Def.Metrics, Strategy.Metrics; issue 38) is read from its
// declarations alone: a name it does not declare, or declares without a
// direction or not as a result, is refused, naming the ranked result
// metrics it has. A family that declares none is read, as pages read it,
// from a report: probe runs A (or B) on a first instance and returns its
// report (nil with an error when neither runs).
func Direction(ctx context.Context, st *solvers.Strategy, metric string, probe func(context.Context) (*report.Report, error)) (report.Direction, error) {
	bad := func(format string, a ...any) error {
		return &errs.Error{Kind: errs.Invalid, Field: "metric", Err: fmt.Errorf(format, a...)}
	}
	if metric == "" {
		return "", bad("name the metric to compare")
	}
	decls := st.Metrics
	from := "declares"
	if decls == nil {
		if probe == nil {
			return "", bad("%s declares no metrics and nothing ran to read %s's direction from", st.Info.Name, metric)
		}
		rep, err := probe(ctx)
		if err != nil {
			return "", bad("%s declares no metrics, and the run read for %s's direction failed: %v", st.Info.Name, metric, err)
		}
		decls, from = rep.Metrics, "reports"
	}
	var ranked []string
	for _, m := range decls {
		ok := m.Kind == report.KindResult && (m.Better == report.Higher || m.Better == report.Lower)
		if m.Name == metric {
			if !ok {
				return "", bad("%s is not a ranked result metric of %s (no better direction, or not a result)", metric, st.Info.Name)
			}
			return m.Better, nil
		}
		if ok {
			ranked = append(ranked, m.Name)
		}
	}
	if len(ranked) == 0 {
		return "", bad("%s %s no metric %q and no ranked result metric at all", st.Info.Name, from, metric)
	}
	return "", bad("unknown metric %q: %s %s %s", metric, st.Info.Name, from, strings.Join(ranked, ", "))
}

// errNoRun is a probe's error when neither side ran.
var errNoRun = errors.New("neither A nor B runs on the first instance")

// Probe is the usual probe of Direction: run A, else B, on w with run.
func Probe(cfg Config, w *solvers.Workload, run func(ctx context.Context, w *solvers.Workload, s Side) (*report.Report, error)) func(context.Context) (*report.Report, error) {
	return func(ctx context.Context) (*report.Report, error) {
		for _, s := range []Side{cfg.A, cfg.B} {
			if rep, err := run(ctx, w, s); err == nil {
				return rep, nil
			}
		}
		return nil, errNoRun
	}
}
