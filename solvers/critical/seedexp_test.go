package critical

import (
	"testing"

	"schedlab/solvers/solverstest"
)

func TestSeedExperimentsAreValidSweeps(t *testing.T) {
	st := New()
	want := map[string]int64{"deadline": 2 * 4 * 4 * 10, "enumeration": 4 * 10}
	solverstest.SeedExperiments(t, st, want)
}
