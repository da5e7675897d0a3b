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
		Reproduce:    solvers.Params{"cycles": "10", "flow_cycles": "10"},
		Volatile:     []string{"wall_ms"},
	})
}
