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

// str appends the member name: s (never the first member).
func (e *reportEncoder) str(name, s string) {
	e.key(name, false)
	e.buf = appendJSONString(e.buf, s)
}

// strOmit is str for a member tagged omitempty: nothing when s is "".
func (e *reportEncoder) strOmit(name, s string) {
	if s != "" {
		e.str(name, s)
	}
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

// plots appends ps with the fields of Plot and Line in order, as
// encoding/json does: their points are most of a long run's report.
// Regions, rare and small, go through encoding/json.
func (e *reportEncoder) plots(ps []Plot) { list(e, ps, e.plot) }

// plot appends one Plot.
func (e *reportEncoder) plot(p *Plot) {
	e.buf = append(e.buf, '{')
	e.key("title", true)
	e.buf = appendJSONString(e.buf, p.Title)
	e.str("x_label", p.XLabel)
	e.str("y_label", p.YLabel)
	e.strOmit("kind", string(p.Kind))
	e.trueOmit("x_log", p.XLog)
	e.trueOmit("y_log", p.YLog)
	e.trueOmit("x_time", p.XTime)
	e.key("lines", false)
	list(e, p.Lines, e.line)
	if len(p.Regions) > 0 {
		e.key("regions", false)
		e.value(p.Regions)
	}
	if len(p.XNames) > 0 {
		e.key("x_names", false)
		e.value(p.XNames)
	}
	e.buf = append(e.buf, '}')
}

// line appends one Line.
func (e *reportEncoder) line(l *Line) {
	e.buf = append(e.buf, '{')
	e.key("name", true)
	e.buf = appendJSONString(e.buf, l.Name)
	e.key("points", false)
	list(e, l.Points, e.pair)
	e.trueOmit("dashed", l.Dashed)
	if len(l.Band) > 0 {
		e.key("band", false)
		list(e, l.Band, e.pair)
	}
	if len(l.Marks) > 0 {
		e.key("marks", false)
		e.value(l.Marks)
	}
	e.strOmit("colour", l.Colour)
	e.buf = append(e.buf, '}')
}

// pair appends one (x, y) point; a value JSON cannot hold (NaN, ±Inf) is
// encoding/json's error.
func (e *reportEncoder) pair(p *[2]float64) {
	e.buf = append(e.buf, '[')
	e.float(p[0])
	e.buf = append(e.buf, ',')
	e.float(p[1])
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
func (e *reportEncoder) gantts(gs []Gantt) { list(e, gs, e.gantt) }

// gantt appends one Gantt.
func (e *reportEncoder) gantt(g *Gantt) {
	e.buf = append(e.buf, '{')
	e.key("title", true)
	e.buf = appendJSONString(e.buf, g.Title)
	e.strOmit("time_unit", g.TimeUnit)
	e.strOmit("time_label", g.TimeLabel)
	e.key("lanes", false)
	list(e, g.Lanes, func(s *string) { e.buf = appendJSONString(e.buf, *s) })
	e.key("bars", false)
	list(e, g.Bars, e.bar)
	e.buf = append(e.buf, '}')
}

// bar appends one Bar.
func (e *reportEncoder) bar(b *Bar) {
	e.buf = append(e.buf, '{')
	e.key("lane", true)
	e.buf = strconv.AppendInt(e.buf, int64(b.Lane), 10)
	e.key("start", false)
	e.float(b.Start)
	e.key("end", false)
	e.float(b.End)
	e.strOmit("label", b.Label)
	e.strOmit("group", b.Group)
	e.strOmit("kind", string(b.Kind))
	e.buf = append(e.buf, '}')
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
