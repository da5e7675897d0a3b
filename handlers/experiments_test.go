package handlers

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"schedlab/experiments"
	"schedlab/solvers"
	"schedlab/solvers/eapm"
)

// TestExperimentAPIRunsASweepAndAggregatesIt posts a sweep as YAML, waits
// for its runs, and checks the results rows against the runs' own reports
// (mean and sample std by hand), then that a bad definition stores nothing.
func TestExperimentAPIRunsASweepAndAggregatesIt(t *testing.T) {
	a := newApp(t, "", 0)
	def := `name: gamma sweep
strategy: eapm
workload:
  preset: zhang2022-case1
  grid:
    instance: [0, 1, 2]
variants: [online, greedy-min-energy]
grid:
  gamma: [1.1, 1.3]
`
	status, b := a.do(t, http.MethodPost, "/api/experiments", "application/yaml", strings.NewReader(def))
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, b)
	}
	var e apiExperiment
	json.Unmarshal(b, &e)
	if e.RunsTotal != 3*2*2 {
		t.Fatalf("runs_total %d, want 12", e.RunsTotal)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, b = a.do(t, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
		json.Unmarshal(b, &e)
		if e.Status == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("experiment still %s: %s", e.Status, b)
		}
	}
	if e.RunsDone != 12 || e.RunsFailed != 0 {
		t.Fatalf("done %d failed %d", e.RunsDone, e.RunsFailed)
	}
	// Pooled over instances: one row per γ and variant for each metric.
	_, b = a.do(t, http.MethodGet, "/api/experiments/"+e.ID+"/results?keep=gamma", "", nil)
	var res struct{ Rows []experiments.Row }
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	// The objective of each run, by hand, from its report; and by cell.
	byHand := map[string][]float64{}
	byCell := map[string]map[string]float64{}
	runs, err := a.store.ExperimentRuns(t.Context(), e.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		_, rep := a.do(t, http.MethodGet, "/api/runs/"+r.RunID+"/report", "", nil)
		var report struct {
			Metrics []struct {
				Name  string
				Value float64
			}
		}
		json.Unmarshal(rep, &report)
		for _, m := range report.Metrics {
			if m.Name == "objective" {
				byHand[r.Params["gamma"]+" "+r.Variant] = append(byHand[r.Params["gamma"]+" "+r.Variant], m.Value)
				if byCell[string(r.Cell)] == nil {
					byCell[string(r.Cell)] = map[string]float64{}
				}
				byCell[string(r.Cell)][r.Variant] = m.Value
			}
		}
	}
	checked := 0
	for _, row := range res.Rows {
		if row.Metric != "objective" {
			continue
		}
		vs := byHand[row.Params["gamma"]+" "+row.Variant]
		if len(vs) != 3 || row.N != 3 || row.Mean == nil || row.Std == nil {
			t.Fatalf("row %+v against %v", row, vs)
		}
		mean := (vs[0] + vs[1] + vs[2]) / 3
		ss := 0.0
		for _, v := range vs {
			ss += (v - mean) * (v - mean)
		}
		std := math.Sqrt(ss / 2)
		if math.Abs(*row.Mean-mean) > 1e-9*math.Abs(mean) || math.Abs(*row.Std-std) > 1e-9*math.Max(std, 1) {
			t.Errorf("γ %s %s: mean %v std %v, by hand %v %v", row.Params["gamma"], row.Variant, *row.Mean, *row.Std, mean, std)
		}
		checked++
	}
	if checked != 4 {
		t.Errorf("%d objective rows, want 2 γ × 2 variants", checked)
	}

	// The page: the objective against γ, a line per variant and its CI,
	// the rows; and the pivot downloads.
	status, page := a.do(t, http.MethodGet, "/experiments/"+e.ID+"?metric=objective&x=gamma&pool=workload.instance", "", nil)
	if status != http.StatusOK {
		t.Fatalf("experiment page: %d", status)
	}
	doc := parseHTML(t, page)
	if doc.Find(`[data-kind=plot][data-title="objective vs gamma"]`).Length() != 1 {
		t.Error("no plot of the objective against γ")
	}
	if got := doc.Find(`[data-testid=plot-caption]`).Text(); !strings.Contains(got, "pooled over workload.instance: 3 values; n = 3 runs per point") ||
		!strings.Contains(got, "Student t") {
		t.Errorf("the plot does not say what it pools and how: %q", got)
	}
	if doc.Find(`[data-kind=plot][data-title="objective by gamma (box plot)"]`).Length() != 1 {
		t.Error("no box plot of the objective by γ")
	}
	if doc.Find(`[data-kind=parallel]`).Length() != 1 {
		t.Error("no parallel coordinates though γ and the instance are both swept")
	}
	if n := doc.Find(`[data-testid=pivot-table] tbody tr`).Length(); n != 2 {
		t.Errorf("%d pivot rows on the page, want 2 γ (instances pooled)", n)
	}
	// Pairs of runs, online against greedy-min-energy, counted by hand.
	onlineHigher := 0
	for _, v := range byCell {
		if v["online"] > v["greedy-min-energy"] {
			onlineHigher++
		}
	}
	paired := doc.Find(`[data-testid=experiment-paired]`)
	if got := strings.TrimSpace(paired.Find(`[data-testid=paired-both]`).Text()); got != "6" {
		t.Errorf("paired view: %q pairs both done, want 6", got)
	}
	if got := strings.TrimSpace(paired.Find(`[data-testid=paired-wtl]`).Text()); !strings.HasPrefix(got, strconv.Itoa(onlineHigher)+" /") {
		t.Errorf("win/tie/loss %q, want online better (higher) in %d", got, onlineHigher)
	}
	if paired.Find(`[data-kind=plot][data-title="objective: greedy-min-energy against online (6 pairs both done)"]`).Length() != 1 {
		t.Error("no A-against-B scatter")
	}
	_, csv := a.do(t, http.MethodGet, "/api/experiments/"+e.ID+"/pivot.csv?metric=objective&rows=gamma&cols=variant", "", nil)
	if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); len(lines) != 4 || !strings.Contains(lines[0], "online") ||
		!strings.Contains(lines[3], "pooled over workload.instance: 3 values") {
		t.Errorf("pivot CSV:\n%s", csv)
	}
	_, tex := a.do(t, http.MethodGet, "/api/experiments/"+e.ID+"/pivot.tex?metric=objective&rows=gamma&cols=variant", "", nil)
	if !strings.Contains(string(tex), "\\toprule") || !strings.Contains(string(tex), "\\pm") || !strings.Contains(string(tex), "Student t") {
		t.Errorf("pivot LaTeX:\n%s", tex)
	}

	// The list shows it, done, with its counts.
	_, list := a.do(t, http.MethodGet, "/experiments", "", nil)
	row := parseHTML(t, list).Find(`[data-testid=experiments-table] tbody tr`)
	if row.Length() != 1 || !strings.Contains(row.Text(), "gamma sweep") || !strings.Contains(row.Text(), "done") || !strings.Contains(row.Text(), "12") {
		t.Errorf("experiments list: %q", row.Text())
	}

	// A definition with a bad value stores nothing, workloads included.
	runsBefore, workloadsBefore := a.countRuns(t), a.countWorkloads(t)
	status, b = a.postJSON(t, "/api/experiments", `{"strategy":"eapm","workload":{"preset":"zhang2022-case1","grid":{"instance":[0]}},"grid":{"gamma":[1.1,"x"]}}`)
	if status != http.StatusBadRequest || !strings.Contains(string(b), "gamma") {
		t.Errorf("bad gamma: %d %s", status, b)
	}
	if a.countRuns(t) != runsBefore || a.countWorkloads(t) != workloadsBefore {
		t.Error("a refused experiment stored runs or workloads")
	}
}

// TestExperimentFinishesAfterARestart kills the server with an experiment
// half way (two of its runs running, the rest queued) and starts it again:
// the experiment finishes by itself with every run done once, the
// interrupted ones started again under their own ids.
func TestExperimentFinishesAfterARestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "restart.db")
	a := newApp(t, db, 0)
	ctx := context.Background()
	a.runner.Shutdown(ctx) // nothing runs until the restart
	status, b := a.postJSON(t, "/api/experiments", `{"name":"restart","strategy":"eapm","workload":{"preset":"zhang2022-case1","grid":{"instance":{"from":0,"to":2}}},"variants":["online","average"]}`)
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, b)
	}
	var e apiExperiment
	json.Unmarshal(b, &e)
	a.Close()
	// The crash: two runs were running when the process died.
	for i := 0; i < 2; i++ {
		if r, err := a.store.ClaimNext(ctx); err != nil || r == nil {
			t.Fatalf("claim: %v %v", r, err)
		}
	}
	before, err := a.store.ExperimentRuns(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	a.store.Close()

	b2 := newApp(t, db, 0)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, body := b2.do(t, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
		json.Unmarshal(body, &e)
		if e.Status == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart the experiment is still %s: %s", e.Status, body)
		}
	}
	after, err := b2.store.ExperimentRuns(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) || len(after) != 6 {
		t.Fatalf("%d runs before, %d after, want 6", len(before), len(after))
	}
	for i, r := range after {
		if r.RunID != before[i].RunID || r.Status != "done" {
			t.Errorf("run %d: %s %s, was %s", i, r.RunID, r.Status, before[i].RunID)
		}
	}
	if n := b2.countRuns(t); n != 6 {
		t.Errorf("%d runs stored, want the experiment's 6 (no copies)", n)
	}
}

// TestNewExperimentFormCountsThenStarts starts from a run ("sweep this
// run's parameters"), widens γ to three values, counts the runs, then
// starts the experiment; a broken definition lists every problem and
// stores nothing.
func TestNewExperimentFormCountsThenStarts(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	run := a.startRun(t, `{"workload_id":"`+id+`","variant":"online","params":{"gamma":1.2}}`)
	status, page := a.do(t, http.MethodGet, "/experiments/new?run="+run.ID, "", nil)
	if status != http.StatusOK {
		t.Fatalf("new experiment: %d", status)
	}
	text := parseHTML(t, page).Find("textarea[name=definition]").Text()
	var def map[string]any
	if err := json.Unmarshal([]byte(text), &def); err != nil || def["strategy"] != "eapm" {
		t.Fatalf("starter definition %q: %v", text, err)
	}
	grid := def["grid"].(map[string]any)
	if g := grid["gamma"].([]any); len(g) != 1 || g[0] != 1.2 {
		t.Errorf("the run's gamma is not the starter grid as a number: %#v", grid["gamma"])
	}
	// Only the run's own values: no empty one, none of a parameter that
	// does not apply to its variant.
	specs := eapm.New().Params
	for k, vs := range grid {
		i := slices.IndexFunc(specs, func(ps solvers.ParamSpec) bool { return ps.Name == k })
		if i < 0 || !specs[i].AppliesTo("online") {
			t.Errorf("starter grid has %s, which does not apply to online", k)
		}
		for _, v := range vs.([]any) {
			if v == "" {
				t.Errorf("starter grid has %s: %#v, an empty value", k, vs)
			}
			if s, ok := v.(string); ok {
				if _, err := strconv.ParseFloat(s, 64); err == nil {
					t.Errorf("starter grid has %s: %#v, a number as text", k, vs)
				}
			}
		}
	}
	grid["gamma"] = []string{"1.1", "1.2", "1.3"}
	def["name"] = "widened"
	b, _ := json.Marshal(def)
	post := func(action, definition string) (int, []byte, string) {
		form := url.Values{"definition": {definition}, "action": {action}}
		resp := noRedirect(t, http.MethodPost, a.URL+"/experiments", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body, resp.Header.Get("Location")
	}
	runsBefore := a.countRuns(t)
	status, body, _ := post("count", string(b))
	if status != http.StatusOK || strings.TrimSpace(parseHTML(t, body).Find("[data-testid=experiment-count] strong").Text()) != "3" {
		t.Errorf("count: %d %s", status, parseHTML(t, body).Find("[data-testid=experiment-count]").Text())
	}
	if a.countRuns(t) != runsBefore {
		t.Error("counting stored runs")
	}
	status, body, loc := post("start", string(b))
	if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/experiments/") {
		t.Fatalf("start: %d %s %.300s", status, loc, body)
	}
	if n := a.countRuns(t); n != runsBefore+3 {
		t.Errorf("%d runs after starting, want %d", n, runsBefore+3)
	}
	status, body, _ = post("start", `{"name":"bad","strategy":"eapm","workload":{"ids":["`+id+`"]},"variants":["nosuch"],"grid":{"gamma":["x"]}}`)
	items := parseHTML(t, body).Find("[data-testid=form-error] li")
	if status != http.StatusBadRequest || items.Length() < 2 {
		t.Errorf("a broken definition: %d, %d problems listed: %s", status, items.Length(), items.Text())
	}
	if n := a.countRuns(t); n != runsBefore+3 {
		t.Error("a broken definition stored runs")
	}
}

// TestReproduceOffersTheSeedSweepsAsExperiments follows /reproduce's link
// to EAPM's Table 1 as an experiment: the form holds its definition with
// the printed numbers as references, and counts its 4,000 runs.
func TestReproduceOffersTheSeedSweepsAsExperiments(t *testing.T) {
	a := newFakeApp(t, 0)
	_, page := a.do(t, http.MethodGet, "/reproduce", "", nil)
	link, ok := parseHTML(t, page).Find(`[data-testid=repro-sweeps-eapm] a`).First().Attr("href")
	if !ok || !strings.Contains(link, "seed=eapm/table1") {
		t.Fatalf("no link to EAPM's Table 1 as an experiment: %q", link)
	}
	_, page = a.do(t, http.MethodGet, link, "", nil)
	text := parseHTML(t, page).Find("textarea[name=definition]").Text()
	if !strings.Contains(text, `"EAPM Table 1"`) || !strings.Contains(text, `"references"`) {
		t.Fatalf("the form does not hold Table 1's definition:\n%.500s", text)
	}
	form := url.Values{"definition": {text}, "action": {"count"}}
	resp := noRedirect(t, http.MethodPost, a.URL+"/experiments", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if got := strings.TrimSpace(parseHTML(t, body).Find("[data-testid=experiment-count] strong").Text()); got != "4000" {
		t.Errorf("Table 1 counts %q runs, want 100 instances × 10 γ × 4 methods", got)
	}
}

// TestCancelAndResumeAnExperimentFromItsPage cancels a sweep from its page
// as soon as it starts, then resumes it: it finishes with every run done
// once, under the same ids, and the page offers the action that fits the
// status (cancel while running, resume once canceled).
func TestCancelAndResumeAnExperimentFromItsPage(t *testing.T) {
	a := newApp(t, "", 0)
	status, b := a.postJSON(t, "/api/experiments", `{"name":"stop and go","strategy":"eapm","workload":{"preset":"zhang2022-case1","grid":{"instance":{"from":0,"to":99}}},"variants":["online","average"]}`)
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, b)
	}
	var e apiExperiment
	json.Unmarshal(b, &e)
	post := func(action string) int {
		resp := noRedirect(t, http.MethodPost, a.URL+"/experiments/"+e.ID+"/"+action, "application/x-www-form-urlencoded", strings.NewReader(""))
		resp.Body.Close()
		return resp.StatusCode
	}
	button := func(testid string) bool {
		_, page := a.do(t, http.MethodGet, "/experiments/"+e.ID, "", nil)
		return parseHTML(t, page).Find("[data-testid="+testid+"]").Length() == 1
	}
	if !button("cancel-experiment") || button("resume-experiment") {
		t.Error("a running experiment's page does not offer cancel (and only cancel)")
	}
	if got := post("cancel"); got != http.StatusSeeOther {
		t.Fatalf("cancel: %d", got)
	}
	before, err := a.store.ExperimentRuns(t.Context(), e.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, b = a.do(t, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
	json.Unmarshal(b, &e)
	if e.Status != "canceled" || e.RunsDone == e.RunsTotal {
		t.Fatalf("after cancel: %s", b)
	}
	if !button("resume-experiment") || button("cancel-experiment") {
		t.Error("a canceled experiment's page does not offer resume (and only resume)")
	}
	// A run being stopped makes resume wait (409) until the runner let it go.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got := post("resume")
		if got == http.StatusSeeOther {
			break
		}
		if got != http.StatusConflict || time.Now().After(deadline) {
			t.Fatalf("resume: %d", got)
		}
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, b = a.do(t, http.MethodGet, "/api/experiments/"+e.ID, "", nil)
		json.Unmarshal(b, &e)
		if e.Status == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after resume the experiment is still %s: %s", e.Status, b)
		}
	}
	if e.RunsDone != 200 || e.RunsFailed != 0 || a.countRuns(t) != 200 {
		t.Errorf("after resume: %d done, %d failed, %d runs stored; want the same 200 runs done", e.RunsDone, e.RunsFailed, a.countRuns(t))
	}
	after, _ := a.store.ExperimentRuns(t.Context(), e.ID)
	for i := range after {
		if after[i].RunID != before[i].RunID {
			t.Errorf("run %d is %s, was %s", i, after[i].RunID, before[i].RunID)
		}
	}
	status, b = a.do(t, http.MethodPost, "/api/experiments/"+e.ID+"/resume", "application/json", nil)
	if status != http.StatusConflict || !strings.Contains(string(b), "not canceled") {
		t.Errorf("resuming a done experiment: %d %s", status, b)
	}
}

// TestComparePageOffersASweepOfTheComparedRuns follows "Sweep these runs'
// parameters" from the compare page of two runs that differ in variant
// and γ: the form's definition spans both, and counts 2 × 2 runs.
func TestComparePageOffersASweepOfTheComparedRuns(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	r1 := a.startRun(t, `{"workload_id":"`+id+`","variant":"online","params":{"gamma":1.2}}`)
	r2 := a.startRun(t, `{"workload_id":"`+id+`","variant":"average","params":{"gamma":1.4}}`)
	_, page := a.do(t, http.MethodGet, "/compare?runs="+r1.ID+","+r2.ID, "", nil)
	link, ok := parseHTML(t, page).Find("[data-testid=sweep-compared]").Attr("href")
	if !ok {
		t.Fatalf("no sweep link on the compare page")
	}
	_, page = a.do(t, http.MethodGet, link, "", nil)
	text := parseHTML(t, page).Find("textarea[name=definition]").Text()
	var def struct {
		Strategy string
		Workload struct{ IDs []string }
		Variants []string
		Grid     map[string][]float64 // numbers typed as numbers
	}
	if err := json.Unmarshal([]byte(text), &def); err != nil {
		t.Fatalf("starter %q: %v", text, err)
	}
	if g := def.Grid["gamma"]; def.Strategy != "eapm" || len(def.Workload.IDs) != 1 || strings.Join(def.Variants, ",") != "online,average" ||
		len(g) != 2 || g[0] != 1.2 || g[1] != 1.4 {
		t.Errorf("starter definition %+v", def)
	}
	if v, _ := parseHTML(t, page).Find(`input[name="grid.gamma"]`).Attr("value"); v != "1.2, 1.4" {
		t.Errorf("the γ field holds %q, want the runs' values 1.2, 1.4", v)
	}
	form := url.Values{"definition": {text}, "action": {"count"}}
	resp := noRedirect(t, http.MethodPost, a.URL+"/experiments", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got := strings.TrimSpace(parseHTML(t, body).Find("[data-testid=experiment-count] strong").Text()); got != "4" {
		t.Errorf("the sweep counts %q runs, want 2 variants × 2 γ", got)
	}
	status, _ := a.do(t, http.MethodGet, "/experiments/new?runs="+r1.ID+",nosuchrun", "", nil)
	if status != http.StatusNotFound {
		t.Errorf("a sweep of an unknown run: %d", status)
	}
}
