package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/store"
)

func TestBackupCommandCopiesTheRunsAndRefusesToOverwrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "lab.db")
	id := finishedExperiment(t, db)
	out := filepath.Join(dir, "lab-backup.db")
	var stdout, stderr bytes.Buffer
	if err := run(ctx, []string{"backup", "--db", db, "--out", out}, &stdout, &stderr); err != nil {
		t.Fatalf("backup: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "backed up "+db+" to "+out) {
		t.Errorf("backup said %q", stdout.String())
	}
	orig, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer orig.Close()
	bk, err := store.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	want, err := orig.ListRuns(ctx, store.RunFilter{})
	if err != nil || len(want) != 3 {
		t.Fatalf("the database's runs: %d, %v", len(want), err)
	}
	for _, r := range want {
		a, _ := orig.GetRun(ctx, r.ID)
		b, err := bk.GetRun(ctx, r.ID)
		if err != nil {
			t.Fatalf("run %s is not in the backup: %v", r.ID, err)
		}
		if a.Status != b.Status || string(a.Report) != string(b.Report) || a.Error != b.Error {
			t.Errorf("run %s differs in the backup: %s %q against %s %q", r.ID, b.Status, b.Report, a.Status, a.Report)
		}
	}
	if _, err := bk.GetExperiment(ctx, id); err != nil {
		t.Errorf("the experiment is not in the backup: %v", err)
	}

	before, _ := os.ReadFile(out)
	err = run(ctx, []string{"backup", "--db", db, "--out", out}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("a backup onto an existing file: %v", err)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Error("the refused backup changed the file")
	}
	for _, args := range [][]string{
		{"backup", "--db", db},
		{"backup", "--db", filepath.Join(dir, "missing.db"), "--out", filepath.Join(dir, "x.db")},
	} {
		if err := run(ctx, args, &stdout, &stderr); err == nil {
			t.Errorf("%q succeeded", args)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); err == nil {
		t.Error("backing up a missing database created it")
	}
}
