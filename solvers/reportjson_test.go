package solvers

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
		Series:   []Plot{{Title: "p", Lines: []Line{{Name: "l", Points: [][2]float64{{1, 2}}}}}},
		Gantts:   nil,
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
	r := &Report{Tables: []Table{{Title: "t", Columns: []string{"x"}, Rows: [][]any{{math.NaN()}}}}}
	if err := r.WriteJSON(&bytes.Buffer{}, false); err == nil {
		t.Error("a NaN cell was written")
	}
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
		want, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := r.WriteJSON(&got, false); err != nil {
			t.Fatal(err)
		}
		if strings.TrimSuffix(got.String(), "\n") != string(want) {
			t.Errorf("Report.%s set: WriteJSON\n%s\nMarshal\n%s", f.Name, got.String(), want)
		}
	}
}
