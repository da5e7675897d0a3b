package handlers

import (
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/views"
)

// The pages render view models (views.Run, views.Workload), never the
// store's rows: views knows nothing of storage.

func viewRun(r runtypes.Run) views.Run {
	return views.Run{ID: r.ID, Kind: r.Kind, WorkloadID: r.WorkloadID, Strategy: r.Strategy, Variant: r.Variant,
		Params: r.Params, Seed: r.Seed, Status: r.Shown(), ProgressDone: r.ProgressDone, ProgressTotal: r.ProgressTotal,
		ProgressNote: r.ProgressNote, Error: r.Error, ErrorField: r.ErrorField, RerunOf: r.RerunOf, Owner: r.Owner, Worker: r.Worker,
		Name: r.Name, Tags: r.Tags, Notes: r.Notes, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt}
}

func viewRunPtr(r *runtypes.Run) *views.Run {
	if r == nil {
		return nil
	}
	v := viewRun(*r)
	return &v
}

// mapped is f of each of xs, in order.
func mapped[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func runIDs(runs []runtypes.Run) []string {
	return mapped(runs, func(r runtypes.Run) string { return r.ID })
}

// listRuns are runs as lists show them: with the parameters each changed
// from its strategy's defaults, and those whose values differ between
// the listed runs of its strategy, kind and variant at their value,
// default or not, so runs of one variant tell apart.
func (s *Server) listRuns(rs []runtypes.Run) []views.Run {
	out := mapped(rs, viewRun)
	type group struct{ strategy, kind, variant string }
	params := map[group][]solvers.Params{}
	for _, r := range rs {
		g := group{r.Strategy, r.Kind, r.Variant}
		params[g] = append(params[g], r.Params)
	}
	vary := map[group]map[string]bool{}
	for i, r := range rs {
		if st, err := s.lookup(r.Strategy); err == nil {
			specs := st.Params
			if r.Kind == runtypes.KindReproduce {
				specs = st.ReproduceParams
			}
			g := group{r.Strategy, r.Kind, r.Variant}
			if _, ok := vary[g]; !ok {
				vary[g] = views.VaryingParams(specs, params[g], r.Variant)
			}
			out[i].Changed = views.ChangedParams(specs, r.Params, r.Variant, vary[g])
		}
	}
	return out
}

func viewWorkload(w runtypes.Workload) views.Workload {
	return views.Workload{ID: w.ID, Strategy: w.Strategy, Name: w.Name, Format: w.Format, SHA256: w.SHA256,
		Bytes: w.Bytes, UploadSHA256: w.UploadSHA256, UploadBytes: w.UploadBytes, Summary: w.Summary, Owner: w.Owner, CreatedAt: w.CreatedAt}
}

func viewWorkloads(ws []runtypes.Workload) []views.Workload { return mapped(ws, viewWorkload) }

func viewRunWorkload(w *runtypes.Workload) *views.Workload {
	if w == nil {
		return nil
	}
	v := viewWorkload(*w)
	return &v
}
