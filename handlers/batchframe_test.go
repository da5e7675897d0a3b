package handlers

import (
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"schedlab/report"
	"schedlab/views"
)

// TestBatchRunPageHasOneTimeFrameTablesIncluded: a batch run's job table
// shows its instants (submission, start, finish) in the page's frame,
// hours since the first submission as the Gantt and plots, its headers
// saying so; the CSV keeps trace seconds and the page says so; the usage
// plot names its bucket length and a queue-length plot is drawn.
func TestBatchRunPageHasOneTimeFrameTablesIncluded(t *testing.T) {
	a := newApp(t, "", 0)
	swf, err := os.ReadFile("../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf")
	if err != nil {
		t.Fatal(err)
	}
	w := a.uploadFile(t, "cyclic", "swf", "kth.swf", swf)
	run := a.startRun(t, `{"workload_id":"`+w.ID+`","strategy":"cyclic","variant":"batch"}`)
	_, b := a.do(t, http.MethodGet, "/api/runs/"+run.ID+"/report", "", nil)
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil || rep.Time == nil {
		t.Fatalf("report: %v, frame %v", err, rep.Time)
	}
	_, b = a.do(t, http.MethodGet, "/api/runs/"+run.ID+"/tables/0?limit=1", "", nil)
	var first struct {
		Columns []string `json:"columns"`
		Rows    [][]any  `json:"rows"`
	}
	if err := json.Unmarshal(b, &first); err != nil || len(first.Rows) != 1 || first.Columns[4] != "starting_time" {
		t.Fatalf("table page: %v %s", err, b)
	}
	rawStart := first.Rows[0][4].(float64)

	_, page := a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	doc := parseHTML(t, page)
	table := doc.Find(`[data-testid=report-table][data-title="Jobs (Batsim columns)"]`)
	head := table.Find("thead th").Eq(4).Text()
	if want := "starting_time (" + rep.Time.Shown() + " since the first submission)"; head != want {
		t.Errorf("the job table's start column is headed %q, want %q", head, want)
	}
	cell := table.Find("tbody tr").First().Find("td").Eq(4).Text()
	if want := views.Num(rep.Time.Show(rawStart)); cell != want || cell == views.Num(rawStart) {
		t.Errorf("the first job's start shows %q, want %q (raw %v trace seconds)", cell, want, rawStart)
	}
	if note := doc.Find("[data-testid=csv-time-note]").Text(); !strings.Contains(note, "starting_time") || !strings.Contains(note, " s,") && !strings.Contains(note, "in s") {
		t.Errorf("the CSV link does not say the CSV keeps trace seconds: %q", note)
	}
	_, csv := a.do(t, http.MethodGet, "/runs/"+run.ID+"/tables/0.csv", "", nil)
	lines := strings.SplitN(string(csv), "\n", 3)
	if len(lines) < 2 || strings.Split(lines[1], ",")[4] != strconv.FormatFloat(rawStart, 'f', -1, 64) {
		t.Errorf("the CSV's first start is not in trace seconds (%v): %q", rawStart, lines)
	}

	var titles []string
	for _, p := range rep.Series {
		titles = append(titles, p.Title)
		if p.Title == "Processors in use" && !strings.Contains(p.Lines[0].Name, "per bucket of ") {
			t.Errorf("the usage plot's line %q does not say how long a bucket is", p.Lines[0].Name)
		}
	}
	if !strings.Contains(strings.Join(titles, "|"), "Jobs waiting") {
		t.Errorf("no queue-length plot among %q", titles)
	}
}
