package registry

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

// Every family with instance mutations (an adversarial search's moves)
// keeps its instances readable: a walk of mutations from its first
// preset's instance gives workloads its own parser reads back unchanged,
// and they change something.
func TestMutationsKeepEveryFamilysInstancesReadable(t *testing.T) {
	n := 0
	for _, st := range All() {
		m, ok := st, st.Mutate != nil
		if !ok || !(m.Mutate != nil) {
			continue
		}
		n++
		p := st.Presets[0]
		params, err := solvers.Resolve(p.Params, nil)
		if err != nil {
			t.Fatal(err)
		}
		w, err := st.Generate(context.Background(), p.Name, params, 1)
		if err != nil {
			t.Fatalf("%s: %v", st.Info.Name, err)
		}
		rng := rand.New(rand.NewPCG(5, 6))
		if _, _, err := m.Mutate(context.Background(), w, p.Name, params, rng); errs.Is(err, errs.Invalid) {
			// cyclic mutates traces only (its preset is searched by CMA-ES)
			data, rerr := os.ReadFile("../formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf")
			if rerr != nil {
				t.Fatal(rerr)
			}
			if w, err = st.ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "kth.swf", Data: data}}); err != nil {
				t.Fatalf("%s: %v", st.Info.Name, err)
			}
			p.Name, params = "", nil
		}
		first := string(w.Data)
		for i := 0; i < 150; i++ {
			next, change, err := m.Mutate(context.Background(), w, p.Name, params, rng)
			if err != nil {
				t.Fatalf("%s step %d: %v", st.Info.Name, i, err)
			}
			back, err := st.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "mutated.json", Data: next.Data}})
			if next.Format == "swf" {
				// a stored trace is not an upload format: it must load and run
				back, err = next, nil
				if i%25 != 24 {
					w = next
					continue
				}
				if _, rerr := st.Run(context.Background(), next, "batch", nil, nil); rerr != nil {
					t.Fatalf("%s step %d (%s): the mutated trace does not run: %v", st.Info.Name, i, change, rerr)
				}
				w = next
				continue
			}
			if err != nil {
				t.Fatalf("%s step %d (%s): the mutated instance does not read back: %v", st.Info.Name, i, change, err)
			}
			if w2, err := st.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "mutated.json", Data: back.Data}}); err != nil || string(w2.Data) != string(back.Data) {
				t.Fatalf("%s step %d: the read-back instance is not canonical", st.Info.Name, i)
			}
			w = next
		}
		if string(w.Data) == first {
			t.Errorf("%s: 150 mutations changed nothing", st.Info.Name)
		}
	}
	if n < 4 {
		t.Errorf("%d families mutate; critical, cyclic, dcop and eapm do", n)
	}
}
