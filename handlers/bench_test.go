package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkStoredReportPage renders the page of a finished run whose report
// is stored: a case-2 instance with 2,000 users (a Gantt of ~18,000 bars,
// per-arrival plots, tables). Target: ≤ 20 ms per page.
func BenchmarkStoredReportPage(b *testing.B) {
	a := newApp(b, "", 0)
	status, body := a.postJSON(b, "/api/workloads/generate",
		`{"strategy":"eapm","preset":"zhang2022-case2","params":{"instance":0,"n":2000}}`)
	if status != http.StatusCreated {
		b.Fatalf("generate: %d %s", status, body)
	}
	var w apiWorkload
	json.Unmarshal(body, &w)
	run := a.startRun(b, `{"workload_id":"`+w.ID+`","variant":"online"}`)
	if run.Status != "done" {
		b.Fatalf("run %s", run.Status)
	}
	h := a.Config.Handler
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/runs/"+run.ID, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
		b.SetBytes(int64(rec.Body.Len()))
	}
}
