package gossip

import (
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

func TestConformance(t *testing.T) {
	solverstest.Run(t, New(), solverstest.Options{
		PresetParams: map[string]solvers.Params{PresetUmeda2006: {"nodes": "40", "sites": "4", "nat_fraction": "0.1", "duration_h": "1"}},
		RunParams:    solvers.Params{"gantt_nodes": "10"},
		Reproduce:    smallReproduceParams,
		Reproduced:   smallReproduce,
		Volatile:     []string{"wall_ms"},
	})
}
