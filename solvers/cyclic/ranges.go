package cyclic

import "slices"

// A request's feasible start ranges per node, cached under the node's
// version and kept up to date with the domain (collect).

// span is a range of feasible starts [a, b] in one slot (a is the slot's
// start).
type span struct{ a, b int32 }

// nodeRanges are a request's spans on one node, as of the node's version,
// but those ending before floor (which only rises within FindAlternatives).
type nodeRanges struct {
	ver   uint64
	floor int32
	last  int32 // the last span's b, −1 if none (read without the spans)
	spans []span
}

// collect brings r's feasible ranges up to date with d (recomputing only
// the nodes whose busy intervals changed since) and lists in sr.nodes the
// nodes with one ending at or after floor. With a history h, the
// domain has only shrunk since h's searches and floor only risen, so a
// node without such a range will never have one again: it is dropped from
// h.live for good.
func (sr *searcher) collect(d *Domain, r *Request, h *history, floor int) {
	var nodes []int32
	if h != nil {
		if h.live == nil {
			r.live = grow(r.live, len(r.Eligible))
			h.live = r.live
			for k := range h.live {
				h.live[k] = int32(k)
			}
		}
		nodes = h.live
	} else {
		nodes = sr.own[:0] // not sr.nodes: that may be a history's live list
		for k := range r.Eligible {
			nodes = append(nodes, int32(k))
		}
		sr.own = nodes
	}
	keep := nodes[:0]
	for _, k := range nodes {
		n := r.Eligible[k]
		nr := &r.ranges[k]
		if nr.ver != d.ver[n] || int(nr.floor) > floor {
			nr.update(d, r, n, floor)
		}
		if int(nr.last) >= floor {
			keep = append(keep, k)
		} else if h != nil && h.lbs.ok && slices.Contains(h.lbs.nodes, int(k)) {
			h.lbs.ok = false // one of the bounds' picks is gone
		}
	}
	if h != nil {
		h.live = keep
	}
	sr.nodes = keep
}

// update brings node n's ranges for r up to date with d, from floor on:
// by the one slot occupied since when that is all that changed, else by
// compute.
func (nr *nodeRanges) update(d *Domain, r *Request, n, floor int) {
	if nr.ver == 0 || nr.ver != d.pver[n] || int(nr.floor) > floor {
		nr.compute(d, r, n, floor)
		return
	}
	// The occupied iv lies in one free slot [A, B); if that slot has a
	// range [A, B − t], it splits into the ranges of [A, s) and [e, B)
	// that are long enough, the first only if it ends at floor or later.
	iv, t, f := d.occ[n], r.Time[n], int(nr.floor)
	sp := nr.spans
	for i := range sp {
		a, b := int(sp[i].a), int(sp[i].b)
		if a > iv.Start {
			break
		}
		if iv.End > b+t {
			continue
		}
		left := iv.Start-a >= t && iv.Start-t >= f
		right := b >= iv.End
		switch {
		case left && right:
			nr.spans = append(sp, span{}) // sp's length only, but when it grows
			sp = nr.spans
			copy(sp[i+2:], sp[i+1:])
			sp[i].b = int32(iv.Start - t)
			sp[i+1] = span{int32(iv.End), int32(b)}
		case left:
			sp[i].b = int32(iv.Start - t)
		case right:
			sp[i].a = int32(iv.End)
		default:
			copy(sp[i:], sp[i+1:])
			nr.spans = nr.spans[:len(sp)-1]
		}
		break
	}
	nr.ver = d.ver[n]
	nr.setLast()
}

func (nr *nodeRanges) setLast() {
	nr.last = -1
	if sp := nr.spans; len(sp) > 0 {
		nr.last = sp[len(sp)-1].b
	}
}

// compute brings node n's ranges for r up to date with d, from floor on.
func (nr *nodeRanges) compute(d *Domain, r *Request, n, floor int) {
	nr.ver, nr.floor = d.ver[n], int32(floor)
	nr.spans = nr.spans[:0]
	t := r.Time[n]
	// Ranges ending before floor are not wanted: start at the first busy
	// interval from floor + t on.
	b := d.busy[n]
	i, j := 0, len(b)
	for i < j {
		if mid := int(uint(i+j) >> 1); b[mid].Start < floor+t {
			i = mid + 1
		} else {
			j = mid
		}
	}
	at := 0
	if i > 0 {
		at = b[i-1].End
	}
	for _, iv := range b[i:] {
		if iv.Start-t >= at {
			nr.spans = append(nr.spans, span{int32(at), int32(iv.Start - t)})
		}
		at = max(at, iv.End)
	}
	if d.T-t >= at {
		nr.spans = append(nr.spans, span{int32(at), int32(d.T - t)})
	}
	nr.setLast()
}
