package store

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/runtypes"
)

// labelled is a run of the filter fixture with what the filters read.
type labelled struct {
	run     runtypes.Run
	tags    []string
	metrics map[string]float64
}

// filterFixture stores 48 runs over two strategies, three variants, four
// workloads, two parameters, three tags and two metrics whose values tie
// often (and include 0.1+0.2, which a cursor must carry exactly).
func filterFixture(t *testing.T, s *Store) []labelled {
	t.Helper()
	ctx := context.Background()
	ws := []*runtypes.Workload{addWorkload(t, s, "eapm"), addWorkload(t, s, "eapm"), addWorkload(t, s, "dcop"), addWorkload(t, s, "dcop")}
	values := []float64{-1, 0, 0.1 + 0.2, 2, 2, 7.5}
	var out []labelled
	for i := range 48 {
		w := ws[i%4]
		variant := []string{"online", "greedy", "dpop"}[i%3]
		r, err := s.CreateRun(ctx, &runtypes.Run{Kind: runtypes.KindRun, WorkloadID: w.ID, Strategy: w.Strategy, Variant: variant,
			Params: map[string]string{"gamma": []string{"1.1", "1.3"}[i%2], "n": []string{"10", "20", "30"}[i/16]}})
		if err != nil {
			t.Fatal(err)
		}
		l := labelled{metrics: map[string]float64{}}
		switch i % 4 {
		case 1:
			l.tags = []string{"paper"}
		case 2:
			l.tags = []string{"baseline", "paper"}
		case 3:
			l.tags = []string{"x:y/z.1"}
		}
		if err := s.SetRunLabels(ctx, r.ID, fmt.Sprintf("run %d", i), l.tags, "notes of "+r.ID); err != nil {
			t.Fatal(err)
		}
		if i%7 != 0 { // some runs report no metrics (not done)
			l.metrics["energy"] = values[i%len(values)]
			if i%2 == 0 {
				l.metrics["time"] = float64(i % 3)
			}
			for name, v := range l.metrics {
				if _, err := s.db.Exec("INSERT INTO run_metrics (run_id, name, value) VALUES (?, ?, ?)", r.ID, name, v); err != nil {
					t.Fatal(err)
				}
			}
		}
		l.run = *r
		out = append(out, l)
	}
	return out
}

// want is the brute-force answer to f over the fixture: every run that
// matches, in f's order (newest first from the unfiltered list).
func want(all []runtypes.Run, fx map[string]labelled, f RunFilter) []runtypes.Run {
	var out []runtypes.Run
	for _, r := range all {
		l := fx[r.ID]
		v, has := l.metrics[f.Metric]
		ok := (f.Strategy == "" || r.Strategy == f.Strategy) && (f.Variant == "" || r.Variant == f.Variant) &&
			(f.WorkloadID == "" || r.WorkloadID == f.WorkloadID) && (f.Tag == "" || slices.Contains(l.tags, f.Tag)) &&
			(f.Metric == "" || has) && (f.MetricMin == nil || v >= *f.MetricMin) && (f.MetricMax == nil || v <= *f.MetricMax)
		for k, pv := range f.Params {
			ok = ok && r.Params[k] == pv
		}
		if ok {
			out = append(out, r)
		}
	}
	if f.Sort == SortMetricAsc || f.Sort == SortMetricDesc {
		slices.SortFunc(out, func(a, b runtypes.Run) int {
			c := cmp.Or(cmp.Compare(fx[a.ID].metrics[f.Metric], fx[b.ID].metrics[f.Metric]), strings.Compare(a.ID, b.ID))
			if f.Sort == SortMetricDesc {
				return -c
			}
			return c
		})
	}
	return out
}

// TestRunFiltersAndMetricSortsPageLikeBruteForce walks every filter and
// order page by page, in pages of 1, 3, 7 and 100, and checks the walk
// against a brute-force selection of the fixture: each run once, in
// order, however the pages cut through runs of equal metric values.
func TestRunFiltersAndMetricSortsPageLikeBruteForce(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	fixture := filterFixture(t, s)
	fx := map[string]labelled{}
	for _, l := range fixture {
		fx[l.run.ID] = l
	}
	all, err := s.ListRuns(ctx, RunFilter{})
	if err != nil || len(all) != len(fixture) {
		t.Fatalf("%d runs, %v", len(all), err)
	}
	zero, two, three := 0.0, 2.0, 0.1+0.2
	w0 := fixture[0].run.WorkloadID
	filters := []RunFilter{
		{Strategy: "eapm"}, {Variant: "greedy"}, {WorkloadID: w0}, {Tag: "paper"}, {Tag: "x:y/z.1"}, {Tag: "none"},
		{Params: map[string]string{"gamma": "1.3"}}, {Params: map[string]string{"gamma": "1.1", "n": "20"}},
		{Params: map[string]string{"gamma": "1.30"}}, {Params: map[string]string{"missing": "1"}},
		{Metric: "energy"}, {Metric: "time"}, {Metric: "energy", MetricMin: &zero}, {Metric: "energy", MetricMax: &three},
		{Metric: "energy", MetricMin: &three, MetricMax: &two}, {Metric: "energy", MetricMin: &two, MetricMax: &two},
		{Strategy: "dcop", Variant: "dpop", Tag: "paper"},
	}
	for _, f := range slices.Clone(filters) {
		for _, sort := range []string{SortMetricAsc, SortMetricDesc} {
			g := f
			g.Sort = sort
			if g.Metric == "" {
				g.Metric = "energy"
			}
			filters = append(filters, g)
		}
	}
	filters = append(filters, RunFilter{Sort: SortNewest, Tag: "baseline"})
	for _, f := range filters {
		wantIDs := ids(want(all, fx, f))
		for _, size := range []int{1, 3, 7, 100} {
			pf := f
			pf.Limit = size
			var walked []runtypes.Run
			for pages := 0; ; pages++ {
				if pages > len(all)+1 {
					t.Fatalf("%+v: more pages than runs", pf)
				}
				page, next, err := s.ListRunsPage(ctx, pf)
				if err != nil {
					t.Fatalf("%+v: %v", pf, err)
				}
				if len(page) > size || (next != "" && len(page) != size) {
					t.Fatalf("%+v: a page of %d with next %q", pf, len(page), next)
				}
				walked = append(walked, page...)
				if next == "" {
					break
				}
				pf.Cursor = next
			}
			if got := ids(walked); got != wantIDs {
				t.Errorf("%+v in pages of %d:\n got %s\nwant %s", f, size, got, wantIDs)
			}
		}
	}
	// The fixture's sorts really cross ties: energy takes 5 values over 41 runs.
	if n := len(want(all, fx, RunFilter{Metric: "energy", MetricMin: &two, MetricMax: &two})); n < 10 {
		t.Fatalf("only %d runs tie at energy 2: the fixture does not test ties", n)
	}
}

func TestRunFiltersRefuseWhatTheyCannotApply(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	filterFixture(t, s)
	one, two := 1.0, 2.0
	_, newestCur, _ := s.ListRunsPage(ctx, RunFilter{Limit: 2})
	_, ascCur, _ := s.ListRunsPage(ctx, RunFilter{Metric: "energy", Sort: SortMetricAsc, Limit: 2})
	for _, c := range []struct {
		f     RunFilter
		field string
	}{
		{RunFilter{Sort: "oldest"}, "sort"},
		{RunFilter{Sort: SortMetricAsc}, "metric"},
		{RunFilter{MetricMin: &one}, "metric"},
		{RunFilter{Metric: "energy", MetricMin: &two, MetricMax: &one}, "min"},
		{RunFilter{Params: map[string]string{`a"b`: "1"}}, "param"},
		{RunFilter{Metric: "energy", Sort: SortMetricAsc, Cursor: newestCur}, "cursor"},
		{RunFilter{Metric: "energy", Sort: SortMetricDesc, Cursor: ascCur}, "cursor"},
		{RunFilter{Cursor: ascCur}, "cursor"},
	} {
		_, _, err := s.ListRunsPage(ctx, c.f)
		if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v, want Invalid on %s", c.f, err, c.field)
		}
	}
}

func TestRunLabelsAreStoredCheckedAndListedWithoutNotes(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := addRun(t, s, addWorkload(t, s, "eapm"))
	if err := s.SetRunLabels(ctx, r.ID, "γ = 1.3 baseline", []string{" paper ", "b", "paper", ""}, "# Notes\n*done*"); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "γ = 1.3 baseline" || strings.Join(got.Tags, ",") != "b,paper" || got.Notes != "# Notes\n*done*" {
		t.Errorf("GetRun: name %q tags %q notes %q", got.Name, got.Tags, got.Notes)
	}
	info, _ := s.GetRunInfo(ctx, r.ID)
	list, _ := s.ListRuns(ctx, RunFilter{})
	if info.Notes != got.Notes || len(list) != 1 || list[0].Name != got.Name || !slices.Equal(list[0].Tags, got.Tags) || list[0].Notes != "" {
		t.Errorf("GetRunInfo %+v; list %+v", info, list)
	}
	// Replacing clears what is not given again.
	if err := s.SetRunLabels(ctx, r.ID, "", nil, ""); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetRun(ctx, r.ID)
	if got.Name != "" || len(got.Tags) != 0 || got.Notes != "" {
		t.Errorf("cleared labels: %q %q %q", got.Name, got.Tags, got.Notes)
	}

	many := make([]string, MaxTags+1)
	for i := range many {
		many[i] = fmt.Sprintf("t%d", i)
	}
	for _, c := range []struct {
		name  string
		tags  []string
		notes string
		field string
	}{
		{strings.Repeat("é", MaxNameLen+1), nil, "", "name"},
		{"two\nlines", nil, "", "name"},
		{"", many, "", "tags"},
		{"", []string{strings.Repeat("a", MaxTagLen+1)}, "", "tags"},
		{"", []string{"has space"}, "", "tags"},
		{"", []string{"<script>"}, "", "tags"},
		{"", nil, strings.Repeat("x", MaxNotesLen+1), "notes"},
		{"", nil, "\xff", "notes"},
	} {
		err := s.SetRunLabels(ctx, r.ID, c.name, c.tags, c.notes)
		if !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != c.field {
			t.Errorf("labels %.30q %.30q: %v, want Invalid on %s", c.name, c.tags, err, c.field)
		}
	}
	// At the limits exactly, all is kept.
	if err := s.SetRunLabels(ctx, r.ID, strings.Repeat("é", MaxNameLen), many[:MaxTags],
		strings.Repeat("x", MaxNotesLen)); err != nil {
		t.Errorf("labels at the limits: %v", err)
	}
	got, _ = s.GetRun(ctx, r.ID)
	if len(got.Tags) != MaxTags || len(got.Notes) != MaxNotesLen {
		t.Errorf("at the limits: %d tags, %d bytes of notes", len(got.Tags), len(got.Notes))
	}
	if err := s.SetRunLabels(ctx, "nosuchrun0", "x", nil, ""); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown run: %v", err)
	}
	// Tags go with their run.
	if err := s.Finish(ctx, mustClaim(t, s).ID, runtypes.StatusDone, nil, "", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRun(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	s.db.QueryRow("SELECT count(*) FROM run_tags").Scan(&n)
	if n != 0 {
		t.Errorf("%d tags left after deleting their run", n)
	}
}

func mustClaim(t *testing.T, s *Store) *runtypes.Run {
	t.Helper()
	r, err := s.ClaimNext(context.Background())
	if err != nil || r == nil {
		t.Fatalf("claim: %v %v", r, err)
	}
	return r
}

func TestExperimentLabelsAreReplacedAndChecked(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	e := &Experiment{Name: "sweep", Strategy: "eapm", Definition: json.RawMessage(`{}`), Tags: []string{"old"}}
	if err := s.CreateExperiment(ctx, e, []*runtypes.Run{{WorkloadID: w.ID, Strategy: "eapm"}}, []ExperimentCell{{}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetExperimentLabels(ctx, e.ID, "γ sweep", []string{"zhang2022", "fig:1"}, "See *Table 1*."); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetExperiment(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "γ sweep" || strings.Join(got.Tags, ",") != "fig:1,zhang2022" || got.Notes != "See *Table 1*." {
		t.Errorf("experiment labels: %q %q %q", got.Name, got.Tags, got.Notes)
	}
	if err := s.SetExperimentLabels(ctx, e.ID, "", []string{"a b"}, ""); !errs.Is(err, errs.Invalid) || errs.FieldOf(err) != "tags" {
		t.Errorf("bad tag: %v", err)
	}
	if got, _ := s.GetExperiment(ctx, e.ID); got.Name != "γ sweep" {
		t.Errorf("a refused change changed the name to %q", got.Name)
	}
	if err := s.SetExperimentLabels(ctx, "nosuchexp0", "", nil, ""); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown experiment: %v", err)
	}
}
