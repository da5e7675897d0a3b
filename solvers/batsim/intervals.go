package batsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseIntervals reads Batsim's interval set into ascending distinct ids,
// with the grammar of Batsim's IntervalSet::from_string_hyphen (separator
// " ", joiner "-"): parts separated by spaces, each an id "5" or a closed
// range "1-3"; parts may overlap or repeat, the set is their union ("1-2
// 1-3 5 7" is 1 2 3 5 7). A range backwards, a negative id, anything but
// digits or an empty set is an error in words.
func ParseIntervals(s string) ([]int, error) {
	parts := strings.Fields(s)
	if len(parts) == 0 {
		return nil, fmt.Errorf("no resources (the set is empty)")
	}
	var ids []int
	for _, p := range parts {
		lo, hi, isRange := strings.Cut(p, "-")
		a, err := id(lo)
		if err != nil {
			return nil, fmt.Errorf("%q is not a resource id or a range a-b of them", p)
		}
		b := a
		if isRange {
			if b, err = id(hi); err != nil || b < a {
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
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// id reads a resource id: digits only.
func id(s string) (int, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("not an id")
	}
	return strconv.Atoi(s)
}

// maxIDs bounds an interval set's size (far above any machine a trace
// describes), so a reply cannot make the simulator allocate without end.
const maxIDs = 1 << 22
