package eapm

import (
	"context"
	"fmt"
	"schedlab/errs"
)

// Online is online on a fresh model, for tests.
func Online(ctx context.Context, in *Instance) (*Schedule, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	return md.online(ctx)
}

// OnlineWaterfill is onlineWaterfill on a fresh model, for tests.
func OnlineWaterfill(ctx context.Context, in *Instance) (*Schedule, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	return md.onlineWaterfill(ctx)
}

// GreedyMinEnergy is greedyMinEnergy on a fresh model, for tests.
func GreedyMinEnergy(ctx context.Context, in *Instance) (*Schedule, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	return md.greedyMinEnergy(ctx)
}

// GreedyMaxObjective is greedyMaxObjective on a fresh model, for tests.
func GreedyMaxObjective(ctx context.Context, in *Instance) (*Schedule, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	return md.greedyMaxObjective(ctx)
}

// Average is average on a fresh model, for tests.
func Average(ctx context.Context, in *Instance) (*Schedule, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	return md.average(ctx)
}

// UpperBound is upperBound on a fresh model, for tests.
func UpperBound(in *Instance) (*Bound, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	return md.upperBound()
}

// OfflineLP is offlineLP on a fresh model, for tests.
func OfflineLP(ctx context.Context, in *Instance) (*Schedule, *Bound, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, nil, err
	}
	return md.offlineLP(ctx)
}

// Evaluate computes loads, energy, revenue, makespan, objective and trace of
// an allocation X (n×m, row-major) of in's users. It checks that every user's
// row is non-negative and sums to its bag.
func Evaluate(in *Instance, X []int32) (*Schedule, error) {
	md, err := newModel(in)
	if err != nil {
		return nil, err
	}
	if len(X) != md.n*md.m {
		return nil, errs.Invalidf("x", "%d cells for %d users × %d machine types", len(X), md.n, md.m)
	}
	st := newState(md)
	a := &alloc{x: make([]int, md.m)}
	for i, u := range in.Users {
		sum := 0
		for j := range md.m {
			v := int(X[i*md.m+j])
			if v < 0 {
				return nil, errs.Invalidf(fmt.Sprintf("x[%d][%d]", i, j), "negative allocation %d", v)
			}
			a.add(j, v)
			sum += v
		}
		if sum != u.Tasks {
			return nil, errs.Invalidf(fmt.Sprintf("x[%d]", i), "places %d tasks, user has %d", sum, u.Tasks)
		}
		st.place(i, a)
	}
	return st.finish(), nil
}
