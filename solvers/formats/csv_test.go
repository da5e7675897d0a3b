package formats

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"schedlab/errs"
)

func TestReadMatrixAcceptsHeadersLabelsAndCRLF(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		values   [][]float64
		cols     []string
		rows     []string
		lines    []int
		labelCol int
	}{
		{"plain", "1,2\n3,4\n", [][]float64{{1, 2}, {3, 4}}, nil, nil, []int{1, 2}, 0},
		{"crlf as in Tarplee's files", "59.72,27.01\r\n105.96,55.72\r\n", [][]float64{{59.72, 27.01}, {105.96, 55.72}}, nil, nil, []int{1, 2}, 0},
		{"header", "a,b\n1,2\n", [][]float64{{1, 2}}, []string{"a", "b"}, nil, []int{2}, 0},
		{"header and labels", "type,a,b\nC-Ray,1,2\n7-Zip,3,4\n", [][]float64{{1, 2}, {3, 4}}, []string{"a", "b"}, []string{"C-Ray", "7-Zip"}, []int{2, 3}, 1},
		{"labels without header", "x,1,2\ny,3,4\n", [][]float64{{1, 2}, {3, 4}}, nil, []string{"x", "y"}, []int{1, 2}, 1},
		{"bom, blank lines, comments, spaces", "\xEF\xBB\xBF# ETC\n 1 , 2 \n\n3,4\n\n", [][]float64{{1, 2}, {3, 4}}, nil, nil, []int{2, 4}, 0},
		{"single column with header", "tasks\n5\n6\n", [][]float64{{5}, {6}}, []string{"tasks"}, nil, []int{2, 3}, 0},
		{"no final newline", "1,2\n3,4", [][]float64{{1, 2}, {3, 4}}, nil, nil, []int{1, 2}, 0},
		{"exponents", "1e3,-2.5E-1\n", [][]float64{{1000, -0.25}}, nil, nil, []int{1}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := ReadMatrix("m.csv", []byte(c.in), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m.Values, c.values) || !reflect.DeepEqual(m.ColNames, c.cols) ||
				!reflect.DeepEqual(m.RowNames, c.rows) || !reflect.DeepEqual(m.Lines, c.lines) || m.LabelColumn != c.labelCol {
				t.Errorf("got %+v", m)
			}
		})
	}
}

func TestReadMatrixNamesFileLineAndColumnOfBadInput(t *testing.T) {
	cases := []struct {
		name, in string
		kind     errs.Kind
		field    string
		msg      string
	}{
		{"empty", "", errs.Invalid, "etc.csv", "empty"},
		{"only header", "a,b\n", errs.Invalid, "etc.csv", "only a header"},
		{"ragged", "1,2\n3,4\n5\n", errs.Invalid, "etc.csv line 3", "1 cells, expected 2 as on line 1"},
		{"not a number", "1,2\n3,x4\n", errs.Invalid, "etc.csv line 2 column 2", `not a number: "x4"`},
		{"empty cell", "1,2\n3,\n", errs.Invalid, "etc.csv line 2 column 2", "empty cell"},
		{"NaN", "1,NaN\n", errs.Invalid, "etc.csv line 1 column 2", "finite"},
		{"Inf", "1,2\n-Inf,2\n", errs.Invalid, "etc.csv line 2 column 1", "finite"},
		{"mixed labels", "a,1\n2,3\n", errs.Invalid, "etc.csv line 1 column 1", "not a number"},
		{"bad quote", "1,\"2\n3,4\n", errs.Invalid, "etc.csv line", "malformed CSV"},
		{"too many rows", "1\n2\n3\n4\n", errs.TooLarge, "etc.csv line", "more than 2 rows"},
		{"too many columns", "1,2,3,4\n", errs.TooLarge, "etc.csv line 1", "4 columns, at most 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadMatrix("etc.csv", []byte(c.in), Limits{MaxRows: 2, MaxCols: 3})
			if err == nil {
				t.Fatal("no error")
			}
			if errs.KindOf(err) != c.kind {
				t.Errorf("kind %v, want %v (%v)", errs.KindOf(err), c.kind, err)
			}
			if f := errs.FieldOf(err); !strings.HasPrefix(f, c.field) {
				t.Errorf("field %q, want prefix %q", f, c.field)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("message %q lacks %q", err, c.msg)
			}
		})
	}
}

func TestReadMatrixAllowsHeaderBeyondRowLimit(t *testing.T) {
	m, err := ReadMatrix("x.csv", []byte("a,b\n1,2\n3,4\n"), Limits{MaxRows: 2})
	if err != nil || m.Rows() != 2 || m.Cols() != 2 {
		t.Fatalf("got %v, %v", m, err)
	}
	if _, err := ReadMatrix("x.csv", []byte("1,2\n3,4\n5,6\n"), Limits{MaxRows: 2}); !errs.Is(err, errs.TooLarge) {
		t.Fatalf("3 data rows under a limit of 2: %v", err)
	}
}

func TestReadRecordsKeepsLines(t *testing.T) {
	recs, err := ReadRecords("u.csv", []byte("type,tasks\r\n\r\n3, 400\r\n"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{{1, []string{"type", "tasks"}}, {3, []string{"3", "400"}}}
	if !reflect.DeepEqual(recs, want) {
		t.Fatalf("got %+v", recs)
	}
}

func TestLooksLikeHeader(t *testing.T) {
	cases := []struct {
		in   []string
		want bool
	}{
		{[]string{"type", "tasks"}, true},
		{[]string{"3", "tasks"}, true},
		{[]string{"C-Ray", "400"}, false}, // a labelled data row
		{[]string{"1", "2"}, false},
		{[]string{"x"}, true},
		{[]string{"1"}, false},
	}
	for _, c := range cases {
		if got := LooksLikeHeader(c.in); got != c.want {
			t.Errorf("LooksLikeHeader(%q) = %v", c.in, got)
		}
	}
}

func FuzzReadMatrix(f *testing.F) {
	for _, s := range []string{"1,2\n3,4\n", "a,b\nx,1\ny,2\r\n", "", "\"", "1,NaN", "#c\n\n1", "a\n", "1,2\n3\n", "\xEF\xBB\xBF1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadMatrix("f.csv", data, Limits{MaxRows: 50, MaxCols: 20})
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", k, err)
			}
			if errs.FieldOf(err) == "" {
				t.Fatalf("error names no file: %v", err)
			}
			return
		}
		if m.Rows() == 0 || m.Rows() > 50 || m.Cols()+m.LabelColumn > 20 || len(m.Lines) != m.Rows() {
			t.Fatalf("shape %d×%d", m.Rows(), m.Cols())
		}
		for _, row := range m.Values {
			if len(row) != m.Cols() {
				t.Fatal("ragged result")
			}
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatal("non-finite value")
				}
			}
		}
		if m.RowNames != nil && len(m.RowNames) != m.Rows() {
			t.Fatal("row names do not match rows")
		}
		if m.ColNames != nil && len(m.ColNames) != m.Cols() {
			t.Fatal("column names do not match columns")
		}
	})
}

func ExampleReadMatrix() {
	m, err := ReadMatrix("etc.csv", []byte("task,fast,slow\r\nC-Ray,21.11,72.81\r\n7-Zip,33.51,109.78\r\n"), Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.RowNames, m.ColNames, m.Values)
	_, err = ReadMatrix("etc.csv", []byte("1,2\n3,-\n"), Limits{})
	fmt.Println(err)
	// Output:
	// [C-Ray 7-Zip] [fast slow] [[21.11 72.81] [33.51 109.78]]
	// etc.csv line 2 column 2: not a number: "-"
}
