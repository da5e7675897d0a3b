package execute

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	"schedlab/errs"
	"schedlab/flight"
	"schedlab/runtypes"
	"schedlab/solvers"
)

// GenerateRecipe generates the workload of rec (an experiment's preset
// workload) with strategy s under budget, as Generate does, and returns it
// as the store keeps it (data, preview JSON, name, summary, format): what
// the executing side of a run does before running it, in the server's
// process or in a worker process. An error keeps its kind and field and
// says which workload it was.
func GenerateRecipe(ctx context.Context, s *solvers.Strategy, rec *runtypes.Recipe, budget solvers.Budget) (*runtypes.Workload, error) {
	w, err := Generate(ctx, s, rec.Preset, rec.Params, rec.Seed, budget)
	if err != nil {
		return nil, &errs.Error{Kind: errs.KindOf(err), Field: errs.FieldOf(err),
			Err: fmt.Errorf("generating workload %s (preset %s, seed %d): %w", rec.WorkloadID, rec.Preset, rec.Seed, err)}
	}
	out := &runtypes.Workload{ID: rec.WorkloadID, Strategy: rec.Strategy, Name: strings.TrimSpace(w.Name), Format: w.Format,
		Summary: w.Summary, Data: w.Data, Owner: rec.Owner}
	out.Name = cmp.Or(out.Name, fmt.Sprintf("%s seed %d", rec.Preset, rec.Seed))
	if w.Preview != nil {
		if out.Preview, err = json.Marshal(w.Preview); err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
	}
	return out, nil
}

// Generations makes sure a workload to be generated is generated once by
// this process however many of its runs start at once: the first caller
// generates, the others wait for it (package flight, by workload ID).
type Generations struct {
	flights flight.Group[*runtypes.Workload]
}

// Do returns the workload id from gen, run once at a time per id. A
// caller whose context ends returns at once (run stopped); the generation
// goes on for the others, under its first caller's context. A waiter
// whose leader was canceled (its run stopped) while the waiter's own
// context is alive generates it itself.
func (g *Generations) Do(ctx context.Context, id string, gen func(context.Context) (*runtypes.Workload, error)) (*runtypes.Workload, error) {
	for {
		var led atomic.Bool // this caller's gen ran
		w, err := g.flights.Do(ctx, id, func() (*runtypes.Workload, error) { led.Store(true); return gen(ctx) })
		if ctx.Err() != nil {
			return nil, canceled(ctx)
		}
		if err != nil && !led.Load() && errs.KindOf(err) == errs.Canceled {
			continue // the leader's run stopped, not this one
		}
		return w, err
	}
}
