package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/views"
)

// runFilesStore is what a run's table and Batsim files (tables.go, batsim.go) read (*store.Store).
type runFilesStore interface {
	GetRun(ctx context.Context, id string) (*runtypes.Run, error)
	TableRows(ctx context.Context, id string, index, offset, limit int) ([]json.RawMessage, error)
	EachTableRow(ctx context.Context, id string, index int, fn func(row json.RawMessage) error) error
}

// A report's tables are read by pages: GET /api/runs/:id/tables/:index
// ?offset=&limit= (JSON), /runs/:id/tables/:index?offset= (HTML), and whole
// as CSV (/runs/:id/tables/:index.csv). A table paged out of the stored
// report (report.Table.Paged) is read from the store's pages; any other
// from the report. One mechanism for every table of every family.

// maxAPITableRows bounds the rows of one API page.
const maxAPITableRows = 5000

// apiTablePage is the JSON of a page of a table.
type apiTablePage struct {
	Title    string            `json:"title"`
	Columns  []string          `json:"columns"`
	RowCount int               `json:"row_count"`
	Offset   int               `json:"offset"`
	Limit    int               `json:"limit"`
	Rows     []json.RawMessage `json:"rows"`
}

// runTable returns done run id's report and the index of the table the
// path names, or errs.NotFound.
func (s *Server) runTable(ctx context.Context, id, param string) (*runtypes.Run, *report.Report, int, error) {
	index, err := strconv.Atoi(param)
	if err != nil || index < 0 {
		return nil, nil, 0, errs.New(errs.NotFound, "table", "no table %q: tables are numbered from 0", param)
	}
	run, rep, err := s.doneReport(ctx, id)
	if err != nil {
		return nil, nil, 0, err
	}
	if rep != nil && index >= len(rep.Tables) && len(rep.Unreadable) > 0 {
		return nil, nil, 0, errs.New(errs.NotFound, "table", "run %s has no table %d that can be read: its stored report is damaged (%s)",
			run.ID, index, strings.Join(rep.Unreadable, "; "))
	}
	if rep == nil || index >= len(rep.Tables) {
		return nil, nil, 0, errs.New(errs.NotFound, "table", "run %s has no table %d", run.ID, index)
	}
	return run, rep, index, nil
}

// doneReport is done run id and its report; errs.Conflict for a run not
// done.
func (s *Server) doneReport(ctx context.Context, id string) (*runtypes.Run, *report.Report, error) {
	run, err := s.store.GetRun(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if run.Status != runtypes.StatusDone {
		return nil, nil, errs.New(errs.Conflict, "id", "run %s is %s: it has no report", run.ID, run.Status)
	}
	rep, err := s.report(run)
	return run, rep, err
}

// pageParams reads ?offset= and ?limit= (limit defaults to def, at most max).
func pageParams(c echo.Context, def, most int) (offset, limit int, err error) {
	num := func(name string, d int) (int, error) {
		v := c.QueryParam(name)
		if v == "" {
			return d, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, errs.Invalidf(name, "must be a whole number ≥ 0, got %q", v)
		}
		return n, nil
	}
	if offset, err = num("offset", 0); err != nil {
		return 0, 0, err
	}
	if limit, err = num("limit", def); err != nil {
		return 0, 0, err
	}
	if limit > most {
		return 0, 0, errs.Invalidf("limit", "at most %d rows a page, got %d", most, limit)
	}
	return offset, limit, nil
}

// tableRows returns rows [offset, offset+limit) of table index of run's
// report, as JSON, and the table's number of rows.
func (s *Server) tableRows(ctx context.Context, run *runtypes.Run, t *report.Table, index, offset, limit int) ([]json.RawMessage, int, error) {
	if t.Paged {
		rows, err := s.store.TableRows(ctx, run.ID, index, offset, limit)
		return rows, t.RowCount, err
	}
	var out []json.RawMessage
	for i := offset; i < len(t.Rows) && i < offset+limit; i++ {
		b, err := json.Marshal(t.Rows[i])
		if err != nil {
			return nil, 0, errs.Wrap(errs.Internal, err)
		}
		out = append(out, b)
	}
	return out, len(t.Rows), nil
}

// decodeRows turns rows' JSON into cells, checking each has a cell per column.
func decodeRows(raw []json.RawMessage, columns int) ([][]any, error) {
	out := make([][]any, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &out[i]); err != nil || len(out[i]) != columns {
			return nil, errs.Wrap(errs.Internal, fmt.Errorf("a stored row is not %d cells: %.80s", columns, r))
		}
	}
	return out, nil
}

// apiTable serves a page of a run's table as JSON.
func (s *Server) apiTable(c echo.Context) error {
	ctx := c.Request().Context()
	offset, limit, err := pageParams(c, views.MaxTableRows, maxAPITableRows)
	if err != nil {
		return err
	}
	run, rep, index, err := s.runTable(ctx, c.Param("id"), c.Param("index"))
	if err != nil {
		return err
	}
	t := &rep.Tables[index]
	rows, total, err := s.tableRows(ctx, run, t, index, offset, limit)
	if err != nil {
		return err
	}
	if rows == nil {
		rows = []json.RawMessage{}
	}
	return c.JSON(http.StatusOK, apiTablePage{Title: t.Title, Columns: t.Columns, RowCount: total, Offset: offset, Limit: limit, Rows: rows})
}

// runTableFile serves /runs/:id/tables/:file: N.csv, table N whole as
// CSV; N, a page of table N as HTML (?offset=).
func (s *Server) runTableFile(c echo.Context) error {
	file := c.Param("file")
	if strings.HasSuffix(file, ".csv") {
		return s.tableCSV(c, strings.TrimSuffix(file, ".csv"))
	}
	ctx := c.Request().Context()
	offset, _, err := pageParams(c, views.MaxTableRows, math.MaxInt) // the page shows MaxTableRows
	if err != nil {
		return err
	}
	run, rep, index, err := s.runTable(ctx, c.Param("id"), file)
	if err != nil {
		return err
	}
	t := rep.Tables[index]
	raw, total, err := s.tableRows(ctx, run, &t, index, offset, views.MaxTableRows)
	if err != nil {
		return err
	}
	if t.Rows, err = decodeRows(raw, len(t.Columns)); err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.TablePage(views.TablePageProps{RunID: run.ID, Index: index, Table: t, Offset: offset, Total: total, Frame: rep.Time}))
}

// tableCSV serves table n of a run's report as CSV, every row: a paged
// table is read from the store a page at a time.
func (s *Server) tableCSV(c echo.Context, n string) error {
	ctx := c.Request().Context()
	run, rep, index, err := s.runTable(ctx, c.Param("id"), n)
	if err != nil {
		return err
	}
	t := rep.Tables[index]
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+run.ID+"-"+report.Slug(t.Title)+`.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	// The same CSV as the command line's --tables files (report.TableCSV).
	w := report.NewTableCSV(c.Response(), t.Columns)
	err = s.eachRow(ctx, run.ID, index, t, w.Row)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// fillPagedTables puts the first page of each paged table of rep (a copy
// of the stored report, decoded for this page) into its Rows, for the run
// page.
func (s *Server) fillPagedTables(ctx context.Context, id string, rep *report.Report) error {
	for i := range rep.Tables {
		t := &rep.Tables[i]
		if !t.Paged {
			continue
		}
		raw, err := s.store.TableRows(ctx, id, i, 0, views.MaxTableRows)
		if err != nil {
			return err
		}
		if t.Rows, err = decodeRows(raw, len(t.Columns)); err != nil {
			return err
		}
	}
	return nil
}
