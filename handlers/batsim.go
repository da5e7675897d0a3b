package handlers

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/report"
)

// Batsim's output files of a batch run (issue 39): GET
// /api/runs/:id/batsim/jobs.csv and /api/runs/:id/batsim/schedule.csv,
// written from the run's stored jobs table by report.BatsimJobs (the
// run page links them). A run that is not a batch simulation is 404; one
// whose table cannot say what Batsim would write is 409 with the reason.

// batsimFiles are the files served, by the name in the path.
var batsimFiles = map[string]string{"jobs.csv": "_jobs.csv", "schedule.csv": "_schedule.csv"}

// apiBatsimFile serves one of a done run's Batsim files.
func (s *Server) apiBatsimFile(c echo.Context) error {
	suffix, ok := batsimFiles[c.Param("file")]
	if !ok {
		return errs.New(errs.NotFound, "file", "no Batsim file %q (known: jobs.csv, schedule.csv)", c.Param("file"))
	}
	ctx := c.Request().Context()
	run, rep, err := s.doneReport(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	index, err := report.BatsimTable(rep)
	if err != nil {
		return err
	}
	t := rep.Tables[index]
	each := func(fn func([]any) error) error { return s.eachRow(ctx, run.ID, index, t, fn) }
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+run.ID+suffix+`"`)
	if suffix == "_schedule.csv" {
		// The aggregates need every job: read them all before answering,
		// so an error is still an error page.
		b := report.NewBatsimJobs(io.Discard, t.Columns, report.BatsimRunOf(rep))
		if err := each(b.Row); err != nil {
			return err
		}
		c.Response().WriteHeader(http.StatusOK)
		return b.WriteSchedule(c.Response())
	}
	c.Response().WriteHeader(http.StatusOK)
	b := report.NewBatsimJobs(c.Response(), t.Columns, report.BatsimRunOf(rep))
	err = each(b.Row)
	if ferr := b.Flush(); err == nil {
		err = ferr
	}
	return err
}

// eachRow calls fn with each row of table t, number index of run id's
// report: from the report, or from the store for a paged table.
func (s *Server) eachRow(ctx context.Context, id string, index int, t report.Table, fn func([]any) error) error {
	if !t.Paged {
		for _, row := range t.Rows {
			if err := fn(row); err != nil {
				return err
			}
		}
		return nil
	}
	var row []any
	return s.store.EachTableRow(ctx, id, index, func(r json.RawMessage) error {
		row = row[:0]
		if err := json.Unmarshal(r, &row); err != nil {
			return errs.Wrap(errs.Internal, err)
		}
		return fn(row)
	})
}
