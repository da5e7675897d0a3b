package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/registry"
)

// TestAdversaryFindsAndWritesTheSeparatingInstance runs a small search
// through `schedlab adversary` twice with one seed (the same best
// instance, byte for byte) and checks that the instance written is a
// workload the family reads and on which A and B give the printed values.
func TestAdversaryFindsAndWritesTheSeparatingInstance(t *testing.T) {
	dir := t.TempDir()
	args := func(out, rep string) []string {
		return []string{"adversary", "--strategy", "critical", "--a", "list", "--b", "heft", "--metric", "makespan",
			"--preset", "random", "--preset-param", "tasks=8", "--preset-param", "layers=3",
			"--budget", "40", "--restarts", "4", "--seed", "3", "--out", out, "--report", rep}
	}
	var first, second bytes.Buffer
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := run(context.Background(), args(a, filepath.Join(dir, "ra.json")), &first, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), args(b, filepath.Join(dir, "rb.json")), &second, io.Discard); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	line := func(b bytes.Buffer) string { l, _, _ := strings.Cut(b.String(), "\n"); return l }
	if !bytes.Equal(da, db) || line(first) != line(second) {
		t.Fatalf("one seed, two searches: %q vs %q", first.String(), second.String())
	}
	st, _ := registry.Lookup("critical")
	w, err := st.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "best.json", Data: da}})
	if err != nil {
		t.Fatalf("the best instance does not read back: %v", err)
	}
	params, _ := solvers.Resolve(st.Params, nil)
	var vals []string
	for _, v := range []string{"list", "heft"} {
		rep, err := st.Run(context.Background(), w, v, params, nil)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := rep.Metric("makespan")
		vals = append(vals, v+" makespan "+strings.TrimRight(strings.TrimRight(strings.TrimSpace(fmtG(m.Value)), "0"), "."))
	}
	for _, v := range vals {
		if !strings.Contains(first.String(), v) {
			t.Errorf("the summary %q does not give %q, what a run on the written instance gives", first.String(), v)
		}
	}
	for _, bad := range [][]string{
		{"adversary", "--strategy", "critical", "--a", "heft", "--b", "heft", "--metric", "makespan", "--preset", "random"},
		{"adversary", "--strategy", "critical", "--a", "heft", "--b", "list", "--metric", "tasks", "--preset", "random"},
		{"adversary", "--strategy", "critical", "--a", "heft", "--b", "list", "--metric", "makespan", "--preset", "nope"},
		{"adversary", "--strategy", "cyclic", "--a", "css", "--b", "fair", "--metric", "finish", "--preset", "toporkov2014", "--method", "anneal"},
	} {
		if err := run(context.Background(), bad, io.Discard, io.Discard); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
