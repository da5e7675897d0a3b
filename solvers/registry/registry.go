// Package registry lists schedlab's strategies in the design's order: the
// five families of the seed papers.
package registry

import (
	"errors"
	"sync"

	"schedlab/solvers"
	"schedlab/solvers/critical"
	"schedlab/solvers/cyclic"
	"schedlab/solvers/dcop"
	"schedlab/solvers/eapm"
	"schedlab/solvers/gossip"
)

// families are the five families in the design's order, each built the
// first time a command asks for it: `schedlab run` builds the one it runs
// and no other (issue 43: a command line's start). TestFamiliesAreNamed
// holds each name to the family's Info.Name.
var families = []struct {
	name  string
	build func() *solvers.Strategy
}{
	{"dcop", sync.OnceValue(dcop.New)},
	{"gossip", sync.OnceValue(gossip.New)},
	{"critical", sync.OnceValue(critical.New)},
	{"cyclic", sync.OnceValue(cyclic.New)},
	{"eapm", sync.OnceValue(eapm.New)},
}

// Check checks every family's parameter names (Strategy.CheckNames); the
// server and the workers refuse to start when it fails (and the
// registry's tests fail on such a build).
func Check() error {
	var problems []error
	for _, s := range All() {
		if err := s.CheckNames(); err != nil {
			problems = append(problems, err)
		}
	}
	return errors.Join(problems...)
}

// All returns the built strategies, a fresh slice.
func All() []*solvers.Strategy {
	out := make([]*solvers.Strategy, len(families))
	for i, f := range families {
		out[i] = f.build()
	}
	return out
}

// Lookup finds a built strategy by name, building only that one.
func Lookup(name string) (*solvers.Strategy, bool) {
	for _, f := range families {
		if f.name == name {
			return f.build(), true
		}
	}
	return nil, false
}
