package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/runtypes"
)

// bigReport has a small table and a table of n rows.
func bigReport(t testing.TB, n int) (*report.Report, []byte) {
	t.Helper()
	r := &report.Report{
		Metrics: []report.Metric{{Name: "objective", Value: 2.5}},
		Tables:  []report.Table{{Title: "small", Columns: []string{"k", "v"}, Rows: [][]any{{"a", 1.0}, {"b <2>", 2.5}}}, {Title: "Jobs", Columns: []string{"id", "start", "procs"}}},
		Notes:   []string{"a note"},
	}
	for i := range n {
		r.Tables[1].Rows = append(r.Tables[1].Rows, []any{float64(i), float64(i) * 1.5, fmt.Sprintf("%d-%d", i, i+3)})
	}
	b, err := report.EncodeReport(r)
	if err != nil {
		t.Fatal(err)
	}
	return r, b
}

func rowJSON(t testing.TB, row []any) string {
	b, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLargeTableIsPagedOutAndReadByPages(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := addRun(t, s, addWorkload(t, s, "cyclic"))
	claim(t, s, r.ID)
	const n = 2500
	full, raw := bigReport(t, n)
	if errs := s.End(ctx, []Ending{{ID: r.ID, Status: runtypes.StatusDone, Report: raw}}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	got, err := s.GetRun(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(got.Report, &rep); err != nil {
		t.Fatal(err)
	}
	if tb := rep.Tables[1]; !tb.Paged || tb.RowCount != n || len(tb.Rows) != 0 || tb.Title != "Jobs" || len(tb.Columns) != 3 {
		t.Errorf("the large table in the stored report: %+v, want paged with %d rows", tb, n)
	}
	if tb := rep.Tables[0]; tb.Paged || len(tb.Rows) != 2 {
		t.Errorf("the small table was paged out: %+v", tb)
	}
	if len(got.Report) > len(raw)/10 {
		t.Errorf("the stored report is %d bytes of %d", len(got.Report), len(raw))
	}
	if count(t, s, "run_table_pages") != 3 {
		t.Errorf("%d pages stored, want 3", count(t, s, "run_table_pages"))
	}
	// Pages: across a page boundary, at the end, past the end.
	for _, c := range []struct{ offset, limit, want int }{{999, 3, 3}, {0, 1000, 1000}, {2498, 10, 2}, {2500, 10, 0}, {1500, 0, 0}} {
		rows, err := s.TableRows(ctx, r.ID, 1, c.offset, c.limit)
		if err != nil || len(rows) != c.want {
			t.Errorf("rows [%d, +%d): %d rows, %v; want %d", c.offset, c.limit, len(rows), err, c.want)
			continue
		}
		for i, row := range rows {
			if string(row) != rowJSON(t, full.Tables[1].Rows[c.offset+i]) {
				t.Errorf("row %d: %s, want %s", c.offset+i, row, rowJSON(t, full.Tables[1].Rows[c.offset+i]))
			}
		}
	}
	i := 0
	if err := s.EachTableRow(ctx, r.ID, 1, func(row json.RawMessage) error {
		if string(row) != rowJSON(t, full.Tables[1].Rows[i]) {
			t.Errorf("row %d: %s", i, row)
		}
		i++
		return nil
	}); err != nil || i != n {
		t.Errorf("every row: %d rows, %v", i, err)
	}
	for _, idx := range []int{0, 2} {
		if _, err := s.TableRows(ctx, r.ID, idx, 0, 10); errs.KindOf(err) != errs.NotFound {
			t.Errorf("table %d is not paged: %v, want NotFound", idx, err)
		}
	}
	if _, err := s.TableRows(ctx, "nope", 1, 0, 10); errs.KindOf(err) != errs.NotFound {
		t.Errorf("an unknown run: %v", err)
	}
	if _, err := s.TableRows(ctx, r.ID, 1, -1, 10); errs.KindOf(err) != errs.Invalid {
		t.Errorf("a negative offset: %v", err)
	}
	// pageIn gives the report back byte for byte.
	back, err := pageIn(got.Report, func(index int) ([]json.RawMessage, error) { return allTableRows(ctx, s.db, r.ID, index) })
	if err != nil || !bytes.Equal(back, raw) {
		t.Errorf("the report paged back in differs (%v)", err)
	}
	// Deleting the run deletes its pages.
	if err := s.DeleteRun(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if count(t, s, "run_table_pages") != 0 {
		t.Error("the deleted run's pages are still stored")
	}
}

// TestBundleCarriesPagedTablesWhole: an experiment's export holds its
// runs' reports whole (paged tables' rows back in), and an import pages
// them out again.
func TestBundleCarriesPagedTablesWhole(t *testing.T) {
	ctx := context.Background()
	src, _ := openTemp(t)
	w := addWorkload(t, src, "eapm")
	runs, cells := sweep(w, []string{"online"}, []string{"1.1"}, 1)
	e := &Experiment{Name: "paged", Strategy: "eapm", Definition: json.RawMessage(`{"name":"paged"}`)}
	if err := src.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	_, raw := bigReport(t, 1234)
	claim(t, src, runs[0].ID)
	if err := src.Finish(ctx, runs[0].ID, runtypes.StatusDone, raw, "", ""); err != nil {
		t.Fatal(err)
	}
	snap := exportMem(t, src, e.ID)
	if len(snap.runs) != 1 || snap.runs[0].ID != runs[0].ID || !bytes.Equal(snap.runs[0].Report, raw) {
		t.Error("the snapshot does not carry the run's whole report")
	}
	dst, _ := openTemp(t)
	if _, err := dst.ImportExperiment(ctx, snap, ""); err != nil {
		t.Fatal(err)
	}
	a, _ := src.GetRun(ctx, runs[0].ID)
	c, err := dst.GetRun(ctx, runs[0].ID)
	if err != nil || !bytes.Equal(a.Report, c.Report) {
		t.Fatalf("the imported report differs from the stored one (%v)", err)
	}
	ra, _ := src.TableRows(ctx, runs[0].ID, 1, 1000, 300)
	rc, err := dst.TableRows(ctx, runs[0].ID, 1, 1000, 300)
	if err != nil || len(rc) != 234 || !reflect.DeepEqual(ra, rc) {
		t.Errorf("the imported table's rows differ: %d rows, %v", len(rc), err)
	}
}

// FuzzPageOut: any JSON a report may be is paged out without panicking,
// and paged back in to the same report, as a report's schema reads it.
func FuzzPageOut(f *testing.F) {
	_, big := bigReport(f, 1200)
	f.Add(big, 0)
	f.Add([]byte(`{"tables":[{"title":"t","columns":["a"],"rows":[[1],[2]]}]}`), 1001)
	f.Add([]byte(`{"metrics":[],"tables":null}`), 2000)
	f.Add([]byte(`[1,2,3]`), 5000)
	f.Add([]byte(`{"tables":[{"title":"t","paged":true,"row_count":3,"rows":[]}]}`), 5000)
	f.Fuzz(func(t *testing.T, data []byte, pad int) {
		if !json.Valid(data) {
			return
		}
		// Short inputs are padded past minPagedReport with a table of
		// pad%3000 rows, so that large tables are reached too.
		if pad = pad % 3000; pad > 0 && bytes.HasPrefix(data, []byte("{")) && !bytes.Contains(data, []byte(`"tables"`)) {
			var b bytes.Buffer
			b.WriteString(`{"tables":[{"title":"p","columns":["x"],"rows":[`)
			for i := range pad {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "[%d]", i)
			}
			b.WriteString(`]}],`)
			b.Write(data[1:])
			if len(data) == 2 { // {}: no member after the tables
				b.Truncate(b.Len() - 2)
				b.WriteString("}")
			}
			data = b.Bytes()
			if !json.Valid(data) {
				return
			}
		}
		main, pages, err := pageOut(data)
		if err != nil {
			return
		}
		if !json.Valid(main) {
			t.Fatalf("paged out, the report is not JSON: %.200s", main)
		}
		byIndex := map[int][][]byte{}
		for _, tp := range pages {
			byIndex[tp.Index] = tp.Pages
		}
		back, err := pageIn(main, func(index int) ([]json.RawMessage, error) {
			var out []json.RawMessage
			for _, p := range byIndex[index] {
				var rows []json.RawMessage
				if err := json.Unmarshal(p, &rows); err != nil {
					return nil, err
				}
				out = append(out, rows...)
			}
			return out, nil
		})
		if len(pages) == 0 {
			if !bytes.Equal(main, data) {
				t.Fatal("nothing paged out, yet the report changed")
			}
			return
		}
		if err != nil {
			t.Fatalf("paging back in: %v", err)
		}
		// The tables come back as a report's schema reads them (report.TableJSON,
		// every field of report.Table, keys matched as encoding/json
		// does): a key no table has, a repeated key or one in other
		// letter case is not kept, as it is not when a report is decoded.
		start, end, _, _ := tablesValue(data)
		var tables []report.TableJSON[json.RawMessage]
		if err := json.Unmarshal(data[start:end], &tables); err != nil {
			t.Fatalf("pageOut paged tables that do not decode: %v", err)
		}
		read, _ := json.Marshal(tables)
		want := append(append(append([]byte{}, data[:start]...), read...), data[end:]...)
		var a, b any
		json.Unmarshal(want, &a)
		json.Unmarshal(back, &b)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("paged out and back in, the report differs:\n%.300s\n%.300s", want, back)
		}
	})
}

// TestPagedOutIsTheStoredForm: a report's PagedOut copy (what the command
// line writes by default) encodes to the bytes the store keeps of the
// report, its large table built lazily or in hand, and builds no rows.
func TestPagedOutIsTheStoredForm(t *testing.T) {
	full, raw := bigReport(t, 2500)
	stored, pages, err := pageOut(raw)
	if err != nil || len(pages) != 1 {
		t.Fatalf("pageOut: %d tables paged, %v", len(pages), err)
	}
	built := false
	jobs := full.Tables[1]
	lazy := *full
	lazy.Tables = []report.Table{full.Tables[0], report.LazyTable(jobs.Title, jobs.Columns, len(jobs.Rows), func() [][]any { built = true; return jobs.Rows })}
	for name, r := range map[string]*report.Report{"rows in hand": full, "lazy": &lazy} {
		paged, idx := r.PagedOut()
		got, err := report.EncodeReport(paged)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, stored) || !slices.Equal(idx, []int{1}) {
			t.Errorf("%s: PagedOut (tables %v) encodes\n%.300s\nthe store keeps\n%.300s", name, idx, got, stored)
		}
	}
	if built {
		t.Error("PagedOut built the lazy table's rows")
	}
	// The original keeps its rows.
	if b, err := report.EncodeReport(&lazy); err != nil || !bytes.Equal(b, raw) || !built {
		t.Errorf("the lazy report after PagedOut encodes other bytes (%v)", err)
	}
}
