package cyclic

import (
	"context"
	"slices"
)

// FindWindow is searcher.find on fresh scratch space, for tests.
func FindWindow(d *Domain, r *Request, mode string) (Window, bool) {
	var s searcher
	return s.find(d, r, mode, nil)
}

// FindAlternatives is searcher.alternatives on fresh scratch space, for tests.
func FindAlternatives(ctx context.Context, d *Domain, reqs []*Request, modes []string) ([][]Window, error) {
	var sr searcher
	return sr.alternatives(ctx, d, reqs, modes)
}

// Criteria lists the user criteria in the seed's Table 1 order.
func Criteria() []string { return slices.Clone(criteria[:]) }

// NewRequest builds a job's request on d.
func NewRequest(d *Domain, j *Job) *Request {
	r := &Request{}
	r.fill(d, j)
	return r
}

// judged is the verdict of the row key ("" if there is none).
func (c *Claims) judged(key string) string { return c.by[key].Verdict }
