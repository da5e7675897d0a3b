package dcop

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"schedlab/solvers"
)

// TestHeuristicWidths logs pseudo-tree widths per heuristic on namekata2008
// instances (whole instance and its two split halves, with how many of the
// 10 instances have both halves within 256 MiB at full
// domains, an upper bound on the split's real sizes) and checks that every
// heuristic yields a valid pseudo-tree (every edge ancestor–descendant).
func TestHeuristicWidths(t *testing.T) {
	const seeds = 10
	hs := Heuristics
	var b strings.Builder
	fmt.Fprintf(&b, "%-13s %5s %21s %21s %s\n", "heuristic", "jobs", "width mean [min-max]", "split half mean [max]", "halves fit 256MiB")
	for _, h := range hs {
		for _, jobs := range []int{20, 30, 40, 50} {
			sum, lo, hi, hsum, hhi, fit := 0, 1<<30, 0, 0, 0, 0
			for seed := range seeds {
				in, err := Generate(Namekata2008(jobs), rand.New(rand.NewSource(int64(seed))))
				if err != nil {
					t.Fatal(err)
				}
				w, _ := widthOf(t, in, h, seed)
				sum, lo, hi = sum+w, min(lo, w), max(hi, w)
				k := (jobs + 1) / 2
				hw, fits := 0, true
				for _, part := range [][]Job{in.Jobs[:k], in.Jobs[k:]} {
					sub := &Instance{Horizon: in.Horizon, Resources: in.Resources, Jobs: part}
					w, bytes := widthOf(t, sub, h, seed)
					hw, fits = max(hw, w), fits && bytes <= 256<<20
				}
				if fits {
					fit++
				}
				hsum, hhi = hsum+hw, max(hhi, hw)
			}
			fmt.Fprintf(&b, "%-13s %5d %8.1f [%2d-%2d] %15.1f [%2d] %8d/%d\n", h, jobs, float64(sum)/seeds, lo, hi, float64(hsum)/seeds, hhi, fit, seeds)
		}
	}
	t.Log("pseudo-tree widths, namekata2008, 10 seeds:\n" + b.String())
}

// widthOf returns the width of in's pseudo-tree under h and the bytes of
// all its UTIL messages at full domains.
func widthOf(t *testing.T, in *Instance, h string, seed int) (int, float64) {
	t.Helper()
	g := in.ConstraintGraph()
	pt, err := BuildPseudoTree(g, h, rand.New(rand.NewSource(int64(seed))))
	if err != nil {
		t.Fatal(err)
	}
	if len(pt.Order) != len(g.Adj) {
		t.Fatalf("%s: order covers %d of %d nodes", h, len(pt.Order), len(g.Adj))
	}
	for x, nb := range g.Adj {
		for _, y := range nb {
			if !pt.IsAncestor(x, y) && !pt.IsAncestor(y, x) {
				t.Fatalf("%s: edge %d–%d is not ancestor–descendant", h, x, y)
			}
		}
	}
	size := make([]int, len(in.Jobs))
	for k, d := range Domains(in, ObjectiveMakespan, DomainStarts) {
		size[k] = len(d)
	}
	bytes := 0.0
	for x := range pt.Sep {
		bytes += pt.Entries(x, size) * EntryBytes
	}
	return pt.Width(), bytes
}

// TestStrategyHeuristicParam runs every DPOP variant with each pseudo-tree
// heuristic; the DPOP and split runs must stay optimal/feasible and WD
// must reach its width limit on min-fill trees too.
func TestStrategyHeuristicParam(t *testing.T) {
	s := New()
	w := genWorkload(t, 12, 3)
	for _, h := range []string{HeuristicMaxDegree, HeuristicMinFill, HeuristicMinFillDFS, HeuristicMinDegree, HeuristicMCS, HeuristicDFS} {
		for _, v := range []string{VariantDPOP, VariantWD, VariantSplit} {
			r, err := s.Run(context.Background(), w, v, solvers.Params{"heuristic": h, "width_limit": "2"}, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", h, v, err)
			}
			if err := r.Validate(); err != nil {
				t.Fatalf("%s %s: %v", h, v, err)
			}
			acc, _ := r.Metric("accuracy")
			if v == VariantDPOP && acc.Value != 1 {
				t.Errorf("%s %s: accuracy %v, want 1", h, v, acc.Value)
			}
			if v == VariantWD {
				if wa, _ := r.Metric("width_after"); wa.Value > 2 {
					t.Errorf("%s %s: width after %v > 2", h, v, wa.Value)
				}
			}
		}
	}
	if _, err := s.Run(context.Background(), w, VariantDPOP, solvers.Params{"heuristic": "nope"}, nil); err == nil {
		t.Errorf("unknown heuristic accepted")
	}
}
