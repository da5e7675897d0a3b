package runner

import (
	"context"
	"fmt"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/store"
)

// readWorkload reads workload id for a run: its data, generated first
// (and stored) when it is an experiment's recipe not generated yet.
func (r *Runner) readWorkload(ctx context.Context, id string) (*store.Workload, error) {
	w, err := r.st.GetWorkloadData(ctx, id)
	if err != nil || w.SHA256 != "" {
		return w, err
	}
	return r.gens.Do(ctx, id, func(ctx context.Context) (*store.Workload, error) {
		rec, err := r.st.WorkloadRecipe(ctx, id)
		if err != nil {
			return nil, err
		}
		if rec == nil { // generated meanwhile
			return r.st.GetWorkloadData(ctx, id)
		}
		s, ok := r.lookup(rec.Strategy)
		if !ok {
			return nil, &errs.Error{Op: "runner", Kind: errs.NotFound, Field: "strategy",
				Err: fmt.Errorf("strategy %q is not in this build of schedlab", rec.Strategy)}
		}
		gw, err := execute.GenerateRecipe(ctx, s, rec, r.Budget())
		if err != nil {
			return nil, err
		}
		return r.st.FillWorkload(context.WithoutCancel(ctx), id, gw)
	})
}
