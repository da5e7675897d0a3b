package store

import (
	"database/sql"
	"encoding/base64"
	"math"
	"strconv"
	"strings"
)

// Lists are paged by keyset: a page is the rows in the list's order
// strictly after the last row of the page before. A Cursor names that row;
// it stays valid while rows are added or deleted (a new row never shifts a
// page, unlike OFFSET) and costs an index seek, however deep the page.
//
// A list's order is a keyset shape: a sort key and a unique tie-breaker,
// both in one index, and a direction. Two shapes exist: newest first,
// (created_at, rowid) descending, for every list; and by a metric,
// (run_metrics.value, run_id) ascending or descending, for /runs sorted by
// a metric. A cursor says which shape it belongs to, so one list never
// reads another's.

// Cursor is an opaque position in a list: where the next page starts. The
// empty cursor is the first page.
type Cursor string

// shape is a keyset order: ORDER BY key, tie (both descending if desc).
type shape struct {
	tag      string // the cursor's prefix; "" for newest (cursors made before shapes)
	key, tie string // SQL expressions, ours
	desc     bool
	// parseKey and parseTie read a cursor's text back into the values
	// bound against key and tie; false when the text is not one.
	parseKey, parseTie func(string) (any, bool)
}

// newest is the order of every list: newest first, the rowid breaking ties
// between rows created in the same microsecond.
var newest = shape{key: "created_at", tie: "rowid", desc: true,
	parseKey: func(s string) (any, bool) {
		_, err := parseTime(s)
		return s, err == nil
	},
	parseTie: func(s string) (any, bool) {
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil && n > 0
	}}

// byMetric is the order of runs by the value of one metric (m.value, with
// m the run's row of run_metrics), the run id breaking ties: exactly the
// order of the index run_metrics_name_value within one name.
func byMetric(desc bool) shape {
	tag := "m+"
	if desc {
		tag = "m-"
	}
	return shape{tag: tag, key: "m.value", tie: "m.run_id", desc: desc,
		parseKey: func(s string) (any, bool) {
			v, err := strconv.ParseFloat(s, 64)
			return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
		},
		parseTie: func(s string) (any, bool) { return s, len(s) == IDLen }}
}

// position is what a cursor encodes: the sort key and tie-breaker of the
// last row shown, as text (time text, a rowid or a float in decimal, an id).
type position struct {
	key, tie string
}

func (sh shape) cursor(p position) Cursor {
	s := p.key + " " + p.tie
	if sh.tag != "" {
		s = sh.tag + " " + s
	}
	return Cursor(base64.RawURLEncoding.EncodeToString([]byte(s)))
}

// decode reads a cursor of shape sh into the values bound against its key
// and tie; the empty cursor is (nil, false).
func (c Cursor) decode(sh shape) ([]any, bool, error) {
	if c == "" {
		return nil, false, nil
	}
	bad := invalid("cursor", "not a cursor of this list: start again from the first page")
	b, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil {
		return nil, false, bad
	}
	parts := strings.Split(string(b), " ")
	if sh.tag != "" {
		if len(parts) == 0 || parts[0] != sh.tag {
			return nil, false, bad
		}
		parts = parts[1:]
	}
	if len(parts) != 2 {
		return nil, false, bad
	}
	key, ok1 := sh.parseKey(parts[0])
	tie, ok2 := sh.parseTie(parts[1])
	if !ok1 || !ok2 {
		return nil, false, bad
	}
	return []any{key, tie}, true, nil
}

// after is the WHERE term that starts a page after the position bound as
// its two arguments: a row-value comparison, which SQLite serves as a seek
// in an index on (..., key, tie).
func (sh shape) after() string {
	if sh.desc {
		return "(" + sh.key + ", " + sh.tie + ") < (?, ?)"
	}
	return "(" + sh.key + ", " + sh.tie + ") > (?, ?)"
}

func (sh shape) orderBy() string {
	dir := " ASC"
	if sh.desc {
		dir = " DESC"
	}
	return sh.key + dir + ", " + sh.tie + dir
}

// scanner is a row or rows.
type scanner interface{ Scan(...any) error }

// withKey reads the sort key columns (key, tie) placed first in a row, then
// hands the rest to the scan function.
type withKey struct {
	sc  scanner
	pos *position
}

func (k withKey) Scan(dest ...any) error {
	return k.sc.Scan(append([]any{&k.pos.key, &k.pos.tie}, dest...)...)
}

// scanPage reads a page of a newest-first list (pageQuery).
func scanPage[T any](rows *sql.Rows, limit int, scan func(scanner) (*T, error)) ([]T, Cursor, error) {
	return scanPageBy(newest, rows, limit, scan)
}

// scanPageBy reads a page of rows of shape sh, selected with the keyset
// columns first (key, tie) and at most limit+1 rows (limit ≤ 0: all):
// scan reads one row; the row past the page, if any, only says that
// another page follows, whose cursor is returned. The key is scanned as
// text: database/sql writes a REAL in the shortest decimal that reads back
// as the same float64, so a cursor seeks exactly past its row.
func scanPageBy[T any](sh shape, rows *sql.Rows, limit int, scan func(scanner) (*T, error)) ([]T, Cursor, error) {
	defer rows.Close()
	out := []T{}
	var last, pos position
	more := false
	for rows.Next() {
		if limit > 0 && len(out) == limit {
			more = true
			break
		}
		v, err := scan(withKey{rows, &pos})
		if err != nil {
			return nil, "", dbErr(err)
		}
		out = append(out, *v)
		last = pos
	}
	if err := rows.Err(); err != nil {
		return nil, "", dbErr(err)
	}
	var next Cursor
	if more {
		next = sh.cursor(last)
	}
	return out, next, nil
}

// pageQuery is the SELECT of one page of table, newest first: the
// equalities in where (with their args), the keyset after cursor, ordered
// by (created_at, rowid) descending, and one row past limit (≤ 0: all) so
// that scanPage can tell whether another page follows. The keyset columns
// come first, then columns.
func pageQuery(table, columns string, where []string, args []any, cursor Cursor, limit int) (string, []any, error) {
	return pageQueryBy(newest, table, columns, where, args, cursor, limit)
}

// pageQueryBy is pageQuery for a list of shape sh over from (a table or a
// join, ours).
func pageQueryBy(sh shape, from, columns string, where []string, args []any, cursor Cursor, limit int) (string, []any, error) {
	p, ok, err := cursor.decode(sh)
	if err != nil {
		return "", nil, err
	}
	if ok {
		where = append(where, sh.after())
		args = append(args, p...)
	}
	q := "SELECT " + sh.key + ", " + sh.tie + ", " + columns + " FROM " + from // names are ours, values placeholders
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	sqlLimit := -1 // SQLite: no limit
	if limit > 0 {
		sqlLimit = limit + 1
	}
	return q + " ORDER BY " + sh.orderBy() + " LIMIT ?", append(args, sqlLimit), nil
}
