package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/report"
)

// TestRunBatsimOut: `schedlab run --batsim-out PREFIX` writes
// PREFIX_jobs.csv and PREFIX_schedule.csv, the files the server writes
// from the same report as stored (JSON read back); a run that is not a
// batch simulation still writes its report and says why it has no
// Batsim files.
func TestRunBatsimOut(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "out", "kth") // out/ made by the command
	var out bytes.Buffer
	args := []string{"run", "--strategy", "cyclic", "--variant", "batch", "--workload",
		"../../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf", "--param", "policy=conservative", "--full", "--batsim-out", prefix}
	if err := run(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	rep, err := report.DecodeReport(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var jobs, sched bytes.Buffer
	if err := report.WriteBatsimFiles(rep, report.BatsimRunOf(rep), &jobs, &sched); err != nil {
		t.Fatal(err)
	}
	gotJobs, err := os.ReadFile(prefix + "_jobs.csv")
	if err != nil {
		t.Fatal(err)
	}
	gotSched, err := os.ReadFile(prefix + "_schedule.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotJobs, jobs.Bytes()) || !bytes.Equal(gotSched, sched.Bytes()) {
		t.Errorf("the command line's Batsim files differ from the stored report's (%d/%d, %d/%d bytes)", len(gotJobs), jobs.Len(), len(gotSched), sched.Len())
	}
	if !strings.HasPrefix(string(gotJobs), "job_id,workload_name,profile,submission_time,") || bytes.Count(gotJobs, []byte("\n")) < 1000 {
		t.Errorf("_jobs.csv: %.200s", gotJobs)
	}

	out.Reset()
	args = []string{"run", "--strategy", "cyclic", "--variant", "css", "--workload",
		"../../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf", "--batsim-out", filepath.Join(dir, "css")}
	err = run(context.Background(), args, &out, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--batsim-out") || !strings.Contains(err.Error(), "not a batch simulation") || out.Len() == 0 {
		t.Errorf("css: %v (report %d bytes)", err, out.Len())
	}
	if _, err := os.Stat(filepath.Join(dir, "css_jobs.csv")); !os.IsNotExist(err) {
		t.Errorf("a css run wrote a Batsim file: %v", err)
	}
}
