package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestExperimentNamesItsWorkloads: an experiment over two stored
// workloads names them by their names in "What differs" (each ID on
// hover) and in its series, never by ID alone (issue 42 item 6).
func TestExperimentNamesItsWorkloads(t *testing.T) {
	a := newApp(t, "", 0)
	ids := map[string]string{"alpha": a.uploadNamed(t, "alpha"), "beta": a.uploadNamed(t, "beta")}
	def := `{"name": "two workloads", "strategy": "eapm", "workload": {"ids": ["` + ids["alpha"] + `", "` + ids["beta"] + `"]},
		"variants": ["online"], "grid": {"gamma": [1.1, 1.3]}}`
	e := finishedExperiment(t, a, def)
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
