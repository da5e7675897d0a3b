package registry

import (
	"context"
	"encoding/json"
	"testing"

	"schedlab/solvers"
)

// TestEveryPresetEstimatesWhatItStores generates every preset of every
// family, at its defaults and at larger settings, and checks that the
// family's estimate (what an experiment's budget is checked against before
// anything is generated) is at least the bytes stored (the canonical data
// and the preview) and not more than 8 times them (plus 64 KiB for the
// fixed parts of tiny workloads), and that it names one of the preset's
// parameters.
func TestEveryPresetEstimatesWhatItStores(t *testing.T) {
	larger := map[string][]solvers.Params{
		"gossip/umeda2006":     {{"nodes": "100", "duration_h": "1"}, {"nodes": "2000", "duration_h": "2"}, {"nodes": "5000", "duration_h": "0.1", "arrivals": "regular"}},
		"dcop/namekata2008":    {{"jobs": "200", "resources": "100", "filter": "none"}, {"jobs": "200", "resources": "100", "per_job": "10", "filter": "none"}, {"jobs": "50", "horizon": "1000", "filter": "none"}},
		"critical/random":      {{"tasks": "1000"}, {"tasks": "1000", "layers": "2", "density": "1"}, {"tasks": "300", "processors": "200"}},
		"cyclic/toporkov2014":  {{"nodes": "500"}, {"jobs": "500"}, {"nodes": "500", "interval": "6000"}},
		"eapm/zhang2022-case2": {{"n": "2000"}, {"n": "500", "instance": "-1"}},
		"eapm/zhang2022-case3": {{"order": "Rand"}},
		"eapm/tarplee":         {{"order": "shuffled"}},
		"eapm/zhang2022-case1": {{"instance": "-1"}},
	}
	seen := map[string]bool{}
	for _, st := range All() {
		est, ok := st, st.EstimateGenerate != nil
		if !ok {
			t.Errorf("%s does not estimate its presets", st.Info.Name)
			continue
		}
		for _, p := range st.Presets {
			key := st.Info.Name + "/" + p.Name
			seen[key] = true
			fields := map[string]bool{}
			for _, spec := range p.Params {
				fields[spec.Name] = true
			}
			for _, params := range append([]solvers.Params{{}}, larger[key]...) {
				e, err := est.EstimateGenerate(p.Name, params)
				if err != nil {
					t.Fatalf("%s %v: %v", key, params, err)
				}
				w, err := st.Generate(context.Background(), p.Name, params, 1)
				if err != nil {
					t.Fatalf("%s %v: %v", key, params, err)
				}
				stored := int64(len(w.Data))
				if w.Preview != nil {
					b, err := json.Marshal(w.Preview)
					if err != nil {
						t.Fatal(err)
					}
					stored += int64(len(b))
				}
				if e.Bytes < stored || e.Bytes > 8*stored+64<<10 {
					t.Errorf("%s %v: estimate %d bytes, stored %d", key, params, e.Bytes, stored)
				}
				if !fields[e.Field] {
					t.Errorf("%s: the estimate names %q, not a parameter of the preset", key, e.Field)
				}
			}
		}
	}
	for key := range larger {
		if !seen[key] {
			t.Errorf("no preset %s", key)
		}
	}
	if _, err := All()[0].EstimateGenerate("no-such-preset", nil); err == nil {
		t.Error("an unknown preset was estimated")
	}
}
