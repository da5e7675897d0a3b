package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"schedlab/store"
)

// healthStore is what /healthz asks of the database (*store.Store).
type healthStore interface {
	Opened() store.OpenReport
	Ping(ctx context.Context) error
}

// newWork are the routes that store something new (method and route
// path): while the disk is low or full they answer 507 Insufficient
// Storage with the disk's reason, before reading the request. Cancel,
// delete, labels and logins go on: they write little, and a delete frees
// space.
var newWork = map[string]bool{
	"POST /workloads":                  true,
	"POST /workloads/generate":         true,
	"POST /workloads/:id/all-variants": true,
	"POST /runs":                       true,
	"POST /runs/:id/rerun":             true,
	"POST /runs/:id/all-variants":      true,
	"POST /experiments":                true,
	"POST /experiments/import":         true,
	"POST /experiments/:id/resume":     true,
	"POST /reproduce":                  true,
	"POST /api/workloads":              true,
	"POST /api/workloads/generate":     true,
	"POST /api/runs":                   true,
	"POST /api/reproduce/:strategy":    true,
	"POST /api/experiments":            true,
	"POST /api/experiments/import":     true,
	"POST /api/experiments/:id/resume": true,
}

// refuseWhenDiskFull answers 507 to new work while the store's disk is
// low or full (store.Disk), and tells the Disk of any SQLITE_FULL a
// handler met, so that the state shows at once, not at the next check.
func (s *Server) refuseWhenDiskFull(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if newWork[c.Request().Method+" "+c.Path()] {
			if err := s.disk.Refuse(); err != nil {
				return err
			}
		}
		err := next(c)
		s.disk.Full(err)
		return err
	}
}

// health is the body of /healthz.
type health struct {
	// Status is "ok"; "degraded" when the server works but something
	// needs an operator (disk space low, data lost at start, an integrity
	// check failed); "full" when nothing can be written (503); or
	// "unavailable" when the database does not answer (503).
	Status string `json:"status"`
	// Problems says what, in words.
	Problems []string         `json:"problems,omitempty"`
	Disk     store.DiskStatus `json:"disk"`
	Database store.OpenReport `json:"database"`
	Error    string           `json:"error,omitempty"`
}

func (s *Server) healthz(c echo.Context) error {
	h := health{Status: "ok", Disk: s.disk.Status(), Database: s.store.Opened()}
	if err := s.store.Ping(c.Request().Context()); err != nil {
		h.Status, h.Error = "unavailable", err.Error()
		return c.JSON(http.StatusServiceUnavailable, h)
	}
	h.Problems = h.Database.Problems()
	if h.Disk.State != store.DiskOK {
		h.Problems = append([]string{h.Disk.Reason}, h.Problems...)
	}
	code := http.StatusOK
	switch {
	case h.Disk.State == store.DiskFull:
		h.Status, code = "full", http.StatusServiceUnavailable
	case len(h.Problems) > 0:
		h.Status = "degraded"
	}
	return c.JSON(code, h)
}
