package adversaries

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/solvers/adversary"
)

// State is a stored search as the page and the API show it.
type State struct {
	ID        string
	Strategy  string
	Owner     string
	Status    string // store.SearchRunning, SearchDone, SearchFailed, SearchCanceled
	Error     string
	Spec      Spec
	Build     runtypes.Build
	CreatedAt time.Time
	EndedAt   *time.Time
	// Evaluations are the candidates so far, in order; Best the best of
	// them (nil before any), its instance the workload BestWorkloadID
	// and its runs RunA and RunB (kept while it is the best).
	Evaluations    []adversary.Evaluation
	Best           *adversary.Evaluation
	BestWorkloadID string
	RunA, RunB     string
}

// State reads search id.
func (d *Driver) State(ctx context.Context, id string) (*State, error) {
	a, err := d.st.GetAdversarySearch(ctx, id)
	if err != nil {
		return nil, err
	}
	s := &State{ID: a.ID, Strategy: a.Strategy, Owner: a.Owner, Status: a.Status, Error: a.Error, Build: a.Build,
		CreatedAt: a.CreatedAt, EndedAt: a.EndedAt, BestWorkloadID: a.BestWorkloadID}
	if err := json.Unmarshal(a.Config, &s.Spec); err != nil {
		return nil, fmt.Errorf("search %s: its configuration: %w", id, err)
	}
	var best Best
	if err := json.Unmarshal(a.Best, &best); err != nil {
		return nil, fmt.Errorf("search %s: its best: %w", id, err)
	}
	s.RunA, s.RunB = best.RunA, best.RunB
	s.Spec.Better = cmp.Or(s.Spec.Better, best.Better) // a family that declares no metrics: found by a run
	stored, err := d.st.AdversaryEvaluations(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, e := range stored {
		ev, err := decodeEvaluation(e.Evaluation)
		if err != nil {
			return nil, fmt.Errorf("search %s: evaluation %d: %w", id, e.Position, err)
		}
		if ev.Index != len(s.Evaluations) {
			return nil, fmt.Errorf("search %s: evaluation %d stored at position %d", id, ev.Index, len(s.Evaluations))
		}
		s.Evaluations = append(s.Evaluations, ev)
	}
	if best.Key != "" && best.Index >= 0 && best.Index < len(s.Evaluations) {
		s.Best = &s.Evaluations[best.Index]
	}
	return s, nil
}

// Config is the search's configuration as adversary.Report reads it,
// its sides' parameters resolved against st.
func (s *State) Config(st *solvers.Strategy) adversary.Config {
	cfg := adversary.Config{Metric: s.Spec.Metric, Better: s.Spec.Better, Score: s.Spec.Score, Method: s.Spec.Method,
		Budget: s.Spec.Budget, Seed: s.Spec.Seed, Target: s.Spec.StopAt, Preset: s.Spec.Preset, Restarts: s.Spec.Restarts,
		A: adversary.Side{Variant: s.Spec.A}, B: adversary.Side{Variant: s.Spec.B}}
	if st != nil {
		cfg.A.Params, _ = solvers.Resolve(st.Params, solvers.Params(s.Spec.AParams))
		cfg.B.Params, _ = solvers.Resolve(st.Params, solvers.Params(s.Spec.BParams))
	}
	return cfg
}

// Report is the search so far in the one Report shape (adversary.Report:
// the best score against candidates, the path to the best, the best
// candidates, A's and B's Gantts on the best instance from its kept
// runs' reports a and b, nil when not read); nil before any evaluation.
func (s *State) Report(st *solvers.Strategy, a, b *report.Report) *report.Report {
	if s.Best == nil {
		return nil
	}
	ran := 0
	for _, e := range s.Evaluations {
		if !e.Replay && e.Key != "" {
			ran++
		}
	}
	res := &adversary.Result{Evaluations: s.Evaluations, Best: s.Best.Index, BestOutcome: s.Best.Outcome, Ran: ran}
	res.BestOutcome.A.Report, res.BestOutcome.B.Report = a, b
	return adversary.Report(s.Config(st), res)
}

// MarshalJSON is the API's answer (GET /api/adversary/:id): scores as
// strings where JSON has no number for them ("+Inf", "NaN").
func (s *State) MarshalJSON() ([]byte, error) {
	evs := make([]json.RawMessage, len(s.Evaluations))
	for i, e := range s.Evaluations {
		raw, err := encodeEvaluation(e)
		if err != nil {
			return nil, err
		}
		evs[i] = raw
	}
	var best json.RawMessage
	if s.Best != nil {
		raw, err := encodeEvaluation(*s.Best)
		if err != nil {
			return nil, err
		}
		best = raw
	}
	return json.Marshal(struct {
		ID             string            `json:"id"`
		Strategy       string            `json:"strategy"`
		Status         string            `json:"status"`
		Error          string            `json:"error,omitempty"`
		Spec           Spec              `json:"spec"`
		Commit         string            `json:"commit,omitempty"`
		Version        string            `json:"version,omitempty"`
		CreatedAt      time.Time         `json:"created_at"`
		EndedAt        *time.Time        `json:"ended_at,omitempty"`
		Count          int               `json:"evaluations_count"`
		Best           json.RawMessage   `json:"best,omitempty"`
		BestWorkloadID string            `json:"best_workload_id,omitempty"`
		RunA           string            `json:"best_run_a,omitempty"`
		RunB           string            `json:"best_run_b,omitempty"`
		Evaluations    []json.RawMessage `json:"evaluations"`
	}{s.ID, s.Strategy, s.Status, s.Error, s.Spec, s.Build.Commit, s.Build.Version, s.CreatedAt, s.EndedAt,
		len(s.Evaluations), best, s.BestWorkloadID, s.RunA, s.RunB, evs})
}

// Summary is one search in the list of searches: what it compares, how
// far it got and its best score.
type Summary struct {
	ID          string    `json:"id"`
	Strategy    string    `json:"strategy"`
	A           string    `json:"a"`
	B           string    `json:"b"`
	Metric      string    `json:"metric"`
	Method      string    `json:"method"`
	Status      string    `json:"status"`
	Evaluations int       `json:"evaluations_count"`
	Budget      int       `json:"budget"`
	Best        string    `json:"best_score,omitempty"` // strconv 'g'; "+Inf" when A failed; "" before any
	Owner       string    `json:"owner,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
}

// List is every stored search, newest first, as the list shows it (no
// evaluation is read).
func (d *Driver) List(ctx context.Context) ([]Summary, error) {
	all, err := d.st.ListAdversarySearches(ctx, "")
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		a := all[i]
		var spec Spec
		if err := json.Unmarshal(a.Config, &spec); err != nil {
			return nil, fmt.Errorf("search %s: its configuration: %w", a.ID, err)
		}
		var best Best
		if err := json.Unmarshal(a.Best, &best); err != nil {
			return nil, fmt.Errorf("search %s: its best: %w", a.ID, err)
		}
		method := spec.Method
		method = cmp.Or(method, "anneal")
		out = append(out, Summary{ID: a.ID, Strategy: a.Strategy, A: spec.A, B: spec.B, Metric: spec.Metric, Method: method,
			Status: a.Status, Evaluations: a.Evaluations, Budget: spec.Budget, Best: best.Score, Owner: a.Owner, CreatedAt: a.CreatedAt})
	}
	return out, nil
}
