package handlers

import (
	"context"
	"net/http"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

	"schedlab/runtypes"
	"schedlab/store"
	"schedlab/views"
)

// labelsStore is what the labels forms read and change (*store.Store).
type labelsStore interface {
	GetRunInfo(ctx context.Context, id string) (*runtypes.Run, error)
	GetExperiment(ctx context.Context, id string) (*store.Experiment, error)
	SetRunLabels(ctx context.Context, id, name string, tags []string, notes string) error
	SetExperimentLabels(ctx context.Context, id, name string, tags []string, notes string) error
}

// Labels: a name, tags and markdown notes on runs and experiments, edited
// from their pages (a plain POST form) and through the API (PATCH with the
// fields to change). Only the owner or an admin may change them, as with
// cancel and delete.

// labelsRequest is the body of PATCH /api/runs/:id and PATCH
// /api/experiments/:id: a field left out keeps its value.
type labelsRequest struct {
	Name  *string   `json:"name"`
	Tags  *[]string `json:"tags"`
	Notes *string   `json:"notes"`
}

// apply returns the labels after the request: its fields where given,
// the current ones where not.
func (r labelsRequest) apply(name string, tags []string, notes string) (string, []string, string) {
	if r.Name != nil {
		name = *r.Name
	}
	if r.Tags != nil {
		tags = *r.Tags
	}
	if r.Notes != nil {
		notes = *r.Notes
	}
	return name, tags, notes
}

// splitTags reads the form's tags field: tags separated by commas or
// white space.
func splitTags(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// labelsForm is POST /runs/:id/labels or /experiments/:id/labels, a page's
// labels form, changing them with set.
func labelsForm[T any](set func(echo.Context, labelsRequest) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		head, _, err := formParams(c, "name", "tags", "notes")
		if err != nil {
			return err
		}
		name, notes, tags := head["name"], head["notes"], splitTags(head["tags"])
		_, err = set(c, labelsRequest{Name: &name, Tags: &tags, Notes: &notes})
		return err
	}
}

// setRunLabels changes the labels of run :id if the request's user may,
// and forgets the cached fragments that show the run (a compare page
// names its runs).
func (s *Server) setRunLabels(c echo.Context, req labelsRequest) (*runtypes.Run, error) {
	ctx := c.Request().Context()
	run, err := s.ownRun(c)
	if err != nil {
		return nil, err
	}
	name, tags, notes := req.apply(run.Name, run.Tags, run.Notes)
	if err := s.store.SetRunLabels(ctx, run.ID, name, tags, notes); err != nil {
		return nil, err
	}
	s.forgetRun(run.ID)
	return s.store.GetRunInfo(ctx, run.ID)
}

// setExperimentLabels changes the labels of experiment :id if the
// request's user may.
func (s *Server) setExperimentLabels(c echo.Context, req labelsRequest) (*store.Experiment, error) {
	ctx := c.Request().Context()
	e, err := s.ownExperiment(c)
	if err != nil {
		return nil, err
	}
	name, tags, notes := req.apply(e.Name, e.Tags, e.Notes)
	if err := s.store.SetExperimentLabels(ctx, e.ID, name, tags, notes); err != nil {
		return nil, err
	}
	return s.store.GetExperiment(ctx, e.ID)
}

// apiPatchRun: PATCH /api/runs/:id with {"name", "tags", "notes"}.
func (s *Server) apiPatchRun(c echo.Context) error {
	var req labelsRequest
	if err := decodeJSON(c, maxFormBody, &req); err != nil {
		return err
	}
	run, err := s.setRunLabels(c, req)
	if err != nil {
		return err
	}
	a := s.toAPIRun(run)
	a.Notes = &run.Notes
	return c.JSON(http.StatusOK, a)
}

// apiPatchExperiment: PATCH /api/experiments/:id with {"name", "tags",
// "notes"}.
func (s *Server) apiPatchExperiment(c echo.Context) error {
	var req labelsRequest
	if err := decodeJSON(c, maxFormBody, &req); err != nil {
		return err
	}
	e, err := s.setExperimentLabels(c, req)
	if err != nil {
		return err
	}
	a, err := s.toAPIExperiment(c.Request().Context(), e)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a)
}

// experimentLabels is the labels panel of an experiment's page.
func experimentLabels(e *store.Experiment) views.LabelsProps {
	return views.LabelsProps{Action: "/experiments/" + e.ID + "/labels", Owner: e.Owner, Name: e.Name, Tags: e.Tags, Notes: e.Notes}
}
