package handlers

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"schedlab/views"
)

// uploadFile is a multipart upload of one file (bytes as they are) in
// field, with the form fields given.
func uploadFile(t *testing.T, fields map[string]string, field, name string, data []byte) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, err := mw.CreateFormFile(field, name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	return &buf, mw.FormDataContentType()
}

// lublinLike is a small SWF trace made like the Lublin-Feitelson model
// logs: MaxNodes but no MaxProcs or Computer, -1 requested processors
// and requested time in every record.
func lublinLike(records int) string {
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxJobs: " + fmt.Sprint(records) + "\n; MaxNodes: 64\n")
	for i := 1; i <= records; i++ {
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n", i, 100*i, 300+37*i%900, 1<<(i%6))
	}
	return b.String()
}

// TestUploadRefusalKeepsTheNameAndNamesTheBinaryFormat: a refused upload
// shows the form again with the Name as typed (issue 42: it was
// cleared), and a known binary file given as text is named for what it
// is ("this is a PNG image"), on the page and in the API; gzip is read
// where the field takes it (an SWF trace) and named where it does not.
func TestUploadRefusalKeepsTheNameAndNamesTheBinaryFormat(t *testing.T) {
	a := newFakeApp(t, 0)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	body, ctype := uploadFile(t, map[string]string{"strategy": "eapm", "name": "my first workload"}, "file", "workload.json", png)
	status, b := a.do(t, http.MethodPost, "/workloads", ctype, body)
	if status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", status)
	}
	doc := parseHTML(t, b)
	if v, _ := doc.Find("#wl-name").Attr("value"); v != "my first workload" {
		t.Errorf("the form's Name is %q after the refusal, want the one typed", v)
	}
	if msg := doc.Find("[data-testid=form-error]").Text(); !strings.Contains(msg, "this is a PNG image") || !strings.Contains(msg, "workload.json") {
		t.Errorf("form error %q does not say the file is a PNG image", msg)
	}

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(lublinLike(20)))
	zw.Close()
	cases := []struct {
		name, strategy, field, file string
		data                        []byte
		status                      int
		says                        string
	}{
		{"pdf as an ETC matrix", "eapm", "etc", "etc.csv", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"), 400, "this is a PDF document"},
		{"zip as native JSON", "dcop", "file", "w.json", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), 400, "this is a ZIP archive"},
		{"jpeg as native JSON", "critical", "file", "w.json", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), 400, "this is a JPEG image"},
		{"gif as native JSON", "cyclic", "file", "w.json", []byte("GIF89a\x01\x00\x01\x00"), 400, "this is a GIF image"},
		{"gzip as native JSON", "eapm", "file", "w.json.gz", gz.Bytes(), 400, "this is a gzip-compressed file"},
		{"gzip as an SWF trace", "cyclic", "swf", "lublin.swf.gz", gz.Bytes(), 201, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, ctype := uploadFile(t, map[string]string{"strategy": tc.strategy}, tc.field, tc.file, tc.data)
			status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, b)
			}
			if tc.says == "" {
				return
			}
			var e apiError
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(e.Error, tc.says) || !strings.Contains(e.Error, tc.file) || e.Field != tc.field {
				t.Errorf("error %q on %q, want %q about %s on field %s", e.Error, e.Field, tc.says, tc.file, tc.field)
			}
		})
	}
}

// TestGenerateReportsEveryProblemAtOnce: jobs=-5 (out of its range) and
// per_job=20 (more than the preset's 15 resources, a rule across two
// parameters) are both reported, on the form beside each field and in
// the API's problems (issue 42: only jobs was).
func TestGenerateReportsEveryProblemAtOnce(t *testing.T) {
	a := newFakeApp(t, 0)
	form := url.Values{"strategy": {"dcop"}, "preset": {"namekata2008"}, "seed": {"1"},
		views.ParamField("jobs"): {"-5"}, views.ParamField("per_job"): {"20"}}
	form.Set(views.CSRFField, testCSRF)
	status, b := a.do(t, http.MethodPost, "/workloads/generate", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400: %.300s", status, b)
	}
	doc := parseHTML(t, b)
	for _, f := range []string{"jobs", "per_job"} {
		if msg := doc.Find("[data-testid=preset-namekata2008] [data-testid=error-" + f + "]").Text(); msg == "" {
			t.Errorf("the generate form shows no problem beside %s", f)
		}
	}
	status, b = a.postJSON(t, "/api/workloads/generate", `{"strategy":"dcop","preset":"namekata2008","params":{"jobs":-5,"per_job":20},"seed":1}`)
	var e apiError
	if err := json.Unmarshal(b, &e); err != nil || status != http.StatusBadRequest {
		t.Fatalf("%d %s", status, b)
	}
	fields := map[string]bool{}
	for _, p := range e.Problems {
		fields[p.Field] = true
	}
	if !fields["jobs"] || !fields["per_job"] {
		t.Errorf("the API's problems name %v, want jobs and per_job: %s", fields, b)
	}
	if n := a.countWorkloads(t); n != 0 {
		t.Errorf("%d workloads stored after a refused generate", n)
	}
}

// TestRunsListShowsTheParameterThatTellsRunsApartAtItsDefault: three
// batch runs on one trace, with the policy left at its default (easy),
// fcfs and conservative: the runs list says policy= for each, the
// default one included (issue 42: it read plain "batch").
func TestRunsListShowsTheParameterThatTellsRunsApartAtItsDefault(t *testing.T) {
	a := newApp(t, "", 0)
	body, ctype := uploadFile(t, map[string]string{"strategy": "cyclic"}, "swf", "lublin.swf", []byte(lublinLike(30)))
	status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
	if status != http.StatusCreated {
		t.Fatalf("upload: %d %s", status, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	want := map[string]string{}
	for _, policy := range []string{"", "fcfs", "conservative"} {
		params := ""
		if policy != "" {
			params = `,"params":{"policy":"` + policy + `"}`
		}
		r := a.startRun(t, `{"workload_id":"`+w.ID+`","strategy":"cyclic","variant":"batch"`+params+`}`)
		want[r.ID] = "policy=" + cmp.Or(policy, "easy")
	}
	for _, page := range []string{"/runs", "/workloads/" + w.ID} {
		_, b = a.do(t, http.MethodGet, page, "", nil)
		doc := parseHTML(t, b)
		got := map[string]string{}
		doc.Find("tbody tr").Each(func(_ int, tr *goquery.Selection) {
			id := tr.Find("a code").First().Text()
			got[id] = tr.Find("[data-testid=run-params]").Text()
		})
		for id, p := range want {
			if !strings.Contains(got[id], p) {
				t.Errorf("%s: run %s reads %q, want %q", page, id, got[id], p)
			}
		}
	}
}
