package registry

import (
	"sync"

	"schedlab/solvers"
	"schedlab/solvers/batsim"
	"schedlab/solvers/cyclic"
)

// Set is the built strategies with the decision processes the operator
// registered (--scheduler): the cyclic family then has a variant
// external:NAME for each. Its Lookup and All stand in for the package's,
// and build what they are asked for, as those do.
type Set struct {
	cyclic func() (*solvers.Strategy, error) // nil: the package's
}

// WithSchedulers is the built strategies with scheds registered (none:
// the same as All).
func WithSchedulers(scheds []batsim.Scheduler) (*Set, error) {
	if err := batsim.CheckUnique(scheds); err != nil {
		return nil, err
	}
	s := &Set{}
	if len(scheds) > 0 {
		s.cyclic = sync.OnceValues(func() (*solvers.Strategy, error) {
			st := cyclic.WithSchedulers(scheds)
			return st, st.CheckNames()
		})
		if _, err := s.cyclic(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// All returns the set's strategies, a fresh slice.
func (s *Set) All() []*solvers.Strategy {
	all := All()
	for i, st := range all {
		if st.Info.Name == "cyclic" && s.cyclic != nil {
			all[i], _ = s.cyclic()
		}
	}
	return all
}

// Lookup finds one by name.
func (s *Set) Lookup(name string) (*solvers.Strategy, bool) {
	if name == "cyclic" && s.cyclic != nil {
		st, _ := s.cyclic()
		return st, true
	}
	return Lookup(name)
}
