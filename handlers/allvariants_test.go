package handlers

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/solvers/registry"
)

// postNoRedirect posts a form and returns the status and Location.
func (a *app) postNoRedirect(t *testing.T, path string) (int, string) {
	t.Helper()
	resp := noRedirect(t, http.MethodPost, a.URL+path, "application/x-www-form-urlencoded", nil)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location")
}

// compareRuns parses the run ids of a /compare?runs= address.
func compareRuns(t *testing.T, loc string) []string {
	t.Helper()
	u, err := url.Parse(loc)
	if err != nil || u.Path != "/compare" {
		t.Fatalf("redirected to %q, want /compare?runs=...", loc)
	}
	return strings.Split(u.Query().Get("runs"), ",")
}

func TestWorkloadAllVariantsRunsEveryVariantSideBySide(t *testing.T) {
	a := newApp(t, "", 0)
	wid := a.upload(t)
	status, loc := a.postNoRedirect(t, "/workloads/"+wid+"/all-variants")
	if status != http.StatusSeeOther {
		t.Fatalf("status %d, want 303", status)
	}
	ids := compareRuns(t, loc)
	st, _ := registry.Lookup("eapm")
	if len(ids) != len(st.Variants) {
		t.Fatalf("%d runs queued, want one per variant (%d)", len(ids), len(st.Variants))
	}
	seen := map[string]bool{}
	for i, id := range ids {
		r := a.waitRun(t, id)
		if r.Status != "done" || r.WorkloadID != wid {
			t.Errorf("run %s: status %s on workload %s", id, r.Status, r.WorkloadID)
		}
		if r.Variant != st.Variants[i].Name {
			t.Errorf("run %d is variant %s, want %s (variant order)", i, r.Variant, st.Variants[i].Name)
		}
		seen[r.Variant] = true
	}
	if len(seen) != len(ids) {
		t.Errorf("variants repeat: %v", seen)
	}
	code, body := a.do(t, http.MethodGet, loc, "", nil)
	if code != http.StatusOK {
		t.Fatalf("compare page: %d", code)
	}
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if n := doc.Find("[data-testid=compare-metrics] thead th").Length(); n != len(ids)+1 {
		t.Errorf("compare table has %d header cells, want %d", n, len(ids)+1)
	}
	if doc.Find("[data-testid=compare-waiting]").Length() != 0 {
		t.Error("finished runs still announced as running")
	}
}

func TestRunAllVariantsKeepsTheRunAndItsParameters(t *testing.T) {
	a := newApp(t, "", 0)
	wid := a.upload(t)
	first := a.startRun(t, fmt.Sprintf(`{"workload_id":%q,"variant":"average","params":{"gamma":"0.7"}}`, wid))
	status, loc := a.postNoRedirect(t, "/runs/"+first.ID+"/all-variants")
	if status != http.StatusSeeOther {
		t.Fatalf("status %d, want 303", status)
	}
	ids := compareRuns(t, loc)
	if ids[0] != first.ID {
		t.Errorf("the compare page starts with %s, want the original run %s", ids[0], first.ID)
	}
	st, _ := registry.Lookup("eapm")
	if len(ids) != len(st.Variants) {
		t.Fatalf("%d runs, want %d", len(ids), len(st.Variants))
	}
	for _, id := range ids[1:] {
		r := a.waitRun(t, id)
		if r.Variant == "average" {
			t.Errorf("the original variant was run again as %s", id)
		}
		if r.Params["gamma"] != "0.7" {
			t.Errorf("run %s has gamma %q, want the original run's 0.7", id, r.Params["gamma"])
		}
	}
}

func TestAllVariantsOfUnknownRunIs404(t *testing.T) {
	a := newFakeApp(t, 0)
	if status, _ := a.postNoRedirect(t, "/runs/nosuchrun0/all-variants"); status != http.StatusNotFound {
		t.Errorf("status %d, want 404", status)
	}
	if n := a.countRuns(t); n != 0 {
		t.Errorf("%d runs queued", n)
	}
}

// picky is eapm (a copy) with one variant that needs another kind of
// workload, as cyclic's batch needs an SWF trace.
func picky(eapm *solvers.Strategy) *solvers.Strategy {
	p := *eapm
	p.VariantFits = func(format, variant string) error {
		if variant == p.Variants[1].Name {
			return errs.Invalidf("variant", "%s runs only on a trace, not on a %s workload", variant, format)
		}
		return nil
	}
	return &p
}

func TestUnfitVariantIsRefusedAndSkipped(t *testing.T) {
	eapm, _ := registry.Lookup("eapm")
	st := picky(eapm)
	a := newAppWith(t, "", 0, []*solvers.Strategy{st})
	wid := a.upload(t)
	unfit := st.Variants[1].Name

	status, b := a.postJSON(t, "/api/runs", fmt.Sprintf(`{"workload_id":%q,"variant":%q}`, wid, unfit))
	if status != http.StatusBadRequest || !strings.Contains(string(b), `"field":"variant"`) || !strings.Contains(string(b), "only on a trace") {
		t.Errorf("unfit variant: %d %s, want 400 naming variant and saying why", status, b)
	}
	if n := a.countRuns(t); n != 0 {
		t.Fatalf("a refused run left %d runs stored", n)
	}

	status, loc := a.postNoRedirect(t, "/workloads/"+wid+"/all-variants")
	if status != http.StatusSeeOther {
		t.Fatalf("all variants: status %d", status)
	}
	ids := compareRuns(t, loc)
	if len(ids) != len(st.Variants)-1 {
		t.Fatalf("%d runs queued, want %d (every variant but the unfit one)", len(ids), len(st.Variants)-1)
	}
	for _, id := range ids {
		if r := a.waitRun(t, id); r.Variant == unfit || r.Status != "done" {
			t.Errorf("run %s: variant %s, status %s", id, r.Variant, r.Status)
		}
	}
}
