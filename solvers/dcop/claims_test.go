package dcop

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"schedlab/report"
	"schedlab/solvers"
)

// The implied widths of the seed's sizes, log20(MB · 2^20 / 4), and the
// seed's accounting of width 5 (its 1.2e1 MB).
func TestPaperAccounting(t *testing.T) {
	for i, want := range []float64{6.20, 7.75, 13.75, 17.75} {
		if got := ImpliedWidth(paperT1Before[i], 20); math.Abs(got-want) > 0.005 {
			t.Errorf("Table 1 before %g MB: width %.3f, want %.2f", paperT1Before[i], got, want)
		}
	}
	if got := PaperMB(5, 20); math.Abs(got-12.207) > 0.001 {
		t.Errorf("20^5 × 4 B = %v MiB, want 12.207", got)
	}
	if got := ImpliedWidth(PaperMB(7, 20), 20); math.Abs(got-7) > 1e-9 {
		t.Errorf("ImpliedWidth(PaperMB(7)) = %v", got)
	}
}

// fill is n copies of v.
func fill(n int, v float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = v
	}
	return xs
}

// failLast sets the last k values to NaN (the method failed there).
func failLast(xs []float64, k int) []float64 {
	out := append([]float64(nil), xs...)
	for i := len(out) - k; i < len(out); i++ {
		out[i] = math.NaN()
	}
	return out
}

// spreadAround is n values v−0.01, v+0.01, v−0.01, ... (mean v, a small
// spread so that intervals are not points).
func spreadAround(n int, v float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = v + 0.01*float64(1-2*(i%2))
	}
	return xs
}

// goodClaims is four sizes of ten instances where every claim of the seed
// holds: widths at the paper's implied ones, accuracy 0.98, every method
// solving everything and reducing widths and cycles on every instance.
func goodClaims() *claimData {
	const n = 10
	c := &claimData{}
	for ji, jobs := range reproJobs {
		wb := make([]float64, n)
		full := make([]float64, n)
		for i := range wb {
			wb[i] = ImpliedWidth(paperT1Before[ji], 20) + 0.5*float64(1-2*(i%2))
			full[i] = float64(20 + 10*i) // instances differ a lot in height
		}
		sp := make([]float64, n)
		for i := range sp {
			sp[i] = full[i] - 2 - 0.1*float64(i%3) // 2 cycles fewer on every instance
		}
		c.sizes = append(c.sizes, sizeClaim{
			jobs: jobs, wb: wb,
			wdWidth: spreadAround(n, ImpliedWidth(paperT1After[ji], 20)),
			spWidth: spreadAround(n, ImpliedWidth(paperT2After[ji], 20)),
			wdAcc:   spreadAround(n, 0.98), spAcc: spreadAround(n, 0.98),
			wdCyc: sp, spCyc: sp, cycFull: full, wdReached: n, wdN: n,
		})
		for i := 0; i < n; i++ {
			c.delWD = append(c.delWD, [2]float64{float64(i), 1 - 0.01*float64(i)})
			c.delSp = append(c.delSp, [2]float64{float64(i), 1 - 0.01*float64(i) + 0.001*float64(i%2)})
		}
		c.nWD, c.nSp = c.nWD+n, c.nSp+n
		c.bestHalf = append(c.bestHalf, fill(n, ImpliedWidth(paperT2After[ji], 20)))
		c.bestHalfName = append(c.bestHalfName, HeuristicMinFill)
	}
	return c
}

// rowVerdict is the verdict of the Claims row whose claim starts with prefix.
func rowVerdict(t *testing.T, c *claimData, prefix string) string {
	t.Helper()
	tb := claimsTable(c)
	for _, r := range tb.Rows {
		if strings.HasPrefix(r[0].(string), prefix) {
			return r[3].(string)
		}
	}
	t.Fatalf("no Claims row %q", prefix)
	return ""
}

// The Claims rows judge per-instance numbers: every row holds on the good
// data (Fig. 6 is unverifiable: no number, no threshold; Table 2's before
// rows do not hold, as the seed's two before columns disagree on the same
// problem and the good widths are Table 1's), and each row flips where
// its numbers cross the rule's boundary, failures counted.
func TestClaimsRows(t *testing.T) {
	c := goodClaims()
	tb := claimsTable(c)
	if len(tb.Rows) != 4*len(reproJobs)+11 {
		t.Fatalf("%d rows", len(tb.Rows))
	}
	for _, r := range tb.Rows {
		want := Holds
		switch claim := r[0].(string); {
		case strings.HasPrefix(claim, "Fig. 6"):
			want = report.Unverifiable
		case strings.HasPrefix(claim, "Table 2: max UTIL before"):
			want = DoesNotHold
		}
		if r[3] != want {
			t.Errorf("good data: %q is %q, want %q (%v)", r[0], r[3], want, r[2])
		}
	}
	type edit struct {
		name, row, want string
		f               func(c *claimData)
	}
	for _, e := range []edit{
		// Failures count: 5 of 10 solved at 50 jobs fails that size.
		{"WD accuracy, 5 of 10 solved at 50 jobs", "Fig. 3 / §4.2", Partly, func(c *claimData) { c.sizes[3].wdAcc = failLast(c.sizes[3].wdAcc, 5) }},
		{"WD accuracy, 6 of 10 solved at 50 jobs", "Fig. 3 / §4.2", Holds, func(c *claimData) { c.sizes[3].wdAcc = failLast(c.sizes[3].wdAcc, 4) }},
		// The review's case: a schedule on 2 of 30 at 30–50 jobs.
		{"WD accuracy, 2 of 30 solved at 30–50 jobs", "Fig. 3 / §4.2", Partly, func(c *claimData) {
			c.sizes[1].wdAcc = failLast(c.sizes[1].wdAcc, 8)
			c.sizes[2].wdAcc = failLast(c.sizes[2].wdAcc, 10)
			c.sizes[3].wdAcc = failLast(c.sizes[3].wdAcc, 10)
		}},
		{"WD accuracy under 0.945 everywhere", "Fig. 3 / §4.2", DoesNotHold, func(c *claimData) {
			for i := range c.sizes {
				c.sizes[i].wdAcc = spreadAround(10, 0.93)
			}
		}},
		// "0.93–1" is a range: a level against it (issue 40), so a mean of
		// 0.93 whose CI reaches below 0.925 still meets it; a CI wholly
		// below it does not.
		{"split accuracy 0.93 at 30 jobs (CI reaches below 0.925, meets the range)", "Fig. 4 / §4.2", Holds, func(c *claimData) { c.sizes[1].spAcc = spreadAround(10, 0.93) }},
		{"split accuracy 0.85 at 30 jobs (CI below the range)", "Fig. 4 / §4.2", Partly, func(c *claimData) { c.sizes[1].spAcc = spreadAround(10, 0.85) }},
		{"split accuracy 0.94 at 30 jobs", "Fig. 4 / §4.2", Holds, func(c *claimData) { c.sizes[1].spAcc = spreadAround(10, 0.94) }},
		// Drops little: the review's case, 2 solved of 10 at 50 jobs.
		{"split drops little, 2 of 10 solved at 50 jobs", "Fig. 4: split accuracy drops", DoesNotHold, func(c *claimData) { c.sizes[3].spAcc = failLast(c.sizes[3].spAcc, 8) }},
		{"split drops 0.06 (within the paper's 0.07)", "Fig. 4: split accuracy drops", Holds, func(c *claimData) { c.sizes[3].spAcc = spreadAround(10, 0.92) }},
		{"split drops 0.09", "Fig. 4: split accuracy drops", Partly, func(c *claimData) { c.sizes[3].spAcc = spreadAround(10, 0.89) }},
		// Sizes: WD stuck above width 5 without a schedule at 40–50 jobs.
		{"WD size, no schedule at 40–50 jobs", "Conclusion: both methods reduce", Partly, func(c *claimData) {
			c.sizes[2].wdWidth = failLast(c.sizes[2].wdWidth, 10)
			c.sizes[3].wdWidth = failLast(c.sizes[3].wdWidth, 10)
		}},
		{"Table 1 after at 40 jobs, no schedule", "Table 1: max UTIL after WD to width 5, 40 jobs", DoesNotHold, func(c *claimData) { c.sizes[2].wdWidth = failLast(c.sizes[2].wdWidth, 10) }},
		{"Table 1 after at 40 jobs, mean width 6", "Table 1: max UTIL after WD to width 5, 40 jobs", DoesNotHold, func(c *claimData) { c.sizes[2].wdWidth = spreadAround(10, 6) }},
		{"Table 1 before 20 jobs one width off", "Table 1: max UTIL before WD, 20 jobs", DoesNotHold, func(c *claimData) {
			for i := range c.sizes[0].wb {
				c.sizes[0].wb[i]++
			}
		}},
		{"Table 2 before at 30 jobs at its implied width", "Table 2: max UTIL before split, 30 jobs", Holds, func(c *claimData) {
			for i := range c.sizes[1].wb {
				c.sizes[1].wb[i] += ImpliedWidth(paperT2Before[1], 20) - ImpliedWidth(paperT1Before[1], 20)
			}
		}},
		{"Table 2 after at 50 jobs, 5 of 10 solved", "Table 2: max UTIL after split (wider half), 50 jobs", DoesNotHold, func(c *claimData) { c.sizes[3].spWidth = failLast(c.sizes[3].spWidth, 5) }},
		// Pairs: the split saves 2 cycles on every instance while the
		// instances' heights differ by 90; unpaired, the difference
		// would not be shown. Misaligned, it is not.
		{"cycles paired per instance, misaligned", "Conclusion: the methods reduce the message cycles", Partly, func(c *claimData) {
			sp := c.sizes[0].spCyc
			c.sizes[0].spCyc = append(append([]float64(nil), sp[5:]...), sp[:5]...)
		}},
		{"WD keeps the tree's cycles", "Conclusion: the methods reduce the message cycles", Partly, func(c *claimData) {
			for i := range c.sizes {
				c.sizes[i].wdCyc = c.sizes[i].cycFull
			}
		}},
		{"Fig. 5 accuracy rises with the edges", "Fig. 5: WD", DoesNotHold, func(c *claimData) {
			for i := range c.delWD {
				c.delWD[i][1] = 0.9 + 0.001*c.delWD[i][0]
			}
		}},
		{"halves wider than the seed's at 50 jobs", "Table 2: halves as narrow", Partly, func(c *claimData) { c.bestHalf[3] = spreadAround(10, 6) }},
	} {
		c := goodClaims()
		e.f(c)
		if got := rowVerdict(t, c, e.row); got != e.want {
			t.Errorf("%s: %q, want %q", e.name, got, e.want)
		}
	}
}

// summarize keeps the instances aligned: a failure is NaN at its index in
// the per-instance accuracies, widths and cycles.
func TestSummarizeAligned(t *testing.T) {
	ms := []methodResult{{width: 5, ms: 10, cycles: 8}, {width: 9, fail: "x"}, {width: 4, ms: 12, cycles: 6}}
	s := summarize(ms, []float64{10, 11, 9}, []float64{12, 12, 12})
	if s.failures != 1 || len(s.accAll) != 3 || !math.IsNaN(s.accAll[1]) || !math.IsNaN(s.widthAll[1]) || !math.IsNaN(s.cycAll[1]) {
		t.Fatalf("%+v", s)
	}
	if s.accAll[0] != 1 || s.accAll[2] != 0.75 || s.widthAll[2] != 4 || s.cycAll[2] != 6 {
		t.Errorf("%+v", s)
	}
}

// One pseudo-tree default for the runs and the reproduce, a DFS tree in
// the seed's sense; the reproduce's min-fill tables (ours) are the
// reproduce run with heuristic=min-fill, table for table (the same
// setting gives the same numbers), and that run does not repeat them.
func TestReproduceTrees(t *testing.T) {
	if testing.Short() {
		t.Skip("slow tier (a full reproduction (36 s at load 35)): not under -short; go test ./... runs it")
	}
	if DefaultConfig().Heuristic != DefaultReproConfig().Heuristic || DefaultReproConfig().Heuristic != HeuristicMaxDegree {
		t.Fatalf("run default %q, reproduce default %q", DefaultConfig().Heuristic, DefaultReproConfig().Heuristic)
	}
	ctx := context.Background()
	def, err := New().Reproduce(ctx, solvers.Params{"instances": "1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mf, err := New().Reproduce(ctx, solvers.Params{"instances": "1", "heuristic": HeuristicMinFill}, nil)
	if err != nil {
		t.Fatal(err)
	}
	byTitle := func(r *report.Report) map[string]report.Table {
		m := map[string]report.Table{}
		for _, tb := range r.Tables {
			m[tb.Title] = tb
		}
		return m
	}
	d, m := byTitle(def), byTitle(mf)
	if len(m) != 5 {
		t.Errorf("min-fill reproduce has %d tables, want 5 (no ours tables)", len(m))
	}
	for _, title := range []string{"Table 1", "Table 2", "Accuracy"} {
		ours, ok := d[oursTitle(title)]
		if !ok {
			t.Fatalf("no %q", oursTitle(title))
		}
		a, _ := json.Marshal([]any{ours.Columns, ours.Rows})
		b, _ := json.Marshal([]any{m[title].Columns, m[title].Rows})
		if string(a) != string(b) {
			t.Errorf("%s differs from the min-fill run's %s:\n%s\n%s", oursTitle(title), title, a, b)
		}
		p, _ := json.Marshal(d[title].Rows)
		if o, _ := json.Marshal(ours.Rows); string(p) == string(o) {
			t.Errorf("%s equals the paper's tree's", oursTitle(title))
		}
	}
}
