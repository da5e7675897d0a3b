package experiments_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"schedlab/experiments"
	"schedlab/runtypes"
)

func ExampleAggregate() {
	var runs []experiments.RunResult
	for _, x := range []float64{1, 2, 3, 4} {
		runs = append(runs, experiments.RunResult{
			Params: map[string]string{"gamma": "1.1"}, Variant: "online",
			Status: runtypes.StatusDone, Metrics: map[string]float64{"objective": x},
		})
	}
	runs = append(runs, experiments.RunResult{Params: map[string]string{"gamma": "1.1"}, Variant: "online", Status: runtypes.StatusFailed})
	r := experiments.Aggregate(runs)[0]
	fmt.Printf("%s %s n=%d failed=%d mean=%.4g std=%.4g ci=[%.4g, %.4g] median=%.4g\n",
		r.Variant, r.Metric, r.N, r.Failed, *r.Mean, *r.Std, *r.CI95Low, *r.CI95High, *r.Median)
	// Output: online objective n=4 failed=1 mean=2.5 std=1.291 ci=[0.4457, 4.554] median=2.5
}

func ExampleExpand() {
	def, _ := experiments.ParseYAML([]byte(`
name: two gammas
strategy: eapm
workload: {preset: zhang2022-case1, grid: {instance: {from: 0, to: 1}}}
variants: [online]
grid: {gamma: [1.1, 1.3]}
replicates: 2
seed: 5
`))
	for _, r := range experiments.Expand(def, nil) {
		fmt.Println(r.Index, r.Replicate, r.Seed, r.Variant, r.Cell)
	}
	// Output:
	// 0 0 5 online map[gamma:1.1 workload.instance:0]
	// 1 0 5 online map[gamma:1.3 workload.instance:0]
	// 2 0 5 online map[gamma:1.1 workload.instance:1]
	// 3 0 5 online map[gamma:1.3 workload.instance:1]
	// 4 1 6 online map[gamma:1.1 workload.instance:0]
	// 5 1 6 online map[gamma:1.3 workload.instance:0]
	// 6 1 6 online map[gamma:1.1 workload.instance:1]
	// 7 1 6 online map[gamma:1.3 workload.instance:1]
}

// FuzzParse: Parse never panics, and what it accepts survives a round
// trip through encoding/json unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"name": "x", "strategy": "eapm", "workload": {"preset": "p", "grid": {"i": {"from": 0, "to": 3}}}, "grid": {"gamma": [1.1, "1.3"]}, "references": [{"name": "p", "metric": "m", "params": {"gamma": 1.1}, "value": 2}]}`))
	f.Add([]byte("name: x\nworkload: {ids: [a, 2]}\ntags: [t]\nnotes: \"# hi\"\nseed: -4\n"))
	f.Add([]byte("grid:\n  x: &a [1, 2]\n  y: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := experiments.Parse(data)
		if err != nil {
			return
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		e, err := experiments.ParseJSON(b)
		if err != nil {
			t.Fatalf("re-parse %s: %v", b, err)
		}
		if !reflect.DeepEqual(d, e) {
			t.Fatalf("round trip changed\n%+v\n%+v", d, e)
		}
	})
}
