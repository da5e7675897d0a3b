package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"schedlab/errs"
	"schedlab/runtypes"
)

// TestPagesWalkEveryRunOnceNewestFirst walks /runs by cursor, filtered and
// not, over runs sharing created_at (the rowid breaks ties) and checks the
// pages join to the unpaged list, in order, each at most the page size.
func TestPagesWalkEveryRunOnceNewestFirst(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	w2 := addWorkload(t, s, "dcop")
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// 23 runs of eapm, 7 of dcop; FillRuns spaces them 1 ms apart, and a
	// second fill at the same start time makes equal created_at values.
	if err := s.FillRuns(ctx, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Variant: "online", Status: runtypes.StatusDone}, 23, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.FillRuns(ctx, runtypes.Run{WorkloadID: w2.ID, Strategy: "dcop", Variant: "dpop", Status: runtypes.StatusFailed}, 7, t0); err != nil {
		t.Fatal(err)
	}
	for _, f := range []RunFilter{{}, {Strategy: "eapm"}, {Status: runtypes.StatusFailed}, {WorkloadID: w2.ID}, {Strategy: "nope"}} {
		all, err := s.ListRuns(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 4, 7, 100} {
			var walked []runtypes.Run
			pf := f
			pf.Limit = size
			for pages := 0; ; pages++ {
				if pages > 40 {
					t.Fatalf("%+v: more pages than runs", pf)
				}
				page, next, err := s.ListRunsPage(ctx, pf)
				if err != nil {
					t.Fatal(err)
				}
				if len(page) > size {
					t.Fatalf("%+v: page of %d", pf, len(page))
				}
				walked = append(walked, page...)
				if next == "" {
					break
				}
				if len(page) != size {
					t.Fatalf("%+v: a short page (%d) with a next cursor", pf, len(page))
				}
				pf.Cursor = next
			}
			if ids(walked) != ids(all) {
				t.Errorf("filter %+v, pages of %d:\n got %s\nwant %s", f, size, ids(walked), ids(all))
			}
		}
	}
	if _, _, err := s.ListRunsPage(ctx, RunFilter{Limit: 5, Cursor: "garbage!"}); errs.FieldOf(err) != "cursor" || !errs.Is(err, errs.Invalid) {
		t.Errorf("a bad cursor: %v, want Invalid on cursor", err)
	}
	// Workloads page the same way.
	var walked []string
	var cur Cursor
	for {
		ws, next, err := s.ListWorkloadsPage(ctx, "", "", 1, cur)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range ws {
			walked = append(walked, x.ID)
		}
		if next == "" {
			break
		}
		cur = next
	}
	if strings.Join(walked, ",") != w2.ID+","+w.ID {
		t.Errorf("workload pages %v, want %s,%s", walked, w2.ID, w.ID)
	}
	names, err := s.WorkloadNames(ctx, []string{w.ID, w.ID, "", "unknown"})
	if err != nil || len(names) != 1 || names[w.ID] != "tiny" {
		t.Errorf("WorkloadNames = %v, %v", names, err)
	}
}

// plan returns the EXPLAIN QUERY PLAN lines of a query.
func plan(t *testing.T, s *Store, q string, args ...any) []string {
	t.Helper()
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, detail)
	}
	return out
}

// TestListQueriesUseIndexesWithoutSorting checks the plans of the paged
// lists: every table is reached through an index, and no ORDER BY needs a
// temporary b-tree, whatever the filter and with or without a cursor.
func TestListQueriesUseIndexesWithoutSorting(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	w := addWorkload(t, s, "eapm")
	if err := s.FillRuns(ctx, runtypes.Run{WorkloadID: w.ID, Strategy: "eapm", Status: runtypes.StatusDone}, 50, time.Now()); err != nil {
		t.Fatal(err)
	}
	// No ANALYZE, as in a served database: the planner assumes large tables.
	_, cur, err := s.ListRunsPage(ctx, RunFilter{Limit: 10})
	if err != nil || cur == "" {
		t.Fatalf("no cursor: %v", err)
	}
	check := func(name string, lines []string) {
		t.Helper()
		t.Logf("%s: %s", name, strings.Join(lines, "; "))
		for _, l := range lines {
			if l == "SCAN runs" || l == "SCAN r" || l == "SCAN m" || l == "SCAN t" || l == "SCAN workloads" ||
				strings.Contains(l, "TEMP B-TREE") {
				t.Errorf("%s: plan %q has %q", name, lines, l)
			}
		}
		if len(lines) == 0 {
			t.Errorf("%s: no plan", name)
		}
	}
	if _, err := s.db.Exec(`INSERT INTO run_metrics (run_id, name, value) SELECT id, 'energy', rowid % 7 FROM runs`); err != nil {
		t.Fatal(err)
	}
	_, mcur, err := s.ListRunsPage(ctx, RunFilter{Metric: "energy", Sort: SortMetricAsc, Limit: 10})
	if err != nil || mcur == "" {
		t.Fatalf("no metric cursor: %v", err)
	}
	_, mdcur, err := s.ListRunsPage(ctx, RunFilter{Metric: "energy", Sort: SortMetricDesc, Limit: 10})
	if err != nil || mdcur == "" {
		t.Fatalf("no metric cursor: %v", err)
	}
	lo, hi := 1.0, 5.0
	gamma := map[string]string{"gamma": "1.3"}
	for _, f := range []RunFilter{{}, {Strategy: "eapm"}, {Status: runtypes.StatusDone}, {WorkloadID: w.ID},
		{Kind: runtypes.KindReproduce, Strategy: "eapm"}, {Strategy: "eapm", Status: runtypes.StatusDone},
		{Variant: "online"}, {Strategy: "eapm", Variant: "online"}, {Strategy: "eapm", Tag: "paper"},
		{Params: gamma}, {Metric: "energy"}, {Metric: "energy", MetricMin: &lo, MetricMax: &hi},
		{Metric: "energy", Sort: SortMetricAsc}, {Metric: "energy", Sort: SortMetricDesc, MetricMin: &lo},
		{Metric: "energy", Sort: SortMetricAsc, Strategy: "eapm", Tag: "paper", MetricMax: &hi},
		{Metric: "energy", Sort: SortMetricDesc, Variant: "online", Params: gamma}} {
		c := cur
		switch f.Sort {
		case SortMetricAsc:
			c = mcur
		case SortMetricDesc:
			c = mdcur
		}
		for _, c := range []Cursor{"", c} {
			f.Limit, f.Cursor = 10, c
			q, args, _, err := runsQuery(f)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("runs %+v", f), plan(t, s, q, args...))
		}
	}
	// A tag alone: SQLite reads the tag's runs from run_tags_tag and sorts
	// them (bounded by the tag's runs, not the table's); with another
	// equality it walks that index in order and tests the tag in a set
	// built from run_tags_tag. Either way the tag is found by its index.
	for _, f := range []RunFilter{{Tag: "paper"}, {Tag: "paper", Cursor: cur}, {Tag: "paper", Variant: "online"}} {
		f.Limit = 10
		q, args, _, _ := runsQuery(f)
		p := strings.Join(plan(t, s, q, args...), "; ")
		t.Logf("runs %+v: %s", f, p)
		if !strings.Contains(p, "SEARCH t USING COVERING INDEX run_tags_tag (tag=?)") || strings.Contains(p, "SCAN r;") {
			t.Errorf("tag filter %+v: %s", f, p)
		}
	}
	// A metric order is a seek in run_metrics_name_value past the cursor,
	// in both directions, and its range bounds the same seek.
	for _, c := range []struct {
		f    RunFilter
		want string
	}{
		{RunFilter{Metric: "energy", Sort: SortMetricAsc, Cursor: mcur}, "SEARCH m USING COVERING INDEX run_metrics_name_value (name=? AND (value,run_id)>(?,?))"},
		{RunFilter{Metric: "energy", Sort: SortMetricDesc, Cursor: mdcur}, "SEARCH m USING COVERING INDEX run_metrics_name_value (name=? AND (value,run_id)<(?,?))"},
		{RunFilter{Metric: "energy", Sort: SortMetricAsc, MetricMin: &lo, MetricMax: &hi}, "SEARCH m USING COVERING INDEX run_metrics_name_value (name=? AND value>? AND value<?)"},
	} {
		q, args, _, _ := runsQuery(c.f)
		if p := strings.Join(plan(t, s, q, args...), "; "); !strings.Contains(p, c.want) {
			t.Errorf("%+v: plan %s lacks %s", c.f, p, c.want)
		}
	}
	// The cursor is a seek, not a filter over every newer row.
	q, args, _, _ := runsQuery(RunFilter{Limit: 10, Cursor: cur})
	if p := strings.Join(plan(t, s, q, args...), "; "); !strings.Contains(p, "SEARCH r USING INDEX runs_created (created_at<?)") &&
		!strings.Contains(p, "SEARCH runs USING COVERING INDEX") {
		t.Errorf("a page after a cursor does not seek: %s", p)
	}
	// The metric values beside a page: one primary-key seek per run.
	if p := strings.Join(plan(t, s, metricValuesQuery, `["a","b"]`, "energy"), "; "); !strings.Contains(p, "SEARCH m USING PRIMARY KEY (run_id=? AND name=?)") {
		t.Errorf("MetricValues: %s", p)
	}
	check("workload names", plan(t, s, "SELECT id, name FROM workloads WHERE id IN (?, ?)", "a", "b"))
	for _, st := range []string{"", "eapm"} {
		q := "SELECT created_at, rowid, " + workloadListColumns + " FROM workloads"
		args := []any{}
		if st != "" {
			q += " WHERE strategy = ?"
			args = append(args, st)
		}
		check("workloads "+st, plan(t, s, q+" ORDER BY created_at DESC, rowid DESC LIMIT ?", append(args, 11)...))
	}
}
