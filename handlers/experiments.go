package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/experiments"
	"schedlab/store"
)

// maxDefinition caps an experiment definition's body: a definition is a
// few KiB; reference values for a paper's figures stay well under this.
const maxDefinition = 1 << 20

// apiExperiment is an experiment as the API shows it.
type apiExperiment struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Strategy   string   `json:"strategy"`
	Tags       []string `json:"tags,omitempty"`
	Status     string   `json:"status"`
	RunsTotal  int      `json:"runs_total"`
	RunsDone   int      `json:"runs_done"`
	RunsFailed int      `json:"runs_failed"`
	CreatedAt  string   `json:"created_at"`
	URL        string   `json:"url"`
	ResultsURL string   `json:"results_url"`
}

// readDefinition reads an experiment definition from a JSON or YAML body.
func readDefinition(c echo.Context) (*experiments.Definition, []byte, error) {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxDefinition+1))
	if err != nil {
		return nil, nil, formErr(err)
	}
	if len(body) > maxDefinition {
		return nil, nil, tooLarge("body", maxDefinition)
	}
	ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	var def *experiments.Definition
	if ct == echo.MIMEApplicationJSON {
		def, err = experiments.ParseJSON(body)
	} else {
		def, err = experiments.ParseYAML(body)
	}
	return def, body, err
}

// createExperiment checks a definition, generates the workloads its
// presets name, and stores the experiment with all its runs in one
// transaction. Generated workloads are removed again if the experiment
// cannot be stored, so a refused definition leaves nothing behind.
func (s *Server) createExperiment(ctx context.Context, c echo.Context, def *experiments.Definition) (*store.Experiment, error) {
	st, err := s.lookup(def.Strategy)
	if err != nil {
		return nil, err
	}
	if err := experiments.Validate(def, st); err != nil {
		return nil, err
	}
	runs := experiments.Expand(def, st)
	made := []string{}
	fail := func(err error) (*store.Experiment, error) {
		for _, id := range made {
			_ = s.store.DeleteWorkload(context.WithoutCancel(ctx), id)
		}
		return nil, err
	}
	ids := map[string]string{} // workload key → stored id
	storeRuns := make([]*store.Run, len(runs))
	cells := make([]store.ExperimentCell, len(runs))
	for i, r := range runs {
		wid := r.Workload.ID
		if wid == "" {
			key := r.WorkloadKey()
			if wid = ids[key]; wid == "" {
				w, err := s.generate(c, generateRequest{Strategy: def.Strategy, Preset: r.Workload.Preset, Params: r.Workload.Params, Seed: &r.WorkloadSeed})
				if err != nil {
					return fail(fmt.Errorf("workload %s: %w", key, err))
				}
				wid = w.ID
				ids[key] = wid
				made = append(made, wid)
			}
		}
		run, err := s.runner.Prepare(ctx, &store.Run{Kind: store.KindRun, WorkloadID: wid, Strategy: def.Strategy,
			Variant: r.Variant, Params: r.Params, Seed: r.Seed, Owner: ownerID(c)})
		if err != nil {
			return fail(err)
		}
		storeRuns[i] = run
		cell, err := json.Marshal(r.Cell)
		if err != nil {
			return fail(errs.Wrap("experiment", errs.Internal, err))
		}
		cells[i] = store.ExperimentCell{Cell: cell, Replicate: r.Replicate}
	}
	raw, err := json.Marshal(def)
	if err != nil {
		return fail(errs.Wrap("experiment", errs.Internal, err))
	}
	e := &store.Experiment{Name: def.Name, Strategy: def.Strategy, Definition: raw, Tags: def.Tags, Notes: def.Notes, Owner: ownerID(c)}
	if err := s.store.CreateExperiment(ctx, e, storeRuns, cells); err != nil {
		return fail(err)
	}
	s.runner.Wake()
	return e, nil
}

func (s *Server) toAPIExperiment(ctx context.Context, e *store.Experiment) (apiExperiment, error) {
	total, done, failed, active, err := s.store.ExperimentProgress(ctx, e.ID)
	if err != nil {
		return apiExperiment{}, err
	}
	status := e.Status
	if status == store.ExperimentRunning && active == 0 {
		status = store.ExperimentDone
	}
	return apiExperiment{ID: e.ID, Name: e.Name, Strategy: e.Strategy, Tags: e.Tags, Status: status, RunsTotal: total,
		RunsDone: done, RunsFailed: failed, CreatedAt: e.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"),
		URL: "/experiments/" + e.ID, ResultsURL: "/api/experiments/" + e.ID + "/results"}, nil
}

// apiCreateExperiment: POST /api/experiments with a definition (JSON, or
// YAML as application/yaml).
func (s *Server) apiCreateExperiment(c echo.Context) error {
	def, _, err := readDefinition(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	e, err := s.createExperiment(ctx, c, def)
	if err != nil {
		return err
	}
	a, err := s.toAPIExperiment(ctx, e)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, a)
}

func (s *Server) apiGetExperiment(c echo.Context) error {
	ctx := c.Request().Context()
	e, err := s.store.GetExperiment(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	a, err := s.toAPIExperiment(ctx, e)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a)
}

// experimentResults aggregates an experiment's stored runs: one row per
// cell, variant and metric (or pooled over every parameter not in keep).
func (s *Server) experimentResults(ctx context.Context, id string, keep []string) ([]experiments.Row, error) {
	runs, err := s.store.ExperimentRuns(ctx, id)
	if err != nil {
		return nil, err
	}
	results := make([]experiments.RunResult, len(runs))
	for i, r := range runs {
		var cell map[string]string
		if err := json.Unmarshal(r.Cell, &cell); err != nil {
			return nil, errs.Wrap("experiment results", errs.Internal, err)
		}
		m := make(map[string]float64, len(r.Metrics))
		for _, x := range r.Metrics {
			m[x.Name] = x.Value
		}
		results[i] = experiments.RunResult{Params: cell, Variant: r.Variant, Status: r.Status, Metrics: m}
	}
	if keep != nil {
		return experiments.AggregateBy(results, keep), nil
	}
	return experiments.Aggregate(results), nil
}

// apiExperimentResults: GET /api/experiments/:id/results[?keep=a,b].
func (s *Server) apiExperimentResults(c echo.Context) error {
	var keep []string
	if k := c.QueryParam("keep"); k != "" {
		keep = strings.Split(k, ",")
	}
	rows, err := s.experimentResults(c.Request().Context(), c.Param("id"), keep)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"rows": rows})
}

// apiCancelExperiment: POST /api/experiments/:id/cancel cancels the queued
// runs at once and the running ones through the runner.
func (s *Server) apiCancelExperiment(c echo.Context) error {
	ctx := c.Request().Context()
	e, err := s.store.GetExperiment(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if err := s.mayChange(c, e.Owner, "experiment "+e.ID); err != nil {
		return err
	}
	running, err := s.store.CancelExperiment(ctx, e.ID)
	if err != nil {
		return err
	}
	for _, id := range running {
		if err := s.runner.Cancel(ctx, id); err != nil && !errs.Is(errs.Conflict, err) {
			return err
		}
	}
	return s.apiGetExperiment(c)
}
