package cyclic

import "schedlab/solvers"

// generateSize bounds what the toporkov2014 preset stores: the nodes, the
// first cycle's jobs, and the owners' local jobs (each node's share
// local_load of the interval in jobs of at least LocalMin time units, so
// at most nodes × interval × local_load / LocalMin of them, and one per
// node more for the draw's spread), in the canonical JSON and in the
// preview (a table of each, a Gantt bar per local job). Nodes size it
// most, with interval.
func generateSize(g GenConfig) solvers.Estimate {
	N, J := int64(g.Nodes), int64(g.Jobs)
	local := N
	if l := float64(g.Nodes) * float64(g.Interval) * g.LocalLoad / float64(max(g.LocalMin, 1)); l < 1e15 {
		local = solvers.SatAdd(local, int64(l))
	}
	data := solvers.SatAdd(solvers.SatMul(N, 64), solvers.SatMul(J, 128), solvers.SatMul(local, 16), 1<<10)
	preview := solvers.SatAdd(solvers.SatMul(N, 96), solvers.SatMul(J, 128), solvers.SatMul(local, 80), 4<<10)
	return solvers.Estimate{Bytes: solvers.SatAdd(data, preview), Field: "nodes"}
}
