package report

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// trickyReport holds the cells and fields whose JSON encoding has corner
// cases: negative zero, exponents, large and tiny numbers, HTML and
// control characters, invalid UTF-8, line separators, nil rows and cells,
// other integer types and cells encoding/json has to take.
func trickyReport() *Report {
	return &Report{
		Metrics: []Metric{{Name: "m<1>", Value: 1e21, Unit: "s", Better: Lower}, {Name: "z", Value: math.Copysign(0, -1)}},
		Tables: []Table{
			{Title: "cells & <things>", Columns: []string{"a", "b", "c", "d"}, Rows: [][]any{
				{0.0, math.Copysign(0, -1), 1e21, 1e20},
				{1e-7, 1.5e-6, 123456789.125, -0.1},
				{float64(1 << 53), float64(1<<53) + 2, -9007199254740991.0, 1e300},
				{"plain", "quote \" back \\ slash", "<b>&amp;</b>", "tab\tnew\nline\x01"},
				{"caf\xe9", "line\u2028sep\u2029", "ünïcode ✓", ""},
				{nil, true, false, int64(-7)},
				{int32(3), uint64(1 << 63), uint(4), map[string]int{"k": 1}},
				{[]float64{1, 2.5}, json.Number("12"), struct{ X int }{2}, 7},
			}},
			{Title: "empty", Columns: nil, Rows: nil},
			{Title: "no rows", Columns: []string{}, Rows: [][]any{}},
			{Title: "nil row", Columns: []string{"x"}, Rows: [][]any{nil}},
			{Title: "paged", Columns: []string{"x"}, Rows: [][]any{}, Paged: true, RowCount: 5000},
		},
		Series: []Plot{
			{Title: "p", Lines: []Line{{Name: "l", Points: [][2]float64{{1, 2}}}}},
			{Title: "<all>", XLabel: "x & y", YLabel: "caf\xe9", Kind: "step", XLog: true, YLog: true, XTime: true,
				Lines: []Line{
					{Name: "l\u2028", Points: [][2]float64{{math.Copysign(0, -1), 1e21}, {1e-7, -0.1}, {float64(1<<53) + 2, 123456789.125}}, Dashed: true,
						Band: [][2]float64{{0, 1e-6}, {1e20, -3}}},
					{Name: "", Points: nil},
					{Name: "empty", Points: [][2]float64{}, Band: [][2]float64{}},
				},
				Regions: []Region{{Name: "r", X0: 1, X1: 2.5, Y0: -1, Y1: 1e-9}}},
			{Title: "no lines", Lines: nil, Regions: []Region{}},
			{Title: "empty lines", Lines: []Line{}},
		},
		Gantts: []Gantt{
			{Title: "g", TimeUnit: "s", TimeLabel: "time <since> start", Lanes: []string{"P0", "a\"b", "\xff"},
				Bars: []Bar{{Lane: 0, Start: 0, End: 1.5}, {Lane: -2, Start: math.Copysign(0, -1), End: 1e21, Label: "<j>", Group: "g&", Kind: "alt"},
					{Lane: 1 << 40, Start: 1e-7, End: 2.000001, Label: "x"}}},
			{Title: "nil", Lanes: nil, Bars: nil},
			{Title: "empty", Lanes: []string{}, Bars: []Bar{}},
		},
		Graphs:   []Graph{},
		Heatmaps: []Heatmap{{Title: "h", X: []string{"x"}, Y: []string{"y"}, Values: [][]float64{{1}}}},
		Notes:    []string{"a note <with> html"},
		Detail:   map[string]any{"k": []int{1, 2}},
	}
}

func TestWriteJSONIsMarshalsBytes(t *testing.T) {
	for name, r := range map[string]*Report{"tricky": trickyReport(), "empty": {}, "tables only": {Tables: []Table{{Title: "t"}}}} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := r.WriteJSON(&got, false); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(want)+"\n" {
			t.Errorf("%s: WriteJSON\n%s\nMarshal\n%s", name, got.String(), want)
		}
		if enc, err := EncodeReport(r); err != nil || string(enc) != string(want) {
			t.Errorf("%s: EncodeReport differs from Marshal (%v)", name, err)
		}
		wantIndent, _ := json.MarshalIndent(r, "", "  ")
		got.Reset()
		if err := r.WriteJSON(&got, true); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(wantIndent)+"\n" {
			t.Errorf("%s: WriteJSON indented differs from MarshalIndent", name)
		}
	}
}

func TestWriteJSONStreamsInBlocks(t *testing.T) {
	r := &Report{Tables: []Table{{Title: "big", Columns: []string{"i", "x"}}}}
	for i := range 50000 {
		r.Tables[0].Rows = append(r.Tables[0].Rows, []any{i, float64(i) / 7})
	}
	var w countingWriter
	if err := r.WriteJSON(&w, false); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(r)
	if w.n != len(want)+1 || w.writes < 10 || w.largest > reportBlock+8192 {
		t.Errorf("%d bytes in %d writes, the largest %d: want %d bytes in blocks of about %d", w.n, w.writes, w.largest, len(want)+1, reportBlock)
	}
}

type countingWriter struct{ n, writes, largest int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	w.writes++
	w.largest = max(w.largest, len(p))
	return len(p), nil
}

func TestWriteJSONRefusesANonFiniteCell(t *testing.T) {
	for name, r := range map[string]*Report{
		"cell":      {Tables: []Table{{Title: "t", Columns: []string{"x"}, Rows: [][]any{{math.NaN()}}}}},
		"point":     {Series: []Plot{{Lines: []Line{{Points: [][2]float64{{1, math.Inf(1)}}}}}}},
		"band":      {Series: []Plot{{Lines: []Line{{Points: [][2]float64{{1, 2}}, Band: [][2]float64{{math.NaN(), 2}}}}}}},
		"bar start": {Gantts: []Gantt{{Bars: []Bar{{Start: math.Inf(-1)}}}}},
		"bar end":   {Gantts: []Gantt{{Bars: []Bar{{End: math.NaN()}}}}},
	} {
		if err := r.WriteJSON(&bytes.Buffer{}, false); err == nil {
			t.Errorf("%s: a value JSON cannot hold was written", name)
		}
	}
}

// TestWriteJSONKnowsEveryPlotAndGanttField sets each field of Plot, Line,
// Gantt and Bar alone, by reflection, and compares WriteJSON with
// json.Marshal: a field added to one of them and not to the encoder fails
// here.
func TestWriteJSONKnowsEveryPlotAndGanttField(t *testing.T) {
	set := func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString("s")
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int:
			v.SetInt(3)
		case reflect.Float64:
			v.SetFloat(2.5)
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		default:
			t.Fatalf("a field of kind %s: extend this test", v.Kind())
		}
	}
	check := func(what string, r *Report) { t.Helper(); checkWriteJSONIsMarshal(t, what+" set", r) }
	for i := range reflect.TypeOf(Plot{}).NumField() {
		var p Plot
		f := reflect.ValueOf(&p).Elem().Field(i)
		set(f)
		check("Plot."+reflect.TypeOf(p).Field(i).Name, &Report{Series: []Plot{p}})
	}
	for i := range reflect.TypeOf(Line{}).NumField() {
		var l Line
		set(reflect.ValueOf(&l).Elem().Field(i))
		check("Line."+reflect.TypeOf(l).Field(i).Name, &Report{Series: []Plot{{Lines: []Line{l}}}})
	}
	for i := range reflect.TypeOf(Gantt{}).NumField() {
		var g Gantt
		set(reflect.ValueOf(&g).Elem().Field(i))
		check("Gantt."+reflect.TypeOf(g).Field(i).Name, &Report{Gantts: []Gantt{g}})
	}
	for i := range reflect.TypeOf(Bar{}).NumField() {
		var b Bar
		set(reflect.ValueOf(&b).Elem().Field(i))
		check("Bar."+reflect.TypeOf(b).Field(i).Name, &Report{Gantts: []Gantt{{Bars: []Bar{b}}}})
	}
}

// FuzzWriteJSONPlotsAndGantts checks the plot and Gantt encoder against
// encoding/json on fuzzed values and names.
func FuzzWriteJSONPlotsAndGantts(f *testing.F) {
	f.Add(0.0, 1.5, "", "<&>", 3)
	f.Add(math.Copysign(0, -1), 1e21, "caf\xe9", "\u2028", -1)
	f.Add(1e-7, -123456789.125, "\"\\", "x", 1<<40)
	f.Fuzz(func(t *testing.T, x, y float64, s, u string, n int) {
		r := &Report{
			Series: []Plot{{Title: s, XLabel: u, Kind: PlotKind(u), XTime: n%2 == 0, Lines: []Line{{Name: u, Points: [][2]float64{{x, y}, {y, x}}, Dashed: n%3 == 0, Band: [][2]float64{{x, x}}}}}},
			Gantts: []Gantt{{Title: u, TimeUnit: s, Lanes: []string{s, u}, Bars: []Bar{{Lane: n, Start: x, End: y, Label: s, Group: u, Kind: BarKind(s)}}}},
		}
		want, err := json.Marshal(r)
		var got bytes.Buffer
		werr := r.WriteJSON(&got, false)
		if (err == nil) != (werr == nil) {
			t.Fatalf("Marshal error %v, WriteJSON error %v", err, werr)
		}
		if err == nil && strings.TrimSuffix(got.String(), "\n") != string(want) {
			t.Fatalf("WriteJSON\n%s\nMarshal\n%s", got.String(), want)
		}
	})
}

// FuzzAppendJSONCell checks the cell encoder against encoding/json.
func FuzzAppendJSONCell(f *testing.F) {
	f.Add(0.0, "", int64(0))
	f.Add(math.Copysign(0, -1), "<&>", int64(-1))
	f.Add(1e21, "\u2028", int64(1<<62))
	f.Add(1e-7, "caf\xe9", int64(-1<<63))
	f.Add(123.456, "\"\\", int64(9007199254740993))
	f.Fuzz(func(t *testing.T, x float64, s string, n int64) {
		for _, c := range []any{x, s, n, int(n), float64(n), float64(n) / 3} {
			got, ok := AppendJSONCell(nil, c)
			want, err := json.Marshal(c)
			if (err == nil) != ok {
				t.Fatalf("%#v: ok %v, Marshal error %v", c, ok, err)
			}
			if ok && string(got) != string(want) {
				t.Fatalf("%#v: %s, Marshal %s", c, got, want)
			}
		}
	})
}

// TestWriteJSONKnowsEveryReportField sets each field of Report alone, by
// reflection, and compares WriteJSON with json.Marshal: a field added to
// Report and not to WriteJSON fails here.
func TestWriteJSONKnowsEveryReportField(t *testing.T) {
	rt := reflect.TypeOf(Report{})
	for i := range rt.NumField() {
		f := rt.Field(i)
		var r Report
		v := reflect.ValueOf(&r).Elem().Field(i)
		switch f.Type.Kind() {
		case reflect.Slice:
			v.Set(reflect.MakeSlice(f.Type, 1, 1))
		case reflect.Pointer:
			v.Set(reflect.New(f.Type.Elem()))
		case reflect.Interface:
			v.Set(reflect.ValueOf("detail"))
		default:
			t.Fatalf("field %s of kind %s: extend this test", f.Name, f.Type.Kind())
		}
		checkWriteJSONIsMarshal(t, "Report."+f.Name+" set", &r)
	}
}

// checkWriteJSONIsMarshal fails t unless r.WriteJSON writes json.Marshal's
// bytes (and a newline).
func checkWriteJSONIsMarshal(t *testing.T, what string, r *Report) {
	t.Helper()
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := r.WriteJSON(&got, false); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSuffix(got.String(), "\n") != string(want) {
		t.Errorf("%s: WriteJSON\n%s\nMarshal\n%s", what, got.String(), want)
	}
}
