package dcop

import (
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

func TestConformance(t *testing.T) {
	solverstest.Run(t, New(), solverstest.Options{
		PresetParams: map[string]solvers.Params{PresetNamekata2008: {"jobs": "8"}},
		RunParams:    solvers.Params{"time_limit_s": "0.5"},
		Reproduce:    solvers.Params{"instances": "1", "time_limit_s": "0.05"},
		Volatile:     []string{"wall_ms"},
	})
}
