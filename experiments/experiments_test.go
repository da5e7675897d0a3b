package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/runtypes"
	"schedlab/solvers/eapm"
	"schedlab/solvers/sweep"
)

const exampleJSON = `{"name": "eapm gamma sweep", "strategy": "eapm",
 "workload": {"preset": "zhang2022-case1", "grid": {"instance": [0, 1, 2, 3, 4]}},
 "variants": ["online", "greedy-min-energy"],
 "grid": {"gamma": [1.1, 1.3]},
 "replicates": 1, "seed": 1}`

const exampleYAML = `
name: eapm gamma sweep
strategy: eapm
workload:
  preset: zhang2022-case1
  grid:
    instance: [0, 1, 2, 3, 4]
variants: [online, greedy-min-energy]
grid:
  gamma: [1.1, 1.3]
replicates: 1
seed: 1
`

func mustParse(t *testing.T, src string) *sweep.Definition {
	t.Helper()
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return d
}

func TestJSONAndYAMLParseToTheSameDefinition(t *testing.T) {
	j, y := mustParse(t, exampleJSON), mustParse(t, exampleYAML)
	want := &sweep.Definition{
		Name: "eapm gamma sweep", Strategy: "eapm",
		Workload:   sweep.Workload{Preset: "zhang2022-case1", Grid: sweep.Grid{"instance": {"0", "1", "2", "3", "4"}}},
		Variants:   []string{"online", "greedy-min-energy"},
		Grid:       sweep.Grid{"gamma": {"1.1", "1.3"}},
		Replicates: 1, Seed: 1,
	}
	if !reflect.DeepEqual(j, want) {
		t.Errorf("JSON: got %+v, want %+v", j, want)
	}
	if !reflect.DeepEqual(y, want) {
		t.Errorf("YAML: got %+v, want %+v", y, want)
	}
	if err := Validate(j, eapm.New()); err != nil {
		t.Errorf("the issue's example does not validate: %v", err)
	}
}

func TestParseNumbersAsParamsHoldThem(t *testing.T) {
	for _, src := range []string{
		`{"grid": {"x": [1.10, "1.10", 1e9, 2.0, true, -3]}}`,
		"grid:\n  x: [1.10, \"1.10\", 1e9, 2.0, true, -3]\n",
	} {
		d := mustParse(t, src)
		want := []string{"1.1", "1.10", "1000000000", "2", "true", "-3"}
		if !reflect.DeepEqual(d.Grid["x"], want) {
			t.Errorf("%s: got %q, want %q", src, d.Grid["x"], want)
		}
		if d.Replicates != 1 || d.Seed != DefaultSeed {
			t.Errorf("defaults: replicates %d seed %d", d.Replicates, d.Seed)
		}
	}
	d := mustParse(t, `{"seed": "9007199254740993", "replicates": "3"}`)
	if d.Seed != 9007199254740993 || d.Replicates != 3 {
		t.Errorf("integers as strings: seed %d replicates %d", d.Seed, d.Replicates)
	}
}

func TestRangesExpandInclusive(t *testing.T) {
	d := mustParse(t, `{"workload": {"ids": {"from": 7, "to": 9}}, "grid": {"k": {"from": -1, "to": 1}}}`)
	if want := []string{"7", "8", "9"}; !reflect.DeepEqual(d.Workload.IDs, want) {
		t.Errorf("ids: got %q, want %q", d.Workload.IDs, want)
	}
	if want := []string{"-1", "0", "1"}; !reflect.DeepEqual(d.Grid["k"], want) {
		t.Errorf("grid: got %q, want %q", d.Grid["k"], want)
	}
	y := mustParse(t, "grid:\n  k: {from: 2, to: 2}\n")
	if want := []string{"2"}; !reflect.DeepEqual(y.Grid["k"], want) {
		t.Errorf("yaml: got %q", y.Grid["k"])
	}
	for src, field := range map[string]string{
		`{"grid": {"k": {"from": 3, "to": 2}}}`:          "grid.k",
		`{"grid": {"k": {"from": 0}}}`:                   "grid.k",
		`{"grid": {"k": {"from": 0, "to": 1, "by": 2}}}`: "grid.k.by",
		`{"grid": {"k": {"from": 0.5, "to": 1}}}`:        "grid.k.from",
		`{"grid": {"k": {"from": 0, "to": 1000000000}}}`: "grid.k",
	} {
		if f := fieldOf(t, src); f != field {
			t.Errorf("%s: error field %q, want %q", src, f, field)
		}
	}
}

func fieldOf(t *testing.T, src string) string {
	t.Helper()
	_, err := Parse([]byte(src))
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Invalid {
		t.Fatalf("%s: got %v, want an errs.Invalid", src, err)
	}
	return e.Field
}

func TestUnknownKeysAreErrorsNamingThem(t *testing.T) {
	for src, field := range map[string]string{
		`{"name": "x", "replicate": 2}`:                                          "replicate",
		`{"workload": {"presett": "a"}}`:                                         "workload.presett",
		`{"references": [{"name": "p", "metric": "m", "value": 1, "valeu": 1}]}`: "references[0].valeu",
		`{"references": [{"name": "p", "metric": "m"}]}`:                         "references[0].value",
		`{"grid": {"gamma": [1.1]}, "grid": {"c": [1]}}`:                         "grid",
		`{"workload": {"ids": [1], "ids": [2]}}`:                                 "workload.ids",
		"name: x\nworkload:\n  preset: a\n  grid: {}\n  seed: 3\n":               "workload.seed",
		`{"grid": {"gamma": [1.1, [2]]}}`:                                        "grid.gamma[1]",
		`{"grid": {"gamma": 1.1}}`:                                               "grid.gamma",
		`{"variants": "online"}`:                                                 "variants",
		`{"seed": 1.5}`:                                                          "seed",
	} {
		if f := fieldOf(t, src); f != field {
			t.Errorf("%s: error field %q, want %q", src, f, field)
		}
	}
	if _, err := Parse([]byte(`{"name": "x", "replicate": 2}`)); !strings.Contains(err.Error(), "replicate") {
		t.Errorf("message does not name the key: %v", err)
	}
}

func TestReferencesParse(t *testing.T) {
	d := mustParse(t, `{"references": [{"name": "paper", "metric": "objective", "variant": "online", "params": {"gamma": 1.1}, "value": "123.4"}]}`)
	want := []sweep.Reference{{Name: "paper", Metric: "objective", Variant: "online", Params: map[string]string{"gamma": "1.1"}, Value: 123.4}}
	if !reflect.DeepEqual(d.References, want) {
		t.Errorf("got %+v", d.References)
	}
}

func fields(err error) []string {
	var out []string
	for _, e := range errs.All(err) {
		var x *errs.Error
		if errors.As(e, &x) && x.Kind == errs.Invalid {
			out = append(out, x.Field)
		} else {
			out = append(out, "not invalid: "+e.Error())
		}
	}
	return out
}

func TestValidateListsAllProblems(t *testing.T) {
	d := mustParse(t, `{"name": "", "strategy": "eapm",
	  "workload": {"preset": "zhang2022-case1", "grid": {"instance": [0, 100], "bogus": [1]}},
	  "variants": ["online", "nope", "online"],
	  "grid": {"gamma": [1.1, 1.3, -1], "c": [1, "x"], "delta": [1]},
	  "replicates": 0,
	  "references": [{"name": "p", "metric": "objective", "variant": "average", "params": {"beta": 1}, "value": 1},
	    {"name": "q", "metric": "objective", "params": {"gamma": "1.10", "workload.instance": 0}, "value": 2}]}`)
	got := fields(Validate(d, eapm.New()))
	want := []string{"name", "variants[1]", "variants[2]", "grid.c[1]", "grid.delta", "grid.gamma[2]",
		"workload.grid.bogus", "workload.grid.instance[1]", "replicates",
		"references[0].variant", "references[0].params.beta", "references[1].params.gamma"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields:\n got %q\nwant %q", got, want)
	}
}

func TestValidateCapsTheRunCount(t *testing.T) {
	d := mustParse(t, `{"name": "big", "strategy": "eapm", "workload": {"preset": "zhang2022-case1",
	  "grid": {"instance": {"from": 0, "to": 99}}}, "variants": ["online", "average"], "replicates": 1000}`)
	err := Validate(d, eapm.New())
	if got := fields(err); !reflect.DeepEqual(got, []string{"definition"}) || !strings.Contains(err.Error(), "200000 runs") {
		t.Errorf("got %v", err)
	}
	if n := Count(d, eapm.New()); n != 200_000 {
		t.Errorf("Count = %d, want 200000", n)
	}
}

func TestValidateWorkloadAxis(t *testing.T) {
	for src, want := range map[string][]string{
		`{"name": "a", "strategy": "eapm", "workload": {}}`:                                        {"workload"},
		`{"name": "a", "strategy": "eapm", "workload": {"preset": "x"}}`:                           {"workload.preset"},
		`{"name": "a", "strategy": "eapm", "workload": {"ids": ["a", "b", "a"]}}`:                  {"workload.ids[2]"},
		`{"name": "a", "strategy": "eapm", "workload": {"ids": ["a"], "grid": {"instance": [1]}}}`: {"workload.grid"},
		`{"name": "a", "strategy": "gossip", "workload": {"ids": ["a"]}}`:                          {"strategy"},
	} {
		if got := fields(Validate(mustParse(t, src), eapm.New())); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}

func TestExpandMatchesCountAndSeedsAreBasePlusReplicate(t *testing.T) {
	s := eapm.New()
	for _, src := range []string{
		exampleJSON,
		`{"name": "a", "strategy": "eapm", "workload": {"ids": ["w1", "w2"]}, "grid": {"gamma": [1.2], "c": [1, 2, 3]}, "replicates": 3, "seed": 40}`,
		`{"name": "a", "strategy": "eapm", "workload": {"preset": "zhang2022-case1"}, "replicates": 4, "seed": -2}`,
	} {
		d := mustParse(t, src)
		if err := Validate(d, s); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		runs := Expand(d, s)
		if int64(len(runs)) != Count(d, s) {
			t.Errorf("%s: Expand gave %d runs, Count %d", src, len(runs), Count(d, s))
		}
		seen := map[string]bool{}
		for i, r := range runs {
			if r.Index != i || r.Seed != d.Seed+int64(r.Replicate) {
				t.Errorf("run %d: index %d seed %d replicate %d", i, r.Index, r.Seed, r.Replicate)
			}
			if d.Workload.Preset != "" && r.WorkloadSeed != r.Seed || d.Workload.Preset == "" && r.WorkloadSeed != 0 {
				t.Errorf("run %d: workload seed %d", i, r.WorkloadSeed)
			}
			k := fmt.Sprint(r.Cell, r.Variant, r.Replicate)
			if seen[k] {
				t.Errorf("run %d repeats %s", i, k)
			}
			seen[k] = true
		}
	}
	// All variants when none are named.
	d := mustParse(t, `{"name": "a", "strategy": "eapm", "workload": {"ids": ["w"]}}`)
	if n := len(Expand(d, s)); n != len(s.Variants) {
		t.Errorf("no variants named: %d runs, want %d", n, len(s.Variants))
	}
}

func TestExpandOrder(t *testing.T) {
	d := mustParse(t, `{"name": "a", "strategy": "eapm", "workload": {"preset": "zhang2022-case1", "grid": {"instance": [3, 1]}},
	  "variants": ["online", "average"], "grid": {"gamma": [1.3, 1.1], "c": [2]}, "replicates": 2, "seed": 10}`)
	runs := Expand(d, eapm.New())
	var got []string
	for _, r := range runs[:5] {
		got = append(got, fmt.Sprintf("r%d i%s g%s c%s %s s%d", r.Replicate, r.Workload.Params["instance"], r.Params["gamma"], r.Params["c"], r.Variant, r.Seed))
	}
	want := []string{
		"r0 i3 g1.3 c2 online s10", "r0 i3 g1.3 c2 average s10",
		"r0 i3 g1.1 c2 online s10", "r0 i3 g1.1 c2 average s10",
		"r0 i1 g1.3 c2 online s10",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order:\n got %q\nwant %q", got, want)
	}
	last := runs[len(runs)-1]
	wantCell := map[string]string{"gamma": "1.1", "c": "2", "workload.instance": "1"}
	if last.Replicate != 1 || last.Seed != 11 || !reflect.DeepEqual(map[string]string(last.Cell), wantCell) {
		t.Errorf("last run: %+v", last)
	}
}

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: nil, want %.7g", what, want)
		return
	}
	if math.Abs(*got-want) > 1e-6*math.Max(1, math.Abs(want)) {
		t.Errorf("%s: %.9g, want %.9g", what, *got, want)
	}
}

// TestAggregateEqualsHandComputation checks one cell by hand:
// values 1, 2, 3, 4 → mean 2.5; sample variance ((1.5²+0.5²)·2)/3 = 5/3,
// std √(5/3) = 1.29099445; se = std/√4 = 0.645497224; t(0.975, 3) =
// 3.18244631 (tables: 3.182) → half-width 2.05426026, CI [0.44573974,
// 4.55426026]; median (2+3)/2 = 2.5; min 1, max 4.
func TestAggregateEqualsHandComputation(t *testing.T) {
	var runs []RunResult
	for _, v := range []float64{3, 1, 4, 2} {
		runs = append(runs, RunResult{Params: map[string]string{"gamma": "1.1"}, Variant: "online", Status: runtypes.StatusDone,
			Metrics: map[string]float64{"objective": v}})
	}
	rows := Aggregate(runs)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.N != 4 || r.Failed != 0 || r.Metric != "objective" || r.Variant != "online" || r.Params["gamma"] != "1.1" {
		t.Errorf("row %+v", r)
	}
	near(t, "mean", r.Mean, 2.5)
	near(t, "std", r.Std, 1.29099445)
	near(t, "ci95_low", r.CI95Low, 0.44573974)
	near(t, "ci95_high", r.CI95High, 4.55426026)
	near(t, "median", r.Median, 2.5)
	near(t, "min", r.Min, 1)
	near(t, "max", r.Max, 4)
}

// TestAggregateCountsFailures: a sweep whose runs include failures.
// gamma 1.1 online: done 10, 12, 14 (mean 12, std √((4+0+4)/2) = 2,
// t(0.975, 2) = 4.30265273 → half-width 4.30265273·2/√3 = 4.96827542,
// median 12) plus failed, canceled and interrupted runs (failed 3) and a
// queued run (not counted). gamma 1.1 average: one done run, 7 (n = 1:
// mean = median = min = max = 7, no std, no CI). gamma 1.3 online: two
// failed runs, no done run (n = 0, failed 2, no statistics). Each row
// exists for both metrics, since "energy" is reported by one run; it is
// declared for average only, so online's done runs are not counted
// without it (their failed ones are: they gave nothing).
func TestAggregateCountsFailures(t *testing.T) {
	run := func(g, v, status string, x float64) RunResult {
		m := map[string]float64{"objective": x}
		if status != runtypes.StatusDone {
			m = nil
		}
		return RunResult{Params: map[string]string{"gamma": g}, Variant: v, Status: status, Metrics: m}
	}
	runs := []RunResult{
		run("1.3", "online", runtypes.StatusFailed, 0),
		run("1.1", "online", runtypes.StatusDone, 10),
		run("1.1", "online", runtypes.StatusFailed, 0),
		run("1.1", "online", runtypes.StatusDone, 14),
		run("1.1", "online", runtypes.StatusCanceled, 0),
		run("1.1", "online", runtypes.StatusInterrupted, 0),
		run("1.1", "online", runtypes.StatusQueued, 0),
		run("1.1", "average", runtypes.StatusDone, 7),
		run("1.3", "online", runtypes.StatusInterrupted, 0),
		run("1.1", "online", runtypes.StatusDone, 12),
	}
	runs[7].Metrics["energy"] = 5
	rows := AggregateWith(runs, Options{Infos: Infos([]report.Metric{{Name: "energy", Better: report.Lower, Variants: []string{"average"}}})})
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s %s %s n%d f%d", r.Params["gamma"], r.Variant, r.Metric, r.N, r.Failed))
	}
	want := []string{
		"1.1 average energy n1 f0", "1.1 average objective n1 f0",
		"1.1 online energy n0 f3", "1.1 online objective n3 f3",
		"1.3 online energy n0 f2", "1.3 online objective n0 f2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n got %q\nwant %q", got, want)
	}
	on := rows[3]
	near(t, "mean", on.Mean, 12)
	near(t, "std", on.Std, 2)
	near(t, "ci95_low", on.CI95Low, 12-4.96827542)
	near(t, "ci95_high", on.CI95High, 12+4.96827542)
	near(t, "median", on.Median, 12)
	one := rows[1]
	near(t, "n=1 mean", one.Mean, 7)
	near(t, "n=1 median", one.Median, 7)
	if one.Std != nil || one.CI95Low != nil || one.CI95High != nil {
		t.Errorf("n=1: std and CI must be absent: %+v", one)
	}
	none := rows[5]
	if none.Mean != nil || none.Median != nil || none.Min != nil || none.Std != nil {
		t.Errorf("n=0: statistics must be absent: %+v", none)
	}
}

func TestAggregateByPoolsInstances(t *testing.T) {
	// gamma 1.1: instances 0..2 give 1, 2, 6 → pooled mean 3; gamma 1.3: 5.
	var runs []RunResult
	for i, v := range []float64{1, 2, 6} {
		runs = append(runs, RunResult{Params: map[string]string{"gamma": "1.1", "workload.instance": fmt.Sprint(i)},
			Variant: "online", Status: runtypes.StatusDone, Metrics: map[string]float64{"objective": v}})
	}
	runs = append(runs, RunResult{Params: map[string]string{"gamma": "1.3", "workload.instance": "0"},
		Variant: "online", Status: runtypes.StatusDone, Metrics: map[string]float64{"objective": 5}})
	rows := AggregateBy(runs, []string{"gamma"})
	if len(rows) != 2 || rows[0].N != 3 || !reflect.DeepEqual(rows[0].Params, map[string]string{"gamma": "1.1"}) {
		t.Fatalf("rows %+v", rows)
	}
	near(t, "pooled mean", rows[0].Mean, 3)
	if all := Aggregate(runs); len(all) != 4 {
		t.Errorf("Aggregate keeps every cell: %d rows", len(all))
	}
}

func TestRowsOrderNumerically(t *testing.T) {
	var runs []RunResult
	for _, g := range []string{"10", "9", "abc", "1.5"} {
		runs = append(runs, RunResult{Params: map[string]string{"n": g}, Variant: "v", Status: runtypes.StatusDone, Metrics: map[string]float64{"m": 1}})
	}
	var got []string
	for _, r := range Aggregate(runs) {
		got = append(got, r.Params["n"])
	}
	if want := []string{"1.5", "9", "10", "abc"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func pivotRows() []Row {
	var runs []RunResult
	for _, g := range []string{"1.3", "1.1"} {
		for _, v := range []string{"online", "greedy_min"} {
			for _, x := range []float64{1, 2, 3, 4} {
				if g == "1.3" {
					x *= 10
				}
				runs = append(runs, RunResult{Params: map[string]string{"gamma": g}, Variant: v, Status: runtypes.StatusDone,
					Metrics: map[string]float64{"obj_%": x}})
			}
		}
	}
	runs = append(runs, RunResult{Params: map[string]string{"gamma": "1.1"}, Variant: "online", Status: runtypes.StatusFailed})
	return Aggregate(runs)
}

func TestPivotCSV(t *testing.T) {
	b, err := PivotCSV(pivotRows(), "obj_%", []string{"gamma"}, []string{"variant"})
	if err != nil {
		t.Fatal(err)
	}
	want := "gamma,greedy_min,online\n" +
		"1.1,2.5 ± 2.054,2.5 ± 2.054 (4 of 5 done)†\n" +
		"1.3,25 ± 20.54,25 ± 20.54\n" +
		"note: obj_%: mean ± 95 % CI half-width (Student t); n = 4–5 runs per cell (replicates); † runs failed in this cell: (d of n done); the mean is of the done runs,,\n"
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

func TestPivotLaTeXIsBooktabsAndEscaped(t *testing.T) {
	b, err := PivotLaTeX(pivotRows(), "obj_%", []string{"variant"}, []string{"gamma"})
	if err != nil {
		t.Fatal(err)
	}
	caption := `obj\_\%: mean $\pm$ 95 \% CI half-width (Student t); n = 4--5 runs per cell (replicates); $^\dagger$ runs failed in this cell: (d of n done); the mean is of the done runs`
	want := `% ` + caption + `
\begin{tabular}{lrr}
\toprule
variant & gamma=1.1 & gamma=1.3 \\
\midrule
greedy\_min & $2.5 \pm 2.054$ & $25 \pm 20.54$ \\
online & $2.5 \pm 2.054$ (4 of 5 done)$^\dagger$ & $25 \pm 20.54$ \\
\bottomrule
\multicolumn{3}{l}{\footnotesize ` + caption + `} \\
\end{tabular}
`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

func TestEscapeLaTeX(t *testing.T) {
	got := EscapeLaTeX(`a_b & 50% $x$ #1 {y} ~z ^w \n`)
	want := `a\_b \& 50\% \$x\$ \#1 \{y\} \textasciitilde{}z \textasciicircum{}w \textbackslash{}n`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestPivotRefusesTwoRowsInOneCell(t *testing.T) {
	_, err := PivotCSV(pivotRows(), "obj_%", []string{"gamma"}, nil)
	if err == nil || !strings.Contains(err.Error(), "variant varies") {
		t.Errorf("got %v", err)
	}
	if _, err := PivotCSV(pivotRows(), "obj_%", []string{"instance"}, nil); err == nil {
		t.Errorf("unknown dimension accepted")
	}
	if _, err := PivotCSV(pivotRows(), "nope", []string{"gamma"}, []string{"variant"}); err == nil {
		t.Errorf("unknown metric accepted")
	}
}

// BenchmarkAggregate100kRuns: 5 γ × 100 instances × 2 variants × 100
// replicates = 100,000 runs with 4 metrics each, 1,000 cells.
func BenchmarkAggregate100kRuns(b *testing.B) {
	runs := make([]RunResult, 0, 100_000)
	for r := range 100 {
		for i := range 100 {
			for g := range 5 {
				for _, v := range []string{"online", "average"} {
					x := float64(r*7+i*3+g) + 0.5
					st := runtypes.StatusDone
					if (r+i+g)%50 == 0 {
						st = runtypes.StatusFailed
					}
					runs = append(runs, RunResult{
						Params:  map[string]string{"gamma": fmt.Sprint(1.1 + 0.1*float64(g)), "workload.instance": fmt.Sprint(i)},
						Variant: v, Status: st,
						Metrics: map[string]float64{"objective": x, "energy": 2 * x, "profit": x / 3, "time_ms": x + 1},
					})
				}
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if rows := Aggregate(runs); len(rows) != 4000 {
			b.Fatalf("%d rows", len(rows))
		}
	}
}

func TestYAMLAliasBombAndHugeListsAreRefused(t *testing.T) {
	bomb := "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ngrid: {x: *f}\n"
	if _, err := ParseYAML([]byte(bomb)); err == nil || !strings.Contains(err.Error(), "YAML nodes") {
		t.Errorf("alias bomb: %v", err)
	}
	var b strings.Builder
	b.WriteString(`{"grid": {`)
	for i := range 3 {
		fmt.Fprintf(&b, `"p%d": {"from": 0, "to": 99998},`, i)
	}
	b.WriteString(`"z": [1]}}`)
	if _, err := ParseJSON([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "values in all") {
		t.Errorf("3 ranges of 99,999: %v", err)
	}
}

// TestNotifyURLMustBeHTTP: a definition's notify_url is kept when it is an
// http or https URL with a host, and refused on field notify_url
// otherwise; it round-trips through JSON.
func TestNotifyURLMustBeHTTP(t *testing.T) {
	const base = `{"name": "a", "strategy": "eapm", "workload": {"ids": ["w1"]}, "notify_url": %q}`
	for u, ok := range map[string]bool{
		"https://hooks.example.org/x?token=1": true,
		"http://127.0.0.1:9000/done":          true,
		"ftp://example.org/x":                 false,
		"file:///etc/passwd":                  false,
		"javascript:alert(1)":                 false,
		"http:///nohost":                      false,
		"https://user:pw@example.org/":        false,
		"/relative":                           false,
	} {
		d := mustParse(t, fmt.Sprintf(base, u))
		got := fields(Validate(d, eapm.New()))
		if ok && len(got) != 0 || !ok && !reflect.DeepEqual(got, []string{"notify_url"}) {
			t.Errorf("%s: problems on %q, want ok=%v", u, got, ok)
		}
		if ok {
			b, _ := json.Marshal(d)
			if back := mustParse(t, string(b)); back.NotifyURL != u {
				t.Errorf("%s: round trip gives %q", u, back.NotifyURL)
			}
		}
	}
}

// PivotCSV is NewPivot then CSV (the tests' shorthand).
func PivotCSV(rows []Row, metric string, rowBy, colBy []string) ([]byte, error) {
	p, err := NewPivot(rows, metric, rowBy, colBy)
	if err != nil {
		return nil, err
	}
	return p.CSV(), nil
}

// PivotLaTeX is NewPivot then LaTeX (the tests' shorthand).
func PivotLaTeX(rows []Row, metric string, rowBy, colBy []string) ([]byte, error) {
	p, err := NewPivot(rows, metric, rowBy, colBy)
	if err != nil {
		return nil, err
	}
	return p.LaTeX(), nil
}
