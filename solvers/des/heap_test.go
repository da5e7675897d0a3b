package des

import (
	"math/rand"
	"slices"
	"testing"
)

// kv is an item with a key that often ties and an id that breaks the tie,
// as the users order theirs: (time, seq) in the kernel, (end, job) in the
// batch and batsim simulators.
type kv struct {
	key float64
	id  int
}

func kvLess(a, b kv) bool { return a.key < b.key || a.key == b.key && a.id < b.id }

// TestHeapAgreesWithSort runs random pushes, pops and removals against a
// sorted slice of the same items (brute force): every pop is the least by
// (key, id), ties by id, and what is left sorts the same.
func TestHeapAgreesWithSort(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := range 300 {
		h := NewHeap(kvLess)
		var want []kv // sorted by kvLess
		id := 0
		for op := range 1 + rng.Intn(400) {
			switch r := rng.Intn(10); {
			case r < 6 || len(want) == 0: // push; keys from a small range: many ties
				x := kv{key: float64(rng.Intn(8)), id: id}
				if trial%2 == 1 {
					x.id = rng.Intn(1000) // ids not in push order
				}
				id++
				h.Push(x)
				i, _ := slices.BinarySearchFunc(want, x, cmpKV)
				want = slices.Insert(want, i, x)
			case r < 9:
				if got := h.Pop(); got != want[0] {
					t.Fatalf("trial %d op %d: popped %v, want %v", trial, op, got, want[0])
				}
				want = want[1:]
			default: // remove an arbitrary item, as a batsim kill does
				items := h.Items()
				i := rng.Intn(len(items))
				x := items[i]
				if got := h.Remove(i); got != x {
					t.Fatalf("trial %d op %d: removed %v from index %d, which held %v", trial, op, got, i, x)
				}
				j := slices.Index(want, x)
				want = slices.Delete(want, j, j+1)
			}
			if h.Len() != len(want) || len(want) > 0 && h.Min() != want[0] {
				t.Fatalf("trial %d op %d: %d items, min %v; want %d, %v", trial, op, h.Len(), h.Items(), len(want), want)
			}
		}
		for len(want) > 0 {
			if got := h.Pop(); got != want[0] {
				t.Fatalf("trial %d drain: popped %v, want %v", trial, got, want[0])
			}
			want = want[1:]
		}
		if h.Len() != 0 {
			t.Fatalf("trial %d: %d items left after the drain", trial, h.Len())
		}
	}
}

func cmpKV(a, b kv) int {
	switch {
	case kvLess(a, b):
		return -1
	case kvLess(b, a):
		return 1
	}
	return 0
}
