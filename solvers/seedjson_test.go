package solvers

import (
	"strconv"
	"strings"
	"testing"

	"schedlab/solvers/sweep"
)

// TestSeedJSONWritesLongIntegerRunsAsRanges: a grid's 0…99 is written as
// the range it reads back as; a short run, a gap or a non-integer list
// stays a list.
func TestSeedJSONWritesLongIntegerRunsAsRanges(t *testing.T) {
	var hundred, gap []string
	for i := range 100 {
		hundred = append(hundred, strconv.Itoa(i))
		if i != 50 {
			gap = append(gap, strconv.Itoa(i+5))
		}
	}
	s := SeedExperiment{Name: "x", Definition: sweep.Definition{Strategy: "s",
		Workload: sweep.Workload{Grid: sweep.Grid{"instance": hundred}},
		Grid:     sweep.Grid{"h": {"1", "2", "3"}, "g": gap, "x": {"0.5", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, "neg": {"-3", "-2", "-1", "0", "1", "2", "3", "4", "5", "6"}}}}
	js := string(s.JSON())
	for _, want := range []string{`"instance":{"from":0,"to":99}`, `"neg":{"from":-3,"to":6}`, `"h":["1","2","3"]`, `"g":["5","6",`, `"x":["0.5",`} {
		if !strings.Contains(js, want) {
			t.Errorf("seed JSON lacks %s:\n%s", want, js)
		}
	}
}
