package critical

import "schedlab/solvers"

// generateSize bounds what preset random stores. Its edges are at most
// density × the pairs of tasks in consecutive layers plus one forced
// parent per task (the generator refuses more than MaxEdges): the pairs
// are at most tasks²/4, whatever the layers' sizes (a product of two
// sizes summing to at most tasks). An edge is about 50 bytes of the
// canonical JSON and 14 of the preview, a task about 100 and 160.
// Tasks size it most.
func generateSize(c GenConfig) solvers.Estimate {
	T, P := int64(c.Tasks), int64(c.Processors)
	edges := int64(MaxEdges)
	if e := c.Density*float64(T)*float64(T)/4 + float64(T); e < float64(MaxEdges) {
		edges = int64(e)
	}
	data := solvers.SatAdd(solvers.SatMul(T, 128), solvers.SatMul(edges, 56), solvers.SatMul(P, 64), 512)
	preview := solvers.SatAdd(solvers.SatMul(T, 160), solvers.SatMul(edges, 16), solvers.SatMul(P, 64), 4<<10)
	return solvers.Estimate{Bytes: solvers.SatAdd(data, preview), Field: "tasks"}
}
