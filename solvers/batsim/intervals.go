package batsim

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ParseIntervals reads Batsim's interval set ("0-3 7 9-10": ids and
// inclusive ranges, separated by spaces) into ascending ids. An id twice,
// a range backwards, a negative id or anything else is an error in words.
func ParseIntervals(s string) ([]int, error) {
	parts := strings.Fields(s)
	if len(parts) == 0 {
		return nil, fmt.Errorf("no resources")
	}
	var ids []int
	for _, p := range parts {
		lo, hi, isRange := strings.Cut(p, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q is not a resource id or a range a-b of them", p)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("%q is not a range a-b with a ≤ b", p)
			}
		}
		if len(ids)+b-a > maxIDs {
			return nil, fmt.Errorf("more than %d resources", maxIDs)
		}
		for c := a; c <= b; c++ {
			ids = append(ids, c)
		}
	}
	sort.Ints(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			return nil, fmt.Errorf("resource %d appears twice", ids[i])
		}
	}
	return ids, nil
}

// maxIDs bounds an interval set's size (far above any machine a trace
// describes), so a reply cannot make the simulator allocate without end.
const maxIDs = 1 << 22
