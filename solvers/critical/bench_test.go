package critical

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/solvers/formats"
)

// BenchmarkWorkflows is the speed target: each shared workflow (41–103
// tasks) planned by every variant end to end (tree, works, plan, check),
// ≤ 200 ms each.
func BenchmarkWorkflows(b *testing.B) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		wf, err := formats.ReadWfFormat(f, data)
		if err != nil {
			b.Fatal(err)
		}
		g, err := FromWorkflow(wf, f)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.SplitN(filepath.Base(f), "-", 2)[0]
		for _, v := range []string{VariantCritical, VariantCriticalFallback, VariantHEFT, VariantList, VariantFastestNode} {
			b.Run(name+"/"+v, func(b *testing.B) {
				for b.Loop() {
					if _, err := Solve(context.Background(), g, v, DefaultRunConfig(), nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkRandom1000 is the speed target: a random DAG of 1,000 tasks
// (200 layers, density 0.3, 8 processors) with the tree bounded by the
// defaults, ≤ 2 s per variant.
func BenchmarkRandom1000(b *testing.B) {
	c := DefaultGenConfig()
	c.Tasks, c.Layers, c.Processors = 1000, 200, 8
	g, err := Generate(c, rand.New(rand.NewSource(1)))
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range []string{VariantCritical, VariantCriticalFallback, VariantHEFT, VariantList, VariantFastestNode} {
		b.Run(v, func(b *testing.B) {
			for b.Loop() {
				o, err := Solve(context.Background(), g, v, DefaultRunConfig(), nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(o.Tree.Nodes)), "tree_nodes")
				b.ReportMetric(float64(len(o.Works)), "works")
			}
		})
	}
}
