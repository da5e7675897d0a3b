package handlers

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"schedlab/runtypes"
	"schedlab/store"
)

// handExperiment stores, without running anything, an experiment of three
// variants on two γ × 4 replicates whose makespans (lower is better) are
// written here, one run of A failing (γ = 2, replicate 3):
//
//	γ=1 r0..r3   A 10 12 14 16   B 11 14 17 20   C 30 31 32 33
//	γ=2 r0..r3   A 20 22 38 ✗    B 25 28 31 30   C 34 35 36 38
func handExperiment(t *testing.T, a *app) string {
	t.Helper()
	ctx := t.Context()
	a.runner.Shutdown(ctx) // the runs end as written here, not by running
	wid := a.upload(t)
	vals := map[string][]float64{
		"A": {10, 12, 14, 16, 20, 22, 38, math.NaN()},
		"B": {11, 14, 17, 20, 25, 28, 31, 30},
		"C": {30, 31, 32, 33, 34, 35, 36, 38},
	}
	var runs []*runtypes.Run
	var cells []store.ExperimentCell
	var value []float64
	for _, v := range []string{"A", "B", "C"} {
		for i, x := range vals[v] {
			gamma := fmt.Sprint(1 + i/4)
			runs = append(runs, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: wid, Strategy: "eapm", Variant: v,
				Params: map[string]string{"gamma": gamma}, Seed: int64(1 + i%4)})
			cells = append(cells, store.ExperimentCell{Cell: json.RawMessage(`{"gamma":"` + gamma + `"}`), Replicate: i % 4})
			value = append(value, x)
		}
	}
	e := &store.Experiment{Name: "by hand", Strategy: "eapm",
		Definition: json.RawMessage(`{"name":"by hand","strategy":"eapm","workload":{"ids":["` + wid + `"]},"variants":["A","B","C"],"grid":{"gamma":["1","2"]},"replicates":4}`)}
	if err := a.store.CreateExperiment(ctx, e, runs, cells); err != nil {
		t.Fatal(err)
	}
	for range runs {
		if _, err := a.store.ClaimNext(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range runs {
		if math.IsNaN(value[i]) {
			if err := a.store.Finish(ctx, r.ID, runtypes.StatusFailed, nil, "out of memory at job 17", ""); err != nil {
				t.Fatal(err)
			}
			continue
		}
		rep := fmt.Sprintf(`{"metrics":[{"name":"makespan","value":%g,"better":"lower"}],"tables":[],"series":[],"gantts":[],"graphs":[]}`, value[i])
		if err := a.store.Finish(ctx, r.ID, runtypes.StatusDone, json.RawMessage(rep), "", ""); err != nil {
			t.Fatal(err)
		}
	}
	return e.ID
}

// TestExperimentPageShowsFailuresAndTheTestsByHand: the failed run of A
// shows in the plot (a marked point), the box plot's legend, the pivot
// (3 of 4 done, marked), the paired view (counted, listed, not dropped)
// and the run list (first, with its error, linked, filterable); and the
// paired and pairwise statistics are the ones worked by hand:
//
// A − B on the 7 instances both done: −1 −2 −3 −4 −5 −6 +7; mean −2;
// V = 7 (the rank of +7); 19 of the 128 rank subsets of 1..7 sum to ≤ 7
// (sums 0..7: 1 1 1 2 2 3 4 5), so p = 2·19/128 = 0.296875 (exact). A
// better (lower) in 6, worse in 1.
// A − C: −20 −19 −18 −17 −14 −13 +2: V = 1, p = 2·2/128 = 0.03125.
// B − C on 8 instances, all negative: V = 0, p = 2/256 = 0.0078125.
// Holm over (0.296875, 0.03125, 0.0078125): 3 × 0.0078125 = 0.0234375,
// 2 × 0.03125 = 0.0625, 1 × 0.296875.
func TestExperimentPageShowsFailuresAndTheTestsByHand(t *testing.T) {
	a := newApp(t, "", 0)
	id := handExperiment(t, a)
	status, page := a.do(t, http.MethodGet, "/experiments/"+id+"?metric=makespan", "", nil)
	if status != http.StatusOK {
		t.Fatalf("page: %d %s", status, page)
	}
	doc := parseHTML(t, page)
	text := func(sel string) string { return strings.Join(strings.Fields(doc.Find(sel).Text()), " ") }

	// What differs between the runs comes first: the variants, γ and the
	// replicates' seeds; the workload is the same in every run.
	var differs []string
	doc.Find(`[data-testid=experiment-differs] tr.differs`).Each(func(_ int, s *goquery.Selection) {
		differs = append(differs, s.AttrOr("data-field", ""))
	})
	if want := []string{"variant", "gamma", "seed (replicate)"}; !slices.Equal(differs, want) {
		t.Errorf("what differs: %v, want %v", differs, want)
	}
	if got := text(`[data-testid=experiment-equal] dt`); got != "workload" {
		t.Errorf("the same in every run: %q, want the workload", got)
	}

	// The plot: x is γ (the only swept parameter), A's point at γ = 2 marked.
	if doc.Find(`[data-kind=plot][data-title="makespan vs gamma"]`).Length() != 1 {
		t.Error("no plot of the makespan against γ")
	}
	charts := a.chartsOf(t, page)
	if !strings.Contains(charts, "1 of 4 runs failed") {
		t.Error("the plot does not mark A's point at γ = 2")
	}
	if got := text(`[data-testid=plot-failed]`); !strings.Contains(got, "A at gamma=2: 3 of 4 done") {
		t.Errorf("plot failures %q", got)
	}
	if got := text(`[data-testid=plot-caption]`); !strings.Contains(got, "n = 4 runs per point") || !strings.Contains(got, "Student t") {
		t.Errorf("plot caption %q", got)
	}
	if !strings.Contains(charts, "A (1 of 8 runs failed)") {
		t.Error("the box plot's legend does not count A's failed run")
	}
	// The pivot.
	failedCells := doc.Find(`[data-testid=pivot-table] td.failed`)
	if failedCells.Length() != 1 || !strings.Contains(failedCells.Text(), "(3 of 4 done)†") || failedCells.AttrOr("data-failed", "") != "1" {
		t.Errorf("pivot failed cells: %d %q", failedCells.Length(), failedCells.Text())
	}
	if got := text(`[data-testid=pivot-caption]`); !strings.Contains(got, "Student t") || !strings.Contains(got, "† runs failed") {
		t.Errorf("pivot caption %q", got)
	}
	// The paired view, A against B.
	want := map[string]string{"paired-instances": "8", "paired-both": "7", "paired-a-failed": "1", "paired-b-failed": "0",
		"paired-diff": "-2 [", "paired-wilcoxon": "V = 7, p = 0.2969", "paired-wtl": "6 / 0 / 1"}
	for k, v := range want {
		if got := text(`[data-testid=` + k + `]`); !strings.HasPrefix(got, v) {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if got := text(`[data-testid=paired-failed]`); !strings.Contains(got, "gamma=2: A failed, B done") {
		t.Errorf("paired failures %q", got)
	}
	if got := text(`[data-testid=paired-method]`); !strings.Contains(got, "Wilcoxon signed-rank, two-sided, exact") || !strings.Contains(got, "Student t") {
		t.Errorf("paired method %q", got)
	}
	// Every pair, Holm-adjusted.
	pairs := map[string][3]string{"A B": {"0.2969", "0.2969", "1, 0, 0"}, "A C": {"0.03125", "0.0625", "1, 0, 0"}, "B C": {"0.007812", "0.02344", "0, 0, 0"}}
	rows := doc.Find(`[data-testid=pairwise-row]`)
	if rows.Length() != 3 {
		t.Fatalf("%d pairwise rows, want 3", rows.Length())
	}
	for i := range rows.Length() {
		r := rows.Eq(i)
		k := r.AttrOr("data-a", "") + " " + r.AttrOr("data-b", "")
		w := pairs[k]
		got := [3]string{strings.TrimSpace(r.Find(`[data-testid=pairwise-p]`).Text()), strings.TrimSpace(r.Find(`[data-testid=pairwise-holm]`).Text()),
			strings.Join(strings.Fields(r.Find(`[data-testid=pairwise-failed]`).Text()), " ")}
		if got != w {
			t.Errorf("pair %s: p, Holm p, failed %q, want %q", k, got, w)
		}
	}
	if got := text(`[data-testid=pairwise-caption]`); !strings.Contains(got, "Holm") {
		t.Errorf("pairwise caption %q", got)
	}
	if doc.Find(`[data-testid=experiment-profile] [data-kind=plot]`).Length() != 1 {
		t.Error("no performance profile")
	}
	// The run list: the failed run first, with its error, linked.
	first := doc.Find(`[data-testid=run-row]`).First()
	if first.AttrOr("data-status", "") != "failed" || !strings.Contains(first.Find(`[data-testid=run-error]`).Text(), "out of memory at job 17") {
		t.Errorf("first run listed: %q", first.Text())
	}
	if href := first.Find("a").AttrOr("href", ""); !strings.HasPrefix(href, "/runs/") {
		t.Errorf("the failed run is not linked: %q", href)
	}
	if n := doc.Find(`[data-testid=run-row]`).Length(); n != 24 {
		t.Errorf("%d runs listed, want 24", n)
	}
	_, page = a.do(t, http.MethodGet, "/experiments/"+id+"?status=done&variant=A", "", nil)
	if n := parseHTML(t, page).Find(`[data-testid=run-row][data-status=done]`).Length(); n != 7 {
		t.Errorf("filtered to A's done runs: %d, want 7", n)
	}
	// The downloads say the same.
	_, csv := a.do(t, http.MethodGet, "/api/experiments/"+id+"/pivot.csv?metric=makespan&rows=gamma&cols=variant", "", nil)
	if !strings.Contains(string(csv), "(3 of 4 done)†") || !strings.Contains(string(csv), "Student t") {
		t.Errorf("pivot CSV:\n%s", csv)
	}
	_, tex := a.do(t, http.MethodGet, "/api/experiments/"+id+"/pivot.tex?metric=makespan&rows=gamma&cols=variant", "", nil)
	if !strings.Contains(string(tex), `(3 of 4 done)$^\dagger$`) || !strings.Contains(string(tex), "Student t") {
		t.Errorf("pivot LaTeX:\n%s", tex)
	}
}
