package gossip

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"schedlab/solvers"
)

// otherValue is a valid value of sp other than its default.
func otherValue(sp solvers.ParamSpec) string {
	switch sp.Kind {
	case solvers.ParamChoice:
		for _, c := range sp.Choices {
			if c != sp.Default {
				return c
			}
		}
	case solvers.ParamString:
		return "random"
	}
	v := sp.Min
	if strconv.FormatFloat(v, 'f', -1, 64) == sp.Default {
		v = sp.Max
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// TestParametersForOtherVariantsAreIgnored checks every .For: a parameter
// that does not apply to a variant, set to another valid value, leaves
// that variant's report as it was (wall time aside, and the "Run" table's
// ttl_s column, which echoes the parameter for central too though central
// never reads it: kept so that reports do not move). A parameter a
// variant reads but that is marked for others fails here.
func TestParametersForOtherVariantsAreIgnored(t *testing.T) {
	s := New()
	w := genWorkload(t, solvers.Params{"nodes": "40", "sites": "4", "nat_fraction": "0.2", "duration_h": "2"}, 5)
	report := func(v string, p solvers.Params) string {
		t.Helper()
		r, err := s.Run(context.Background(), w, v, p, nil)
		if err != nil {
			t.Fatalf("%s %v: %v", v, p, err)
		}
		for i := range r.Metrics {
			if r.Metrics[i].Name == "wall_ms" {
				r.Metrics[i].Value = 0
			}
		}
		if v == VariantCentral {
			if run := r.Table("Run"); run != nil && run.Columns[8] == "ttl_s" {
				run.Rows[0][8] = nil
			}
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	ignored := 0
	for _, v := range s.Variants {
		base := report(v.Name, nil)
		for _, sp := range s.Params {
			if sp.AppliesTo(v.Name) {
				continue
			}
			p := solvers.Params{sp.Name: otherValue(sp)}
			if report(v.Name, p) != base {
				t.Errorf("%s reads %s=%s, which is marked for %v only", v.Name, sp.Name, p[sp.Name], sp.Variants)
			}
			ignored++
		}
	}
	if ignored < 15 {
		t.Errorf("only %d parameter/variant pairs checked", ignored)
	}
}
