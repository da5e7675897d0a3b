package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// lazyRows are the rows of a LazyTable: n rows, built by build the first
// time someone asks (AllRows), checked as Validate checks rows, and kept.
type lazyRows struct {
	n     int
	build func() [][]any
	once  sync.Once
	rows  [][]any
	err   error
}

// LazyTable is a table of n rows that build makes when they are first
// read (AllRows), rather than when the report is made: a per-job table of
// a trace, hundreds of thousands of cells that a stored report pages out
// and the command line writes only on request. build must return exactly
// n rows, each with a cell per column; it is called at most once, and the
// rows it returns are kept. A table built so encodes, validates, pages and
// exports as the same table with Rows filled.
func LazyTable(title string, columns []string, n int, build func() [][]any) Table {
	return Table{Title: title, Columns: columns, lazy: &lazyRows{n: n, build: build}}
}

// AllRows returns the table's rows: Rows, or those of a LazyTable, built
// now if they were not yet. The error is a lazy table's only: rows that do
// not pass Validate's checks (a cell per column, finite numbers), not as
// many as the table said, or a panic of the build. A copy of the table
// shares the rows it builds.
func (t *Table) AllRows() ([][]any, error) {
	l := t.lazy
	if l == nil {
		return t.Rows, nil
	}
	l.once.Do(func() {
		build := l.build
		l.build = nil // what it holds (a trace's jobs) is not needed again
		defer func() {
			if p := recover(); p != nil {
				l.rows, l.err = nil, fmt.Errorf("table %q: building its rows: panic: %v", t.Title, p)
			}
		}()
		rows := build()
		if len(rows) != l.n {
			l.err = fmt.Errorf("table %q: built %d rows, said %d", t.Title, len(rows), l.n)
			return
		}
		if err := validRows(t.Title, t.Columns, rows); err != nil {
			l.err = err
			return
		}
		l.rows = rows
	})
	return l.rows, l.err
}

// NumRows is the table's number of rows, without building any: those of
// Rows, of a LazyTable, or RowCount when the table is paged out.
func (t *Table) NumRows() int {
	switch {
	case t.lazy != nil:
		return t.lazy.n
	case t.Paged:
		return t.RowCount
	}
	return len(t.Rows)
}

// TableJSON is a Table's JSON, its rows of type R: []any for MarshalJSON,
// json.RawMessage for the store, which pages a stored report's tables
// on its JSON as it is (one definition, so the two cannot drift).
type TableJSON[R any] struct {
	Title    string   `json:"title"`
	Columns  []string `json:"columns"`
	Rows     []R      `json:"rows"`
	Paged    bool     `json:"paged,omitempty"`
	RowCount int      `json:"row_count,omitempty"`
	TimeCols []int    `json:"time_columns,omitempty"`
}

// MarshalJSON encodes the table with all its rows (a LazyTable's built),
// so that json.Marshal of a report gives what WriteJSON writes.
func (t Table) MarshalJSON() ([]byte, error) {
	rows, err := t.AllRows()
	if err != nil {
		return nil, err
	}
	return json.Marshal(TableJSON[[]any]{Title: t.Title, Columns: t.Columns, Rows: rows, Paged: t.Paged, RowCount: t.RowCount, TimeCols: t.TimeCols})
}

// PagedOut returns a copy of r in which every table of more than
// PageOutRows rows has the paged form a stored report gives (Paged,
// RowCount, Rows empty; see Table), without building or copying its
// rows, and the indices of those tables in r.Tables. r is unchanged; the
// copy shares the rest with it. A report without such a table is
// returned as it is.
func (r *Report) PagedOut() (*Report, []int) {
	var paged []int
	for i := range r.Tables {
		if t := &r.Tables[i]; !t.Paged && t.NumRows() > PageOutRows {
			paged = append(paged, i)
		}
	}
	if len(paged) == 0 {
		return r, nil
	}
	out := *r
	out.Tables = slices.Clone(r.Tables)
	for _, i := range paged {
		t := &r.Tables[i]
		out.Tables[i] = Table{Title: t.Title, Columns: t.Columns, Rows: [][]any{}, Paged: true, RowCount: t.NumRows(), TimeCols: t.TimeCols}
	}
	return &out, paged
}

// csvCell is a table cell as the CSV of a table writes it: the cell as
// the stored report's JSON gives it back (a number as a float64, in Go's
// shortest 'g' form; a string as it is; null as nothing; anything else as
// fmt prints its decoded JSON), so that a table written from a solver's
// report and the download of the same table of a stored run are the same
// bytes.
func csvCell(c any) string {
	switch v := c.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		if utf8.ValidString(v) {
			return v
		}
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.FormatFloat(float64(v), 'g', -1, 64)
	case int64:
		return strconv.FormatFloat(float64(v), 'g', -1, 64)
	case int32:
		return strconv.FormatFloat(float64(v), 'g', -1, 64)
	case uint64:
		return strconv.FormatFloat(float64(v), 'g', -1, 64)
	case uint:
		return strconv.FormatFloat(float64(v), 'g', -1, 64)
	}
	// Any other cell (invalid UTF-8, a slice, a float32...) reads as its
	// JSON reads back.
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprint(c)
	}
	var d any
	if err := json.Unmarshal(b, &d); err != nil {
		return fmt.Sprint(c)
	}
	switch v := d.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	}
	return fmt.Sprint(d)
}

// Slug is a title as a file name: lower-case letters and digits, every
// other run of characters one '-', none at either end
// ("Jobs (Batsim columns)" → "jobs-batsim-columns").
func Slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// TableCSV writes a table as CSV, the columns first, then one record per
// row (csvCell of each cell; a short row padded with empty cells): the
// server's CSV download and the command line's --tables files.
type TableCSV struct {
	w   *csv.Writer
	rec []string
}

// NewTableCSV starts the CSV of a table of these columns on w; the error
// of writing them, if any, is Flush's.
func NewTableCSV(w io.Writer, columns []string) *TableCSV {
	c := &TableCSV{w: csv.NewWriter(w), rec: make([]string, len(columns))}
	_ = c.w.Write(columns)
	return c
}

// Row writes one row.
func (c *TableCSV) Row(row []any) error {
	for j := range c.rec {
		c.rec[j] = ""
		if j < len(row) {
			c.rec[j] = csvCell(row[j])
		}
	}
	return c.w.Write(c.rec)
}

// Flush writes what is buffered and returns the first error of writing.
func (c *TableCSV) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// WriteCSV writes the table whole as CSV (a LazyTable's rows built).
func (t *Table) WriteCSV(w io.Writer) error {
	rows, err := t.AllRows()
	if err != nil {
		return err
	}
	c := NewTableCSV(w, t.Columns)
	for _, row := range rows {
		if err := c.Row(row); err != nil {
			return err
		}
	}
	return c.Flush()
}
