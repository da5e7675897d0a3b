package registry

import (
	"errors"

	"schedlab/solvers"
	"schedlab/solvers/batsim"
	"schedlab/solvers/cyclic"
)

// Set is the built strategies with the decision processes the operator
// registered (--scheduler): the cyclic family then has a variant
// external:NAME for each. Its Lookup and All stand in for the package's.
type Set struct {
	all []*solvers.Strategy
}

// WithSchedulers is the built strategies with scheds registered (none:
// the same as All).
func WithSchedulers(scheds []batsim.Scheduler) (*Set, error) {
	if err := batsim.CheckUnique(scheds); err != nil {
		return nil, err
	}
	s := &Set{all: make([]*solvers.Strategy, len(all))}
	copy(s.all, all)
	if len(scheds) == 0 {
		return s, nil
	}
	for i, st := range s.all {
		if st.Info.Name == "cyclic" {
			s.all[i] = cyclic.WithSchedulers(scheds)
			return s, s.all[i].CheckNames()
		}
	}
	return nil, errors.New("registry: no cyclic family to add the schedulers to")
}

// All returns the set's strategies.
func (s *Set) All() []*solvers.Strategy { return s.all }

// Lookup finds one by name.
func (s *Set) Lookup(name string) (*solvers.Strategy, bool) {
	for _, st := range s.all {
		if st.Info.Name == name {
			return st, true
		}
	}
	return nil, false
}
