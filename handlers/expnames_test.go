package handlers

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// TestExperimentNamesItsWorkloads: an experiment over two stored
// workloads names them by their names in "What differs" (each ID on
// hover) and in its series, never by ID alone (issue 42 item 6).
func TestExperimentNamesItsWorkloads(t *testing.T) {
	a := newApp(t, "", 0)
	ids := map[string]string{}
	for _, name := range []string{"alpha", "beta"} {
		body, ctype := multipartBody(t, map[string]string{"strategy": "eapm", "name": name, "copy": "1"},
			map[string]string{"etc": goodETC, "apc": goodAPC, "users": goodUsers})
		status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
		if status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		var w apiWorkload
		json.Unmarshal(b, &w)
		ids[name] = w.ID
	}
	def := `{"name": "two workloads", "strategy": "eapm", "workload": {"ids": ["` + ids["alpha"] + `", "` + ids["beta"] + `"]},
		"variants": ["online"], "grid": {"gamma": [1.1, 1.3]}}`
	status, b := a.postJSON(t, "/api/experiments", def)
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, b)
	}
	var e apiExperiment
	json.Unmarshal(b, &e)
	for deadline := time.Now().Add(60 * time.Second); e.Status != "done"; time.Sleep(50 * time.Millisecond) {
		_, b = a.do(t, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
		json.Unmarshal(b, &e)
		if time.Now().After(deadline) {
			t.Fatalf("experiment still %s", e.Status)
		}
	}
	status, page := a.do(t, http.MethodGet, "/experiments/"+e.ID+"?x=gamma", "", nil)
	if status != http.StatusOK {
		t.Fatalf("page: %d", status)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(page)))
	if err != nil {
		t.Fatal(err)
	}
	row := doc.Find(`[data-testid=experiment-differs] tr[data-field=workload] td`)
	for name, id := range ids {
		span := row.Find(`[data-workload="` + id + `"]`)
		if span.Text() != name || span.AttrOr("title", "") != "workload "+id {
			t.Errorf("What differs shows workload %s as %q (title %q), want its name %s with the ID on hover; row %q",
				id, span.Text(), span.AttrOr("title", ""), name, row.Text())
		}
	}
	status, data := a.do(t, http.MethodGet, "/api/experiments/"+e.ID+"/charts?x=gamma", "", nil)
	if status != http.StatusOK {
		t.Fatalf("charts: %d", status)
	}
	for name, id := range ids {
		if !strings.Contains(string(data), "workload="+name) || strings.Contains(string(data), "workload="+id) {
			t.Errorf("series name workload %s by its ID, not as workload=%s", id, name)
		}
	}
}
