package runner

import (
	"context"
	"log/slog"

	"schedlab/report"
	"schedlab/solvers"
	"schedlab/store"
)

// MetricNeeds are the results a done run of each variant of strategies
// must give (report.Needed of their declared metrics), as the store
// judges runs without a result by them (store.SetMetricNeeds).
func MetricNeeds(strategies []*solvers.Strategy) []store.MetricNeed {
	var out []store.MetricNeed
	for _, st := range strategies {
		decls := st.Metrics
		for _, v := range st.Variants {
			for _, m := range decls {
				if report.Needed(m, v.Name) {
					out = append(out, store.MetricNeed{Strategy: st.Info.Name, Variant: v.Name, Name: m.Name})
				}
			}
		}
	}
	return out
}

// SetMetricNeeds gives st the results strategies' runs must give
// (MetricNeeds), which judges again the done runs of those whose needs
// changed; the server calls it when it starts, before serving.
func SetMetricNeeds(ctx context.Context, st *store.Store, strategies []*solvers.Strategy, log *slog.Logger) error {
	judged, err := st.SetMetricNeeds(ctx, MetricNeeds(strategies))
	if err != nil {
		return err
	}
	if len(judged) > 0 {
		log.Info("runs without a result judged again by their families' declarations", "strategies", judged)
	}
	return nil
}
