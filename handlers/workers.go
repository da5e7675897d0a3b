package handlers

import (
	"context"
	"net/http"
	"sort"

	"github.com/labstack/echo/v4"

	"schedlab/runner"
	"schedlab/views"
)

// workersPage: GET /workers, the workers executing runs (package queue's
// heartbeats, or the in-process pool), their load and last heartbeat.
func (s *Server) workersPage(c echo.Context) error {
	ws := s.runner.Workers()
	p := views.WorkersProps{InProcess: len(ws) == 1 && ws[0].Name == runner.InProcessWorker}
	for _, w := range ws {
		p.Workers = append(p.Workers, views.Worker{Name: w.Name, Host: w.Host, PID: w.PID, Concurrency: w.Concurrency,
			Running: w.Running, Done: w.Done, Started: w.Started, LastSeen: w.LastSeen, Lost: w.Lost})
	}
	return render(c, http.StatusOK, views.Workers(p))
}

// apiWorkers: GET /api/workers, the same as JSON: {"workers": [...]}.
func (s *Server) apiWorkers(c echo.Context) error {
	ws := s.runner.Workers()
	if ws == nil {
		ws = []runner.WorkerStatus{}
	}
	return c.JSON(http.StatusOK, map[string]any{"workers": ws})
}

// experimentWorkers lists which workers ran an experiment's runs, most runs first.
func (s *Server) experimentWorkers(ctx context.Context, id string) ([]views.WorkerCount, error) {
	m, err := s.store.ExperimentWorkers(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]views.WorkerCount, 0, len(m))
	for name, n := range m {
		out = append(out, views.WorkerCount{Name: name, Runs: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Runs != out[j].Runs {
			return out[i].Runs > out[j].Runs
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}
