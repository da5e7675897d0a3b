package execute

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"schedlab/errs"
	"schedlab/runtypes"
	"schedlab/solvers"
)

// GenerateRecipe generates the workload of rec (an experiment's preset
// workload) with strategy s under budget, as Generate does, and returns it
// as the store keeps it (data, preview JSON, name, summary, format): what
// the executing side of a run does before running it, in the server's
// process or in a worker process. An error keeps its kind and field and
// says which workload it was.
func GenerateRecipe(ctx context.Context, s solvers.Strategy, rec *runtypes.Recipe, budget Budget) (*runtypes.Workload, error) {
	w, err := Generate(ctx, s, rec.Preset, rec.Params, rec.Seed, budget)
	if err != nil {
		return nil, &errs.Error{Kind: errs.KindOf(err), Field: errs.FieldOf(err),
			Err: fmt.Errorf("generating workload %s (preset %s, seed %d): %w", rec.WorkloadID, rec.Preset, rec.Seed, err)}
	}
	out := &runtypes.Workload{ID: rec.WorkloadID, Strategy: rec.Strategy, Name: strings.TrimSpace(w.Name), Format: w.Format,
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
	w    *runtypes.Workload
	err  error
}

// Do returns the workload id from gen, run once at a time per id. A
// waiter whose leader was canceled (its run stopped) while the waiter's
// own context is alive generates it itself.
func (g *Generations) Do(ctx context.Context, id string, gen func(context.Context) (*runtypes.Workload, error)) (*runtypes.Workload, error) {
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
			return nil, canceled(ctx)
		case <-c.done:
		}
		if c.err != nil && errs.KindOf(c.err) == errs.Canceled && ctx.Err() == nil {
			continue
		}
		return c.w, c.err
	}
}
