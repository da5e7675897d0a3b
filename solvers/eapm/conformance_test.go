package eapm

import (
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

func TestConformance(t *testing.T) {
	solverstest.Run(t, New(), solverstest.Options{
		PresetParams: map[string]solvers.Params{PresetCase2: {"n": "30"}},
		Reproduce:    solvers.Params{"instances": "1", "max_n": "30", "bounds": "false"},
		Volatile:     []string{"wall_ms"},
	})
}
