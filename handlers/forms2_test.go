package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestGenerateFormShowsEveryProblemBesideItsFieldAndKeepsTheInput posts
// a preset form with two bad parameters and a bad seed: all three come
// back at once, each beside its field and marked invalid, the values as
// typed, numbers echoed as typed (no 1e+08), and nothing stored.
func TestGenerateFormShowsEveryProblemBesideItsFieldAndKeepsTheInput(t *testing.T) {
	a := newFakeApp(t, 0)
	form := url.Values{"strategy": {"dcop"}, "preset": {"namekata2008"}, "seed": {"x1"},
		"p.jobs": {"many"}, "p.resources": {"100000000000"}}
	status, page := a.do(t, http.MethodPost, "/workloads/generate", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if status != http.StatusBadRequest {
		t.Fatalf("status %d", status)
	}
	doc := parseHTML(t, page)
	f := doc.Find("[data-testid=preset-namekata2008]")
	if n := f.Find("[data-testid=form-error] li").Length(); n != 3 {
		t.Errorf("%d problems listed on the preset's form, want 3:\n%s", n, f.Find("[data-testid=form-error]").Text())
	}
	for _, name := range []string{"jobs", "resources", "seed"} {
		msg := f.Find("[data-testid=error-" + name + "]")
		if msg.Length() != 1 {
			t.Errorf("no message beside %s", name)
			continue
		}
		field := f.Find("#gen-namekata2008-" + name)
		if v, _ := field.Attr("aria-invalid"); v != "true" {
			t.Errorf("%s is not marked invalid (aria-invalid %q)", name, v)
		}
		if id, _ := msg.Attr("id"); id == "" || field.AttrOr("aria-describedby", "") != id {
			t.Errorf("%s: aria-describedby %q does not name its message %q", name, field.AttrOr("aria-describedby", ""), id)
		}
	}
	for name, want := range map[string]string{"p.jobs": "many", "p.resources": "100000000000", "seed": "x1"} {
		if v, _ := f.Find(`input[name="` + name + `"]`).Attr("value"); v != want {
			t.Errorf("the form lost %s: %q, want %q", name, v, want)
		}
	}
	if msg := f.Find("[data-testid=error-resources]").Text(); strings.Contains(msg, "e+") || !strings.Contains(msg, "got 100000000000") {
		t.Errorf("resources' message %q does not echo the number as typed", msg)
	}
	if a.countWorkloads(t) != 0 {
		t.Error("a refused form stored a workload")
	}
}

// TestRunFormChecksListsOfNumbersAtSubmit: wf_processors=a,b is refused
// when the form is sent, beside its field, not minutes later by a worker.
func TestRunFormChecksListsOfNumbersAtSubmit(t *testing.T) {
	a := newApp(t, "", 0)
	status, b := a.postJSON(t, "/api/workloads/generate", `{"strategy":"critical","preset":"random","params":{"tasks":"10"},"seed":1}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, b)
	}
	id := between(string(b), `"id":"`, `"`)
	form := url.Values{"workload_id": {id}, "strategy": {"critical"}, "variant": {"heft"}, "p.wf_processors": {"a,b"}}
	status, page := a.do(t, http.MethodPost, "/runs", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if status != http.StatusBadRequest {
		t.Fatalf("status %d: a list with no numbers was accepted", status)
	}
	doc := parseHTML(t, page)
	if msg := doc.Find("[data-testid=error-wf_processors]").Text(); !strings.Contains(msg, `"a"`) {
		t.Errorf("wf_processors' message %q does not name the bad item", msg)
	}
	if v, _ := doc.Find("#nr-wf_processors").Attr("aria-invalid"); v != "true" {
		t.Error("wf_processors is not marked invalid")
	}
	if a.countRuns(t) != 0 {
		t.Error("a refused form stored a run")
	}
}

// TestReproduceCardSaysTheSettingOfItsVerdicts: a reproduction's summary
// on /reproduce names the setting its verdicts were judged at (a scale
// below the paper's shows there, not only inside the result).
func TestReproduceCardSaysTheSettingOfItsVerdicts(t *testing.T) {
	a := newApp(t, "", 0)
	status, b := a.postJSON(t, "/api/reproduce/eapm", `{"params":{"instances":"2"}}`)
	if status != http.StatusCreated {
		t.Fatalf("reproduce: %d %s", status, b)
	}
	if r := a.waitRun(t, between(string(b), `"id":"`, `"`)); r.Status != "done" {
		t.Fatalf("reproduction ended %s: %s", r.Status, r.Error)
	}
	_, page := a.do(t, http.MethodGet, "/reproduce", "", nil)
	got := parseHTML(t, page).Find("[data-testid=repro-summary-eapm] [data-testid=repro-setting]").Text()
	if !strings.Contains(got, "instances=2") {
		t.Errorf("the eapm card's setting line %q does not name instances=2", got)
	}
}
