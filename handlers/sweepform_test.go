package handlers

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"schedlab/experiments"
)

// postSweep posts the sweep form's fields and returns the status, body
// and redirect.
func postSweep(t *testing.T, a *app, form url.Values) (int, []byte, string) {
	t.Helper()
	resp := noRedirect(t, http.MethodPost, a.URL+"/experiments", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body, resp.Header.Get("Location")
}

func sweepFields() url.Values {
	return url.Values{"strategy": {"eapm"}, "name": {"form sweep"}, "workload_kind": {"preset"}, "preset": {"zhang2022-case1"},
		"wgrid.zhang2022-case1.instance": {"0..2"}, "variants": {"online", "average"}, "grid.gamma": {"1.1, 1.3"},
		"replicates": {"2"}, "seed": {"5"}}
}

// TestSweepFormCountsDownloadsAndStartsFromFields: the form's fields (two
// variants, a list, a range, replicates) make the definition a user would
// write, typed: counted (3 instances × 2 γ × 2 variants × 2 replicates),
// downloaded as a file, then started; nothing is stored before start.
func TestSweepFormCountsDownloadsAndStartsFromFields(t *testing.T) {
	a := newApp(t, "", 0)
	before := a.countRuns(t)
	form := sweepFields()
	form.Set("action", "count")
	status, body, _ := postSweep(t, a, form)
	doc := parseHTML(t, body)
	if got := strings.TrimSpace(doc.Find("[data-testid=experiment-count] strong").Text()); status != http.StatusOK || got != "24" {
		t.Fatalf("count: %d %q, want 24; errors: %s", status, got, doc.Find(".field-error, [data-testid=form-error]").Text())
	}
	if v, _ := doc.Find(`input[name="grid.gamma"]`).Attr("value"); v != "1.1, 1.3" {
		t.Errorf("the γ field holds %q after counting, want the input kept", v)
	}
	var shown map[string]any
	if err := json.Unmarshal([]byte(doc.Find("[data-testid=sweep-json]").Text()), &shown); err != nil {
		t.Fatalf("the JSON view: %v", err)
	}
	if g := shown["grid"].(map[string]any)["gamma"].([]any); len(g) != 2 || g[0] != 1.1 || g[1] != 1.3 {
		t.Errorf("γ in the JSON view: %#v, want the numbers 1.1 and 1.3", g)
	}
	form.Set("action", "download")
	status, body, _ = postSweep(t, a, form)
	def, err := experiments.ParseJSON(body)
	if status != http.StatusOK || err != nil {
		t.Fatalf("download: %d %v\n%s", status, err, body)
	}
	if def.Name != "form sweep" || def.Replicates != 2 || def.Seed != 5 || len(def.Variants) != 2 ||
		strings.Join(def.Workload.Grid["instance"], ",") != "0,1,2" || strings.Join(def.Grid["gamma"], ",") != "1.1,1.3" {
		t.Errorf("downloaded definition %+v", def)
	}
	if a.countRuns(t) != before {
		t.Error("counting or downloading stored runs")
	}
	form.Set("action", "start")
	status, _, loc := postSweep(t, a, form)
	if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/experiments/") {
		t.Fatalf("start: %d %q", status, loc)
	}
	var e apiExperiment
	_, b := a.do(t, http.MethodGet, "/api"+loc, "", nil)
	if err := json.Unmarshal(b, &e); err != nil || e.RunsTotal != 24 {
		t.Errorf("started experiment %s: %v", b, err)
	}
}

// TestSweepFormShowsEveryProblemBesideItsField: bad values in several
// fields are all reported at once, each beside its own field and marked
// invalid, the input kept, nothing stored.
func TestSweepFormShowsEveryProblemBesideItsField(t *testing.T) {
	a := newFakeApp(t, 0)
	before := a.countRuns(t)
	form := sweepFields()
	form.Set("grid.gamma", "1.1, -3, x")
	form.Set("wgrid.zhang2022-case1.instance", "5..2")
	form.Set("replicates", "two")
	form.Set("notify_url", "ftp://example.org/hook")
	form.Set("grid.c", "1,,2")
	form.Set("name", "")
	form.Set("action", "start")
	status, body, _ := postSweep(t, a, form)
	if status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", status)
	}
	doc := parseHTML(t, body)
	for _, f := range []string{"grid.gamma", "wgrid.zhang2022-case1.instance", "replicates", "notify_url", "grid.c", "name"} {
		if doc.Find(`[data-testid="error-`+f+`"]`).Length() == 0 {
			t.Errorf("no problem shown beside %s; shown: %s", f, doc.Find(".field-error").Text())
		}
		if _, ok := doc.Find(`[name="` + f + `"]`).Attr("aria-invalid"); !ok {
			t.Errorf("field %s is not marked invalid", f)
		}
	}
	if got := doc.Find(`[data-testid="error-grid.gamma"]`).Length(); got != 2 {
		t.Errorf("%d problems beside γ, want 2 (-3 and x): %s", got, doc.Find(`[data-testid="error-grid.gamma"]`).Text())
	}
	if v, _ := doc.Find(`input[name="grid.gamma"]`).Attr("value"); v != "1.1, -3, x" {
		t.Errorf("γ field holds %q, want the input kept", v)
	}
	if a.countRuns(t) != before {
		t.Error("a refused sweep stored runs")
	}
}

// TestSweepFormStartsFromASeedFigureAndAWorkload: a seed paper's
// experiment fills the fields with its values (references kept aside), a
// stored workload ticks it.
func TestSweepFormStartsFromASeedFigureAndAWorkload(t *testing.T) {
	a := newFakeApp(t, 0)
	id := a.upload(t)
	_, page := a.do(t, http.MethodGet, "/experiments/new?workload="+id, "", nil)
	doc := parseHTML(t, page)
	if _, ok := doc.Find(`input[name=ids][value="` + id + `"]`).Attr("checked"); !ok {
		t.Errorf("the workload %s is not ticked", id)
	}
	if v, _ := doc.Find(`input[name=workload_kind][value=ids]`).Attr("checked"); v != "checked" && !doc.Find(`input[name=workload_kind][value=ids]`).Is("[checked]") {
		t.Errorf("stored workloads are not the chosen axis")
	}
	_, page = a.do(t, http.MethodGet, "/reproduce", "", nil)
	href, ok := parseHTML(t, page).Find(`a[href^="/experiments/new?seed=eapm/"]`).Attr("href")
	if !ok {
		t.Fatal("no seed experiment of eapm on /reproduce")
	}
	status, page := a.do(t, http.MethodGet, href, "", nil)
	if status != http.StatusOK {
		t.Fatalf("%s: %d", href, status)
	}
	doc = parseHTML(t, page)
	var shown map[string]any
	if err := json.Unmarshal([]byte(doc.Find("[data-testid=sweep-json]").Text()), &shown); err != nil {
		t.Fatal(err)
	}
	text := doc.Find("textarea[name=definition]").Text()
	seed, err := experiments.ParseJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	fromFields, err := experiments.ParseJSON([]byte(doc.Find("[data-testid=sweep-json]").Text()))
	if err != nil {
		t.Fatal(err)
	}
	a1, _ := json.Marshal(seed)
	b1, _ := json.Marshal(fromFields)
	if string(a1) != string(b1) {
		t.Errorf("the fields do not make the seed's definition:\nseed   %s\nfields %s", a1, b1)
	}
}

// TestExperimentLiveFragmentAndTheEstimateFromPastRuns: once a sweep's
// runs are done, /experiments/:id/live gives the page's changing parts
// (head and body, the plot with its script, the metric choices), not a
// page; and the form's estimate of a new sweep goes by the medians of
// those runs, per variant.
func TestExperimentLiveFragmentAndTheEstimateFromPastRuns(t *testing.T) {
	a := newApp(t, "", 0)
	form := sweepFields()
	form.Set("action", "start")
	_, _, loc := postSweep(t, a, form)
	if !strings.HasPrefix(loc, "/experiments/") {
		t.Fatalf("start: %q", loc)
	}
	var e apiExperiment
	for deadline := time.Now().Add(60 * time.Second); e.Status != "done"; time.Sleep(50 * time.Millisecond) {
		_, b := a.do(t, http.MethodGet, "/api"+loc, "", nil)
		json.Unmarshal(b, &e)
		if time.Now().After(deadline) {
			t.Fatalf("experiment still %s", e.Status)
		}
	}
	status, frag := a.do(t, http.MethodGet, loc+"/live", "", nil)
	if status != http.StatusOK || strings.Contains(string(frag), "<html") {
		t.Fatalf("live: %d, want a fragment:\n%.300s", status, frag)
	}
	doc := parseHTML(t, frag)
	if doc.Find(`[data-live-part=head] [data-testid=experiment-progress]`).Text() != "24 done, 0 failed, of 24" {
		t.Errorf("head: %q", doc.Find(`[data-live-part=head]`).Text())
	}
	body := doc.Find(`[data-live-part=body]`)
	if body.Find(`#ex-metric option`).Length() < 2 || body.Find(`[data-kind=plot]`).Length() == 0 || body.Find("script").Length() != 0 {
		t.Errorf("body: %d metrics, %d plots, %d scripts (want none: charts fetch their data)", body.Find(`#ex-metric option`).Length(), body.Find(`[data-kind=plot]`).Length(), body.Find("script").Length())
	}
	if data := a.chartsOf(t, frag); !strings.HasPrefix(data, "[{") {
		t.Errorf("the fragment's charts have no data: %.100s", data)
	}
	_, page := a.do(t, http.MethodGet, loc, "", nil)
	if parseHTML(t, page).Find(`[data-live-part]`).Length() != 2 {
		t.Error("the page has not the two parts the fragment replaces")
	}
	count := sweepFields()
	count.Set("action", "count")
	_, out, _ := postSweep(t, a, count)
	est := parseHTML(t, out).Find("[data-testid=sweep-estimate]").Text()
	for _, want := range []string{"online ", "average ", "per run over its last 12 done runs", "About "} {
		if !strings.Contains(est, want) {
			t.Errorf("estimate %q does not say %q", est, want)
		}
	}
}

// TestSweepFormRefusesUnknownVariantsAndFields: a ticked variant the
// family has not, a run parameter field it has not, and a preset field
// of no preset or of a parameter the preset has not are each refused on
// their field, nothing stored (the form used to drop them, and with only
// unknown variants ticked ran every variant).
func TestSweepFormRefusesUnknownVariantsAndFields(t *testing.T) {
	a := newFakeApp(t, 0)
	before := a.countRuns(t)
	cases := []struct {
		name, key, value, field, says string
	}{
		{"only an unknown variant", "variants", "onlin", "variants", `unknown variant "onlin"`},
		{"an unknown run parameter", "grid.gama", "1.2", "grid.gama", `unknown run parameter "gama"`},
		{"an unknown preset", "wgrid.zhang2099.instance", "0", "wgrid.zhang2099.instance", "names no preset"},
		{"an unknown preset parameter", "wgrid.zhang2022-case1.instanse", "0", "wgrid.zhang2022-case1.instanse", `unknown parameter "instanse"`},
	}
	for _, c := range cases {
		for _, action := range []string{"count", "start"} {
			form := sweepFields()
			if c.key == "variants" {
				form["variants"] = []string{c.value}
			} else {
				form.Set(c.key, c.value)
			}
			form.Set("action", action)
			status, body, _ := postSweep(t, a, form)
			doc := parseHTML(t, body)
			shown := doc.Find("[data-testid=form-error]").Text()
			if status != http.StatusBadRequest || !strings.Contains(shown, c.field) || !strings.Contains(shown, c.says) {
				t.Errorf("%s (%s): %d, problems %q; want 400 naming %s: %s", c.name, action, status, shown, c.field, c.says)
			}
		}
	}
	if a.countRuns(t) != before {
		t.Error("a refused sweep stored runs")
	}
}

// TestSweepFormStopsAtTheFirstBadValuesOfALongList: a list of 100,000
// bad values is refused with its first few problems and a note that the
// rest was not checked, not one problem per value.
func TestSweepFormStopsAtTheFirstBadValuesOfALongList(t *testing.T) {
	a := newFakeApp(t, 0)
	vals := make([]string, 100_000)
	for i := range vals {
		vals[i] = "x" + strconv.Itoa(i)
	}
	form := sweepFields()
	form.Set("grid.gamma", strings.Join(vals, ","))
	form.Set("action", "count")
	status, body, _ := postSweep(t, a, form)
	doc := parseHTML(t, body)
	n := doc.Find(`[data-testid="error-grid.gamma"]`).Length()
	if status != http.StatusBadRequest || n == 0 || n > 11 {
		t.Errorf("%d with %d problems beside γ, want 400 with at most 11", status, n)
	}
	if !strings.Contains(doc.Find(`[data-testid="error-grid.gamma"]`).Text(), "other 99990 values are not checked") {
		t.Errorf("no note that the rest of the list was not checked: %.300s", doc.Find(`[data-testid="error-grid.gamma"]`).Text())
	}
}

// TestSweepPreviewIsTheServersReadingOfTheFields: what the form shows as
// the user types comes from the server (POST /experiments/preview): the
// definition the fields make, typed, its run count and estimate; a field
// the grammar cannot read is named instead of a count; nothing is stored.
func TestSweepPreviewIsTheServersReadingOfTheFields(t *testing.T) {
	a := newFakeApp(t, 0)
	preview := func(form url.Values) sweepPreview {
		t.Helper()
		status, b := a.do(t, http.MethodPost, "/experiments/preview", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		var p sweepPreview
		if err := json.Unmarshal(b, &p); status != http.StatusOK || err != nil {
			t.Fatalf("preview: %d %v %s", status, err, b)
		}
		return p
	}
	p := preview(sweepFields())
	if !p.Counted || p.Count != 24 || len(p.Problems) != 0 || !strings.Contains(p.Estimate, "No past done run") {
		t.Errorf("preview %+v, want 24 runs counted", p)
	}
	def, err := experiments.ParseJSON([]byte(p.Definition))
	if err != nil || strings.Join(def.Workload.Grid["instance"], ",") != "0,1,2" || strings.Join(def.Grid["gamma"], ",") != "1.1,1.3" {
		t.Errorf("previewed definition %+v (%v):\n%s", def, err, p.Definition)
	}
	if !strings.Contains(p.Definition, `"from": 0`) || !strings.Contains(p.Definition, "1.3\n") {
		t.Errorf("the definition is not typed (a range, numbers):\n%s", p.Definition)
	}
	bad := sweepFields()
	bad.Set("grid.gamma", "1,,2")
	bad.Set("replicates", "two")
	p = preview(bad)
	var named []string
	for _, e := range p.Problems {
		named = append(named, e.Field)
	}
	if slices.Sort(named); p.Counted || strings.Join(named, " ") != "grid.gamma replicates" {
		t.Errorf("preview of bad fields %+v, want the two fields named and no count", p)
	}
	if a.countRuns(t) != 0 {
		t.Error("a preview stored runs")
	}
}
