package sweep

import (
	"reflect"
	"testing"
)

// An experiment says what differs between its runs first (the swept
// values), then what every run shares.
func TestFieldsPutWhatDiffersFirst(t *testing.T) {
	d := &Definition{Strategy: "cyclic", Workload: Workload{Preset: "toporkov2014", Grid: Grid{"nodes": {"24"}, "jobs": {"10", "20"}}},
		Grid: Grid{"shift": {"true", "false"}, "k": {"3"}}, Replicates: 5, Seed: 7}
	got := d.Fields([]string{"css", "fair"})
	want := []Field{
		{"variant", []string{"css", "fair"}},
		{"workload.jobs", []string{"10", "20"}},
		{"shift", []string{"true", "false"}},
		{"seed (replicate)", []string{"7", "8", "9", "… 11"}},
		{"workload", []string{"preset toporkov2014"}},
		{"workload.nodes", []string{"24"}},
		{"k", []string{"3"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Fields =\n%v\nwant\n%v", got, want)
	}
	// Named variants win over the strategy's list; one replicate is fixed.
	d = &Definition{Workload: Workload{IDs: []string{"w1"}}, Variants: []string{"easy"}, Replicates: 1, Seed: 1}
	got = d.Fields([]string{"fcfs", "easy"})
	for _, f := range got {
		if f.Differs() {
			t.Errorf("%s differs: %v", f.Name, f.Values)
		}
	}
	if got[1].Name != "variant" || !reflect.DeepEqual(got[1].Values, []string{"easy"}) {
		t.Errorf("variant field %+v", got[1])
	}
}
