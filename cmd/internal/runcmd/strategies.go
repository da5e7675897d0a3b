package runcmd

import (
	"schedlab/solvers"
	"schedlab/solvers/registry"
)

// benchStrategies are strategies a build adds for benchmarks only: none,
// unless built with -tags schedlab_bench (bench_noop.go), which adds the
// queue's test strategy qtest, whose variant ok with ms=0 is a no-op run
// (bench/sweep). A normal build lists the five research families and no
// more.
var benchStrategies []*solvers.Strategy

// All is set's strategies and this build's benchmark ones.
func All(set *registry.Set) []*solvers.Strategy {
	if len(benchStrategies) == 0 {
		return set.All()
	}
	return append(append([]*solvers.Strategy{}, set.All()...), benchStrategies...)
}

// Lookup finds a strategy of All(set) by name.
func Lookup(set *registry.Set) func(string) (*solvers.Strategy, bool) {
	return func(name string) (*solvers.Strategy, bool) {
		if s, ok := set.Lookup(name); ok {
			return s, true
		}
		for _, s := range benchStrategies {
			if s.Info.Name == name {
				return s, true
			}
		}
		return nil, false
	}
}
