package experiments

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"schedlab/solvers/dcop"
	"schedlab/solvers/registry"
	"schedlab/solvers/sweep"
)

// seedRuns are the runs each family's seed experiments expand to, by
// family and name: the paper's axes times the replicates.
var seedRuns = map[string]map[string]int64{
	"critical": {"deadline": 2 * 4 * 4 * 10, "enumeration": 4 * 10},
	"cyclic": {
		"table1": 2, "table2": 5, "fig3": 3 * 7, "fig4": 11, "table3": 3, "figs5-8": 8 * 2 * 3,
		"sensitivity-joblaw": 3 * 2 * 2 * 3, "sensitivity-volume": 3 * 3 * 2 * 3, "sensitivity-width": 3 * 4 * 2 * 3, "sensitivity-price": 3 * 3 * 2 * 3,
		"sensitivity-load": 3 * 4 * 2 * 3, "sensitivity-interval": 3 * 3 * 2 * 3,
		"sensitivity-table3": 3 * 2 * 3 * 2, "sensitivity-fig3": 3 * 2 * 2 * 7,
	},
	"dcop": {"table1": 4 * 10, "table2": 4 * 10 * 2, "fig3": 4 * 10 * int64(len(dcop.WDRules)), "fig4": 4 * 10 * 2, "fig6": 4 * 10,
		"sensitivity-heuristic": 4 * 10 * 5, "sensitivity-domain": 4 * 10 * 2 * 2},
	"eapm": {"table1": 100 * 10 * 4, "fig1": 100 * 5 * 3 * 4, "fig3": 100 * 4 * 3 * 4},
	"gossip": {"fig6": 3 * 5, "fig7": 10 * 2 * 5, "fig8": 6 * 2 * 3, "fig9": 3 * 4 * 2 * 3, "table1": 4 * 3,
		"sens-collect": 6 * 3 * 3 * 2 * 3, "sens-ads": 3 * 2 * 2 * 2 * 3, "sens-negotiator": 4 * 4 * 3, "sens-period": 3 * 4 * 2 * 3,
		"sens-match": 3 * 3 * 2 * 3, "sens-length": 3 * 2 * 2 * 2 * 3,
		"sens-table1": 4 * 2 * 2 * 3 * 3, "sens-table1-run": 3 * 2 * 2 * 2 * 3 * 3},
}

// TestSeedExperimentsAreTheSweepsTheyWere: every family's seed experiment,
// written as a typed literal, reads back (JSON, then ParseJSON) as the
// definition its JSON gave when the families wrote maps (testdata/seeds.json,
// generated once from those), validates against its strategy and expands
// to the runs its axes say. The seeds are exactly those of seedRuns.
func TestSeedExperimentsAreTheSweepsTheyWere(t *testing.T) {
	b, err := os.ReadFile("testdata/seeds.json")
	if err != nil {
		t.Fatal(err)
	}
	var before []struct {
		Family, Name, Title string
		Definition          json.RawMessage
	}
	if err := json.Unmarshal(b, &before); err != nil {
		t.Fatal(err)
	}
	old := map[string]*sweep.Definition{}
	titles := map[string]string{}
	for _, s := range before {
		def, err := ParseJSON(s.Definition)
		if err != nil {
			t.Fatalf("testdata %s/%s: %v", s.Family, s.Name, err)
		}
		old[s.Family+"/"+s.Name], titles[s.Family+"/"+s.Name] = def, s.Title
	}
	seen := 0
	for _, st := range registry.All() {
		family := st.Info.Name
		x, ok := st, st.SeedExperiments != nil
		if !ok {
			if seedRuns[family] != nil {
				t.Errorf("%s has no seed experiments", family)
			}
			continue
		}
		want := seedRuns[family]
		if n := len(x.SeedExperiments()); n != len(want) {
			t.Errorf("%s: %d seed experiments, want %d", family, n, len(want))
		}
		for _, s := range x.SeedExperiments() {
			key := family + "/" + s.Name
			seen++
			n, ok := want[s.Name]
			if !ok {
				t.Errorf("unexpected seed experiment %s", key)
				continue
			}
			b, err := s.Definition.JSON()
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			def, err := ParseJSON(b)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			if !reflect.DeepEqual(def, old[key]) {
				t.Errorf("%s reads as\n%+v\nwas\n%+v", key, def, old[key])
			}
			if s.Title != titles[key] {
				t.Errorf("%s: title %q, was %q", key, s.Title, titles[key])
			}
			if err := Validate(def, st); err != nil {
				t.Errorf("%s: %v", key, err)
			}
			if got := Count(def, st); got != n {
				t.Errorf("%s: %d runs, want %d", key, got, n)
			}
		}
	}
	if seen != len(before) {
		t.Errorf("%d seed experiments, %d before", seen, len(before))
	}
}
