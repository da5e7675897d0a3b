package registry

import (
	"context"
	"math/rand/v2"
	"testing"

	"schedlab/solvers"
)

// Every family with instance mutations (an adversarial search's moves)
// keeps its instances readable: a walk of mutations from its first
// preset's instance gives workloads its own parser reads back unchanged,
// and they change something.
func TestMutationsKeepEveryFamilysInstancesReadable(t *testing.T) {
	n := 0
	for _, st := range All() {
		m, ok := st.(solvers.Mutator)
		if !ok || !m.Mutates() {
			continue
		}
		n++
		p := st.Presets()[0]
		params, err := solvers.Resolve(p.Params, nil)
		if err != nil {
			t.Fatal(err)
		}
		w, err := st.Generate(context.Background(), p.Name, params, 1)
		if err != nil {
			t.Fatalf("%s: %v", st.Info().Name, err)
		}
		first := string(w.Data)
		rng := rand.New(rand.NewPCG(5, 6))
		for i := 0; i < 150; i++ {
			next, change, err := m.Mutate(context.Background(), w, p.Name, params, rng)
			if err != nil {
				t.Fatalf("%s step %d: %v", st.Info().Name, i, err)
			}
			back, err := st.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "mutated.json", Data: next.Data}})
			if err != nil {
				t.Fatalf("%s step %d (%s): the mutated instance does not read back: %v", st.Info().Name, i, change, err)
			}
			if w2, err := st.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "mutated.json", Data: back.Data}}); err != nil || string(w2.Data) != string(back.Data) {
				t.Fatalf("%s step %d: the read-back instance is not canonical", st.Info().Name, i)
			}
			w = next
		}
		if string(w.Data) == first {
			t.Errorf("%s: 150 mutations changed nothing", st.Info().Name)
		}
	}
	if n < 3 {
		t.Errorf("%d families mutate; critical, dcop and eapm do", n)
	}
}
