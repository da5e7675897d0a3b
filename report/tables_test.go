package report

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// lazyReport is a report with a small table and a lazy one of n rows;
// builds counts the lazy table's builds.
func lazyReport(n int, builds *int, row func(i int) []any) *Report {
	return &Report{
		Metrics: []Metric{{Name: "m", Value: 1}},
		Tables: []Table{
			{Title: "small", Columns: []string{"k"}, Rows: [][]any{{"a"}}},
			LazyTable("Jobs", []string{"id", "t"}, n, func() [][]any {
				*builds++
				rows := make([][]any, n)
				for i := range rows {
					rows[i] = row(i)
				}
				return rows
			}),
		},
	}
}

func TestLazyTableIsBuiltOnceWhenRead(t *testing.T) {
	builds := 0
	r := lazyReport(3, &builds, func(i int) []any { return []any{i, float64(i) / 2} })
	if err := r.Validate(); err != nil || builds != 0 {
		t.Fatalf("Validate: %v, %d builds; want the lazy table left unbuilt", err, builds)
	}
	if n := r.Tables[1].NumRows(); n != 3 || builds != 0 {
		t.Errorf("NumRows %d after %d builds, want 3 without building", n, builds)
	}
	got, err := EncodeReport(r)
	if err != nil {
		t.Fatal(err)
	}
	eager := *r
	eager.Tables = []Table{r.Tables[0], {Title: "Jobs", Columns: []string{"id", "t"}, Rows: [][]any{{0, 0.0}, {1, 0.5}, {2, 1.0}}}}
	want, _ := json.Marshal(&eager)
	if !bytes.Equal(got, want) {
		t.Errorf("the lazy report encodes\n%s\nwant\n%s", got, want)
	}
	if m, err := json.Marshal(r); err != nil || !bytes.Equal(m, want) {
		t.Errorf("json.Marshal of the lazy report: %s, %v", m, err)
	}
	copied := r.Tables[1] // a copy shares the built rows
	if rows, err := copied.AllRows(); err != nil || len(rows) != 3 || builds != 1 {
		t.Errorf("AllRows: %d rows, %v, %d builds; want 3 rows built once", len(rows), err, builds)
	}
}

func TestLazyTableRowsAreCheckedWhenBuilt(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		row  func(i int) []any
		want string
	}{
		{"non-finite", 2, func(i int) []any { return []any{i, float64(i) / float64(1-i)} }, "table \"Jobs\" row 1 column t is +Inf"},
		{"short row", 2, func(i int) []any { return []any{i} }, "row 0 has 1 cells for 2 columns"},
		{"panic", 2, func(i int) []any { panic("boom") }, "panic: boom"},
	} {
		builds := 0
		r := lazyReport(c.n, &builds, c.row)
		if err := r.Validate(); err != nil {
			t.Errorf("%s: Validate %v before the rows are built", c.name, err)
		}
		if _, err := EncodeReport(r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: EncodeReport error %v, want %q", c.name, err, c.want)
		}
		if rows, err := r.Tables[1].AllRows(); err == nil || rows != nil || builds != 1 {
			t.Errorf("%s: AllRows %d rows, %v after %d builds; want the error of the one build", c.name, len(rows), err, builds)
		}
	}
	// A build that gives another number of rows than the table said.
	r := &Report{Tables: []Table{LazyTable("Jobs", []string{"id"}, 3, func() [][]any { return [][]any{{1}} })}}
	if _, err := r.Tables[0].AllRows(); err == nil || !strings.Contains(err.Error(), "built 1 rows, said 3") {
		t.Errorf("a build of 1 row for 3: %v", err)
	}
	var b bytes.Buffer
	if err := r.Tables[0].WriteCSV(&b); err == nil {
		t.Error("WriteCSV wrote a table whose rows failed their check")
	}
	if err := (&Report{Tables: []Table{LazyTable("x", nil, -1, func() [][]any { return nil })}}).Validate(); err == nil {
		t.Error("Validate took a table of -1 rows")
	}
}

// TestTableJSONIsTable keeps TableJSON, which MarshalJSON encodes and the store pages by, in
// step with Table's JSON fields.
func TestTableJSONIsTable(t *testing.T) {
	a, b := reflect.TypeFor[TableJSON[[]any]](), reflect.TypeFor[Table]()
	var exported []reflect.StructField
	for i := range b.NumField() {
		if f := b.Field(i); f.IsExported() {
			exported = append(exported, f)
		}
	}
	if a.NumField() != len(exported) {
		t.Fatalf("TableJSON has %d fields, Table %d exported", a.NumField(), len(exported))
	}
	for i, fb := range exported {
		if fa := a.Field(i); fa.Name != fb.Name || fa.Tag != fb.Tag || fa.Type != fb.Type {
			t.Errorf("field %d: tableJSON %s %q, Table %s %q", i, fa.Name, fa.Tag, fb.Name, fb.Tag)
		}
	}
}

func TestPagedOutPagesOnlyLargeTablesWithoutBuilding(t *testing.T) {
	builds := 0
	r := lazyReport(PageOutRows+1, &builds, func(i int) []any { return []any{i, 1.0} })
	r.Tables = append(r.Tables, Table{Title: "eager", Columns: []string{"i"}, Rows: make([][]any, PageOutRows+2)},
		Table{Title: "at the limit", Columns: []string{"i"}, Rows: make([][]any, PageOutRows)})
	p, idx := r.PagedOut()
	if !reflect.DeepEqual(idx, []int{1, 2}) || builds != 0 {
		t.Fatalf("paged tables %v after %d builds, want [1 2] and none", idx, builds)
	}
	for _, i := range idx {
		if tb := p.Tables[i]; !tb.Paged || tb.RowCount != r.Tables[i].NumRows() || tb.Rows == nil || len(tb.Rows) != 0 || tb.Title != r.Tables[i].Title {
			t.Errorf("table %d paged as %+v", i, tb)
		}
	}
	if p.Tables[3].Paged || len(p.Tables[3].Rows) != PageOutRows || p.Tables[0].Paged {
		t.Error("a table of at most PageOutRows rows was paged")
	}
	if r.Tables[1].NumRows() != PageOutRows+1 || len(r.Tables[2].Rows) != PageOutRows+2 || r.Tables[2].Paged {
		t.Error("PagedOut changed the report it copied")
	}
	if n := p.Tables[1].NumRows(); n != PageOutRows+1 {
		t.Errorf("a paged table's NumRows is %d, want its row count", n)
	}
	small := &Report{Tables: []Table{{Title: "s", Rows: [][]any{{1}}}}}
	if q, idx := small.PagedOut(); q != small || idx != nil {
		t.Error("a report without a large table was copied")
	}
}

// roundTrip is a cell as the stored report's JSON gives it back.
func roundTrip(t testing.TB, c any) any {
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("%#v: %v", c, err)
	}
	var d any
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCSVCellReadsAsStored: a cell of a solver's table is written as the
// same cell read back from the stored report is (the server's CSV).
func TestCSVCellReadsAsStored(t *testing.T) {
	for _, c := range []struct {
		cell any
		want string
	}{
		{1234567, "1.234567e+06"}, // an int reads back as a float64
		{int64(28490), "28490"},
		{uint(7), "7"},
		{int32(-3), "-3"},
		{uint64(1 << 60), "1.152921504606847e+18"},
		{2.5, "2.5"},
		{1e21, "1e+21"},
		{math.Copysign(0, -1), "-0"},
		{float32(0.1), "0.1"},
		{"a,b \"c\"", "a,b \"c\""},
		{"bad \xff utf-8", "bad \ufffd utf-8"},
		{true, "true"},
		{nil, ""},
		{[]any{1, "x"}, "[1 x]"},
		{map[string]int{"a": 1}, "map[a:1]"},
	} {
		got := CSVCell(c.cell)
		if got != c.want {
			t.Errorf("CSVCell(%#v) = %q, want %q", c.cell, got, c.want)
		}
		if stored := CSVCell(roundTrip(t, c.cell)); stored != got {
			t.Errorf("CSVCell(%#v) = %q, but the stored cell writes %q", c.cell, got, stored)
		}
	}
}

func FuzzCSVCellReadsAsStored(f *testing.F) {
	f.Add(1.5, int64(1234567), "x")
	f.Add(-0.0, int64(-1), "\xff")
	f.Fuzz(func(t *testing.T, x float64, n int64, s string) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return // no report holds them
		}
		for _, c := range []any{x, n, int(n), s, []any{x, s}} {
			if a, b := CSVCell(c), CSVCell(roundTrip(t, c)); a != b {
				t.Errorf("CSVCell(%#v) = %q, stored %q", c, a, b)
			}
		}
	})
}

func TestTableCSV(t *testing.T) {
	tb := LazyTable("Jobs", []string{"id", "note", "t"}, 2, func() [][]any { return [][]any{{1, "a,b", 2.5}, {2000000, nil, 1e-7}} })
	var b bytes.Buffer
	if err := tb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if want := "id,note,t\n1,\"a,b\",2.5\n2e+06,,1e-07\n"; b.String() != want {
		t.Errorf("CSV\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	c := NewTableCSV(&b, []string{"a", "b"})
	if err := c.Row([]any{"only"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil || b.String() != "a,b\nonly,\n" {
		t.Errorf("a short row: %q, %v", b.String(), err)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"Jobs (Batsim columns)": "jobs-batsim-columns", "  Über  42 ": "ber-42", "": "", "--": ""} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
