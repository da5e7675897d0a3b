package dcop

import "schedlab/solvers"

// generateSize bounds what the namekata2008 preset stores: each job's
// line of the canonical JSON (its resources, duration and value), the
// resources' names, and the preview: the resources × jobs table (at most
// maxPreviewCells cells of a few bytes), the jobs table, and the
// constraint graph (at most maxGraphEdges of its edges drawn).
// Jobs size it most.
func generateSize(g GenConfig) solvers.Estimate {
	J, R, K := int64(g.Jobs), int64(g.Resources), int64(g.PerJob)
	job := solvers.SatAdd(48, solvers.SatMul(K, 8))
	data := solvers.SatAdd(solvers.SatMul(J, job), solvers.SatMul(R, 16), 512)
	// A resource is held by J·K/R jobs on average, each pair of them an
	// edge: J²K²/2R expected, bounded here with room for the draw's
	// spread, and never more than the jobs' pairs.
	pairs := min(solvers.SatMul(J, max(J-1, 1))/2, solvers.SatMul(J, K, solvers.SatAdd(solvers.SatMul(J, K)/max(R, 1), 2)))
	preview := solvers.SatAdd(solvers.SatMul(min(solvers.SatMul(R, J+1), maxPreviewCells), 8), solvers.SatMul(J, job),
		solvers.SatMul(min(pairs, maxGraphEdges), 48), solvers.SatMul(J, 64), 4<<10)
	return solvers.Estimate{Bytes: solvers.SatAdd(data, preview), Field: "jobs"}
}
