package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/store"
)

// GenerateRecipe generates the workload of rec (an experiment's preset
// workload, store.Recipe) with strategy s under budget, as ExecuteGenerate
// does, and returns it as the store keeps it (data, preview JSON, name,
// summary, format): what the executing side of a run does before running
// it, in this process or in a worker process. An error keeps its kind and
// field and says which workload it was.
func GenerateRecipe(ctx context.Context, s solvers.Strategy, rec *store.Recipe, budget Budget) (*store.Workload, error) {
	w, err := ExecuteGenerate(ctx, s, rec.Preset, rec.Params, rec.Seed, budget)
	if err != nil {
		return nil, &errs.Error{Kind: errs.KindOf(err), Field: errs.FieldOf(err),
			Err: fmt.Errorf("generating workload %s (preset %s, seed %d): %w", rec.WorkloadID, rec.Preset, rec.Seed, err)}
	}
	out := &store.Workload{ID: rec.WorkloadID, Strategy: rec.Strategy, Name: strings.TrimSpace(w.Name), Format: w.Format,
		Summary: w.Summary, Data: w.Data, Owner: rec.Owner}
	if out.Name == "" {
		out.Name = fmt.Sprintf("%s seed %d", rec.Preset, rec.Seed)
	}
	if w.Preview != nil {
		if out.Preview, err = json.Marshal(w.Preview); err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
	}
	return out, nil
}

// Generations makes sure a workload to be generated is generated once by
// this process however many of its runs start at once: the first caller
// generates, the others wait for it (a singleflight by workload ID).
type Generations struct {
	mu    sync.Mutex
	calls map[string]*generation
}

type generation struct {
	done chan struct{}
	w    *store.Workload
	err  error
}

// Do returns the workload id from gen, run once at a time per id. A
// waiter whose leader was canceled (its run stopped) while the waiter's
// own context is alive generates it itself.
func (g *Generations) Do(ctx context.Context, id string, gen func(context.Context) (*store.Workload, error)) (*store.Workload, error) {
	for {
		g.mu.Lock()
		if g.calls == nil {
			g.calls = map[string]*generation{}
		}
		c, waiting := g.calls[id]
		if !waiting {
			c = &generation{done: make(chan struct{})}
			g.calls[id] = c
		}
		g.mu.Unlock()
		if !waiting {
			c.w, c.err = gen(ctx)
			g.mu.Lock()
			delete(g.calls, id)
			g.mu.Unlock()
			close(c.done)
			return c.w, c.err
		}
		select {
		case <-ctx.Done():
			return nil, canceled("runner", ctx)
		case <-c.done:
		}
		if c.err != nil && errs.KindOf(c.err) == errs.Canceled && ctx.Err() == nil {
			continue
		}
		return c.w, c.err
	}
}

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
			return nil, &errs.Error{Kind: errs.NotFound, Field: "strategy",
				Err: fmt.Errorf("strategy %q is not in this build of schedlab", rec.Strategy)}
		}
		gw, err := GenerateRecipe(ctx, s, rec, r.Budget())
		if err != nil {
			return nil, err
		}
		return r.st.FillWorkload(context.WithoutCancel(ctx), id, gw)
	})
}
