package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/solvers/registry"
)

func TestRunWritesTheReportJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	err := run(context.Background(), []string{"run", "--strategy", "eapm", "--variant", "greedy-min-energy",
		"--preset", "zhang2022-case1", "--param", "instance=2", "--param", "gamma=1.5", "--out", out}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Metrics []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"metrics"`
		Gantts []json.RawMessage `json:"gantts"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	var objective float64
	for _, m := range rep.Metrics {
		if m.Name == "objective" {
			objective = m.Value
		}
	}
	if objective <= 0 || len(rep.Gantts) == 0 {
		t.Errorf("objective %v (want > 0 at γ = 1.5), %d gantts", objective, len(rep.Gantts))
	}
}

func TestRunReadsWorkloadFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"etc.csv": "10,20\n30,15\n", "apc.csv": "100,60\n80,90\n", "users.csv": "0,5\n1,7\n"} {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	var stdout bytes.Buffer
	err := run(context.Background(), []string{"run", "--strategy", "eapm", "--workload", filepath.Join(dir, "etc.csv"),
		"--workload", filepath.Join(dir, "apc.csv"), "--workload", filepath.Join(dir, "users.csv")}, &stdout, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), `"objective"`) {
		t.Errorf("stdout lacks the report: %.200s", stdout.String())
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"run", "--strategy", "nosuch", "--preset", "x"}, "unknown strategy"},
		{[]string{"run", "--strategy", "eapm"}, "either --workload"},
		{[]string{"run", "--strategy", "eapm", "--preset", "nosuch"}, "unknown preset"},
		{[]string{"run", "--strategy", "eapm", "--preset", "zhang2022-case1", "--param", "gamma=abc"}, "gamma"},
		{[]string{"run", "--strategy", "eapm", "--preset", "zhang2022-case1", "--param", "instance=500"}, "instance"},
		{[]string{"run", "--strategy", "eapm", "--preset", "zhang2022-case1", "--variant", "magic"}, "variant"},
		{[]string{"reproduce", "nosuch"}, `unknown strategy "nosuch"`},
		{[]string{"frobnicate"}, "unknown command"},
	}
	for _, tc := range cases {
		err := run(context.Background(), tc.args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.says)
		}
	}
}

func TestStrategiesJSONListsAllFamilies(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"strategies", "--json"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var list []struct {
		Name     string `json:"name"`
		Built    bool   `json:"built"`
		Variants []struct {
			Name string `json:"name"`
		} `json:"variants"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != len(registry.All()) {
		t.Fatalf("%d families, want the registry's %d", len(list), len(registry.All()))
	}
	for _, s := range list {
		_, registered := registry.Lookup(s.Name)
		if !s.Built || !registered || len(s.Variants) == 0 {
			t.Errorf("%s: built %v with %d variants, registered %v", s.Name, s.Built, len(s.Variants), registered)
		}
		if st, ok := registry.Lookup(s.Name); ok && len(s.Variants) != len(st.Variants) {
			t.Errorf("%s lists %d variants, the family has %d", s.Name, len(s.Variants), len(st.Variants))
		}
	}
}

func TestExportWritesOtherToolsFormats(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"export", "--strategy", "dcop", "--format", "frodo", "--preset", "namekata2008",
		"--param", "jobs=6", "--seed", "3"}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "<instance") {
		t.Errorf("FRODO export lacks <instance>: %.100s", out.String())
	}
	err = run(context.Background(), []string{"export", "--strategy", "dcop", "--format", "nosuch", "--preset", "namekata2008"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("unknown format: %v", err)
	}
}
