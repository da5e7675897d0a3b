package handlers

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"

	"schedlab/buildinfo"
	"schedlab/runtypes"
	"schedlab/store"
)

// firstMember returns the first key of a JSON object and its value.
func firstMember(t *testing.T, b []byte) (string, json.RawMessage) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %.200s", b)
	}
	key, err := dec.Token()
	if err != nil {
		t.Fatal(err)
	}
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return key.(string), v
}

// TestRunReportAndPageNameTheBuildThatExecutedIt: a run records the build
// of the process that executed it; its report JSON (first member, and
// headers), its API row and its page's Cite block name that build, not the
// server's, so a later upgrade never relabels an old result. The page also
// gives the permanent link and the workload's checksums.
func TestRunReportAndPageNameTheBuildThatExecutedIt(t *testing.T) {
	a := newApp(t, "", 0)
	status, b := a.postJSON(t, "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":1},"seed":1}`)
	if status != http.StatusCreated {
		t.Fatalf("generate: %d %s", status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	done := a.startRun(t, `{"workload_id":"`+w.ID+`","strategy":"eapm","variant":"online"}`)
	if done.Status != runtypes.StatusDone {
		t.Fatalf("run ended %s: %s", done.Status, done.Error)
	}
	cur := buildinfo.Current()
	if done.Schedlab != cur {
		t.Errorf("the API names build %+v for a run this process executed, want %+v", done.Schedlab, cur)
	}
	stored, err := a.store.GetRun(context.Background(), done.ID)
	if err != nil {
		t.Fatal(err)
	}
	if buildinfo.Build(stored.Build) != cur {
		t.Errorf("the run row records build %+v, want %+v", stored.Build, cur)
	}

	// A run executed by another build (a worker of an older schedlab):
	// everything names that build.
	old := buildinfo.Build{Version: "v0.9.1", Commit: "0123456789abcdef0123456789abcdef01234567", Modified: "false"}
	run := a.claimedRun(t)
	if err := a.store.End(context.Background(), []store.Ending{{ID: run.ID, Worker: "node3:77", Status: runtypes.StatusDone,
		Report: stored.Report, Build: runtypes.Build(old)}})[0]; err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, a.URL+"/api/runs/"+run.ID+"/report", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("report: %d %s", resp.StatusCode, body.Bytes())
	}
	key, v := firstMember(t, body.Bytes())
	var named buildinfo.Build
	if err := json.Unmarshal(v, &named); err != nil || key != buildinfo.ReportKey || named != old {
		t.Errorf("the report's first member is %q %s, want %q %+v", key, v, buildinfo.ReportKey, old)
	}
	var rep struct {
		Metrics []json.RawMessage `json:"metrics"`
	}
	if err := json.Unmarshal(body.Bytes(), &rep); err != nil || len(rep.Metrics) == 0 {
		t.Errorf("the cited report is not the report: %v %.200s", err, body.Bytes())
	}
	if resp.Header.Get("X-Schedlab-Version") != old.Version || resp.Header.Get("X-Schedlab-Commit") != old.Commit {
		t.Errorf("report headers name %q %q, want %q %q", resp.Header.Get("X-Schedlab-Version"), resp.Header.Get("X-Schedlab-Commit"), old.Version, old.Commit)
	}
	var api apiRun
	_, b = a.do(t, http.MethodGet, "/api/runs/"+run.ID, "", nil)
	if json.Unmarshal(b, &api); api.Schedlab != old {
		t.Errorf("the API run names %+v, want %+v", api.Schedlab, old)
	}

	_, page := a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	doc := parseHTML(t, page)
	cite := doc.Find("[data-testid=cite]")
	if cite.Length() != 1 {
		t.Fatalf("the run page has %d Cite blocks, want 1", cite.Length())
	}
	if got := cite.Find("[data-testid=cite-version]").Text(); got != old.Version {
		t.Errorf("Cite names version %q, want %q", got, old.Version)
	}
	if got := cite.Find("[data-testid=cite-commit]").Text(); got != old.Commit {
		t.Errorf("Cite names commit %q, want %q", got, old.Commit)
	}
	if got := cite.Find("[data-testid=cite-link]").Text(); got != a.URL+"/runs/"+run.ID {
		t.Errorf("Cite's permanent link is %q, want %q", got, a.URL+"/runs/"+run.ID)
	}
	wl, err := a.store.GetWorkloadInfo(context.Background(), run.WorkloadID)
	if err != nil {
		t.Fatal(err)
	}
	if got := cite.Find("[data-testid=cite-workload]").Text(); !strings.Contains(got, wl.SHA256) || !strings.Contains(got, wl.UploadSHA256) || wl.UploadSHA256 == "" {
		t.Errorf("Cite's workload %q lacks its checksums %s / %q", got, wl.SHA256, wl.UploadSHA256)
	}
	if text, _ := cite.Find("[data-testid=cite-text]").Attr("value"); !strings.Contains(text, old.Commit) || !strings.Contains(text, "/runs/"+run.ID) {
		t.Errorf("Cite as text %q lacks the commit or the link", text)
	}
	if got := doc.Find("[data-testid=served-by]").Text(); got != cur.Describe() {
		t.Errorf("the page's footer says %q, want %q", got, cur.Describe())
	}
	if got := cite.Find("[data-testid=cite-served]").Text(); !strings.Contains(got, cur.CommitText()) {
		t.Errorf("Cite does not say this page was rendered by another build: %q", got)
	}
}

// TestWorkloadKeepsTheUploadedFilesChecksum: an upload keeps the sha256
// and size of the file exactly as uploaded (a .swf.gz as gzip) beside the
// converted form's, in the API and on its page; several files are listed
// one per line as sha256sum prints them; a generated workload has none.
func TestWorkloadKeepsTheUploadedFilesChecksum(t *testing.T) {
	a := newApp(t, "", 0)
	gz, err := os.ReadFile("../solvers/formats/testdata/swf/NASA-iPSC-1993-3.1-cln.swf.gz")
	if err != nil {
		t.Fatal(err)
	}
	w := a.uploadFile(t, "cyclic", "swf", "NASA-iPSC-1993-3.1-cln.swf.gz", gz)
	sum := sha256.Sum256(gz)
	if w.UploadSHA256 != hex.EncodeToString(sum[:]) || w.UploadBytes != int64(len(gz)) {
		t.Errorf("upload_sha256 %q, upload_bytes %d; want the file's %x, %d", w.UploadSHA256, w.UploadBytes, sum, len(gz))
	}
	if w.SHA256 == w.UploadSHA256 || w.Bytes == w.UploadBytes {
		t.Errorf("sha256 %s (%d bytes) should be the converted form's, not the upload's", w.SHA256, w.Bytes)
	}
	_, page := a.do(t, http.MethodGet, "/workloads/"+w.ID, "", nil)
	doc := parseHTML(t, page)
	if got := doc.Find("[data-testid=upload-checksum]").Text(); !strings.Contains(got, w.UploadSHA256) || !strings.Contains(got, "as you uploaded") {
		t.Errorf("the page's uploaded-file line %q lacks %s", got, w.UploadSHA256)
	}
	if got := doc.Find("[data-testid=stored-checksum]").Text(); !strings.Contains(got, w.SHA256) || !strings.Contains(got, "converted") {
		t.Errorf("the page's stored-form line %q lacks %s", got, w.SHA256)
	}
	// After a restart of the store (read back, not the struct just made).
	got, err := a.store.GetWorkloadInfo(context.Background(), w.ID)
	if err != nil || got.UploadSHA256 != w.UploadSHA256 || got.UploadBytes != len(gz) {
		t.Errorf("stored %+v %v", got, err)
	}

	// Several files: one "HEX  NAME" line each.
	multi, err := a.store.GetWorkloadInfo(context.Background(), a.upload(t))
	if err != nil {
		t.Fatal(err)
	}
	etc := sha256.Sum256([]byte(goodETC))
	lines := strings.Split(multi.UploadSHA256, "\n")
	if len(lines) != 3 || !strings.Contains(multi.UploadSHA256, hex.EncodeToString(etc[:])+"  etc.csv") ||
		multi.UploadBytes != len(goodETC)+len(goodAPC)+len(goodUsers) {
		t.Errorf("three files: upload_sha256 %q, %d bytes", multi.UploadSHA256, multi.UploadBytes)
	}

	status, b := a.postJSON(t, "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":1},"seed":1}`)
	var g apiWorkload
	if json.Unmarshal(b, &g); status != http.StatusCreated || g.UploadSHA256 != "" || g.UploadBytes != 0 {
		t.Errorf("a generated workload: %d upload_sha256 %q %d", status, g.UploadSHA256, g.UploadBytes)
	}
}

// uploadFile uploads one file in field of a multipart form and returns
// the stored workload.
func (a *app) uploadFile(t *testing.T, strategy, field, name string, data []byte) apiWorkload {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("strategy", strategy)
	fw, _ := mw.CreateFormFile(field, name)
	fw.Write(data)
	mw.Close()
	status, b := a.do(t, http.MethodPost, "/api/workloads", mw.FormDataContentType(), &buf)
	if status != http.StatusCreated {
		t.Fatalf("upload %s: %d %s", name, status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	return w
}
