package critical

import (
	"testing"

	"schedlab/solvers"
	"schedlab/solvers/solverstest"
)

func TestConformance(t *testing.T) {
	solverstest.Run(t, New(), solverstest.Options{
		PresetParams: map[string]solvers.Params{PresetRandom: {"tasks": "20"}},
		Reproduce:    solvers.Params{"instances": "1"},
		Volatile:     []string{"wall_ms"},
	})
}
