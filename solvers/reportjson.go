package solvers

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// WriteJSON writes r's JSON to w as it encodes it, in blocks, never
// holding the whole: the bytes of json.Marshal(r) followed by a newline,
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
	e.plots(r.Series)
	e.raw(`,"gantts":`)
	e.gantts(r.Gantts)
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
		if e.err == nil {
			e.err = err
		}
		return
	}
	e.buf = append(e.buf, b...)
	e.spill()
}

func (e *reportEncoder) tables(ts []Table) {
	if ts == nil {
		e.raw("null")
		return
	}
	e.buf = append(e.buf, '[')
	for i := range ts {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.table(&ts[i])
	}
	e.buf = append(e.buf, ']')
}

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
	if rows == nil {
		e.buf = append(e.buf, "null"...)
	} else {
		e.buf = append(e.buf, '[')
		for i, row := range rows {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.row(row)
			e.spill()
		}
		e.buf = append(e.buf, ']')
	}
	if t.Paged {
		e.buf = append(e.buf, `,"paged":true`...)
	}
	if t.RowCount != 0 {
		e.buf = append(e.buf, `,"row_count":`...)
		e.buf = strconv.AppendInt(e.buf, int64(t.RowCount), 10)
	}
	e.buf = append(e.buf, '}')
}

// plots appends ps with the fields of Plot and Line in order, as
// encoding/json does: their points are most of a long run's report.
// Regions, rare and small, go through encoding/json.
func (e *reportEncoder) plots(ps []Plot) {
	if ps == nil {
		e.raw("null")
		return
	}
	e.buf = append(e.buf, '[')
	for i := range ps {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		p := &ps[i]
		e.buf = append(e.buf, `{"title":`...)
		e.buf = appendJSONString(e.buf, p.Title)
		e.buf = append(e.buf, `,"x_label":`...)
		e.buf = appendJSONString(e.buf, p.XLabel)
		e.buf = append(e.buf, `,"y_label":`...)
		e.buf = appendJSONString(e.buf, p.YLabel)
		if p.Kind != "" {
			e.buf = append(e.buf, `,"kind":`...)
			e.buf = appendJSONString(e.buf, p.Kind)
		}
		if p.XLog {
			e.buf = append(e.buf, `,"x_log":true`...)
		}
		if p.YLog {
			e.buf = append(e.buf, `,"y_log":true`...)
		}
		if p.XTime {
			e.buf = append(e.buf, `,"x_time":true`...)
		}
		e.buf = append(e.buf, `,"lines":`...)
		if p.Lines == nil {
			e.buf = append(e.buf, "null"...)
		} else {
			e.buf = append(e.buf, '[')
			for j := range p.Lines {
				if j > 0 {
					e.buf = append(e.buf, ',')
				}
				e.line(&p.Lines[j])
			}
			e.buf = append(e.buf, ']')
		}
		if len(p.Regions) > 0 {
			e.buf = append(e.buf, `,"regions":`...)
			e.value(p.Regions)
		}
		e.buf = append(e.buf, '}')
		e.spill()
	}
	e.buf = append(e.buf, ']')
}

// line appends one Line.
func (e *reportEncoder) line(l *Line) {
	e.buf = append(e.buf, `{"name":`...)
	e.buf = appendJSONString(e.buf, l.Name)
	e.buf = append(e.buf, `,"points":`...)
	e.pairs(l.Points)
	if l.Dashed {
		e.buf = append(e.buf, `,"dashed":true`...)
	}
	if len(l.Band) > 0 {
		e.buf = append(e.buf, `,"band":`...)
		e.pairs(l.Band)
	}
	e.buf = append(e.buf, '}')
}

// pairs appends (x, y) points; a value JSON cannot hold (NaN, ±Inf) is
// encoding/json's error.
func (e *reportEncoder) pairs(ps [][2]float64) {
	if ps == nil {
		e.buf = append(e.buf, "null"...)
		return
	}
	e.buf = append(e.buf, '[')
	for i, p := range ps {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = append(e.buf, '[')
		e.float(p[0])
		e.buf = append(e.buf, ',')
		e.float(p[1])
		e.buf = append(e.buf, ']')
		e.spill()
	}
	e.buf = append(e.buf, ']')
}

// float appends x as encoding/json does, or records its error for a
// value JSON cannot hold.
func (e *reportEncoder) float(x float64) {
	var ok bool
	if e.buf, ok = appendJSONFloat(e.buf, x); !ok {
		e.value(x) // encoding/json's UnsupportedValueError
	}
}

// gantts appends gs with the fields of Gantt and Bar in order, as
// encoding/json does.
func (e *reportEncoder) gantts(gs []Gantt) {
	if gs == nil {
		e.raw("null")
		return
	}
	e.buf = append(e.buf, '[')
	for i := range gs {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		g := &gs[i]
		e.buf = append(e.buf, `{"title":`...)
		e.buf = appendJSONString(e.buf, g.Title)
		if g.TimeUnit != "" {
			e.buf = append(e.buf, `,"time_unit":`...)
			e.buf = appendJSONString(e.buf, g.TimeUnit)
		}
		if g.TimeLabel != "" {
			e.buf = append(e.buf, `,"time_label":`...)
			e.buf = appendJSONString(e.buf, g.TimeLabel)
		}
		e.buf = append(e.buf, `,"lanes":`...)
		e.strings(g.Lanes)
		e.buf = append(e.buf, `,"bars":`...)
		if g.Bars == nil {
			e.buf = append(e.buf, "null"...)
		} else {
			e.buf = append(e.buf, '[')
			for j := range g.Bars {
				if j > 0 {
					e.buf = append(e.buf, ',')
				}
				e.bar(&g.Bars[j])
				e.spill()
			}
			e.buf = append(e.buf, ']')
		}
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
}

// bar appends one Bar.
func (e *reportEncoder) bar(b *Bar) {
	e.buf = append(e.buf, `{"lane":`...)
	e.buf = strconv.AppendInt(e.buf, int64(b.Lane), 10)
	e.buf = append(e.buf, `,"start":`...)
	e.float(b.Start)
	e.buf = append(e.buf, `,"end":`...)
	e.float(b.End)
	if b.Label != "" {
		e.buf = append(e.buf, `,"label":`...)
		e.buf = appendJSONString(e.buf, b.Label)
	}
	if b.Group != "" {
		e.buf = append(e.buf, `,"group":`...)
		e.buf = appendJSONString(e.buf, b.Group)
	}
	if b.Kind != "" {
		e.buf = append(e.buf, `,"kind":`...)
		e.buf = appendJSONString(e.buf, b.Kind)
	}
	e.buf = append(e.buf, '}')
}

// strings appends a list of strings (null when nil).
func (e *reportEncoder) strings(ss []string) {
	if ss == nil {
		e.buf = append(e.buf, "null"...)
		return
	}
	e.buf = append(e.buf, '[')
	for i, s := range ss {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendJSONString(e.buf, s)
	}
	e.buf = append(e.buf, ']')
	e.spill()
}

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
		e.buf, ok = AppendJSONCell(e.buf, c)
		if !ok {
			e.value(c)
		}
	}
	e.buf = append(e.buf, ']')
}

// AppendJSONCell appends a table cell as encoding/json encodes it, for
// the kinds of cell reports hold (float64, the integer types, string,
// bool, nil); ok is false, with b unchanged, for any other cell and for a
// float that is not finite (which JSON cannot hold).
func AppendJSONCell(b []byte, c any) ([]byte, bool) {
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
