package e2e

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// attackPage is a page of another site that tries, as soon as it loads, to
// change things on schedlab at target: form posts (which browsers send
// cross-site without asking) to delete and cancel a run, start a run and a
// reproduction, generate a workload and upload one, and no-cors fetches
// with text/plain JSON to the API. Each form posts into its own frame.
func attackPage(target, runID, workloadID string) string {
	forms := []struct{ action, enctype, fields string }{
		{"/runs/" + runID + "/delete", "", ""},
		{"/runs/" + runID + "/cancel", "", ""},
		{"/runs", "", `<input name="workload_id" value="` + workloadID + `"><input name="variant" value="online">`},
		{"/reproduce", "", `<input name="strategy" value="eapm"><input name="instances" value="1">`},
		{"/workloads/generate", "", `<input name="strategy" value="eapm"><input name="preset" value="zhang2022-case1">`},
		{"/api/workloads", "multipart/form-data", `<input name="strategy" value="eapm"><textarea name="file">{}</textarea>`},
		{"/runs/" + runID + "/delete", "text/plain", `<input name='{"a":"' value='"}'>`},
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><body><h1>cat pictures</h1>\n")
	for i, f := range forms {
		enc := ""
		if f.enctype != "" {
			enc = ` enctype="` + f.enctype + `"`
		}
		fmt.Fprintf(&b, `<iframe name="f%d"></iframe><form id="x%d" method="post" target="f%d" action="%s"%s>%s</form>`+"\n",
			i, i, i, html.EscapeString(target+f.action), enc, f.fields)
	}
	fmt.Fprintf(&b, `<script>
var n = %d, landed = [];
for (var i = 0; i < n; i++) {
  // Each frame loads the answer to its form's post (or an error page):
  // the post has landed when it fires.
  landed.push(new Promise(function (resolve) { document.getElementsByName("f" + i)[0].addEventListener("load", resolve, {once: true}); }));
  document.getElementById("x" + i).submit();
}
var body = JSON.stringify({workload_id: %q, variant: "online"});
landed.push(fetch(%q, {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: body}));
landed.push(fetch(%q, {method: "DELETE", mode: "no-cors"}));
landed.push(fetch(%q, {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: JSON.stringify({strategy: "eapm", preset: "zhang2022-case1"})}));
// "sent" once every post has been answered: the test then looks, with no
// wait of its own.
Promise.allSettled(landed).then(function () { document.title = "sent"; });
</script></body></html>`, len(forms), workloadID, target+"/api/runs", target+"/api/runs/"+runID, target+"/api/workloads/generate")
	return b.String()
}

func TestBrowserPageOnAnotherOriginCannotChangeAnything(t *testing.T) {
	exe := chromium(t)
	base := serve(t) // http://127.0.0.1:PORT
	dir := t.TempDir()

	// A finished run and its workload, made through the API.
	status, b := post(t, base+"/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":1},"seed":1}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, b)
	}
	var w struct{ ID string }
	mustJSON(t, b, &w)
	runID := startRunOn(t, base, w.ID, "online")

	counts := func() (runs, workloads int) {
		var rs, ws []map[string]any
		getJSON(t, base+"/api/runs", &rs)
		getJSON(t, base+"/api/workloads", &ws)
		return len(rs), len(ws)
	}
	runsBefore, workloadsBefore := counts()

	// The attacker's site: another host name for the loopback, so another
	// site as well as another origin.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	page := attackPage(base, runID, w.ID)
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		rw.Write([]byte(page))
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	ctx, _ := browser(t, exe, dir)
	// The victim has schedlab open (it has its cookies), then visits the
	// other site.
	if _, err := chromedp.Run(ctx, chromedp.Navigate(base+"/runs/"+runID)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate("http://localhost:"+port+"/")); err != nil {
		t.Fatal(err)
	}
	// The page sets "sent" when every post has been answered (see
	// attackPage); the tab's context bounds the wait.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.title === "sent"`, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the attack page did not run: %v", err)
	}

	var run struct{ Status string }
	if st, b := getStatus(t, base+"/api/runs/"+runID); st != http.StatusOK {
		t.Fatalf("the run was deleted by another site's page: GET answered %d %s", st, b)
	} else {
		mustJSON(t, b, &run)
	}
	if run.Status != "done" {
		t.Errorf("the run is %s after the attack, want done", run.Status)
	}
	if r, ws := counts(); r != runsBefore || ws != workloadsBefore {
		t.Errorf("another site's page created things: runs %d → %d, workloads %d → %d", runsBefore, r, workloadsBefore, ws)
	}
}

func mustJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

func getStatus(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// startRunOn starts a run of variant on a workload through the API and
// waits for it to finish.
func startRunOn(t *testing.T, base, workloadID, variant string) string {
	t.Helper()
	status, b := post(t, base+"/api/runs", fmt.Sprintf(`{"workload_id":%q,"variant":%q}`, workloadID, variant))
	if status != http.StatusCreated {
		t.Fatalf("POST /api/runs: %d %s", status, b)
	}
	var run struct{ ID, Status string }
	mustJSON(t, b, &run)
	waitDone(t, base, run.ID)
	return run.ID
}
