// Package registry lists schedlab's strategies in the design's order: the
// five families of the seed papers.
package registry

import (
	"errors"

	"schedlab/solvers"
	"schedlab/solvers/critical"
	"schedlab/solvers/cyclic"
	"schedlab/solvers/dcop"
	"schedlab/solvers/eapm"
	"schedlab/solvers/gossip"
)

var all = []*solvers.Strategy{
	dcop.New(),
	gossip.New(),
	critical.New(),
	cyclic.New(),
	eapm.New(),
}

// Check checks every family's parameter names (Strategy.CheckNames); the
// server and the CLI refuse to start when it fails.
func Check() error {
	var problems []error
	for _, s := range all {
		if err := s.CheckNames(); err != nil {
			problems = append(problems, err)
		}
	}
	return errors.Join(problems...)
}

// All returns the built strategies.
func All() []*solvers.Strategy { return all }

// Lookup finds a built strategy by name.
func Lookup(name string) (*solvers.Strategy, bool) {
	for _, s := range all {
		if s.Info.Name == name {
			return s, true
		}
	}
	return nil, false
}
