package gossip

import (
	"math"

	"schedlab/solvers"
)

// Stored bytes of a generated workload: a job is one line of the
// canonical JSON (about 36 bytes: arrival and length); the preview is a
// few metrics and a histogram (about 1.2 KiB).
const (
	storedJobBytes     = 48
	storedPreviewBytes = 4 << 10
)

// generateSize bounds what the umeda2006 preset stores: the expected job
// stream (load × nodes / mean job × duration), an upper estimate that the
// Poisson stream's spread stays under (its deviation is the square root
// of its mean, a few per cent at a few hundred jobs; the constant covers
// tiny streams). The job stream is sized by duration_h with nodes.
func generateSize(p Umeda2006Config) solvers.Estimate {
	mean := (p.JobMinS + p.JobMaxS) / 2
	jobs := 0.0
	if mean > 0 {
		jobs = p.Load * float64(p.Nodes) / mean * p.DurationH * 3600
	}
	bytes := int64(math.MaxInt64)
	if b := jobs*storedJobBytes + storedPreviewBytes; b < float64(math.MaxInt64/2) {
		bytes = int64(b)
	}
	return solvers.Estimate{Bytes: bytes, Field: "duration_h"}
}
