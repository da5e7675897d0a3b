package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"schedlab/runner"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/store"
	"schedlab/views"
)

// otherValue picks a value for a parameter that differs from its default
// where the kind allows, so that a form that dropped or mixed up fields
// would store something else.
func otherValue(sp solvers.ParamSpec) string {
	switch sp.Kind {
	case solvers.ParamChoice, solvers.ParamBool:
		for _, c := range sp.Choices {
			if c != sp.Default {
				return c
			}
		}
	case solvers.ParamInt:
		d, _ := strconv.ParseFloat(sp.Default, 64)
		for _, v := range []float64{d + 1, d - 1, sp.Min, sp.Max} {
			if v != d && (!sp.HasMin || v >= sp.Min) && (!sp.HasMax || v <= sp.Max) {
				return strconv.FormatInt(int64(v), 10)
			}
		}
	case solvers.ParamFloat:
		d, _ := strconv.ParseFloat(sp.Default, 64)
		for _, v := range []float64{d * 1.5, d + 1, d - 0.5, sp.Min, sp.Max} {
			if v != d && (!sp.HasMin || v >= sp.Min) && (!sp.HasMax || v <= sp.Max) {
				return strconv.FormatFloat(v, 'g', -1, 64)
			}
		}
	}
	return sp.Default
}

// TestFormsPostEveryParameterOfEveryFamily posts, through the HTML forms
// as a browser sends them, every parameter of every variant of every
// family (run form), of every preset (generate form) and of every seed
// experiment (reproduce form), each with a value other than its default,
// and checks what is stored: the run's params equal the posted values,
// and a generated workload equals the one the JSON API makes from the same
// values. The runner is not started: runs stay queued, nothing executes.
func TestFormsPostEveryParameterOfEveryFamily(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "forms.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rn := runner.New(st, registry.Lookup, runner.Options{Workers: 1})
	e := echo.New()
	New(st, rn, registry.All(), Options{}).Routes(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	ctx := context.Background()

	post := func(path string, form url.Values) *http.Response {
		t.Helper()
		form.Set(views.CSRFField, testCSRF)
		resp := noRedirect(t, http.MethodPost, srv.URL+path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		resp.Body.Close()
		return resp
	}
	for _, s := range registry.All() {
		name := s.Info.Name
		for _, pr := range s.Presets {
			form := url.Values{"strategy": {name}, "preset": {pr.Name}, "seed": {"3"}}
			params := solvers.Params{}
			for _, sp := range pr.Params {
				v := otherValue(sp)
				form.Set(views.ParamField(sp.Name), v)
				params[sp.Name] = v
			}
			resp := post("/workloads/generate", form)
			if resp.StatusCode != http.StatusSeeOther {
				t.Errorf("%s preset %s: the generate form answered %d", name, pr.Name, resp.StatusCode)
				continue
			}
			byForm, err := st.GetWorkload(ctx, strings.TrimPrefix(resp.Header.Get("Location"), "/workloads/"))
			if err != nil {
				t.Fatal(err)
			}
			resolved, _ := solvers.Resolve(pr.Params, params)
			byAPI, err := s.Generate(ctx, pr.Name, resolved, 3)
			if err != nil {
				t.Fatalf("%s preset %s by the API: %v", name, pr.Name, err)
			}
			if string(byAPI.Data) != string(byForm.Data) {
				t.Errorf("%s preset %s: the form's workload differs from the API's with the same parameters", name, pr.Name)
			}
		}
		ws, err := st.ListWorkloads(ctx, name, 1)
		if err != nil || len(ws) == 0 {
			t.Fatalf("%s: no workload to run on", name)
		}
		w := ws[0]
		for _, v := range s.VariantsFor(w.Format) {
			form := url.Values{"strategy": {name}, "workload_id": {w.ID}, "variant": {v.Name}, "seed": {"5"}}
			want := map[string]string{}
			for _, sp := range s.Params {
				if !sp.AppliesTo(v.Name) {
					continue // the form does not send it
				}
				val := otherValue(sp)
				form.Set(views.ParamField(sp.Name), val)
				want[sp.Name] = val
			}
			resp := post("/runs", form)
			if resp.StatusCode != http.StatusSeeOther {
				t.Errorf("%s %s: the run form answered %d", name, v.Name, resp.StatusCode)
				continue
			}
			run, err := st.GetRun(ctx, strings.TrimPrefix(resp.Header.Get("Location"), "/runs/"))
			if err != nil {
				t.Fatal(err)
			}
			if run.Variant != v.Name || run.Seed != 5 {
				t.Errorf("%s %s: stored variant %s seed %d", name, v.Name, run.Variant, run.Seed)
			}
			for k, val := range want {
				got := run.Params[k]
				if gs, err := solvers.ParseBool(got); err == nil {
					if ws, err := solvers.ParseBool(val); err == nil && gs == ws {
						continue
					}
				}
				if got != val {
					t.Errorf("%s %s: parameter %s stored %q, posted %q", name, v.Name, k, got, val)
				}
			}
		}
		form := url.Values{"strategy": {name}}
		want := map[string]string{}
		for _, sp := range s.ReproduceParams {
			val := otherValue(sp)
			form.Set(views.ParamField(sp.Name), val)
			want[sp.Name] = val
		}
		resp := post("/reproduce", form)
		if resp.StatusCode != http.StatusSeeOther {
			t.Errorf("%s: the reproduce form answered %d", name, resp.StatusCode)
			continue
		}
		run, err := st.GetRun(ctx, strings.TrimPrefix(resp.Header.Get("Location"), "/runs/"))
		if err != nil {
			t.Fatal(err)
		}
		for k, val := range want {
			if run.Params[k] != val {
				t.Errorf("%s reproduce: parameter %s stored %q, posted %q", name, k, run.Params[k], val)
			}
		}
	}
}

// TestRunFormShowsEveryProblemAtOnceAndKeepsTheValues posts two bad
// parameters: both are named above the form and beside their fields, and
// the form comes back with what the user typed.
func TestRunFormShowsEveryProblemAtOnceAndKeepsTheValues(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	form := url.Values{"workload_id": {id}, "variant": {"online"}, "p.gamma": {"abc"}, "p.c": {"-5"}}
	status, page := a.do(t, http.MethodPost, "/runs", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if status != http.StatusBadRequest {
		t.Fatalf("status %d", status)
	}
	doc := parseHTML(t, page)
	if n := doc.Find("[data-testid=form-error] li").Length(); n != 2 {
		t.Errorf("%d problems listed, want 2", n)
	}
	for _, f := range []string{"gamma", "c"} {
		if doc.Find("[data-testid=error-"+f+"]").Length() != 1 {
			t.Errorf("no message beside %s", f)
		}
	}
	if v, _ := doc.Find(`input[name="p.gamma"]`).Attr("value"); v != "abc" {
		t.Errorf("the form lost what the user typed: gamma %q", v)
	}
	if a.countRuns(t) != 0 {
		t.Error("a refused form stored a run")
	}
	// The JSON API lists both too.
	_, b := a.postJSON(t, "/api/runs", `{"workload_id":"`+id+`","params":{"gamma":"abc","c":-5}}`)
	var e apiError
	json.Unmarshal(b, &e)
	if len(e.Problems) != 2 {
		t.Errorf("the API names %d problems: %s", len(e.Problems), b)
	}
}

func parseHTML(t *testing.T, page []byte) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
