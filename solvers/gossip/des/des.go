// Package des is a small discrete-event kernel, model-free as simgo's and
// SimPy's are: a clock and one queue of events ordered by (time, sequence
// of scheduling), with Step and Run. Events at the same time run in the
// order they were scheduled, so a model that schedules deterministically
// runs deterministically.
//
// E is the model's event type (a typed value; the kernel never looks
// inside it). The model registers its handler with New.
package des

// Kernel is a clock and its event queue.
type Kernel[E any] struct {
	now    float64
	seq    uint64
	q      []item[E] // binary min-heap on (t, seq)
	handle func(E)
	steps  uint64
}

type item[E any] struct {
	t   float64
	seq uint64
	ev  E
}

// New returns a kernel at time 0 whose events go to handle.
func New[E any](handle func(E)) *Kernel[E] {
	return &Kernel[E]{handle: handle}
}

// Now is the current time: the time of the event being handled.
func (k *Kernel[E]) Now() float64 { return k.now }

// Len is the number of events scheduled and not yet handled.
func (k *Kernel[E]) Len() int { return len(k.q) }

// Steps is the number of events handled so far.
func (k *Kernel[E]) Steps() uint64 { return k.steps }

// At schedules e at time t (the caller keeps t ≥ Now()).
func (k *Kernel[E]) At(t float64, e E) {
	k.seq++
	k.q = append(k.q, item[E]{t: t, seq: k.seq, ev: e})
	q := k.q
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !less(&q[i], &q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func less[E any](a, b *item[E]) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.seq < b.seq
}

// Next is the time of the next event; false when none is left.
func (k *Kernel[E]) Next() (float64, bool) {
	if len(k.q) == 0 {
		return 0, false
	}
	return k.q[0].t, true
}

// Step handles the next event: the clock moves to its time. It reports
// false when no event was left.
func (k *Kernel[E]) Step() bool {
	if len(k.q) == 0 {
		return false
	}
	it := k.pop()
	k.now = it.t
	k.steps++
	k.handle(it.ev)
	return true
}

// Run handles the events before until, in order; then the clock stands
// at until (an event at or after until stays queued). Every `every`
// events (0: never), before handling the next one, it calls check with
// the clock at that event; an error from check stops the run and is
// returned.
func (k *Kernel[E]) Run(until float64, every uint64, check func() error) error {
	for len(k.q) > 0 && k.q[0].t < until {
		it := k.pop()
		k.now = it.t
		k.steps++
		if every > 0 && k.steps%every == 0 {
			if err := check(); err != nil {
				return err
			}
		}
		k.handle(it.ev)
	}
	k.now = max(k.now, until)
	return nil
}

func (k *Kernel[E]) pop() item[E] {
	q := k.q
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(q) {
			break
		}
		m := l
		if r := l + 1; r < len(q) && less(&q[r], &q[l]) {
			m = r
		}
		if !less(&q[m], &q[i]) {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	k.q = q
	return top
}
