package eapm

import (
	"context"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"schedlab/solvers"
	"schedlab/solvers/claims"
	"schedlab/solvers/formats"
)

// fourDigits reports whether got equals want to 4 significant digits: within
// one unit of want's 4th significant digit.
func fourDigits(got, want float64) bool {
	unit := math.Pow(10, math.Floor(math.Log10(math.Abs(want)))-3)
	return math.Abs(got-want) <= unit
}

func case1Means(t *testing.T, gamma float64) (ours [nMethods]float64) {
	t.Helper()
	seeds := seedOnce()
	for k := range 100 {
		in := seedInstance(seeds.case1[k], gamma)
		md, err := newModel(in)
		if err != nil {
			t.Fatal(err)
		}
		for m := range nMethods {
			s, err := md.method(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			ours[m] += s.Objective / 100
		}
	}
	return ours
}

func TestCase1MeansMatchTheAuthorsRawMeans(t *testing.T) {
	res := resultsOnce()
	for _, gamma := range table1Gammas {
		raw, ok := res.rawFor("case1", gamma, "n30")
		if !ok {
			t.Fatalf("no raw means for γ = %v", gamma)
		}
		ours := case1Means(t, gamma)
		if !fourDigits(ours[mGreedyMin], raw.Greedy) {
			t.Errorf("γ=%v greedy-min-energy %.6g, raw %.6g", gamma, ours[mGreedyMin], raw.Greedy)
		}
		if !fourDigits(ours[mAverage], raw.Average) {
			t.Errorf("γ=%v average %.6g, raw %.6g", gamma, ours[mAverage], raw.Average)
		}
		if e := relErr(ours[mOnline], raw.Online); e > 0.005 {
			t.Errorf("γ=%v online %.6g, raw %.6g: %.3g %% off", gamma, ours[mOnline], raw.Online, 100*e)
		}
		// The raw Greedy is not the max-objective greedy of the final code.
		if gamma > 1.05 && relErr(ours[mGreedyMax], raw.Greedy) < 0.01 {
			t.Errorf("γ=%v greedy-max-objective %.6g is as close to the raw Greedy %.6g as min-energy", gamma, ours[mGreedyMax], raw.Greedy)
		}
	}
}

func TestReenactedAuthorsCodeReproducesTheirRawMeansToSevenDigits(t *testing.T) {
	seeds, res := seedOnce(), resultsOnce()
	for _, gamma := range table1Gammas {
		raw, _ := res.rawFor("case1", gamma, "n30")
		var on, gr, av float64
		for k := range 100 {
			in := seedInstance(seeds.case1[k], gamma)
			v, _ := authors.online(in)
			on += v / 100
			gr += authors.greedyMinEnergy(in) / 100
			av += authors.average(in) / 100
		}
		// The raw CSV holds 7 significant digits (setprecision(7)).
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"online", on, raw.Online}, {"greedy", gr, raw.Greedy}, {"average", av, raw.Average}} {
			if relErr(c.got, c.want) > 1e-6 {
				t.Errorf("γ=%v re-enacted %s %.8g, raw %.8g", gamma, c.name, c.got, c.want)
			}
		}
	}
}

func TestReenactmentWithoutQuirksIsOurOnline(t *testing.T) {
	// With every quirk off, the re-enactment is our online algorithm.
	seeds := seedOnce()
	for k := range 20 {
		in := seedInstance(seeds.case1[k], 1.3)
		rep, final := authorsCode{}.online(in)
		s, err := Online(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if rep != final || relErr(final, s.Objective) > 1e-9 {
			t.Fatalf("instance %d: re-enacted %v/%v, ours %v", k, rep, final, s.Objective)
		}
	}
}

// priceSweep reads Tarplee's no-idle price sweep (testdata, see SOURCES.md).
func priceSweep(t *testing.T) []map[string]float64 {
	t.Helper()
	b, err := os.ReadFile("testdata/tarplee_profit1/results/no_idle/priceSweep.csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := formats.ReadRecords("priceSweep.csv", b, formats.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]float64
	for _, r := range recs[1:] {
		row := map[string]float64{}
		for k, h := range recs[0].Fields {
			row[h], err = strconv.ParseFloat(r.Fields[k], 64)
			if err != nil {
				t.Fatal(err)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func TestLPBoundReproducesTarpleesPriceSweep(t *testing.T) {
	in, _ := tarpleeInstance(false, nil)
	rows := priceSweep(t)
	if len(rows) != 10 {
		t.Fatalf("%d rows in priceSweep.csv", len(rows))
	}
	for _, row := range rows {
		in.Gamma = row["gamma"]
		s, b, err := OfflineLP(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		// 6 significant digits: a relative error below 5e-7.
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"profit (upper)", b.Value, row["profit (upper)"]},
			{"makespan (upper)", b.Makespan, row["makespan (upper)"]},
			{"energy (upper)", b.Energy, row["energy (upper)"]},
			// Our largest-remainder rounding lands on his integer solution.
			{"profit (integer)", s.Objective, row["profit (integer)"]},
		} {
			if relErr(c.got, c.want) > 5e-7 {
				t.Errorf("γ=%v %s: ours %.10g, Tarplee %.10g", in.Gamma, c.name, c.got, c.want)
			}
		}
	}
}

func TestReproduceSmallReportValidates(t *testing.T) {
	var calls, last, total int
	r, err := New().Reproduce(context.Background(), solvers.Params{"instances": "3", "max_n": "100", "fig3_gamma": "1.5", "bounds": "no"},
		func(done, tot int, note string) {
			if done < last {
				t.Errorf("progress went back from %d to %d", last, done)
			}
			calls, last, total = calls+1, done, tot
		})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last != total {
		t.Errorf("progress: %d calls, ended at %d of %d", calls, last, total)
	}
	// The Claims table comes first, built by solvers/claims, in English
	// only (a reader may have no CJK font).
	cl := r.Tables[0]
	if cl.Title != claims.Title || !reflect.DeepEqual(cl.Columns, claims.Columns) || len(cl.Rows) < 60 {
		t.Fatalf("first table %q %q, %d rows; want the Claims table", cl.Title, cl.Columns, len(cl.Rows))
	}
	for _, row := range cl.Rows {
		switch row[3] {
		case claims.Holds, claims.Partly, claims.DoesNotHold, claims.NotMeasured, claims.Unverifiable, claims.Inconclusive:
		default:
			t.Errorf("verdict %q in %q", row[3], row[0])
		}
		for _, c := range row {
			for _, ch := range fmt.Sprint(c) {
				if unicode.In(ch, unicode.Han, unicode.Hiragana, unicode.Katakana) {
					t.Fatalf("CJK %q in the Claims row %q", ch, row[0])
				}
			}
		}
	}
	tab := r.Table("Table 1")
	want := []string{"gamma", "online", "greedy_min_energy", "greedy_max_objective", "average", "upper_bound", "raw_online", "raw_greedy", "paper_online", "paper_greedy"}
	if tab == nil || !reflect.DeepEqual(tab.Columns, want) || len(tab.Rows) != 10 {
		t.Fatalf("Table 1: %+v", tab)
	}
	// The printed γ = 1.1 row has Online and Greedy swapped against the raw one.
	row := tab.Rows[1]
	f := func(k int) float64 { return row[k].(float64) }
	if f(0) != 1.1 || math.Abs(f(6)-f(9)) > 0.005 || math.Abs(f(7)-f(8)) > 0.005 || math.Abs(f(6)-f(8)) < 1 {
		t.Errorf("γ = 1.1 row should show the swap (raw online = printed greedy): %v", row)
	}
	for _, title := range []string{"Objective vs gamma", "Fig 1", "Fig 2", "Fig 3"} {
		if r.Plot(title) == nil {
			t.Errorf("no plot %q", title)
		}
	}
	if p := r.Plot("Fig 3"); p.Kind != "bar" || len(p.Lines[0].Points) != 4 {
		t.Errorf("Fig 3: %+v", p)
	}
	if p := r.Plot("Fig 1"); len(p.Lines[0].Points) != 2 { // n = 30 and 100
		t.Errorf("Fig 1 has %d points per line", len(p.Lines[0].Points))
	}
	if len(r.Notes) < 4 {
		t.Errorf("notes: %q", r.Notes)
	}
	// bounds = no: the bounds of cases 2 and 3 are empty cells, not zeros
	// a reader would take for a bound.
	for _, title := range []string{"Case 2", "Case 3"} {
		tab := r.Table(title)
		col := slices.Index(tab.Columns, "upper_bound")
		if col < 0 || len(tab.Rows) == 0 {
			t.Fatalf("%s: columns %q, %d rows", title, tab.Columns, len(tab.Rows))
		}
		for _, row := range tab.Rows {
			if row[col] != nil {
				t.Fatalf("%s: upper_bound cell %v with bounds = no", title, row[col])
			}
		}
	}
	if !strings.Contains(strings.Join(r.Notes, " "), "their upper_bound columns are empty") {
		t.Errorf("no note says the bounds were not computed: %q", r.Notes)
	}
}

func TestReproduceDefaultRunsTheWholeExperiment(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole experiment takes seconds")
	}
	r, err := New().Reproduce(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, max := range map[string]float64{
		"greedy_min_energy_vs_raw_max_rel_err": 1e-4, "average_vs_raw_max_rel_err": 2e-4,
		"online_vs_raw_max_rel_err": 5e-3, "reenacted_vs_raw_max_rel_err": 1e-6,
	} {
		m, ok := r.Metric(name)
		if !ok || m.Value > max {
			t.Errorf("%s = %v (want ≤ %v)", name, m.Value, max)
		}
	}
	t.Logf("reproduce took %.0f ms", func() float64 { m, _ := r.Metric("wall_ms"); return m.Value }())
}

func TestReproduceHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := New().Reproduce(ctx, nil, func(done, total int, note string) {
		if n++; n == 2 {
			cancel()
		}
	})
	if err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestReproduceBoundsIsABooleanThatStillReadsYesAndNo(t *testing.T) {
	var bounds *solvers.ParamSpec
	specs := New().ReproduceParams
	for i := range specs {
		if specs[i].Name == "bounds" {
			bounds = &specs[i]
		}
	}
	if bounds == nil || bounds.Kind != solvers.ParamBool || bounds.Default != "true" {
		t.Fatalf("bounds: %+v, want a boolean defaulting to true", bounds)
	}
	for in, want := range map[string]string{"yes": "true", "no": "false", "true": "true", "false": "false", "": "true"} {
		p, err := solvers.Resolve(specs, solvers.Params{"bounds": in})
		if err != nil || p["bounds"] != want {
			t.Errorf("bounds=%q: %v, %v; want %s", in, p["bounds"], err, want)
		}
	}
}
