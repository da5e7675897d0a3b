package handlers

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"schedlab/solvers/registry"
	"schedlab/store"
)

// TestNotifyURLToAnInternalAddressIsRefusedAtOnce: an experiment whose
// notify_url names a loopback, private or link-local address, or
// localhost, is refused on field notify_url and stores nothing; a public
// host name is accepted (its address is checked when the note is sent);
// an address inside --notify-allow is accepted; the form says what is
// allowed.
func TestNotifyURLToAnInternalAddressIsRefusedAtOnce(t *testing.T) {
	const def = `{"name": "n", "strategy": "eapm", "workload": {"preset": "zhang2022-case1"}, "variants": ["online"], "notify_url": %q}`
	a := newApp(t, "", 0)
	for _, u := range []string{"http://127.0.0.1:8080/api/runs", "http://[::1]:4222/", "http://localhost/x", "http://10.0.0.1/",
		"http://169.254.169.254/latest/meta-data/", "http://0.0.0.0:8080/", "http://LOCALHOST./"} {
		status, b := a.do(t, http.MethodPost, "/api/experiments", "application/json", strings.NewReader(strings.Replace(def, "%q", `"`+u+`"`, 1)))
		if status != http.StatusBadRequest || !strings.Contains(string(b), "notify_url") || !strings.Contains(string(b), "--notify-allow") {
			t.Errorf("%s: %d %s, want 400 on notify_url naming --notify-allow", u, status, b)
		}
	}
	if es, _, _ := a.store.ListExperimentsPage(t.Context(), store.ExperimentFilter{Limit: 10}); len(es) != 0 {
		t.Errorf("%d experiments stored from refused definitions", len(es))
	}
	status, b := a.do(t, http.MethodPost, "/api/experiments", "application/json", strings.NewReader(strings.Replace(def, "%q", `"https://hooks.example.org/x"`, 1)))
	if status != http.StatusCreated {
		t.Errorf("public host: %d %s, want 201", status, b)
	}
	_, page := a.do(t, http.MethodGet, "/experiments/new", "", nil)
	if !strings.Contains(string(page), "public addresses only") || strings.Contains(string(page), "allowed by the operator") {
		t.Errorf("the form does not say notes go to public addresses only")
	}

	lab := newAppOpt(t, "", Options{NotifyAllow: []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16")}}, registry.All())
	status, b = lab.do(t, http.MethodPost, "/api/experiments", "application/json", strings.NewReader(strings.Replace(def, "%q", `"http://10.1.2.3/hook"`, 1)))
	if status != http.StatusCreated {
		t.Errorf("allowed network: %d %s, want 201", status, b)
	}
	status, _ = lab.do(t, http.MethodPost, "/api/experiments", "application/json", strings.NewReader(strings.Replace(def, "%q", `"http://10.2.0.1/hook"`, 1)))
	if status != http.StatusBadRequest {
		t.Errorf("outside the allowed network: %d, want 400", status)
	}
	_, page = lab.do(t, http.MethodGet, "/experiments/new", "", nil)
	if !strings.Contains(string(page), "except in 10.1.0.0/16 (allowed by the operator)") {
		t.Errorf("the form does not name the allowed network")
	}
}
