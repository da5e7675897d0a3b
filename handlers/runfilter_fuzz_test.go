package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers/registry"
	"schedlab/store"
)

// FuzzParamFilter checks the reader of one param filter: what it accepts
// is the text's name (trimmed) and value, exactly, and a name the store
// can look up; what it refuses is an Invalid error on "param".
func FuzzParamFilter(f *testing.F) {
	for _, s := range []string{"gamma:1.3", "a:b:c", ":x", "x", "x:", ` n :v`, `a"b:1`, `a\b:1`, "γ:ü", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, value, err := parseParamFilter(s)
		if err != nil {
			if errs.FieldOf(err) != "param" || statusOf(err) != http.StatusBadRequest {
				t.Fatalf("%q: %v (%d)", s, err, statusOf(err))
			}
			return
		}
		rawName, rawValue, ok := strings.Cut(s, ":")
		if !ok || name != strings.TrimSpace(rawName) || value != rawValue || !store.ParamNameOK(name) {
			t.Fatalf("%q read as %q = %q", s, name, value)
		}
	})
}

// FuzzRunsQuery sends arbitrary query strings to GET /api/runs over a few
// runs with tags, parameters and metrics: every answer is a 200 with a
// JSON list or a 400 naming one of the list's query parameters, never a
// 5xx or a panic.
func FuzzRunsQuery(f *testing.F) {
	for _, q := range []string{
		"strategy=eapm&variant=online&tag=paper", "param=gamma:1.3&param=n:10", "param=a.b:1", "param=$[0]:x",
		"metric=energy&min=1&max=2&sort=metric-desc", "metric=energy&sort=metric-asc&cursor=bSsgMSBhYWFhYWFhYWFh",
		"sort=up", "min=1e400&metric=x", "max=-0&metric=e", "limit=3&cursor=%00", "param=%22:1", "workload=';--",
	} {
		f.Add(q)
	}
	a := newFuzzApp(f)
	allowed := map[string]bool{"strategy": true, "variant": true, "workload": true, "tag": true, "param": true,
		"metric": true, "min": true, "max": true, "sort": true, "cursor": true, "limit": true, "status": false}
	f.Fuzz(func(t *testing.T, raw string) {
		req := httptest.NewRequest(http.MethodGet, "/api/runs", nil)
		req.URL.RawQuery = raw
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
			var list []apiRun
			if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil {
				t.Fatalf("?%s: 200 with %q", raw, rec.Body.String())
			}
		case http.StatusBadRequest:
			var e apiError
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || !allowed[e.Field] {
				t.Fatalf("?%s: 400 %s names no list parameter", raw, rec.Body.String())
			}
		default:
			t.Fatalf("?%s: %d %s", raw, rec.Code, rec.Body.String())
		}
	})
}

// newFuzzApp serves the routes (the runner not started) over a store with six
// labelled runs with metrics.
func newFuzzApp(f *testing.F) *echo.Echo {
	st, err := store.Open(f.TempDir() + "/fuzz.db")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	ctx := context.Background()
	w := &runtypes.Workload{Strategy: "eapm", Name: "w", Format: "json", Data: []byte(`{}`)}
	if err := st.CreateWorkload(ctx, w); err != nil {
		f.Fatal(err)
	}
	e := &store.Experiment{Name: "x", Strategy: "eapm", Definition: json.RawMessage(`{}`)}
	if err := st.FillExperiment(ctx, e, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online",
		Params: map[string]string{"gamma": "1.3", "a.b": "1"}}, 6,
		func(int) store.ExperimentCell { return store.ExperimentCell{} },
		func(i int) []store.Metric { return []store.Metric{{Name: "energy", Value: float64(i % 3)}} }); err != nil {
		f.Fatal(err)
	}
	runs, _ := st.ListRuns(ctx, store.RunFilter{})
	for i, r := range runs {
		if err := st.SetRunLabels(ctx, r.ID, "r", []string{"paper", []string{"a", "b"}[i%2]}, ""); err != nil {
			f.Fatal(err)
		}
	}
	ec := echo.New()
	New(st, runner.New(st, registry.Lookup, runner.Options{Workers: 1}), registry.All(), Options{}).Routes(ec)
	return ec
}
