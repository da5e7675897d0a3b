// Command critical-readings measures the readings of the critical works
// method's collision steps (solvers/critical, issue 38): per reading and
// deadline factor, the stop rate, makespan over HEFT's on the same
// processors and over the lower bound, on the repository's WfCommons
// workflows, 100 random DAGs of the random preset, and any WfFormat files
// given as arguments (e.g. workflows from outside the repository).
//
//	go run ./bench/critical-readings [-random 100] [file.json ...]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"schedlab/solvers/critical"
	"schedlab/solvers/formats"
)

func main() {
	nRandom := flag.Int("random", 100, "random DAGs (seeds 1..n)")
	readings := flag.String("readings", strings.Join(critical.CollisionReadings[:6], ","), "readings of collision_processors, comma-separated")
	criterion := flag.String("criterion", critical.DefaultRunConfig().Criterion, "criterion of the planner (load, makespan, cost)")
	maxVariants := flag.Int("max_variants", critical.DefaultRunConfig().MaxVariants, "max_variants")
	flag.Parse()
	base := critical.DefaultRunConfig()
	base.Criterion, base.MaxVariants = *criterion, *maxVariants
	if err := run(base, *nRandom, strings.Split(*readings, ","), flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(base critical.RunConfig, nRandom int, readings []string, extra []string) error {
	ctx := context.Background()
	factors := []float64{1.2, 1.5, 2, 3}
	fmt.Printf("criterion %s, max_variants %d, bandwidth %g MB/s, wf_processors %s\n\n", base.Criterion, base.MaxVariants, base.Bandwidth, base.WfProcessors)
	_, wfs, err := critical.Workflows()
	if err != nil {
		return err
	}
	if blast, err := readWf("solvers/formats/testdata/wfformat/blast-chameleon-small-001.wf16.json"); err == nil {
		wfs = append(wfs, blast)
	}
	rnd, err := critical.RandomGraphs(nRandom)
	if err != nil {
		return err
	}
	sets := []struct {
		title string
		gs    []*critical.Graph
	}{
		{fmt.Sprintf("repository workflows (%d)", len(wfs)), wfs},
		{fmt.Sprintf("random DAGs (%d)", len(rnd)), rnd},
		{"both", append(append([]*critical.Graph{}, wfs...), rnd...)},
	}
	if len(extra) > 0 {
		var gs []*critical.Graph
		var names []string
		for _, f := range extra {
			g, err := readWf(f)
			if err != nil {
				return err
			}
			gs = append(gs, g)
			names = append(names, filepath.Base(f))
		}
		sets = append(sets, struct {
			title string
			gs    []*critical.Graph
		}{"given workflows: " + strings.Join(names, ", "), gs})
	}
	for _, s := range sets {
		cells, err := critical.MeasureReadings(ctx, s.gs, readings, factors, base)
		if err != nil {
			return err
		}
		fmt.Println(critical.FormatReadings(s.title, cells))
	}
	return nil
}

func readWf(path string) (*critical.Graph, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	wf, err := formats.ReadWfFormat(path, data)
	if err != nil {
		return nil, err
	}
	return critical.FromWorkflow(wf, strings.TrimSuffix(filepath.Base(path), ".json"))
}
