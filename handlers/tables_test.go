package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"schedlab/report"
	"schedlab/solvers"
	"schedlab/solvers/cyclic"
	"schedlab/views"
)

// batchRun uploads the first 2,000 KTH records as a cyclic trace and runs
// EASY on them; it returns the run's id and the report the strategy
// itself makes of the same trace (the per-job table whole).
func batchRun(t *testing.T, a *app) (string, *report.Report) {
	t.Helper()
	data, err := os.ReadFile("../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf")
	if err != nil {
		t.Fatal(err)
	}
	body, ctype := multipartBody(t, map[string]string{"strategy": "cyclic", "name": "kth"}, map[string]string{"swf": string(data)})
	status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
	if status != http.StatusCreated {
		t.Fatalf("upload: %d %s", status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	run := a.startRun(t, `{"workload_id":"`+w.ID+`","variant":"batch","params":{"policy":"easy"}}`)
	if run.Status != "done" {
		t.Fatalf("run %s", run.Status)
	}
	s := cyclic.New()
	wl, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "swf.csv", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Run(context.Background(), wl, "batch", solvers.Params{"policy": "easy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return run.ID, rep
}

func TestLargeTableIsPagedOutAndFetchedByPages(t *testing.T) {
	a := newApp(t, "", 0)
	id, full := batchRun(t, a)
	index := -1
	for i, tb := range full.Tables {
		if tb.NumRows() > report.PageOutRows {
			index = i
		}
	}
	if index < 0 {
		t.Fatal("the batch report has no table large enough to page out")
	}
	want := full.Tables[index]
	var wantCSV bytes.Buffer // the CSV the command line writes of the same table (--tables)
	if err := want.WriteCSV(&wantCSV); err != nil {
		t.Fatal(err)
	}
	if rows, err := want.AllRows(); err != nil {
		t.Fatal(err)
	} else {
		want.Rows = rows
	}
	wantRow := func(i int) string { b, _ := json.Marshal(want.Rows[i]); return string(b) }

	// The stored report: the table without its rows, marked paged.
	_, b := a.do(t, http.MethodGet, "/api/runs/"+id+"/report", "", nil)
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if tb := rep.Tables[index]; !tb.Paged || tb.RowCount != len(want.Rows) || len(tb.Rows) != 0 || tb.Title != want.Title {
		t.Fatalf("the stored table: paged %v, %d rows of %d, %d rows embedded", tb.Paged, tb.RowCount, len(want.Rows), len(tb.Rows))
	}

	// The API: every page holds the rows the strategy made.
	n := len(want.Rows)
	for _, c := range []struct{ offset, limit, want int }{{0, 10, 10}, {995, 10, 10}, {n - 3, 10, 3}, {n, 10, 0}} {
		status, b := a.do(t, http.MethodGet, "/api/runs/"+id+"/tables/"+strconv.Itoa(index)+"?offset="+strconv.Itoa(c.offset)+"&limit="+strconv.Itoa(c.limit), "", nil)
		var page apiTablePage
		if status != http.StatusOK || json.Unmarshal(b, &page) != nil {
			t.Fatalf("page [%d, +%d): %d %s", c.offset, c.limit, status, b)
		}
		if page.RowCount != n || page.Offset != c.offset || len(page.Rows) != c.want || page.Title != want.Title || len(page.Columns) != len(want.Columns) {
			t.Errorf("page [%d, +%d): %d rows of %d at %d", c.offset, c.limit, len(page.Rows), page.RowCount, page.Offset)
			continue
		}
		for i, r := range page.Rows {
			if string(r) != wantRow(c.offset+i) {
				t.Errorf("row %d: %s, want %s", c.offset+i, r, wantRow(c.offset+i))
			}
		}
	}
	// A table that is not paged is read from the report the same way.
	small := a.startRun(t, `{"workload_id":"`+a.upload(t)+`"}`)
	_, b = a.do(t, http.MethodGet, "/api/runs/"+small.ID+"/report", "", nil)
	var smallRep report.Report
	json.Unmarshal(b, &smallRep)
	if len(smallRep.Tables) == 0 || len(smallRep.Tables[0].Rows) < 2 || smallRep.Tables[0].Paged {
		t.Fatalf("the small run's first table: %+v", smallRep.Tables)
	}
	status, b := a.do(t, http.MethodGet, "/api/runs/"+small.ID+"/tables/0?offset=1&limit=1", "", nil)
	var onePage apiTablePage
	json.Unmarshal(b, &onePage)
	if wantRow, _ := json.Marshal(smallRep.Tables[0].Rows[1]); status != http.StatusOK || len(onePage.Rows) != 1 || string(onePage.Rows[0]) != string(wantRow) ||
		onePage.RowCount != len(smallRep.Tables[0].Rows) {
		t.Errorf("an embedded table by the API: %d %.300s", status, b)
	}
	for _, bad := range []struct {
		path   string
		status int
	}{
		{"/tables/" + strconv.Itoa(index) + "?offset=-1", http.StatusBadRequest},
		{"/tables/" + strconv.Itoa(index) + "?limit=x", http.StatusBadRequest},
		{"/tables/" + strconv.Itoa(index) + "?limit=100000", http.StatusBadRequest},
		{"/tables/99", http.StatusNotFound},
		{"/tables/-1", http.StatusNotFound},
	} {
		if status, b := a.do(t, http.MethodGet, "/api/runs/"+id+bad.path, "", nil); status != bad.status {
			t.Errorf("%s: %d %s, want %d", bad.path, status, b, bad.status)
		}
	}

	// The CSV has every row.
	status, csvBody := a.do(t, http.MethodGet, "/runs/"+id+"/tables/"+strconv.Itoa(index)+".csv", "", nil)
	lines := strings.Split(strings.TrimSpace(string(csvBody)), "\n")
	if status != http.StatusOK || len(lines) != n+1 || lines[0] != strings.Join(want.Columns, ",") {
		t.Errorf("CSV: %d, %d lines, want %d", status, len(lines), n+1)
	} else if first := strings.Split(lines[n], ",")[0]; first != views.Cell(want.Rows[n-1][0]) {
		t.Errorf("the CSV's last row starts %q, want %q", first, views.Cell(want.Rows[n-1][0]))
	}
	if !bytes.Equal(csvBody, wantCSV.Bytes()) {
		t.Errorf("the server's CSV of the paged table differs from the table's own CSV (the command line's --tables file)")
	}

	// The run page shows the first page and links to the next.
	_, page := a.do(t, http.MethodGet, "/runs/"+id, "", nil)
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	table := doc.Find("[data-testid=report-table]").Eq(index)
	if rows := table.Find("tbody tr").Length(); rows != views.MaxTableRows {
		t.Errorf("the run page shows %d rows of the paged table, want %d", rows, views.MaxTableRows)
	}
	if !strings.Contains(doc.Find("[data-testid=table-cut]").Text(), views.Num(float64(n))) {
		t.Errorf("no note of the %d rows: %q", n, doc.Find("[data-testid=table-cut]").Text())
	}
	next, ok := doc.Find("[data-testid=table-next]").Attr("href")
	if !ok {
		t.Fatal("no link to the next rows")
	}
	status, page = a.do(t, http.MethodGet, next, "", nil)
	doc, _ = goquery.NewDocumentFromReader(bytes.NewReader(page))
	cells := doc.Find("[data-testid=report-table] tbody tr").First().Find("td")
	if status != http.StatusOK || doc.Find("[data-testid=report-table] tbody tr").Length() != views.MaxTableRows ||
		cells.First().Text() != views.Cell(want.Rows[views.MaxTableRows][0]) {
		t.Errorf("the next page (%s): %d, %d rows, first %q, want %q", next, status, doc.Find("[data-testid=report-table] tbody tr").Length(),
			cells.First().Text(), views.Cell(want.Rows[views.MaxTableRows][0]))
	}
	if _, ok := doc.Find("[data-testid=table-prev]").Attr("href"); !ok {
		t.Error("the second page has no link back")
	}
}
