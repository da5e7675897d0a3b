package store

import (
	"database/sql"
	"encoding/base64"
	"strconv"
	"strings"
)

// Lists are paged by keyset, newest first: a page is the rows ordered by
// (created_at DESC, rowid DESC) strictly after the last row of the page
// before. A Cursor names that row; it stays valid while rows are added or
// deleted (a new row never shifts a page, unlike OFFSET) and costs an index
// seek, however deep the page.

// Cursor is an opaque position in a list: where the next page starts. The
// empty cursor is the first page.
type Cursor string

// position is what a cursor encodes: the sort key of the last row shown.
type position struct {
	created string // stored created_at text
	rowid   int64
}

func (p position) cursor() Cursor {
	return Cursor(base64.RawURLEncoding.EncodeToString([]byte(p.created + " " + strconv.FormatInt(p.rowid, 10))))
}

// decode reads a cursor; the empty one is (zero, false).
func (c Cursor) decode(op string) (position, bool, error) {
	if c == "" {
		return position{}, false, nil
	}
	bad := invalid(op, "cursor", "not a cursor of this list: start again from the first page")
	b, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil {
		return position{}, false, bad
	}
	created, id, ok := strings.Cut(string(b), " ")
	if !ok {
		return position{}, false, bad
	}
	if _, err := parseTime(created); err != nil {
		return position{}, false, bad
	}
	rowid, err := strconv.ParseInt(id, 10, 64)
	if err != nil || rowid <= 0 {
		return position{}, false, bad
	}
	return position{created: created, rowid: rowid}, true, nil
}

// keyset is the WHERE term and arguments that start a page after p.
func keyset(p position) (string, []any) {
	return "(created_at, rowid) < (?, ?)", []any{p.created, p.rowid}
}

// scanner is a row or rows.
type scanner interface{ Scan(...any) error }

// withKey reads the sort key columns (created_at, rowid) placed first in a
// row, then hands the rest to the scan function.
type withKey struct {
	sc  scanner
	pos *position
}

func (k withKey) Scan(dest ...any) error {
	return k.sc.Scan(append([]any{&k.pos.created, &k.pos.rowid}, dest...)...)
}

// scanPage reads a page of rows selected with the keyset columns first
// (created_at, rowid) and at most limit+1 rows (limit ≤ 0: all): scan
// reads one row; the row past the page, if any, only says that another
// page follows, whose cursor is returned.
func scanPage[T any](op string, rows *sql.Rows, limit int, scan func(scanner) (*T, error)) ([]T, Cursor, error) {
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
			return nil, "", dbErr(op, err)
		}
		out = append(out, *v)
		last = pos
	}
	if err := rows.Err(); err != nil {
		return nil, "", dbErr(op, err)
	}
	var next Cursor
	if more {
		next = last.cursor()
	}
	return out, next, nil
}

// pageQuery is the SELECT of one page of table, newest first: the
// equalities in where (with their args), the keyset after cursor, ordered
// by (created_at, rowid) descending, and one row past limit (≤ 0: all) so
// that scanPage can tell whether another page follows. The keyset columns
// come first, then columns.
func pageQuery(op, table, columns string, where []string, args []any, cursor Cursor, limit int) (string, []any, error) {
	p, ok, err := cursor.decode(op)
	if err != nil {
		return "", nil, err
	}
	if ok {
		term, a := keyset(p)
		where = append(where, term)
		args = append(args, a...)
	}
	q := "SELECT created_at, rowid, " + columns + " FROM " + table // names are ours, values placeholders
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	sqlLimit := -1 // SQLite: no limit
	if limit > 0 {
		sqlLimit = limit + 1
	}
	return q + " ORDER BY created_at DESC, rowid DESC LIMIT ?", append(args, sqlLimit), nil
}
