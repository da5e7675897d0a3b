package des

// Heap is a binary min-heap over a slice of T: the kernel's event queue and
// the completion queues of the simulators that run their own loop. It is
// typed (not container/heap), so a push or pop boxes nothing. Give less a
// total order (break ties on a sequence number or an id): then items leave
// in one order whatever the heap's layout.
type Heap[T any] struct {
	s    []T
	less func(a, b T) bool
}

// NewHeap is an empty heap ordered by less.
func NewHeap[T any](less func(a, b T) bool) Heap[T] { return Heap[T]{less: less} }

// Len is the number of items.
func (h *Heap[T]) Len() int { return len(h.s) }

// Min is the least item; the heap must not be empty.
func (h *Heap[T]) Min() T { return h.s[0] }

// Items are the items in the heap's order (not sorted): to look, not to
// change.
func (h *Heap[T]) Items() []T { return h.s }

// Push adds x.
func (h *Heap[T]) Push(x T) {
	h.s = append(h.s, x)
	h.up(len(h.s) - 1)
}

// Pop removes and returns the least item; the heap must not be empty.
func (h *Heap[T]) Pop() T { return h.Remove(0) }

// Remove removes and returns the item at index i of Items.
func (h *Heap[T]) Remove(i int) T {
	s := h.s
	x, n := s[i], len(s)-1
	s[i] = s[n]
	h.s = s[:n]
	if i < n {
		h.down(i)
		h.up(i)
	}
	return x
}

func (h *Heap[T]) up(i int) {
	s := h.s
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(s[i], s[p]) {
			return
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *Heap[T]) down(i int) {
	s, n := h.s, len(h.s)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.less(s[c+1], s[c]) {
			c++
		}
		if !h.less(s[c], s[i]) {
			return
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
}
