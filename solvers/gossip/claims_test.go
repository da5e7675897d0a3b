package gossip

import "testing"

// Each verdict rule flips when the numbers cross its threshold.
func TestClaimVerdictRulesFlipAtTheirThresholds(t *testing.T) {
	pts := func(r10, r100, r1000, r3000 float64) []ratioPoint {
		return []ratioPoint{{10, r10}, {100, r100}, {300, 0.5}, {1000, r1000}, {3000, r3000}}
	}
	for _, c := range []struct {
		got, want string
	}{
		{first(verdictCentralAhead(pts(0.96, 0.969, 1, 1))), Holds},
		{first(verdictCentralAhead(pts(0.96, 0.97, 1, 1))), Partly},
		{first(verdictCentralAhead(pts(0.99, 0.97, 1, 1))), DoesNotHold},
		{first(verdictGossipParity(pts(0, 0, 0.99, 1.10))), Holds},
		{first(verdictGossipParity(pts(0, 0, 0.989, 1.10))), Partly},
		{first(verdictGossipParity(pts(0, 0, 0.989, 1.11))), DoesNotHold},
		{first(verdictGossipParity(nil)), NotMeasured},
		{first(verdictRatioRises([]ratioPoint{{10, 0.95}, {3000, 0.96}})), Holds},
		{first(verdictRatioRises([]ratioPoint{{10, 0.95}, {3000, 0.959}})), DoesNotHold},
		{verdictFallsWithLoad([]float64{1, 0.99, 0.995, 0.98}), Holds},
		{verdictFallsWithLoad([]float64{1, 0.99, 0.996, 0.98}), Partly},
		{verdictFallsWithLoad([]float64{1, 1, 1, 1}), DoesNotHold},
		{verdictGossipAhead([]float64{1.01, 1.001}), Holds},
		{verdictGossipAhead([]float64{1.01, 1}), Partly},
		{verdictGossipAhead([]float64{0.93, 0.99}), DoesNotHold},
		{verdictNAT(5, 9, 1, 0.95), Holds},
		{verdictNAT(5, 9, 1, 1), Partly},      // the final rate does not drop
		{verdictNAT(5, 9, 1, 0.9951), Partly}, // nor by half a percent
		{verdictNAT(5, 9, 1, 0.995), Holds},
		{verdictNAT(5, 9, 1, 0.79), Partly}, // drops by more than a little
		{verdictNAT(9, 9, 1, 0.79), DoesNotHold},
		{verdictClose(0.929, 0.939), Holds},
		{verdictClose(0.928, 0.939), Partly},
		{verdictClose(0.909, 0.939), Partly},
		{verdictClose(0.908, 0.939), DoesNotHold},
		{verdictRising([]float64{0.9, 0.9, 0.95, 0.96}), Holds},
		{verdictRising([]float64{0.9, 0.91, 0.905, 0.96}), Partly},
		{verdictRising([]float64{0.9, 0.91, 0.92, 0.9}), DoesNotHold},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func first(v, _ string) string { return v }
