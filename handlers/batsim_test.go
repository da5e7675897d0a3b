package handlers

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestBatsimFilesOfABatchRun: a batch run's page links Batsim's two
// files; the API serves them, the jobs file one line per row of the
// run's jobs table (paged out of the stored report, so read from the
// store) with the same starts and allocations; a run of another kind has
// none (404), an unknown file name is 404.
func TestBatsimFilesOfABatchRun(t *testing.T) {
	a := newApp(t, "", 0)
	swf, err := os.ReadFile("../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf")
	if err != nil {
		t.Fatal(err)
	}
	w := a.uploadFile(t, "cyclic", "swf", "kth.swf", swf)
	run := a.startRun(t, `{"workload_id":"`+w.ID+`","strategy":"cyclic","variant":"batch","params":{"policy":"easy"}}`)

	_, page := a.do(t, http.MethodGet, "/runs/"+run.ID, "", nil)
	doc := parseHTML(t, page)
	if href, _ := doc.Find("[data-testid=batsim-jobs]").Attr("href"); href != "/api/runs/"+run.ID+"/batsim/jobs.csv" {
		t.Errorf("the run page links the Batsim jobs file as %q", href)
	}
	if href, _ := doc.Find("[data-testid=batsim-schedule]").Attr("href"); href != "/api/runs/"+run.ID+"/batsim/schedule.csv" {
		t.Errorf("the run page links the Batsim schedule file as %q", href)
	}

	status, body := a.do(t, http.MethodGet, "/api/runs/"+run.ID+"/batsim/jobs.csv", "", nil)
	if status != http.StatusOK {
		t.Fatalf("jobs.csv: %d %s", status, body)
	}
	jobs, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	_, table := a.do(t, http.MethodGet, "/runs/"+run.ID+"/tables/0.csv", "", nil)
	rows, err := csv.NewReader(strings.NewReader(string(table))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != len(rows) || len(jobs) < 1000 || len(jobs[0]) != 17 || jobs[0][14] != "allocated_resources" {
		t.Fatalf("jobs.csv has %d lines of %d fields (header %v), the table %d", len(jobs), len(jobs[0]), jobs[0], len(rows))
	}
	for i := 1; i < len(rows); i++ {
		// table: job_id 0, starting_time 4, allocated_resources 10;
		// Batsim: job_id 0, starting_time 8, allocated_resources 14.
		bs, _ := strconv.ParseFloat(jobs[i][8], 64)
		ts, err := strconv.ParseFloat(rows[i][4], 64)
		if jobs[i][0] != rows[i][0] || err != nil || bs != ts || jobs[i][14] != rows[i][10] {
			t.Fatalf("line %d: Batsim %v, table %v", i, jobs[i], rows[i])
		}
	}
	status, body = a.do(t, http.MethodGet, "/api/runs/"+run.ID+"/batsim/schedule.csv", "", nil)
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if status != http.StatusOK || len(lines) != 2 || !strings.HasPrefix(lines[0], "batsim_version,consumed_joules,makespan,") ||
		!strings.Contains(lines[1], ","+strconv.Itoa(len(rows)-1)+",") {
		t.Errorf("schedule.csv: %d %q", status, body)
	}
	if status, _ := a.do(t, http.MethodGet, "/api/runs/"+run.ID+"/batsim/energy.csv", "", nil); status != http.StatusNotFound {
		t.Errorf("unknown file: %d", status)
	}
	other := a.startRun(t, `{"workload_id":"`+w.ID+`","strategy":"cyclic","variant":"css"}`)
	if status, body := a.do(t, http.MethodGet, "/api/runs/"+other.ID+"/batsim/jobs.csv", "", nil); status != http.StatusNotFound || !strings.Contains(string(body), "not a batch simulation") {
		t.Errorf("a css run's Batsim file: %d %s", status, body)
	}
}

// TestUploadBatsimWorkloadWithPlatform: a Batsim workload and its
// SimGrid platform upload together (fields batsim and platform), run as
// a batch trace, and give Batsim's files; without the platform, the
// upload is refused naming the job and profile that need it, and nothing
// is stored.
func TestUploadBatsimWorkloadWithPlatform(t *testing.T) {
	a := newApp(t, "", 0)
	read := func(name string) string {
		b, err := os.ReadFile("../solvers/formats/testdata/batsim/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	work, plat := read("four_jobs.json"), read("platform_4x1Gf.xml")
	body, ctype := multipartBody(t, map[string]string{"strategy": "cyclic"}, map[string]string{"batsim": work})
	status, b := a.do(t, http.MethodPost, "/api/workloads", ctype, body)
	if status != http.StatusBadRequest || !strings.Contains(string(b), "homogeneous20s") || !strings.Contains(string(b), "platform") {
		t.Errorf("without the platform: %d %s", status, b)
	}
	_, list := a.do(t, http.MethodGet, "/api/workloads", "", nil)
	if strings.Contains(string(list), "four_jobs") {
		t.Errorf("a refused upload was stored: %s", list)
	}
	body, ctype = multipartBody(t, map[string]string{"strategy": "cyclic"}, map[string]string{"batsim": work, "platform": plat})
	status, b = a.do(t, http.MethodPost, "/api/workloads", ctype, body)
	if status != http.StatusCreated {
		t.Fatalf("upload: %d %s", status, b)
	}
	var w apiWorkload
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	run := a.startRun(t, `{"workload_id":"`+w.ID+`","strategy":"cyclic","variant":"batch","params":{"policy":"easy"}}`)
	status, jobs := a.do(t, http.MethodGet, "/api/runs/"+run.ID+"/batsim/jobs.csv", "", nil)
	lines := strings.Split(strings.TrimSpace(string(jobs)), "\n")
	// The schedule of solvers/cyclic's TestBatsimWorkloadRunsAsATrace.
	if status != http.StatusOK || len(lines) != 5 || !strings.HasPrefix(lines[2], "2,w0,delay,1.000000,4,50.000000,1,COMPLETED_SUCCESSFULLY,17.000000,20.000000,37.000000,") {
		t.Errorf("jobs.csv: %d %s", status, jobs)
	}
}
