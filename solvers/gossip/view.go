package gossip

// The two systems differ only in how the schedulers learn which nodes are
// free: from the tables every node gossips (gossipInfo) or from a central
// manager's collections (centralInfo). The shared model (sim: nodes, jobs,
// the schedulers' queues, accounting) reaches that difference through two
// small interfaces, declared here by their consumer: view, what a
// scheduler asks when it matches, and protocol, what the node model and
// the clock tell the information system.

// view is what a scheduler knows of the nodes.
type view interface {
	// latency is the one-way latency between scheduler k and node j, s.
	latency(k, j int) float64
	// candidate is a node scheduler k believes free, found by scanning
	// from node start (a uniform draw of the caller); node −1: none.
	candidate(k, start int) candidate
	// sent tells that scheduler k sent node o a job (a request, or a
	// hand-over on o's poll): k must not match o again on what it knew.
	sent(k, o int)
	// answered tells that node i's accept or reject reached scheduler k.
	answered(k, i int)
}

// candidate is a match: the node, the version of its record (gossip) and
// the record's creation time.
type candidate struct {
	node int
	ver  uint32
	recT float64
}

// protocol is how the information spreads; each method runs at s.now().
type protocol interface {
	// start places the schedulers (sim.schedNode) using perm, a seeded
	// permutation of the reachable nodes, and schedules its own first
	// events.
	start(perm []int)
	// ticksAll reports whether every node has a period tick (else only
	// the NAT nodes, which poll).
	ticksAll() bool
	// tick is node i's period (it is up).
	tick(i int)
	// changed tells that node i became busy or free.
	changed(i int, st uint8)
	// left tells that node i left (it is down already); joined that it
	// is back up.
	left(i int)
	joined(i int)
	// sample records the series once per period.
	sample()
	// handle runs the protocol's own events.
	handle(e event)
	// summarize fills the protocol's measures of r.
	summarize(r *Result)
}
