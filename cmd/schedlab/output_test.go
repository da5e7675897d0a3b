package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"schedlab/buildinfo"
	"schedlab/report"
)

// kthTrace is the full KTH SP2 trace (28,490 records) the batch pins run on.
const kthTrace = "../../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz"

// reportDigest is the SHA-256 of a report's JSON with its wall_ms metric
// removed (the only value that changes from run to run) and its
// "schedlab" member (the build that wrote it, which changes with every
// commit; TestRunReportNamesTheBuild checks it), re-encoded with sorted
// keys and no indentation, so it pins the content and not the layout.
func reportDigest(t *testing.T, b []byte) string {
	t.Helper()
	var rep map[string]any
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("the report is not JSON: %v", err)
	}
	ms, _ := rep["metrics"].([]any)
	kept := ms[:0]
	for _, m := range ms {
		if m.(map[string]any)["name"] != "wall_ms" {
			kept = append(kept, m)
		}
	}
	rep["metrics"] = kept
	delete(rep, buildinfo.ReportKey)
	c, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:])
}

// TestRunBatchOnKTHIsPinned pins what `schedlab run --full` writes for the batch
// simulation of the full KTH trace under each policy: every job's start,
// end and processors (the Batsim table), the metrics, the Gantt window,
// the usage plot and the notes. The digests are those of the reports the
// command wrote before its output and trace reading were rewritten for
// speed (80f68b4, with the report's time frame of issue 22 added: the
// usage plot in trace seconds, the frame, the notes in it; the same
// digests from the unchanged CLI of that branch; then utilization's
// "variants": ["batch"] of issue 22, the reports otherwise the same:
// without that field they give the earlier digests ffb890f5…, dad38841…,
// 340eccd4…; --full since the per-job table is paged out by default;
// then issue 30's info metric processors and utilization's bounds [0, 1]:
// without them the reports give the earlier 39cf5f4d…, cb62d6ea…,
// 25427b07…, checked); then issue 33's job table time_columns, "Jobs
// waiting" plot and bucket length in the usage lines' names: without
// those three they give the earlier eec238a9…, 7bf62afd…, 24a7c5c6…
// (checked); then issue 42's first note naming the header field the
// machine size came from and the SWF field of the job sizes: without it
// they give the earlier 46c3f256…, ecd4439d…, 63803c95… (checked: the
// note and the wall time are all that differ); then issue 42 item 1's
// utilization "variants": ["batch", "external:*"] (every decision
// process, not those registered): with ["batch"] the reports give the
// earlier d80b0392…, 3fa81f2e…, c7846f96… (checked). Any change to a
// schedule or to the report's content changes them.
func TestRunBatchOnKTHIsPinned(t *testing.T) {
	want := map[string]string{
		"fcfs":         "069fbe9e7f31c23dc22ac373e6896e6a293b4d8502297c83255e6743e4785f33",
		"easy":         "11a45f87689cece03ed8970b2c131b108f9d82c0b8291a89012010aea783a197",
		"conservative": "4b1b915ffac370507998319749b126d249e225e669fa5c3d2092b1dec594375a",
	}
	for _, policy := range []string{"fcfs", "easy", "conservative"} {
		out := filepath.Join(t.TempDir(), policy+".json")
		err := run(context.Background(), []string{"run", "--strategy", "cyclic", "--variant", "batch",
			"--workload", kthTrace, "--param", "policy=" + policy, "--out", out, "--full"}, io.Discard, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", policy, err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := reportDigest(t, b); got != want[policy] {
			t.Errorf("%s on KTH: report digest %s, want %s", policy, got, want[policy])
		}
	}
}

// TestRunWritesCompactJSONUnlessIndent: the report is compact by default
// and indented with --indent, the same JSON either way, paged or --full.
func TestRunWritesCompactJSONUnlessIndent(t *testing.T) {
	for _, full := range []bool{false, true} {
		args := []string{"run", "--strategy", "cyclic", "--variant", "batch", "--workload",
			"../../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf", "--param", "policy=fcfs"}
		if full {
			args = append(args, "--full")
		}
		compactAndIndented(t, args)
	}
}

func compactAndIndented(t *testing.T, args []string) {
	t.Helper()
	var compact, indented bytes.Buffer
	if err := run(context.Background(), args, &compact, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), append(args, "--indent"), &indented, io.Discard); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(compact.Bytes(), []byte("\n")); n != 1 || !bytes.HasSuffix(compact.Bytes(), []byte("}\n")) {
		t.Errorf("the default output has %d newlines, want one line", n)
	}
	if !bytes.Contains(indented.Bytes(), []byte("\n  \"tables\": [\n")) {
		t.Errorf("--indent output is not indented: %.100s", indented.String())
	}
	if a, b := reportDigest(t, compact.Bytes()), reportDigest(t, indented.Bytes()); a != b {
		t.Error("the compact and indented reports differ")
	}
}

// TestRunPagesLargeTablesUnlessFull: by default the per-job table (more
// than report.PageOutRows rows) is written in the server's paged form
// with a note saying how to get it, and the rest of the report is that of
// --full; --tables DIR writes its rows as the CSV the server's download
// gives of the stored run (cells as the stored JSON reads back).
func TestRunPagesLargeTablesUnlessFull(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--strategy", "cyclic", "--variant", "batch", "--workload",
		"../../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf", "--param", "policy=easy"}
	get := func(extra ...string) []byte {
		t.Helper()
		var out bytes.Buffer
		if err := run(context.Background(), append(slices.Clone(args), extra...), &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	fullJSON, pagedJSON := get("--full"), get()
	csvDir := filepath.Join(dir, "tables")
	withCSV := get("--tables", csvDir)

	var full, paged, csvRep report.Report
	for _, c := range []struct {
		b   []byte
		rep *report.Report
	}{{fullJSON, &full}, {pagedJSON, &paged}, {withCSV, &csvRep}} {
		if err := json.Unmarshal(c.b, c.rep); err != nil {
			t.Fatal(err)
		}
	}
	const title = "Jobs (Batsim columns)"
	ft := full.Table(title)
	if ft == nil || ft.Paged || len(ft.Rows) <= report.PageOutRows {
		t.Fatalf("--full: the table %q is not embedded whole", title)
	}
	n := len(ft.Rows)
	want := fmt.Sprintf(`{"title":"Jobs (Batsim columns)","columns":["job_id","submission_time","requested_number_of_resources","requested_time","starting_time","execution_time","finish_time","waiting_time","turnaround_time","stretch","allocated_resources"],"rows":[],"paged":true,"row_count":%d,"time_columns":[1,4,6]}`, n)
	if !bytes.Contains(pagedJSON, []byte(want)) {
		t.Errorf("the default report does not hold the paged table %s", want)
	}
	csvNote := csvRep.Notes[len(csvRep.Notes)-1]
	// The rest is the --full report, plus one note.
	for name, r := range map[string]*report.Report{"default": &paged, "--tables": &csvRep} {
		last := r.Notes[len(r.Notes)-1]
		if !strings.Contains(last, title) || !strings.Contains(last, strconv.Itoa(n)+" rows") || !strings.Contains(last, "--full") {
			t.Errorf("%s: the last note %q does not say how to get the table", name, last)
		}
		r.Notes = r.Notes[:len(r.Notes)-1]
		*r.Table(title) = *ft
		b, _ := json.Marshal(r)
		if reportDigest(t, b) != reportDigest(t, fullJSON) {
			t.Errorf("%s: the report with the table put back differs from --full's", name)
		}
	}
	csvPath := filepath.Join(csvDir, "00-jobs-batsim-columns.csv")
	if !strings.Contains(csvNote, csvPath) {
		t.Errorf("the note %q does not name %s", csvNote, csvPath)
	}
	got, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	var wantCSV bytes.Buffer
	w := report.NewTableCSV(&wantCSV, ft.Columns)
	for _, row := range ft.Rows { // the cells as the stored report reads back
		if err := w.Row(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantCSV.Bytes()) || bytes.Count(got, []byte("\n")) != n+1 {
		t.Errorf("%s: %d lines, not the table's CSV of %d rows", csvPath, bytes.Count(got, []byte("\n")), n)
	}
	// --full with --tables: the CSV too, and no note.
	if b := get("--full", "--tables", filepath.Join(dir, "both")); reportDigest(t, b) != reportDigest(t, fullJSON) {
		t.Error("--full --tables: the report differs from --full's")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "both", "00-jobs-batsim-columns.csv")); err != nil || !bytes.Equal(b, got) {
		t.Errorf("--full --tables: the CSV differs (%v)", err)
	}
}

// TestRunReportNamesTheBuild: the report the CLI writes names, as its
// first member, the schedlab version and commit that produced it, compact
// and indented, and is otherwise the report.
func TestRunReportNamesTheBuild(t *testing.T) {
	for _, indent := range []bool{false, true} {
		args := []string{"run", "--strategy", "eapm", "--variant", "online", "--preset", "zhang2022-case1", "--param", "instance=1"}
		if indent {
			args = append(args, "--indent")
		}
		var out bytes.Buffer
		if err := run(context.Background(), args, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			t.Fatalf("not a JSON object: %v %v", tok, err)
		}
		if key, err := dec.Token(); err != nil || key != buildinfo.ReportKey {
			t.Fatalf("indent %v: the first member is %v (%v), want %q", indent, key, err, buildinfo.ReportKey)
		}
		var got struct {
			Schedlab buildinfo.Build `json:"schedlab"`
			Metrics  []report.Metric `json:"metrics"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("indent %v: %v\n%.300s", indent, err, out.String())
		}
		if got.Schedlab != buildinfo.Current() || got.Schedlab.Version == "" || got.Schedlab.Commit == "" {
			t.Errorf("indent %v: the report names build %+v, want %+v", indent, got.Schedlab, buildinfo.Current())
		}
		if len(got.Metrics) == 0 {
			t.Errorf("indent %v: the report lost its metrics", indent)
		}
	}
}
