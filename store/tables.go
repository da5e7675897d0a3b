package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"schedlab/errs"
	"schedlab/report"
)

// A report's large tables are stored apart (migration 0010): pageOut takes
// the rows of every table of more than report.PageOutRows rows out of a
// report's JSON, leaving the table's title and columns marked "paged" with
// its "row_count", and cuts the rows into pages of report.TablePageRows;
// pageIn puts them back (a bundle carries whole reports). Both work on the
// JSON as it is: the rest of the report keeps its bytes.

// tablePages are the stored pages of one table: Pages[p] is the JSON array
// of rows [p·report.TablePageRows, (p+1)·report.TablePageRows).
type tablePages struct {
	Index int
	Pages [][]byte
}

// minPagedReport is the shortest report that can hold a table to page
// out: each of its more than report.PageOutRows rows takes at least "[0]," .
const minPagedReport = 4 * report.PageOutRows

// tablesValue finds the value of the report's top-level "tables": its
// bytes' start and end; found is false when there is none.
func tablesValue(rep []byte) (start, end int, found bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(rep))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, 0, false, fmt.Errorf("a report is a JSON object")
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0, 0, false, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, false, err
		}
		if key == "tables" {
			end := int(dec.InputOffset())
			return end - len(raw), end, true, nil
		}
	}
	return 0, 0, false, nil
}

// pageOut returns report with its large tables paged out, and their pages;
// a report without one is returned as it is, with no pages.
func pageOut(rep []byte) ([]byte, []tablePages, error) {
	if len(rep) < minPagedReport {
		return rep, nil, nil
	}
	start, end, found, err := tablesValue(rep)
	if err != nil || !found {
		return rep, nil, err
	}
	var tables []report.TableJSON[json.RawMessage]
	if err := json.Unmarshal(rep[start:end], &tables); err != nil {
		return nil, nil, fmt.Errorf("the report's tables: %w", err)
	}
	var out []tablePages
	for i := range tables {
		t := &tables[i]
		if t.Paged || len(t.Rows) <= report.PageOutRows {
			continue
		}
		tp := tablePages{Index: i}
		for p := 0; p < len(t.Rows); p += report.TablePageRows {
			page, err := json.Marshal(t.Rows[p:min(p+report.TablePageRows, len(t.Rows))])
			if err != nil {
				return nil, nil, err
			}
			tp.Pages = append(tp.Pages, page)
		}
		out = append(out, tp)
		t.Paged, t.RowCount, t.Rows = true, len(t.Rows), []json.RawMessage{}
	}
	if len(out) == 0 {
		return rep, nil, nil
	}
	main, err := splice(rep, start, end, tables)
	return main, out, err
}

// splice returns report with the bytes [start, end) replaced by tables.
func splice(rep []byte, start, end int, tables []report.TableJSON[json.RawMessage]) ([]byte, error) {
	b, err := json.Marshal(tables)
	if err != nil {
		return nil, err
	}
	main := make([]byte, 0, start+len(b)+len(rep)-end)
	return append(append(append(main, rep[:start]...), b...), rep[end:]...), nil
}

// pageIn returns report with the rows of its paged tables read back by
// rows(index), whole: the report as it was before pageOut.
func pageIn(rep []byte, rows func(index int) ([]json.RawMessage, error)) ([]byte, error) {
	if !bytes.Contains(rep, []byte(`"paged":true`)) {
		return rep, nil
	}
	start, end, found, err := tablesValue(rep)
	if err != nil || !found {
		return rep, err
	}
	var tables []report.TableJSON[json.RawMessage]
	if err := json.Unmarshal(rep[start:end], &tables); err != nil {
		return nil, fmt.Errorf("the report's tables: %w", err)
	}
	for i := range tables {
		t := &tables[i]
		if !t.Paged {
			continue
		}
		r, err := rows(i)
		if err != nil {
			return nil, err
		}
		if len(r) != t.RowCount {
			return nil, fmt.Errorf("table %d has %d stored rows for %d", i, len(r), t.RowCount)
		}
		t.Rows, t.Paged, t.RowCount = r, false, 0
	}
	return splice(rep, start, end, tables)
}

// insertTablePage stores one page of a paged table.
const insertTablePage = "INSERT INTO run_table_pages (run_id, tbl, page, rows) VALUES (?, ?, ?, ?)"

// storeReport inserts a run's report through stmt (INSERT INTO run_reports)
// with its large tables paged out through pages (insertTablePage).
func storeReport(ctx context.Context, stmt, pages *sql.Stmt, id string, rep []byte) error {
	main, tps, err := pageOut(rep)
	if err != nil {
		return invalid("report", "%v", err)
	}
	if _, err := stmt.ExecContext(ctx, id, string(main)); err != nil {
		return err
	}
	for _, tp := range tps {
		for p, page := range tp.Pages {
			if _, err := pages.ExecContext(ctx, id, tp.Index, p, string(page)); err != nil {
				return err
			}
		}
	}
	return nil
}

// TableRows returns rows [offset, offset+limit) of paged table index of
// run id's report, each row's JSON as stored (fewer at the end of the
// table, none past it); errs.NotFound when the run has no such paged table.
func (s *Store) TableRows(ctx context.Context, id string, index, offset, limit int) ([]json.RawMessage, error) {
	if offset < 0 || limit < 0 {
		return nil, invalid("offset", "offset and limit must not be negative, got %d and %d", offset, limit)
	}
	var out []json.RawMessage
	first, last := offset/report.TablePageRows, (offset+limit-1)/report.TablePageRows
	if limit == 0 {
		last = first
	}
	n, err := s.eachPage(ctx, id, index, first, last, func(p int, rows []json.RawMessage) error {
		for i, r := range rows {
			if at := p*report.TablePageRows + i; at >= offset && at < offset+limit {
				out = append(out, r)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if n == 0 && offset == 0 {
		return nil, s.noPagedTable(ctx, id, index)
	}
	return out, nil
}

// EachTableRow calls fn with every row of paged table index of run id's
// report in order, reading a page at a time; errs.NotFound when the run
// has no such paged table.
func (s *Store) EachTableRow(ctx context.Context, id string, index int, fn func(row json.RawMessage) error) error {
	n, err := s.eachPage(ctx, id, index, 0, -1, func(_ int, rows []json.RawMessage) error {
		for _, r := range rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if n == 0 {
		return s.noPagedTable(ctx, id, index)
	}
	return nil
}

// allTableRows reads every row of a paged table through q (pageIn's rows).
func allTableRows(ctx context.Context, q querier, id string, index int) ([]json.RawMessage, error) {
	var out []json.RawMessage
	_, err := eachPage(ctx, q, id, index, 0, -1, func(_ int, rows []json.RawMessage) error {
		out = append(out, rows...)
		return nil
	})
	return out, err
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// eachPage calls fn with pages first..last (last < 0: to the end) of a
// paged table, decoded into rows, one page in memory at a time, and
// returns how many there were.
func (s *Store) eachPage(ctx context.Context, id string, index, first, last int, fn func(p int, rows []json.RawMessage) error) (int, error) {
	return eachPage(ctx, s.db, id, index, first, last, fn)
}

func eachPage(ctx context.Context, db querier, id string, index, first, last int, fn func(p int, rows []json.RawMessage) error) (int, error) {
	if last < 0 {
		last = int(^uint32(0) >> 1)
	}
	q, err := db.QueryContext(ctx, "SELECT page, rows FROM run_table_pages WHERE run_id = ? AND tbl = ? AND page BETWEEN ? AND ? ORDER BY page", id, index, first, last)
	if err != nil {
		return 0, dbErr(err)
	}
	defer q.Close()
	n := 0
	for q.Next() {
		var p int
		var text sql.RawBytes
		if err := q.Scan(&p, &text); err != nil {
			return n, dbErr(err)
		}
		var rows []json.RawMessage
		if err := json.Unmarshal(text, &rows); err != nil {
			return n, &errs.Error{Kind: errs.Internal, Err: fmt.Errorf("run %s table %d page %d: %w", id, index, p, err)}
		}
		n++
		if err := fn(p, rows); err != nil {
			return n, err
		}
	}
	return n, dbErr(q.Err())
}

// noPagedTable is the error of a run without paged table index.
func (s *Store) noPagedTable(ctx context.Context, id string, index int) error {
	if _, err := s.GetRunInfo(ctx, id); err != nil {
		return err
	}
	return errs.New(errs.NotFound, "table", "run %s has no paged table %d", id, index)
}
