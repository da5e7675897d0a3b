package cyclic

import (
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

func TestConformance(t *testing.T) {
	solverstest.Run(t, New(), solverstest.Options{
		PresetParams: map[string]solvers.Params{PresetToporkov2014: {"nodes": "8", "jobs": "6"}},
		RunParams:    solvers.Params{"cycles": "5"},
		Reproduce:    smallReproduceParams,
		Reproduced:   smallReproduce,
		Volatile:     []string{"wall_ms"},
	})
}
