package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// WriteJSON writes r's JSON to w as it encodes it, in blocks, holding at
// most one plot's or Gantt's JSON at a time, never the whole: the bytes of json.Marshal(r) followed by a newline,
// or, with indent, those of json.MarshalIndent(r, "", "  ") (which is
// built whole first: indentation is on request only). Table cells are
// encoded without reflection (numbers, strings and booleans, the cells
// reports hold; any other cell goes through encoding/json), since a
// per-job table of a trace holds hundreds of thousands of them. A
// LazyTable's rows are built as it is written (Table.AllRows).
func (r *Report) WriteJSON(w io.Writer, indent bool) error {
	if indent {
		var compact bytes.Buffer
		if err := r.WriteJSON(&compact, false); err != nil {
			return err
		}
		var out bytes.Buffer
		if err := json.Indent(&out, bytes.TrimSuffix(compact.Bytes(), []byte("\n")), "", "  "); err != nil {
			return err
		}
		out.WriteByte('\n')
		_, err := w.Write(out.Bytes())
		return err
	}
	e := &reportEncoder{w: w, buf: make([]byte, 0, reportBlock+4096)}
	e.raw(`{"metrics":`)
	e.value(r.Metrics)
	e.raw(`,"tables":`)
	e.tables(r.Tables)
	e.raw(`,"series":`)
	each(e, r.Series)
	e.raw(`,"gantts":`)
	each(e, r.Gantts)
	e.raw(`,"graphs":`)
	e.value(r.Graphs)
	if len(r.Heatmaps) > 0 {
		e.raw(`,"heatmaps":`)
		e.value(r.Heatmaps)
	}
	if len(r.Parallels) > 0 {
		e.raw(`,"parallels":`)
		e.value(r.Parallels)
	}
	if len(r.Notes) > 0 {
		e.raw(`,"notes":`)
		e.value(r.Notes)
	}
	if r.Time != nil {
		e.raw(`,"time":`)
		e.value(r.Time)
	}
	if r.Detail != nil {
		e.raw(`,"detail":`)
		e.value(r.Detail)
	}
	e.raw("}\n")
	return e.flush()
}

// reportBlock is the size of the blocks WriteJSON writes.
const reportBlock = 64 << 10

// reportEncoder appends JSON to buf and writes it out in blocks; the
// first error sticks.
type reportEncoder struct {
	w   io.Writer
	buf []byte
	err error
}

func (e *reportEncoder) raw(s string) { e.buf = append(e.buf, s...); e.spill() }

// spill writes buf out once it holds a block.
func (e *reportEncoder) spill() {
	if len(e.buf) >= reportBlock {
		e.flushBuf()
	}
}

func (e *reportEncoder) flushBuf() {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

func (e *reportEncoder) flush() error {
	e.flushBuf()
	return e.err
}

// value appends v as encoding/json encodes it.
func (e *reportEncoder) value(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		e.err = cmp.Or(e.err, err)
		return
	}
	e.buf = append(e.buf, b...)
	e.spill()
}

// list appends xs as a JSON array, each element by one (null when xs is
// nil, as encoding/json writes a nil slice), writing out full blocks
// between elements.
func list[T any](e *reportEncoder, xs []T, one func(x *T)) {
	if xs == nil {
		e.buf = append(e.buf, "null"...)
		return
	}
	e.buf = append(e.buf, '[')
	for i := range xs {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		one(&xs[i])
		e.spill()
	}
	e.buf = append(e.buf, ']')
}

// key appends a member's key: `"name":` after a comma unless first.
func (e *reportEncoder) key(name string, first bool) {
	if !first {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '"', ':')
}

// trueOmit appends name: true for a bool member tagged omitempty that is set.
func (e *reportEncoder) trueOmit(name string, b bool) {
	if b {
		e.key(name, false)
		e.buf = append(e.buf, "true"...)
	}
}

func (e *reportEncoder) tables(ts []Table) { list(e, ts, e.table) }

// table appends t with the fields of Table in order, as encoding/json does.
func (e *reportEncoder) table(t *Table) {
	e.buf = append(e.buf, `{"title":`...)
	e.buf = appendJSONString(e.buf, t.Title)
	e.buf = append(e.buf, `,"columns":`...)
	e.value(t.Columns)
	e.buf = append(e.buf, `,"rows":`...)
	rows, err := t.AllRows()
	if err != nil && e.err == nil {
		e.err = err
	}
	list(e, rows, func(row *[]any) { e.row(*row) })
	e.trueOmit("paged", t.Paged)
	if t.RowCount != 0 {
		e.key("row_count", false)
		e.buf = strconv.AppendInt(e.buf, int64(t.RowCount), 10)
	}
	if len(t.TimeCols) > 0 {
		e.key("time_columns", false)
		e.value(t.TimeCols)
	}
	e.buf = append(e.buf, '}')
}

// each appends xs as a JSON array, one element at a time through
// encoding/json, writing out full blocks between elements: a long run's
// plots and Gantts are written without holding them whole.
func each[T any](e *reportEncoder, xs []T) { list(e, xs, func(x *T) { e.value(x) }) }

// row appends one table row.
func (e *reportEncoder) row(row []any) {
	if row == nil {
		e.buf = append(e.buf, "null"...)
		return
	}
	e.buf = append(e.buf, '[')
	for j, c := range row {
		if j > 0 {
			e.buf = append(e.buf, ',')
		}
		var ok bool
		e.buf, ok = appendJSONCell(e.buf, c)
		if !ok {
			e.value(c)
		}
	}
	e.buf = append(e.buf, ']')
}

// appendJSONCell appends a table cell as encoding/json encodes it, for
// the kinds of cell reports hold (float64, the integer types, string,
// bool, nil); ok is false, with b unchanged, for any other cell and for a
// float that is not finite (which JSON cannot hold).
func appendJSONCell(b []byte, c any) ([]byte, bool) {
	switch v := c.(type) {
	case float64:
		return appendJSONFloat(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10), true
	case int64:
		return strconv.AppendInt(b, v, 10), true
	case int32:
		return strconv.AppendInt(b, int64(v), 10), true
	case uint64:
		return strconv.AppendUint(b, v, 10), true
	case uint:
		return strconv.AppendUint(b, uint64(v), 10), true
	case string:
		return appendJSONString(b, v), true
	case bool:
		return strconv.AppendBool(b, v), true
	case nil:
		return append(b, "null"...), true
	}
	return b, false
}

// appendJSONFloat is encoding/json's float64 encoding: the shortest
// representation, 'f' between 1e-6 and 1e21 and 'e' outside, with the
// exponent's leading zero dropped; a whole number below 2^53 is written
// as the integer it is (the same digits, without formatting a float).
func appendJSONFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 && !(f == 0 && math.Signbit(f)) {
		return strconv.AppendInt(b, int64(f), 10), true
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// appendJSONString appends s quoted as encoding/json quotes it (HTML
// characters escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029
// escaped); a string of plain printable ASCII, the common case, is copied
// as it is.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// EncodeReport is json.Marshal(r), the same bytes, encoded by WriteJSON:
// what the runner and the workers store.
func EncodeReport(r *Report) ([]byte, error) {
	var b bytes.Buffer
	if err := r.WriteJSON(&b, false); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
