package handlers

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestFormsAndRunPagesShowOnlyWhatApplies: an SWF upload's run form
// starts on batch; the form on a slot domain (a toporkov2014 preset) has
// no trace knobs (procs, size, estimates) enabled; a batch run's page
// lists batch's parameters and none of the slot model's; one strategy
// select id on the form (a cyclic parameter is called strategy too).
func TestFormsAndRunPagesShowOnlyWhatApplies(t *testing.T) {
	a := newApp(t, "", 0)
	swf, err := os.ReadFile("../solvers/formats/testdata/swf/hpc2n.swf")
	if err != nil {
		t.Fatal(err)
	}
	trace := a.uploadFile(t, "cyclic", "swf", "hpc2n.swf", swf)
	_, page := a.do(t, http.MethodGet, "/runs/new?workload="+trace.ID, "", nil)
	doc := parseHTML(t, page)
	if v, _ := doc.Find("#nr-variant option[selected]").Attr("value"); v != "batch" {
		t.Errorf("an SWF trace's run form starts on %q, want batch", v)
	}
	if n := doc.Find("[id=nr-strategy]").Length(); n > 1 {
		t.Errorf("%d elements share id nr-strategy", n)
	}
	if _, off := doc.Find("#nr-procs").Attr("disabled"); off {
		t.Error("procs is disabled on a trace")
	}

	status, b := a.postJSON(t, "/api/workloads/generate", `{"strategy":"cyclic","preset":"toporkov2014","params":{},"seed":1}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, b)
	}
	var domain apiWorkload
	json.Unmarshal(b, &domain)
	_, page = a.do(t, http.MethodGet, "/runs/new?workload="+domain.ID+"&variant=css", "", nil)
	doc = parseHTML(t, page)
	for _, name := range []string{"procs", "size", "estimates", "unit_s", "policy"} {
		if _, off := doc.Find("#nr-" + name).Attr("disabled"); !off {
			t.Errorf("css on a slot domain: %s is offered", name)
		}
	}
	if _, off := doc.Find("#nr-cycles").Attr("disabled"); off {
		t.Error("css on a slot domain: cycles is not offered")
	}

	run := a.startRun(t, `{"workload_id":"`+trace.ID+`","strategy":"cyclic","variant":"batch","params":{"policy":"fcfs"}}`)
	_, page = a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	line := parseHTML(t, page).Find("[data-testid=run-params]").Text()
	if !strings.Contains(line, "policy=fcfs") || !strings.Contains(line, "procs=") {
		t.Errorf("a batch run's parameters %q lack its own", line)
	}
	for _, name := range []string{"cycles=", "strategy=", "k=", "shift=", "css_share=", "unit_s="} {
		if strings.Contains(", "+line, ", "+name) {
			t.Errorf("a batch run's parameters %q list %s, which batch does not read", line, name)
		}
	}
}
