package handlers

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func TestRunColumnsParse(t *testing.T) {
	for _, c := range []struct {
		q     []string
		want  string // the columns' specs, "|"-joined
		field string // the error's field; "" none
	}{
		{[]string{"param:policy,metric:makespan"}, "param:policy|metric:makespan", ""},
		{[]string{"param:policy", " metric: makespan ", "param:policy"}, "param:policy|metric:makespan", ""},
		{[]string{""}, "", ""},
		{[]string{"policy"}, "", "cols"},
		{[]string{"params:policy"}, "", "cols"},
		{[]string{"metric:"}, "", "cols"},
		{[]string{`param:a"b`}, "", "cols"},
		{[]string{"param:a,param:b,param:c,param:d,param:e,param:f,param:g,param:h,param:i"}, "", "cols"},
	} {
		_, cols, err := runColumns(c.q)
		var specs []string
		for _, col := range cols {
			specs = append(specs, col.Spec())
		}
		if got := strings.Join(specs, "|"); got != c.want {
			t.Errorf("%q: columns %q, want %q", c.q, got, c.want)
		}
		if c.field == "" && err != nil || c.field != "" && (err == nil || !strings.Contains(err.Error(), c.field)) {
			t.Errorf("%q: error %v, want one on %q", c.q, err, c.field)
		}
	}
}

// TestRunsPageShowsChosenColumns: /runs?cols=param:gamma,metric:objective
// shows each run's γ and objective after its own columns, in the order
// asked; the link to older runs and the filter form keep the columns; a
// bad column is a 400 naming cols.
func TestRunsPageShowsChosenColumns(t *testing.T) {
	a := newApp(t, "", 0)
	w := a.upload(t)
	r1 := a.startRun(t, `{"workload_id":"`+w+`","variant":"online","params":{"gamma":1.4}}`)
	r2 := a.startRun(t, `{"workload_id":"`+w+`","variant":"average"}`)
	a.startRun(t, `{"workload_id":"`+w+`","variant":"online"}`)
	doc := a.page(t, "/runs?limit=2&cols="+url.QueryEscape("param:gamma,metric:objective"))
	var heads []string
	doc.Find(`[data-testid=runs-table] thead [data-testid=chosen-column]`).Each(func(_ int, s *goquery.Selection) {
		heads = append(heads, s.AttrOr("data-col", ""))
	})
	if !slices.Equal(heads, []string{"param:gamma", "metric:objective"}) {
		t.Fatalf("chosen columns %q", heads)
	}
	cell := func(d *goquery.Document, id, col string) string {
		return strings.TrimSpace(d.Find(`[data-testid=runs-table] tbody tr:has(a[href="/runs/` + id + `"]) [data-col="` + col + `"]`).Text())
	}
	if got := cell(doc, r2.ID, "param:gamma"); got != r2.Params["gamma"] || got == "" {
		t.Errorf("run %s's gamma %q, want %q (its resolved value)", r2.ID, got, r2.Params["gamma"])
	}
	if got := cell(doc, r2.ID, "metric:objective"); got == "" {
		t.Errorf("run %s shows no objective", r2.ID)
	}
	if v := doc.Find(`[data-testid=runs-cols]`).AttrOr("value", ""); v != "param:gamma,metric:objective" {
		t.Errorf("the filter form shows cols %q", v)
	}
	older := doc.Find(`[data-testid=older]`).AttrOr("href", "")
	if u, err := url.Parse(older); err != nil || u.Query().Get("cols") != "param:gamma,metric:objective" {
		t.Fatalf("the older link %q drops the columns", older)
	}
	doc = a.page(t, older)
	if got := cell(doc, r1.ID, "param:gamma"); got != "1.4" {
		t.Errorf("run %s's gamma on the older page: %q, want 1.4", r1.ID, got)
	}
	status, b := a.do(t, http.MethodGet, "/runs?cols=policy", "", nil)
	if status != http.StatusBadRequest || !strings.Contains(string(b), "cols") {
		t.Errorf("/runs?cols=policy: %d, want 400 naming cols", status)
	}
}
