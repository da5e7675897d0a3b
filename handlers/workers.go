package handlers

import (
	"context"
	"net/http"
	"sort"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/views"
)

// workersStore is what the workers page reads (*store.Store).
type workersStore interface {
	GetRunInfo(ctx context.Context, id string) (*runtypes.Run, error)
	RunOwners(ctx context.Context, ids []string) (map[string]string, error)
}

// workersPage: GET /workers, the workers executing runs (package queue's
// heartbeats, or the in-process pool), their load and last heartbeat.
func (s *Server) workersPage(c echo.Context) error {
	ws, err := s.visibleWorkers(c)
	if err != nil {
		return err
	}
	p := views.WorkersProps{InProcess: len(ws) == 1 && ws[0].Name == runner.InProcessWorker}
	for _, w := range ws {
		p.Workers = append(p.Workers, views.Worker{Name: w.Name, Host: w.Host, PID: w.PID, Concurrency: w.Concurrency,
			Running: w.Running, OthersRunning: w.OthersRunning, Moved: w.Moved, Done: w.Done, Started: w.Started, LastSeen: w.LastSeen, Lost: w.Lost})
	}
	return s.render(c, http.StatusOK, views.Workers(p))
}

// apiWorkers: GET /api/workers, the same as JSON: {"workers": [...]}.
func (s *Server) apiWorkers(c echo.Context) error {
	ws, err := s.visibleWorkers(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"workers": ws})
}

// apiWorker is a worker as a user may see it: the run IDs of others
// hidden behind their count.
type apiWorker struct {
	runtypes.WorkerStatus
	// OthersRunning counts the runs of other users it executes, whose IDs
	// Running leaves out (a server with accounts, a user not an admin).
	OthersRunning int `json:"others_running,omitempty"`
	// Moved, for a lost worker, says where each run of Running went:
	// "now on host:pid" (another worker runs it), "queued again", or its
	// final status.
	Moved map[string]string `json:"moved,omitempty"`
}

// visibleWorkers are the workers as the request's user may see them:
// everything without accounts and to an admin; to another user, the IDs
// of his own runs only and a count of the others'. An anonymous visitor
// of a server with accounts is 401: the IDs are links to runs, readable
// by whoever has them.
func (s *Server) visibleWorkers(c echo.Context) ([]apiWorker, error) {
	owner, ok := s.listOwner(c)
	if !ok {
		return nil, errs.New(errs.Unauthenticated, "login", "log in first: the workers' runs belong to their users")
	}
	ws := s.runner.Workers()
	out := make([]apiWorker, len(ws))
	var ids []string
	for i, w := range ws {
		out[i].WorkerStatus = w
		ids = append(ids, w.Running...)
	}
	if s.auth && !currentUser(c).Admin {
		if err := s.hideOthersRuns(c, out, ids, owner); err != nil {
			return nil, err
		}
	}
	return out, s.whereRunsWent(c.Request().Context(), out)
}

// whereRunsWent fills Moved of the lost workers: a run another worker
// lists is on it, any other is as the store has it.
func (s *Server) whereRunsWent(ctx context.Context, ws []apiWorker) error {
	on := map[string]string{}
	for _, w := range ws {
		if !w.Lost {
			for _, id := range w.Running {
				on[id] = w.Name
			}
		}
	}
	for i := range ws {
		if !ws[i].Lost || len(ws[i].Running) == 0 {
			continue
		}
		ws[i].Moved = map[string]string{}
		for _, id := range ws[i].Running {
			if name, ok := on[id]; ok {
				ws[i].Moved[id] = "now on " + name
				continue
			}
			run, err := s.store.GetRunInfo(ctx, id)
			switch {
			case errs.Is(err, errs.NotFound):
				ws[i].Moved[id] = "deleted"
			case err != nil:
				return err
			case run.Status == runtypes.StatusQueued:
				ws[i].Moved[id] = "queued again"
			case run.Status == runtypes.StatusRunning:
				ws[i].Moved[id] = "waiting to be delivered to another worker"
			default:
				ws[i].Moved[id] = run.Status
			}
		}
	}
	return nil
}

// hideOthersRuns leaves in each worker's Running the runs of owner only,
// counting the others in OthersRunning.
func (s *Server) hideOthersRuns(c echo.Context, out []apiWorker, ids []string, owner string) error {
	owners, err := s.store.RunOwners(c.Request().Context(), ids)
	if err != nil {
		return err
	}
	for i := range out {
		mine := []string{}
		for _, id := range out[i].Running {
			if o, known := owners[id]; known && o == owner {
				mine = append(mine, id)
			} else {
				out[i].OthersRunning++
			}
		}
		out[i].Running = mine
	}
	return nil
}

// sortWorkers orders workers most runs first, then by name.
func sortWorkers(out []views.WorkerCount) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Runs != out[j].Runs {
			return out[i].Runs > out[j].Runs
		}
		return out[i].Name < out[j].Name
	})
}
